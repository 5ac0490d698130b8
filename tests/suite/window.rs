//! SPEC §3 (what counts as a line) and §4 (the window), through the binary.

use crate::common;

use common::{Workspace, code, numbered, stderr, stdout};
use serde_json::json;

fn lines(n: u64) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

#[test]
fn lf_crlf_and_a_missing_final_newline_all_show_lines_ending_in_newline() {
    let ws = Workspace::new();
    ws.file("lf.txt", "a\nb\n");
    ws.file("crlf.txt", "a\r\nb\r\n");
    ws.file("open.txt", "a\nb");
    for name in ["lf.txt", "crlf.txt", "open.txt"] {
        let out = ws.run(&[name]);
        assert_eq!(stdout(&out), "   1 | a\n   2 | b\n", "{name}");
        assert_eq!(code(&out), 0);
    }
}

#[test]
fn total_lines_follow_the_line_model() {
    let ws = Workspace::new();
    for (name, body, total) in [
        ("empty", "", 0),
        ("one", "a\n", 1),
        ("two", "a\nb", 2),
        ("blank", "\n", 1),
        ("lone-cr", "a\rb\r", 1),
    ] {
        ws.file(name, body);
        let v = ws.json(&[name]);
        assert_eq!(v["stats"]["total_lines"], json!(total), "{name}");
    }
}

#[test]
fn a_lone_carriage_return_is_text_and_kept_off_a_terminal() {
    let ws = Workspace::new();
    ws.file("cr.txt", "a\rb\r\nc\r");
    assert_eq!(
        stdout(&ws.run(&["cr.txt", "--numbers", "none"])),
        "a\rb\nc\r\n"
    );
}

#[test]
fn total_lines_is_the_whole_file_even_for_a_small_window() {
    let ws = Workspace::new();
    ws.file("f.txt", lines(1523));
    let v = ws.json(&["f.txt", "-n", "3"]);
    assert_eq!(v["stats"]["total_lines"], 1523);
    assert_eq!(v["stats"]["lines_read"], 3);
}

#[test]
fn default_window_is_500_lines_with_the_spec_footer() {
    let ws = Workspace::new();
    ws.file("f.txt", lines(1523));
    let out = ws.run(&["f.txt"]);
    let expected = numbered(1, 500, |n| format!("line {n}"))
        + "\n[Truncated: showing lines 1-500 of 1523. Use --start-line 501 to continue.]\n";
    assert_eq!(stdout(&out), expected);
}

#[test]
fn start_line_and_limit_select_the_window() {
    let ws = Workspace::new();
    ws.file("f.txt", lines(20));
    let out = ws.run(&["f.txt", "-s", "5", "-n", "3"]);
    assert_eq!(
        stdout(&out),
        numbered(5, 7, |n| format!("line {n}"))
            + "\n[Truncated: showing lines 5-7 of 20. Use --start-line 8 to continue.]\n"
    );
    let out = ws.run(&["f.txt", "--start-line", "18", "--limit", "3"]);
    assert_eq!(stdout(&out), numbered(18, 20, |n| format!("line {n}")));
}

#[test]
fn limit_bounds_are_enforced_not_clamped() {
    let ws = Workspace::new();
    ws.file("f.txt", lines(3000));
    let v = ws.json(&["f.txt", "-n", "2000", "--max-bytes", "1000000"]);
    assert_eq!(v["stats"]["lines_read"], 2000);
    for bad in ["0", "2001", "-1", "abc", "1.5"] {
        let out = ws.run(&["f.txt", "-n", bad]);
        assert_eq!(code(&out), 2, "limit {bad}");
        assert_eq!(
            stderr(&out),
            format!(
                "agentread: INVALID_PARAM: Invalid value '{bad}' for --limit: expected an integer from 1 to 2000.\n"
            )
        );
    }
    for bad in ["0", "-3", "x"] {
        assert_eq!(code(&ws.run(&["f.txt", "-s", bad])), 2, "start {bad}");
        assert_eq!(code(&ws.run(&["f.txt", "--max-line-chars", bad])), 2);
        assert_eq!(code(&ws.run(&["f.txt", "--max-bytes", bad])), 2);
    }
}

#[test]
fn the_byte_budget_cuts_at_line_boundaries() {
    // The spec's example: --limit 2000 on 5000 lines whose rendered form is 39 bytes.
    let ws = Workspace::new();
    let body: String = (1..=5000)
        .map(|_| format!("{}\n", "x".repeat(31)))
        .collect();
    ws.file("f.txt", body);
    let out = ws.run(&["f.txt", "--limit", "2000"]);
    let text = stdout(&out);
    let footer = "[Truncated at 51200 bytes: showing lines 1-1312 of 5000. Use --start-line 1313 to continue.]\n";
    assert!(
        text.ends_with(&format!("\n{footer}")),
        "{}",
        &text[text.len() - 200..]
    );
    assert_eq!(text.len() - footer.len() - 1, 1312 * 39);
    let v = ws.json(&["f.txt", "--limit", "2000"]);
    assert_eq!(v["data"]["truncated_by"], "bytes");
    assert_eq!(v["data"]["next_start_line"], 1313);
    assert_eq!(v["data"]["end_line"], 1312);
    assert_eq!(v["status"], "partial");
}

#[test]
fn the_budget_counts_number_prefixes_and_always_shows_one_line() {
    let ws = Workspace::new();
    ws.file("f.txt", "abc\ndef\n");
    // "   1 | abc\n" is 11 bytes: a budget of 21 fits one line, 22 both.
    let v = ws.json(&["f.txt", "--max-bytes", "21"]);
    assert_eq!(v["stats"]["lines_read"], 1);
    assert_eq!(v["data"]["truncated_by"], "bytes");
    let v = ws.json(&["f.txt", "--max-bytes", "22"]);
    assert_eq!(v["stats"]["lines_read"], 2);
    assert_eq!(v["data"]["truncated"], false);
    // The line always shown is cut at the budget, keeping one character at least.
    let v = ws.json(&["f.txt", "--max-bytes", "1"]);
    assert_eq!(v["data"]["content"], "   1 | a … [+2 chars]\n");
    assert_eq!(v["data"]["next_start_char"], 2);
    let v = ws.json(&["f.txt", "--max-bytes", "4", "--numbers", "none"]);
    assert_eq!(v["data"]["content"], "abc\n");
}

#[test]
fn long_lines_are_cut_at_a_character_boundary_with_a_marker() {
    let ws = Workspace::new();
    ws.file("f.txt", format!("{}\nshort\n", "é".repeat(2500)));
    let out = ws.run(&["f.txt"]);
    let expected = format!(
        "   1 | {} … [+500 chars]\n   2 | short\n\n[Line 1 was cut at 2000 of 2500 chars. Use --start-line 1 --start-char 2001 to continue it.]\n",
        "é".repeat(2000)
    );
    assert_eq!(stdout(&out), expected);
    let v = ws.json(&["f.txt", "--max-line-chars", "3"]);
    assert_eq!(
        v["data"]["content"],
        "   1 | ééé … [+2497 chars]\n   2 | sho … [+2 chars]\n"
    );
    assert_eq!(v["stats"]["lines_cut"], 2);
    assert_eq!(v["status"], "partial");
    assert_eq!(v["data"]["truncated"], false);
    assert_eq!(v["data"]["next_start_char"], 4);
}

#[test]
fn a_line_of_exactly_the_limit_is_not_cut() {
    let ws = Workspace::new();
    ws.file("f.txt", format!("{}\n", "a".repeat(2000)));
    let v = ws.json(&["f.txt"]);
    assert_eq!(v["stats"]["lines_cut"], 0);
    assert_eq!(v["status"], "success");
}

#[test]
fn start_line_past_the_end_is_invalid_with_the_valid_range() {
    let ws = Workspace::new();
    ws.file("a.rs", lines(312));
    let out = ws.run(&["a.rs", "--start-line", "900"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "agentread: INVALID_PARAM: start_line 900 is past the end of 'a.rs' (312 lines; valid: 1-312).\n"
    );
    assert_eq!(stdout(&out), "");
    assert_eq!(code(&ws.run(&["a.rs", "-s", "313"])), 2);
    assert_eq!(code(&ws.run(&["a.rs", "-s", "312"])), 0);
}

#[test]
fn an_empty_file_read_from_line_one_succeeds_with_no_lines() {
    let ws = Workspace::new();
    ws.file("empty.txt", "");
    let out = ws.run(&["empty.txt"]);
    assert_eq!(
        (code(&out), stdout(&out)),
        (0, "(file is empty)\n".to_string())
    );
    let v = ws.json(&["empty.txt"]);
    assert_eq!(v["status"], "success");
    assert_eq!(v["data"]["content"], "");
    assert_eq!(v["stats"]["lines_read"], 0);
    let out = ws.run(&["empty.txt", "-s", "2"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("past the end of 'empty.txt'"));
}

#[test]
fn no_hint_drops_the_footer_only() {
    let ws = Workspace::new();
    ws.file("f.txt", lines(10));
    let out = ws.run(&["f.txt", "-n", "2", "--no-hint"]);
    assert_eq!(stdout(&out), numbered(1, 2, |n| format!("line {n}")));
    let out = ws.run(&["f.txt", "-n", "2", "--no-hint", "--format", "json"]);
    assert!(stdout(&out).contains("Use start_line=3 to continue."));
}

#[test]
fn number_styles_and_widening_past_9999() {
    let ws = Workspace::new();
    ws.file("f.txt", lines(10001));
    let run =
        |style: &str| stdout(&ws.run(&["f.txt", "-s", "9999", "--numbers", style, "--no-hint"]));
    assert_eq!(
        run("pipe"),
        "9999 | line 9999\n10000 | line 10000\n10001 | line 10001\n"
    );
    assert_eq!(
        run("tab"),
        "  9999\tline 9999\n 10000\tline 10000\n 10001\tline 10001\n"
    );
    assert_eq!(
        run("colon"),
        "9999: line 9999\n10000: line 10000\n10001: line 10001\n"
    );
    assert_eq!(run("none"), "line 9999\nline 10000\nline 10001\n");
    let small = stdout(&ws.run(&["f.txt", "-n", "1", "--numbers", "tab", "--no-hint"]));
    assert_eq!(small, "     1\tline 1\n");
}

#[test]
fn tab_numbers_match_cat_n() {
    let ws = Workspace::new();
    ws.file("f.txt", "alpha\n\tbeta\n\ngamma\n");
    let ours = stdout(&ws.run(&["f.txt", "--numbers", "tab"]));
    assert_eq!(
        ours,
        "     1\talpha\n     2\t\tbeta\n     3\t\n     4\tgamma\n"
    );
}

#[test]
fn windows_at_both_ends_of_the_file() {
    let ws = Workspace::new();
    ws.file("f.txt", lines(10));
    let v = ws.json(&["f.txt", "-s", "1", "-n", "1"]);
    assert_eq!(
        (
            v["data"]["start_line"].clone(),
            v["data"]["end_line"].clone()
        ),
        (json!(1), json!(1))
    );
    assert_eq!(v["data"]["next_start_line"], 2);
    let v = ws.json(&["f.txt", "-s", "10", "-n", "5"]);
    assert_eq!(v["data"]["content"], "  10 | line 10\n");
    assert_eq!(v["data"]["truncated"], false);
    assert_eq!(v["data"]["truncated_by"], json!(null));
    assert_eq!(v["data"]["next_start_line"], json!(null));
    assert_eq!(v["status"], "success");
}

#[test]
fn lines_longer_than_the_read_buffer_are_streamed() {
    let ws = Workspace::new();
    let long = "z".repeat(3 * 1024 * 1024 + 5);
    ws.file("f.txt", format!("{long}\nnext\n"));
    let v = ws.json(&["f.txt", "--max-line-chars", "4"]);
    assert_eq!(
        v["data"]["content"],
        format!("   1 | zzzz … [+{} chars]\n   2 | next\n", long.len() - 4)
    );
    assert_eq!(v["stats"]["total_lines"], 2);
}
