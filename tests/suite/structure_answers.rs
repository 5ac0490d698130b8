//! SPEC §15's last bullets: symbol reads are whole answers, `/` in a target, where a
//! symbol starts, more symbols (TypeScript, CommonJS, `macro_rules!`), C and C++,
//! `--enclosing` always shows line N, outline pages always advance, and a map's JSON.

use crate::common;
use serde_json::json;

use common::{Workspace, code, json_lines, stderr, stdout};

/// A Rust file whose `S::f` is a method of an impl.
const SLASH: &str = "struct S;\n\nimpl S {\n    fn f() {}\n}\n\nfn g() {}\n";

#[test]
fn a_whole_symbol_is_a_success_with_a_footer_that_names_it() {
    let ws = Workspace::new();
    ws.file("a.rs", SLASH);
    let out = ws.run(&["a.rs#g"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "   7 | fn g() {}\n\n[Symbol g (function): lines 7-7 of 7.]\n"
    );
    assert_eq!(stderr(&out), "");
    // Without a footer, nothing on stderr: the symbol is all there.
    let out = ws.run(&["a.rs#S::f", "--no-hint"]);
    assert_eq!(stdout(&out), "   4 |     fn f() {}\n");
    assert_eq!(stderr(&out), "");
    let v = ws.json(&["a.rs#f"]);
    assert_eq!(v["status"], "success");
    assert_eq!(v["data"]["truncated"], false);
    assert_eq!(v["data"]["next_start_line"], serde_json::Value::Null);
    assert!(
        v["text"]
            .as_str()
            .unwrap()
            .contains("[Symbol S::f (method): lines 4-4 of 7.]"),
        "{v}"
    );
    // The same through --call.
    let v = &json_lines(&ws.run(&["--call", r#"{"path":"a.rs","symbol":"S::f"}"#]))[0];
    assert_eq!(v["status"], "success");
    assert_eq!(v["data"]["truncated"], false);
}

#[test]
fn a_range_with_no_hint_says_nothing_on_stderr() {
    let ws = Workspace::new();
    let text: String = (1..=10).map(|n| format!("line {n}\n")).collect();
    ws.file("a.txt", text);
    let out = ws.run(&["a.txt:2-3", "--no-hint"]);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "   2 | line 2\n   3 | line 3\n");
    assert_eq!(stderr(&out), "");
    // Its window fields are kept.
    let v = ws.json(&["a.txt:2-3"]);
    assert_eq!(v["data"]["next_start_line"], 4);
}

#[test]
fn a_symbol_cut_without_a_footer_says_so_on_stderr() {
    let ws = Workspace::new();
    ws.file("lib.rs", long_function(30));
    let out = ws.run(&["lib.rs#long", "-n", "10", "--no-hint"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 10);
    assert_eq!(
        stderr(&out),
        "agentread: showing lines 1-10 of 34; 'lib.rs#long' -s 11 reads the rest of the symbol\n"
    );
}

/// A file with a function of `n` body lines, starting at line 1.
fn long_function(n: u64) -> String {
    let mut text = String::from("fn long() {\n");
    for i in 0..n {
        text.push_str(&format!("    let x{i} = {i};\n"));
    }
    text.push_str("}\n\nfn after() {}\n");
    text
}

#[test]
fn a_cut_symbol_is_partial_and_goes_on_inside_the_symbol() {
    let ws = Workspace::new();
    ws.file("lib.rs", long_function(20));
    let out = ws.run(&["lib.rs#long", "-n", "5"]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(
        text.ends_with(
            "\n[Truncated: showing lines 1-5 of 24. Use 'lib.rs#long' -s 6 to continue.]\n[Symbol long (function): lines 1-22 of 24.]\n"
        ),
        "{text}"
    );
    let v = ws.json(&["lib.rs#long", "-n", "5"]);
    assert_eq!(v["status"], "partial");
    assert_eq!(v["data"]["next_start_line"], 6);
    assert!(
        v["text"]
            .as_str()
            .unwrap()
            .contains(r#"Use start_line=6 with the same symbol (symbol="long") to continue."#),
        "{v}"
    );
    // The hint works: from line 6 of the symbol to its end, whole.
    let v = ws.json(&["lib.rs#long", "-s", "6"]);
    assert_eq!(v["status"], "success", "{v}");
    assert_eq!(v["data"]["start_line"], 6);
    assert_eq!(v["data"]["end_line"], 22);
    assert_eq!(v["data"]["truncated"], false);
    let v = &json_lines(&ws.run(&[
        "--call",
        r#"{"path":"lib.rs","symbol":"long","start_line":20}"#,
    ]))[0];
    assert_eq!(v["data"]["start_line"], 20, "{v}");
    assert_eq!(v["status"], "success");
    // A line outside the symbol is refused.
    let out = ws.run(&["lib.rs#long", "-s", "24"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("INVALID_PARAM"), "{}", stderr(&out));
}

#[test]
fn a_slash_in_a_symbol_target_is_a_symbol_path() {
    let ws = Workspace::new();
    ws.file("a.rs", SLASH);
    let out = ws.run(&["a.rs#S/f", "--no-hint"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "   4 |     fn f() {}\n");
    ws.file(
        "op.cpp",
        "struct V {\n  V& operator/=(int d) { return *this; }\n};\n",
    );
    let v = ws.json(&["op.cpp#operator/="]);
    assert_eq!(
        v["data"]["symbol"]["qualified_name"], "V::operator/=",
        "{v}"
    );
    let v = ws.json(&["op.cpp#V::operator/="]);
    assert_eq!(
        v["data"]["symbol"]["qualified_name"], "V::operator/=",
        "{v}"
    );
    ws.file(
        "vue.d.ts",
        "declare module '@vue/reactivity' {\n  export function ref(v: any): any;\n}\n",
    );
    let v = ws.json(&["vue.d.ts#@vue/reactivity"]);
    assert_eq!(v["data"]["symbol"]["kind"], "module", "{v}");
    assert_eq!(v["data"]["symbol"]["end_line"], 3);
    ws.file(
        "History.md",
        "# History\n\n3.16.5 / 2014-08-11\n===\n\n * fix\n\n3.16.4 / 2014-08-10\n===\n\n * other\n",
    );
    let out = ws.run(&["History.md#3.16.5 / 2014-08-11", "--no-hint"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "   3 | 3.16.5 / 2014-08-11\n   4 | ===\n   5 | \n   6 |  * fix\n   7 | \n"
    );
    // A directory whose name holds a `#` still leads to its files.
    ws.file("d#x/b.rs", "fn b() {}\n");
    let out = ws.run(&["d#x/b.rs#b", "--no-hint"]);
    assert_eq!(stdout(&out), "   1 | fn b() {}\n", "{}", stderr(&out));
}

#[test]
fn a_symbols_outline_pages_its_children_with_hints_that_work() {
    let ws = Workspace::new();
    let mut text = String::from("function first() {}\n\nclass S {\n");
    for i in 1..=5 {
        text.push_str(&format!("    m{i}() {{}}\n"));
    }
    text.push_str("}\n");
    ws.file("a.ts", &text);
    let out = ws.run(&["a.ts#S", "--outline", "-n", "2"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "4-4 |     m1() {}\n5-5 |     m2() {}\n\n[Truncated: showing symbols 1-2 of 5 (lines 4-5). Use --start-line 6 to continue.]\n"
    );
    let out = ws.run(&["a.ts#S", "--outline", "-n", "2", "--start-line", "6"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "6-6 |     m3() {}\n7-7 |     m4() {}\n\n[Truncated: showing symbols 3-4 of 5 (lines 6-7). Use --start-line 8 to continue.]\n"
    );
    let v = ws.json(&["a.ts#S", "--outline", "--start-line", "8"]);
    assert_eq!(v["status"], "success");
    assert_eq!(v["data"]["total_symbols"], 5);
    assert_eq!(v["data"]["symbols"].as_array().unwrap().len(), 1);
    // JSON names the symbol whose children these are (SPEC §15: `data.symbol`).
    assert_eq!(
        v["data"]["symbol"],
        serde_json::json!({"name": "S", "qualified_name": "S", "kind": "class", "start_line": 3, "end_line": 9})
    );
}

#[test]
fn a_ranges_outline_counts_and_pages_its_own_symbols() {
    let ws = Workspace::new();
    ws.file(
        "lib.rs",
        "pub struct W {\n    a: u32,\n}\n\nimpl W {\n    pub fn a(&self) {}\n    pub fn b(&self) {}\n    pub fn c(&self) {}\n}\n\nfn x() {}\nfn y() {}\n",
    );
    let out = ws.run(&["lib.rs:1-11", "--outline", "-n", "2"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "1-3 | pub struct W {\n5-9 | impl W {\n\n[Truncated: showing symbols 1-2 of 6 (lines 1-5). Use --start-line 6 to continue.]\n"
    );
    // The footer's start line, with the same range, goes on (SPEC §15 "Outline pages
    // always advance").
    let out = ws.run(&["lib.rs:1-11", "--outline", "-n", "2", "--start-line", "6"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "6-6 |     pub fn a(&self) {}\n7-7 |     pub fn b(&self) {}\n\n[Truncated: showing symbols 3-4 of 6 (lines 6-7). Use --start-line 8 to continue.]\n"
    );
    let v = ws.json(&["lib.rs:1-11", "--outline", "--start-line", "8"]);
    assert_eq!(v["status"], "success");
    assert_eq!(v["data"]["total_symbols"], 6);
    let names: Vec<&str> = v["data"]["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["c", "x"]);
    let out = ws.run(&["lib.rs:1-11", "--outline", "--start-line", "12"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("INVALID_PARAM"), "{}", stderr(&out));
    // `PATH:N`: the symbols from N on, counted in the whole file, paged from L ≥ N.
    let v = ws.json(&["lib.rs:6", "--outline", "--start-line", "8", "-n", "1"]);
    assert_eq!(v["data"]["total_symbols"], 7, "{v}");
    assert_eq!(v["data"]["symbols"][0]["name"], "c", "{v}");
    let out = ws.run(&["lib.rs:6", "--outline", "--start-line", "5"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("outside the lines 6-"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn outline_pages_advance_inside_one_line() {
    let ws = Workspace::new();
    let line: String = (0..7).map(|i| format!("function f{i}(){{}}")).collect();
    ws.file("min.js", format!("{line}\n"));
    let out = ws.run(&["min.js", "--outline", "-n", "3"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.ends_with(
            "[Truncated: showing symbols 1-3 of 7 (lines 1-1). Use --start-line 1 --start-char 46 to continue.]\n"
        ),
        "{text}"
    );
    let v = ws.json(&["min.js", "--outline", "-n", "3"]);
    assert_eq!(v["data"]["next_start_line"], 1);
    assert_eq!(v["data"]["next_start_char"], 46);
    let mut seen = Vec::new();
    let (mut line, mut char) = (1u64, 1u64);
    for _ in 0..5 {
        let v = ws.json(&[
            "min.js",
            "--outline",
            "-n",
            "3",
            "-s",
            &line.to_string(),
            "--start-char",
            &char.to_string(),
        ]);
        for s in v["data"]["symbols"].as_array().unwrap() {
            seen.push(s["name"].as_str().unwrap().to_string());
        }
        match v["data"]["next_start_line"].as_u64() {
            Some(next) => {
                line = next;
                char = v["data"]["next_start_char"].as_u64().unwrap_or(1);
            }
            None => break,
        }
    }
    let names: Vec<String> = (0..7).map(|i| format!("f{i}")).collect();
    assert_eq!(seen, names);
    // A line target takes the column as --start-line does.
    let by_target = ws.json(&["min.js:1", "--outline", "-n", "3", "--start-char", "46"]);
    let by_line = ws.json(&[
        "min.js",
        "-s",
        "1",
        "--outline",
        "-n",
        "3",
        "--start-char",
        "46",
    ]);
    assert_eq!(by_target["status"], by_line["status"], "{by_target}");
    assert_eq!(by_target["data"]["symbols"], by_line["data"]["symbols"]);
    assert_eq!(by_target["data"]["symbols"][0]["name"], "f3");
}

/// On a line longer than its character limit, a row whose symbol starts past what the cut
/// line shows shows the line from the symbol's start (each row its own definition, not
/// the same first characters); a first row that alone passes the budget is cut to fit it.
#[test]
fn outline_rows_of_a_long_line_show_their_own_definitions_within_the_budget() {
    let ws = Workspace::new();
    let line: String = (0..2000)
        .map(|i| format!("function f{i}(a,b){{return a+b}}"))
        .collect();
    ws.file("min.js", format!("{line}\n"));
    let v = ws.json(&["min.js", "--outline", "-n", "2", "--start-char", "30001"]);
    let content = v["data"]["content"].as_str().unwrap();
    let name = v["data"]["symbols"][0]["name"].as_str().unwrap();
    let first = content.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("1-1 | …function {name}(a,b){{return a+b}}")),
        "{first}"
    );
    let total = line.chars().count();
    assert!(first.ends_with(" chars]"), "{first}");
    assert!(first.chars().count() < 2_100, "{first}");
    assert!(total > 60_000);
    // Past a token budget or a byte budget: the first row is cut to fit.
    let v = ws.json(&["min.js", "--outline", "--max-tokens", "30"]);
    assert_eq!(v["data"]["truncated_by"], "tokens", "{v}");
    assert!(v["stats"]["tokens"].as_u64().unwrap() <= 30, "{v}");
    assert_eq!(v["data"]["symbols"].as_array().unwrap().len(), 1);
    let v = ws.json(&["min.js", "--outline", "--max-bytes", "100"]);
    assert_eq!(v["data"]["truncated_by"], "bytes", "{v}");
    assert!(v["data"]["content"].as_str().unwrap().len() <= 100, "{v}");
}

/// An `--enclosing` window around line N that reaches the symbol's end but not its start
/// is not the whole symbol: `partial`, and its hint reads the symbol from its start (SPEC
/// §15). A symbol cut by a token budget says so, and names the leaner views (SPEC §18).
#[test]
fn a_symbol_window_that_misses_lines_of_it_says_how_to_read_them() {
    let ws = Workspace::new();
    let body: String = (1..=9).map(|i| format!("    let v{i} = {i};\n")).collect();
    ws.file("s.rs", format!("fn f() {{\n{body}}}\n"));
    let v = ws.json(&["s.rs:10", "--enclosing", "-n", "4"]);
    assert_eq!(v["status"], "partial", "{v}");
    assert_eq!(
        (&v["data"]["start_line"], &v["data"]["end_line"]),
        (&json!(8), &json!(11))
    );
    // What is left is before the window: the next one starts at the symbol's start, not
    // past the file's last line.
    assert_eq!(v["data"]["next_start_line"], 1, "{v}");
    let out = ws.run(&["s.rs:10", "--enclosing", "-n", "4"]);
    assert!(
        stdout(&out).ends_with(
            "[Truncated: showing lines 8-11 of 11. Use 's.rs#f' -s 1 to read it from its start.]\n[Symbol f (function): lines 1-11 of 11.]\n"
        ),
        "{}",
        stdout(&out)
    );
    let out = ws.run(&["s.rs:10", "--enclosing", "-n", "4", "--no-hint"]);
    assert_eq!(
        stderr(&out),
        "agentread: showing lines 8-11 of 11; 's.rs#f' -s 1 reads it from its start\n"
    );
    // From its start, the same window is whole.
    let v = ws.json(&["s.rs:10", "--enclosing"]);
    assert_eq!(v["status"], "success");
    // A budget that holds fewer lines than the limit: N in the window's middle too.
    let body: String = (1..=200)
        .map(|i| format!("    let v{i} = {i};\n"))
        .collect();
    ws.file("long.rs", format!("fn g() {{\n{body}}}\n"));
    let v = ws.json(&["long.rs:150", "--enclosing", "--max-bytes", "300"]);
    let (start, end) = (
        v["data"]["start_line"].as_u64().unwrap(),
        v["data"]["end_line"].as_u64().unwrap(),
    );
    assert!(start < 150 && end > 150, "{start}-{end}");
    assert!((150 - start).abs_diff(end - 150) <= 1, "{start}-{end}");
    // Cut by tokens.
    let out = ws.run(&["s.rs#f", "--max-tokens", "12"]);
    let text = stdout(&out);
    assert!(
        text.contains("[Truncated at 12 tokens: showing lines 1-"),
        "{text}"
    );
    assert!(
        text.contains("to continue. Use --signatures or --fit to see all of it in fewer tokens.]"),
        "{text}"
    );
}

#[test]
fn enclosing_always_shows_line_n() {
    let ws = Workspace::new();
    ws.file("lib.rs", long_function(100));
    // Line 80 lies past the first page of 20 lines: it is in the middle of the window.
    let v = ws.json(&["lib.rs:80", "--enclosing", "-n", "20"]);
    assert_eq!(v["data"]["start_line"], 70, "{v}");
    assert_eq!(v["data"]["end_line"], 89);
    assert_eq!(v["data"]["symbol"]["name"], "long");
    assert_eq!(v["status"], "partial");
    // A caller that asked by line names no symbol: the hint names the one to keep, and
    // following it reads on inside it.
    let call = |params: &str| json_lines(&ws.run(&["--call", params]))[0].clone();
    let v = call(r#"{"path":"lib.rs","enclosing":true,"start_line":80,"limit":20}"#);
    let text = v["text"].as_str().unwrap();
    assert!(
        text.contains(r#"Use start_line=90 with the same symbol (symbol="long") to continue."#),
        "{text}"
    );
    let v = call(r#"{"path":"lib.rs","symbol":"long","start_line":90,"limit":20}"#);
    assert_eq!(v["data"]["start_line"], 90, "{v}");
    // A near line: from the symbol's start.
    let v = ws.json(&["lib.rs:10", "--enclosing", "-n", "20"]);
    assert_eq!(v["data"]["start_line"], 1);
    // Where the byte budget holds fewer lines than the limit: as many as it holds, N in
    // their middle, or ending at the symbol's end when that comes first.
    let v = ws.json(&["lib.rs:60", "--enclosing", "--max-bytes", "400"]);
    let (start, end) = (
        v["data"]["start_line"].as_u64().unwrap(),
        v["data"]["end_line"].as_u64().unwrap(),
    );
    let held = end - start + 1;
    assert!(held >= 10 && start <= 60 && end >= 60, "{v}");
    assert!((60 - start).abs_diff(end - 60) <= 1, "{v}");
    let v = ws.json(&["lib.rs:101", "--enclosing", "--max-bytes", "400"]);
    assert_eq!(v["data"]["end_line"], 102, "{v}");
    let start = v["data"]["start_line"].as_u64().unwrap();
    assert!(102 - start + 2 >= held, "{v}");
    // A column-0 text without a header: the paragraph around N.
    ws.file(
        "notes.txt",
        "alpha\nbeta\n\ngamma\ndelta\nepsilon\n\nzeta\n",
    );
    let out = ws.run(&["notes.txt:5", "--enclosing", "--no-hint"]);
    assert_eq!(
        stdout(&out),
        "   4 | gamma\n   5 | delta\n   6 | epsilon\n",
        "{}",
        stderr(&out)
    );
    assert_eq!(stderr(&out), "");
    // A blank N: the next non-blank line's paragraph.
    let out = ws.run(&["notes.txt:7", "--enclosing", "--no-hint"]);
    assert_eq!(stdout(&out), "   8 | zeta\n");
    // A blank N after the last non-blank line, which has no next one: the last
    // paragraph, down to N, so that N is shown.
    ws.file("tail.txt", "a\n  b\n\n\n");
    let out = ws.run(&["tail.txt:4", "--enclosing", "--no-hint"]);
    assert_eq!(stdout(&out), "   1 | a\n   2 |   b\n   3 | \n   4 | \n");
}

#[test]
fn a_comment_after_an_attribute_is_a_leading_line() {
    let ws = Workspace::new();
    ws.file(
        "a.rs",
        "/// Doc.\n#[inline] // why\nfn f() {}\n\n/* a */ // b\nfn g() {}\n",
    );
    let v = ws.json(&["a.rs", "--outline"]);
    let symbols = v["data"]["symbols"].as_array().unwrap();
    assert_eq!(symbols[0]["name"], "f");
    assert_eq!(symbols[0]["start_line"], 1);
    assert_eq!(symbols[1]["name"], "g");
    assert_eq!(symbols[1]["start_line"], 5);
}

#[test]
fn macro_rules_is_a_macro() {
    let ws = Workspace::new();
    ws.file(
        "m.rs",
        "/// Squares.\n#[macro_export]\nmacro_rules! square {\n    ($x:expr) => { $x * $x };\n}\n",
    );
    let v = ws.json(&["m.rs#square"]);
    assert_eq!(v["data"]["symbol"]["kind"], "macro", "{v}");
    assert_eq!(v["data"]["symbol"]["start_line"], 1);
    assert_eq!(v["data"]["symbol"]["end_line"], 5);
}

#[test]
fn a_maps_json_holds_the_symbols_of_its_page_only() {
    let ws = Workspace::new();
    let text: String = (1..=6).map(|i| format!("fn f{i}() {{}}\n")).collect();
    ws.file("src/a.rs", &text);
    // The map: line 1 is the path, lines 2-7 the symbols.
    let v = ws.json(&["src", "--outline", "-s", "3", "-n", "2"]);
    let files = v["data"]["files"].as_array().unwrap();
    assert_eq!(files.len(), 1, "{v}");
    let names: Vec<&str> = files[0]["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["f2", "f3"]);
}

#[test]
fn typescript_overloads_belong_to_their_implementation() {
    let ws = Workspace::new();
    ws.file(
        "h.ts",
        "/** doc */\nexport function h(a: string): void;\nexport function h(a: number): void;\nexport function h(a: any) {\n  return a;\n}\n\ndeclare function d(x: number): string;\n\ndeclare module 'm' {\n  export function inner(): void;\n  class K {}\n}\n\ndeclare namespace N {\n  function g(): void;\n}\n",
    );
    let v = ws.json(&["h.ts", "--outline"]);
    let rows: Vec<String> = v["data"]["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{} {} {}-{}",
                s["qualified_name"].as_str().unwrap(),
                s["kind"].as_str().unwrap(),
                s["start_line"],
                s["end_line"]
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "h function 1-6",
            "d function 8-8",
            "m module 10-13",
            "m.inner function 11-11",
            "m.K class 12-12",
            "N namespace 15-17",
            "N.g function 16-16",
        ]
    );
}

#[test]
fn javascript_property_functions_and_object_methods_are_symbols() {
    let ws = Workspace::new();
    ws.file(
        "app.js",
        "// Sends.\nres.send = function send(body) {\n  return body;\n};\n\nFoo.prototype.bar = function () {};\n\nexports.x = () => 1;\nmodule.exports.y = function () {};\n\nconst api = {\n  get() {},\n  post: function () {},\n  nested: { put: () => {} },\n  value: 3,\n};\n\nfunction outer() {\n  const local = { m() {} };\n}\n",
    );
    assert_eq!(
        rows(&ws, "app.js"),
        [
            "res.send function 1-4",
            "Foo.prototype.bar function 6-6",
            "exports.x function 8-8",
            "module.exports.y function 9-9",
            "api.get method 12-12",
            "api.post method 13-13",
            "api.nested.put method 14-14",
            "outer function 18-20",
        ]
    );
    let v = ws.json(&["app.js#send"]);
    assert_eq!(v["data"]["symbol"]["qualified_name"], "res.send");
    assert_eq!(v["data"]["symbol"]["name"], "send");
}

/// A constructor function's `this.bar = function …` is a method of what it builds, under
/// the function (ctags lists it so); `this.x = x` and a `this` in no symbol's body are not
/// methods.
#[test]
fn javascript_methods_assigned_to_this_are_symbols() {
    let ws = Workspace::new();
    ws.file(
        "lib.js",
        "function Panel(doc) {\n  this.doc = doc;\n  // Shows it.\n  this.show = function (id) {\n    return id;\n  };\n  this.hide = () => {};\n}\n\nthis.top = function () {};\n",
    );
    assert_eq!(
        rows(&ws, "lib.js"),
        [
            "Panel function 1-8",
            "Panel.show method 3-6",
            "Panel.hide method 7-7",
            "top function 10-10",
        ]
    );
    let v = ws.json(&["lib.js#Panel/show"]);
    assert_eq!(v["data"]["start_line"], 3, "{v}");
    assert_eq!(v["data"]["end_line"], 6, "{v}");
}

/// `qualified_name kind start-end` of each symbol of an outline.
fn rows(ws: &Workspace, path: &str) -> Vec<String> {
    let v = ws.json(&[path, "--outline"]);
    v["data"]["symbols"]
        .as_array()
        .unwrap_or_else(|| panic!("{v}"))
        .iter()
        .map(|s| {
            format!(
                "{} {} {}-{}",
                s["qualified_name"].as_str().unwrap(),
                s["kind"].as_str().unwrap(),
                s["start_line"],
                s["end_line"]
            )
        })
        .collect()
}

#[test]
fn c_macros_do_not_break_definitions() {
    let ws = Workspace::new();
    ws.file("m.c", "void f(void) {\n  CHECK(x)\n  if (y) { g(); }\n}\n");
    assert_eq!(rows(&ws, "m.c"), ["f function 1-4"]);
    let v = ws.json(&["m.c:3", "--enclosing"]);
    assert_eq!(v["data"]["symbol"]["name"], "f", "{v}");
    ws.file("t.c", "TEST_END\n\nstatic void\nb(void){}\n");
    assert_eq!(rows(&ws, "t.c"), ["b function 3-4"]);
    ws.file("s.cc", "void S::Bar() LOCKS_EXCLUDED(mu) {\n  x();\n}\n");
    assert_eq!(rows(&ws, "s.cc"), ["S::Bar method 1-3"]);
    // Several macro lines in a row (fmt's `FMT_BEGIN_NAMESPACE`, `FMT_BEGIN_EXPORT`)
    // join no definition either.
    ws.file(
        "os.h",
        "FMT_BEGIN_NAMESPACE\nFMT_BEGIN_EXPORT\n\ntemplate <typename Char> class V {\n public:\n  V(const Char* s) : d(s) {}\n};\n",
    );
    assert_eq!(rows(&ws, "os.h"), ["V class 4-7", "V::V constructor 6-6"]);
}

/// An `#if` inside an expression (leveldb's `Limiter(int n) :` then `#if
/// !defined(NDEBUG)` in the initializer list) is read by its first branch, as ctags reads
/// it: no definition after it vanishes and its class keeps its own lines.
#[test]
fn an_if_inside_an_expression_hides_no_definition() {
    let ws = Workspace::new();
    ws.file(
        "env.cc",
        "namespace leveldb {\n\nclass Limiter {\n public:\n  Limiter(int max)\n      :\n#if !defined(NDEBUG)\n        max_(max),\n#endif  // !defined(NDEBUG)\n        allowed_(max) {\n    assert(max >= 0);\n  }\n\n private:\n  int allowed_;\n};\n\nint Open(int n,\n#ifdef WIDE\n         long m\n#else\n         int m\n#endif\n         ) {\n  return n;\n}\n\nvoid Schedule() {}\n\n}  // namespace leveldb\n",
    );
    assert_eq!(
        rows(&ws, "env.cc"),
        [
            "leveldb namespace 1-30",
            "leveldb::Limiter class 3-16",
            "leveldb::Limiter::Limiter constructor 5-12",
            "leveldb::Open function 18-26",
            "leveldb::Schedule function 28-28",
        ]
    );
}

#[test]
fn a_cpp_header_is_read_as_cpp() {
    let ws = Workspace::new();
    ws.file(
        "c.h",
        "namespace n { class C { int f() const { return 1; } }; }\n",
    );
    let v = ws.json(&["c.h", "--outline"]);
    assert_eq!(v["data"]["language"], "cpp");
    assert_eq!(
        rows(&ws, "c.h"),
        ["n namespace 1-1", "n::C class 1-1", "n::C::f method 1-1"]
    );
    // A C header stays C, whatever its comments and strings say.
    ws.file(
        "p.h",
        "/* namespace, class X {, a::b */\n#define S \"template <\"\nint add(int a, int b);\nstatic int one(void) { return 1; }\n",
    );
    let v = ws.json(&["p.h", "--outline"]);
    assert_eq!(v["data"]["language"], "c");
    // The map says the same.
    let v = ws.json(&[".", "--outline"]);
    let languages: Vec<&str> = v["data"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["language"].as_str().unwrap())
        .collect();
    assert_eq!(languages, ["cpp", "c"]);
}

/// Real C and C++ headers of this machine, when it has them (libstdc++'s and glibc's):
/// no symbol is ever named after a keyword, and libstdc++'s `.h` files are C++ (those
/// that hold more than macros).
#[test]
fn real_headers_give_no_symbol_named_after_a_keyword() {
    const KEYWORDS: &[&str] = &[
        "if",
        "else",
        "switch",
        "case",
        "while",
        "for",
        "do",
        "return",
        "sizeof",
        "noexcept",
        "throw",
        "new",
        "delete",
        "decltype",
        "static_assert",
    ];
    let mut headers: Vec<std::path::PathBuf> = Vec::new();
    for dir in [
        "/usr/include/c++/12/bits",
        "/usr/include/c++/13/bits",
        "/usr/include",
    ] {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut found: Vec<_> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "h"))
            .collect();
        found.sort();
        headers.extend(found.into_iter().take(40));
    }
    if headers.is_empty() {
        return;
    }
    let ws = Workspace::new();
    let (mut symbols, mut cpp) = (0, 0);
    for header in &headers {
        let path = header.to_str().unwrap();
        let out = ws.run(&["--root", "/", path, "--outline", "-n", "2000", "-f", "json"]);
        let v = &json_lines(&out)[0];
        let Some(list) = v["data"]["symbols"].as_array() else {
            continue;
        };
        if path.contains("/c++/") && v["data"]["language"] == "cpp" {
            cpp += 1;
        }
        for s in list {
            symbols += 1;
            let name = s["name"].as_str().unwrap();
            let last = name.rsplit("::").next().unwrap();
            assert!(!KEYWORDS.contains(&last), "{path}: {s}");
        }
    }
    assert!(symbols > 0);
    // Most of libstdc++'s `.h` files hold C++ (a few only macros).
    let libstdcxx = headers
        .iter()
        .filter(|h| h.to_string_lossy().contains("/c++/"))
        .count();
    assert!(cpp * 4 >= libstdcxx * 3, "{cpp} of {libstdcxx}");
}

#[test]
fn a_cut_line_of_a_symbol_goes_on_in_the_file() {
    let ws = Workspace::new();
    ws.file(
        "long.rs",
        format!(
            "fn a() {{}}\nfn long() {{ let s = \"{}\"; }}\n",
            "x".repeat(300)
        ),
    );
    // A symbol's read takes no start character: the step names the file (SPEC §15).
    let out = ws.run(&["long.rs#long", "--max-line-chars", "50"]);
    let text = stdout(&out);
    assert!(
        text.contains("[Line 2 was cut at 50 of 325 chars. Use 'long.rs' --start-line 2 --start-char 51 to continue it.]"),
        "{text}"
    );
    let out = ws.run(&[
        "long.rs",
        "--start-line",
        "2",
        "--start-char",
        "51",
        "-n",
        "1",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json_lines(&ws.run(&[
        "--call",
        r#"{"path":"long.rs","symbol":"long","max_tokens":30}"#,
    ]))[0]
        .clone();
    let text = v["text"].as_str().unwrap();
    assert!(
        text.contains("Use start_line=2, start_char=")
            && text.contains(" without a symbol to continue it.]"),
        "{text}"
    );
}

#[test]
fn every_answer_about_structure_names_its_language() {
    let ws = Workspace::new();
    ws.file("notes.txt", "a\n  b\n  c\n");
    // No known language: an indentation block, `data.language` null (SPEC §15).
    let v = ws.json(&["notes.txt:2", "--enclosing"]);
    assert!(
        v["data"].as_object().unwrap().contains_key("language"),
        "{v}"
    );
    assert_eq!(v["data"]["language"], serde_json::Value::Null);
    ws.file("a.rs", "fn f() {\n    1;\n}\n");
    let v = ws.json(&["a.rs:2", "--enclosing"]);
    assert_eq!(v["data"]["language"], "rust");
    // A plain window is no answer about structure.
    let v = ws.json(&["a.rs"]);
    assert!(
        !v["data"].as_object().unwrap().contains_key("language"),
        "{v}"
    );
}
