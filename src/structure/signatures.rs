//! `--signatures` (SPEC §18): which lines a view of a file without its function and
//! method bodies leaves out, and the rest of its long comments. Each left-out run
//! becomes one marker line in the view.

use super::comments::CommentRun;
use super::symbol::Symbol;

/// A run of a file's lines left out of the signatures view: what it is, and the symbol
/// (an index into the outline) whose body, Markdown section's rest or leading comment
/// it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elision {
    pub first: u64,
    pub last: u64,
    pub part: Part,
    /// None for a comment or docstring that documents no symbol of the outline.
    pub symbol: Option<usize>,
}

/// What an elided run is part of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// A function's or method's body, or a Markdown section's text after its first
    /// paragraph.
    Body,
    /// A comment's lines after its first paragraph: a symbol's docs, or a comment of
    /// its own (a licence, a module's docs).
    Comment,
    /// A Python string statement's lines after its first paragraph.
    Docstring,
}

/// A body of at most this many lines is kept whole: its marker would save nothing.
const KEEP_WHOLE: u64 = 3;

/// A longer comment keeps its first paragraph, at most this many lines (`/**` and the
/// summary line; a doc comment's summary sentence).
const COMMENT_HEAD: u64 = 2;

/// The runs to leave out, in order, none inside another: the bodies of functions and
/// methods longer than [`KEEP_WHOLE`] lines (a nested function goes with the body that
/// holds it), and the lines of each of `comments` (the long ones, as
/// [`comment_runs`](super::comment_runs) gives them) after its head (its first
/// paragraph, at most [`COMMENT_HEAD`] lines). For Markdown (`sections`), what follows
/// each section's first paragraph up to the next heading. `lines` are the file's lines
/// (for Markdown's paragraphs).
pub fn elisions(
    symbols: &[Symbol],
    sections: bool,
    lines: &[&[u8]],
    comments: &[CommentRun],
) -> Vec<Elision> {
    let mut runs: Vec<Elision> = match sections {
        true => section_rests(symbols, lines),
        false => symbols
            .iter()
            .enumerate()
            .filter_map(|(symbol, s)| {
                let body = s.body?;
                (body.last >= body.first && body.last - body.first + 1 > KEEP_WHOLE).then_some(
                    Elision {
                        first: body.first,
                        last: body.last,
                        part: Part::Body,
                        symbol: Some(symbol),
                    },
                )
            })
            .collect(),
    };
    runs.extend(comment_rests(symbols, comments));
    runs.sort_by_key(|run| (run.first, std::cmp::Reverse(run.last)));
    let mut out: Vec<Elision> = Vec::with_capacity(runs.len());
    for run in runs {
        if out.last().is_some_and(|kept| run.first <= kept.last) {
            continue;
        }
        out.push(run);
    }
    out
}

/// The lines of each long comment after its head, with the symbol whose leading lines
/// (from its `start_line` to the line of its name) it is in, if any.
fn comment_rests(symbols: &[Symbol], comments: &[CommentRun]) -> Vec<Elision> {
    let mut leading: Vec<(u64, u64, usize)> = symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| s.start_line < s.def_line)
        .map(|(index, s)| (s.start_line, s.def_line, index))
        .collect();
    leading.sort_unstable();
    comments
        .iter()
        .map(|c| {
            let head_end = c.paragraph_end.min(c.first + COMMENT_HEAD - 1);
            let at = leading.partition_point(|&(start, _, _)| start <= c.first);
            let symbol = at
                .checked_sub(1)
                .map(|i| leading[i])
                .filter(|&(_, def_line, _)| c.first < def_line)
                .map(|(_, _, index)| index);
            Elision {
                first: head_end + 1,
                last: c.last,
                part: match c.docstring {
                    true => Part::Docstring,
                    false => Part::Comment,
                },
                symbol,
            }
        })
        .collect()
}

/// Each Markdown section keeps its heading and its first paragraph; the rest up to the
/// next heading (blank lines around it kept) is left out.
fn section_rests(symbols: &[Symbol], lines: &[&[u8]]) -> Vec<Elision> {
    let blank = |line: u64| {
        lines
            .get(line as usize - 1)
            .is_none_or(|l| l.iter().all(u8::is_ascii_whitespace))
    };
    let total = lines.len() as u64;
    let mut starts: Vec<u64> = symbols.iter().map(|s| s.start_line).collect();
    starts.sort_unstable();
    let mut out = Vec::new();
    for (symbol, s) in symbols.iter().enumerate() {
        let next = starts
            .iter()
            .copied()
            .find(|&start| start > s.start_line)
            .unwrap_or(total + 1);
        let mut line = s.def_line + 1;
        while line < next && blank(line) {
            line += 1;
        }
        while line < next && !blank(line) {
            line += 1;
        }
        while line < next && blank(line) {
            line += 1;
        }
        let mut last = next - 1;
        while last >= line && blank(last) {
            last -= 1;
        }
        if last >= line {
            out.push(Elision {
                first: line,
                last,
                part: Part::Body,
                symbol: Some(symbol),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::symbol::Body;
    use super::*;

    fn function(name: &str, start_line: u64, def_line: u64, body: (u64, u64)) -> Symbol {
        Symbol {
            name: name.to_string(),
            qualified_name: name.to_string(),
            kind: "function",
            start_line,
            start_col: 0,
            def_line,
            end_line: body.1 + 1,
            depth: 0,
            parent: None,
            body: Some(Body {
                open: def_line,
                first: body.0,
                last: body.1,
                close: Some(body.1 + 1),
            }),
        }
    }

    fn run(first: u64, last: u64, paragraph_end: u64) -> CommentRun {
        CommentRun {
            first,
            last,
            paragraph_end,
            docstring: false,
        }
    }

    #[test]
    fn a_long_comment_keeps_its_head_and_one_in_a_body_goes_with_the_body() {
        // Lines 1-8: f's docs; 9: its name; 10-30: its body, with a comment at 12-20;
        // 33-38: a comment of no symbol, one paragraph.
        let symbols = [function("f", 1, 9, (10, 30))];
        let comments = [run(1, 8, 1), run(12, 20, 12), run(33, 38, 38)];
        let got = elisions(&symbols, false, &[], &comments);
        assert_eq!(
            got,
            [
                Elision {
                    first: 2,
                    last: 8,
                    part: Part::Comment,
                    symbol: Some(0)
                },
                Elision {
                    first: 10,
                    last: 30,
                    part: Part::Body,
                    symbol: Some(0)
                },
                Elision {
                    first: 35,
                    last: 38,
                    part: Part::Comment,
                    symbol: None
                },
            ]
        );
    }
}
