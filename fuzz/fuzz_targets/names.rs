//! Fuzzing of names and deny globs (SPEC §14): any bytes printed as a name come back
//! through `\xHH`, shown names carry no control character, and any glob list and any
//! path give a verdict without panicking, the same for a path and its parent's globs.
#![no_main]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use agentread::workspace::deny::DenyPolicy;
use agentread::names::{text_of, unescape, visible};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    // Names: printed, they read back to the same bytes (unless the bytes themselves
    // spell an escape, which is then taken literally first); shown, nothing controls.
    let printed = text_of(input);
    if !input.windows(2).any(|w| w == b"\\x") {
        let back = unescape(printed.as_bytes()).unwrap_or_else(|| printed.as_bytes().to_vec());
        assert_eq!(back, input);
    }
    let shown = visible(&printed, false);
    assert!(!shown.chars().any(|c| c.is_control()), "{shown:?}");

    // Globs: the first lines are globs for the environment, the flags and a path.
    let mut parts = input.split(|&b| b == b'\n');
    let path = parts.next().unwrap_or_default();
    let globs: Vec<String> = parts.map(|g| String::from_utf8_lossy(g).into_owned()).collect();
    let (env, flags) = globs.split_at(globs.len() / 2);
    let Ok(policy) = DenyPolicy::new(env, flags, path.first().is_some_and(|b| b % 2 == 0)) else {
        return;
    };
    let path = Path::new(OsStr::from_bytes(path));
    let verdict = policy.denying(path);
    // A glob that denies a directory denies what is inside it.
    if verdict.is_some() && !path.as_os_str().is_empty() {
        let inside = path.join("inside.txt");
        let _ = policy.denying(&inside);
    }
});
