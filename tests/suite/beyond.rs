//! SPEC §11: paging inside a line, tail, what was found, refusals explained, and the
//! stateless change check.

use crate::common;

use common::{Workspace, code, json_lines, stderr, stdout};
use serde_json::json;

#[test]
fn a_cut_line_can_be_read_to_its_end_with_start_char() {
    let ws = Workspace::new();
    let line: String = (0..5000)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect();
    ws.file("min.js", format!("{line}\nnext\n"));
    let out = ws.run(&["min.js", "-n", "1"]);
    assert!(stdout(&out).ends_with(
        "[Line 1 was cut at 2000 of 5000 chars. Use --start-line 1 --start-char 2001 to continue it.]\n"
    ));
    let mut shown = String::new();
    let mut start_char = 1;
    loop {
        let v = ws.json(&[
            "min.js",
            "-n",
            "1",
            "--numbers",
            "none",
            "--start-char",
            &start_char.to_string(),
        ]);
        let content = v["data"]["content"].as_str().unwrap();
        let text = content
            .split(" … [+")
            .next()
            .unwrap()
            .trim_end_matches('\n');
        shown.push_str(text);
        match v["data"]["next_start_char"].as_u64() {
            Some(next) => start_char = next,
            None => break,
        }
    }
    assert_eq!(shown, line);
    let v = ws.json(&["min.js", "-n", "1", "--start-char", "4001"]);
    assert_eq!(v["data"]["next_start_char"], json!(null));
    assert_eq!(v["stats"]["chars_read"], 1001);
    let v = ws.json(&["min.js", "--start-char", "2001"]);
    assert_eq!(
        v["text"].as_str().unwrap().lines().last(),
        Some(
            "[Line 1 was cut at 4000 of 5000 chars. Use start_line=1, start_char=4001 to continue it.]"
        )
    );
    assert_eq!(v["data"]["next_start_char"], 4001);
    // Only the first line of the window starts later.
    assert_eq!(
        v["data"]["content"].as_str().unwrap().lines().nth(1),
        Some("   2 | next")
    );
}

#[test]
fn start_char_counts_characters_and_excludes_a_crlf() {
    let ws = Workspace::new();
    ws.file("w.txt", "αβγδε\r\n");
    let v = ws.json(&["w.txt", "--start-char", "3", "--max-line-chars", "2"]);
    assert_eq!(v["data"]["content"], "   1 | γδ … [+1 chars]\n");
    assert_eq!(
        v["text"].as_str().unwrap().lines().last(),
        Some("[Line 1 was cut at 4 of 5 chars. Use start_line=1, start_char=5 to continue it.]")
    );
    assert_eq!(code(&ws.run(&["w.txt", "--start-char", "5"])), 0);
    let out = ws.run(&["w.txt", "--start-char", "6"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "agentread: INVALID_PARAM: start_char 6 is past the end of line 1 of 'w.txt' (5 chars; valid: 1-5).\n"
    );
}

#[test]
fn tail_shows_the_last_lines_with_their_true_numbers() {
    let ws = Workspace::new();
    let body: String = (1..=12345).map(|i| format!("entry {i}\n")).collect();
    ws.file("app.log", &body);
    let out = ws.run(&["app.log", "--tail", "3"]);
    assert_eq!(
        stdout(&out),
        "12343 | entry 12343\n12344 | entry 12344\n12345 | entry 12345\n"
    );
    let v = ws.json(&["app.log", "--tail", "3"]);
    assert_eq!(v["data"]["start_line"], 12343);
    assert_eq!(v["data"]["end_line"], 12345);
    assert_eq!(v["data"]["truncated"], false);
    assert_eq!(v["data"]["next_start_line"], json!(null));
    assert_eq!(v["stats"]["total_lines"], 12345);
    assert_eq!(v["status"], "success");
    ws.file("short.txt", "a\nb");
    let v = ws.json(&["short.txt", "--tail", "10"]);
    assert_eq!(v["data"]["content"], "   1 | a\n   2 | b\n");
    ws.file("empty.txt", "");
    assert_eq!(
        stdout(&ws.run(&["empty.txt", "--tail", "5"])),
        "(file is empty)\n"
    );
}

#[test]
fn tail_is_exact_for_utf16_crlf_and_files_without_a_final_newline() {
    let ws = Workspace::new();
    let text: String = (1..=50).map(|i| format!("ü{i}\r\n")).collect();
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    ws.file("u16.txt", bytes);
    let v = ws.json(&["u16.txt", "--tail", "2"]);
    assert_eq!(v["data"]["content"], "  49 | ü49\n  50 | ü50\n");
    ws.file("open.txt", "1\n2\n3");
    assert_eq!(
        ws.json(&["open.txt", "--tail", "2"])["data"]["content"],
        "   2 | 2\n   3 | 3\n"
    );
    ws.file("bom.txt", "\u{feff}x\ny\n");
    assert_eq!(
        ws.json(&["bom.txt", "--tail", "5"])["data"]["content"],
        "   1 | x\n   2 | y\n"
    );
}

#[test]
fn tail_cannot_be_combined_with_start_line_or_start_char() {
    let ws = Workspace::new();
    ws.file("a.txt", "a\n");
    for extra in [["--start-line", "1"], ["--start-char", "2"]] {
        let out = ws.run(&["a.txt", "--tail", "1", extra[0], extra[1]]);
        assert_eq!(code(&out), 2);
        assert_eq!(
            stderr(&out),
            "agentread: INVALID_PARAM: --tail cannot be combined with --start-line or --start-char.\n"
        );
    }
    for bad in ["0", "2001"] {
        assert_eq!(code(&ws.run(&["a.txt", "--tail", bad])), 2);
    }
}

#[test]
fn tail_within_the_byte_budget_keeps_the_newest_lines() {
    let ws = Workspace::new();
    let body: String = (1..=100)
        .map(|i| format!("{i:03}{}\n", "x".repeat(93)))
        .collect();
    ws.file("wide.log", body);
    // Each rendered line is 7 + 96 + 1 = 104 bytes; 1000 bytes hold 9 of them.
    let v = ws.json(&["wide.log", "--tail", "20", "--max-bytes", "1000"]);
    assert_eq!(v["data"]["start_line"], 92);
    assert_eq!(v["data"]["end_line"], 100);
    assert_eq!(v["data"]["truncated"], false);
    assert_eq!(v["status"], "partial");
    let out = ws.run(&["wide.log", "--tail", "20", "--max-bytes", "1000"]);
    assert!(stdout(&out).ends_with(
        "[Truncated at 1000 bytes: showing the last 9 lines (92-100 of 100). Use --start-line 81 --limit 11 for the 11 before them.]\n"
    ));
}

#[test]
fn approx_tokens_is_chars_read_over_four_rounded_up() {
    let ws = Workspace::new();
    ws.file("t.txt", "abcdefgh\nxy\n");
    let v = ws.json(&["t.txt"]);
    assert_eq!(v["stats"]["chars_read"], 12);
    assert_eq!(v["stats"]["approx_tokens"], 3);
    let v = ws.json(&["t.txt", "-s", "2"]);
    assert_eq!(
        (
            v["stats"]["chars_read"].clone(),
            v["stats"]["approx_tokens"].clone()
        ),
        (json!(3), json!(1))
    );
}

#[test]
fn hash_is_the_blake3_of_the_files_bytes() {
    let ws = Workspace::new();
    let bytes = b"\xEF\xBB\xBFline one\r\nline two\n".repeat(20000);
    ws.file("h.txt", &bytes);
    let expected = blake3::hash(&bytes).to_hex().to_string();
    let v = ws.json(&["h.txt", "--hash", "-n", "1"]);
    assert_eq!(v["stats"]["content_hash"], expected);
    let v = ws.json(&["h.txt", "--hash", "--tail", "1"]);
    assert_eq!(v["stats"]["content_hash"], expected);
    let v = ws.json(&["h.txt", "-n", "1"]);
    assert!(v["stats"].get("content_hash").is_none());
    let out = ws
        .cmd()
        .args(["-", "--hash", "-f", "json"])
        .write_stdin(bytes.clone())
        .output()
        .unwrap();
    assert_eq!(json_lines(&out)[0]["stats"]["content_hash"], expected);
}

#[test]
fn if_changed_answers_unchanged_without_content_when_the_hash_matches() {
    let ws = Workspace::new();
    ws.file("c.rs", "fn a() {}\n");
    let hash = blake3::hash(b"fn a() {}\n").to_hex().to_string();
    let v = ws.json(&["c.rs", "--if-changed", &hash]);
    assert_eq!(v["status"], "unchanged");
    assert_eq!(v["data"]["content"], json!(null));
    assert_eq!(v["stats"]["content_hash"], hash);
    let out = ws.run(&["c.rs", "--if-changed", &hash]);
    assert_eq!(
        (code(&out), stdout(&out)),
        (0, format!("(unchanged since hash {hash})\n"))
    );
    let xml = stdout(&ws.run(&["c.rs", "--if-changed", &hash, "-f", "xml"]));
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let status = doc
        .descendants()
        .find(|n| n.has_tag_name("status"))
        .unwrap();
    assert_eq!(status.text(), Some("unchanged"));

    ws.file("c.rs", "fn b() {}\n");
    let v = ws.json(&["c.rs", "--if-changed", &hash]);
    assert_eq!(v["status"], "success");
    assert_eq!(v["data"]["content"], "   1 | fn b() {}\n");
    assert_eq!(
        v["stats"]["content_hash"],
        blake3::hash(b"fn b() {}\n").to_hex().to_string()
    );
}

/// Every view of a file answers `unchanged` when the caller has it: its outline, its
/// signatures, `--fit`, `--enclosing`, a symbol, a notebook's view (they made their
/// content whatever the hash said).
#[test]
fn if_changed_holds_for_every_view_of_a_file() {
    let ws = Workspace::new();
    let source = "class A:\n    def run(self):\n        x = 1\n        y = 2\n        z = 3\n        return x\n";
    ws.file("c.py", source);
    let hash = blake3::hash(source.as_bytes()).to_hex().to_string();
    let notebook = r#"{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": ["x = 1"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"#;
    ws.file("n.ipynb", notebook);
    let nb_hash = blake3::hash(notebook.as_bytes()).to_hex().to_string();
    for (args, hash) in [
        (vec!["c.py", "--outline"], &hash),
        (vec!["c.py", "--signatures"], &hash),
        (vec!["c.py", "--fit"], &hash),
        (vec!["c.py", "--enclosing", "-s", "3"], &hash),
        (vec!["c.py#A.run"], &hash),
        (vec!["n.ipynb"], &nb_hash),
        (vec!["n.ipynb", "--outline"], &nb_hash),
        (vec!["n.ipynb", "--fit"], &nb_hash),
    ] {
        let mut with = args.clone();
        with.extend(["--if-changed", hash.as_str()]);
        let v = ws.json(&with);
        assert_eq!(
            (&v["status"], &v["data"]["content"]),
            (&json!("unchanged"), &json!(null)),
            "{args:?}: {v}"
        );
        // Another hash: the view, with the file's hash.
        let last = if hash.ends_with('0') { '1' } else { '0' };
        let other = format!("{}{last}", &hash[..63]);
        let mut with = args.clone();
        with.extend(["--if-changed", other.as_str()]);
        let v = ws.json(&with);
        assert_eq!(v["status"], "success", "{args:?}: {v}");
        assert_eq!(&v["stats"]["content_hash"], hash, "{args:?}");
    }
}

#[test]
fn if_changed_takes_only_a_full_lowercase_hash() {
    let ws = Workspace::new();
    ws.file("c.rs", "x\n");
    let upper = blake3::hash(b"x\n").to_hex().to_uppercase();
    for bad in [upper.as_str(), "abc", &"g".repeat(64), &"a".repeat(65)] {
        let out = ws.run(&["c.rs", "--if-changed", bad]);
        assert_eq!(code(&out), 2, "{bad}");
        assert!(stderr(&out).contains("expected the 64-digit lowercase hex BLAKE3 hash"));
    }
}
