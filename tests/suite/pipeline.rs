//! Behaviour in shell pipelines: a closed stdout, invalid UTF-8 and plain output.

use crate::common;

use std::io::Read;
use std::process::{Command, Stdio};

use common::{Workspace, code, stdout};
use serde_json::json;

#[test]
fn a_closed_stdout_ends_quietly_with_exit_0() {
    let ws = Workspace::new();
    let body: String = (1..=200_000)
        .map(|i| format!("line {i} {}\n", "x".repeat(60)))
        .collect();
    ws.file("big.log", body);
    // Read one line, then close the pipe while agentread is still writing.
    let mut child = Command::new(assert_cmd::cargo::cargo_bin!("agentread"))
        .current_dir(ws.path())
        .args(["big.log", "--limit", "2000", "--max-bytes", "10000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(&first, b"   1 | line 1 xx");
}

#[test]
fn invalid_utf8_is_replaced_and_reported_as_partial() {
    let ws = Workspace::new();
    ws.file("latin.txt", b"caf\xe9\nplain\n");
    let v = ws.json(&["latin.txt"]);
    assert_eq!(v["status"], "partial");
    assert_eq!(v["data"]["fallback_encoding"], "replace");
    assert_eq!(v["data"]["content"], "   1 | caf\u{FFFD}\n   2 | plain\n");
    assert_eq!(v["stats"]["encoding"], "utf-8");
    assert_eq!(code(&ws.run(&["latin.txt"])), 0);
}

#[test]
fn invalid_bytes_outside_the_shown_text_do_not_make_a_read_partial() {
    let ws = Workspace::new();
    ws.file("f.txt", b"good\n\xff bad\n");
    let v = ws.json(&["f.txt", "-n", "1", "--max-bytes", "100000"]);
    // Truncated, so partial, but no fallback: the bad byte is not shown.
    assert_eq!(v["data"]["fallback_encoding"], json!(null));
    let v = ws.json(&["f.txt", "-s", "1", "-n", "2", "--max-line-chars", "1"]);
    assert_eq!(
        v["data"]["content"],
        "   1 | g … [+3 chars]\n   2 | \u{FFFD} … [+4 chars]\n"
    );
    assert_eq!(v["data"]["fallback_encoding"], "replace");
    ws.file("tail.txt", b"ok then \xff\n");
    let v = ws.json(&["tail.txt", "--max-line-chars", "4"]);
    assert_eq!(v["data"]["fallback_encoding"], json!(null));
    assert_eq!(v["data"]["content"], "   1 | ok t … [+5 chars]\n");
}

#[test]
fn a_utf8_bom_is_skipped_and_reported() {
    let ws = Workspace::new();
    ws.file("bom.txt", b"\xEF\xBB\xBFfirst\nsecond\n");
    let v = ws.json(&["bom.txt"]);
    assert_eq!(v["data"]["content"], "   1 | first\n   2 | second\n");
    assert_eq!(v["stats"]["bom"], true);
    assert_eq!(v["stats"]["encoding"], "utf-8");
}

#[test]
fn numbers_none_without_hint_reproduces_the_file() {
    let ws = Workspace::new();
    let body = "fn main() {\n    println!(\"hi\");\n}\n";
    ws.file("m.rs", body);
    assert_eq!(
        stdout(&ws.run(&["m.rs", "--numbers", "none", "--no-hint"])),
        body
    );
}
