//! Rust items wrapped in a macro invocation (`cfg_rt! { pub fn spawn() { … } }`, as
//! tokio's `cfg_*!` macros wrap whole modules): tree-sitter reads the braces as a token
//! tree, so the items in it have no symbols and their bodies no ranges. Before parsing,
//! the invocation's head (`cfg_rt! {`) and its closing `}` are replaced by spaces, so
//! that the items are read where they stand; every byte and line keeps its place and
//! the lines shown stay the file's.
//!
//! Only an invocation at item level (in a file, a `mod`, an `impl` or a `trait` body)
//! is unwrapped, and only when it is written as a wrapper: its name and `{` alone on
//! the first line, its `}` alone on the last, and what it holds read as Rust items
//! without a syntax error (so `macro_rules!` bodies, `select!` arms or DSLs stay as
//! they are). Wrappers inside wrappers are unwrapped in turn.

use std::ops::Range;

use super::deadline::Deadline;
use super::parse;
use super::symbol::OutlineError;
use super::{line_end, line_start};

/// Wrappers nested deeper than this are left wrapped.
const MAX_ROUNDS: usize = 4;

/// Only files up to this size are looked at: the check costs a parse of its own.
const MAX_BYTES: usize = 4 << 20;

/// The source with its item-level macro wrappers unwrapped, or None when it has none.
pub(super) fn unwrapped(
    source: &[u8],
    deadline: Deadline,
) -> Result<Option<Vec<u8>>, OutlineError> {
    if source.len() > MAX_BYTES || !source.split(|&b| b == b'\n').any(|l| head(l).is_some()) {
        return Ok(None);
    }
    let Some(grammar) = parse::grammar(super::Language::Rust) else {
        return Ok(None);
    };
    let mut parser = parse::parser(&grammar)?;
    let mut text = source.to_vec();
    let mut changed = false;
    for _ in 0..MAX_ROUNDS {
        let whole = 0..text.len();
        let tree = parse::parse(
            &mut parser,
            &text,
            std::slice::from_ref(&whole),
            &[],
            deadline,
        )?;
        let mut wrappers = Vec::new();
        item_level_wrappers(tree.root_node(), &text, &mut wrappers);
        drop(tree);
        let mut round = false;
        for (head, close) in wrappers {
            let inner = head.end..close;
            let items = parse::parse(
                &mut parser,
                &text,
                std::slice::from_ref(&inner),
                &[],
                deadline,
            )?;
            if items.root_node().has_error() {
                continue;
            }
            text[head].fill(b' ');
            text[close] = b' ';
            round = true;
        }
        if !round {
            break;
        }
        changed = true;
    }
    Ok(changed.then_some(text))
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

/// The wrappers among the items under `node`: for each, the bytes of its head (from its
/// name to its `{`) and the offset of its closing `}`.
fn item_level_wrappers(node: tree_sitter::Node, text: &[u8], out: &mut Vec<(Range<usize>, usize)>) {
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        match child.kind() {
            "macro_invocation" => out.extend(wrapper(child, text)),
            "expression_statement" => {
                let mut inner = child.walk();
                for call in child.named_children(&mut inner) {
                    if call.kind() == "macro_invocation" {
                        out.extend(wrapper(call, text));
                    }
                }
            }
            "mod_item" | "impl_item" | "trait_item" => {
                if let Some(body) = child.child_by_field_name("body") {
                    item_level_wrappers(body, text, out);
                }
            }
            _ => {}
        }
    }
}

/// The head and closing brace of `call` when it is written as a wrapper.
fn wrapper(call: tree_sitter::Node, text: &[u8]) -> Option<(Range<usize>, usize)> {
    let last = u32::try_from(call.named_child_count().checked_sub(1)?).ok()?;
    let tree = call.named_child(last)?;
    if tree.kind() != "token_tree" {
        return None;
    }
    let (start, open, close) = (call.start_byte(), tree.start_byte(), tree.end_byte() - 1);
    if text.get(open) != Some(&b'{') || text.get(close) != Some(&b'}') {
        return None;
    }
    let (head_start, head_end) = (line_start(text, start), line_end(text, open));
    head(&text[head_start..head_end])?;
    if !text[head_start..start].iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    // The `}` alone on its line.
    let close_start = line_start(text, close);
    let close_end = line_end(text, close);
    let alone = text[close_start..close].iter().all(u8::is_ascii_whitespace)
        && text[close + 1..close_end]
            .iter()
            .all(u8::is_ascii_whitespace);
    (alone && close_start > head_end).then_some((start..open + 1, close))
}
