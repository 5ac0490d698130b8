//! Blocks by indentation (SPEC §15 `--enclosing` for files without a language).

use super::super::indentation_block;

/// The block around line `n` of `text`.
fn block(text: &str, n: usize) -> (usize, usize) {
    let lines: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
    indentation_block(&lines, n)
}

const BRACES: &str = "fn a() {\n    x\n\n    y\n}\n\nfn b() {\n    z\n}\n";

#[test]
fn a_header_takes_its_deeper_lines_and_the_closing_brace() {
    // Line 1 is a header: lines 2-4 are deeper or blank, and `}` at its depth closes.
    assert_eq!(block(BRACES, 1), (1, 5));
    assert_eq!(block(BRACES, 7), (7, 9));
}

#[test]
fn a_body_line_takes_its_run_and_the_header_above() {
    assert_eq!(block(BRACES, 2), (1, 5));
    assert_eq!(block(BRACES, 4), (1, 5));
    assert_eq!(block(BRACES, 8), (7, 9));
}

#[test]
fn a_blank_line_counts_as_the_next_non_blank_line() {
    // Line 3 lies in a's body: it counts as line 4.
    assert_eq!(block(BRACES, 3), (1, 5));
    // Line 6 lies between the functions: it counts as line 7, b's header.
    assert_eq!(block(BRACES, 6), (7, 9));
    // Blank lines at the end of the file, with no next non-blank line: the last block,
    // down to them.
    assert_eq!(block("a:\n  b\n\n\n", 4), (1, 4));
    assert_eq!(block("a:\n  b\n\n\n", 3), (1, 3));
    assert_eq!(block("x = 1\n\n\n", 3), (1, 3));
    assert_eq!(block("\n\n", 2), (2, 2));
}

#[test]
fn tabs_count_four_columns() {
    // The tab (4 columns) is deeper than two spaces and as deep as four.
    let text = "top:\n  two\n\tfour\n    four\n  two\n";
    assert_eq!(block(text, 3), (2, 4));
    assert_eq!(block(text, 4), (2, 4));
    assert_eq!(block(text, 2), (2, 4));
}

#[test]
fn trailing_blank_lines_are_dropped() {
    let text = "def f():\n    a\n\n\ndef g():\n    b\n";
    assert_eq!(block(text, 1), (1, 2));
    assert_eq!(block(text, 2), (1, 2));
}

#[test]
fn end_and_brackets_close_a_block_only_at_the_headers_depth() {
    let ruby = "class A\n  def f\n    1\n  end\nend\n";
    assert_eq!(block(ruby, 3), (2, 4));
    assert_eq!(block(ruby, 2), (2, 4));
    assert_eq!(block(ruby, 1), (1, 5));
    let list = "x = [\n    1,\n    2,\n]\ny = 2\n";
    assert_eq!(block(list, 2), (1, 4));
    // `endpoint` is no `end`.
    assert_eq!(block("a:\n  b\nendpoint\n", 2), (1, 2));
    // A closer deeper or shallower than the header does not close it.
    assert_eq!(block("if a {\n    b\n    c\n  }\n", 2), (1, 3));
    assert_eq!(block("  if a {\n    b\n}\n", 2), (1, 2));
}

#[test]
fn top_level_lines_without_a_header_are_their_paragraph() {
    // No shallower line above: not a block but the paragraph (non-blank lines) around N.
    assert_eq!(block("a\nb\nc\n", 2), (1, 3));
    assert_eq!(block(BRACES, 9), (7, 9));
    assert_eq!(block("a\nb\n\nc\nd\n\ne\n", 5), (4, 5));
    // A blank N: the next non-blank line's paragraph.
    assert_eq!(block("a\n\nc\nd\n", 2), (3, 4));
}

#[test]
fn out_of_range_and_empty() {
    assert_eq!(block("", 1), (0, 0));
    assert_eq!(block(BRACES, 0), (1, 5));
    assert_eq!(block("a:\n  b\n", 99), (1, 2));
    assert_eq!(block("a\r\n  b\r\n", 1), (1, 2));
}
