//! Robustness: any bytes give a well-formed outline (never a panic), deep nesting
//! neither overflows a default thread stack nor takes long, and the budget is kept.

use std::thread;
use std::time::{Duration, Instant};

use proptest::prelude::*;

use super::super::{Cores, Language, OutlineError, Symbol, outline};

/// Every language, TSX included.
const LANGUAGES: [Language; 10] = [
    Language::Rust,
    Language::Python,
    Language::JavaScript,
    Language::TypeScript,
    Language::Tsx,
    Language::Go,
    Language::Java,
    Language::C,
    Language::Cpp,
    Language::Markdown,
];

/// Pieces of source text that make parsers build (and recover from) nested structure.
const TOKENS: &[&str] = &[
    "fn f() {",
    "}",
    "{",
    "(",
    ")",
    "[",
    "]",
    "\n",
    "\n    ",
    "\t",
    "class C:",
    "def g(x):",
    "@dec\n",
    "# c\n",
    "// c\n",
    "/* c */",
    "/*",
    "impl<T> X<T> {",
    "struct S {",
    "mod m {",
    "trait T {",
    "func (w *W) R() {",
    "type X struct {",
    "namespace n {",
    "void A::b() {",
    "template <class T>",
    "interface I {",
    "enum E {",
    "const f = () => {",
    "export ",
    "public void m() {",
    "# H\n",
    "## H2\n",
    "===\n",
    "```\n",
    "> ",
    "- ",
    "\"",
    "'",
    ";",
    "\r\n",
    "é",
    "\u{0}",
    "\u{feff}",
];

/// The number of lines of `source` as SPEC §3 counts them.
fn line_count(source: &[u8]) -> u64 {
    let ends = source.iter().filter(|&&b| b == b'\n').count() as u64;
    ends + u64::from(!source.is_empty() && !source.ends_with(b"\n"))
}

/// Asserts what every outline promises: lines within the file, each definition line
/// within its symbol, parents before and around their children, depth by parents,
/// and symbols in the order they start.
fn assert_well_formed(symbols: &[Symbol], source: &[u8]) {
    let total = line_count(source);
    let mut previous_start = 0;
    for (index, symbol) in symbols.iter().enumerate() {
        // Formatted only for a failure: the source may be 100,000 levels deep.
        let what = || format!("{symbol:?} in {:?}", String::from_utf8_lossy(source));
        assert!(!symbol.name.is_empty(), "{}", what());
        assert!(1 <= symbol.start_line, "{}", what());
        assert!(symbol.start_line <= symbol.def_line, "{}", what());
        assert!(symbol.def_line <= symbol.end_line, "{}", what());
        assert!(symbol.end_line <= total, "{}", what());
        assert!(symbol.start_line >= previous_start, "{}", what());
        previous_start = symbol.start_line;
        match symbol.parent {
            Some(parent) => {
                assert!(parent < index, "{}", what());
                let parent = &symbols[parent];
                assert!(parent.start_line <= symbol.start_line, "{}", what());
                assert!(symbol.end_line <= parent.end_line, "{}", what());
                assert_eq!(symbol.depth, parent.depth + 1, "{}", what());
            }
            None => assert_eq!(symbol.depth, 0, "{}", what()),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_give_a_well_formed_outline(
        source in prop::collection::vec(any::<u8>(), 0..600),
    ) {
        for language in LANGUAGES {
            let symbols = outline(language, &source, Duration::from_secs(10), Cores::Spare).expect("an outline");
            assert_well_formed(&symbols, &source);
        }
    }

    #[test]
    fn arbitrary_token_soup_gives_a_well_formed_outline(
        tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..120),
    ) {
        let source = tokens.concat().into_bytes();
        for language in LANGUAGES {
            let symbols = outline(language, &source, Duration::from_secs(10), Cores::Spare).expect("an outline");
            assert_well_formed(&symbols, &source);
        }
    }
}

/// Inputs nested 100,000 levels deep, for `language`.
fn deep_inputs(language: Language) -> Vec<Vec<u8>> {
    const LEVELS: usize = 100_000;
    let mut inputs = vec![
        "[".repeat(LEVELS).into_bytes(),
        "{".repeat(LEVELS).into_bytes(),
        "(".repeat(LEVELS).into_bytes(),
    ];
    match language {
        Language::Markdown => {
            inputs.push(format!("{}# heading\n", "> ".repeat(LEVELS)).into_bytes());
            inputs.push(format!("{}item\n", "- ".repeat(LEVELS)).into_bytes());
            inputs.push(
                (0..LEVELS / 50)
                    .map(|i| format!("{}- item\n", "  ".repeat(i)))
                    .collect::<String>()
                    .into_bytes(),
            );
        }
        Language::Rust => {
            inputs.push(format!("{}{}", "mod a {".repeat(LEVELS), "}".repeat(LEVELS)).into_bytes())
        }
        Language::JavaScript => inputs
            .push(format!("{}{}", "function f(){".repeat(LEVELS), "}".repeat(LEVELS)).into_bytes()),
        _ => {}
    }
    inputs
}

#[test]
fn deep_nesting_neither_overflows_the_stack_nor_hangs() {
    // One thread per language, all at once (the test's longest), each of the default size
    // (2 MiB), as agentread's own threads are.
    let workers: Vec<_> = LANGUAGES
        .iter()
        .map(|&language| {
            thread::Builder::new()
                .spawn(move || {
                    for source in deep_inputs(language) {
                        let started = Instant::now();
                        let result =
                            outline(language, &source, Duration::from_secs(60), Cores::Spare);
                        let took = started.elapsed();
                        let symbols = result.expect("an outline within the budget");
                        assert_well_formed(&symbols, &source);
                        // Generous for unoptimised test builds on a busy machine.
                        assert!(took < Duration::from_secs(30), "{language:?} took {took:?}");
                    }
                })
                .expect("a thread")
        })
        .collect();
    for worker in workers {
        worker.join().expect("no panic, no overflow");
    }
}

#[test]
fn nesting_beyond_the_listed_depth_is_not_listed() {
    let source = format!("{}{}", "mod a {".repeat(1000), "}".repeat(1000));
    let symbols = outline(
        Language::Rust,
        source.as_bytes(),
        Duration::from_secs(60),
        Cores::Spare,
    )
    .unwrap();
    assert_eq!(symbols.len(), 64);
    assert_eq!(symbols[63].depth, 63);
}

#[test]
fn the_budget_is_kept() {
    let source = "fn f() { let x = [1, 2, 3]; }\n".repeat(200_000);
    let started = Instant::now();
    let result = outline(
        Language::Rust,
        source.as_bytes(),
        Duration::from_millis(5),
        Cores::Spare,
    );
    assert_eq!(result, Err(OutlineError::Timeout));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

/// Dense minified JavaScript makes a tree of ~70 bytes a byte: past the memory a parse
/// may hold it is given up (SPEC §15 "Bounds"), whatever time is left; a smaller one of
/// the same shape is read.
#[test]
fn a_tree_past_its_memory_is_given_up() {
    let unit = "function a(b,c){var d=b+c;return d>1?{x:d,y:function(){return b}}:[c,b]}\
                var o={m:function(q){return q*2},n(r){return r}};";
    let dense = unit.repeat(4 << 20 >> 7);
    let result = outline(
        Language::JavaScript,
        dense.as_bytes(),
        Duration::from_secs(600),
        Cores::Spare,
    );
    assert_eq!(result, Err(OutlineError::Memory));
    let small = unit.repeat(2_000);
    let symbols = outline(
        Language::JavaScript,
        small.as_bytes(),
        Duration::from_secs(600),
        Cores::Spare,
    )
    .unwrap();
    assert_eq!(symbols.len(), 2_000 * 3, "{:?}", &symbols[..3]);
}

#[test]
fn macro_blanking_stays_linear_on_hostile_lines() {
    // One 4 MiB line of `) A(((…` and 2 MiB of lone macro lines between comments, and
    // nested `#if` groups that split braces: each is read in well under the budget.
    let open = ") A((((((((".repeat(400_000);
    let lines = "A\n//\nB(x)\n".repeat(200_000);
    let groups = "#if X\n{\n#else\n}\n#endif\n".repeat(100_000);
    let comments = format!("f(x)\n{}", "// c\n".repeat(1_000_000));
    // A directive continued over 200,000 lines that each start with `#` (each was taken
    // for a directive of its own and scanned to the end: 33 s for half as many).
    let continued = format!("#define X \\\n{}\n", "# y /* c */ \\\n".repeat(200_000));
    for source in [open, lines, groups, comments, continued] {
        let started = Instant::now();
        let blanked = super::super::macros::blanked(source.as_bytes());
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        // Every line end stays where it was.
        if let Some(blanked) = blanked {
            assert_eq!(blanked.len(), source.len());
            assert!(
                blanked
                    .iter()
                    .zip(source.as_bytes())
                    .all(|(a, b)| (*a == b'\n') == (*b == b'\n'))
            );
        }
    }
    // The parse of what is left still keeps its budget.
    let started = Instant::now();
    let source = ") A((((((((".repeat(400_000);
    let _ = outline(
        Language::Cpp,
        source.as_bytes(),
        Duration::from_millis(200),
        Cores::Spare,
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}
