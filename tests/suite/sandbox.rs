//! SPEC §2: nothing outside the root is read, whatever the path; special files are refused
//! before any read; the operating system's refusals are PERMISSION_DENIED.

use crate::common;

use std::os::unix::fs::{PermissionsExt, symlink};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Workspace, code, json_lines, stderr, stdout};
use serde_json::{Value, json};

/// A workspace whose root is `root/`, with `outside/secret.txt` next to it.
fn jail() -> Workspace {
    let ws = Workspace::new();
    ws.file("outside/secret.txt", "TOP SECRET\n");
    ws.file("root/sub/inner.txt", "inner\n");
    ws
}

fn in_root(ws: &Workspace, args: &[&str]) -> std::process::Output {
    ws.cmd()
        .current_dir(ws.path().join("root"))
        .args(args)
        .output()
        .unwrap()
}

fn json_in_root(ws: &Workspace, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = in_root(ws, &all);
    json_lines(&out).remove(0)
}

fn link(ws: &Workspace, target: impl AsRef<Path>, name: &str) {
    symlink(target, ws.path().join("root").join(name)).unwrap();
}

#[test]
fn links_that_stay_inside_work_and_print_relative() {
    let ws = jail();
    link(&ws, "sub/inner.txt", "rel");
    link(&ws, ws.path().join("root/sub/inner.txt"), "abs");
    link(&ws, "sub", "dirlink");
    for (path, shown) in [
        ("rel", "rel"),
        ("abs", "abs"),
        ("dirlink/inner.txt", "dirlink/inner.txt"),
        ("sub/../sub/inner.txt", "sub/inner.txt"),
        ("./sub//inner.txt", "sub/inner.txt"),
    ] {
        let v = json_in_root(&ws, &[path]);
        assert_eq!(v["status"], "success", "{path}: {v}");
        assert_eq!(v["data"]["path"], shown, "{path}");
        assert_eq!(v["context"]["path_resolved"], "sub/inner.txt", "{path}");
        assert_eq!(v["data"]["content"], "   1 | inner\n");
    }
    let absolute = ws.path().join("root/sub/inner.txt");
    let v = json_in_root(&ws, &[absolute.to_str().unwrap()]);
    assert_eq!(v["data"]["path"], "sub/inner.txt");
    // A way out of the root that comes back in ends at a file inside it, which is what
    // is checked (SPEC §2): by `..` in the path, in an absolute path, or in a link.
    link(&ws, "../root/sub/inner.txt", "reentry");
    link(&ws, "../../root/sub", "sub/reentry_dir");
    let back = ws.path().join("root/../root/sub/inner.txt");
    for path in [
        "../root/sub/inner.txt",
        "sub/../../root/sub/inner.txt",
        back.to_str().unwrap(),
        "reentry",
        "sub/reentry_dir/inner.txt",
    ] {
        let v = json_in_root(&ws, &[path]);
        assert_eq!(v["status"], "success", "{path}: {v}");
        assert_eq!(v["context"]["path_resolved"], "sub/inner.txt", "{path}");
    }
}

#[test]
fn every_way_out_is_access_denied_and_names_the_link() {
    let ws = jail();
    let secret = ws.path().join("outside/secret.txt");
    link(&ws, "../outside/secret.txt", "rel_out");
    link(&ws, &secret, "abs_out");
    link(&ws, "../outside", "dir_out");
    link(&ws, "rel_out", "chain");
    link(&ws, "/proc/self/root/etc/passwd", "proc_link");
    link(&ws, "/dev/zero", "dev_link");
    std::fs::create_dir(ws.path().join("root/nested")).unwrap();
    symlink("../../outside", ws.path().join("root/nested/up")).unwrap();
    for (path, named) in [
        ("rel_out", "rel_out"),
        ("abs_out", "abs_out"),
        ("dir_out/secret.txt", "dir_out"),
        ("chain", "rel_out"),
        ("proc_link", "proc_link"),
        ("dev_link", "dev_link"),
        ("nested/up/secret.txt", "nested/up"),
    ] {
        let out = in_root(&ws, &[path]);
        assert_eq!(code(&out), 4, "{path}");
        assert_eq!(stdout(&out), "");
        assert_eq!(
            stderr(&out),
            format!(
                "agentread: ACCESS_DENIED: Access denied: '{named}' is a symlink that leads outside the workspace root (the current directory).\n"
            ),
            "{path}"
        );
        assert!(!stderr(&out).contains(ws.path().to_str().unwrap()));
    }
    for path in [
        "../outside/secret.txt",
        secret.to_str().unwrap(),
        "sub/../../outside/secret.txt",
    ] {
        let out = in_root(&ws, &[path]);
        assert_eq!(code(&out), 4, "{path}");
        assert!(!stdout(&out).contains("SECRET"));
        assert!(
            !stderr(&out).contains(ws.path().to_str().unwrap()),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn a_symlink_loop_is_an_error_not_a_hang() {
    let ws = jail();
    link(&ws, "loop_b", "loop_a");
    link(&ws, "loop_a", "loop_b");
    link(&ws, ".", "self");
    let started = Instant::now();
    let out = in_root(&ws, &["loop_a"]);
    assert_eq!(code(&out), 3);
    assert!(
        stderr(&out).contains("too many levels of symbolic links"),
        "{}",
        stderr(&out)
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    // A link to its own directory is not a loop unless it is followed forever.
    let out = in_root(&ws, &["self/self/self/sub/inner.txt"]);
    assert_eq!(code(&out), 0);
}

#[test]
fn a_link_swapped_between_check_and_open_never_leads_out() {
    let ws = jail();
    let root = ws.path().join("root");
    let secret = ws.path().join("outside/secret.txt");
    symlink("sub/inner.txt", root.join("race")).unwrap();
    common::a_swapped_link_never_shows(
        &root,
        (&secret, Path::new("sub/inner.txt")),
        || in_root(&ws, &["race", "--format", "json"]),
        &["--root", "."],
        "SECRET",
    );
}

#[test]
fn empty_paths_and_paths_with_nul_are_invalid_param() {
    let ws = jail();
    let out = in_root(&ws, &[""]);
    assert_eq!(
        (code(&out), stderr(&out)),
        (2, "agentread: INVALID_PARAM: The path is empty.\n".into())
    );
    // A NUL cannot pass through argv; a tool call can carry one.
    let out = in_root(
        &ws,
        &[
            "--call",
            r#"{"path":"sub/inner.txt\u0000../../outside/secret.txt"}"#,
        ],
    );
    assert_eq!(code(&out), 2);
    assert_eq!(
        json_lines(&out)[0]["error"]["message"],
        "The path contains a NUL byte."
    );
}

#[test]
fn special_files_are_not_file_and_never_block() {
    let ws = jail();
    let root = ws.path().join("root");
    let fifo = root.join("fifo");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(root.join("socket")).unwrap();
    let started = Instant::now();
    for (path, what) in [("fifo", "a FIFO (named pipe)"), ("socket", "a socket")] {
        let out = in_root(&ws, &[path]);
        assert_eq!(code(&out), 6, "{path}");
        assert_eq!(
            stderr(&out),
            format!(
                "agentread: NOT_FILE: '{path}' is {what}, not a regular file; it was not read.\n"
            )
        );
    }
    for device in ["zero", "null", "urandom"] {
        let out = ws
            .cmd()
            .args(["--root", "/dev", device, "-f", "json"])
            .output()
            .unwrap();
        assert_eq!(code(&out), 6, "{device}");
        let v = &json_lines(&out)[0];
        assert_eq!(v["error"]["code"], "NOT_FILE");
        assert_eq!(
            v["error"]["message"],
            format!("'{device}' is a character device, not a regular file; it was not read.")
        );
    }
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_trailing_slash_asks_for_a_directory() {
    let ws = jail();
    let out = in_root(&ws, &["sub/inner.txt/"]);
    assert_eq!(code(&out), 3);
    assert_eq!(
        stderr(&out),
        "agentread: NOT_FOUND: 'sub/inner.txt/' is not a directory.\n"
    );
    let out = in_root(&ws, &["sub/inner.txt/more"]);
    assert_eq!(code(&out), 3);
}

#[test]
fn a_read_that_fails_midway_is_io_error() {
    // /proc/<pid>/mem is a regular file whose read fails with EIO at address 0.
    let ws = Workspace::new();
    let out = ws
        .cmd()
        .args(["--root", "/proc/self", "mem", "-f", "json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 9);
    let v = &json_lines(&out)[0];
    assert_eq!(v["error"]["code"], "IO_ERROR");
    assert_eq!(
        v["error"]["message"],
        "Reading 'mem' failed: Input/output error."
    );
}

/// A directory every user can pass through: the temporary directory when every directory
/// above it lets others through, else `/tmp`. The checkout, the target directory and
/// `$TMPDIR` may all sit under a 0700 home.
fn reachable_temp_dir() -> std::path::PathBuf {
    let temp = std::env::temp_dir();
    let passable =
        |dir: &Path| std::fs::metadata(dir).is_ok_and(|m| m.permissions().mode() & 0o001 != 0);
    match temp.ancestors().all(passable) {
        true => temp,
        false => std::path::PathBuf::from("/tmp"),
    }
}

/// [`jail`] in a directory that an unprivileged user can reach.
fn reachable_jail() -> Workspace {
    let ws = Workspace {
        dir: tempfile::tempdir_in(reachable_temp_dir()).expect("temp dir"),
    };
    ws.file("outside/secret.txt", "TOP SECRET\n");
    ws.file("root/sub/inner.txt", "inner\n");
    ws
}

/// Runs agentread as an unprivileged user when the tests run as root, so that file modes
/// are enforced; as any other user, runs it as that user. As root, the binary runs from a
/// copy inside the workspace, so that where the checkout lies does not matter.
fn unprivileged(ws: &Workspace, args: &[&str]) -> std::process::Output {
    let built = Path::new(assert_cmd::cargo::cargo_bin!("agentread"));
    let root = rustix::process::geteuid().is_root();
    let binary = match root {
        true => {
            let copy = ws.path().join("bin/agentread");
            if !copy.exists() {
                std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
                std::fs::copy(built, &copy).unwrap();
            }
            copy
        }
        false => built.to_path_buf(),
    };
    let mut cmd = Command::new(binary);
    cmd.current_dir(ws.path().join("root"))
        .args(args)
        .env_remove("AGENTREAD_ROOT")
        .stdin(Stdio::null());
    if root {
        // nobody must be able to reach the binary and the workspace.
        for dir in [ws.path(), &ws.path().join("bin")] {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        cmd.uid(65534).gid(65534);
    }
    // A test thread that forks while the copy's write descriptor is still open makes the
    // kernel refuse to run it (ETXTBSY) until that child has exec'd: try again.
    for _ in 0..50 {
        match cmd.output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            result => return result.unwrap(),
        }
    }
    cmd.output().unwrap()
}

#[test]
fn files_and_directories_the_os_refuses_are_permission_denied() {
    let ws = reachable_jail();
    let root = ws.path().join("root");
    std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(root.join("sub"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let locked = ws.file("root/locked.txt", "hidden\n");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let closed = ws.mkdir("root/closed");
    ws.file("root/closed/x.txt", "x\n");
    std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o000)).unwrap();

    // The readable file proves the unprivileged run works at all.
    let out = unprivileged(&ws, &["sub/inner.txt"]);
    assert_eq!(
        (code(&out), stdout(&out)),
        (0, "   1 | inner\n".to_string()),
        "{}",
        stderr(&out)
    );

    let out = unprivileged(&ws, &["locked.txt"]);
    assert_eq!(code(&out), 5, "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "agentread: PERMISSION_DENIED: Permission denied: the operating system refused to read 'locked.txt'.\n"
    );
    let out = unprivileged(&ws, &["closed/x.txt", "-f", "json"]);
    assert_eq!(code(&out), 5);
    assert_eq!(
        json_lines(&out)[0]["error"]["code"],
        json!("PERMISSION_DENIED")
    );
    let out = unprivileged(&ws, &["closed"]);
    assert_eq!(code(&out), 5);
    std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o755)).unwrap();
}
