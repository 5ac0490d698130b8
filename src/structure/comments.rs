//! The comments and docstrings that stand on lines of their own, as runs of lines: the
//! signatures view (SPEC §18) shortens the long ones to their first paragraph. Found
//! by the bodies scans, which know each language's strings (a `//` in a string is no
//! comment), not by the parse: a cached outline answers the view without one.

use super::bodies;
use super::language::Language;
use super::python_bodies::{self, Quiet};

/// A comment or docstring of at most this many lines is kept whole: the short ones
/// (a line or two of docs, a Javadoc with its `@param` lines) are what a reader of
/// signatures wants.
const KEEP_WHOLE_COMMENT: u64 = 5;

/// Consecutive lines that hold only comments, or one string statement (Python), with
/// where their first paragraph ends. Lines are 1-based and inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommentRun {
    pub first: u64,
    pub last: u64,
    /// The last line of the first paragraph: the line before the first line with no
    /// text that follows one with text (`///`, ` *`, a blank line in a docstring), else
    /// `last`.
    pub paragraph_end: u64,
    /// A Python string statement (a docstring), not comments.
    pub docstring: bool,
}

/// The comment runs of `src`, a `language` file, that the signatures view cuts short
/// (longer than [`KEEP_WHOLE_COMMENT`] lines), in order; none for a language the scans do
/// not read (TSX, Markdown) or a file they cannot (an unclosed string). Only those are
/// kept with an outline: a crate's many one-line docs would only weigh on its entry.
pub fn comment_runs(language: Language, src: &[u8]) -> Vec<CommentRun> {
    let found: Vec<(std::ops::Range<usize>, bool)> = match language {
        Language::Python => python_bodies::quiet_lines(src).map(|runs| {
            runs.into_iter()
                .map(|(range, quiet)| (range, quiet == Quiet::Docstring))
                .collect()
        }),
        _ => bodies::whole_comments(language, src)
            .map(|runs| runs.into_iter().map(|range| (range, false)).collect()),
    }
    .unwrap_or_default();
    let rows = super::rows(src, found.iter().map(|(range, _)| range));
    found
        .iter()
        .zip(rows)
        .filter(|(_, (first, last))| (last - first) as u64 + 1 > KEEP_WHOLE_COMMENT)
        .map(|((range, docstring), (first, last))| {
            let (first, last) = (first as u64 + 1, last as u64 + 1);
            let mut paragraph_end = last;
            let mut seen_text = false;
            for (line, text) in (first..).zip(src[range.clone()].split(|&b| b == b'\n')) {
                match has_text(text) {
                    true => seen_text = true,
                    false if seen_text => {
                        paragraph_end = line - 1;
                        break;
                    }
                    false => {}
                }
            }
            CommentRun {
                first,
                last,
                paragraph_end,
                docstring: *docstring,
            }
        })
        .collect()
}

/// Whether a comment's or docstring's line says something: more than its markers
/// (`//`, `///`, `//!`, `/*`, `*`, `*/`, `#`, quotes and a string's prefix).
fn has_text(line: &[u8]) -> bool {
    let line = line.trim_ascii();
    let prefix = line
        .iter()
        .take(2)
        .take_while(|b| b"rRbBuUfF".contains(b))
        .count();
    let line = match line.get(prefix) {
        Some(b'"' | b'\'') => &line[prefix..],
        _ => line,
    };
    line.iter()
        .any(|b| !b"/*!#\"'".contains(b) && !b.is_ascii_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(language: Language, src: &str) -> Vec<(u64, u64, u64, bool)> {
        comment_runs(language, src.as_bytes())
            .into_iter()
            .map(|r| (r.first, r.last, r.paragraph_end, r.docstring))
            .collect()
    }

    #[test]
    fn long_whole_comment_lines_are_runs_and_a_comment_after_code_is_not() {
        let src = "/// One.\n///\n/// Two.\n/// a\n/// b\n/// c\nfn f() {} // after code\n\n/* a\n * b\n * c\n * d\n * e\n */\nx /* y */;\n// 1\n// 2\n// 3\n// 4\n// 5\n";
        // The five lines of `//` at the end are kept whole: no run.
        assert_eq!(
            runs(Language::Rust, src),
            [(1, 6, 1, false), (9, 14, 13, false)]
        );
        // A `//` in a string is no comment.
        let src = "const S: &str = \"\n// 1\n// 2\n// 3\n// 4\n// 5\n// 6\n\";\n";
        assert!(runs(Language::Rust, src).is_empty());
        let src = "/**\n * Sum.\n *\n * @param a\n * @param b\n */\nint f(int a);\n";
        assert_eq!(runs(Language::Java, src), [(1, 6, 2, false)]);
    }

    #[test]
    fn python_comments_and_string_statements() {
        let src = "\"\"\"Module.\n\nMore.\nMore.\nMore.\n\"\"\"\n# a\n# b\n# c\n# d\n# e\n# f\nx = \"\"\"\n# 1\n# 2\n# 3\n# 4\n# 5\n# 6\n\"\"\"\nclass C:\n    r\'\'\'Doc.\'\'\'  # why\n";
        assert_eq!(
            runs(Language::Python, src),
            [(1, 6, 1, true), (7, 12, 12, false)]
        );
    }

    #[test]
    fn a_file_the_scan_cannot_read_has_none() {
        assert!(
            runs(
                Language::Python,
                "s = \'\'\'\n# 1\n# 2\n# 3\n# 4\n# 5\n# 6\n"
            )
            .is_empty()
        );
        assert!(
            runs(
                Language::Markdown,
                "# Title\n\n# a\n# b\n# c\n# d\n# e\n# f\n"
            )
            .is_empty()
        );
    }
}
