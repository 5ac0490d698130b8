//! Cutting a large Markdown file into pieces read one at a time: between blocks, at
//! column 0, outside fenced code and HTML comments, never before a setext underline. A
//! reference link in one piece may be defined in another, so the labels of the whole
//! file's definitions are gathered first, and a link to one of them counts as a link.

use std::collections::HashSet;

use pulldown_cmark::{BrokenLink, CowStr};

/// The labels of a file's link reference definitions (`[label]: destination`),
/// normalised as CommonMark matches them (case and runs of whitespace ignored).
#[derive(Default)]
pub(super) struct References {
    labels: HashSet<String>,
}

impl References {
    /// The labels defined anywhere in `text`, as lines that look like definitions
    /// (up to three spaces, `[label]:`); a look-alike in a code block counts too, which
    /// can only turn a bracketed word in a heading into the link text it names.
    pub fn of(text: &str) -> References {
        let labels = text
            .lines()
            .filter_map(|line| {
                let indent = line.len() - line.trim_start_matches(' ').len();
                let rest = line[indent..].strip_prefix('[').filter(|_| indent <= 3)?;
                let (label, after) = rest.split_once(']')?;
                after.starts_with(':').then(|| normalise(label))
            })
            .collect();
        References { labels }
    }

    /// What pulldown-cmark calls for a reference it found no definition of in the
    /// piece: a link (to nowhere: only its text matters here) when the file defines it.
    pub fn callback<'a>(
        &'a self,
    ) -> impl FnMut(BrokenLink<'_>) -> Option<(CowStr<'a>, CowStr<'a>)> + 'a {
        move |link: BrokenLink<'_>| {
            self.labels
                .contains(&normalise(&link.reference))
                .then_some((CowStr::Borrowed(""), CowStr::Borrowed("")))
        }
    }
}

/// A label as references match it.
fn normalise(label: &str) -> String {
    label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The end of the piece that starts at `start`: the first line, `piece_bytes` on, that
/// starts a block at column 0 outside fenced code and HTML comments (after a blank
/// line, or with a marker that interrupts a paragraph), and is no setext underline; or
/// the end.
pub(super) fn piece_end(text: &str, start: usize, piece_bytes: usize) -> usize {
    let bytes = text.as_bytes();
    let mut fence: Option<(u8, usize)> = None;
    let mut in_comment = false;
    let mut previous_blank = false;
    let mut at = start;
    while at < bytes.len() {
        let line_end = bytes[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |n| at + n);
        let line = &bytes[at..line_end];
        if at >= start.saturating_add(piece_bytes.max(1))
            && fence.is_none()
            && !in_comment
            && starts_block(line, previous_blank)
        {
            return at;
        }
        // A block that runs on past twice a piece (a paragraph of 8 MiB of `[` lines),
        // and at least 1 MiB, is cut at a line all the same (not in fenced code or a
        // comment, which cost little): pulldown-cmark holds every
        // inline of a block, 60 bytes a byte of `[`, and reports nothing (nor is the
        // deadline looked at) before the block ends. Only a setext heading whose text is
        // over a MiB could be named differently.
        let hard = piece_bytes.max(1 << 19).saturating_mul(2);
        if at >= start.saturating_add(hard)
            && fence.is_none()
            && !in_comment
            && line.first().is_some_and(|b| !b.is_ascii_whitespace())
        {
            return at;
        }
        if fence.is_none() {
            in_comment = next_in_comment(in_comment, line);
        }
        if !in_comment {
            fence = next_fence(fence, line);
        }
        previous_blank = line.iter().all(u8::is_ascii_whitespace);
        at = line_end + 1;
    }
    bytes.len()
}

/// Whether a line can start a piece: at column 0, not an underline that would make
/// the line above a heading, and after a blank line or interrupting any paragraph.
fn starts_block(line: &[u8], previous_blank: bool) -> bool {
    let Some(&first) = line.first() else {
        return false;
    };
    if first.is_ascii_whitespace() {
        return false;
    }
    let trimmed = line.trim_ascii_end();
    if trimmed.iter().all(|&b| b == b'=' || b == b'-') {
        return false;
    }
    previous_blank
        || matches!(first, b'#' | b'>')
        || line.starts_with(b"- ")
        || line.starts_with(b"* ")
        || line.starts_with(b"+ ")
}

/// Whether an HTML comment block is open after `line` (one starts with `<!--` at
/// column 0 to 3 and runs to the line holding `-->`; blank lines do not end it).
fn next_in_comment(open: bool, line: &[u8]) -> bool {
    let contains_end = |text: &[u8]| text.windows(3).any(|w| w == b"-->");
    if open {
        return !contains_end(line);
    }
    let indent = line.iter().take_while(|&&b| b == b' ').count();
    match line[indent.min(3)..].strip_prefix(b"<!--") {
        Some(rest) if indent <= 3 => !contains_end(rest),
        _ => false,
    }
}

/// The fence open after `line`, given the one open before it (CommonMark's fences:
/// up to three spaces, then three or more backticks or tildes; closed by a run of the
/// same character at least as long, with nothing after it).
fn next_fence(open: Option<(u8, usize)>, line: &[u8]) -> Option<(u8, usize)> {
    let indent = line.iter().take_while(|&&b| b == b' ').count();
    if indent > 3 {
        return open;
    }
    let rest = &line[indent..];
    let Some(&marker @ (b'`' | b'~')) = rest.first() else {
        return open;
    };
    let run = rest.iter().take_while(|&&b| b == marker).count();
    if run < 3 {
        return open;
    }
    match open {
        Some((open_marker, open_run)) => {
            let closes = marker == open_marker
                && run >= open_run
                && rest[run..].iter().all(u8::is_ascii_whitespace);
            if closes { None } else { open }
        }
        None => Some((marker, run)),
    }
}
