//! Helpers shared by the tests: an outline as compact rows to compare with hand-checked
//! expectations.

use std::time::Duration;

use super::super::{Cores, Language, Symbol, outline};

/// The outline of `source` (less one leading line end, so that a fixture's first line
/// can sit on the line after its opening quote), which must parse in time.
pub fn symbols(language: Language, source: &str) -> Vec<Symbol> {
    let source = source.strip_prefix('\n').unwrap_or(source);
    outline(
        language,
        source.as_bytes(),
        Duration::from_secs(10),
        Cores::Spare,
    )
    .expect("an outline")
}

/// The qualified names of the outline of `source`, in order.
pub fn names(language: Language, source: &str) -> Vec<String> {
    symbols(language, source)
        .into_iter()
        .map(|s| s.qualified_name)
        .collect()
}

/// A row as the tests write it.
pub type Row = (&'static str, &'static str, u64, u64, u64, u32);

/// Asserts that the outline of `source` is `expected`, row by row.
#[track_caller]
pub fn check(language: Language, source: &str, expected: &[Row]) {
    let got = rows(language, source);
    let got: Vec<(&str, &str, u64, u64, u64, u32)> = got
        .iter()
        .map(|(q, k, s, d, e, depth)| (q.as_str(), *k, *s, *d, *e, *depth))
        .collect();
    assert_eq!(got, expected, "outline of {language:?}");
}

/// Each symbol as `(qualified_name, kind, start, def, end, depth)`.
pub fn rows(language: Language, source: &str) -> Vec<(String, &'static str, u64, u64, u64, u32)> {
    symbols(language, source)
        .into_iter()
        .map(|s| {
            (
                s.qualified_name,
                s.kind,
                s.start_line,
                s.def_line,
                s.end_line,
                s.depth,
            )
        })
        .collect()
}
