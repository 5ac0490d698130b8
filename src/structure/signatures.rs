//! `--signatures` (SPEC §18): which lines a view of a file without its function and
//! method bodies leaves out. Each left-out run becomes one marker line in the view.

use super::symbol::Symbol;

/// A run of a file's lines left out of the signatures view, and the symbol (an index
/// into the outline) whose body, or Markdown section's rest, it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elision {
    pub first: u64,
    pub last: u64,
    pub symbol: usize,
}

/// A body of at most this many lines is kept whole: its marker would save nothing.
const KEEP_WHOLE: u64 = 3;

/// The runs to leave out, in order, none inside another: the bodies of functions and
/// methods longer than [`KEEP_WHOLE`] lines (a nested function goes with the body that
/// holds it). For Markdown (`sections`), what follows each section's first paragraph up
/// to the next heading. `lines` are the file's lines (for Markdown's paragraphs).
pub fn elisions(symbols: &[Symbol], sections: bool, lines: &[&[u8]]) -> Vec<Elision> {
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
                        symbol,
                    },
                )
            })
            .collect(),
    };
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
                symbol,
            });
        }
    }
    out
}
