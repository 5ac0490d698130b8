//! The block of lines around a line by indentation (SPEC §15 `--enclosing`), for files
//! without a known language or lines outside every symbol.

/// Columns a tab counts for.
const TAB_COLUMNS: usize = 4;

/// The block of lines around line `n` (1-based) of `lines` (each without or with its
/// line end), as 1-based inclusive `(first, last)`:
/// - a blank line `n` counts as the next non-blank line (the previous one at the end of
///   the file);
/// - when the next non-blank line is indented deeper than `n`, line `n` is a header and
///   the block is `n` and the lines after it that are blank or deeper;
/// - otherwise it is the run of lines around `n` that are blank or at least as deep,
///   with the nearest shallower line above as its header; without such a line, the
///   paragraph (the run of non-blank lines) that holds `n`;
/// - a following line at the header's depth that starts with `}`, `]`, `)` or the word
///   `end` closes the block and belongs to it;
/// - blank lines at the block's end are dropped.
///
/// A blank line `n` after the file's last non-blank line has no next line to count as:
/// the block before it is stretched down to `n`, so that `n` is shown (SPEC §15
/// "`--enclosing` always shows line N").
///
/// `n` is clamped into the file; an empty file gives `(0, 0)`.
pub fn indentation_block(lines: &[&[u8]], n: usize) -> (usize, usize) {
    if lines.is_empty() {
        return (0, 0);
    }
    let n = n.clamp(1, lines.len());
    let (first, last) = block_near(lines, n);
    match lines[n - 1..]
        .iter()
        .all(|line| indentation(line).is_none())
    {
        true => (first, last.max(n)),
        false => (first, last),
    }
}

/// The block the rules above give for line `n`, which a blank line `n` may lie outside.
fn block_near(lines: &[&[u8]], n: usize) -> (usize, usize) {
    let count = lines.len();
    let depth = |i: usize| indentation(lines[i]);
    let mut at = n.clamp(1, count) - 1;
    if depth(at).is_none() {
        match (at + 1..count)
            .find(|&i| depth(i).is_some())
            .or_else(|| (0..at).rev().find(|&i| depth(i).is_some()))
        {
            Some(i) => at = i,
            // Nothing but blank lines: the line itself.
            None => return (at + 1, at + 1),
        }
    }
    let Some(own) = depth(at) else {
        return (at + 1, at + 1);
    };
    let next = (at + 1..count).find_map(depth);
    let (first, mut last, header_depth) = if next.is_some_and(|next| next > own) {
        (at, run_down(&depth, at, count, |d| d > own), Some(own))
    } else {
        let mut header = None;
        for i in (0..at).rev() {
            if let Some(d) = depth(i).filter(|&d| d < own) {
                header = Some((i, d));
                break;
            }
        }
        let last = run_down(&depth, at, count, |d| d >= own);
        match header {
            Some((line, d)) => (line, last, Some(d)),
            // No header: not a block but the top level (SPEC §15 "`--enclosing` always
            // shows line N"), so the paragraph, the run of non-blank lines, that holds `at`.
            None => {
                let first = (0..at)
                    .rev()
                    .take_while(|&i| depth(i).is_some())
                    .last()
                    .unwrap_or(at);
                let last = (at + 1..count)
                    .take_while(|&i| depth(i).is_some())
                    .last()
                    .unwrap_or(at);
                return (first + 1, last + 1);
            }
        }
    };
    if let Some(header_depth) = header_depth
        && last + 1 < count
        && depth(last + 1) == Some(header_depth)
        && closes(lines[last + 1])
    {
        last += 1;
    }
    while last > first && depth(last).is_none() {
        last -= 1;
    }
    (first + 1, last + 1)
}

/// The last line of the run after `at` of lines that are blank or whose depth `keeps`.
fn run_down(
    depth: &impl Fn(usize) -> Option<usize>,
    at: usize,
    count: usize,
    keeps: impl Fn(usize) -> bool,
) -> usize {
    let mut last = at;
    for i in at + 1..count {
        match depth(i) {
            Some(d) if !keeps(d) => break,
            _ => last = i,
        }
    }
    last
}

/// The line's indentation in columns (a tab counts [`TAB_COLUMNS`]), or `None` for a
/// blank line.
fn indentation(line: &[u8]) -> Option<usize> {
    let mut columns = 0;
    for &byte in line {
        match byte {
            b' ' => columns += 1,
            b'\t' => columns += TAB_COLUMNS,
            b'\r' | b'\n' | 0x0b | 0x0c => {}
            _ => return Some(columns),
        }
    }
    None
}

/// Whether a line closes a block: it starts (after its indentation) with `}`, `]`, `)`
/// or `end` as a word (`end`, `end;`, `end if`; not `endpoint`).
fn closes(line: &[u8]) -> bool {
    let text = line.trim_ascii_start();
    match text.first() {
        Some(b'}' | b']' | b')') => true,
        _ => text.strip_prefix(b"end").is_some_and(|rest| {
            rest.first()
                .is_none_or(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
        }),
    }
}
