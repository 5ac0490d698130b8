//! The memory bound of one PDF read (SPEC §16): what lopdf is given to parse is
//! measured before it is parsed.
//!
//! lopdf turns every token of the file into an `Object` and keeps them all: a deflate
//! stream of 59 KB that inflates to 15 million `[]` took 5.5 GB, 30 million integers
//! 3.58 GB, 2 million objects 779 MB. The size of the input bounds none of these, so the
//! tokens are counted, with a lexer that allocates nothing, where lopdf would parse them:
//! - **the file** outside its streams' data and its cross-reference tables, before it is
//!   loaded ([`file_fits`]);
//! - **object streams**, inflated and counted by the load filter ([`filter`]) before lopdf
//!   parses them; every parsed object is charged to the same budget, and one that does not
//!   fit stops the load;
//! - **content streams**, one operation at a time ([`largest_operation`]): lopdf parses
//!   one operation's operands into one list, so a `TJ` of 30 million numbers is refused
//!   before it is parsed.
//!
//! Image data is never read for text, so the filter drops it as objects are loaded: a
//! scan of 100 MiB costs its file once, not three times.

use std::cell::Cell;
use std::collections::HashSet;

use lopdf::Object;

use super::objects::MAX_STREAM_BYTES;

/// What one read may take, all told: SPEC's bound for a PDF read.
pub const MEMORY_BUDGET: usize = 256 << 20;

/// What a parsed token costs in lopdf's objects, a measured upper bound: an `Object` is
/// 120 bytes, an array or dictionary holds its elements in a vector that may be twice
/// their size, and a dictionary's entries add a hash and a key.
pub(super) const TOKEN_COST: usize = 256;

/// Memory that is not the objects': the walker's page content
/// (`layout::MAX_PAGE_CONTENT_BYTES`, plus one inflated stream while it is joined), the
/// text (`MAX_TEXT_BYTES`, held twice while the view is made) and what is left over.
const FIXED_COST: usize = 72 << 20;

/// What an array costs beyond its token: lopdf's parser gives every list room for four
/// objects, empty or not (measured: 370,000 `[]` took 224 MB, 600 bytes each).
const ARRAY_EXTRA: usize = 2;

/// What a dictionary costs beyond its token: its map's table.
const DICTIONARY_EXTRA: usize = 1;

/// The most tokens one content-stream operation may hold (operands, array elements and
/// brackets): far past any real `TJ` array (a line of text is a few hundred), and 32 MiB
/// of objects at most.
pub(super) const MAX_OPERATION_TOKENS: usize = 1 << 17;

/// How many tokens of objects a file of `len` bytes may parse to: what the budget leaves
/// once the file is held twice (the caller's bytes and the worker's copy; lopdf's copies
/// of its streams are the rest of the file once [`filter`] has dropped the images, and
/// are charged as tokens). Zero when the file alone is past the budget.
pub(super) fn token_budget(len: usize) -> usize {
    MEMORY_BUDGET.saturating_sub(len.saturating_mul(2).saturating_add(FIXED_COST)) / TOKEN_COST
}

thread_local! {
    /// Tokens the load may still parse (the filter charges every object it is given).
    static LEFT: Cell<usize> = const { Cell::new(0) };
    /// Whether the load went past its budget: every later object is dropped, and the
    /// read is refused once the load returns.
    static OVER: Cell<bool> = const { Cell::new(false) };
    /// The objects of the object stream just loaded, which lopdf passes to the filter
    /// next (see [`filter`]).
    static MEMBERS: std::cell::RefCell<HashSet<u32>> = std::cell::RefCell::new(HashSet::new());
}

/// Starts the accounting of one load on this thread.
pub(super) fn start_load(tokens: usize) {
    LEFT.with(|left| left.set(tokens));
    OVER.with(|over| over.set(false));
    MEMBERS.with(|members| members.borrow_mut().clear());
}

/// Whether `id` is a member of the object stream loaded last. lopdf passes an object
/// stream's members to the filter right after the stream itself, and keeps what the
/// filter returns; for any other object it keeps the object it passed and ignores what the
/// filter returns. The first object that is not a member ends the members.
fn is_member(id: u32) -> bool {
    MEMBERS.with(|members| {
        let mut members = members.borrow_mut();
        let member = members.remove(&id);
        if !member {
            *members = HashSet::new();
        }
        member
    })
}

/// Whether the last load on this thread went past its budget.
pub(super) fn load_was_over() -> bool {
    OVER.with(Cell::get)
}

fn charge(tokens: usize) -> bool {
    LEFT.with(|left| match left.get().checked_sub(tokens) {
        Some(rest) => {
            left.set(rest);
            true
        }
        None => {
            left.set(0);
            OVER.with(|over| over.set(true));
            false
        }
    })
}

/// lopdf's load filter: charges each object to the budget, refuses an object stream whose
/// objects would not fit before lopdf parses them, and drops image data and the objects
/// text never reads (links, outlines, name trees, structure elements, actions), which in
/// a hyperlinked manual are most of its objects.
pub(super) fn filter(id: (u32, u16), object: &mut Object) -> Option<((u32, u16), Object)> {
    if OVER.with(Cell::get) {
        return None;
    }
    let member = is_member(id.0);
    if unread(object) {
        // A member was charged with its object stream: what it took is free again.
        if member {
            LEFT.with(|left| left.set(left.get().saturating_add(nodes(object))));
        }
        return None;
    }
    let mut held = 0;
    if let Object::Stream(stream) = object {
        if matches!(stream.dict.get(b"Subtype"), Ok(Object::Name(name)) if name == b"Image")
            && stream.content.len() > 1
        {
            // One byte, not none: lopdf reads an empty stream again from the file.
            stream.content = vec![0];
            stream.dict.remove(b"Filter");
            stream.dict.remove(b"DecodeParms");
        }
        held = stream.content.len() / TOKEN_COST;
    }
    // An object stream's members were charged with it, before lopdf parsed them.
    if !member && !charge(nodes(object) + held) {
        return None;
    }
    if let Object::Stream(stream) = object
        && stream.dict.has_type(b"ObjStm")
        && !member
    {
        let left = LEFT.with(Cell::get);
        let fits = match stream.get_plain_content_with_limit(MAX_STREAM_BYTES) {
            Ok(content) => {
                let first = stream.dict.get(b"First").and_then(Object::as_i64).ok();
                let header = first
                    .and_then(|f| usize::try_from(f).ok())
                    .and_then(|f| content.get(..f))
                    .unwrap_or_default();
                MEMBERS.with(|members| *members.borrow_mut() = member_ids(header));
                count_tokens(&content, Mode::Objects, left).is_some_and(charge)
            }
            // lopdf fails on it in the same way (too large is a refusal of the load).
            Err(_) => true,
        };
        if !fits {
            OVER.with(|over| over.set(true));
            return None;
        }
    }
    // lopdf keeps what is returned for a member, and its own object otherwise.
    let kept = match member {
        true => std::mem::replace(object, Object::Null),
        false => Object::Null,
    };
    Some((id, kept))
}

/// Whether text extraction never reads an object of this kind: a link annotation, an
/// outline item, a name tree node or a named destination, a structure element or an
/// action.
fn unread(object: &Object) -> bool {
    let Object::Dictionary(dict) = object else {
        return false;
    };
    let name = |key: &[u8]| dict.get(key).and_then(Object::as_name).ok();
    if name(b"Subtype") == Some(b"Link") {
        return true;
    }
    match name(b"Type") {
        Some(b"StructElem" | b"Action" | b"Outlines") => return true,
        Some(_) => return false,
        None => {}
    }
    // A named destination's value, `<< /D [page /XYZ …] >>`.
    (dict.len() == 1 && matches!(dict.get(b"D"), Ok(Object::Array(_))))
        || (dict.has(b"Title") && dict.has(b"Parent"))
        || dict.has(b"Limits")
        || matches!(dict.get(b"Names"), Ok(Object::Array(_)))
        || (dict.has(b"S") && dict.has(b"P") && dict.has(b"K") && !dict.has(b"Subtype"))
        || matches!(
            name(b"S"),
            Some(b"GoTo" | b"GoToR" | b"URI" | b"Named" | b"Launch")
        )
}

/// The object numbers an object stream's header lists (pairs of number and offset).
fn member_ids(header: &[u8]) -> HashSet<u32> {
    header
        .split(|b| is_space(*b))
        .filter(|word| !word.is_empty())
        .step_by(2)
        .filter_map(|word| std::str::from_utf8(word).ok()?.parse().ok())
        .collect()
}

/// The objects `object` is made of, itself included.
fn nodes(object: &Object) -> usize {
    // lopdf caps nesting at 100 levels, so this recursion is bounded.
    1 + match object {
        Object::Array(items) => ARRAY_EXTRA + items.iter().map(nodes).sum::<usize>(),
        Object::Dictionary(dict) => {
            DICTIONARY_EXTRA
                + dict
                    .iter()
                    .map(|(_, value)| 1 + nodes(value))
                    .sum::<usize>()
        }
        Object::Stream(stream) => {
            DICTIONARY_EXTRA
                + stream
                    .dict
                    .iter()
                    .map(|(_, value)| 1 + nodes(value))
                    .sum::<usize>()
        }
        _ => 0,
    }
}

/// Whether the file's objects (outside its streams' data) fit in `tokens`.
pub(super) fn file_fits(bytes: &[u8], tokens: usize) -> bool {
    count_tokens(bytes, Mode::File, tokens).is_some()
}

/// The most tokens any one operation of a content stream holds, counted up to
/// [`MAX_OPERATION_TOKENS`] + 1.
pub(super) fn largest_operation(content: &[u8]) -> usize {
    count_tokens(content, Mode::Content, MAX_OPERATION_TOKENS)
        .map_or(MAX_OPERATION_TOKENS + 1, |n| n)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// A whole file: stream data and cross-reference tables are skipped; the count is the
    /// file's.
    File,
    /// An object stream's content: the count is the stream's.
    Objects,
    /// A content stream: an operator ends an operation; the count is the largest
    /// operation's.
    Content,
}

pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | b'\0')
}

pub(super) fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

/// Counts tokens as [`Mode`] says; `None` as soon as the count passes `limit`.
fn count_tokens(bytes: &[u8], mode: Mode, limit: usize) -> Option<usize> {
    let mut at = 0;
    let mut count = 0usize;
    let mut largest = 0usize;
    let len = bytes.len();
    while at < len {
        let b = bytes[at];
        if is_space(b) {
            at += 1;
            continue;
        }
        match b {
            b'%' => {
                at = memchr::memchr2(b'\n', b'\r', &bytes[at..]).map_or(len, |i| at + i);
                continue;
            }
            b'(' => {
                let mut depth = 0usize;
                while at < len {
                    match bytes[at] {
                        b'\\' => at += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                at += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    at += 1;
                }
            }
            b'<' if bytes.get(at + 1) == Some(&b'<') => {
                at += 2;
                count += DICTIONARY_EXTRA;
            }
            b'>' if bytes.get(at + 1) == Some(&b'>') => at += 2,
            b'<' => at = memchr::memchr(b'>', &bytes[at..]).map_or(len, |i| at + i + 1),
            b'[' => {
                at += 1;
                count += ARRAY_EXTRA;
            }
            b']' | b'{' | b'}' | b')' | b'>' => at += 1,
            _ => {
                let start = at;
                at += 1;
                while at < len && !is_space(bytes[at]) && !is_delimiter(bytes[at]) {
                    at += 1;
                }
                let word = &bytes[start..at];
                let is_operator = b != b'/'
                    && !matches!(b, b'0'..=b'9' | b'+' | b'-' | b'.')
                    && !matches!(word, b"true" | b"false" | b"null" | b"R");
                if is_operator {
                    match (mode, word) {
                        (Mode::File, b"stream") => {
                            at = memchr::memmem::find(&bytes[at..], b"endstream")
                                .map_or(len, |i| at + i + 9);
                            continue;
                        }
                        (Mode::File, b"xref") => {
                            at = memchr::memmem::find(&bytes[at..], b"trailer")
                                .map_or(len, |i| at + i + 7);
                            continue;
                        }
                        (Mode::Content, b"ID") => {
                            // Inline image data, up to an `EI` between white space.
                            at = inline_image_end(bytes, at);
                            largest = largest.max(count + 1);
                            count = 0;
                            continue;
                        }
                        (Mode::Content, _) => {
                            largest = largest.max(count + 1);
                            count = 0;
                            continue;
                        }
                        _ => {}
                    }
                }
            }
        }
        count += 1;
        if count > limit {
            return None;
        }
    }
    match mode {
        Mode::Content => Some(largest.max(count)),
        _ => Some(count),
    }
}

/// Where the data of an inline image that starts after `ID` at `start` ends: after the
/// first `EI` between white space, else (data that runs into its `EI`) the first `EI`
/// followed by white space.
pub(super) fn inline_image_end(bytes: &[u8], start: usize) -> usize {
    let after_ok = |ei: usize| {
        bytes
            .get(ei + 2)
            .is_none_or(|&b| is_space(b) || is_delimiter(b))
    };
    let eis = || memchr::memmem::find_iter(&bytes[start..], b"EI").map(|i| start + i);
    eis()
        .find(|&ei| ei.checked_sub(1).is_some_and(|p| is_space(bytes[p])) && after_ok(ei))
        .or_else(|| eis().find(|&ei| after_ok(ei)))
        .map_or(bytes.len(), |ei| ei + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_counted_as_lopdf_parses_them() {
        assert_eq!(
            count_tokens(b"1 0 obj << /A [1 2 (a)b)] >> endobj", Mode::File, 100),
            Some(17)
        );
        // Stream data and cross-reference tables are skipped.
        let file = b"1 0 obj <</Length 3>> stream\n[[[\nendstream endobj xref\n0 1\n0000000000 65535 f \ntrailer <<>>";
        assert_eq!(count_tokens(file, Mode::File, 100), Some(12));
        assert_eq!(count_tokens(b"[[[[]]]]", Mode::File, 3), None);
    }

    #[test]
    fn an_operation_is_counted_alone() {
        assert_eq!(largest_operation(b"BT /F1 12 Tf [(a) 3 (b)] TJ ET"), 8);
        assert_eq!(largest_operation(b"q BI /W 1 /H 1 ID \xff[[[[ EI Q"), 5);
        let huge = "1 ".repeat(MAX_OPERATION_TOKENS + 1) + "Tj";
        assert_eq!(largest_operation(huge.as_bytes()), MAX_OPERATION_TOKENS + 1);
    }

    #[test]
    fn objects_text_never_reads_are_dropped() {
        let dict = |source: &str| {
            let mut dict = lopdf::Dictionary::new();
            for pair in source.split(',') {
                let (key, value) = pair.split_once('=').unwrap();
                dict.set(key, Object::Name(value.as_bytes().to_vec()));
            }
            Object::Dictionary(dict)
        };
        assert!(unread(&dict("Type=Annot,Subtype=Link")));
        assert!(unread(&dict("S=GoTo,D=here")));
        assert!(unread(&dict("Type=StructElem,S=P")));
        assert!(unread(&dict("Title=x,Parent=y")));
        let mut destination = lopdf::Dictionary::new();
        destination.set("D", Object::Array(vec![Object::Integer(1)]));
        assert!(unread(&Object::Dictionary(destination)));
        assert!(!unread(&dict("Type=Annot,Subtype=Widget")));
        assert!(!unread(&dict("Type=Page,Parent=y")));
        assert!(!unread(&dict("Type=Font,Subtype=Type1")));
    }

    #[test]
    fn the_budget_shrinks_with_the_file() {
        assert!(token_budget(1 << 20) > 500_000);
        assert_eq!(token_budget(100 << 20), 0);
    }
}
