//! `outline`: a file's symbols, by the language's grammar or, for Markdown, its headings.

use std::ops::Range;
use std::time::Duration;

use super::collect::Collected;
use super::deadline::Deadline;
use super::language::Language;
use super::pieces::Usable;
use super::rules::Rules;
use super::symbol::{OutlineError, Symbol};
use super::{bodies, macros, markdown, parse, pieces, python_depth, rust_macros, walk};

/// The symbols of `source`, written in `language`, in the order they start, each nested
/// symbol right after its parent (pre-order). Parsing gives up after `budget` of CPU
/// time. `cores` says whether the parse may take a second one.
pub fn outline(
    language: Language,
    source: &[u8],
    budget: Duration,
    cores: Cores,
) -> Result<Vec<Symbol>, OutlineError> {
    outline_in_pieces(
        language,
        source,
        budget,
        (pieces::PIECE_BYTES, pieces::PIECE_BYTES),
        cores,
    )
}

/// Whether an outline may parse on a second thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cores {
    /// A file read alone: another core is likely idle.
    Spare,
    /// A file among many parsed at once (a map): every core is busy already.
    Busy,
}

/// From how many bytes a C++ file with blanked macros is tried without its bodies:
/// below, what a tree kept saves is less than what one thrown away costs.
const TRIED_FROM: usize = 128 << 10;

/// [`outline`], with pieces of at least `piece_bytes`, cut inside a construct only when
/// more than `inside_from` bytes remain (tests make both tiny, to show that cutting
/// changes nothing).
pub(super) fn outline_in_pieces(
    language: Language,
    source: &[u8],
    budget: Duration,
    (piece_bytes, inside_from): (usize, usize),
    cores: Cores,
) -> Result<Vec<Symbol>, OutlineError> {
    let deadline = Deadline::after(budget);
    let mut out = Collected::default();
    // C and C++ macro uses the grammar cannot know are blanked (see `macros`); Python
    // nested deeper than its scanner can follow is flattened (see `python_depth`).
    let blanked = match language {
        Language::C | Language::Cpp => macros::blanked(source),
        Language::Python => python_depth::flattened(source),
        _ => None,
    };
    // Bodies the parser passes over (see `bodies`), in a file parsed in one piece. C++
    // with macros to blank is likely to keep an error, and then a tree without its bodies
    // is not trusted: the file is parsed twice. A small one is parsed whole at once; a
    // big one is tried without its bodies first (libstdc++'s stl_algo.h: 28 against 9 ms
    // of CPU, though macro-heavy files such as gtest.h pay half as much again), or, with
    // a core spare, both ways at once (see `parse::either`). Either way the answer is
    // the same.
    let cpp_macros = language == Language::Cpp && blanked.is_some();
    let source = blanked.as_deref().unwrap_or(source);
    let one_piece = source.len() <= piece_bytes;
    let with_holes = one_piece && (!cpp_macros || source.len() >= TRIED_FROM);
    let either = cpp_macros && cores == Cores::Spare;
    let mut scanned = match with_holes || language == Language::Rust {
        true => bodies::scan(language, source),
        false => bodies::Scanned::default(),
    };
    // Rust items wrapped in a macro invocation are unwrapped (see `rust_macros`); the
    // invocations that are no wrappers are token trees, passed over too.
    let (wrappers, token_trees) = rust_macros::sorted(source, &scanned.macro_blocks);
    if with_holes {
        scanned.pass_over(&token_trees);
    }
    let passed_over = with_holes.then_some(&scanned);
    let pieces = Pieces {
        bytes: piece_bytes.max(1),
        inside_from,
    };
    match parse::grammar(language) {
        None => markdown::sections(source, deadline, piece_bytes, &mut out)?,
        Some(grammar) => {
            let passed_over = passed_over
                .map(|scanned| (scanned, if either { Try::Either } else { Try::InTurn }));
            let parse_as = |text: &[u8], passed_over, out: &mut Collected| {
                code(language, &grammar, text, passed_over, deadline, pieces, out)
            };
            let parse = |text: &[u8], out: &mut Collected| parse_as(text, passed_over, out);
            if wrappers.is_empty() {
                let health = parse(source, &mut out)?;
                // A small C++ file with macros, parsed whole at once, whose tree has an
                // error over many lines: the error may start in a body (a macro that
                // takes a declaration, `ABSL_ASSIGN_OR_RETURN(int v, f())`), and the
                // recovery may have taken the definitions after it. The tree without
                // the bodies is tried then, and kept when its braces pair and it has
                // no such error of its own. Only such files pay for the second parse
                // (5 % of the bytes of abseil, googletest, leveldb and fmt), and it
                // leaves the bodies out: a cold map of abseil took no measurable time
                // more, where retrying every file with an error took a quarter more.
                if health == Some(Health::Swallowing) && cpp_macros && one_piece && !with_holes {
                    let scanned = bodies::scan(language, source);
                    let mut tried = Collected::default();
                    let only = Some((&scanned, Try::Only));
                    // With nothing to leave out, `code` would parse the whole again.
                    if !scanned.left_out().is_empty()
                        && parse_as(source, only, &mut tried)?.is_some()
                    {
                        out = tried;
                    }
                }
            } else {
                // Every wrapper unwrapped, in one parse (of a file in one piece); if a
                // tree has an error, each wrapper checked and the file parsed again.
                let all = one_piece
                    && parse(&rust_macros::unwrapped_all(source, &wrappers), &mut out)?
                        == Some(Health::Clean);
                if !all {
                    out = Collected::default();
                    let checked = rust_macros::unwrapped_checked(source, &wrappers, deadline)?;
                    parse(checked.as_deref().unwrap_or(source), &mut out)?;
                }
            }
        }
    }
    let mut symbols = out.symbols;
    settle(&mut symbols);
    Ok(symbols)
}

/// How a file in one piece is parsed without its bodies.
#[derive(Clone, Copy)]
enum Try {
    /// Without them, and whole when that tree is not kept.
    InTurn,
    /// Both ways at once, on two threads (see `parse::either`).
    Either,
    /// Without them only: when that tree is not kept, nothing is collected and the
    /// answer is `None`.
    Only,
}

/// What the trees of a file held.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Health {
    /// No syntax error.
    Clean,
    /// Errors, none over many lines.
    Errors,
    /// An error over at least [`SWALLOWING_LINES`] lines (looked for in a C++ tree
    /// parsed whole only, the one tree tried again for it).
    Swallowing,
}

/// How many lines an error must span to be taken for one that swallowed definitions:
/// recovery from a macro the grammar misreads usually skips a line or two, and one that
/// skips more has likely taken whole functions into the error.
const SWALLOWING_LINES: usize = 10;

/// Whether `tree` holds an error over at least [`SWALLOWING_LINES`] lines, in the file
/// or inside a body whose recovery took what follows it. Only nodes that hold an error
/// and span as many lines are entered, so the walk stays on a few big nodes.
fn swallowing(tree: &tree_sitter::Tree) -> bool {
    let lines = |node: &tree_sitter::Node| node.end_position().row - node.start_position().row;
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.is_error() {
            return true;
        }
        let mut cursor = node.walk();
        let children = node.children(&mut cursor);
        stack.extend(children.filter(|c| c.has_error() && lines(c) >= SWALLOWING_LINES));
    }
    false
}

/// How a file is cut into pieces.
#[derive(Clone, Copy)]
struct Pieces {
    /// A piece holds at least this many bytes.
    bytes: usize,
    /// A piece is cut inside a construct only when more than this many bytes remain.
    inside_from: usize,
}

/// From how many bytes of source a tree is freed on a thread of its own.
const RELEASE_APART_FROM: usize = 64 << 10;

/// Frees the tree parsed from `bytes` bytes. Freeing a big tree takes milliseconds (a
/// seventh of a 740 KB Python module's outline): it is done on another thread, while this
/// one walks the next piece or answers, and the process may end first. Were the thread
/// refused, the tree is freed here, as the closure that holds it is dropped.
fn release(tree: tree_sitter::Tree, bytes: usize) {
    if bytes < RELEASE_APART_FROM {
        return drop(tree);
    }
    let _ = std::thread::Builder::new()
        .name("release".into())
        .spawn(move || drop(tree));
}

/// Collects the symbols of a source file, parsing it piece by piece (see `pieces`), or
/// in one piece without what `passed_over` holds, as its [`Try`] says: what the trees
/// held (`None`: with [`Try::Only`], nothing was collected).
fn code(
    language: Language,
    grammar: &tree_sitter::Language,
    source: &[u8],
    passed_over: Option<(&bodies::Scanned, Try)>,
    deadline: Deadline,
    cut: Pieces,
    out: &mut Collected,
) -> Result<Option<Health>, OutlineError> {
    let rules = Rules::of(language, grammar);
    let separator = language.separator();
    let mut parser = parse::parser(language, grammar)?;
    // Charged with what a parse on another thread took (see `parse::either`).
    let mut deadline = deadline;
    let mut start = 0;
    // The bytes that open the constructs still open at `start`, and their symbols.
    let mut header: Vec<Range<usize>> = Vec::new();
    let mut resume: Vec<walk::Open> = Vec::new();
    let mut health = Health::Clean;
    let left_out = passed_over
        .map(|(scanned, _)| scanned.left_out())
        .unwrap_or_default();
    while start < source.len() {
        let inside = source.len() - start > cut.inside_from;
        let end = pieces::piece_end(source, start, cut.bytes, language, inside);
        let mut seen = header.clone();
        seen.push(start..end);
        // Past the file's end, what closes the constructs left open (see `pieces`).
        let closers = match inside && end < source.len() {
            true => pieces::closers(source, &seen, language),
            false => Vec::new(),
        };
        // What the tree was parsed without.
        let mut without = None;
        let tree = match (passed_over, start == 0 && end == source.len()) {
            (Some((scanned, at_once)), true) if !left_out.is_empty() => {
                let around = bodies::around(0..end, &left_out);
                let ranges = (around.as_slice(), seen.as_slice());
                // A tree that an error makes untrusted is given up at its first one; one
                // whose braces do not pair (the scan misread the file) is not kept either.
                let keep =
                    |tree: &tree_sitter::Tree| bodies::trusted(language, tree, &scanned.holes);
                let kept_if = (bodies::errors_untrusted(language), keep);
                let (tree, kept) = match at_once {
                    // Without the bodies or not at all: nothing is collected. This tree
                    // is tried in place of one with an error over many lines, so an
                    // error of a line or two does not stop it (tree-sitter's C++ has no
                    // `= {}` default argument, for one), but one over many lines does.
                    Try::Only => {
                        let kept_if = (false, |tree: &tree_sitter::Tree| {
                            bodies::braces_kept(tree, &scanned.holes) && !swallowing(tree)
                        });
                        match parse::trial(
                            &mut parser,
                            source,
                            ranges.0,
                            &closers,
                            deadline,
                            kept_if,
                        )? {
                            Some(tree) => (tree, true),
                            None => return Ok(None),
                        }
                    }
                    Try::Either => parse::either(
                        &mut parser,
                        source,
                        ranges,
                        &closers,
                        &mut deadline,
                        kept_if,
                    )?,
                    Try::InTurn => {
                        parse::in_turn(&mut parser, source, ranges, &closers, deadline, kept_if)?
                    }
                };
                without = kept.then_some(scanned);
                tree
            }
            _ => parse::parse(&mut parser, source, &seen, &closers, deadline)?,
        };
        let usable = pieces::usable(&tree, source, start, end, &seen, rules, language, inside);
        let (tree, to, next_header, open) = match usable {
            Some(Usable::To(to)) => (tree, to, Vec::new(), Vec::new()),
            Some(Usable::Inside { to, header, open }) => (tree, to, header, open),
            None => {
                // The piece lies inside one construct: parse the rest whole.
                drop(tree);
                seen.pop();
                seen.push(start..source.len());
                let tree = parse::parse(&mut parser, source, &seen, &[], deadline)?;
                (tree, source.len(), Vec::new(), Vec::new())
            }
        };
        if tree.root_node().has_error() {
            // Only a C++ tree parsed whole is tried again (see `outline_in_pieces`).
            let asked = language == Language::Cpp && passed_over.is_none();
            health = match health == Health::Swallowing || (asked && swallowing(&tree)) {
                true => Health::Swallowing,
                false => Health::Errors,
            };
        }
        let reaching = walk::symbols(
            &tree,
            (source, without),
            (start, to),
            &resume,
            &open,
            rules,
            separator,
            deadline,
            out,
        )?;
        release(tree, to - start);
        resume = match next_header.is_empty() {
            true => Vec::new(),
            false => reaching,
        };
        header = next_header;
        start = to;
    }
    Ok(Some(health))
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
