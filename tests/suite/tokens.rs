//! SPEC §18, tokens as the unit: exact `o200k_base` counts (checked against an
//! independent implementation, tiktoken-rs), `--max-tokens`, `--numbers compact`,
//! `--signatures`, `--fit` and their hints.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::common::{Workspace, code, json_lines, qualified_names, stderr, stdout};

/// The tokens of `text` by tiktoken-rs, not the crate agentread counts with.
fn tokens(text: &str) -> u64 {
    tiktoken_rs::o200k_base_singleton()
        .encode_ordinary(text)
        .len() as u64
}

fn content(v: &Value) -> &str {
    v["data"]["content"].as_str().unwrap()
}

/// Lines of varied code-like text, `n` of them.
fn code_lines(n: usize) -> String {
    (1..=n)
        .map(|i| match i % 4 {
            0 => format!("    let value_{i} = compute(\"{i}\", &mut state)?;\n"),
            1 => format!("fn handler_{i}(request: &Request) -> Response {{\n"),
            2 => "\n".to_string(),
            _ => format!("    // 日本語のコメント {i} and some prose about it\n"),
        })
        .collect()
}

#[test]
fn stats_tokens_is_the_exact_count_of_the_content_shown() {
    let ws = Workspace::new();
    ws.file("a.rs", code_lines(300));
    ws.file("d/x.txt", "x\n");
    ws.file("d/y.txt", "y\n");
    for args in [
        vec!["a.rs"],
        vec!["a.rs", "-s", "40", "-n", "17"],
        vec!["a.rs", "--numbers", "tab"],
        vec!["a.rs", "--numbers", "compact"],
        vec!["a.rs", "--numbers", "none"],
        vec!["a.rs", "--outline"],
        // An outline the token budget cut, and one it counted whole: the budget's own
        // count is the one reported.
        vec!["a.rs", "--outline", "--max-tokens", "60"],
        vec!["a.rs", "--outline", "--max-tokens", "1000000"],
        vec!["a.rs", "--fit", "--max-tokens", "60"],
        vec!["a.rs", "--signatures"],
        vec!["d"],
    ] {
        let v = ws.json(&args);
        assert_eq!(v["stats"]["tokens"], tokens(content(&v)), "{args:?}");
        assert!(v["stats"]["approx_tokens"].is_u64(), "{args:?}");
        if args.contains(&"--outline") {
            let chars = content(&v).chars().count() as u64;
            assert_eq!(v["stats"]["approx_tokens"], chars.div_ceil(4), "{args:?}");
        }
    }
    let xml = stdout(&ws.run(&["a.rs", "-n", "3", "--format", "xml"]));
    let v = ws.json(&["a.rs", "-n", "3"]);
    assert!(
        xml.contains(&format!(" tokens=\"{}\"", tokens(content(&v)))),
        "{xml}"
    );
}

#[test]
fn max_tokens_stops_before_the_line_that_would_pass_it() {
    let ws = Workspace::new();
    ws.file("a.rs", code_lines(400));
    for budget in [20u64, 57, 100, 333, 1000, 2500] {
        let b = budget.to_string();
        let v = ws.json(&["a.rs", "--max-tokens", &b]);
        let shown = content(&v);
        assert!(tokens(shown) <= budget, "{budget}");
        assert_eq!(v["data"]["truncated_by"], "tokens", "{budget}");
        let next = v["data"]["next_start_line"].as_u64().unwrap();
        // The next line would have passed the budget.
        let one_more = ws.json(&["a.rs", "-n", &next.to_string(), "--numbers", "pipe"]);
        let with_next = content(&one_more);
        assert!(with_next.starts_with(shown));
        assert!(tokens(with_next) > budget, "{budget}");
        let text = stdout(&ws.run(&["a.rs", "--max-tokens", &b]));
        assert!(
            text.contains(&format!(
                "[Truncated at {budget} tokens: showing lines 1-{}",
                next - 1
            )),
            "{text}"
        );
    }
}

#[test]
fn a_first_line_alone_past_the_budget_is_cut_to_fit() {
    let ws = Workspace::new();
    let long: String = (0..400).map(|i| format!("word{i} ")).collect();
    ws.file("long.txt", format!("{long}\nsecond\n"));
    let v = ws.json(&["long.txt", "--max-tokens", "50"]);
    assert!(tokens(content(&v)) <= 50);
    assert_eq!(v["data"]["end_line"], 1);
    let next_char = v["data"]["next_start_char"].as_u64().unwrap();
    assert!(next_char > 10);
    assert_eq!(v["status"], "partial");
    assert!(content(&v).contains(" … [+"));
    // And the next page continues it.
    let on = ws.json(&[
        "long.txt",
        "-s",
        "1",
        "--start-char",
        &next_char.to_string(),
        "--max-tokens",
        "50",
    ]);
    assert!(tokens(content(&on)) <= 50);
}

#[test]
fn the_tighter_budget_wins() {
    let ws = Workspace::new();
    ws.file("a.rs", code_lines(400));
    let v = ws.json(&["a.rs", "--max-tokens", "100000", "--max-bytes", "300"]);
    assert_eq!(v["data"]["truncated_by"], "bytes");
    let v = ws.json(&["a.rs", "--max-tokens", "30", "--max-bytes", "100000"]);
    assert_eq!(v["data"]["truncated_by"], "tokens");
    let v = ws.json(&["a.rs", "--max-tokens", "1000000", "-n", "5"]);
    assert_eq!(v["data"]["truncated_by"], "limit");
}

#[test]
fn max_tokens_is_bounded() {
    let ws = Workspace::new();
    ws.file("a.txt", "a\n");
    for bad in ["0", "1000001", "x"] {
        let out = ws.run(&["a.txt", "--max-tokens", bad]);
        assert_eq!(code(&out), 2, "{bad}");
        assert!(stderr(&out).contains("INVALID_PARAM"));
    }
    assert_eq!(code(&ws.run(&["a.txt", "--max-tokens", "1000000"])), 0);
    let out = ws.run(&["--call", r#"{"path":"a.txt","max_tokens":0}"#]);
    assert_eq!(code(&out), 2);
}

#[test]
fn paths_share_one_token_budget() {
    let ws = Workspace::new();
    ws.file("a.rs", code_lines(200));
    ws.file("b.rs", code_lines(200));
    let call = json!({"paths": ["a.rs", "b.rs"], "max_tokens": 700}).to_string();
    let answers = json_lines(&ws.run(&["--call", &call]));
    let first = tokens(content(&answers[0]));
    assert!(first <= 700, "{first}");
    // The second gets what is left, at least its first line cut to fit.
    let second = &answers[1];
    let cut = second["stats"]["lines_read"] == 1 && content(second).contains(" … [+");
    assert!(first + tokens(content(second)) <= 700 || cut);
    assert_eq!(answers[0]["data"]["truncated_by"], "tokens");
}

#[test]
fn tail_keeps_within_the_token_budget() {
    let ws = Workspace::new();
    ws.file("a.rs", code_lines(300));
    let v = ws.json(&["a.rs", "--tail", "200", "--max-tokens", "150"]);
    assert!(tokens(content(&v)) <= 150);
    assert_eq!(v["data"]["end_line"], 300);
    let text = stdout(&ws.run(&["a.rs", "--tail", "200", "--max-tokens", "150"]));
    assert!(
        text.contains("[Truncated at 150 tokens: showing the last"),
        "{text}"
    );
}

#[test]
fn numbers_compact_is_the_number_and_a_bar() {
    let ws = Workspace::new();
    ws.file("a.txt", "alpha\n  beta\n");
    let out = ws.run(&["a.txt", "--numbers", "compact"]);
    assert_eq!(stdout(&out), "1|alpha\n2|  beta\n");
    ws.file("b.txt", "x\n".repeat(12));
    let out = ws.run(&[
        "b.txt",
        "--numbers",
        "compact",
        "-s",
        "9",
        "-n",
        "3",
        "--no-hint",
    ]);
    assert_eq!(stdout(&out), "9|x\n10|x\n11|x\n");
}

#[test]
fn the_hint_offers_the_leaner_views_after_the_outline_hint() {
    let ws = Workspace::new();
    ws.file("a.rs", code_lines(400));
    ws.file("a.txt", code_lines(400));
    let text = stdout(&ws.run(&["a.rs", "--max-tokens", "200"]));
    assert!(text.ends_with("Use --outline to list its symbols. Use --signatures or --fit to see all of it in fewer tokens.]\n"), "{text}");
    let text = stdout(&ws.run(&["a.rs", "--max-bytes", "300"]));
    assert!(text.contains("Use --signatures or --fit to see all of it in fewer tokens.]"));
    // Cut by the limit only, or no known language: no such hint.
    let text = stdout(&ws.run(&["a.rs", "-n", "3"]));
    assert!(!text.contains("--signatures"), "{text}");
    let text = stdout(&ws.run(&["a.txt", "--max-tokens", "200"]));
    assert!(!text.contains("--signatures"), "{text}");
    let out = ws.run(&["--call", r#"{"path":"a.rs","max_tokens":200}"#]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["text"].as_str().unwrap().ends_with(
        "Use outline=true to list its symbols. Use signatures=true or fit=true to see all of it in fewer tokens.]"
    ));
}

#[test]
fn the_schema_advertises_the_token_parameters() {
    let ws = Workspace::new();
    let schema: Value = serde_json::from_slice(&ws.run(&["--tool-schema"]).stdout).unwrap();
    let props = &schema["parameters"]["properties"];
    assert_eq!(props["max_tokens"]["type"], "integer");
    assert_eq!(props["max_tokens"]["minimum"], 1);
    assert_eq!(props["max_tokens"]["maximum"], 1_000_000);
    for name in ["max_tokens", "signatures", "fit"] {
        let d = props[name]["description"].as_str().unwrap();
        assert!(!d.is_empty() && !d.contains('\n'), "{name}");
    }
    assert_eq!(props["signatures"]["type"], "boolean");
    assert_eq!(props["fit"]["type"], "boolean");
}

/// Each language's fixture and its signatures view, line by line.
const SIGNATURES: &[(&str, &str, &str)] = &[
    (
        "a.rs",
        "use std::fmt;\n\n/// A window.\n#[derive(Debug)]\npub struct Window {\n    lines: Vec<String>,\n}\n\nimpl Window {\n    pub fn new() -> Window {\n        Window { lines: Vec::new() }\n    }\n\n    /// Renders it.\n    pub fn render(&self) -> String {\n        let mut out = String::new();\n        for line in &self.lines {\n            out.push_str(line);\n        }\n        out\n    }\n}\n\nfn helper(x: u32) -> u32 {\n    let y = x + 1;\n    let z = y * 2;\n    let w = z - 3;\n    w\n}\n",
        "   1 | use std::fmt;\n   2 | \n   3 | /// A window.\n   4 | #[derive(Debug)]\n   5 | pub struct Window {\n   6 |     lines: Vec<String>,\n   7 | }\n   8 | \n   9 | impl Window {\n  10 |     pub fn new() -> Window {\n  11 |         Window { lines: Vec::new() }\n  12 |     }\n  13 | \n  14 |     /// Renders it.\n  15 |     pub fn render(&self) -> String {\n  16 |         ⋯ lines 16-20 (body of render)\n  21 |     }\n  22 | }\n  23 | \n  24 | fn helper(x: u32) -> u32 {\n  25 |     ⋯ lines 25-28 (body of helper)\n  29 | }\n",
    ),
    (
        "a.py",
        "import os\n\n\nclass Greeter:\n    \"\"\"Says hello.\"\"\"\n\n    def __init__(self, name):\n        self.name = name\n\n    @property\n    def greeting(self):\n        text = \"hello\"\n        text += \" \"\n        text += self.name\n        return text\n\n\ndef main():\n    # Greets.\n    g = Greeter(\"x\")\n    print(g.greeting)\n    print(os.getcwd())\n    return 0\n",
        "   1 | import os\n   2 | \n   3 | \n   4 | class Greeter:\n   5 |     \"\"\"Says hello.\"\"\"\n   6 | \n   7 |     def __init__(self, name):\n   8 |         self.name = name\n   9 | \n  10 |     @property\n  11 |     def greeting(self):\n  12 |         ⋯ lines 12-15 (body of greeting)\n  16 | \n  17 | \n  18 | def main():\n  19 |     ⋯ lines 19-23 (body of main)\n",
    ),
    (
        "a.js",
        "import fs from \"fs\";\n\nexport class Store {\n  constructor(path) {\n    this.path = path;\n  }\n\n  load() {\n    const text = fs.readFileSync(this.path, \"utf8\");\n    const data = JSON.parse(text);\n    this.data = data;\n    return data;\n  }\n}\n\nconst double = (x) => {\n  const y = x * 2;\n  const z = y + 0;\n  console.log(z);\n  return z;\n};\n",
        "   1 | import fs from \"fs\";\n   2 | \n   3 | export class Store {\n   4 |   constructor(path) {\n   5 |     this.path = path;\n   6 |   }\n   7 | \n   8 |   load() {\n   9 |     ⋯ lines 9-12 (body of load)\n  13 |   }\n  14 | }\n  15 | \n  16 | const double = (x) => {\n  17 |   ⋯ lines 17-20 (body of double)\n  21 | };\n",
    ),
    (
        "a.ts",
        "interface Shape {\n  area(): number;\n}\n\nexport function total(shapes: Shape[]): number {\n  let sum = 0;\n  for (const s of shapes) {\n    sum += s.area();\n  }\n  return sum;\n}\n",
        "   1 | interface Shape {\n   2 |   area(): number;\n   3 | }\n   4 | \n   5 | export function total(shapes: Shape[]): number {\n   6 |   ⋯ lines 6-10 (body of total)\n  11 | }\n",
    ),
    (
        "a.go",
        "package main\n\nimport \"fmt\"\n\ntype Point struct {\n\tX, Y int\n}\n\nfunc (p *Point) String() string {\n\ta := p.X\n\tb := p.Y\n\ts := fmt.Sprintf(\"%d,%d\", a, b)\n\treturn s\n}\n",
        "   1 | package main\n   2 | \n   3 | import \"fmt\"\n   4 | \n   5 | type Point struct {\n   6 | \tX, Y int\n   7 | }\n   8 | \n   9 | func (p *Point) String() string {\n  10 | \t⋯ lines 10-13 (body of String)\n  14 | }\n",
    ),
    (
        "A.java",
        "import java.util.List;\n\npublic class A {\n    private int n;\n\n    public int sum(List<Integer> xs) {\n        int s = 0;\n        for (int x : xs) {\n            s += x;\n        }\n        return s;\n    }\n}\n",
        "   1 | import java.util.List;\n   2 | \n   3 | public class A {\n   4 |     private int n;\n   5 | \n   6 |     public int sum(List<Integer> xs) {\n   7 |         ⋯ lines 7-11 (body of sum)\n  12 |     }\n  13 | }\n",
    ),
    (
        "a.c",
        "#include <stdio.h>\n\nint add(int a, int b);\n\nint main(void) {\n    int a = 1;\n    int b = 2;\n    printf(\"%d\\n\", a + b);\n    return 0;\n}\n",
        "   1 | #include <stdio.h>\n   2 | \n   3 | int add(int a, int b);\n   4 | \n   5 | int main(void) {\n   6 |     ⋯ lines 6-9 (body of main)\n  10 | }\n",
    ),
    (
        "a.cpp",
        "#include <string>\n\nnamespace ns {\nclass Box {\n public:\n  int size() const {\n    int a = 1;\n    int b = 2;\n    int c = a + b;\n    return c;\n  }\n};\n}  // namespace ns\n",
        "   1 | #include <string>\n   2 | \n   3 | namespace ns {\n   4 | class Box {\n   5 |  public:\n   6 |   int size() const {\n   7 |     ⋯ lines 7-10 (body of size)\n  11 |   }\n  12 | };\n  13 | }  // namespace ns\n",
    ),
    (
        "a.md",
        "# Title\n\nFirst paragraph\nof the title.\n\nMore text.\n\n## Usage\n\nRun it.\n\n```\nagentread x\n```\n\n## Empty\n",
        "   1 | # Title\n   2 | \n   3 | First paragraph\n   4 | of the title.\n   5 | \n   6 | ⋯ lines 6-6 (body of Title)\n   7 | \n   8 | ## Usage\n   9 | \n  10 | Run it.\n  11 | \n  12 | ⋯ lines 12-14 (body of Usage)\n  15 | \n  16 | ## Empty\n",
    ),
];

#[test]
fn signatures_elide_bodies_in_every_language() {
    let ws = Workspace::new();
    for (name, source, want) in SIGNATURES {
        ws.file(name, source);
        let out = ws.run(&[name, "--signatures"]);
        assert_eq!(code(&out), 0, "{name}: {}", stderr(&out));
        let got = stdout(&out);
        for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
            assert_eq!(g, w, "{name}, line {}", i + 1);
        }
        assert_eq!(got, *want, "{name}");
    }
}

/// A curried function's body is its innermost function's: the heads of the functions
/// it returns are its signature, and the innermost body's closing line stays (it was
/// elided with the body, leaving a `{` that nothing closed).
#[test]
fn signatures_of_a_curried_function_keep_its_heads_and_closing_line() {
    let ws = Workspace::new();
    ws.file(
        "c.ts",
        "export const safe = (err) => (schema, value) => {\n  const a = 1;\n  const b = 2;\n  const c = 3;\n  return a + b;\n};\nexport const make =\n  (a: number) =>\n  (params: string): string => {\n    const x = a;\n    const y = params;\n    const z = 3;\n    return y;\n  };\n",
    );
    assert_eq!(
        stdout(&ws.run(&["c.ts", "--signatures"])),
        "   1 | export const safe = (err) => (schema, value) => {\n   2 |   ⋯ lines 2-5 (body of safe)\n   6 | };\n   7 | export const make =\n   8 |   (a: number) =>\n   9 |   (params: string): string => {\n  10 |     ⋯ lines 10-13 (body of make)\n  14 |   };\n"
    );
}

/// A line a signatures view cuts goes on in the file's own lines: the step drops
/// `--signatures`, which takes no start character (following the step as it was said
/// was INVALID_PARAM).
#[test]
fn a_line_cut_in_a_signatures_view_goes_on_without_it() {
    let ws = Workspace::new();
    ws.file(
        "long.rs",
        format!(
            "const TABLE: &str = \"{}\";\nfn f() {{}}\n",
            "x".repeat(3000)
        ),
    );
    let text = stdout(&ws.run(&["long.rs", "--signatures"]));
    assert!(
        text.ends_with("[Line 1 was cut at 2000 of 3023 chars. Use --start-line 1 --start-char 2001 without --signatures to continue it.]\n"),
        "{text}"
    );
    let v = ws.json(&[
        "long.rs",
        "--start-line",
        "1",
        "--start-char",
        "2001",
        "-n",
        "1",
    ]);
    assert!(content(&v).ends_with("x\";\n"), "{v}");
    let v = ws.json(&["--call", r#"{"path":"long.rs","signatures":true}"#]);
    assert!(
        v["text"].as_str().unwrap().ends_with(
            "Use start_line=1, start_char=2001 without signatures=true to continue it.]"
        ),
        "{v}"
    );
}

#[test]
fn signatures_in_json_list_what_was_elided() {
    let ws = Workspace::new();
    let (name, source, _) = SIGNATURES[0];
    ws.file(name, source);
    let v = ws.json(&[name, "--signatures"]);
    assert_eq!(v["data"]["type"], "signatures");
    assert_eq!(v["data"]["language"], "rust");
    assert_eq!(
        v["data"]["elided"],
        json!([
            {"start_line": 16, "end_line": 20, "symbol": "render"},
            {"start_line": 25, "end_line": 28, "symbol": "helper"}
        ])
    );
    // A marker is one line shown.
    assert_eq!(v["stats"]["lines_read"], 22);
    assert_eq!(v["stats"]["total_lines"], 29);
    assert_eq!(v["stats"]["tokens"], tokens(content(&v)));
    // XML gives each as an element, its attributes the JSON fields.
    let xml = stdout(&ws.run(&[name, "--signatures", "--format", "xml"]));
    assert!(
        xml.contains(
            "<elided start_line=\"16\" end_line=\"20\" symbol=\"render\"/>\n<elided start_line=\"25\" end_line=\"28\" symbol=\"helper\"/>\n"
        ),
        "{xml}"
    );
}

#[test]
fn signatures_are_paged_like_a_window() {
    let ws = Workspace::new();
    let (name, source, _) = SIGNATURES[0];
    ws.file(name, source);
    let v = ws.json(&[name, "--signatures", "-n", "16"]);
    assert_eq!(v["data"]["next_start_line"], 21);
    assert_eq!(v["data"]["end_line"], 20);
    let text = stdout(&ws.run(&[name, "--signatures", "-n", "16"]));
    assert!(text.contains("Use --start-line 21 to continue."), "{text}");
    let out = ws.run(&[name, "--signatures", "-s", "21", "--no-hint"]);
    assert!(stdout(&out).starts_with("  21 |     }\n  22 | }\n"));
}

#[test]
fn a_symbol_target_applies_signatures_inside_it() {
    let ws = Workspace::new();
    let (name, source, _) = SIGNATURES[1];
    ws.file(name, source);
    let out = ws.run(&["a.py#Greeter", "--signatures", "--no-hint"]);
    assert_eq!(
        stdout(&out),
        "   4 | class Greeter:\n   5 |     \"\"\"Says hello.\"\"\"\n   6 | \n   7 |     def __init__(self, name):\n   8 |         self.name = name\n   9 | \n  10 |     @property\n  11 |     def greeting(self):\n  12 |         ⋯ lines 12-15 (body of greeting)\n"
    );
    let v = ws.json(&["a.py#Greeter", "--signatures"]);
    assert_eq!(v["data"]["symbol"]["qualified_name"], "Greeter");
    // Paged inside the symbol from a start line within it (SPEC §15, §18), as its footer
    // says to go on; a start line outside it is refused.
    let out = ws.run(&["a.py#Greeter", "--signatures", "-n", "2"]);
    assert!(
        stdout(&out).contains("Use 'a.py#Greeter' -s 6 to continue."),
        "{}",
        stdout(&out)
    );
    let out = ws.run(&["a.py#Greeter", "--signatures", "-s", "10", "--no-hint"]);
    assert_eq!(
        stdout(&out),
        "  10 |     @property\n  11 |     def greeting(self):\n  12 |         ⋯ lines 12-15 (body of greeting)\n"
    );
    let out = ws.run(&["a.py#Greeter", "--signatures", "-s", "2"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("outside the symbol 'Greeter'"),
        "{}",
        stderr(&out)
    );
    let v = ws.json(&["a.py#Greeter", "--fit", "-s", "11"]);
    assert_eq!(v["data"]["start_line"], 11);
}

#[test]
fn signatures_refuse_what_they_cannot_be() {
    let ws = Workspace::new();
    ws.file("a.rs", "fn a() {}\n");
    ws.file("a.txt", "text\n");
    for args in [
        vec!["a.rs", "--signatures", "--outline"],
        vec!["a.rs:1", "--signatures", "--enclosing"],
    ] {
        let out = ws.run(&args);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(stderr(&out).contains("INVALID_PARAM"), "{args:?}");
    }
    let out = ws.run(&["a.txt", "--signatures"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("Rust, Python, JavaScript"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn fit_shows_the_richest_view_that_fits() {
    let ws = Workspace::new();
    let (name, source, _) = SIGNATURES[0];
    ws.file(name, source);
    let whole = tokens(content(&ws.json(&[name])));
    let sigs = tokens(content(&ws.json(&[name, "--signatures"])));
    let outline = tokens(content(&ws.json(&[name, "--outline"])));
    let view = |budget: u64| {
        let v = ws.json(&[name, "--fit", "--max-tokens", &budget.to_string()]);
        assert!(tokens(content(&v)) <= budget.max(outline), "{budget}");
        v["data"]["view"].as_str().unwrap().to_string()
    };
    assert_eq!(view(whole), "lines");
    assert_eq!(view(whole - 1), "signatures");
    assert_eq!(view(sigs), "signatures");
    assert_eq!(view(sigs - 1), "outline");
    let text = stdout(&ws.run(&[name, "--fit", "--max-tokens", &(sigs - 1).to_string()]));
    assert!(
        text.ends_with("Use PATH#SYMBOL or --start-line/--limit to read a part.]\n"),
        "{text}"
    );
    let out = ws.run(&[
        "--call",
        &json!({"path": name, "fit": true, "max_tokens": sigs - 1}).to_string(),
    ]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["text"]
            .as_str()
            .unwrap()
            .ends_with("Use PATH#SYMBOL or start_line/limit to read a part.]")
    );
    // Without a token budget, the byte budget, to the byte.
    let v = ws.json(&[name, "--fit"]);
    assert_eq!(v["data"]["view"], "lines");
    let bytes = content(&v).len();
    let by_bytes = |budget: usize| {
        let v = ws.json(&[name, "--fit", "--max-bytes", &budget.to_string()]);
        v["data"]["view"].as_str().unwrap().to_string()
    };
    assert_eq!(by_bytes(bytes), "lines");
    assert_eq!(by_bytes(bytes - 1), "signatures");
    // A file in no known language: the usual window.
    ws.file("a.txt", "plain\n".repeat(10));
    let v = ws.json(&["a.txt", "--fit", "--max-tokens", "5"]);
    assert_eq!(v["data"]["type"], "file");
    assert_eq!(v["data"]["truncated_by"], "tokens");
    // Whatever its size: past the 8 MiB that are parsed too (it was SIZE_LIMIT_EXCEEDED),
    // and its other views are refused for its language, not its size.
    ws.file("big.log", "a log line of some length\n".repeat(400_000));
    let v = ws.json(&["big.log", "--fit", "-n", "3"]);
    assert_eq!(v["data"]["type"], "file", "{v}");
    assert_eq!(v["data"]["end_line"], 3);
    let v = ws.json(&["big.log", "--signatures"]);
    assert_eq!(v["error"]["code"], "INVALID_PARAM", "{v}");
    // A known language that large is past what is parsed.
    ws.file("big.py", "x = 1\n".repeat(1_500_000));
    let v = ws.json(&["big.py", "--fit"]);
    assert_eq!(v["error"]["code"], "SIZE_LIMIT_EXCEEDED", "{v}");
}

/// `--fit` under a token budget: that budget alone decides, not the default byte budget
/// (SPEC §18); a given `--max-bytes` still holds. A symbol that fits is a whole answer
/// (SPEC §15).
#[test]
fn fit_under_a_token_budget_and_on_a_symbol() {
    let ws = Workspace::new();
    let functions: String = (0..450)
        .map(|i| format!("fn handler_{i}(request: &Request) -> Response {{\n    let value = compute(\"{i}\", &mut state)?;\n    value\n}}\n"))
        .collect();
    ws.file("big.rs", &functions);
    let whole = ws.json(&["big.rs", "-n", "2000", "--max-bytes", "100000000"]);
    assert!(content(&whole).len() > 51_200);
    let budget = tokens(content(&whole)).to_string();
    let v = ws.json(&["big.rs", "--fit", "--max-tokens", &budget]);
    assert_eq!(v["data"]["view"], "lines", "{}", v["text"]);
    assert_eq!(content(&v), content(&whole));
    // Whatever view the budgets choose, both hold: a small byte budget beside a large
    // token budget gave the whole outline past the bytes.
    for bytes in ["51200", "1000", "300"] {
        let v = ws.json(&[
            "big.rs",
            "--fit",
            "--max-tokens",
            &budget,
            "--max-bytes",
            bytes,
        ]);
        assert!(content(&v).len() <= bytes.parse().unwrap(), "{bytes}: {v}");
        assert_eq!(v["data"]["view"], "outline", "{bytes}");
    }
    let (name, source, _) = SIGNATURES[0];
    ws.file(name, source);
    let target = format!("{name}#render");
    let v = ws.json(&[&target, "--fit"]);
    assert_eq!(v["data"]["view"], "lines");
    assert_eq!(
        (&v["status"], &v["data"]["truncated"]),
        (&json!("success"), &json!(false))
    );
    assert_eq!(
        (&v["data"]["start_line"], &v["data"]["end_line"]),
        (&json!(14), &json!(21))
    );
    let text = stdout(&ws.run(&[&target, "--fit"]));
    assert!(!text.contains("Truncated"), "{text}");
    assert!(
        text.ends_with("[Symbol Window::render (method): lines 14-21 of 29.]\n"),
        "{text}"
    );
    // Neither its lines nor its signatures fit: the outline of its lines holds its own
    // row (a function has no children, and an empty outline told nothing).
    ws.file(
        "small.py",
        "def foo():\n    x = 1\n    y = 2\n    z = 3\n    w = 4\n    return x\n",
    );
    let v = ws.json(&["small.py#foo", "--fit", "--max-tokens", "20"]);
    assert_eq!(v["data"]["view"], "outline", "{v}");
    assert_eq!(v["data"]["content"], "1-6 | def foo():\n");
    assert_eq!(v["data"]["symbol"]["name"], "foo");
}

/// Lines that define nothing and do not fit: no outline to step down to, so `--fit`
/// answers with the lines that fit and a footer that goes on (an empty outline left the
/// caller nowhere).
#[test]
fn fit_on_lines_that_define_nothing_shows_the_lines_that_fit() {
    let ws = Workspace::new();
    let calls: String = (0..200)
        .map(|i| format!("it('case {i}', () => {{\n  expect(run({i})).toBe({i});\n}});\n"))
        .collect();
    ws.file("t.test.js", &calls);
    let v = ws.json(&["t.test.js", "--fit", "--max-tokens", "100"]);
    assert_eq!(
        (&v["status"], &v["data"]["view"], &v["data"]["truncated_by"]),
        (&json!("partial"), &json!("lines"), &json!("tokens")),
        "{v}"
    );
    assert!(content(&v).starts_with("   1 | it('case 0'"), "{v}");
    assert!(tokens(content(&v)) <= 100);
    let next = v["data"]["next_start_line"].as_u64().unwrap();
    // Every line that fits is shown: with the next one the lines pass the budget.
    let more = ws.json(&["t.test.js", "-n", &next.to_string()]);
    assert!(tokens(content(&more)) > 100, "{more}");
    let text = stdout(&ws.run(&["t.test.js", "--fit", "--max-tokens", "100"]));
    assert!(
        text.ends_with(&format!(
            "Use --start-line {next} to continue.]\n[The lines do not fit the budget and define no symbols: showing those that fit.]\n"
        )),
        "{text}"
    );
    assert!(!text.contains("--outline"), "{text}");
    // The step it names goes on.
    let v = ws.json(&[
        "t.test.js",
        "--fit",
        "--max-tokens",
        "100",
        "--start-line",
        &next.to_string(),
    ]);
    assert_eq!(v["data"]["start_line"], next);
    // A range that fits is its lines, with no such footer.
    let text = stdout(&ws.run(&["t.test.js:1-3", "--fit", "--max-tokens", "100"]));
    assert!(!text.contains("do not fit"), "{text}");
}

/// `PATH:N-M --fit` whose outline page is cut goes on from the line its footer names
/// (it answered the same page again, whatever the start line), and a start line
/// outside the range is refused as it is for the range's outline.
#[test]
fn fit_on_a_range_pages_from_the_line_its_footer_names() {
    let ws = Workspace::new();
    let functions: String = (0..40)
        .map(|i| format!("def function_number_{i}(argument):\n    value = argument * {i}\n    return value + {i}\n\n"))
        .collect();
    ws.file("m.py", &functions);
    let page = |extra: &[&str]| {
        let mut args = vec!["m.py:5-80", "--fit", "--max-tokens", "30"];
        args.extend(extra);
        ws.json(&args)
    };
    let first = page(&[]);
    assert_eq!(first["data"]["view"], "outline", "{first}");
    let next = first["data"]["next_start_line"].as_u64().unwrap();
    let second = page(&["--start-line", &next.to_string()]);
    assert_eq!(second["data"]["symbols"][0]["start_line"], next, "{second}");
    assert_ne!(content(&second), content(&first));
    // The symbols are still counted from the range's first line.
    let text = stdout(&ws.run(&[
        "m.py:5-80",
        "--fit",
        "--max-tokens",
        "30",
        "--start-line",
        &next.to_string(),
    ]));
    let shown = first["data"]["symbols"].as_array().unwrap().len() + 1;
    assert!(
        text.contains(&format!("showing symbols {shown}-")),
        "{text}"
    );
    let v = page(&["--start-line", "100"]);
    assert_eq!(v["error"]["code"], "INVALID_PARAM", "{v}");
    let v = ws.json(&["m.py:5-80", "--signatures", "--start-line", "4"]);
    assert_eq!(v["error"]["code"], "INVALID_PARAM", "{v}");
}

/// A line reference's window cut by a budget offers the leaner views too (SPEC §18: every
/// window of a file in a known language).
#[test]
fn a_line_references_window_cut_by_a_budget_offers_the_leaner_views() {
    let ws = Workspace::new();
    ws.file("big.rs", code_lines(200));
    for target in ["big.rs:10-120", "big.rs:10"] {
        let text = stdout(&ws.run(&[target, "--max-tokens", "60"]));
        assert!(
            text.contains("Use --outline to list its symbols. Use --signatures or --fit to see all of it in fewer tokens.]"),
            "{target}: {text}"
        );
    }
}

/// One `tools/call` of `read` with `arguments`, to `agentread --mcp` with `settings`:
/// its `structuredContent`.
fn mcp_call(ws: &Workspace, settings: &[&str], arguments: Value) -> Value {
    let mut server = crate::common::Server::start(ws.path(), settings, json!({}));
    server.read_call(2, arguments);
    let answer = loop {
        let v = server.receive();
        if v["id"] == 2 {
            break v;
        }
    };
    server.finish();
    answer["result"]["structuredContent"].clone()
}

#[test]
fn the_mcp_server_has_a_token_budget_of_9000_that_its_max_tokens_changes() {
    let ws = Workspace::new();
    ws.file("big.rs", code_lines(2000));
    let v = mcp_call(
        &ws,
        &["--max-bytes", "1000000"],
        json!({"path": "big.rs", "limit": 2000}),
    );
    assert_eq!(v["data"]["truncated_by"], "tokens");
    let shown = tokens(content(&v));
    assert!(shown <= 9000 && shown > 8500, "{shown}");
    let v = mcp_call(&ws, &["--max-tokens", "300"], json!({"path": "big.rs"}));
    assert!(tokens(content(&v)) <= 300);
    // A call's own budget wins over the server's.
    let v = mcp_call(
        &ws,
        &["--max-tokens", "300"],
        json!({"path": "big.rs", "max_tokens": 600}),
    );
    assert!(tokens(content(&v)) > 300 && tokens(content(&v)) <= 600);
    // The command line has none by default.
    let v = ws.json(&["big.rs", "-n", "2000", "--max-bytes", "1000000"]);
    assert_eq!(v["data"]["truncated"], false);
    // Per-call views are not server settings.
    for flag in ["--signatures", "--fit"] {
        let out = ws.run(&["--mcp", flag]);
        assert_eq!(code(&out), 2, "{flag}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// No answer passes its token budget, except a first line cut to one character.
    #[test]
    fn no_answer_passes_its_token_budget(
        lines in proptest::collection::vec("[a-zA-Z0-9 (){};=_.,:\"'\t日本é-]{0,120}", 1..60),
        budget in 1u64..400,
        start in 1usize..5,
        numbers in 0usize..5,
    ) {
        let ws = Workspace::new();
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        ws.file("p.rs", &text);
        let start_index = start.min(lines.len()) - 1;
        let start = (start_index + 1).to_string();
        let style = ["pipe", "tab", "colon", "compact", "none"][numbers];
        let b = budget.to_string();
        for extra in [&[][..], &["--signatures"][..]] {
            let mut args = vec!["p.rs", "-s", &start, "--max-tokens", &b, "--numbers", style];
            args.extend_from_slice(extra);
            let v = ws.json(&args);
            let shown = content(&v);
            prop_assert_eq!(v["stats"]["tokens"].as_u64().unwrap(), tokens(shown));
            // A first line cut to its first character, or one that has no more to cut.
            let one_char_cut = v["stats"]["lines_read"] == 1
                && (shown.contains(" … [+") || lines[start_index].chars().count() <= 1);
            prop_assert!(tokens(shown) <= budget || one_char_cut, "{} > {budget}: {shown:?}", tokens(shown));
        }
    }
}

/// A signatures view reads its file as a window does: a byte-order mark is reported
/// (`stats.bom`), never shown, and does not keep the first definition from parsing.
#[test]
fn signatures_of_a_file_with_a_byte_order_mark() {
    let ws = Workspace::new();
    let body: String = (0..6).map(|i| format!("    x = {i}\n")).collect();
    ws.file("bom.py", format!("\u{feff}def f():\n{body}"));
    let v = ws.json(&["bom.py", "--signatures"]);
    assert_eq!(v["stats"]["bom"], true, "{v}");
    assert_eq!(v["data"]["elided"][0]["symbol"], "f", "{v}");
    assert!(content(&v).starts_with("   1 | def f():\n"), "{v}");
    assert!(!content(&v).contains('\u{feff}'), "{v}");
}

/// Items wrapped in a macro invocation (`cfg_rt! { … }`, as tokio writes whole modules)
/// are read where they stand: their bodies are elided and they have symbols; a macro
/// whose braces hold no items (`select!` arms) stays as written.
#[test]
fn signatures_elide_bodies_inside_item_macros() {
    let ws = Workspace::new();
    let source = "\
cfg_rt! {
    /// Spawns a task.
    pub fn spawn(task: Task) -> Handle {
        let id = next();
        queue(task, id);
        wake();
        Handle { id }
    }

    impl Handle {
        pub fn id(&self) -> u64 {
            let id = self.id;
            check(id);
            log(id);
            id
        }
    }
}

fn run() {
    select! {
        a = one() => {
            first(a);
            second(a);
            third(a);
        }
    }
}
";
    ws.file("rt.rs", source);
    let out = ws.run(&["rt.rs", "--signatures", "--no-hint"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "   1 | cfg_rt! {\n   2 |     /// Spawns a task.\n   3 |     pub fn spawn(task: Task) -> Handle {\n   4 |         ⋯ lines 4-7 (body of spawn)\n   8 |     }\n   9 | \n  10 |     impl Handle {\n  11 |         pub fn id(&self) -> u64 {\n  12 |             ⋯ lines 12-15 (body of id)\n  16 |         }\n  17 |     }\n  18 | }\n  19 | \n  20 | fn run() {\n  21 |     ⋯ lines 21-27 (body of run)\n  28 | }\n"
    );
    let v = ws.json(&["rt.rs", "--outline"]);
    assert_eq!(
        qualified_names(&v),
        ["spawn", "impl Handle", "Handle::id", "run"]
    );
    assert_eq!(v["data"]["symbols"][0]["start_line"], 2);
}

/// `--fit` asks whether the lines fit as a window shows them: lines cut at
/// `--max-line-chars` take what is shown of them, not their whole length, under a byte
/// budget and a token budget alike.
#[test]
fn fit_asks_whether_lines_fit_as_cut_to_max_line_chars() {
    let ws = Workspace::new();
    // Many pieces a line: counted whole, a line's fewest pieces alone pass the budget.
    let long = "ab ".repeat(170);
    let source: String = (0..20)
        .map(|i| format!("fn f{i}() {{ let x = \"{long}\"; }}\n"))
        .collect();
    ws.file("long.rs", &source);
    let view = |args: &[&str]| {
        let mut all = vec!["long.rs", "--fit"];
        all.extend(args);
        ws.json(&all)["data"]["view"].as_str().unwrap().to_string()
    };
    assert_eq!(
        view(&["--max-bytes", "2000", "--max-line-chars", "20"]),
        "lines"
    );
    assert_eq!(view(&["--max-bytes", "2000"]), "outline");
    let cut = ws.json(&["long.rs", "--max-line-chars", "20"]);
    let cut_tokens = tokens(content(&cut));
    let budget = cut_tokens.to_string();
    assert_eq!(
        view(&["--max-tokens", &budget, "--max-line-chars", "20"]),
        "lines"
    );
    assert_eq!(view(&["--max-tokens", &budget]), "outline");
}

/// A comment or docstring of more than 5 lines keeps its first paragraph (at most 2
/// lines) and one marker line for the rest, named for the symbol it documents; a
/// shorter one stays whole, and a string's lines are no comment (README "Signatures").
#[test]
fn signatures_shorten_long_comments_to_their_first_paragraph() {
    let ws = Workspace::new();
    let cases: &[(&str, &str, &str)] = &[
        (
            "d.rs",
            "//! The module.\n//!\n//! More about it,\n//! over lines,\n//! and more.\n//! End.\n\n/// Adds.\n///\n/// # Examples\n///\n/// ```\n/// add(1, 2);\n/// ```\npub fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n\n/// Five lines\n/// of docs\n/// kept\n/// whole\n/// here.\npub struct S;\n\nconst T: &str = \"\n// not\n// a\n// comment\n// at\n// all\n\";\n",
            "   1 | //! The module.\n   2 | ⋯ lines 2-6 (comment)\n   7 | \n   8 | /// Adds.\n   9 | ⋯ lines 9-14 (docs of add)\n  15 | pub fn add(a: u32, b: u32) -> u32 {\n  16 |     a + b\n  17 | }\n  18 | \n  19 | /// Five lines\n  20 | /// of docs\n  21 | /// kept\n  22 | /// whole\n  23 | /// here.\n  24 | pub struct S;\n  25 | \n  26 | const T: &str = \"\n  27 | // not\n  28 | // a\n  29 | // comment\n  30 | // at\n  31 | // all\n  32 | \";\n",
        ),
        (
            "D.java",
            "/*\n * Licence line one\n * line two\n * line three\n * line four\n */\n\npublic class D {\n    /**\n     * Sums.\n     *\n     * @param a one\n     * @param b two\n     * @return the sum\n     */\n    public int sum(int a, int b) { return a + b; }\n}\n",
            "   1 | /*\n   2 |  * Licence line one\n   3 |  ⋯ lines 3-6 (comment)\n   7 | \n   8 | public class D {\n   9 |     /**\n  10 |      * Sums.\n  11 |      ⋯ lines 11-15 (docs of sum)\n  16 |     public int sum(int a, int b) { return a + b; }\n  17 | }\n",
        ),
        (
            "d.py",
            "\"\"\"The module.\n\nMore.\nMore.\nMore.\n\"\"\"\n\n\nclass C:\n    \"\"\"A class\n    that does things.\n    Details,\n    details.\n    The end.\n    \"\"\"\n\n    # a\n    # b\n    # c\n    # d\n    # e\n    # f\n    x = 1\n",
            "   1 | \"\"\"The module.\n   2 | ⋯ lines 2-6 (docstring)\n   7 | \n   8 | \n   9 | class C:\n  10 |     \"\"\"A class\n  11 |     that does things.\n  12 |     ⋯ lines 12-15 (docstring)\n  16 | \n  17 |     # a\n  18 |     # b\n  19 |     ⋯ lines 19-22 (comment)\n  23 |     x = 1\n",
        ),
    ];
    for (name, source, want) in cases {
        ws.file(name, source);
        let got = stdout(&ws.run(&[name, "--signatures"]));
        for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
            assert_eq!(g, w, "{name}, line {}", i + 1);
        }
        assert_eq!(got, *want, "{name}");
    }
    // In JSON each is in `data.elided` with its `part`; a body's entry has none.
    let v = ws.json(&["d.rs", "--signatures"]);
    assert_eq!(
        v["data"]["elided"],
        json!([
            {"start_line": 2, "end_line": 6, "symbol": null, "part": "comment"},
            {"start_line": 9, "end_line": 14, "symbol": "add", "part": "comment"}
        ])
    );
    let v = ws.json(&["d.py", "--signatures"]);
    assert_eq!(v["data"]["elided"][1]["part"], "docstring", "{v}");
    // XML leaves a null symbol out.
    let xml = stdout(&ws.run(&["d.rs", "--signatures", "--format", "xml"]));
    assert!(
        xml.contains("<elided start_line=\"2\" end_line=\"6\" part=\"comment\"/>\n"),
        "{xml}"
    );
}
