//! Cutting a file into pieces changes nothing: every fixture outlined in pieces of a
//! few bytes (so cut wherever a cut may fall) equals its outline in one piece, also
//! where a cut falls inside a namespace, a string, a comment or a fenced block.

use std::time::Duration;

use super::super::Language;
use super::super::outline::{outline_in_pieces, outline_with};
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
        let whole = outline_in_pieces(language, source.as_bytes(), budget, usize::MAX).unwrap();
        assert!(!whole.is_empty(), "{language:?}");
        for piece_bytes in [1, 7, 64] {
            let pieces =
                outline_in_pieces(language, source.as_bytes(), budget, piece_bytes).unwrap();
            assert_eq!(
                pieces, whole,
                "{language:?} in pieces of {piece_bytes}:\n{source}"
            );
        }
    }
}

#[test]
fn outlines_in_halves_equal_outlines_whole() {
    let fixtures: Vec<(Language, &str)> = [
        (Language::Rust, rust::SOURCE),
        (Language::Python, python::SOURCE),
        (Language::JavaScript, ecmascript::JAVASCRIPT),
        (Language::TypeScript, ecmascript::TYPESCRIPT),
        (Language::Go, go::SOURCE),
        (Language::Java, java::SOURCE),
        (Language::C, clike::C_SOURCE),
        (Language::Cpp, clike::CPP_SOURCE),
    ]
    .into_iter()
    .chain(TRAPS.iter().copied())
    .collect();
    let budget = Duration::from_secs(10);
    for (language, source) in fixtures {
        let whole = outline_in_pieces(language, source.as_bytes(), budget, usize::MAX).unwrap();
        // Halves from 0 bytes: every fixture is cut at the first cut after its middle.
        let halves = outline_with(language, source.as_bytes(), budget, usize::MAX, 0).unwrap();
        assert_eq!(halves, whole, "{language:?} in halves:\n{source}");
        // Each prefix too, so that the middle falls everywhere.
        for end in (1..source.len()).filter(|&end| source.is_char_boundary(end)) {
            let prefix = &source.as_bytes()[..end];
            let whole = outline_in_pieces(language, prefix, budget, usize::MAX);
            let halves = outline_with(language, prefix, budget, usize::MAX, 0);
            assert_eq!(halves, whole, "{language:?} in halves:\n{}", &source[..end]);
        }
    }
}
