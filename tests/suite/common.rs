//! Test helpers: a temporary workspace and a clean way to run agentread in it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

/// A temporary workspace root with files in it.
pub struct Workspace {
    pub dir: tempfile::TempDir,
}

impl Workspace {
    pub fn new() -> Workspace {
        Workspace {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `bytes` to `name` (parent directories created).
    pub fn file(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, bytes).unwrap();
        path
    }

    pub fn mkdir(&self, name: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::create_dir_all(&path).unwrap();
        path
    }

    /// agentread with the workspace as its current directory and an environment cleared
    /// of what changes its output (NO_COLOR, AGENTREAD_ROOT).
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::cargo_bin("agentread").unwrap();
        cmd.current_dir(self.dir.path())
            .env_remove("NO_COLOR")
            .env_remove("AGENTREAD_ROOT")
            .env_remove("CLICOLOR_FORCE")
            // The outline cache is tested on its own (structure_answers.rs), in a
            // directory of its own, and kept out of the home directory here.
            .env("AGENTREAD_NO_CACHE", "1");
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd().args(args).output().unwrap()
    }

    /// Runs with `--format json` and decodes the single JSON object printed.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.extend(["--format", "json"]);
        let out = self.run(&all);
        let lines = json_lines(&out);
        assert_eq!(lines.len(), 1, "one object expected: {}", stdout(&out));
        lines.into_iter().next().unwrap()
    }
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

pub fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

/// Every line of stdout decoded as a JSON object.
pub fn json_lines(out: &Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON {e}: {l}")))
        .collect()
}

/// Numbered lines `from..=to` as the default style renders them.
pub fn numbered(from: u64, to: u64, text: impl Fn(u64) -> String) -> String {
    (from..=to)
        .map(|n| format!("{n:>4} | {}\n", text(n)))
        .collect()
}

/// The binary under test. Debug builds carry the fault switch (`AGENTREAD_FAULT=panic`
/// makes every answer panic), for the tests of panics.
pub fn fault_binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_agentread"))
}

/// Swaps the symlink `link` between the targets `a` and `b` (atomically, by renaming a
/// fresh link over it) on another thread while `read` runs `runs` times; returns how
/// many times the link was swapped.
pub fn while_swapping_link(
    link: &Path,
    a: &Path,
    b: &Path,
    runs: usize,
    mut read: impl FnMut(),
) -> u64 {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (link, a, b, stop) = (
            link.to_path_buf(),
            a.to_path_buf(),
            b.to_path_buf(),
            stop.clone(),
        );
        std::thread::spawn(move || {
            let fresh = link.with_extension("swap");
            let mut flips = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let target = if flips.is_multiple_of(2) { &a } else { &b };
                let _ = std::fs::remove_file(&fresh);
                std::os::unix::fs::symlink(target, &fresh).unwrap();
                std::fs::rename(&fresh, &link).unwrap();
                flips += 1;
            }
            flips
        })
    };
    for _ in 0..runs {
        read();
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap()
}
