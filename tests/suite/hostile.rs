//! Random bytes with random options: agentread never panics, exits only with the codes of
//! SPEC §9, and always prints parseable JSON and well-formed XML.

use crate::common;

use common::{Workspace, code, json_lines, stderr, stdout};
use proptest::prelude::*;
use proptest::test_runner::Config;

#[derive(Debug, Clone)]
struct Options {
    name: &'static str,
    start: Option<u64>,
    tail: Option<u64>,
    limit: u64,
    start_char: Option<u64>,
    max_line_chars: u64,
    max_bytes: u64,
    numbers: &'static str,
    encoding: &'static str,
    stdin: bool,
}

fn options() -> impl Strategy<Value = Options> {
    (
        prop::sample::select(vec!["f.txt", "f.png", "f.bin", "f.rs", "noext"]),
        prop::option::of(1u64..30),
        prop::option::of(1u64..10),
        1u64..12,
        prop::option::of(1u64..40),
        1u64..60,
        1u64..800,
        prop::sample::select(vec!["pipe", "tab", "colon", "none"]),
        prop::sample::select(vec![
            "utf-8",
            "auto",
            "gbk",
            "utf-16le",
            "utf-16be",
            "shift_jis",
            "windows-1252",
        ]),
        any::<bool>(),
    )
        .prop_map(
            |(
                name,
                start,
                tail,
                limit,
                start_char,
                max_line_chars,
                max_bytes,
                numbers,
                encoding,
                stdin,
            )| Options {
                name,
                start,
                tail,
                limit,
                start_char,
                max_line_chars,
                max_bytes,
                numbers,
                encoding,
                stdin,
            },
        )
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(b"ab \n\r\t<>&]\"'".to_vec()),
            2 => any::<u8>(),
            1 => prop::sample::select(vec![0u8, 0x1b, 0x7f, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xff, 0xfe]),
        ],
        0..600,
    )
}

fn args(o: &Options, format: &str) -> Vec<String> {
    let mut a = vec![if o.stdin {
        "-".to_string()
    } else {
        o.name.to_string()
    }];
    if let Some(s) = o.start {
        a.extend(["--start-line".into(), s.to_string()]);
    }
    if let Some(t) = o.tail {
        a.extend(["--tail".into(), t.to_string()]);
    }
    if let Some(c) = o.start_char {
        a.extend(["--start-char".into(), c.to_string()]);
    }
    a.extend([
        "--limit".into(),
        o.limit.to_string(),
        "--max-line-chars".into(),
        o.max_line_chars.to_string(),
        "--max-bytes".into(),
        o.max_bytes.to_string(),
        "--numbers".into(),
        o.numbers.into(),
        "--encoding".into(),
        o.encoding.into(),
        "--format".into(),
        format.into(),
    ]);
    a
}

proptest! {
    #![proptest_config(Config { cases: 96, ..Config::default() })]

    #[test]
    fn any_input_gives_a_spec_exit_code_and_well_formed_output(data in bytes(), o in options()) {
        let ws = Workspace::new();
        ws.file(o.name, &data);
        for format in ["json", "xml", "text"] {
            let mut cmd = ws.cmd();
            cmd.args(args(&o, format));
            if o.stdin {
                cmd.write_stdin(data.clone());
            }
            let out = cmd.output().unwrap();
            let exit = code(&out);
            prop_assert!([0, 2, 7].contains(&exit), "exit {} for {:?}: {}", exit, o, stderr(&out));
            prop_assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
            match format {
                "json" => {
                    let objects = json_lines(&out);
                    prop_assert_eq!(objects.len(), 1);
                    let v = &objects[0];
                    let status = v["status"].as_str().unwrap_or_default();
                    prop_assert!(["success", "partial", "error"].contains(&status));
                    if status == "error" {
                        prop_assert_eq!(v["error"]["exit_code"].as_i64(), Some(exit as i64));
                    } else {
                        prop_assert_eq!(exit, 0);
                        let content = v["data"]["content"].as_str().unwrap();
                        let lines = v["stats"]["lines_read"].as_u64().unwrap();
                        prop_assert_eq!(content.matches('\n').count() as u64, lines);
                    }
                }
                "xml" => {
                    let text = stdout(&out);
                    let parsed = roxmltree::Document::parse(&text);
                    prop_assert!(parsed.is_ok(), "{:?}\n{}", parsed.err(), text);
                }
                _ => {}
            }
        }
    }
}

/// An ambiguous `PATH#SYMBOL` in a file of 20,000 `def f(): pass` answers at once with
/// at most 20 suggestions and says how many were left out (it was quadratic and
/// listed every match).
#[test]
fn an_ambiguous_symbol_lists_at_most_twenty_matches() {
    let ws = Workspace::new();
    let source: String = (0..20_000).map(|_| "def f(): pass\n").collect();
    ws.file("many.py", source);
    let started = std::time::Instant::now();
    let v = ws.json(&["many.py#f"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(v["error"]["code"], "INVALID_PARAM");
    let suggestions = v["error"]["suggestions"].as_array().unwrap();
    assert_eq!(suggestions.len(), 20);
    assert_eq!(suggestions[0], "many.py:1-1");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("(20000 matches; the first 20 are listed, 19980 more are not)"),
        "{message}"
    );
}

/// `symbol` is at most 4,096 bytes, as a PATH is.
#[test]
fn a_symbol_longer_than_a_path_is_refused() {
    let ws = Workspace::new();
    ws.file("a.py", "def f(): pass\n");
    let long = "x".repeat(4097);
    let call = serde_json::json!({"path": "a.py", "symbol": long}).to_string();
    let v = ws.json(&["--call", &call]);
    assert_eq!(v["error"]["code"], "INVALID_PARAM");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 4096 bytes"),
        "{v}"
    );
    let ok = serde_json::json!({"path": "a.py", "symbol": "x".repeat(4096)}).to_string();
    let v = ws.json(&["--call", &ok]);
    assert_eq!(v["error"]["code"], "NOT_FOUND");
}

/// Each result of a `paths` call holds its own target as `path`, not the whole list.
#[test]
fn each_result_of_a_paths_call_holds_its_own_target() {
    let ws = Workspace::new();
    ws.file("a.txt", "alpha\n");
    ws.file("b.txt", "beta\n");
    let call = r#"{"paths":["a.txt","b.txt"],"limit":1}"#;
    let out = ws.run(&["--call", call]);
    let objects = json_lines(&out);
    assert_eq!(objects.len(), 2);
    assert_eq!(
        objects[0]["context"]["params_input"],
        serde_json::json!({"path": "a.txt", "limit": 1})
    );
    assert_eq!(
        objects[1]["context"]["params_input"],
        serde_json::json!({"path": "b.txt", "limit": 1})
    );
}
