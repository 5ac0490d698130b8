//! Running a tree-sitter grammar over parts of a file within a time budget.

use std::ops::{ControlFlow, Range};

use tree_sitter::{ParseOptions, Parser, Point, Tree};

use super::deadline::Deadline;
use super::language::Language;
use super::symbol::OutlineError;

/// The tree-sitter grammar of a language; `None` for Markdown, which is read by
/// pulldown-cmark instead.
pub(super) fn grammar(language: Language) -> Option<tree_sitter::Language> {
    Some(match language {
        Language::Rust => tree_sitter_rust::LANGUAGE.into(),
        Language::Python => tree_sitter_python::LANGUAGE.into(),
        Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        Language::Go => tree_sitter_go::LANGUAGE.into(),
        Language::Java => tree_sitter_java::LANGUAGE.into(),
        Language::C => tree_sitter_c::LANGUAGE.into(),
        Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
        Language::Markdown => return None,
    })
}

/// A parser for `grammar`, made once for all the pieces of a file.
pub(super) fn parser(grammar: &tree_sitter::Language) -> Result<Parser, OutlineError> {
    let mut parser = Parser::new();
    parser
        .set_language(grammar)
        .map_err(|_| OutlineError::Unparsable)?;
    Ok(parser)
}

#[cfg(test)]
thread_local! {
    /// How many parses this thread has run, for the tests that count them.
    pub(super) static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Parses the bytes of `source` that `ranges` hold (sorted, apart; offsets and lines stay
/// the file's), then `closers` as if they followed the file's end, giving up at
/// `deadline`.
pub(super) fn parse(
    parser: &mut Parser,
    source: &[u8],
    ranges: &[Range<usize>],
    closers: &[u8],
    deadline: Deadline,
) -> Result<Tree, OutlineError> {
    parse_until(parser, source, ranges, closers, deadline, false)?.ok_or(OutlineError::Unparsable)
}

/// [`parse`], given up (None) as soon as the parser meets a syntax error: for a tree that
/// would be thrown away if it held one, so that error recovery is not paid for.
pub(super) fn parse_clean(
    parser: &mut Parser,
    source: &[u8],
    ranges: &[Range<usize>],
    closers: &[u8],
    deadline: Deadline,
) -> Result<Option<Tree>, OutlineError> {
    parse_until(parser, source, ranges, closers, deadline, true)
}

fn parse_until(
    parser: &mut Parser,
    source: &[u8],
    ranges: &[Range<usize>],
    closers: &[u8],
    deadline: Deadline,
    stop_at_error: bool,
) -> Result<Option<Tree>, OutlineError> {
    #[cfg(test)]
    PARSES.set(PARSES.get() + 1);
    let mut included = included(source, ranges);
    if !closers.is_empty() {
        let after = included.last().map_or(Point::new(0, 0), |r| r.end_point);
        let rows = memchr::memchr_iter(b'\n', closers).count();
        included.push(tree_sitter::Range {
            start_byte: source.len(),
            start_point: after,
            end_byte: source.len() + closers.len(),
            end_point: Point::new(after.row + rows, 0),
        });
    }
    parser
        .set_included_ranges(&included)
        .map_err(|_| OutlineError::Unparsable)?;
    let mut timed_out = false;
    let mut erred = false;
    let mut calls = 0u32;
    // tree-sitter calls this every hundred steps; breaking makes it return None. The
    // clock is a system call, so it is read at every 16th call only. Where an error is
    // met is the input's alone, so giving up there answers the same on every run.
    let mut check = |state: &tree_sitter::ParseState| {
        calls = calls.wrapping_add(1);
        if stop_at_error && state.has_error() {
            erred = true;
            ControlFlow::Break(())
        } else if calls.is_multiple_of(16) && deadline.passed() {
            timed_out = true;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = ParseOptions::new().progress_callback(&mut check);
    let len = source.len();
    // The callback form hands tree-sitter the whole rest of the file at each offset,
    // as `Parser::parse` does for a slice.
    let tree = parser.parse_with_options(
        &mut |offset, _| match offset < len {
            true => &source[offset..],
            false => &closers[(offset - len).min(closers.len())..],
        },
        None,
        Some(options),
    );
    match tree {
        // An error met in the last hundred steps has not called back yet.
        Some(tree) if stop_at_error && tree.root_node().has_error() => Ok(None),
        Some(tree) => Ok(Some(tree)),
        None if timed_out => Err(OutlineError::Timeout),
        None if erred => Ok(None),
        None => Err(OutlineError::Unparsable),
    }
}

/// tree-sitter's ranges for byte ranges of `source`, with their points: rows counted in
/// one pass over the file up to the last range.
fn included(source: &[u8], ranges: &[Range<usize>]) -> Vec<tree_sitter::Range> {
    let mut row = 0;
    let mut line_start = 0;
    let mut counted = 0;
    let mut point = |at: usize| {
        for newline in memchr::memchr_iter(b'\n', &source[counted..at]) {
            row += 1;
            line_start = counted + newline + 1;
        }
        counted = at;
        Point::new(row, at - line_start)
    };
    ranges
        .iter()
        .filter(|range| range.start < range.end)
        .map(|range| tree_sitter::Range {
            start_byte: range.start,
            start_point: point(range.start),
            end_byte: range.end,
            end_point: point(range.end),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_parse_gives_up_at_an_error_and_answers_the_same_every_time() {
        let grammar = grammar(Language::Cpp).unwrap();
        let mut parser = parser(&grammar).unwrap();
        let deadline = Deadline::after(std::time::Duration::from_secs(10));
        let clean = "int f() { return 1; }\n".repeat(200);
        let broken = format!("{clean}int g( {{ @@ }}\n{clean}");
        for _ in 0..3 {
            let whole = |s: &str| std::slice::from_ref(&(0..s.len())).to_vec();
            let ok = parse_clean(&mut parser, clean.as_bytes(), &whole(&clean), &[], deadline);
            assert!(ok.unwrap().is_some_and(|t| !t.root_node().has_error()));
            let erred = parse_clean(
                &mut parser,
                broken.as_bytes(),
                &whole(&broken),
                &[],
                deadline,
            );
            assert!(erred.unwrap().is_none());
        }
        let whole = std::slice::from_ref(&(0..broken.len())).to_vec();
        assert!(
            parse(&mut parser, broken.as_bytes(), &whole, &[], deadline)
                .is_ok_and(|t| t.root_node().has_error())
        );
    }
}
