//! `outline`: a file's symbols, by the language's grammar or, for Markdown, its headings.

use std::sync::atomic::AtomicU64;
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

/// [`outline`] of a file parsed on two cores when it is worth it: a file of one piece
/// and at least [`SPLIT_BYTES`] is cut in two at the first cut after its middle (see
/// `pieces`), and the halves are parsed at once, sharing the time budget. When either
/// half has a syntax error, the file is parsed as [`outline`] parses it. A directory's
/// map parses files on every core already, and calls [`outline`].
pub fn outline_split(
    language: Language,
    source: &[u8],
    budget: Duration,
) -> Result<Vec<Symbol>, OutlineError> {
    let split = std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
    let split_bytes = if split { SPLIT_BYTES } else { usize::MAX };
    outline_with(language, source, budget, pieces::PIECE_BYTES, split_bytes)
}

/// A file is parsed in two halves from this size (a thread costs tens of microseconds,
/// a parse of this many bytes a few milliseconds).
const SPLIT_BYTES: usize = 32 << 10;

/// [`outline`], with pieces of at least `piece_bytes` (tests make them tiny, to show
/// that cutting changes nothing).
pub(super) fn outline_in_pieces(
    language: Language,
    source: &[u8],
    budget: Duration,
    piece_bytes: usize,
) -> Result<Vec<Symbol>, OutlineError> {
    outline_with(language, source, budget, piece_bytes, usize::MAX)
}

/// [`outline_in_pieces`], parsed in two halves on two threads when the file is one
/// piece of at least `split_bytes`.
pub(super) fn outline_with(
    language: Language,
    source: &[u8],
    budget: Duration,
    piece_bytes: usize,
    split_bytes: usize,
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
        Some(grammar) if splits(language, source.len(), piece_bytes, split_bytes) => {
            halves(language, &grammar, source, deadline, &mut out)?
        }
        Some(grammar) => code(language, &grammar, source, deadline, piece_bytes, &mut out)?,
    }
    let mut symbols = out.symbols;
    settle(&mut symbols);
    Ok(symbols)
}

/// Whether a file of `len` bytes is parsed in two halves. Not C or C++: nearly every
/// half of a real file has a syntax error there (a macro tree-sitter cannot know), and
/// such a file is parsed whole after its halves (67 of 68 files of 32 KiB to 1 MiB in
/// jq and libstdc++; 6 of 270 in other languages).
fn splits(language: Language, len: usize, piece_bytes: usize, split_bytes: usize) -> bool {
    !matches!(language, Language::C | Language::Cpp) && len >= split_bytes && len <= piece_bytes
}

/// Collects the symbols of a source file of one piece, its two halves parsed at once:
/// two halves without a syntax error, cut where a top-level definition starts, are what
/// parsing the file whole gives. Otherwise [`code`] parses it whole.
fn halves(
    language: Language,
    grammar: &tree_sitter::Language,
    source: &[u8],
    deadline: Deadline<'_>,
    out: &mut Collected,
) -> Result<(), OutlineError> {
    let cut = pieces::piece_end(source, 0, (source.len() / 2).max(1), language);
    if cut == 0 || cut >= source.len() {
        return code(language, grammar, source, deadline, usize::MAX, out);
    }
    let (first_spent, second_spent) = (AtomicU64::new(0), AtomicU64::new(0));
    let deadline = deadline.share(&first_spent, &second_spent);
    let (first, second) = std::thread::scope(|scope| {
        let second = scope.spawn(|| {
            let deadline = deadline.on_other_thread(&second_spent, &first_spent);
            let mut parser = parse::parser(grammar)?;
            parse::parse(&mut parser, &source[cut..], deadline)
        });
        let first = parse::parser(grammar)
            .and_then(|mut parser| parse::parse(&mut parser, &source[..cut], deadline));
        let second = second.join().unwrap_or(Err(OutlineError::Unparsable));
        (first, second)
    });
    let (first, second) = (first?, second?);
    // A syntax error in either half: tree-sitter's recovery in the whole file could reach
    // across the cut (it may fold the nodes before an error into it, or skip tokens past
    // it), so only the whole file's parse is the answer.
    if first.root_node().has_error() || second.root_node().has_error() {
        drop((first, second));
        return code(language, grammar, source, deadline, usize::MAX, out);
    }
    let rules = Rules::new(language, grammar);
    let separator = language.separator();
    walk::symbols(
        &first,
        &source[..cut],
        cut,
        0,
        &rules,
        separator,
        deadline,
        out,
    )?;
    drop(first);
    let row = source[..cut].iter().filter(|&&b| b == b'\n').count();
    let from = Piece {
        start: cut,
        row,
        parsed: Some(second),
    };
    pieces_from(language, grammar, source, from, deadline, usize::MAX, out)
}

/// Where parsing in pieces starts: a byte and its row, and the tree of the piece that
/// starts there when it is parsed already.
struct Piece {
    start: usize,
    row: usize,
    parsed: Option<tree_sitter::Tree>,
}

/// Collects the symbols of a source file, parsing it piece by piece (see `pieces`).
fn code(
    language: Language,
    grammar: &tree_sitter::Language,
    source: &[u8],
    deadline: Deadline<'_>,
    piece_bytes: usize,
    out: &mut Collected,
) -> Result<(), OutlineError> {
    let from = Piece {
        start: 0,
        row: 0,
        parsed: None,
    };
    pieces_from(language, grammar, source, from, deadline, piece_bytes, out)
}

/// [`code`] from the piece `from`.
fn pieces_from(
    language: Language,
    grammar: &tree_sitter::Language,
    source: &[u8],
    from: Piece,
    deadline: Deadline<'_>,
    piece_bytes: usize,
    out: &mut Collected,
) -> Result<(), OutlineError> {
    let rules = Rules::new(language, grammar);
    let mut parser = parse::parser(grammar)?;
    let Piece {
        mut start,
        mut row,
        mut parsed,
    } = from;
    while start < source.len() {
        let mut end = pieces::piece_end(source, start, piece_bytes.max(1), language);
        let mut tree = match parsed.take() {
            Some(tree) => tree,
            None => parse::parse(&mut parser, &source[start..end], deadline)?,
        };
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
