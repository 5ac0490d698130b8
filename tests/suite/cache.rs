//! What is kept between reads (SPEC §15): outlines by their content in a private
//! directory, and a map's pages, which reuse the map while its tree is unchanged.

use crate::common;

use common::{Workspace, code, stderr, stdout};

#[test]
fn outlines_are_kept_by_content_in_a_private_directory() {
    use std::os::unix::fs::PermissionsExt;
    let ws = Workspace::new();
    let cache = tempfile::tempdir().unwrap();
    ws.file("a.rs", "fn one() {}\n\nfn two() {}\n");
    let run = |args: &[&str]| {
        ws.cmd()
            .env_remove("AGENTREAD_NO_CACHE")
            .env("XDG_CACHE_HOME", cache.path())
            .args(args)
            .output()
            .unwrap()
    };
    let fresh = stdout(&ws.run(&["a.rs", "--outline"]));
    assert_eq!(stdout(&run(&["a.rs", "--outline"])), fresh);
    let dir = cache.path().join("agentread");
    let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    let entries: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert_eq!(entries.len(), 1);
    let entry = entries[0].path();
    // The second read takes the kept outline: an entry edited by hand shows.
    let kept = std::fs::read_to_string(&entry).unwrap();
    std::fs::write(&entry, kept.replace("\"two\",\"two\"", "\"zwei\",\"zwei\"")).unwrap();
    assert!(stdout(&run(&["a.rs#zwei", "--no-hint"])).contains("fn two"));
    // Not with --no-cache or AGENTREAD_NO_CACHE=1.
    let out = run(&["a.rs#zwei", "--no-cache"]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    let out = ws
        .cmd()
        .env("XDG_CACHE_HOME", cache.path())
        .args(["a.rs#zwei"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 3);
    // A foreign or broken entry is ignored and replaced.
    std::fs::write(&entry, "not an outline").unwrap();
    assert_eq!(stdout(&run(&["a.rs", "--outline"])), fresh);
    assert_eq!(std::fs::read_to_string(&entry).unwrap(), kept);
    // Another content is another entry; the same content elsewhere is the same one.
    ws.file("b.rs", "fn one() {}\n\nfn two() {}\n");
    run(&["b.rs", "--outline"]);
    ws.file("c.rs", "fn three() {}\n");
    run(&["c.rs", "--outline"]);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    // A kept outline gives the views built from it as a fresh one does: the signatures
    // view needs each function's body and parent, and the file's long comments.
    ws.file(
        "s.rs",
        "struct S;\nimpl S {\n    /// F.\n    ///\n    /// More\n    /// and\n    /// more.\n    /// End.\n    fn f(&self) -> u32 {\n        let a = 1;\n        let b = 2;\n        let c = 3;\n        let d = 4;\n        a + b + c + d\n    }\n}\n",
    );
    let fresh = stdout(&ws.run(&["s.rs", "--signatures"]));
    assert!(
        fresh.contains("fn f")
            && !fresh.contains("let b")
            && fresh.contains("⋯ lines 4-8 (docs of f)")
            && !fresh.contains("more."),
        "{fresh}"
    );
    run(&["s.rs", "--signatures"]);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
    assert_eq!(stdout(&run(&["s.rs", "--signatures"])), fresh);
}

#[test]
fn a_maps_pages_reuse_the_map_while_its_tree_is_unchanged() {
    let ws = Workspace::new();
    let cache = tempfile::tempdir().unwrap();
    ws.file("a.rs", "fn one() {}\n\nfn two() {}\n");
    ws.file("sub/b.py", "def three():\n    pass\n");
    ws.file(
        "sub/tool",
        "#!/usr/bin/env python3\ndef four():\n    pass\n",
    );
    // Listed with why it was not parsed, by the kept map as by a fresh one.
    ws.file("sub/blob.rs", "fn x() {}\n\0\0\0");
    let run = |args: &[&str], cached: bool| map_page(&ws, cache.path(), args, cached);
    // A second tree, whose ignore file was there when its map was kept and is edited
    // since (which leaves its directory's `stat` as it was); made now to share the wait.
    let (ignoring, ignoring_cache) = (Workspace::new(), tempfile::tempdir().unwrap());
    ignoring.file("a.rs", "fn one() {}\n");
    ignoring.file("sub/b.rs", "fn two() {}\n");
    ignoring.file("sub/.gitignore", "nothing\n");
    let run_ignoring = |cached: bool| map_page(&ignoring, ignoring_cache.path(), &[], cached);
    // A third, whose map is longer than the 256 lines a kept map's index steps by: a
    // page read from it holds only its own lines and the others as empty ones.
    let (long, long_cache) = (Workspace::new(), tempfile::tempdir().unwrap());
    for file in 0..30 {
        let fns: String = (0..10)
            .map(|f| format!("fn f{file}_{f}() {{}}\n"))
            .collect();
        long.file(&format!("m{file:02}.rs"), &fns);
    }
    let run_long = |args: &[&str], cached: bool| map_page(&long, long_cache.path(), args, cached);
    let dir = cache.path().join("agentread");
    let kept = || {
        std::fs::read_dir(&dir)
            .map(|d| {
                d.flatten()
                    .filter(|e| e.file_name().to_string_lossy().starts_with("map-"))
                    .map(|e| e.path())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    // What changed within the last seconds is kept as changed (a write in the same clock
    // tick could leave its times as they were): the next page makes the map again.
    assert_eq!(run(&["-n", "3"], true), run(&["-n", "3"], false));
    assert_eq!(kept().len(), 1);
    std::thread::sleep(std::time::Duration::from_millis(3100));
    for page in [
        &["-s", "1", "-n", "3"][..],
        &["-s", "4", "-n", "3"],
        &["-s", "7", "-n", "3", "--format", "json"],
        &["-s", "4", "-n", "3", "--format", "xml"],
        &["-s", "1", "-n", "100", "--format", "json"],
    ] {
        let fresh = run(page, false);
        assert_eq!(run(page, true), fresh);
        assert_eq!(run(page, true), fresh);
        assert_eq!(kept().len(), 1);
    }
    assert_eq!(run_long(&["-n", "1"], true), run_long(&["-n", "1"], false));
    // An entry whose line count is not its text's (of the same length) is not the map:
    // its pages would be the count's, not the map's.
    let long_entry = || {
        std::fs::read_dir(long_cache.path().join("agentread"))
            .unwrap()
            .flatten()
            .find(|e| e.file_name().to_string_lossy().starts_with("map-"))
            .unwrap()
            .path()
    };
    let entry = std::fs::read(long_entry()).unwrap();
    let text = String::from_utf8(entry.clone()).unwrap();
    let forged = text.replacen("\n330 0 ", "\n990 0 ", 1);
    assert_ne!(forged, text, "the index line starts with the line count");
    std::fs::write(long_entry(), forged).unwrap();
    for page in [&["-s", "900"][..], &["-s", "300"]] {
        assert_eq!(run_long(page, true), run_long(page, false), "{page:?}");
    }
    for page in [
        &["-s", "250", "-n", "10"][..],
        &["-s", "256", "-n", "1"],
        &["-s", "257", "-n", "1", "--format", "json"],
        &["-s", "300"],
        &["-s", "2", "-n", "400", "--max-bytes", "9000"],
        &["-s", "330", "--format", "json"],
    ] {
        let fresh = run_long(page, false);
        assert!(fresh.contains("fn f"), "{fresh}");
        assert_eq!(run_long(page, true), fresh, "{page:?}");
    }
    // The second tree: its map kept, then read from; the edit shows on the next page.
    assert_eq!(run_ignoring(true), run_ignoring(false));
    assert!(run_ignoring(true).contains("b.rs"));
    ignoring.file("sub/.gitignore", "b.rs\n");
    let page = run_ignoring(true);
    assert!(!page.contains("b.rs"), "{page}");
    assert_eq!(page, run_ignoring(false));
    let whole = run(&["-n", "100", "--format", "json"], true);
    assert!(
        whole.contains(r#""not_parsed":"binary""#) && whole.contains(r#""status":"partial""#),
        "{whole}"
    );
    // The pages come from the kept map: an edit by hand shows.
    let edit = |from: &str, to: &str| {
        let entry = kept().remove(0);
        let text = String::from_utf8(std::fs::read(&entry).unwrap()).unwrap();
        std::fs::write(&entry, text.replace(from, to)).unwrap();
    };
    // (An edit that keeps the entry's length: one that changes it is not the map kept.)
    edit("fn two() {}\n", "fn Two() {}\n");
    assert!(run(&["-n", "3"], true).contains("fn Two"));
    // An entry cut short is not the map kept: the page is made again.
    let entry = kept().remove(0);
    let bytes = std::fs::read(&entry).unwrap();
    std::fs::write(&entry, &bytes[..bytes.len() - 10]).unwrap();
    assert_eq!(run(&["-n", "3"], true), run(&["-n", "3"], false));
    // A file written since is read again, and only it: what the map knew of the others
    // (an edit by hand here) stays.
    edit("def three():", "def Three():");
    ws.file("a.rs", "fn one() {}\n\nfn two() {}\n\nfn five() {}\n");
    let page = run(&["-n", "100"], true);
    assert!(page.contains("fn five") && !page.contains("Two"), "{page}");
    assert_eq!(page.replace("Three", "three"), run(&["-n", "100"], false));
    // A file added, a file removed.
    ws.file("sub/c.go", "package c\n\nfunc Six() {}\n");
    assert!(run(&["-n", "100"], true).contains("c.go"));
    std::fs::remove_file(ws.path().join("sub/b.py")).unwrap();
    assert!(!run(&["-n", "100"], true).contains("b.py"));
    // An ignore file written since changes the map too.
    ws.file("sub/.gitignore", "c.go\n");
    let all = run(&["-n", "100"], true);
    assert!(!all.contains("c.go"), "{all}");
    assert_eq!(all, run(&["-n", "100"], false));
}

/// A page of the map of the workspace (`. --outline --no-hint` after `args`), its times
/// masked, with the cache in `cache` when `cached`.
fn map_page(ws: &Workspace, cache: &std::path::Path, args: &[&str], cached: bool) -> String {
    let mut cmd = ws.cmd();
    cmd.env("XDG_CACHE_HOME", cache);
    if cached {
        cmd.env_remove("AGENTREAD_NO_CACHE");
    }
    let mut args = args.to_vec();
    args.extend([".", "--outline", "--no-hint"]);
    mask_times(&stdout(&cmd.args(args).output().unwrap()))
}

/// An answer with the times it took (`time_ms`, `Took N ms`) as `0`.
fn mask_times(answer: &str) -> String {
    let mut out = String::new();
    let mut rest = answer;
    while let Some(at) = ["\"time_ms\":", "time_ms=\"", "(Took "]
        .iter()
        .filter_map(|marker| rest.find(marker).map(|i| i + marker.len()))
        .min()
    {
        out.push_str(&rest[..at]);
        rest = rest[at..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push('0');
    }
    out.push_str(rest);
    out
}

/// What stands under an entry's name but is no regular file (a FIFO, a link to
/// `/dev/zero`) is foreign: ignored, never waited for or read without end.
#[test]
fn an_entry_that_is_no_regular_file_is_ignored() {
    let ws = Workspace::new();
    let cache = tempfile::tempdir().unwrap();
    ws.file("a.py", "def one():\n    pass\n");
    let run = || {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_agentread"))
            .current_dir(ws.path())
            .env_remove("AGENTREAD_ROOT")
            .env_remove("AGENTREAD_NO_CACHE")
            .env("XDG_CACHE_HOME", cache.path())
            .args(["a.py", "--outline"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while child.try_wait().unwrap().is_none() {
            if std::time::Instant::now() > deadline {
                child.kill().unwrap();
                panic!("the outline waited on its cache entry");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        child.wait_with_output().unwrap()
    };
    let fresh = stdout(&run());
    assert!(fresh.contains("def one"), "{fresh}");
    let dir = cache.path().join("agentread");
    let entry = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    std::fs::remove_file(&entry).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &entry).unwrap();
    assert_eq!(stdout(&run()), fresh);
    let _ = std::fs::remove_file(&entry);
    let made = std::process::Command::new("mkfifo")
        .arg(&entry)
        .status()
        .unwrap();
    assert!(made.success());
    assert_eq!(stdout(&run()), fresh);
}
