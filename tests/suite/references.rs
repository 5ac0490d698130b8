//! SPEC §13: `PATH:N`, `PATH:N:C`, `PATH:N-M`, `-C K`, the range words of other read
//! tools in `--call`, and the refusals that say what to do instead.

use crate::common;

use common::{Workspace, code, json_lines, numbered, stderr, stdout};
use serde_json::{Value, json};

fn workspace() -> Workspace {
    let ws = Workspace::new();
    let lines: String = (1..=50).map(|n| format!("line {n}\n")).collect();
    ws.file("src/main.rs", lines);
    ws
}

fn text(n: u64) -> String {
    format!("line {n}")
}

fn call(ws: &Workspace, args: Value) -> (i32, Value) {
    let out = ws.run(&["--call", &args.to_string()]);
    let mut lines = json_lines(&out);
    assert_eq!(lines.len(), 1);
    (code(&out), lines.remove(0))
}

#[test]
fn path_colon_n_starts_the_window_at_line_n() {
    let ws = workspace();
    let out = ws.run(&["src/main.rs:42", "--no-hint"]);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), numbered(42, 50, text));
    // As -s N: the limit still applies, and -n 3 gives lines N..N+2.
    let out = ws.run(&["src/main.rs:42", "-n", "3"]);
    assert_eq!(
        stdout(&out),
        format!(
            "{}\n[Truncated: showing lines 42-44 of 50. Use --start-line 45 to continue. Use --outline to list its symbols.]\n",
            numbered(42, 44, text)
        )
    );
}

#[test]
fn the_column_of_path_n_c_is_ignored() {
    let ws = workspace();
    let a = ws.run(&["src/main.rs:7:15", "-n", "2"]);
    let b = ws.run(&["src/main.rs:7", "-n", "2"]);
    assert!(stdout(&a).starts_with("   7 | line 7\n   8 | line 8\n"));
    assert_eq!(code(&a), 0);
    assert_eq!(stdout(&a), stdout(&b));
}

#[test]
fn path_n_m_is_lines_n_to_m() {
    let ws = workspace();
    let v = ws.json(&["src/main.rs:10-12"]);
    assert_eq!(v["data"]["content"], numbered(10, 12, text));
    assert_eq!(v["data"]["path"], "src/main.rs");
    assert_eq!(v["data"]["start_line"], 10);
    assert_eq!(v["data"]["end_line"], 12);
    assert_eq!(v["context"]["params_input"]["path"], "src/main.rs:10-12");
    assert_eq!(v["context"]["path_resolved"], "src/main.rs");
    // A range to the last line is not truncated; one line is N-N.
    let v = ws.json(&["src/main.rs:49-50"]);
    assert_eq!(v["data"]["truncated"], false);
    let v = ws.json(&["src/main.rs:5-5"]);
    assert_eq!(v["data"]["content"], numbered(5, 5, text));
}

#[test]
fn ranges_are_checked() {
    let ws = workspace();
    for (target, says) in [
        ("src/main.rs:12-10", "M ≥ N"),
        ("src/main.rs:1-2001", "at most 2000"),
    ] {
        let out = ws.run(&[target]);
        assert_eq!(code(&out), 2, "{target}");
        assert!(stderr(&out).contains("INVALID_PARAM"), "{target}");
        assert!(stderr(&out).contains(says), "{target}: {}", stderr(&out));
    }
    let out = ws.run(&["src/main.rs:1-2000"]);
    assert_eq!(code(&out), 0);
}

#[test]
fn n_past_the_end_gives_the_valid_range() {
    let ws = workspace();
    for args in [vec!["src/main.rs:51"], vec!["src/main.rs:60", "-C", "20"]] {
        let n = args[0].rsplit(':').next().unwrap();
        let out = ws.run(&args);
        assert_eq!(code(&out), 2, "{args:?}");
        assert_eq!(
            stderr(&out),
            format!(
                "agentread: INVALID_PARAM: start_line {n} is past the end of 'src/main.rs' (50 lines; valid: 1-50).\n"
            )
        );
    }
}

#[test]
fn context_shows_k_lines_around_line_n() {
    let ws = workspace();
    let v = ws.json(&["src/main.rs:20", "-C", "2"]);
    assert_eq!(v["data"]["content"], numbered(18, 22, text));
    assert_eq!(
        v["context"]["params_input"],
        json!({"path": "src/main.rs:20", "context": 2})
    );
    // Clipped at the first line and at the end of the file.
    let v = ws.json(&["src/main.rs:2", "--context", "5"]);
    assert_eq!(v["data"]["content"], numbered(1, 7, text));
    let v = ws.json(&["src/main.rs:49", "-C", "5"]);
    assert_eq!(v["data"]["content"], numbered(44, 50, text));
    assert_eq!(v["data"]["truncated"], false);
    let v = ws.json(&["src/main.rs:9", "-C", "0"]);
    assert_eq!(v["data"]["content"], numbered(9, 9, text));
    // The line the reference names, for JSON and XML readers.
    assert_eq!(v["data"]["target_line"], 9);
    assert_eq!(ws.json(&["src/main.rs:9:4"])["data"]["target_line"], 9);
    assert!(
        ws.json(&["src/main.rs:9-10"])["data"]
            .get("target_line")
            .is_none()
    );
    assert!(
        ws.json(&["src/main.rs"])["data"]
            .get("target_line")
            .is_none()
    );
    let xml = stdout(&ws.run(&["src/main.rs:20", "-C", "1", "-f", "xml"]));
    assert!(xml.contains(" target_line=\"20\""), "{xml}");
    for bad in ["-1", "1000", "x"] {
        let out = ws.run(&["src/main.rs:9", "-C", bad]);
        assert_eq!(code(&out), 2, "{bad}");
    }
    let out = ws.run(&["src/main.rs:9", "-C", "999"]);
    assert_eq!(code(&out), 0);
}

#[test]
fn refused_combinations_say_what_to_do_instead() {
    let ws = workspace();
    for args in [
        vec!["src/main.rs", "-C", "3"],
        vec!["src/main.rs:3-5", "--start-line", "2"],
        vec!["src/main.rs:3-5", "--limit", "2"],
        vec!["src/main.rs:3-5", "--tail", "2"],
        vec!["src/main.rs:3-5", "-C", "2"],
        vec!["src/main.rs:3", "--start-line", "2"],
        vec!["src/main.rs:3", "--tail", "2"],
    ] {
        let out = ws.run(&args);
        assert_eq!(code(&out), 2, "{args:?}");
        let message = stderr(&out);
        assert!(
            message.starts_with("agentread: INVALID_PARAM: "),
            "{message}"
        );
        assert!(
            message.contains("use ") || message.contains("drop ") || message.contains("such as"),
            "no next step in {message}"
        );
        // json keeps every parameter given, the path included.
        let mut all = args.clone();
        all.extend(["--format", "json"]);
        let v = json_lines(&ws.run(&all)).remove(0);
        assert_eq!(v["context"]["params_input"]["path"], args[0]);
    }
    // The step offered works: each refusal, the words it offers, and the command they
    // make (`PATH:N` with --start-line or --tail is itself refused, so it is not offered).
    for (refused, offered, works) in [
        (
            vec!["src/main.rs:3-5", "--tail", "2"],
            "(drop :3-5, or drop --tail)",
            vec!["src/main.rs", "--tail", "2"],
        ),
        (
            vec!["src/main.rs:3-5", "--start-line", "2"],
            "(drop :3-5, or drop --start-line)",
            vec!["src/main.rs", "--start-line", "2"],
        ),
        (
            vec!["src/main.rs:3-5", "--limit", "2"],
            "(use PATH:3 with --limit, or drop --limit)",
            vec!["src/main.rs:3", "--limit", "2"],
        ),
    ] {
        let message = stderr(&ws.run(&refused));
        assert!(message.contains(offered), "{message}");
        assert_eq!(code(&ws.run(&works)), 0, "{works:?}");
    }
    // A range word given in a call is named as given, not as the start line it sets.
    let v =
        json_lines(&ws.run(&["--call", r#"{"path":"src/main.rs:3-4","end_line":5}"#])).remove(0);
    assert_eq!(
        v["error"]["message"],
        "A PATH:N-M target names its lines itself; end_line cannot be combined with it (drop :3-4, or drop end_line)."
    );
}

#[test]
fn several_targets_of_one_file_are_answered_like_several_paths() {
    let ws = workspace();
    let out = ws.run(&["src/main.rs:10-11", "src/main.rs:30-31"]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        format!(
            "==> src/main.rs:10-11 <==\n{}\n[Truncated: showing lines 10-11 of 50. Use --start-line 12 to continue. Use --outline to list its symbols.]\n\n==> src/main.rs:30-31 <==\n{}\n[Truncated: showing lines 30-31 of 50. Use --start-line 32 to continue. Use --outline to list its symbols.]\n",
            numbered(10, 11, text),
            numbered(30, 31, text)
        )
    );
    let out = ws.run(&["src/main.rs:10-11", "src/main.rs:30-31", "-f", "json"]);
    let answers = json_lines(&out);
    assert_eq!(
        answers[1]["context"]["params_input"]["path"],
        "src/main.rs:30-31"
    );
    assert_eq!(answers[1]["data"]["path"], "src/main.rs");
}

#[test]
fn an_existing_file_whose_name_holds_the_colon_wins() {
    let ws = workspace();
    ws.file("notes:3", "the file itself\n");
    ws.file("notes", "a\nb\nc\nd\n");
    let out = ws.run(&["notes:3"]);
    assert_eq!(stdout(&out), "   1 | the file itself\n");
    let out = ws.run(&["notes:4"]);
    assert_eq!(stdout(&out), "   4 | d\n");
}

#[test]
fn a_reference_to_a_missing_file_suggests_files() {
    let ws = workspace();
    let out = ws.run(&["src/mian.rs:3"]);
    assert_eq!(code(&out), 3);
    assert_eq!(
        stderr(&out),
        "agentread: NOT_FOUND: File 'src/mian.rs' does not exist.\nDid you mean one of these?\n  src/main.rs\n"
    );
}

#[test]
fn the_sandbox_applies_to_the_file_a_reference_names() {
    let ws = workspace();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "secret\n").unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.txt"), ws.path().join("link")).unwrap();
    let out = ws.run(&["link:1"]);
    assert_eq!(code(&out), 4);
    assert!(!stdout(&out).contains("secret"));
    let out = ws.run(&["../x:1"]);
    assert_eq!(code(&out), 4);
}

#[test]
fn references_work_in_call() {
    let ws = workspace();
    let (exit, v) = call(&ws, json!({"path": "src/main.rs:10-12"}));
    assert_eq!(exit, 0);
    assert_eq!(v["data"]["content"], numbered(10, 12, text));
    let (_, v) = call(&ws, json!({"path": "src/main.rs:10", "context": 1}));
    assert_eq!(v["data"]["content"], numbered(9, 11, text));
    let (exit, v) = call(&ws, json!({"path": "src/main.rs:10-12", "limit": 5}));
    assert_eq!(exit, 2);
    assert_eq!(v["error"]["code"], "INVALID_PARAM");
}

#[test]
fn end_line_and_view_range_are_accepted_in_place_of_limit() {
    let ws = workspace();
    let (_, v) = call(
        &ws,
        json!({"path": "src/main.rs", "start_line": 5, "end_line": 7}),
    );
    assert_eq!(v["data"]["content"], numbered(5, 7, text));
    assert_eq!(
        v["context"]["params_input"],
        json!({"path": "src/main.rs", "start_line": 5, "end_line": 7})
    );
    // start_line defaults to 1.
    let (_, v) = call(&ws, json!({"path": "src/main.rs", "end_line": 2}));
    assert_eq!(v["data"]["content"], numbered(1, 2, text));
    let (_, v) = call(&ws, json!({"path": "src/main.rs", "view_range": [3, 4]}));
    assert_eq!(v["data"]["content"], numbered(3, 4, text));
    // -1: to the end.
    let (_, v) = call(&ws, json!({"path": "src/main.rs", "view_range": [48, -1]}));
    assert_eq!(v["data"]["content"], numbered(48, 50, text));
    assert_eq!(v["data"]["truncated"], false);
    // The schema does not advertise them.
    let schema: Value = serde_json::from_slice(&ws.run(&["--tool-schema"]).stdout).unwrap();
    assert!(schema["parameters"]["properties"].get("end_line").is_none());
    assert!(
        schema["parameters"]["properties"]
            .get("view_range")
            .is_none()
    );
}

#[test]
fn range_words_cannot_be_combined_with_limit_tail_or_each_other() {
    let ws = workspace();
    for args in [
        json!({"path": "src/main.rs", "end_line": 5, "limit": 3}),
        json!({"path": "src/main.rs", "end_line": 5, "tail": 3}),
        json!({"path": "src/main.rs", "view_range": [1, 5], "limit": 3}),
        json!({"path": "src/main.rs", "view_range": [1, 5], "tail": 3}),
        json!({"path": "src/main.rs", "view_range": [1, 5], "end_line": 5}),
        json!({"path": "src/main.rs", "start_line": 5, "end_line": 4}),
        json!({"path": "src/main.rs", "view_range": [5, 4]}),
        json!({"path": "src/main.rs", "view_range": [0, 4]}),
        json!({"path": "src/main.rs", "view_range": [1]}),
        json!({"path": "src/main.rs", "view_range": "1-4"}),
        json!({"path": "src/main.rs", "end_line": 2001}),
    ] {
        let (exit, v) = call(&ws, args.clone());
        assert_eq!(exit, 2, "{args}");
        assert_eq!(v["error"]["code"], "INVALID_PARAM", "{args}");
        assert_eq!(v["context"]["params_input"], args);
    }
}

#[test]
fn with_no_path_the_usage_names_standard_input_and_matches_help() {
    let ws = workspace();
    let out = ws.cmd().write_stdin("never read\n").output().unwrap();
    assert_eq!(code(&out), 2);
    let message = stderr(&out);
    assert!(
        message.contains("agentread [OPTIONS] [PATH]..."),
        "{message}"
    );
    assert!(message.contains("- for standard input"), "{message}");
    let help = stdout(&ws.run(&["--help"]));
    assert!(
        help.contains("Usage: agentread [OPTIONS] [PATH]..."),
        "{help}"
    );
}

/// Several `-C` windows: a window is expected to be partial, so none gets a truncation
/// footer; each file's total is said once, after the last window. Other footers stay.
#[test]
fn several_context_windows_say_each_files_total_once() {
    let ws = workspace();
    ws.file("b.txt", format!("{}\nb2\nb3\n", "x".repeat(3000)));
    let out = ws.run(&["src/main.rs:10", "b.txt:2", "src/main.rs:40", "-C", "1"]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        format!(
            "==> src/main.rs:10 <==\n{}\n==> b.txt:2 <==\n   1 | {} … [+1000 chars]\n   2 | b2\n   3 | b3\n\n[Line 1 was cut at 2000 of 3000 chars. Use --start-line 1 --start-char 2001 to continue it.]\n\n==> src/main.rs:40 <==\n{}\n[Lines in each file: src/main.rs 50, b.txt 3.]\n",
            numbered(9, 11, text),
            "x".repeat(2000),
            numbered(39, 41, text)
        )
    );
    // Without a footer: no totals, and no word on stderr (the windows are what was asked).
    let out = ws.run(&["src/main.rs:10", "src/main.rs:40", "-C", "1", "--no-hint"]);
    assert_eq!(
        stdout(&out),
        format!(
            "==> src/main.rs:10 <==\n{}\n==> src/main.rs:40 <==\n{}",
            numbered(9, 11, text),
            numbered(39, 41, text)
        )
    );
    assert_eq!(stderr(&out), "");
    let out = ws.run(&["src/main.rs:10", "-C", "1", "--no-hint"]);
    assert_eq!(
        (stdout(&out), stderr(&out)),
        (numbered(9, 11, text), String::new())
    );
    // One window keeps its own footer, which says how to read on.
    let out = ws.run(&["src/main.rs:10", "-C", "1"]);
    assert!(
        stdout(&out)
            .ends_with("[Truncated: showing lines 9-11 of 50. Use --start-line 12 to continue. Use --outline to list its symbols.]\n")
    );
}

#[test]
fn the_rg_cut_xargs_pipeline_of_the_readme_works() {
    // The README's example, run as written (rg is stood in for by grep -rn when it is
    // not installed: both print path:line:text).
    let ws = Workspace::new();
    let line = |n: u64| match n {
        20 | 45 => format!("fn answer_{n}() {{}}"),
        n => format!("line {n}"),
    };
    ws.file(
        "src/main.rs",
        (1..=50).map(|n| line(n) + "\n").collect::<String>(),
    );
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let example = readme
        .lines()
        .find(|l| l.contains("| cut -d: -f1,2 | xargs agentread -C 3"))
        .expect("the README shows the rg | cut | xargs example")
        .trim();
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_agentread"))
        .parent()
        .unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    let script =
        format!("command -v rg >/dev/null || rg() {{ shift; grep -rn \"$@\"; }}\n{example}\n");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(ws.path())
        .env("PATH", path)
        .env_remove("AGENTREAD_ROOT")
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "==> src/main.rs:20 <==\n{}\n==> src/main.rs:45 <==\n{}\n[Lines in each file: src/main.rs 50.]\n",
            numbered(17, 23, line),
            numbered(42, 48, line)
        )
    );
}

#[test]
fn the_invalid_utf8_footer_names_the_encoding_auto_would_choose() {
    let ws = Workspace::new();
    ws.file("legacy.txt", b"Caf\xe9 cr\xe8me br\xfbl\xe9e\n");
    let out = ws.run(&["legacy.txt"]);
    assert!(
        stdout(&out).ends_with(
            "\n[Bytes that are not valid utf-8 are shown as U+FFFD. This looks like windows-1252: use --encoding auto.]\n"
        ),
        "{}",
        stdout(&out)
    );
    let v = ws.json(&["legacy.txt"]);
    assert_eq!(v["data"]["suggested_encoding"], "windows-1252");
    assert!(
        v["text"]
            .as_str()
            .unwrap()
            .contains("This looks like windows-1252")
    );
    let auto = ws.json(&["legacy.txt", "--encoding", "auto"]);
    assert_eq!(auto["stats"]["encoding"], "windows-1252");
    assert_eq!(auto["data"]["content"], "   1 | Café crème brûlée\n");
    // Valid UTF-8 says nothing of encodings.
    ws.file("ok.txt", "café\n");
    assert!(
        ws.json(&["ok.txt"])["data"]
            .get("suggested_encoding")
            .is_none()
    );
}

#[test]
fn not_found_in_call_carries_the_suggestions_in_text() {
    let ws = workspace();
    let (_, v) = call(&ws, json!({"path": "src/mian.rs"}));
    assert_eq!(v["error"]["suggestions"], json!(["src/main.rs"]));
    assert_eq!(
        v["text"],
        "File 'src/mian.rs' does not exist.\nDid you mean one of these?\n  src/main.rs"
    );
}

/// `dir:3` where `dir` is a directory names nothing: a reference points into a file
/// (SPEC §13), so it is not a page of the listing.
#[test]
fn a_directory_with_a_line_suffix_is_not_found() {
    let ws = workspace();
    let out = ws.run(&["src:3"]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("agentread: NOT_FOUND: "),
        "{}",
        stderr(&out)
    );
    let (exit, v) = call(&ws, json!({"path": "src:2-3"}));
    assert_eq!((exit, v["error"]["code"].as_str()), (3, Some("NOT_FOUND")));
    // A directory whose name holds the suffix is still listed.
    ws.mkdir("logs:3");
    assert_eq!(code(&ws.run(&["logs:3"])), 0);
}
