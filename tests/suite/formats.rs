//! SPEC §6: the text footer, the JSON Lines envelope and well-formed XML.

use crate::common;

use common::{Workspace, code, json_lines, stdout};
use serde_json::{Value, json};

fn lines(n: u64) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

fn keys(v: &Value) -> Vec<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

/// The `text` field with the one line that may vary (the timing) normalised.
fn text_field(v: &Value) -> String {
    let text = v["text"].as_str().unwrap();
    text.lines()
        .map(|l| match l.starts_with("(Took ") && l.ends_with("ms)") {
            true => "(Took Nms)",
            false => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn json_envelope_has_every_field_with_its_meaning() {
    let ws = Workspace::new();
    let path = ws.file("src/utils.py", lines(1523));
    let v = ws.json(&["src/utils.py", "--limit", "500"]);
    assert_eq!(keys(&v), ["status", "data", "text", "stats", "context"]);
    assert_eq!(v["status"], "partial");

    let data = &v["data"];
    assert_eq!(data["type"], "file");
    assert_eq!(data["path"], "src/utils.py");
    assert!(
        data["content"]
            .as_str()
            .unwrap()
            .starts_with("   1 | line 1\n   2 | line 2\n")
    );
    assert!(
        data["content"]
            .as_str()
            .unwrap()
            .ends_with(" 500 | line 500\n")
    );
    assert_eq!(data["start_line"], 1);
    assert_eq!(data["end_line"], 500);
    assert_eq!(data["truncated"], true);
    assert_eq!(data["truncated_by"], "limit");
    assert_eq!(data["next_start_line"], 501);
    assert_eq!(data["fallback_encoding"], Value::Null);

    assert_eq!(
        text_field(&v),
        "Read 500 lines from 'src/utils.py' (Lines 1-500).\n(Took Nms)\n[Truncated: Showing lines 1-500 of 1523. Use start_line=501 to continue. Use outline=true to list its symbols.]"
    );

    let stats = &v["stats"];
    assert!(stats["time_ms"].is_u64());
    assert_eq!(stats["lines_read"], 500);
    // "line N" plus its newline, for N = 1..=500.
    let chars: usize = (1..=500).map(|i| format!("line {i}\n").len()).sum();
    assert_eq!(stats["chars_read"], chars);
    assert_eq!(stats["total_lines"], 1523);
    let meta = std::fs::metadata(&path).unwrap();
    assert_eq!(stats["file_size_bytes"], meta.len());
    let mtime = meta
        .modified()
        .unwrap()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    assert_eq!(stats["file_mtime_ms"], mtime.as_millis() as u64);
    assert_eq!(stats["encoding"], "utf-8");
    assert_eq!(stats["lines_cut"], 0);

    let context = &v["context"];
    assert_eq!(context["cwd"], ".");
    assert_eq!(
        context["params_input"],
        json!({"path": "src/utils.py", "limit": 500})
    );
    assert_eq!(context["path_resolved"], "src/utils.py");
}

#[test]
fn status_is_success_when_everything_was_shown() {
    let ws = Workspace::new();
    ws.file("a.txt", "one\ntwo\n");
    let v = ws.json(&["a.txt"]);
    assert_eq!(v["status"], "success");
    assert_eq!(
        text_field(&v),
        "Read 2 lines from 'a.txt' (Lines 1-2).\n(Took Nms)"
    );
}

#[test]
fn chars_read_counts_shown_text_and_newlines_not_prefixes_or_markers() {
    let ws = Workspace::new();
    ws.file("a.txt", "ab\nhéllo\r\n");
    let v = ws.json(&["a.txt", "--max-line-chars", "3"]);
    assert_eq!(v["stats"]["chars_read"], 3 + 4);
    let v = ws.json(&["a.txt"]);
    assert_eq!(v["stats"]["chars_read"], 3 + 6);
}

#[test]
fn params_input_holds_the_tool_parameters_as_given_and_nothing_else() {
    let ws = Workspace::new();
    let abs = ws.file("a.txt", lines(5));
    let abs = abs.to_str().unwrap();
    let v = ws.json(&[
        abs,
        "-n",
        "3",
        "-s",
        "2",
        "--numbers",
        "tab",
        "--max-bytes",
        "999",
    ]);
    assert_eq!(
        v["context"]["params_input"],
        json!({"path": abs, "limit": 3, "start_line": 2})
    );
    // The caller's own absolute path appears only there.
    assert_eq!(v["data"]["path"], "a.txt");
    assert_eq!(v["context"]["path_resolved"], "a.txt");
    let v = ws.json(&["a.txt", "--tail", "2", "--hash"]);
    assert_eq!(
        v["context"]["params_input"],
        json!({"path": "a.txt", "tail": 2, "hash": true})
    );
}

#[test]
fn cwd_is_relative_to_the_root_or_null_outside_it() {
    let ws = Workspace::new();
    ws.file("sub/deep/a.txt", "x\n");
    let out = ws
        .cmd()
        .current_dir(ws.path().join("sub/deep"))
        .args(["--root", "../..", "sub/deep/a.txt", "--format", "json"])
        .output()
        .unwrap();
    let v = &json_lines(&out)[0];
    assert_eq!(v["context"]["cwd"], "sub/deep");
    assert_eq!(v["data"]["path"], "sub/deep/a.txt");

    let elsewhere = tempfile::tempdir().unwrap();
    let out = ws
        .cmd()
        .current_dir(elsewhere.path())
        .args([
            "--root",
            ws.path().to_str().unwrap(),
            "sub/deep/a.txt",
            "-f",
            "json",
        ])
        .output()
        .unwrap();
    let v = &json_lines(&out)[0];
    assert_eq!(v["context"]["cwd"], Value::Null);
    assert_eq!(v["status"], "success");
}

#[test]
fn relative_paths_are_joined_to_the_root_not_the_current_directory() {
    let ws = Workspace::new();
    ws.file("a.txt", "root file\n");
    ws.file("sub/a.txt", "sub file\n");
    let out = ws
        .cmd()
        .current_dir(ws.path().join("sub"))
        .args(["a.txt", "--root", "..", "--numbers", "none"])
        .output()
        .unwrap();
    assert_eq!(stdout(&out), "root file\n");
    let out = ws
        .cmd()
        .current_dir(ws.path().join("sub"))
        .env("AGENTREAD_ROOT", ws.path())
        .args(["a.txt", "--numbers", "none"])
        .output()
        .unwrap();
    assert_eq!(stdout(&out), "root file\n");
}

#[test]
fn error_envelope_has_every_key() {
    let ws = Workspace::new();
    let v = ws.json(&["nope.txt"]);
    assert_eq!(
        keys(&v),
        ["status", "data", "text", "stats", "context", "error"]
    );
    assert_eq!(v["status"], "error");
    assert_eq!(v["data"], Value::Null);
    assert_eq!(v["text"], "File 'nope.txt' does not exist.");
    assert!(v["stats"]["time_ms"].is_u64());
    assert_eq!(v["context"]["path_resolved"], Value::Null);
    assert_eq!(v["context"]["params_input"], json!({"path": "nope.txt"}));
    assert_eq!(v["error"]["code"], "NOT_FOUND");
    assert_eq!(v["error"]["message"], "File 'nope.txt' does not exist.");
    assert_eq!(v["error"]["exit_code"], 3);
    assert!(v["error"]["suggestions"].is_array());
}

#[test]
fn text_footers_for_cut_lines_and_fallback_come_after_a_blank_line() {
    let ws = Workspace::new();
    ws.file("a.txt", b"ok\nbad \xff byte\n");
    let out = ws.run(&["a.txt"]);
    assert_eq!(
        stdout(&out),
        "   1 | ok\n   2 | bad \u{FFFD} byte\n\n[Bytes that are not valid utf-8 are shown as U+FFFD. This looks like windows-1252: use --encoding auto.]\n"
    );
    ws.file(
        "long.txt",
        format!("{}\n{}\n", "a".repeat(10), "b".repeat(10)),
    );
    let out = ws.run(&["long.txt", "--max-line-chars", "4", "-n", "1"]);
    assert_eq!(
        stdout(&out),
        "   1 | aaaa … [+6 chars]\n\n[Truncated: showing lines 1-1 of 2. Use --start-line 2 to continue.]\n[Line 1 was cut at 4 of 10 chars. Use --start-line 1 --start-char 5 to continue it.]\n"
    );
}

#[test]
fn output_is_identical_for_identical_input_except_timing() {
    let ws = Workspace::new();
    ws.file("a.txt", lines(700));
    ws.mkdir("d/x");
    ws.file("d/b.txt", "b\n");
    for format in ["text", "json", "xml"] {
        let run = || {
            let out = ws.run(&["a.txt", "d", "missing", "-f", format]);
            (
                without_timing(&stdout(&out)),
                common::stderr(&out),
                code(&out),
            )
        };
        let (first, second) = (run(), run());
        assert!(first == second, "{format} output differs between runs");
        assert!(first.0.contains("line 500"));
    }
}

/// Replaces the digits of the elapsed time (`time_ms` and the "(Took …ms)" line) with N.
fn without_timing(text: &str) -> String {
    let mut out = text.to_string();
    for key in ["\"time_ms\":", " time_ms=\"", "(Took "] {
        let mut from = 0;
        while let Some(at) = out[from..].find(key) {
            let digits_at = from + at + key.len();
            let digits = out[digits_at..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            out.replace_range(digits_at..digits_at + digits, "N");
            from = digits_at + 1;
        }
    }
    out
}

#[test]
fn xml_is_well_formed_for_hostile_content() {
    let ws = Workspace::new();
    let body = b"</content>&amp; <x> ]]> \x01\x02\x1b[31m \x7f tab\there\r\nnext\"'\n";
    ws.file("evil.txt", body);
    let out = ws.run(&["evil.txt", "--format", "xml"]);
    assert_eq!(code(&out), 0);
    let xml = stdout(&out);
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "file");
    let child = |name: &str| root.children().find(|n| n.has_tag_name(name)).unwrap();
    assert_eq!(child("path").text(), Some("evil.txt"));
    assert_eq!(child("type").text(), Some("file"));
    assert_eq!(
        child("content").text(),
        Some(
            "\n   1 | </content>&amp; <x> ]]> \u{2401}\u{2402}\u{241b}[31m \u{7f} tab\there\n   2 | next\"'\n"
        )
    );
    let stats = child("stats");
    assert_eq!(stats.attribute("total_lines"), Some("2"));
    assert_eq!(stats.attribute("lines_read"), Some("2"));
    assert_eq!(stats.attribute("start_line"), Some("1"));
    assert_eq!(stats.attribute("end_line"), Some("2"));
    assert_eq!(stats.attribute("truncated"), Some("false"));
    assert_eq!(stats.attribute("encoding"), Some("utf-8"));
    assert_eq!(stats.attribute("next_start_line"), None);
}

#[test]
fn xml_keeps_a_lone_carriage_return() {
    let ws = Workspace::new();
    ws.file("cr.txt", "a\rb\n");
    let xml = stdout(&ws.run(&["cr.txt", "-f", "xml", "--numbers", "none"]));
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let content = doc
        .descendants()
        .find(|n| n.has_tag_name("content"))
        .unwrap();
    assert_eq!(content.text(), Some("\na\rb\n"));
    // The whole file's line endings are reported here too (text output leaves them out).
    let stats = doc.descendants().find(|n| n.has_tag_name("stats")).unwrap();
    assert_eq!(stats.attribute("line_endings"), Some("lf"));
}

#[test]
fn xml_reports_crlf_line_endings() {
    let ws = Workspace::new();
    ws.file("crlf.txt", "a\r\nb\r\n");
    let xml = stdout(&ws.run(&["crlf.txt", "-f", "xml"]));
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let stats = doc.descendants().find(|n| n.has_tag_name("stats")).unwrap();
    assert_eq!(stats.attribute("line_endings"), Some("crlf"));
}

#[test]
fn xml_matches_the_spec_example_shape() {
    let ws = Workspace::new();
    let body: String = std::iter::once("use std::io;\n".to_string())
        .chain((2..=120).map(|i| format!("// {i}\n")))
        .collect();
    ws.file("src/main.rs", body);
    let xml = stdout(&ws.run(&["src/main.rs", "-n", "1", "-f", "xml"]));
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let root = doc.root_element();
    let child = |name: &str| root.children().find(|n| n.has_tag_name(name)).unwrap();
    assert_eq!(child("content").text(), Some("\n   1 | use std::io;\n"));
    assert_eq!(
        child("hint").text(),
        Some(
            "[Truncated: showing lines 1-1 of 120. Use --start-line 2 to continue. Use --outline to list its symbols.]"
        )
    );
    let stats = child("stats");
    for (name, value) in [
        ("total_lines", "120"),
        ("lines_read", "1"),
        ("start_line", "1"),
        ("end_line", "1"),
        ("next_start_line", "2"),
        ("truncated", "true"),
        ("encoding", "utf-8"),
        ("line_endings", "lf"),
    ] {
        assert_eq!(stats.attribute(name), Some(value), "{name}");
    }
    assert!(xml.starts_with("<file>\n<path>src/main.rs</path>\n<type>file</type>\n"));
}

#[test]
fn xml_errors_carry_code_and_exit_code() {
    let ws = Workspace::new();
    let out = ws.run(&["missing.rs", "--format", "xml"]);
    assert_eq!(code(&out), 3);
    let xml = stdout(&out);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "error");
    assert_eq!(root.attribute("code"), Some("NOT_FOUND"));
    assert_eq!(root.attribute("exit_code"), Some("3"));
    assert_eq!(root.text(), Some("File 'missing.rs' does not exist."));
}

#[test]
fn random_bytes_always_give_well_formed_xml_and_valid_json() {
    let ws = Workspace::new();
    // Deterministic pseudo-random text-ish bytes: controls, invalid UTF-8, markup.
    let mut state: u64 = 0x9E3779B97F4A7C15;
    for round in 0..40 {
        let mut bytes = Vec::new();
        for _ in 0..400 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let pick = [
                b'<', b'&', b']', b'>', b'\r', b'\n', 0x1b, 0x7f, 0xc3, 0xff, b'a', 0x01,
            ];
            bytes.push(if state.is_multiple_of(3) {
                (state >> 8) as u8 | 1
            } else {
                pick[(state >> 16) as usize % pick.len()]
            });
        }
        ws.file("r.txt", &bytes);
        for format in ["xml", "json"] {
            let out = ws.run(&["r.txt", "-f", format, "--max-line-chars", "50"]);
            let text = stdout(&out);
            match format {
                "xml" => {
                    roxmltree::Document::parse(&text)
                        .unwrap_or_else(|e| panic!("round {round}: {e}\n{text}"));
                }
                _ => {
                    json_lines(&out);
                }
            }
        }
    }
}
