//! Regression tests, each named after what it guards: reads that blocked or read nothing,
//! quadratic lookups, unbounded memory, hostile names, JSON-RPC answers and races.
//! Where a test guards against a hang or a slow path it asserts on the result and
//! keeps a generous wall-clock limit only as a guard against hanging the suite.

mod common;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Workspace, code, json_lines, stderr, stdout};

/// Wall-clock guard for the tests of slow paths: far above what they take.
const HANG_GUARD: Duration = Duration::from_secs(5);

fn bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_agentread"))
}

/// Runs agentread in `ws` with `args`; fails if it runs longer than `limit`.
fn run_within(ws: &Workspace, args: &[&std::ffi::OsStr], limit: Duration) -> std::process::Output {
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(ws.path())
        .env_remove("AGENTREAD_ROOT")
        .env_remove("AGENTREAD_DENY")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Drained as the child writes: a full pipe would stop it.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).unwrap();
            bytes
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("agentread {args:?} still ran after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    std::process::Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn run_str_within(ws: &Workspace, args: &[&str], limit: Duration) -> std::process::Output {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    run_within(ws, &args, limit)
}

// ---------------------------------------------------------------------------------------
// 1, 2: files that stat calls regular and empty, or whose read would block

/// `/proc/kmsg` is a regular file by stat whose read blocks once the kernel's messages
/// are read: it is NOT_FILE at once. (It needs root; reading it takes the messages it
/// holds, as any reader of it does.)
#[test]
fn a_file_whose_read_would_block_is_not_file_at_once() {
    if !rustix::process::geteuid().is_root() || !Path::new("/proc/kmsg").exists() {
        return;
    }
    let ws = Workspace::new();
    for _ in 0..2 {
        let out = run_str_within(&ws, &["--root", "/", "proc/kmsg", "-f", "json"], HANG_GUARD);
        let v = &json_lines(&out)[0];
        assert_eq!(code(&out), 6, "{v}");
        assert_eq!(v["error"]["code"], "NOT_FILE");
        assert_eq!(
            v["error"]["message"],
            "'proc/kmsg' cannot be read without blocking (a kernel or device interface, not a regular file); it was not read."
        );
    }
}

/// `/proc/self/status` has a size of 0 and content: it is read to its end.
#[test]
fn proc_files_of_size_zero_are_read_to_their_end() {
    let ws = Workspace::new();
    let out = run_str_within(&ws, &["--root", "/proc", "self/status"], HANG_GUARD);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("   1 | Name:\tagentread\n"), "{text}");
    assert!(!text.contains("(file is empty)"));

    let v = &json_lines(&run_str_within(
        &ws,
        &["--root", "/proc", "self/status", "-f", "json", "--hash"],
        HANG_GUARD,
    ))[0];
    assert_eq!(v["status"], "success", "{v}");
    let total = v["stats"]["total_lines"].as_u64().unwrap();
    assert!(total > 10, "{v}");
    assert_eq!(v["stats"]["lines_read"], total);
    assert_eq!(v["stats"]["content_hash"].as_str().unwrap().len(), 64);

    // The tail is the file's last lines, numbered as such.
    let v = &json_lines(&run_str_within(
        &ws,
        &[
            "--root",
            "/proc",
            "self/status",
            "-f",
            "json",
            "--tail",
            "2",
        ],
        HANG_GUARD,
    ))[0];
    assert_eq!(v["status"], "success", "{v}");
    let total = v["stats"]["total_lines"].as_u64().unwrap();
    assert!(total > 10);
    assert_eq!(v["data"]["start_line"], total - 1);
    assert_eq!(v["data"]["end_line"], total);

    // --max-file-size is enforced while reading, as for standard input.
    let out = run_str_within(
        &ws,
        &["--root", "/proc", "self/status", "--max-file-size", "10"],
        HANG_GUARD,
    );
    assert_eq!(code(&out), 8, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("SIZE_LIMIT_EXCEEDED"),
        "{}",
        stderr(&out)
    );
}

// ---------------------------------------------------------------------------------------
// 10: a rename race in the sandbox's walk

/// Swaps `a` and `b` with `renameat2(RENAME_EXCHANGE)` on another thread while `read`
/// runs; returns what `read` returned and how many swaps there were.
fn while_exchanging<T>(a: &Path, b: &Path, read: impl FnOnce() -> T) -> (T, u64) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (a, b, stop) = (a.to_path_buf(), b.to_path_buf(), stop.clone());
        std::thread::spawn(move || {
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                rustix::fs::renameat_with(
                    rustix::fs::CWD,
                    &a,
                    rustix::fs::CWD,
                    &b,
                    rustix::fs::RenameFlags::EXCHANGE,
                )
                .unwrap();
                swaps += 1;
            }
            swaps
        })
    };
    let result = read();
    stop.store(true, Ordering::Relaxed);
    (result, swapper.join().unwrap())
}

/// A link and a file swapped under the reader: the link's readlink can find a file
/// (EINVAL). The walk looks again, and every answer is one of the two files.
#[test]
fn a_link_swapped_for_a_file_while_it_is_read_never_fails_with_invalid_argument() {
    let ws = Workspace::new();
    ws.file("target.txt", "through the link\n");
    std::os::unix::fs::symlink("target.txt", ws.path().join("link")).unwrap();
    ws.file("plain", "a plain file\n");
    ws.mkdir("dir");
    ws.file("dir/inner.txt", "inside\n");
    let targets: Vec<&str> = ["link", "plain"].repeat(150);
    let mut args = targets.clone();
    args.extend(["-f", "json"]);
    let (out, swaps) = while_exchanging(&ws.path().join("link"), &ws.path().join("plain"), || {
        run_str_within(&ws, &args, Duration::from_secs(30))
    });
    assert!(swaps > 0);
    let answers = json_lines(&out);
    assert_eq!(answers.len(), targets.len());
    let mut changed = 0;
    for v in &answers {
        match v["status"].as_str() {
            Some("success") => {
                let content = v["data"]["content"].as_str().unwrap();
                assert!(
                    content == "   1 | through the link\n" || content == "   1 | a plain file\n",
                    "{v}"
                );
            }
            _ => {
                let message = v["error"]["message"].as_str().unwrap();
                assert!(!message.contains("Invalid argument"), "{v}");
                assert!(
                    message.ends_with("changed while it was being opened; try again."),
                    "{v}"
                );
                changed += 1;
            }
        }
    }
    assert!(
        changed * 20 < answers.len(),
        "{changed} of {} changed",
        answers.len()
    );

    // A directory on the way swapped with a link to it.
    std::os::unix::fs::symlink("dir", ws.path().join("dirlink")).unwrap();
    let targets: Vec<&str> = ["dirlink/inner.txt", "dir/inner.txt"].repeat(100);
    let mut args = targets.clone();
    args.extend(["-f", "json"]);
    let (out, _) = while_exchanging(&ws.path().join("dir"), &ws.path().join("dirlink"), || {
        run_str_within(&ws, &args, Duration::from_secs(30))
    });
    for v in json_lines(&out) {
        let message = v["error"]["message"].as_str().unwrap_or_default();
        assert!(!message.contains("Invalid argument"), "{v}");
    }
}
