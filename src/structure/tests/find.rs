//! Finding a symbol by query: exact qualified names win over last parts, separators
//! are alike, Markdown by heading text or anchor, suggestions and ambiguity.

use super::super::{Language, Lookup, Symbol, find};
use super::support::symbols;

/// The qualified name the query finds, or the lookup itself when it finds none.
fn found(symbols: &[Symbol], language: Language, query: &str) -> Result<String, Lookup> {
    match find(symbols, language, query) {
        Lookup::Found(index) => Ok(symbols[index].qualified_name.clone()),
        other => Err(other),
    }
}

const RUST: &str = r#"
struct Window;
impl Window {
    fn render(&self) {}
    fn new() -> Self { Window }
}
impl fmt::Display for Window {
    fn fmt(&self) {}
}
struct Other;
impl Other {
    fn new() -> Self { Other }
}
fn new() {}
mod render {}
"#;

#[test]
fn by_qualified_name_or_last_parts_with_any_separator() {
    let symbols = symbols(Language::Rust, RUST);
    for query in [
        "render",
        "Window::render",
        "Window.render",
        "Window/render",
        " Window :: render ",
    ] {
        if query == "render" {
            // `render` names the module exactly; the method only by its last part.
            assert_eq!(found(&symbols, Language::Rust, query).unwrap(), "render");
        } else {
            assert_eq!(
                found(&symbols, Language::Rust, query).unwrap(),
                "Window::render",
                "{query}"
            );
        }
    }
    assert_eq!(
        found(&symbols, Language::Rust, "fmt").unwrap(),
        "Window::fmt"
    );
    // `Window` names the type, not its impl blocks.
    assert_eq!(found(&symbols, Language::Rust, "Window").unwrap(), "Window");
    assert_eq!(
        found(&symbols, Language::Rust, "impl Window").unwrap(),
        "impl Window"
    );
    assert_eq!(
        found(&symbols, Language::Rust, "impl fmt::Display for Window").unwrap(),
        "impl fmt::Display for Window"
    );
    // Part boundaries: `ender` is no last part of `render`.
    assert!(matches!(
        find(&symbols, Language::Rust, "ender"),
        Lookup::NotFound { .. }
    ));
}

#[test]
fn an_exact_match_wins_and_several_others_are_ambiguous() {
    let symbols = symbols(Language::Rust, RUST);
    // The free function `new` is exactly `new`; the methods only end with it.
    assert_eq!(found(&symbols, Language::Rust, "new").unwrap(), "new");
    let python = super::support::symbols(
        Language::Python,
        "class A:\n    def run(self): pass\nclass B:\n    def run(self): pass\n",
    );
    match find(&python, Language::Python, "run") {
        Lookup::Ambiguous(matches) => {
            let names: Vec<&str> = matches
                .iter()
                .map(|&i| python[i].qualified_name.as_str())
                .collect();
            assert_eq!(names, ["A.run", "B.run"]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(found(&python, Language::Python, "B::run").unwrap(), "B.run");
}

#[test]
fn suggestions_are_near_names() {
    let symbols = symbols(Language::Rust, RUST);
    match find(&symbols, Language::Rust, "rendr") {
        Lookup::NotFound { suggestions } => {
            let names: Vec<&str> = suggestions
                .iter()
                .map(|&i| symbols[i].qualified_name.as_str())
                .collect();
            assert_eq!(names, ["Window::render", "render"]);
        }
        other => panic!("{other:?}"),
    }
    match find(&symbols, Language::Rust, "Windw::nwe") {
        Lookup::NotFound { suggestions } => {
            assert_eq!(symbols[suggestions[0]].qualified_name, "Window::new");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        find(&symbols, Language::Rust, "zzzzzzzz"),
        Lookup::NotFound {
            suggestions: vec![]
        }
    );
    assert_eq!(
        find(&symbols, Language::Rust, "::"),
        Lookup::NotFound {
            suggestions: vec![]
        }
    );
    assert!(suggestions_len(&symbols, "o") <= 3);
}

fn suggestions_len(symbols: &[Symbol], query: &str) -> usize {
    match find(symbols, Language::Rust, query) {
        Lookup::NotFound { suggestions } => suggestions.len(),
        _ => 0,
    }
}

#[test]
fn go_and_cpp_qualifiers() {
    let go = symbols(Language::Go, "package p\nfunc (w *Window) Render() {}\n");
    assert_eq!(
        found(&go, Language::Go, "Window::Render").unwrap(),
        "Window.Render"
    );
    assert_eq!(found(&go, Language::Go, "Render").unwrap(), "Window.Render");
    let cpp = symbols(Language::Cpp, "namespace ns { void Foo::bar() {} }\n");
    assert_eq!(
        found(&cpp, Language::Cpp, "Foo.bar").unwrap(),
        "ns::Foo::bar"
    );
    assert_eq!(
        found(&cpp, Language::Cpp, "ns/Foo/bar").unwrap(),
        "ns::Foo::bar"
    );
}

const MARKDOWN: &str = r#"
# agentread
## Line references
### Usage
## Install
### Usage
# FAQ: What's new?
# Line references
"#;

#[test]
fn markdown_by_heading_text_anchor_or_path_case_ignored() {
    let symbols = symbols(Language::Markdown, MARKDOWN);
    let md = Language::Markdown;
    assert_eq!(
        found(&symbols, md, "install").unwrap(),
        "agentread > Install"
    );
    assert_eq!(
        found(&symbols, md, "#install").unwrap(),
        "agentread > Install"
    );
    assert_eq!(
        found(&symbols, md, "faq-whats-new").unwrap(),
        "FAQ: What's new?"
    );
    assert_eq!(
        found(&symbols, md, "FAQ: what's NEW?").unwrap(),
        "FAQ: What's new?"
    );
    // The top-level heading is exactly `Line references`; the other only ends with it.
    assert_eq!(
        found(&symbols, md, "line references").unwrap(),
        "Line references"
    );
    // GitHub numbers repeated anchors: the second `line-references` is `-1`.
    assert_eq!(
        found(&symbols, md, "#line-references").unwrap(),
        "agentread > Line references"
    );
    assert_eq!(
        found(&symbols, md, "#line-references-1").unwrap(),
        "Line references"
    );
    assert_eq!(
        found(&symbols, md, "Install > Usage").unwrap(),
        "agentread > Install > Usage"
    );
    assert_eq!(
        found(&symbols, md, "install/usage").unwrap(),
        "agentread > Install > Usage"
    );
    assert_eq!(
        found(&symbols, md, "usage-1").unwrap(),
        "agentread > Install > Usage"
    );
    assert!(matches!(find(&symbols, md, "usage"), Lookup::Ambiguous(m) if m.len() == 2));
    match find(&symbols, md, "instal") {
        Lookup::NotFound { suggestions } => {
            assert_eq!(symbols[suggestions[0]].name, "Install");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_operator_is_found_without_the_spaces_its_source_holds() {
    let symbols = symbols(
        Language::Cpp,
        "struct F {\n  bool operator ()(int x) const { return x; }\n  int operator [] (int i) { return i; }\n};\n",
    );
    assert_eq!(
        found(&symbols, Language::Cpp, "F::operator()").unwrap(),
        "F::operator ()"
    );
    assert_eq!(
        found(&symbols, Language::Cpp, "operator[]").unwrap(),
        "F::operator []"
    );
}
