//! SPEC §14, names: a name is shown faithfully and reversibly, and can never drive the
//! terminal that shows it: control pictures in text mode (terminal or not), `\xHH` for
//! bytes that are not UTF-8 in every format, and `\xHH` accepted back.

use crate::common;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use common::{Workspace, code, json_lines, stderr, stdout};

fn create(ws: &Workspace, name: &[u8], content: &str) {
    std::fs::write(ws.path().join(OsStr::from_bytes(name)), content).unwrap();
}

/// A C0 control, DEL or C1 byte must not reach a text-mode stream raw.
fn assert_inert(text: &str, what: &str) {
    for c in text.chars() {
        let control = (c < ' ' && c != '\n') || c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c);
        assert!(!control, "{what} carries {c:?} raw: {text:?}");
    }
}

#[test]
fn every_control_byte_in_a_name_is_a_picture_in_text_mode() {
    let ws = Workspace::new();
    let mut all = Vec::new();
    for byte in (1u8..0x20).chain([0x7f]) {
        if byte == b'/' {
            continue;
        }
        let name = [b"n".as_slice(), &[byte], b".txt"].concat();
        create(&ws, &name, "x\n");
        all.push(name);
    }
    // Listings.
    let out = ws.run(&["."]);
    assert_eq!(code(&out), 0);
    assert_inert(&stdout(&out), "a listing");
    assert!(stdout(&out).contains("n\u{241b}.txt"));
    assert!(stdout(&out).contains("n\u{2409}.txt"));
    assert!(stdout(&out).contains("n\u{240a}.txt"));
    assert!(stdout(&out).contains("n\u{2421}.txt"));
    // Headers of several PATHs.
    let args: Vec<&OsStr> = all.iter().map(|n| OsStr::from_bytes(n)).collect();
    let out = ws.cmd().args(&args).output().unwrap();
    assert_eq!(code(&out), 0);
    assert_inert(&stdout(&out).replace("\n", ""), "headers");
    assert!(stdout(&out).contains("==> n\u{241b}.txt <=="));
    // Error messages and suggestions.
    let mut missing = b"n\x1b]0;pwned\x07\x1b[31m.txt".to_vec();
    let out = ws.cmd().arg(OsStr::from_bytes(&missing)).output().unwrap();
    assert_eq!(code(&out), 3);
    assert_inert(&stderr(&out), "an error");
    assert!(stderr(&out).starts_with(
        "agentread: NOT_FOUND: File 'n\u{241b}]0;pwned\u{2407}\u{241b}[31m.txt' does not exist."
    ));
    missing = b"n\x1b.txx".to_vec();
    let out = ws.cmd().arg(OsStr::from_bytes(&missing)).output().unwrap();
    assert_inert(&stderr(&out), "suggestions");
    assert!(
        stderr(&out).contains("\n  n\u{241b}.txt\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn json_and_xml_carry_control_names_safely() {
    let ws = Workspace::new();
    create(&ws, b"esc\x1b[2J.txt", "x\n");
    let v = ws.json(&["."]);
    assert_eq!(v["data"]["entries"][0], "esc\u{1b}[2J.txt");
    let v = ws.json(&["esc\x1b[2J.txt"]);
    assert_eq!(v["data"]["path"], "esc\u{1b}[2J.txt");
    let out = ws.run(&[".", "-f", "xml"]);
    let xml = stdout(&out);
    roxmltree::Document::parse(&xml).unwrap();
    assert!(xml.contains("esc\u{241b}[2J.txt"));
    assert!(!xml.contains('\u{1b}'));
}

#[test]
fn bytes_that_are_not_utf8_print_as_hex_in_every_format() {
    let ws = Workspace::new();
    create(&ws, b"bad\xff\xfe.txt", "content\n");
    let out = ws.run(&["."]);
    assert_eq!(stdout(&out), "   1 | bad\\xFF\\xFE.txt\n");
    let v = ws.json(&["."]);
    assert_eq!(v["data"]["entries"][0], "bad\\xFF\\xFE.txt");
    let out = ws.run(&[".", "-f", "xml"]);
    let xml = stdout(&out);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let entry = doc.descendants().find(|n| n.has_tag_name("entry")).unwrap();
    assert_eq!(entry.text(), Some("bad\\xFF\\xFE.txt"));

    // The real bytes, given as an argument: every format says \xHH.
    let real = OsStr::from_bytes(b"bad\xff\xfe.txt");
    let out = ws.cmd().arg(real).args(["-f", "json"]).output().unwrap();
    let v = &json_lines(&out)[0];
    assert_eq!(v["data"]["path"], "bad\\xFF\\xFE.txt");
    assert_eq!(v["context"]["path_resolved"], "bad\\xFF\\xFE.txt");
    assert_eq!(v["context"]["params_input"]["path"], "bad\\xFF\\xFE.txt");
    let out = ws.cmd().arg(real).arg("x.txt").output().unwrap();
    assert!(stdout(&out).starts_with("==> bad\\xFF\\xFE.txt <==\n"));
}

#[test]
fn a_printed_name_can_be_passed_back() {
    let ws = Workspace::new();
    create(&ws, b"bad\xff\xfe.txt", "content\n");
    for spelling in [
        "bad\\xFF\\xFE.txt",
        "bad\\xff\\xfe.txt",
        "./bad\\xFF\\xFE.txt",
    ] {
        let out = ws.run(&[spelling]);
        assert_eq!(code(&out), 0, "{spelling}: {}", stderr(&out));
        assert_eq!(stdout(&out), "   1 | content\n");
    }
    let (exit, v) = {
        let out = ws.run(&["--call", r#"{"path":"bad\\xFF\\xFE.txt"}"#]);
        (code(&out), json_lines(&out).remove(0))
    };
    assert_eq!(exit, 0);
    assert_eq!(v["data"]["path"], "bad\\xFF\\xFE.txt");
    // A control shown as its picture, a bidirectional control shown as `<U+202E>`: the
    // name as a header or a suggestion prints it reads the file.
    create(&ws, b"tab\tname.txt", "tabbed\n");
    create(&ws, "bidi\u{202e}evil.txt".as_bytes(), "bidi\n");
    for (printed, content) in [
        ("tab\u{2409}name.txt", "   1 | tabbed\n"),
        ("bidi<U+202E>evil.txt", "   1 | bidi\n"),
    ] {
        let out = ws.run(&[printed]);
        assert_eq!(code(&out), 0, "{printed}: {}", stderr(&out));
        assert_eq!(stdout(&out), content);
        // A near miss is offered as it prints, and that spelling reads the file.
        let out = ws.run(&[&printed.replace("name", "nme").replace("evil", "evl")]);
        assert!(
            stderr(&out).contains(&format!("Did you mean one of these?\n  {printed}\n")),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn two_different_missing_names_give_different_messages() {
    let ws = Workspace::new();
    let a = ws
        .cmd()
        .arg(OsStr::from_bytes(b"m\xff.txt"))
        .output()
        .unwrap();
    let b = ws
        .cmd()
        .arg(OsStr::from_bytes(b"m\xfe.txt"))
        .output()
        .unwrap();
    assert_eq!(
        stderr(&a),
        "agentread: NOT_FOUND: File 'm\\xFF.txt' does not exist.\n"
    );
    assert_eq!(
        stderr(&b),
        "agentread: NOT_FOUND: File 'm\\xFE.txt' does not exist.\n"
    );
}

#[test]
fn a_name_that_exists_as_written_wins_over_its_hex_reading() {
    let ws = Workspace::new();
    ws.file("lit\\x41.txt", "literal\n");
    ws.file("litA.txt", "decoded\n");
    assert_eq!(stdout(&ws.run(&["lit\\x41.txt"])), "   1 | literal\n");
}

#[test]
fn a_refused_combination_keeps_every_parameter_given() {
    let ws = Workspace::new();
    ws.file("f.txt", "a\nb\n");
    let out = ws.run(&[
        "f.txt",
        "--tail",
        "3",
        "--start-char",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 2);
    let v = &json_lines(&out)[0];
    assert_eq!(
        v["context"]["params_input"],
        serde_json::json!({"path": "f.txt", "tail": 3, "start_char": 2})
    );
}
