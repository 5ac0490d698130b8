//! Running a tree-sitter grammar over a file within a time budget.

use std::ops::ControlFlow;

use tree_sitter::{ParseOptions, Parser, Tree};

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

/// Parses `source`, giving up at `deadline`.
pub(super) fn parse(
    parser: &mut Parser,
    source: &[u8],
    deadline: Deadline<'_>,
) -> Result<Tree, OutlineError> {
    let mut timed_out = false;
    let mut calls = 0u32;
    // tree-sitter calls this every hundred steps; breaking makes it return None. The
    // clock is a system call, so it is read at every 16th call only.
    let mut check = |_: &tree_sitter::ParseState| {
        calls = calls.wrapping_add(1);
        if calls.is_multiple_of(16) && deadline.passed() {
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
        &mut |offset, _| &source[offset.min(len)..],
        None,
        Some(options),
    );
    match tree {
        Some(tree) => Ok(tree),
        None if timed_out => Err(OutlineError::Timeout),
        None => Err(OutlineError::Unparsable),
    }
}
