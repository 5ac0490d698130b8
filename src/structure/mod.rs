//! Reading by structure (SPEC §15): the symbols of a source file, found with
//! tree-sitter grammars (pulldown-cmark for Markdown headings), how a caller's query
//! picks one of them, and the indentation block around a line for other files.
//!
//! The parts: `language` (which language a file is), `pieces` (a large file cut where
//! top-level definitions start, to bound memory), `parse` (a grammar run within a time
//! budget), `rules` (per language, which nodes define what), `walk` (one iterative
//! pass over a tree into symbols), `collect` (the bounded list they go to), `markdown`
//! (sections), `python_depth` (Python nested past what its scanner keeps), `outline`
//! (the entry that ties them), `memory` (what a parse may hold), `find` and `distance`
//! (queries), `indent` (blocks by indentation), `signatures` and `comments` (what the
//! signatures view leaves out).

mod bodies;
mod collect;
mod comments;
mod deadline;
mod def;
mod distance;
mod find;
mod indent;
mod language;
mod macros;
mod markdown;
mod markdown_pieces;
mod memory;
mod outline;
mod parse;
mod pieces;
mod python_bodies;
mod python_depth;
mod rules;
mod rust_macros;
mod signatures;
mod symbol;
mod walk;

#[cfg(test)]
mod tests;

pub use comments::{CommentRun, comment_runs};
pub use find::{Lookup, find};
pub use indent::indentation_block;
pub use language::{KNOWN_LANGUAGES, Language};
pub use memory::long_lived;
pub use outline::{Cores, outline};
pub use signatures::{Elision, Part, elisions};
pub use symbol::{Body, OutlineError, Symbol, kind_named};

/// Where the line that holds byte `at` of `text` starts.
fn line_start(text: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &text[..at]).map_or(0, |newline| newline + 1)
}

/// The first and last rows of each of `ranges` (sorted and apart) of `text`, counted in
/// one pass.
fn rows<'r>(
    text: &[u8],
    ranges: impl IntoIterator<Item = &'r std::ops::Range<usize>>,
) -> Vec<(usize, usize)> {
    let newlines = |from: usize, to: usize| memchr::memchr_iter(b'\n', &text[from..to]).count();
    let (mut row, mut counted) = (0, 0);
    ranges
        .into_iter()
        .map(|range| {
            row += newlines(counted, range.start);
            let first = row;
            row += newlines(range.start, range.end);
            counted = range.end;
            (first, row)
        })
        .collect()
}

/// Where the line that holds byte `at` of `text` ends: its newline, else the text's end.
fn line_end(text: &[u8], at: usize) -> usize {
    memchr::memchr(b'\n', &text[at..]).map_or(text.len(), |n| at + n)
}
