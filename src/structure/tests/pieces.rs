//! Cutting a file into pieces changes nothing: every fixture outlined in pieces of a
//! few bytes (so cut wherever a cut may fall) equals its outline in one piece, also
//! where a cut falls inside a namespace, a string, a comment or a fenced block.

use std::time::Duration;

use super::super::Language;
use super::super::outline::{Cores, outline_in_pieces};
use super::{clike, ecmascript, go, java, markdown, python, rust};

/// Files whose column-0 lines after blank lines lie inside something else.
const TRAPS: &[(Language, &str)] = &[
    (
        Language::Python,
        "class A:\n    x = '''\n\ndef not_a_function():\n    pass\n'''\n\n# column-0 comment in a class\n\n    def m(self):\n        pass\n\ndef f():\n    pass\n",
    ),
    (
        Language::Cpp,
        "namespace ns {\n\nint f() { return 0; }\n\nstruct S {};\n\n}  // namespace ns\n\nint g() {}\n",
    ),
    (
        Language::C,
        "#ifdef X\n\nint f(void) {\n\n#if Y\n\n  return 0;\n#endif\n}\n\n#endif\n\nint g(void) {}\n",
    ),
    (
        Language::Rust,
        "impl A {\n\n// column 0 inside\n\n    fn a() {}\n}\n\nconst S: &str = \"\n\nfn not_a_function() {}\n\";\n\nfn b() {}\n",
    ),
    (
        Language::JavaScript,
        "(function () {\n\nfunction inner() {}\n\nconst f = () => 1;\n\n})();\n\nfunction outer() {}\n",
    ),
    (
        Language::Markdown,
        "# A\n\n```\n\n# not a heading\n\n```\n\n<!--\n\n# not a heading\n\n-->\n\nText\nmore\n===\n\n- item\n# B\n> quote\n> # C\n",
    ),
];

#[test]
fn outlines_in_pieces_equal_outlines_whole() {
    let fixtures: Vec<(Language, &str)> = [
        (Language::Rust, rust::SOURCE),
        (Language::Python, python::SOURCE),
        (Language::JavaScript, ecmascript::JAVASCRIPT),
        (Language::TypeScript, ecmascript::TYPESCRIPT),
        (Language::Tsx, ecmascript::TYPESCRIPT),
        (Language::Go, go::SOURCE),
        (Language::Java, java::SOURCE),
        (Language::C, clike::C_SOURCE),
        (Language::Cpp, clike::CPP_SOURCE),
        (Language::Markdown, markdown::SOURCE),
    ]
    .into_iter()
    .chain(TRAPS.iter().copied())
    .collect();
    let budget = Duration::from_secs(10);
    for (language, source) in fixtures {
        let whole = outline_in_pieces(
            language,
            source.as_bytes(),
            budget,
            (usize::MAX, usize::MAX),
            Cores::Busy,
        )
        .unwrap();
        assert!(!whole.is_empty(), "{language:?}");
        for piece_bytes in [1, 7, 64] {
            let pieces = outline_in_pieces(
                language,
                source.as_bytes(),
                budget,
                (piece_bytes, usize::MAX),
                Cores::Busy,
            )
            .unwrap();
            assert_eq!(
                pieces, whole,
                "{language:?} in pieces of {piece_bytes}:\n{source}"
            );
        }
    }
}

/// One construct larger than a piece (a function of many statements, an array literal, a
/// method in a class, a Python method), with definitions inside it: cut inside it, its
/// outline is the one of the whole file.
#[test]
fn outlines_cut_inside_one_construct_equal_outlines_whole() {
    let many = |each: &dyn Fn(usize) -> String| (0..3000).map(each).collect::<String>();
    let fixtures: Vec<(Language, String)> = vec![
        (
            Language::Rust,
            format!(
                "// lead\nfn main() {{\n{}}}\n\nfn after() {{}}\n",
                many(&|i| {
                    match i % 500 {
                    0 => format!("    fn inner{i}() {{ let y = {i}; }}\n"),
                    1 => "    let s = \"{ ( [\";\n    let c = '{';\n    let l: &'static str = \"\";\n"
                        .to_string(),
                    _ => format!("    let x{i} = foo(a, b + {i});\n"),
                }
                })
            ),
        ),
        (
            Language::Rust,
            format!(
                "static DATA: &[u32] = &[\n{}];\n\nfn after() {{}}\n",
                many(&|i| format!("    {i}, {i},\n"))
            ),
        ),
        (
            Language::TypeScript,
            format!(
                "export const data = [\n{}];\nfunction after() {{}}\n",
                many(&|i| match i % 500 {
                    0 => format!("  function inner{i}() {{ return `${{{i}}}`; }},\n"),
                    _ => format!("  {{ id: {i}, name: \"n{i}\" }}, // {{\n"),
                })
            ),
        ),
        (
            Language::Java,
            format!(
                "class A {{\n  void first() {{}}\n  void m() {{\n{}  }}\n  void last() {{}}\n}}\n",
                many(&|i| match i % 500 {
                    0 => format!("    class In{i} {{ void q() {{}} }}\n"),
                    _ => format!("    int x{i} = foo(a, b + {i}); /* ( */\n"),
                })
            ),
        ),
        (
            Language::Python,
            format!(
                "class K:\n  def main(self):\n{}\ndef after():\n    pass\n",
                many(&|i| match i % 500 {
                    0 => format!("    def inner{i}():\n        return {i}\n"),
                    _ => format!("    x{i} = foo(a, b + {i})\n"),
                })
            ),
        ),
    ];
    let budget = Duration::from_secs(20);
    for (language, source) in &fixtures {
        let whole = outline_in_pieces(
            *language,
            source.as_bytes(),
            budget,
            (usize::MAX, usize::MAX),
            Cores::Busy,
        )
        .unwrap();
        assert!(!whole.is_empty(), "{language:?}");
        for piece_bytes in [2000, 9000] {
            let pieces = outline_in_pieces(
                *language,
                source.as_bytes(),
                budget,
                (piece_bytes, piece_bytes),
                Cores::Busy,
            )
            .unwrap();
            assert_eq!(pieces, whole, "{language:?} in pieces of {piece_bytes}");
        }
    }
}

/// A file smaller than a piece is parsed once, even when its last node is broken (an
/// include guard around code tree-sitter recovers with errors): the piece reaches the
/// file's end, so parsing "the rest" again would only give the same tree. It was parsed
/// twice, which made C++ headers' outlines 1.6 times slower.
#[test]
fn a_file_in_one_piece_is_parsed_once() {
    use super::super::parse::PARSES;
    let source = "#ifndef H\n#define H\nnamespace n {\nint f() { return 1 +; }\nint g() { return 2; }\n}\n#endif\n";
    PARSES.set(0);
    let budget = Duration::from_secs(10);
    let symbols = outline_in_pieces(
        Language::Cpp,
        source.as_bytes(),
        budget,
        (1 << 20, 1 << 20),
        Cores::Busy,
    )
    .unwrap();
    assert_eq!(PARSES.get(), 1);
    assert!(symbols.iter().any(|s| s.name == "g"), "{symbols:?}");
}

/// A big C++ file with macros to blank: `count` functions in a namespace, each after a
/// macro line the grammar cannot know, and `broken` before the namespace's end.
fn big_cpp_with_macros(count: usize, broken: &str) -> String {
    let mut source = String::from("namespace std {\n");
    for i in 0..count {
        source.push_str(&format!(
            "  template<typename _It>\n    _GLIBCXX20_CONSTEXPR\n    int\n    f{i}(_It __a)\n    {{\n      int __n = 0;\n      for (; __a != __a; ++__a)\n        __n += __a->size() * {i};\n      return __n;\n    }}\n\n"
        ));
    }
    source.push_str(broken);
    source.push_str("}\n");
    source
}

/// A big C++ file whose macros are blanked is tried without its bodies first (one parse
/// when that tree is kept, two when it has an error); with a core spare, the whole parse
/// runs at once on another thread. The outline is the same either way, and the same as
/// a file parsed whole.
#[test]
fn big_cpp_with_macros_is_tried_without_its_bodies_and_answers_the_same_on_any_cores() {
    use super::super::parse::PARSES;
    let budget = Duration::from_secs(20);
    for (broken, parses) in [("", 1), ("  @@ int g;\n", 2)] {
        let source = big_cpp_with_macros(1400, broken);
        assert!(source.len() > 128 << 10 && source.len() < 1 << 20);
        let outline = |cores| {
            let pieces = (1 << 20, 1 << 20);
            outline_in_pieces(Language::Cpp, source.as_bytes(), budget, pieces, cores).unwrap()
        };
        PARSES.set(0);
        let busy = outline(Cores::Busy);
        assert_eq!(PARSES.get(), parses, "{broken:?}");
        PARSES.set(0);
        let spare = outline(Cores::Spare);
        // The whole parse, if any, counts on the thread that ran it.
        assert_eq!(PARSES.get(), 1, "{broken:?}");
        assert_eq!(busy, spare, "{broken:?}");
        assert_eq!(busy.len(), 1401, "{broken:?}");
        let last = busy.iter().find(|s| s.name == "f1399").unwrap();
        assert_eq!(
            (last.start_line, last.def_line, last.end_line),
            (15391, 15394, 15400)
        );
    }
}
