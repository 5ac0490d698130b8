//! The footer's sentences, shared by the text footer, the XML `<hint>`s and the JSON
//! `text` field. The command line's wording says `--start-line 501`; the tool's wording
//! (in JSON, for agents) says `start_line=501`.

use crate::outcome::Success;
use crate::read::window::{TruncatedBy, Window};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wording {
    Cli,
    Tool,
}

impl Wording {
    fn showing(self) -> &'static str {
        match self {
            Wording::Cli => "showing",
            Wording::Tool => "Showing",
        }
    }

    fn start_line(self, n: u64) -> String {
        match self {
            Wording::Cli => format!("--start-line {n}"),
            Wording::Tool => format!("start_line={n}"),
        }
    }

    fn limit(self, n: u64) -> String {
        match self {
            Wording::Cli => format!(" --limit {n}"),
            Wording::Tool => format!(", limit={n}"),
        }
    }

    fn start_char(self, n: u64) -> String {
        match self {
            Wording::Cli => format!(" --start-char {n}"),
            Wording::Tool => format!(", start_char={n}"),
        }
    }
}

/// The footer lines worth saying for this answer, in order.
/// `max_bytes` is the byte budget a truncation footer names.
pub fn footer(success: &Success, max_bytes: u64, wording: Wording) -> Vec<String> {
    match success {
        Success::Text(read) => {
            let mut hints = window_hints(&read.window, max_bytes, wording, "file", "lines");
            if read.window.replaced() {
                let mut hint = format!(
                    "[Bytes that are not valid {} are shown as U+FFFD.",
                    read.encoding
                );
                if let Some(legacy) = &read.suggested_encoding {
                    hint.push_str(&format!(" This looks like {legacy}: use --encoding auto."));
                }
                hint.push(']');
                hints.push(hint);
            }
            hints
        }
        Success::Directory(listing) => {
            window_hints(&listing.window, max_bytes, wording, "directory", "entries")
        }
        Success::Unchanged(unchanged) => vec![format!(
            "(unchanged since hash {})",
            unchanged.facts.content_hash.as_deref().unwrap_or_default()
        )],
        Success::Image(..) => Vec::new(),
    }
}

fn window_hints(
    window: &Window,
    max_bytes: u64,
    wording: Wording,
    kind: &str,
    unit: &str,
) -> Vec<String> {
    if window.total_lines == 0 {
        return vec![format!("({kind} is empty)")];
    }
    let mut hints = Vec::new();
    let (first, last, total) = (
        window.start_line,
        window.end_line().unwrap_or(window.start_line),
        window.total_lines,
    );
    let showing = wording.showing();
    if let Some(next) = window.next_start_line() {
        let why = match window.truncated_by {
            Some(TruncatedBy::Bytes) => format!("Truncated at {max_bytes} bytes"),
            _ => "Truncated".to_string(),
        };
        hints.push(format!(
            "[{why}: {showing} {unit} {first}-{last} of {total}. Use {} to continue.]",
            wording.start_line(next)
        ));
    }
    if window.tail_dropped > 0 {
        let dropped = window.tail_dropped;
        hints.push(format!(
            "[Truncated at {} bytes: {showing} the last {} {unit} ({first}-{last} of {total}). Use {}{} for the {dropped} before them.]",
            max_bytes,
            window.lines_read(),
            wording.start_line(first - dropped),
            wording.limit(dropped),
        ));
    }
    if let Some(cut) = window.first_cut() {
        hints.push(format!(
            "[Line {} was cut at {} of {} chars. Use {}{} to continue it.]",
            cut.line,
            cut.shown_to,
            cut.total,
            wording.start_line(cut.line),
            wording.start_char(cut.shown_to + 1),
        ));
    }
    hints
}
