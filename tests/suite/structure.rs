//! SPEC §15: `--outline`, `PATH#SYMBOL` and `--enclosing` on a file of each kind.

use crate::common;

use common::{Workspace, code, json_lines, qualified_names, stderr, stdout};

const RUST: &str = "use std::fmt;

/// A window.
pub struct Window {
    lines: Vec<String>,
}

impl Window {
    /// Makes one.
    pub fn new() -> Self {
        Window { lines: Vec::new() }
    }

    pub fn render(&self) -> String {
        self.lines.join(\"\\n\")
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, \"{}\", self.render())
    }
}
";

fn workspace() -> Workspace {
    let ws = Workspace::new();
    ws.file("lib.rs", RUST);
    ws.file(
        "notes.md",
        "# Guide\n\nintro\n\n## Line references\n\ntext\n\n```\n# not a heading\n```\n\n## Other\n\nend\n",
    );
    ws.file("plain.txt", "a\nb\n");
    ws
}

#[test]
fn outline_lists_symbols_with_their_ranges_and_definition_lines() {
    let ws = workspace();
    let out = ws.run(&["lib.rs", "--outline"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "  3-6 | pub struct Window {\n 8-17 | impl Window {\n 9-12 |     pub fn new() -> Self {\n14-16 |     pub fn render(&self) -> String {\n19-23 | impl fmt::Display for Window {\n20-22 |     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
    );
    let v = &json_lines(&ws.run(&["lib.rs", "--outline", "-f", "json"]))[0];
    assert_eq!(v["data"]["type"], "outline");
    assert_eq!(v["data"]["language"], "rust");
    assert_eq!(v["data"]["total_symbols"], 6);
    let fmt = &v["data"]["symbols"][5];
    assert_eq!(fmt["qualified_name"], "Window::fmt");
    assert_eq!(fmt["kind"], "method");
    assert_eq!(fmt["depth"], 1);
    assert_eq!(
        v["data"]["symbols"][4]["name"],
        "impl fmt::Display for Window"
    );
    // Paged by --limit, counting symbols, with where to go on.
    let v = &json_lines(&ws.run(&["lib.rs", "--outline", "-n", "2", "-f", "json"]))[0];
    assert_eq!(v["data"]["symbols"].as_array().unwrap().len(), 2);
    assert_eq!(v["data"]["next_start_line"], 9);
    assert_eq!(v["status"], "partial");
}

#[test]
fn a_symbol_is_read_with_its_comments_by_any_last_part_of_its_name() {
    let ws = workspace();
    let expected = "   9 |     /// Makes one.\n  10 |     pub fn new() -> Self {\n  11 |         Window { lines: Vec::new() }\n  12 |     }\n";
    for target in ["lib.rs#new", "lib.rs#Window::new", "lib.rs#Window.new"] {
        let out = ws.run(&[target, "--no-hint"]);
        assert_eq!(stdout(&out), expected, "{target}");
    }
    let v = &json_lines(&ws.run(&["--call", r#"{"path":"lib.rs","symbol":"render"}"#]))[0];
    assert_eq!(v["data"]["symbol"]["qualified_name"], "Window::render");
    assert_eq!(v["data"]["start_line"], 14);
    let out = ws.run(&["lib.rs#rendr"]);
    assert_eq!(code(&out), 3);
    assert!(stderr(&out).contains("No symbol 'rendr' in 'lib.rs'."));
    assert!(stderr(&out).contains("  lib.rs#Window::render\n"));
    let out = ws.run(&["lib.rs#new", "-s", "2"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn markdown_sections_match_by_heading_or_anchor() {
    let ws = workspace();
    let out = ws.run(&["notes.md#line-references", "--no-hint"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).starts_with("   5 | ## Line references\n"));
    assert!(!stdout(&out).contains("Other"));
    let v = &json_lines(&ws.run(&["notes.md", "--outline", "-f", "json"]))[0];
    assert_eq!(
        qualified_names(v),
        ["Guide", "Guide > Line references", "Guide > Other"]
    );
}

#[test]
fn enclosing_reads_the_innermost_symbol_or_the_indented_block() {
    let ws = workspace();
    let v = &json_lines(&ws.run(&["lib.rs:15", "--enclosing", "-f", "json"]))[0];
    assert_eq!(v["data"]["symbol"]["qualified_name"], "Window::render");
    assert_eq!(
        (
            v["data"]["start_line"].as_u64(),
            v["data"]["end_line"].as_u64()
        ),
        (Some(14), Some(16))
    );
    // `fi` does not close the block (only `}`, `]`, `)` and `end` do).
    ws.file("run.sh", "start\nif x; then\n  a\n  b\nfi\nend\n");
    let v = &json_lines(&ws.run(&["run.sh", "-s", "3", "--enclosing", "-f", "json"]))[0];
    assert_eq!(v["data"]["symbol"]["kind"], "block");
    assert_eq!(v["data"]["symbol"]["name"], serde_json::Value::Null);
    assert_eq!(
        (
            v["data"]["start_line"].as_u64(),
            v["data"]["end_line"].as_u64()
        ),
        (Some(2), Some(4))
    );
    let out = ws.run(&["lib.rs", "--enclosing"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn unknown_languages_and_truncated_code_windows() {
    let ws = workspace();
    let out = ws.run(&["plain.txt", "--outline"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("Rust, Python"), "{}", stderr(&out));
    let out = ws.run(&["lib.rs", "-n", "2"]);
    assert!(
        stdout(&out)
            .ends_with("Use --start-line 3 to continue. Use --outline to list its symbols.]\n"),
        "{}",
        stdout(&out)
    );
    let out = ws.run(&["--call", r#"{"path":"lib.rs","limit":2}"#]);
    assert!(
        json_lines(&out)[0]["text"]
            .as_str()
            .unwrap()
            .contains("Use outline=true to list its symbols.")
    );
}

#[test]
fn ambiguous_symbols_are_refused_with_every_match_as_a_target() {
    let ws = Workspace::new();
    ws.file(
        "two.rs",
        "struct A;\nimpl A {\n    fn new() {}\n}\nstruct B;\nimpl B {\n    fn new() {}\n}\n",
    );
    let out = ws.run(&["two.rs#new"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "agentread: INVALID_PARAM: Symbol 'new' is ambiguous in 'two.rs' (2 matches).\nDid you mean one of these?\n  two.rs#A::new\n  two.rs#B::new\n"
    );
    // The exact qualified name picks one.
    let out = ws.run(&["two.rs#B::new", "--no-hint"]);
    assert_eq!(stdout(&out), "   7 |     fn new() {}\n");
}

#[test]
fn an_existing_file_whose_name_holds_the_hash_wins() {
    let ws = workspace();
    ws.file("lib.rs#new", "not rust\n");
    let out = ws.run(&["lib.rs#new", "--no-hint"]);
    assert_eq!(stdout(&out), "   1 | not rust\n");
}

#[test]
fn the_outline_is_paged_by_start_line_and_by_a_range() {
    let ws = workspace();
    let names = |args: &[&str]| -> Vec<String> {
        let mut all = args.to_vec();
        all.extend(["--outline", "-f", "json"]);
        let v = &json_lines(&ws.run(&all))[0];
        qualified_names(v).into_iter().map(String::from).collect()
    };
    assert_eq!(
        names(&["lib.rs", "-s", "14"]),
        [
            "Window::render",
            "impl fmt::Display for Window",
            "Window::fmt"
        ]
    );
    assert_eq!(names(&["lib.rs:8-12"]), ["impl Window", "Window::new"]);
    // A symbol's outline lists what it holds.
    assert_eq!(
        names(&["lib.rs#impl Window"]),
        ["Window::new", "Window::render"]
    );
}

#[test]
fn structure_is_refused_for_directories_and_files_over_8_mib() {
    let ws = workspace();
    ws.mkdir("src");
    let out = ws.run(&["src#main"]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    let out = ws.run(&["src", "--enclosing", "-s", "1"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let big = "fn f() {}\n".repeat((8 << 20) / 10 + 1);
    ws.file("big.rs", &big);
    let out = ws.run(&["big.rs", "--outline"]);
    assert_eq!(code(&out), 8, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("line windows still work"),
        "{}",
        stderr(&out)
    );
    // A window of it still works.
    assert_eq!(code(&ws.run(&["big.rs", "-n", "1"])), 0);
}

#[test]
fn outline_lines_are_cut_as_max_line_chars_cuts_lines() {
    let ws = workspace();
    let out = ws.run(&[
        "lib.rs",
        "--outline",
        "-n",
        "1",
        "--max-line-chars",
        "10",
        "--no-hint",
    ]);
    assert_eq!(stdout(&out), "3-6 | pub struct … [+9 chars]\n");
}

/// A tree for the map: ignored, hidden, denied and binary files among the sources, and a
/// repository's own `.git` directory.
fn tree() -> Workspace {
    let ws = Workspace::new();
    ws.file(".gitignore", "target/\n");
    ws.file("src/lib.rs", RUST);
    ws.file("src/util/mod.rs", "pub fn helper() {}\n");
    ws.file("docs/notes.md", "# Guide\n\n## Part\n\ntext\n");
    ws.file("run", "#!/usr/bin/env python3\ndef main():\n    pass\n");
    ws.file("README.txt", "not source\n");
    ws.file("target/gen.rs", "fn generated() {}\n");
    ws.file(".hidden/x.rs", "fn hidden() {}\n");
    ws.file(".git/hooks/pre-commit.py", "def hook():\n    pass\n");
    ws.file("keys/secret.rs", "fn secret() {}\n");
    ws.file("blob.rs", b"\x00\x01\x02 not text");
    ws
}

#[test]
fn a_directorys_outline_maps_its_source_files() {
    let ws = tree();
    let out = ws.run(&[".", "--outline", "--deny", "keys/**"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "   1 | .hidden/x.rs
   2 |   1-1 | fn hidden() {}
   3 | blob.rs
   4 |   (not parsed: it is not text)
   5 | docs/notes.md
   6 |   1-5 | # Guide
   7 |   3-5 | ## Part
   8 | run
   9 |   1-3 | def main():
  10 | src/lib.rs
  11 |     3-6 | pub struct Window {
  12 |    8-17 | impl Window {
  13 |    9-12 |     pub fn new() -> Self {
  14 |   14-16 |     pub fn render(&self) -> String {
  15 |   19-23 | impl fmt::Display for Window {
  16 |   20-22 |     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
  17 | src/util/mod.rs
  18 |   1-1 | pub fn helper() {}

[1 file is listed without its symbols: the line under its path says why.]
"
    );
    // A directory below the root, paged as lines.
    let out = ws.run(&["src", "--outline", "-s", "2", "-n", "3"]);
    assert_eq!(
        stdout(&out),
        "   2 |     3-6 | pub struct Window {\n   3 |    8-17 | impl Window {\n   4 |    9-12 |     pub fn new() -> Self {\n\n\
         [Truncated: showing lines 2-4 of 9. Use --start-line 5 to continue.]\n"
    );
}

#[test]
fn a_map_in_json_names_the_files_on_its_page() {
    let ws = tree();
    let v = ws.json(&["src", "--outline", "-s", "7", "-n", "3"]);
    assert_eq!(v["data"]["type"], "outline_map");
    assert_eq!(v["data"]["start_line"], 7);
    assert_eq!(v["data"]["end_line"], 9);
    let files = v["data"]["files"].as_array().unwrap();
    let paths: Vec<&str> = files.iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["src/lib.rs", "src/util/mod.rs"]);
    assert_eq!(files[1]["language"], "rust");
    assert_eq!(files[1]["symbols"][0]["qualified_name"], "helper");
    assert_eq!(files[1]["symbols"][0]["depth"], 0);
    // XML: a <file> element per file, its symbols inside.
    let out = ws.run(&["src", "--outline", "-s", "7", "-n", "3", "--format", "xml"]);
    let xml = stdout(&out);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let files: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("file"))
        .map(|n| n.attribute("path").unwrap())
        .collect();
    assert_eq!(files, ["src/lib.rs", "src/util/mod.rs"]);
    assert!(xml.contains(r#"<symbol name="helper" qualified_name="helper" kind="function""#));
    // In a tool call too.
    let v = ws.json(&["--call", r#"{"path":"docs","outline":true}"#]);
    assert_eq!(
        v["data"]["files"][0]["symbols"][1]["qualified_name"],
        "Guide > Part"
    );
}

#[test]
fn a_map_never_leaves_the_root() {
    let ws = tree();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("out.rs"), "fn outside() {}\n").unwrap();
    std::os::unix::fs::symlink(outside.path().join("out.rs"), ws.path().join("src/link.rs"))
        .unwrap();
    std::os::unix::fs::symlink(outside.path(), ws.path().join("src/dirlink")).unwrap();
    let out = ws.run(&["src", "--outline"]);
    assert_eq!(code(&out), 0);
    assert!(!stdout(&out).contains("link"), "{}", stdout(&out));
    assert!(!stdout(&out).contains("outside"));
    // A symbol or --enclosing still needs a file.
    let out = ws.run(&["src", "--enclosing", "-s", "3"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("use --outline for a map of the directory"));
}
