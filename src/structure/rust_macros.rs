//! Rust items wrapped in a macro invocation (`cfg_rt! { pub fn spawn() { … } }`, as
//! tokio's `cfg_*!` macros wrap whole modules): tree-sitter reads the braces as a token
//! tree, so the items in it have no symbols and their bodies no ranges. Before parsing,
//! the invocation's head (`cfg_rt! {`) and its closing `}` are replaced by spaces, so
//! that the items are read where they stand; every byte and line keeps its place and
//! the lines shown stay the file's.
//!
//! Only an invocation at item level (in a file, a `mod`, an `impl` or a `trait` body,
//! as the bodies scan finds them) is unwrapped, and only when it is written as a
//! wrapper: its name and `{` alone on the first line, its `}` alone on the last, what it
//! holds starting like an item (after comments and attributes: an item's word or a
//! macro invocation), and read as Rust items without a syntax error (so `macro_rules!` bodies,
//! `select!` arms or DSLs stay as they are). Wrappers inside wrappers are unwrapped in
//! turn.
//!
//! Checking each wrapper's insides costs a parse of them, and in real code they hold
//! items. So every wrapper is unwrapped at first and the file parsed once
//! ([`unwrapped_all`]); only when that tree has an error are the wrappers checked one by
//! one ([`unwrapped_checked`]) and the file parsed again.

use std::ops::Range;

use super::bodies::MacroBlock;
use super::deadline::Deadline;
use super::parse;
use super::symbol::OutlineError;
use super::{line_end, line_start};

/// Wrappers nested deeper than this are left wrapped.
const MAX_NESTING: usize = 4;

/// Only files up to this size are unwrapped: checking a wrapper costs a parse of its
/// insides.
const MAX_BYTES: usize = 4 << 20;

/// A macro invocation written as a wrapper.
pub(super) struct Wrapper {
    /// Its head's bytes, from its name to its `{`.
    head: Range<usize>,
    /// The offset of its closing `}`.
    close: usize,
    /// The wrapper it stands in: an index in the same list, which comes first.
    parent: Option<usize>,
}

/// The item-level macro blocks of `source` (found by the bodies scan), each looked at
/// once: those written as wrappers, outermost first, and the insides of those that are
/// not (`forward_to_deserialize_any! { bool i8 … }`), which tree-sitter reads as token
/// trees that define nothing, so that they may be passed over as bodies are.
pub(super) fn sorted(source: &[u8], blocks: &[MacroBlock]) -> (Vec<Wrapper>, Vec<Range<usize>>) {
    let mut out: Vec<Wrapper> = Vec::new();
    let mut token_trees = Vec::new();
    // Each block's index in `out`, if it is a wrapper, and how deep it is nested.
    let mut kept: Vec<Option<(usize, usize)>> = Vec::with_capacity(blocks.len());
    for block in blocks {
        let head = (block.close > block.open)
            .then(|| wrapper(source, block.open, block.close))
            .flatten();
        if head.is_none() && block.close > block.open {
            token_trees.push(block.open + 1..block.close);
        }
        let parent = match block.parent {
            None => None,
            Some(parent) => match kept[parent] {
                Some(found) => Some(found),
                // Inside a block left as written: left too.
                None => {
                    kept.push(None);
                    continue;
                }
            },
        };
        let depth = parent.map_or(1, |(_, depth)| depth + 1);
        match head {
            Some(head) if depth <= MAX_NESTING && source.len() <= MAX_BYTES => {
                kept.push(Some((out.len(), depth)));
                out.push(Wrapper {
                    head,
                    close: block.close,
                    parent: parent.map(|(index, _)| index),
                });
            }
            _ => kept.push(None),
        }
    }
    (out, token_trees)
}

/// `source` with every wrapper's head and closing brace replaced by spaces: what real
/// code holds, to be confirmed by a parse without an error.
pub(super) fn unwrapped_all(source: &[u8], wrappers: &[Wrapper]) -> Vec<u8> {
    let mut text = source.to_vec();
    for wrapper in wrappers {
        blank(&mut text, wrapper);
    }
    text
}

/// `source` with the wrappers unwrapped whose insides read as Rust items without a
/// syntax error (so `macro_rules!` bodies or DSLs such as `lazy_static!`'s stay as they
/// are), each only when the wrapper around it is; None when none is.
pub(super) fn unwrapped_checked(
    source: &[u8],
    wrappers: &[Wrapper],
    deadline: Deadline,
) -> Result<Option<Vec<u8>>, OutlineError> {
    let Some(grammar) = parse::grammar(super::Language::Rust) else {
        return Ok(None);
    };
    let mut parser = parse::parser(super::Language::Rust, &grammar)?;
    let mut text = source.to_vec();
    let mut done = vec![false; wrappers.len()];
    for (index, wrapper) in wrappers.iter().enumerate() {
        if wrapper.parent.is_some_and(|parent| !done[parent]) {
            continue;
        }
        let inner = wrapper.head.end..wrapper.close;
        // Only whether they hold an error is asked: the parse stops at the first.
        let items = parse::parse_clean(
            &mut parser,
            &text,
            std::slice::from_ref(&inner),
            &[],
            deadline,
        )?;
        if items.is_some() {
            blank(&mut text, wrapper);
            done[index] = true;
        }
    }
    Ok(done.contains(&true).then_some(text))
}

fn blank(text: &mut [u8], wrapper: &Wrapper) {
    text[wrapper.head.clone()].fill(b' ');
    text[wrapper.close] = b' ';
}

/// Whether `line` is a wrapper's first line: `name! {` (indentation and spaces aside).
fn head(line: &[u8]) -> Option<()> {
    let line = line.trim_ascii();
    let rest = line.strip_suffix(b"{")?.trim_ascii_end();
    let name = rest.strip_suffix(b"!")?;
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    (!name.is_empty()
        && name.iter().all(word)
        && !name[0].is_ascii_digit()
        && name != b"macro_rules")
        .then_some(())
}

/// The head of the macro block from `open` to `close` when it is written as a wrapper:
/// its name and `{` alone on their line, its `}` alone on a later one.
fn wrapper(text: &[u8], open: usize, close: usize) -> Option<Range<usize>> {
    let (head_start, head_end) = (line_start(text, open), line_end(text, open));
    head(&text[head_start..head_end])?;
    let start = head_start
        + text[head_start..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
    let close_start = line_start(text, close);
    let close_end = line_end(text, close);
    let alone = text[close_start..close].iter().all(u8::is_ascii_whitespace)
        && text[close + 1..close_end]
            .iter()
            .all(u8::is_ascii_whitespace);
    (alone && close_start > head_end && starts_an_item(&text[open + 1..close]))
        .then_some(start..open + 1)
}

/// What follows the attribute that `text` starts with (`#[…]`, brackets counted).
fn after_attribute(text: &[u8]) -> &[u8] {
    let mut depth = 0usize;
    for (at, &b) in text.iter().enumerate() {
        match b {
            b'[' => depth += 1,
            b']' if depth == 1 => return &text[at + 1..],
            b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    &[]
}

/// Words an item starts with (after its attributes and doc comments).
const ITEM_WORDS: &[&[u8]] = &[
    b"pub",
    b"fn",
    b"struct",
    b"enum",
    b"union",
    b"trait",
    b"impl",
    b"mod",
    b"use",
    b"const",
    b"static",
    b"type",
    b"unsafe",
    b"async",
    b"extern",
    b"macro_rules",
];

/// Whether `inside` (a block's bytes) is empty or starts like an item, after its
/// comments and attributes: with an item's word or a macro invocation. Arguments to a macro (`deserialize_bool()`,
/// `static ref X` for `lazy_static!`) are not, and are never parsed as items.
fn starts_an_item(inside: &[u8]) -> bool {
    let mut rest = inside;
    loop {
        rest = rest.trim_ascii_start();
        if rest.starts_with(b"//") {
            let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            rest = &rest[end..];
        } else if rest.starts_with(b"/*") {
            let end = memchr::memmem::find(rest, b"*/").map_or(rest.len(), |at| at + 2);
            rest = &rest[end..];
        } else if rest.starts_with(b"#[") || rest.starts_with(b"#![") {
            rest = after_attribute(rest);
        } else {
            break;
        }
    }
    let word_len = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let (word, after) = rest.split_at(word_len);
    match rest.first() {
        None => true,
        Some(_) if word == b"static" => !after.trim_ascii_start().starts_with(b"ref "),
        Some(_) => ITEM_WORDS.contains(&word) || (!word.is_empty() && after.starts_with(b"!")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::Language;
    use super::super::bodies;
    use super::*;

    fn unwrapped(src: &str) -> (String, String) {
        let blocks = bodies::scan(Language::Rust, src.as_bytes()).macro_blocks;
        let (found, _) = sorted(src.as_bytes(), &blocks);
        let all = String::from_utf8(unwrapped_all(src.as_bytes(), &found)).unwrap();
        let deadline = Deadline::after(std::time::Duration::from_secs(10));
        let checked = unwrapped_checked(src.as_bytes(), &found, deadline).unwrap();
        let checked = String::from_utf8(checked.unwrap_or_else(|| src.as_bytes().to_vec()));
        (all, checked.unwrap())
    }

    #[test]
    fn a_wrapper_is_its_name_and_brace_alone_on_a_line_and_its_brace_alone_on_another() {
        let src = "w! {\n    fn f() {}\n}\nx! { fn g() {} }\ny! {\n    fn h() {}\n} z\n";
        let (all, _) = unwrapped(src);
        assert_eq!(
            all,
            "    \n    fn f() {}\n \nx! { fn g() {} }\ny! {\n    fn h() {}\n} z\n"
        );
    }

    #[test]
    fn a_macro_whose_braces_hold_arguments_is_no_wrapper() {
        for inside in [
            "deserialize_bool()",
            "static ref X: u8 = 1;",
            "#[cfg(x)]\n    (), Box<str>",
        ] {
            let src = format!("w! {{\n    {inside}\n}}\n");
            assert_eq!(unwrapped(&src).0, src, "{inside}");
        }
        for inside in [
            "#[cfg(x)]\n    pub fn f() {}",
            "// c\n    x! { }",
            "",
            "static X: u8 = 1;",
        ] {
            let src = format!("w! {{\n    {inside}\n}}\n");
            assert_ne!(unwrapped(&src).0, src, "{inside}");
        }
    }

    #[test]
    fn checked_one_by_one_a_wrapper_with_an_error_stays_and_so_do_those_inside_it() {
        let src = "a! {\n    pub struct F: u32 {}\n    b! {\n        fn f() {}\n    }\n}\nc! {\n    fn g() {}\n}\n";
        let (all, checked) = unwrapped(src);
        assert!(
            all.starts_with("    \n") && all.contains("\n        \n"),
            "{all}"
        );
        assert!(
            checked.contains("a! {") && checked.contains("b! {"),
            "{checked}"
        );
        assert!(
            !checked.contains("c! {") && checked.ends_with("    fn g() {}\n \n"),
            "{checked}"
        );
    }

    #[test]
    fn wrappers_nested_deeper_than_four_stay() {
        let mut src = String::new();
        for depth in 0..6 {
            src += &format!("{}w{depth}! {{\n", "    ".repeat(depth));
        }
        for depth in (0..6).rev() {
            src += &format!("{}}}\n", "    ".repeat(depth));
        }
        let (all, _) = unwrapped(&src);
        assert!(all.contains("w4! {") && !all.contains("w3!"), "{all}");
    }
}
