//! Large files are counted on every core (see src/tally.rs); the answers must be exactly
//! those of the one-pass reading that standard input gets.

use crate::common;

use common::{Workspace, json_lines};
use serde_json::Value;

/// A 14 MB file (over the parallel threshold): short LF lines, a CRLF region, a 6 MB line
/// of multi-byte text, a region of invalid bytes, and no final newline.
fn big(ws: &Workspace) -> Vec<u8> {
    let mut data = Vec::new();
    for i in 0..100_000 {
        data.extend_from_slice(format!("line {i} café → {}\n", "x".repeat(i % 90)).as_bytes());
    }
    for i in 0..100_000 {
        data.extend_from_slice(format!("crlf {i}\r\n").as_bytes());
    }
    data.extend_from_slice("aé€😀".repeat(600_000).as_bytes());
    data.extend_from_slice(b"\r\n");
    for i in 0..50_000 {
        data.extend_from_slice(b"bad \xff");
        data.extend_from_slice(format!("{i}\n").as_bytes());
    }
    data.extend_from_slice(b"the end");
    ws.file("big.txt", &data);
    data
}

/// The answer without what differs between a file and a stream (timing, size, mtime, path,
/// and the encoding suggested for invalid UTF-8: a file is looked at where it stops being
/// UTF-8, a stream, which cannot be read twice, by its head).
fn comparable(mut v: Value) -> Value {
    v["text"] = Value::Null;
    v["context"] = Value::Null;
    v["data"]["path"] = Value::Null;
    if let Some(data) = v["data"].as_object_mut() {
        data.remove("suggested_encoding");
    }
    for key in ["time_ms", "file_mtime_ms", "file_size_bytes"] {
        v["stats"].as_object_mut().unwrap().remove(key);
    }
    if let Some(message) = v["error"]["message"].as_str() {
        v["error"]["message"] = message.replace("'<stdin>'", "'big.txt'").into();
    }
    v
}

#[test]
fn parallel_counting_answers_exactly_as_one_pass_reading() {
    let ws = Workspace::new();
    let data = big(&ws);
    let cases: [&[&str]; 9] = [
        &["-n", "3"],
        &["-s", "99999", "-n", "4"],
        &["-s", "200001", "-n", "2"],
        &["-s", "200001", "-n", "1", "--start-char", "2399000"],
        &["-s", "200001", "--start-char", "2400001"],
        &["-s", "200002", "-n", "3"],
        &["--tail", "3"],
        &["-s", "250001"],
        &["-s", "250002"],
    ];
    for args in cases {
        let from_file = ws
            .cmd()
            .arg("big.txt")
            .args(args)
            .args(["-f", "json"])
            .output()
            .unwrap();
        let from_stdin = ws
            .cmd()
            .arg("-")
            .args(args)
            .args(["-f", "json"])
            .write_stdin(data.clone())
            .output()
            .unwrap();
        let (a, b) = (
            json_lines(&from_file).remove(0),
            json_lines(&from_stdin).remove(0),
        );
        assert_eq!(comparable(a.clone()), comparable(b), "{args:?}");
        if a["status"] != "error" {
            assert_eq!(a["stats"]["total_lines"], 250_002, "{args:?}");
            assert_eq!(a["stats"]["line_endings"], "mixed");
        }
    }
}
