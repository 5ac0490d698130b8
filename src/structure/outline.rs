//! `outline`: a file's symbols, by the language's grammar or, for Markdown, its headings.

use std::time::Duration;

use super::collect::Collected;
use super::deadline::Deadline;
use super::language::Language;
use super::rules::Rules;
use super::symbol::{OutlineError, Symbol};
use super::{macros, markdown, parse, pieces, walk};

/// The symbols of `source`, written in `language`, in the order they start, each nested
/// symbol right after its parent (pre-order). Parsing gives up after `budget`.
pub fn outline(
    language: Language,
    source: &[u8],
    budget: Duration,
) -> Result<Vec<Symbol>, OutlineError> {
    outline_in_pieces(language, source, budget, pieces::PIECE_BYTES)
}

/// [`outline`], with pieces of at least `piece_bytes` (tests make them tiny, to show
/// that cutting changes nothing).
pub(super) fn outline_in_pieces(
    language: Language,
    source: &[u8],
    budget: Duration,
    piece_bytes: usize,
) -> Result<Vec<Symbol>, OutlineError> {
    let deadline = Deadline::after(budget);
    let mut out = Collected::default();
    // C and C++ macro uses the grammar cannot know are blanked (see `macros`).
    let blanked = match language {
        Language::C | Language::Cpp => macros::blanked(source),
        _ => None,
    };
    let source = blanked.as_deref().unwrap_or(source);
    match parse::grammar(language) {
        None => markdown::sections(source, deadline, piece_bytes, &mut out)?,
        Some(grammar) => code(language, &grammar, source, deadline, piece_bytes, &mut out)?,
    }
    let mut symbols = out.symbols;
    settle(&mut symbols);
    Ok(symbols)
}

/// Collects the symbols of a source file, parsing it piece by piece (see `pieces`).
fn code(
    language: Language,
    grammar: &tree_sitter::Language,
    source: &[u8],
    deadline: Deadline,
    piece_bytes: usize,
    out: &mut Collected,
) -> Result<(), OutlineError> {
    let rules = Rules::new(language, grammar);
    let mut parser = parse::parser(grammar)?;
    let mut start = 0;
    let mut row = 0;
    while start < source.len() {
        let mut end = pieces::piece_end(source, start, piece_bytes.max(1), language);
        let mut tree = parse::parse(&mut parser, &source[start..end], deadline)?;
        let usable = match pieces::usable_end(&tree, &source[start..end], &rules) {
            Some(usable) => usable,
            None => {
                // The piece lies inside one construct: parse the rest whole.
                end = source.len();
                tree = parse::parse(&mut parser, &source[start..], deadline)?;
                end - start
            }
        };
        let piece = &source[start..end];
        let separator = language.separator();
        walk::symbols(&tree, piece, usable, row, &rules, separator, deadline, out)?;
        row += piece[..usable].iter().filter(|&&b| b == b'\n').count();
        start += usable;
    }
    Ok(())
}

/// Makes every symbol's lines lie within its parent's, and its definition line within
/// its own lines, whatever error recovery made of the tree: parents come first, so
/// each is settled before its children.
fn settle(symbols: &mut [Symbol]) {
    for index in 0..symbols.len() {
        let (start, end) = match symbols[index].parent {
            Some(parent) => (symbols[parent].start_line, symbols[parent].end_line),
            None => (1, u64::MAX),
        };
        let symbol = &mut symbols[index];
        symbol.start_line = symbol.start_line.clamp(start, end);
        symbol.end_line = symbol.end_line.clamp(symbol.start_line, end);
        symbol.def_line = symbol.def_line.clamp(symbol.start_line, symbol.end_line);
    }
}
