//! Cutting a large file into pieces parsed one at a time, so that memory is bounded by
//! one piece's syntax tree (tree-sitter keeps about 40 bytes per byte of source) rather
//! than the whole file's. A cut comes only where a top-level definition can start: at
//! a line that starts at column 0 with a character that can begin one, right after a
//! blank line or a line that ends a top-level statement (`}` or `;` at column 0).
//!
//! A cut can still fall inside something (a namespace, a string, a header guard): the
//! piece's last top-level node is then broken. The piece is cut again before that
//! node, or, when nothing before it is whole (the piece lies inside one construct), the
//! rest of the file is parsed in one piece.

use tree_sitter::{Node, Tree};

use super::language::Language;
use super::rules::Rules;

/// A piece holds at least this many bytes, when the file has more.
pub(super) const PIECE_BYTES: usize = 1 << 20;

/// The end of the piece that starts at `start` and holds at least `want` bytes: the
/// first cut after that, or the end of the file.
pub(super) fn piece_end(source: &[u8], start: usize, want: usize, language: Language) -> usize {
    let Some(mut at) = start.checked_add(want).filter(|&at| at < source.len()) else {
        return source.len();
    };
    // The first line start at or after `at`.
    while source[at - 1] != b'\n' {
        at += 1;
        if at == source.len() {
            return at;
        }
    }
    let previous_start = source[..at - 1]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |newline| newline + 1);
    let mut previous = &source[previous_start..at - 1];
    while at < source.len() {
        let line_end = source[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(source.len(), |n| at + n);
        let line = &source[at..line_end];
        if ends_top_level(previous, language) && can_start(line, language) {
            return at;
        }
        previous = line;
        at = line_end + 1;
    }
    source.len()
}

/// Whether a line is blank, or at column 0 ends a top-level statement, so that what
/// follows it starts afresh. A comment, attribute or decorator line does not: it
/// belongs to what follows.
fn ends_top_level(line: &[u8], language: Language) -> bool {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let Some(&first) = line.first() else {
        return true;
    };
    if line.iter().all(u8::is_ascii_whitespace) {
        return true;
    }
    if first.is_ascii_whitespace() || matches!(first, b'/' | b'*' | b'#' | b'@') {
        return false;
    }
    let last = line.trim_ascii_end().last().copied().unwrap_or(b' ');
    match language {
        // A top-level Python line ends its statement unless it continues.
        Language::Python => {
            !matches!(first, b'"' | b'\'')
                && !matches!(last, b'\\' | b',' | b'(' | b'[' | b'{' | b':')
        }
        _ => matches!(last, b'}' | b';'),
    }
}

/// Whether a line can begin a top-level definition. Python's comments may sit at
/// column 0 inside a block, so there only definitions themselves count; elsewhere a
/// cut inside a block is caught by the broken end of the piece before it.
fn can_start(line: &[u8], language: Language) -> bool {
    match language {
        Language::Python => {
            line.starts_with(b"def ")
                || line.starts_with(b"class ")
                || line.starts_with(b"async def ")
                || line.starts_with(b"@")
        }
        _ => line.first().is_some_and(|&b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'#' | b'@' | b'/')
        }),
    }
}

/// Where a piece's tree can be used up to: all of it (`piece_len`) when its last
/// top-level node is whole; else the start of the line after the last whole top-level
/// node before the broken one (and before the comments and attributes above it);
/// `None` when there is no such node.
pub(super) fn usable_end(tree: &Tree, piece: &[u8], rules: &Rules) -> Option<usize> {
    let root = tree.root_node();
    let mut cursor = root.walk();
    let children: Vec<Node> = root.children(&mut cursor).collect();
    let Some((last, before)) = children.split_last() else {
        return Some(piece.len());
    };
    if !broken(*last) {
        return Some(piece.len());
    }
    let mut limit = last.start_byte();
    for node in before.iter().rev() {
        if rules.is_leading(*node) {
            limit = node.start_byte();
            continue;
        }
        if broken(*node) {
            return None;
        }
        // The line after the whole node, if it comes before what follows.
        let after = piece[node.end_byte()..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|n| node.end_byte() + n + 1)?;
        return (after <= limit && after > 0).then_some(after);
    }
    None
}

/// Whether a node is, or holds, a syntax error or a token the parser had to invent.
fn broken(node: Node) -> bool {
    node.is_error() || node.is_missing() || node.has_error()
}
