//! SPEC §5 and §11: binary verdicts with their evidence, encodings, what the read found
//! (encoding, BOM, line endings), and the size limit.

use crate::common;

use common::{Workspace, code, json_lines, stderr, stdout};
use serde_json::json;

fn utf16le(text: &str, bom: bool) -> Vec<u8> {
    let mut out = if bom { vec![0xFF, 0xFE] } else { Vec::new() };
    out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    out
}

fn utf16be(text: &str, bom: bool) -> Vec<u8> {
    let mut out = if bom { vec![0xFE, 0xFF] } else { Vec::new() };
    out.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    out
}

#[test]
fn binary_verdicts_name_their_evidence() {
    let ws = Workspace::new();
    let mut nul = vec![b'a'; 1234];
    nul.push(0);
    ws.file("a.dat", &nul);
    let v = ws.json(&["a.dat"]);
    assert_eq!(v["error"]["code"], "BINARY_FILE");
    assert_eq!(
        v["error"]["detail"],
        json!({"reason": "nul_byte", "offset": 1234})
    );
    assert_eq!(
        v["error"]["message"],
        "File 'a.dat' appears to be binary (NUL byte at offset 1234)."
    );

    let mut controls = vec![b'x'; 58];
    controls.extend([0x01u8; 42]);
    ws.file("ctl.txt", &controls);
    let v = ws.json(&["ctl.txt"]);
    assert_eq!(
        v["error"]["detail"],
        json!({"reason": "control_ratio", "ratio": 0.42})
    );
    assert_eq!(
        v["error"]["message"],
        "File 'ctl.txt' appears to be binary (42% control bytes in the first 8 KiB)."
    );

    ws.file("logo.png", b"\x89PNG\r\n\x1a\n\xff\xfe");
    let out = ws.run(&["logo.png"]);
    assert_eq!(code(&out), 7);
    assert_eq!(
        stderr(&out),
        "agentread: BINARY_FILE: File 'logo.png' appears to be binary (binary file extension and its start is not text): PNG image; agentread --mcp sends images to models.\n"
    );
    // A PNG signature before bytes that are no IHDR: no size is read from them.
    ws.file(
        "junk.png",
        b"\x89PNG\r\n\x1a\n\0\x01garbage\0garbage garbage garbage",
    );
    let out = ws.run(&["junk.png"]);
    assert!(
        stderr(&out).ends_with(": PNG image; agentread --mcp sends images to models.\n"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        ws.json(&["logo.png"])["error"]["detail"],
        json!({"reason": "extension"})
    );
}

/// A PNG of `width`x`height`: its signature and header, then a NUL-rich body.
fn png(width: u32, height: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend(width.to_be_bytes());
    png.extend(height.to_be_bytes());
    png.extend(b"\x08\x02\0\0\0\0\0\0\0\0\0\0\0IEND\xaeB`\x82");
    png
}

/// A binary refusal names what the file is, by its first bytes, and the step that reads
/// it; `error.detail` keeps the evidence. Tool calls get no command-line flag.
#[test]
fn binary_refusals_name_what_the_file_is_and_a_next_step() {
    let ws = Workspace::new();
    ws.file("shot.png", png(1241, 357));
    let out = ws.run(&["shot.png"]);
    assert_eq!(code(&out), 7);
    assert_eq!(
        stderr(&out),
        "agentread: BINARY_FILE: File 'shot.png' appears to be binary (NUL byte at offset 8): PNG image, 1241x357; agentread --mcp sends images to models.\n"
    );
    let v = &json_lines(&ws.run(&["--call", r#"{"path":"shot.png"}"#]))[0];
    assert_eq!(
        v["error"]["message"],
        "File 'shot.png' appears to be binary (NUL byte at offset 8): PNG image, 1241x357; agentread's MCP server sends images to models."
    );
    assert_eq!(
        v["error"]["detail"],
        json!({"reason": "nul_byte", "offset": 8})
    );
    // A JPEG whose size lies past the first 8 KiB, behind a large EXIF block.
    let mut jpeg = b"\xFF\xD8\xFF\xE1".to_vec();
    jpeg.extend(20000u16.to_be_bytes());
    jpeg.extend(vec![0u8; 19998]);
    jpeg.extend(b"\xFF\xC0\0\x11\x08");
    jpeg.extend(200u16.to_be_bytes());
    jpeg.extend(300u16.to_be_bytes());
    jpeg.extend(b"\x03\x01\x22\0\x02\x11\x01\x03\x11\x01\xFF\xD9");
    ws.file("photo.jpg", &jpeg);
    assert!(
        stderr(&ws.run(&["photo.jpg"])).contains("): JPEG image, 300x200; agentread --mcp"),
        "{}",
        stderr(&ws.run(&["photo.jpg"]))
    );
    // Compressed data and archives: the command that reads them, the path one shell word.
    let mut gzip = b"\x1F\x8B\x08\0\0\0\0\0\0\x03".to_vec();
    gzip.extend(b"\xcb\x48\xcd\xc9\xc9\xe7\x02\0");
    ws.file("logs/old log.gz", &gzip);
    assert_eq!(
        stderr(&ws.run(&["logs/old log.gz"])),
        "agentread: BINARY_FILE: File 'logs/old log.gz' appears to be binary (NUL byte at offset 3): gzip data; try 'zcat \"logs/old log.gz\" | agentread -'.\n"
    );
    let out = ws
        .cmd()
        .arg("-")
        .write_stdin(gzip.clone())
        .output()
        .unwrap();
    assert_eq!(
        stderr(&out),
        "agentread: BINARY_FILE: File '<stdin>' appears to be binary (NUL byte at offset 3): gzip data; try '… | zcat | agentread -'.\n"
    );
    let mut sqlite = b"SQLite format 3\0".to_vec();
    sqlite.extend([0u8; 100]);
    ws.file("app.db", &sqlite);
    assert!(
        stderr(&ws.run(&["app.db"]))
            .ends_with(": SQLite database; try 'sqlite3 app.db .schema'.\n")
    );
    ws.file("a.zip", b"PK\x03\x04\x14\0\0\0\0\0");
    assert!(stderr(&ws.run(&["a.zip"])).ends_with(
        ": zip archive; list it with 'unzip -l a.zip', read a member with 'unzip -p a.zip MEMBER | agentread -'.\n"
    ));
    // What the first bytes do not name keeps the plain verdict.
    ws.file("a.dat", b"\x01\x02\0\x03 nothing known");
    assert_eq!(
        stderr(&ws.run(&["a.dat"])),
        "agentread: BINARY_FILE: File 'a.dat' appears to be binary (NUL byte at offset 2).\n"
    );
}

/// UTF-16 text without a BOM whose characters are not ASCII (so that it has few NULs) is
/// recognised by its code units and read, not refused (SPEC §11), by default as with
/// `--encoding auto`.
#[test]
fn utf16_without_a_bom_or_ascii_is_recognised_and_read() {
    let ws = Workspace::new();
    let text = "中文文本，这是一个测试。\n第二行的内容也是中文：数据、结构与算法。\n".repeat(30);
    ws.file("zh.txt", utf16le(&text, false));
    ws.file("zh-be.txt", utf16be(&text, false));
    let out = ws.run(&["zh.txt", "-n", "1"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).starts_with("   1 | 中文文本，这是一个测试。\n"));
    let v = &json_lines(&ws.run(&["--call", r#"{"path":"zh-be.txt","limit":1}"#]))[0];
    assert_eq!(v["stats"]["encoding"], "utf-16be", "{v}");
    for (name, encoding) in [("zh.txt", "utf-16le"), ("zh-be.txt", "utf-16be")] {
        let v = ws.json(&[name, "-n", "2"]);
        assert_eq!(v["stats"]["encoding"], encoding, "{name}: {v}");
        let v = ws.json(&[name, "--encoding", "auto", "-n", "2"]);
        assert_eq!(v["status"], "partial", "{name}: {v}");
        assert_eq!(v["stats"]["encoding"], encoding);
        assert_eq!(v["stats"]["bom"], false);
        assert_eq!(v["stats"]["total_lines"], 60);
        assert_eq!(
            v["data"]["content"],
            "   1 | 中文文本，这是一个测试。\n   2 | 第二行的内容也是中文：数据、结构与算法。\n"
        );
        let v = ws.json(&[name, "--encoding", encoding, "-n", "1"]);
        assert_eq!(v["data"]["content"], "   1 | 中文文本，这是一个测试。\n");
    }
}

#[test]
fn text_that_only_looks_suspicious_is_read() {
    let ws = Workspace::new();
    // A NUL after the first 8 KiB does not make a file binary.
    let mut late = "x\n".repeat(4200).into_bytes();
    late.extend_from_slice(b"tail\0here\n");
    ws.file("late.log", &late);
    let v = ws.json(&["late.log", "--tail", "1"]);
    assert_eq!(v["status"], "success");
    assert_eq!(v["data"]["content"], "4201 | tail\0here\n");
    // Binary extensions with plain text content are text.
    ws.file("notes.bin", "just text\n");
    ws.file("table.dat", "1,2,3\n");
    assert_eq!(stdout(&ws.run(&["notes.bin"])), "   1 | just text\n");
    assert_eq!(stdout(&ws.run(&["table.dat"])), "   1 | 1,2,3\n");
    // Tabs, form feeds, backspaces and escapes are not counted as suspect.
    ws.file("ansi.log", "\x1b[31mred\x1b[0m\t\x0c\x08\n".repeat(50));
    assert_eq!(code(&ws.run(&["ansi.log"])), 0);
    // 30 % exactly is still text.
    let mut edge = vec![b'y'; 70];
    edge.extend([0x02u8; 30]);
    ws.file("edge.txt", &edge);
    assert_eq!(code(&ws.run(&["edge.txt"])), 0);
}

#[test]
fn utf16_with_and_without_bom_is_decoded() {
    let ws = Workspace::new();
    ws.file("le-bom.txt", utf16le("hé\r\nwörld\r\n", true));
    ws.file("be-bom.txt", utf16be("hé\nwörld\n", true));
    ws.file("le.txt", utf16le("plain ascii text\nsecond line\n", false));
    ws.file("be.txt", utf16be("plain ascii text\nsecond line\n", false));
    for (name, encoding, bom, endings) in [
        ("le-bom.txt", "utf-16le", true, "crlf"),
        ("be-bom.txt", "utf-16be", true, "lf"),
        ("le.txt", "utf-16le", false, "lf"),
        ("be.txt", "utf-16be", false, "lf"),
    ] {
        let v = ws.json(&[name]);
        assert_eq!(v["status"], "success", "{name}: {v}");
        assert_eq!(v["stats"]["encoding"], encoding, "{name}");
        assert_eq!(v["stats"]["bom"], bom, "{name}");
        assert_eq!(v["stats"]["line_endings"], endings, "{name}");
        assert_eq!(v["stats"]["total_lines"], 2, "{name}");
    }
    assert_eq!(
        ws.json(&["le-bom.txt"])["data"]["content"],
        "   1 | hé\n   2 | wörld\n"
    );
    // An explicit UTF-16 encoding needs no BOM and ignores the NUL rule.
    ws.file("cjk.txt", utf16le("日本語\n", false));
    let v = ws.json(&["cjk.txt", "--encoding", "utf-16le"]);
    assert_eq!(v["data"]["content"], "   1 | 日本語\n");
}

#[test]
fn named_encodings_decode_through_whatwg_labels() {
    let ws = Workspace::new();
    let cases: [(&str, &'static encoding_rs::Encoding, &str); 8] = [
        ("gbk", encoding_rs::GBK, "中文文本"),
        ("gb18030", encoding_rs::GB18030, "中文文本"),
        ("shift_jis", encoding_rs::SHIFT_JIS, "日本語のテキスト"),
        ("euc-jp", encoding_rs::EUC_JP, "日本語のテキスト"),
        ("euc-kr", encoding_rs::EUC_KR, "한국어 텍스트"),
        ("big5", encoding_rs::BIG5, "繁體中文"),
        ("windows-1252", encoding_rs::WINDOWS_1252, "café naïve"),
        ("latin1", encoding_rs::WINDOWS_1252, "Grüße"),
    ];
    for (label, encoding, text) in cases {
        let source = format!("{text}\nline two\n");
        let (bytes, _, _) = encoding.encode(&source);
        ws.file("enc.txt", &bytes);
        let v = ws.json(&["enc.txt", "--encoding", label]);
        assert_eq!(v["status"], "success", "{label}: {v}");
        assert_eq!(
            v["data"]["content"],
            format!("   1 | {text}\n   2 | line two\n"),
            "{label}"
        );
        assert_eq!(
            v["stats"]["encoding"],
            encoding.name().to_ascii_lowercase(),
            "{label}"
        );
    }
    let out = ws.run(&["enc.txt", "--encoding", "klingon"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).starts_with("agentread: INVALID_PARAM: Unknown encoding 'klingon'"));
}

#[test]
fn malformed_input_in_a_named_encoding_is_replaced_where_shown() {
    let ws = Workspace::new();
    // 0x81 alone at the end of a line is an incomplete GBK sequence.
    ws.file("bad.txt", b"ok\n\x81\nfine\n");
    let v = ws.json(&["bad.txt", "--encoding", "gbk"]);
    assert_eq!(
        v["data"]["content"],
        "   1 | ok\n   2 | \u{FFFD}\n   3 | fine\n"
    );
    assert_eq!(v["data"]["fallback_encoding"], "replace");
    assert_eq!(v["status"], "partial");
    let v = ws.json(&["bad.txt", "--encoding", "gbk", "-s", "3"]);
    assert_eq!(v["data"]["fallback_encoding"], json!(null));
    assert_eq!(v["status"], "success");
}

#[test]
fn auto_uses_the_bom_then_utf8_then_detection() {
    let ws = Workspace::new();
    ws.file("utf8.txt", "naïve café\n");
    ws.file("bom16.txt", utf16le("hello\n", true));
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("日本語のテキストです。これは文章です。\n");
    ws.file("sjis.txt", &sjis);
    let (cp, _, _) =
        encoding_rs::WINDOWS_1252.encode("Le café était très agréable à côté de la forêt.\n");
    ws.file("cp.txt", &cp);
    for (name, encoding) in [
        ("utf8.txt", "utf-8"),
        ("bom16.txt", "utf-16le"),
        ("sjis.txt", "shift_jis"),
        ("cp.txt", "windows-1252"),
    ] {
        let v = ws.json(&[name, "--encoding", "auto"]);
        assert_eq!(v["stats"]["encoding"], encoding, "{name}");
        assert_eq!(v["status"], "success", "{name}");
    }
    // UTF-8 only if the whole file is: a Latin-1 byte past the first 64 KiB decides
    // too, and the default's footer names what auto would choose.
    let mut late = "plain ascii line\n".repeat(5000).into_bytes();
    late.extend_from_slice(b"caf\xe9\n");
    ws.file("late.txt", &late);
    let v = ws.json(&["late.txt", "--encoding", "auto", "--tail", "1"]);
    assert_eq!(v["stats"]["encoding"], "windows-1252", "{v}");
    assert_eq!(v["data"]["content"], "5001 | café\n");
    let v = ws.json(&["late.txt", "--tail", "1"]);
    assert_eq!(v["data"]["suggested_encoding"], "windows-1252", "{v}");
    // A late character that is UTF-8 keeps it UTF-8.
    let mut late = "plain ascii line\n".repeat(5000).into_bytes();
    late.extend_from_slice("café 中\n".as_bytes());
    ws.file("late8.txt", &late);
    let v = ws.json(&["late8.txt", "--encoding", "auto", "--tail", "1"]);
    assert_eq!(v["stats"]["encoding"], "utf-8", "{v}");
}

#[test]
fn line_endings_and_bom_describe_the_whole_file() {
    let ws = Workspace::new();
    let mixed_late = format!("{}last\r\n", "a\n".repeat(5000));
    for (name, body, endings) in [
        ("lf.txt", "a\nb\n".to_string(), "lf"),
        ("crlf.txt", "a\r\nb\r\n".to_string(), "crlf"),
        ("mixed.txt", "a\r\nb\n".to_string(), "mixed"),
        ("none.txt", "no newline".to_string(), "none"),
        ("lone-cr.txt", "a\rb\n".to_string(), "lf"),
        ("late.txt", mixed_late, "mixed"),
    ] {
        ws.file(name, body);
        // The window shows line 1 only; the endings are of the whole file.
        let v = ws.json(&[name, "-n", "1"]);
        assert_eq!(v["stats"]["line_endings"], endings, "{name}");
        assert_eq!(v["stats"]["bom"], false);
    }
}

#[test]
fn max_file_size_refuses_larger_files_before_reading() {
    let ws = Workspace::new();
    ws.file("big.txt", "x".repeat(2048));
    let out = ws.run(&["big.txt", "--max-file-size", "1KiB"]);
    assert_eq!(code(&out), 8);
    assert_eq!(
        stderr(&out),
        "agentread: SIZE_LIMIT_EXCEEDED: File 'big.txt' is 2048 bytes, larger than --max-file-size 1KiB (1024 bytes).\n"
    );
    assert_eq!(code(&ws.run(&["big.txt", "--max-file-size", "2048"])), 0);
    assert_eq!(code(&ws.run(&["big.txt", "--max-file-size", "2k"])), 0);
    assert_eq!(code(&ws.run(&["big.txt", "--max-file-size", "2KB"])), 8);
    // Checked before any test of the content: a large binary file is a size error.
    ws.file("big.bin", vec![0u8; 5000]);
    assert_eq!(code(&ws.run(&["big.bin", "--max-file-size", "1k"])), 8);
    let out = ws.run(&["big.txt", "--max-file-size", "lots"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn max_file_size_stops_a_stream_once_passed() {
    let ws = Workspace::new();
    let out = ws
        .cmd()
        .args(["-", "--max-file-size", "1K", "-f", "json"])
        .write_stdin("y\n".repeat(5000))
        .output()
        .unwrap();
    assert_eq!(code(&out), 8);
    let v = &json_lines(&out)[0];
    assert_eq!(v["error"]["code"], "SIZE_LIMIT_EXCEEDED");
    assert_eq!(
        v["error"]["message"],
        "'<stdin>' is larger than --max-file-size 1K (1024 bytes); reading stopped there."
    );
}

/// SPEC §17 "Tiny files": `printf 'a\0b\n'` was decoded as UTF-16 garbage.
#[test]
fn a_tiny_file_holding_a_nul_is_binary() {
    let ws = Workspace::new();
    ws.file("tiny.bin", b"a\0b\n");
    for encoding in ["utf-8", "auto"] {
        let out = ws.run(&["tiny.bin", "--encoding", encoding]);
        assert_eq!(code(&out), 7, "{encoding}: {}", stdout(&out));
        assert!(
            stderr(&out).contains("NUL byte at offset 1"),
            "{}",
            stderr(&out)
        );
    }
    let out = ws
        .cmd()
        .arg("-")
        .write_stdin(&b"a\0b\n"[..])
        .output()
        .unwrap();
    assert_eq!(code(&out), 7);
    // Named, it is decoded as asked.
    let out = ws.run(&["tiny.bin", "--encoding", "utf-16le"]);
    assert_eq!(code(&out), 0);
}
