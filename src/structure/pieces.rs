//! Cutting a large file into pieces parsed one at a time, so that memory is bounded by
//! one piece's syntax tree (tree-sitter keeps about 40 bytes per byte of source) rather
//! than the whole file's. A cut comes only where a top-level definition can start: at
//! a line that starts at column 0 with a character that can begin one, right after a
//! blank line or a line that ends a top-level statement (`}` or `;` at column 0).
//!
//! A cut can still fall inside something (a namespace, a string, a header guard): the
//! piece's last top-level node is then broken. The piece is cut again before that
//! node, or, when nothing before it is whole (the piece lies inside one construct, such
//! as one function of 8 MiB of statements or one array literal), inside that construct:
//! at the line after the last whole child of the deepest construct left open, and the
//! next piece is parsed after a *header*, the bytes that open those constructs (`fn
//! main() {`, `const data = [`), as tree-sitter's included ranges, so that its nodes keep
//! their places in the file. Failing that, the rest of the file is parsed in one piece.
//!
//! All offsets here are the file's.

use std::ops::Range;

use tree_sitter::{Node, Tree};

use super::language::Language;
use super::line_start;
use super::rules::Rules;

/// A piece holds at least this many bytes, when the file has more.
pub(super) const PIECE_BYTES: usize = 1 << 20;

/// The end of the piece that starts at `start` and holds at least `want` bytes: the
/// first cut after that, else (with `inside`, when there is none within `want` more
/// bytes: the piece lies inside one construct) the first line start after `want` bytes,
/// or the end of the file.
pub(super) fn piece_end(
    source: &[u8],
    start: usize,
    want: usize,
    language: Language,
    inside: bool,
) -> usize {
    let Some(mut at) = start.checked_add(want).filter(|&at| at < source.len()) else {
        return source.len();
    };
    let give_up = match inside {
        true => at.saturating_add(want),
        false => usize::MAX,
    };
    // The first line start at or after `at`.
    while source[at - 1] != b'\n' {
        at += 1;
        if at == source.len() {
            return at;
        }
    }
    let previous_start = line_start(source, at - 1);
    let mut previous = &source[previous_start..at - 1];
    let first_line_start = at;
    while at < source.len() {
        if at > give_up {
            return first_line_start;
        }
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

/// How much of a piece's tree can be used.
#[derive(Debug)]
pub(super) enum Usable {
    /// Up to this byte: the piece's end, or the line after its last whole top-level node.
    To(usize),
    /// Up to this line start, inside constructs still open there: the next piece is parsed
    /// after `header`, the bytes that open them; `open` names their nodes (start, kind).
    Inside {
        to: usize,
        header: Vec<Range<usize>>,
        open: Vec<(usize, u16)>,
    },
}

/// Open constructs nested deeper than this are not followed into (the rest is parsed
/// whole).
const MAX_PATH: usize = 256;

/// Where the tree of the piece `start..end` (parsed from `seen`: a header, then the
/// piece, then [`closers`] past the file's end) can be used up to: all of it when its
/// last top-level node is whole and closed within it; else the line after the last whole
/// top-level node before the broken one (and before the comments and attributes above
/// it); else, when `inside` allows it and constructs are still open at the piece's end,
/// a line inside them (see [`Usable::Inside`]); `None` when there is no such place.
#[allow(clippy::too_many_arguments)]
pub(super) fn usable(
    tree: &Tree,
    source: &[u8],
    start: usize,
    end: usize,
    seen: &[Range<usize>],
    rules: &Rules,
    language: Language,
    inside: bool,
) -> Option<Usable> {
    // A piece that reaches the file's end is the file's last: nothing after it can change
    // its tree, which is the one a parse of the rest would give again.
    if end >= source.len() {
        return Some(Usable::To(source.len()));
    }
    let root = tree.root_node();
    let mut cursor = root.walk();
    let children: Vec<Node> = root.children(&mut cursor).collect();
    let Some((last, before)) = children.split_last() else {
        return Some(Usable::To(end));
    };
    // Constructs open at the piece's end: those the closers close, or in Python those
    // the next line is indented into.
    let path = match language {
        Language::Python => indented_path(*last, source, end),
        _ => closed_path(*last, end),
    };
    if path.is_empty() {
        if !broken(*last) && !rules.is_leading(*last) {
            return Some(Usable::To(end));
        }
        // A broken node, or comments and attributes that belong to what follows.
        return line_after_whole(before, last.start_byte(), source, start, rules).map(Usable::To);
    }
    if !inside {
        // Only whole top-level nodes, then.
        return line_after_whole(before, last.start_byte(), source, start, rules).map(Usable::To);
    }
    // The deepest open construct with whole children to cut after.
    for depth in (0..path.len()).rev() {
        let node = path[depth];
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        // Its children before the next open one (or its closer), or all of them.
        let next = path.get(depth + 1).map(|n| n.start_byte());
        let at = children
            .iter()
            .position(|child| {
                Some(child.start_byte()) == next || child.end_byte() > end || broken(*child)
            })
            .unwrap_or(children.len());
        let limit = children
            .get(at)
            .map_or(end, |child| child.start_byte().min(end));
        let Some(to) =
            line_after_whole(&children[..at], limit, source, start, rules).or_else(|| {
                (at == children.len() && at > 0 && whole_to(&children, end)).then_some(end)
            })
        else {
            continue;
        };
        // Too little of the piece used: not worth another header.
        if to - start < (end - start) / 4 {
            continue;
        }
        let header = header(&path[..=depth], to, source, seen);
        let open = path[..=depth]
            .iter()
            .map(|n| (n.start_byte(), n.kind_id()))
            .collect();
        return Some(Usable::Inside { to, header, open });
    }
    line_after_whole(before, last.start_byte(), source, start, rules).map(Usable::To)
}

/// Whether `children` are all whole and end before `end`.
fn whole_to(children: &[Node], end: usize) -> bool {
    children.iter().all(|c| !broken(*c) && c.end_byte() <= end)
}

/// The nodes from `last` down that reach past `end` (into the closers), outermost first.
fn closed_path(last: Node<'_>, end: usize) -> Vec<Node<'_>> {
    let mut path = Vec::new();
    let mut node = last;
    while node.end_byte() > end && node.child_count() > 0 && path.len() < MAX_PATH {
        path.push(node);
        let mut cursor = node.walk();
        let Some(child) = node
            .children(&mut cursor)
            .find(|child| child.end_byte() > end && child.start_byte() < end)
        else {
            break;
        };
        node = child;
    }
    path
}

/// Python: when the line at `end` is indented, the nodes from `last` down along last
/// children that start left of that indentation, and the block they end with.
fn indented_path<'t>(last: Node<'t>, source: &[u8], end: usize) -> Vec<Node<'t>> {
    // The first line from `end` on that holds code.
    let mut at = end;
    let indent = loop {
        if at >= source.len() {
            return Vec::new();
        }
        let line_end = memchr::memchr(b'\n', &source[at..]).map_or(source.len(), |n| at + n);
        let line = &source[at..line_end];
        let width = line
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        match line.get(width) {
            None | Some(b'\r') | Some(b'#') => at = line_end + 1,
            Some(_) => break width,
        }
    };
    if indent == 0 {
        return Vec::new();
    }
    let mut path = Vec::new();
    let mut node = last;
    loop {
        path.push(node);
        if node.start_position().column >= indent || path.len() >= MAX_PATH {
            break;
        }
        let count = node.child_count();
        let Some(child) = (count > 0).then(|| node.child(count - 1)).flatten() else {
            break;
        };
        if child.child_count() == 0 {
            break;
        }
        node = child;
    }
    path
}

/// The bytes that close what is open at the end of `seen` (a header and a piece), for a
/// language with brackets: the open string or comment, then the brackets in reverse, on a
/// line of their own. A rough lexer (strings, characters, comments, brackets): enough for
/// the piece to parse as whole constructs. Python needs none (its blocks end at the end).
pub(super) fn closers(source: &[u8], seen: &[Range<usize>], language: Language) -> Vec<u8> {
    if language == Language::Python {
        return Vec::new();
    }
    let backtick = matches!(
        language,
        Language::JavaScript | Language::TypeScript | Language::Tsx | Language::Go
    );
    let mut stack: Vec<u8> = Vec::new();
    // The open string's quote, or `*` for a block comment.
    let mut open: Option<u8> = None;
    for range in seen {
        let bytes = &source[range.start..range.end];
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            match open {
                Some(b'*') => {
                    if b == b'*' && bytes.get(i + 1) == Some(&b'/') {
                        open = None;
                        i += 1;
                    }
                }
                Some(quote) => {
                    // Go's raw strings (`` ` ``) have no escapes.
                    let raw = quote == b'`' && language == Language::Go;
                    if b == b'\\' && !raw {
                        i += 1;
                    } else if b == quote {
                        open = None;
                    }
                }
                None => match b {
                    b'/' if bytes.get(i + 1) == Some(&b'/') => {
                        i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
                        continue;
                    }
                    b'/' if bytes.get(i + 1) == Some(&b'*') => {
                        open = Some(b'*');
                        i += 1;
                    }
                    b'"' => open = Some(b'"'),
                    b'`' if backtick => open = Some(b'`'),
                    b'\'' if language == Language::Rust => {
                        // A character, or a lifetime (`'a`), which closes nothing.
                        if bytes.get(i + 1) == Some(&b'\\') {
                            open = Some(b'\'');
                        } else if let Some(n) = bytes[i + 1..]
                            .iter()
                            .take(5)
                            .position(|&c| c == b'\'')
                            .filter(|&n| n > 0 && (n == 1 || !bytes[i + 1].is_ascii()))
                        {
                            i += n + 1;
                        }
                    }
                    b'\'' => open = Some(b'\''),
                    b'(' => stack.push(b')'),
                    b'[' => stack.push(b']'),
                    b'{' => stack.push(b'}'),
                    b')' | b']' | b'}' => {
                        stack.pop();
                    }
                    _ => {}
                },
            }
            i += 1;
        }
    }
    if stack.is_empty() && open.is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    match open {
        Some(b'*') => out.extend_from_slice(b"*/"),
        Some(quote) => out.push(quote),
        None => {}
    }
    out.push(b'\n');
    out.extend(stack.iter().rev());
    out.push(b'\n');
    out
}

/// The start of the line after the last whole node of `before` (nodes in order, the
/// comments and attributes right above `limit` left out), if it comes after `start` and
/// at or before `limit`.
fn line_after_whole(
    before: &[Node],
    mut limit: usize,
    source: &[u8],
    start: usize,
    rules: &Rules,
) -> Option<usize> {
    for node in before.iter().rev() {
        if rules.is_leading(*node) {
            limit = node.start_byte();
            continue;
        }
        if broken(*node) {
            return None;
        }
        // The line after the whole node, if it comes before what follows.
        let after = source[node.end_byte()..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|n| node.end_byte() + n + 1)?;
        return (after <= limit && after > start).then_some(after);
    }
    None
}

/// The bytes that open the constructs of `path` (outermost first) at the line start
/// `to`: each one's own bytes up to the next one, less the run of children without a
/// field name right before it (statements, members, elements: whole, and not needed to
/// parse what follows) from its first named one (an opening `{`, `[` or `:` stays).
/// Only bytes of `seen` count.
fn header(path: &[Node], to: usize, source: &[u8], seen: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut kept = Vec::new();
    let mut from = path[0].start_byte();
    for (depth, node) in path.iter().enumerate() {
        let next = path.get(depth + 1).map_or(to, |n| n.start_byte());
        let mut cursor = node.walk();
        let mut children = Vec::new();
        if cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                if child.start_byte() >= next {
                    break;
                }
                children.push((child, cursor.field_name().is_some()));
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        // Tokens before the run's first named child (`{`, `:`) are kept.
        let mut skip_from = next;
        for (child, fielded) in children.iter().rev() {
            if *fielded || child.end_byte() > next {
                break;
            }
            if child.is_named() {
                skip_from = child.start_byte();
            }
        }
        if skip_from < next {
            // A line's blanks before what is left out go with it (Python reads them).
            let line = line_start(source, skip_from);
            if line >= from
                && source[line..skip_from]
                    .iter()
                    .all(|&b| b == b' ' || b == b'\t')
            {
                skip_from = line;
            } else if let Some(n) = memchr::memchr(b'\n', &source[skip_from..next]) {
                // Else the rest of its line too: what follows must start a line.
                skip_from += n + 1;
            }
            kept.push(from..skip_from);
            // From the start of the next one's line when only blanks come before it there
            // (Python reads indentation).
            let line = line_start(source, next);
            let blank = source[line..next].iter().all(|&b| b == b' ' || b == b'\t');
            from = if blank && line >= skip_from {
                line
            } else {
                next
            };
        }
    }
    if from < to {
        kept.push(from..to);
    }
    // Only what was parsed: the header before, and the piece.
    let mut header: Vec<Range<usize>> = Vec::new();
    for range in kept {
        for part in seen {
            let (lo, hi) = (range.start.max(part.start), range.end.min(part.end));
            if lo >= hi {
                continue;
            }
            match header.last_mut() {
                Some(last) if last.end == lo => last.end = hi,
                _ => header.push(lo..hi),
            }
        }
    }
    header
}

/// Whether a node is, or holds, a syntax error or a token the parser had to invent.
fn broken(node: Node) -> bool {
    node.is_error() || node.is_missing() || node.has_error()
}
