//! A PDF read as its text (SPEC §16): every page's text, extracted in-process, shown as a view.
//!
//! lopdf parses the file (it repairs broken cross-reference tables, decrypts files that
//! open without a password, and bounds how far a stream may inflate); `layout` walks each
//! page's content stream (`content` reads its operators as tolerantly as poppler does)
//! and lays the text out in lines; `font` turns a string's bytes
//! into codes, text and advances the way poppler does (`cmap` reads ToUnicode maps
//! tolerantly, `tables` holds the glyph list, encodings and standard-14 metrics).
//! Everything here is pure Rust, so the binary stays self-contained.
//!
//! Three guards make untrusted files safe to open:
//! - **Size.** Files over [`MAX_PDF_BYTES`] are refused before parsing.
//! - **Memory.** One read stays within [`MEMORY_BUDGET`] whatever the file's shape:
//!   `bounds` counts the tokens lopdf would parse (the file's objects, its object
//!   streams', one content operation's) and refuses the file before they are parsed;
//!   no stream may inflate past `objects::MAX_STREAM_BYTES`, a page's content (its forms
//!   included) past `layout::MAX_PAGE_CONTENT_BYTES`, and the text of all pages past
//!   [`MAX_TEXT_BYTES`]; content is parsed one operator at a time, never into one list
//!   (lopdf's own `extract_text` takes 1.2 GB for 2 million operators).
//! - **Time and panics.** The work runs on its own thread inside `catch_unwind`; the thread
//!   checks the deadline between operators, and the caller stops waiting at the deadline
//!   in any case (see [`extract`]).

mod bounds;
mod cmap;
mod content;
mod font;
mod glyph;
mod layout;
mod names;
mod objects;
mod predefined;
#[rustfmt::skip]
mod tables;

use std::ops::RangeInclusive;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

/// The largest PDF read as text, 64 MiB. lopdf parses the whole file up front, and the
/// file is held twice: with what its objects take (`bounds`), a read stays within
/// [`MEMORY_BUDGET`]; larger files are [`PdfError::TooLarge`].
pub const MAX_PDF_BYTES: usize = 64 << 20;

pub use bounds::MEMORY_BUDGET;

/// The most text kept over all pages, 16 MiB: far past any real document (the 87 pages of
/// bash's manual are 300 KiB), and a cap on what a crafted file can make us hold.
pub const MAX_TEXT_BYTES: usize = 16 << 20;

/// The worker's stack. lopdf's parser recurses (its nesting is capped at 100 levels), and
/// a spawned thread's default 2 MiB is less than the main thread's 8 MiB that the library
/// is tested with; only the pages touched are ever committed.
const WORKER_STACK_BYTES: usize = 16 << 20;

/// Why a PDF can't be read as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PdfError {
    /// It needs a password. A file encrypted with an empty user password (only its
    /// permissions are restricted) opens as any viewer opens it, and is read.
    Encrypted,
    /// Not a PDF lopdf can repair: no usable cross-reference data or page tree, or every
    /// page's content is broken and none gave text.
    Damaged,
    /// Over [`MAX_PDF_BYTES`], or its text over [`MAX_TEXT_BYTES`].
    TooLarge,
    /// The time budget ran out.
    Timeout,
}

impl PdfError {
    /// The `error.detail.reason` SPEC §16 gives the first two; the others are ours.
    pub fn reason(self) -> &'static str {
        match self {
            PdfError::Encrypted => "pdf_encrypted",
            PdfError::Damaged => "pdf_damaged",
            PdfError::TooLarge => "pdf_too_large",
            PdfError::Timeout => "pdf_timeout",
        }
    }
}

/// The text of a PDF, page by page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PdfText {
    /// The text of each page, in page order: lines joined with `\n`, no trailing spaces,
    /// at most one blank line in a row, no blank line first or last, and no control
    /// characters but `\t` (form feeds included). A page without text is `""`.
    pub pages: Vec<String>,
    /// The pages (0-based, in order) whose content was not all read, and why: the view
    /// says so on the page itself, so that a page is never silently empty or short.
    pub unread: Vec<(usize, Unread)>,
}

/// Why some of a page's content was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unread {
    /// A content stream is gone (a truncated file) or does not decode.
    Damaged,
    /// Its content inflates past what one page may (`layout::MAX_PAGE_CONTENT_BYTES`).
    TooLarge,
}

impl Unread {
    /// The line the view shows at the end of such a page.
    pub fn line(self) -> &'static str {
        match self {
            Unread::Damaged => {
                "[Some of this page's content could not be read: the file is damaged.]"
            }
            Unread::TooLarge => {
                "[Some of this page's content was not read: it inflates past 32 MiB.]"
            }
        }
    }
}

impl PdfText {
    /// Whether any page has text; when none has, the PDF has no text layer (a scan, or
    /// drawings only) and the view wants the footer that says so.
    pub fn has_text(&self) -> bool {
        self.pages.iter().any(|page| !page.is_empty())
    }

    /// Why page `index` (0-based) was not all read, if it was not.
    fn unread(&self, index: usize) -> Option<Unread> {
        self.unread
            .binary_search_by_key(&index, |&(i, _)| i)
            .ok()
            .map(|at| self.unread[at].1)
    }
}

/// Extracts the text of every page.
///
/// Never panics: the extraction runs inside `catch_unwind`, and a panic in lopdf (it has
/// `unwrap`s on paths a crafted file can reach) is [`PdfError::Damaged`]. The release
/// profile must keep `panic = "unwind"` for that, as agentread's does.
///
/// Never takes much longer than `budget`: the work runs on a thread of its own that checks
/// the deadline between content operators and pages. lopdf's loading of the file can't be
/// interrupted, so if the deadline passes during it the caller returns
/// [`PdfError::Timeout`] at once and **the thread is left behind**: it finishes parsing
/// (bounded by the size and inflation limits), finds the deadline passed at its first
/// check, frees everything and exits; its result goes nowhere.
///
/// Memory: at most [`MAX_PDF_BYTES`] of input (copied once, for the worker to own), lopdf's
/// parsed objects, one page's content (`layout::MAX_PAGE_CONTENT_BYTES`) and the text.
pub fn extract(bytes: &[u8], budget: Duration) -> Result<PdfText, PdfError> {
    extract_unless(bytes, budget, None)
}

/// How often a caller waiting for the worker looks at its `cancelled` flag.
const CANCEL_POLL: Duration = Duration::from_millis(10);

/// [`extract`], given up (as [`PdfError::Timeout`]) within a few milliseconds of
/// `cancelled` being set; the worker then stops at its next check, as it does at the
/// deadline.
pub fn extract_unless(
    bytes: &[u8],
    budget: Duration,
    cancelled: Option<&AtomicBool>,
) -> Result<PdfText, PdfError> {
    if bytes.len() > MAX_PDF_BYTES {
        return Err(PdfError::TooLarge);
    }
    // A budget too large to add to now is no deadline at all.
    let deadline = Instant::now().checked_add(budget);
    // The worker may outlive this call (see above), so it owns its copy of the bytes.
    let data: Arc<[u8]> = Arc::from(bytes);
    let (sender, receiver) = mpsc::sync_channel(1);
    // Set when the caller stops waiting: the worker stops at its next check.
    let given_up = Arc::new(AtomicBool::new(false));
    let worker = {
        let data = Arc::clone(&data);
        let given_up = Arc::clone(&given_up);
        thread::Builder::new()
            .name("pdf-text".into())
            .stack_size(WORKER_STACK_BYTES)
            .spawn(move || {
                // The receiver is gone if the caller gave up; the result is then dropped.
                let _ = sender.send(guarded(&data, deadline, &given_up));
            })
    };
    let outcome = if worker.is_err() {
        // No thread to be had (resource limits): do the work here, still panic-safe and
        // still checking the deadline, only without the hard stop around lopdf's parse.
        Ok(guarded(&data, deadline, &given_up))
    } else {
        wait(&receiver, deadline, cancelled)
    };
    if outcome.is_err() {
        given_up.store(true, Ordering::Relaxed);
    }
    outcome.and_then(|result| result)
}

type Pages = Result<PdfText, PdfError>;

/// The worker's result, or Timeout at the deadline or once `cancelled` is set.
fn wait(
    receiver: &mpsc::Receiver<Pages>,
    deadline: Option<Instant>,
    cancelled: Option<&AtomicBool>,
) -> Result<Pages, PdfError> {
    loop {
        let now = Instant::now();
        let slice = match deadline {
            Some(deadline) if deadline <= now => return Err(PdfError::Timeout),
            Some(deadline) => (deadline - now).min(CANCEL_POLL),
            None => CANCEL_POLL,
        };
        match receiver.recv_timeout(slice) {
            Ok(pages) => return Ok(pages),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if cancelled.is_some_and(|c| c.load(Ordering::Relaxed)) {
                    return Err(PdfError::Timeout);
                }
            }
            // The worker always sends before it ends, panic or not; this is a safety net.
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err(PdfError::Damaged),
        }
    }
}

/// Runs the extraction with a panic turned into [`PdfError::Damaged`].
fn guarded(data: &[u8], deadline: Option<Instant>, given_up: &AtomicBool) -> Pages {
    // AssertUnwindSafe: nothing the closure touches outlives a panic but `data`, which it
    // only reads.
    panic::catch_unwind(AssertUnwindSafe(|| {
        layout::extract_pages(data, deadline, given_up)
    }))
    .unwrap_or(Err(PdfError::Damaged))
}

/// The view SPEC §16 describes: for every page a line `--- page N ---` (N from 1), then
/// the page's lines; every line ends with `\n`. A page without text is its header alone.
/// The view has no footer: when [`PdfText::has_text`] is false the caller adds the one
/// that says the PDF has no text layer.
pub fn view(text: &PdfText) -> String {
    let size = text.pages.iter().map(|page| page.len() + 24).sum();
    let mut out = String::with_capacity(size);
    for (index, page) in text.pages.iter().enumerate() {
        out.push_str("--- page ");
        out.push_str(&(index + 1).to_string());
        out.push_str(" ---\n");
        if !page.is_empty() {
            out.push_str(page);
            out.push('\n');
        }
        if let Some(why) = text.unread(index) {
            out.push_str(why.line());
            out.push('\n');
        }
    }
    out
}

/// The lines each page takes in [`view`], 1-based and inclusive, header line included:
/// what the symbols `page-N` (SPEC §16) point at.
pub fn page_lines(text: &PdfText) -> Vec<RangeInclusive<usize>> {
    let mut first = 1;
    text.pages
        .iter()
        .enumerate()
        .map(|(index, page)| {
            let body = if page.is_empty() {
                0
            } else {
                page.lines().count()
            } + usize::from(text.unread(index).is_some());
            let span = first..=first + body;
            first += body + 1;
            span
        })
        .collect()
}

/// Makes a page's raw text fit for a model: control characters other than `\n` and `\t`
/// become spaces (a NUL or form feed would otherwise end up in the answer), ligatures
/// are spelled out, trailing spaces go, runs of blank lines become one, and blank lines
/// at either end go.
fn normalise(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut blank_pending = false;
    for line in raw.split('\n') {
        let mut clean = String::with_capacity(line.len());
        for c in line.chars() {
            match c {
                '\t' => clean.push(c),
                c if c.is_control() => clean.push(' '),
                // Typographic ligatures, as pdftotext spells them: a model (and grep)
                // knows "file", not "ﬁle".
                '\u{fb00}' => clean.push_str("ff"),
                '\u{fb01}' => clean.push_str("fi"),
                '\u{fb02}' => clean.push_str("fl"),
                '\u{fb03}' => clean.push_str("ffi"),
                '\u{fb04}' => clean.push_str("ffl"),
                '\u{fb05}' | '\u{fb06}' => clean.push_str("st"),
                c => clean.push(c),
            }
        }
        let clean = clean.trim_end();
        if clean.is_empty() {
            // Only a blank line between two lines of text survives.
            blank_pending = !out.is_empty();
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
            if blank_pending {
                out.push('\n');
            }
        }
        blank_pending = false;
        out.push_str(&logical_order(clean));
    }
    out
}

/// Whether a character is written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko
/// and their presentation forms).
fn is_rtl(c: char) -> bool {
    matches!(u32::from(c), 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
}

/// Whether a character is written left to right: a letter or digit of any other script.
fn is_ltr(c: char) -> bool {
    c.is_alphanumeric() && !is_rtl(c)
}

/// A line in reading order, as pdftotext gives it: a PDF draws right-to-left text left
/// to right, as it is seen, so a right-to-left run is turned around (and a line that is
/// mostly right to left is turned around whole, its left-to-right runs such as numbers
/// and Latin words kept as they read).
fn logical_order(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.chars().any(is_rtl) {
        return line.into();
    }
    let mut chars: Vec<char> = line.chars().collect();
    let rtl = chars.iter().filter(|&&c| is_rtl(c)).count();
    let ltr = chars.iter().filter(|&&c| is_ltr(c)).count();
    // Runs from a character of one kind to the last of that kind before one of the
    // other: neutrals (spaces, punctuation) between two of a kind belong to the run.
    let turn_runs = |chars: &mut Vec<char>, of_kind: fn(char) -> bool, other: fn(char) -> bool| {
        let mut i = 0;
        while i < chars.len() {
            if !of_kind(chars[i]) {
                i += 1;
                continue;
            }
            let (start, mut last) = (i, i);
            while i < chars.len() && !other(chars[i]) {
                if of_kind(chars[i]) {
                    last = i;
                }
                i += 1;
            }
            chars[start..=last].reverse();
            i = last + 1;
        }
    };
    if rtl > ltr {
        // Leading indentation stays where it is.
        let indent = chars.iter().take_while(|c| c.is_whitespace()).count();
        chars[indent..].reverse();
        turn_runs(&mut chars, is_ltr, is_rtl);
    } else {
        turn_runs(&mut chars, is_rtl, is_ltr);
    }
    chars.into_iter().collect::<String>().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed tables (`names.rs`) read back sorted, and each name is found where it is.
    #[test]
    fn the_sorted_tables_are_sorted_and_found() {
        for (table, len) in [
            (&tables::GLYPH_NAMES, tables::GLYPH_CHARS.len()),
            (&tables::ZAPF_NAMES, tables::ZAPF_CHARS.len()),
            (&tables::METRIC_GLYPHS, tables::METRICS[0].1.len()),
        ] {
            for i in 0..len {
                let name = table.get(i);
                assert!(!name.is_empty());
                assert!(i == 0 || table.get(i - 1).as_bytes() < name.as_bytes());
                assert_eq!(table.find(name.as_bytes()), Some(i));
            }
            assert_eq!(table.get(len), "");
        }
        assert_eq!(
            tables::GLYPH_CHARS[tables::GLYPH_NAMES.find(b"AEacute").unwrap()],
            'Ǽ'
        );
        assert_eq!(tables::WIN_ANSI.get(0x80), "Euro");
        assert_eq!(tables::STANDARD.get(0x41), "A");
        assert_eq!(tables::STANDARD.get(0x80), "");
    }

    #[test]
    fn normalise_trims_collapses_and_replaces_controls() {
        let raw = "\n\n  title  \n\n\n\nbody\x00with\x0cnul\t tab \n \n\x0c\n";
        assert_eq!(normalise(raw), "  title\n\nbody with nul\t tab");
    }

    #[test]
    fn right_to_left_runs_are_read_in_logical_order() {
        // Drawn as seen: "שלום" appears as םולש, its letters left to right.
        assert_eq!(logical_order("םולש"), "שלום");
        // A right-to-left line keeps its number and Latin word as they read.
        assert_eq!(logical_order("123 ABC םלוע םולש"), "שלום עולם 123 ABC");
        // A Latin line with one Hebrew word turns that word only.
        assert_eq!(
            logical_order("the word םולש means peace"),
            "the word שלום means peace"
        );
        assert_eq!(logical_order("plain"), "plain");
    }

    #[test]
    fn normalise_keeps_single_blank_lines_and_empty_pages() {
        assert_eq!(normalise("a\n\nb\nc"), "a\n\nb\nc");
        assert_eq!(normalise(" \n\x0c\n"), "");
        assert_eq!(normalise("a\r\nb"), "a\nb");
        assert_eq!(normalise("\u{fb01}le e\u{fb00}ort"), "file effort");
    }

    #[test]
    fn view_heads_every_page() {
        let text = PdfText {
            pages: vec!["one\ntwo".into(), String::new(), "three".into()],
            unread: Vec::new(),
        };
        assert_eq!(
            view(&text),
            "--- page 1 ---\none\ntwo\n--- page 2 ---\n--- page 3 ---\nthree\n"
        );
        assert!(text.has_text());
        assert_eq!(page_lines(&text), [1..=3, 4..=4, 5..=6]);
        // A page not all read says so on its last line.
        let damaged = PdfText {
            unread: vec![(1, Unread::Damaged), (2, Unread::TooLarge)],
            ..text.clone()
        };
        assert_eq!(
            view(&damaged),
            format!(
                "--- page 1 ---\none\ntwo\n--- page 2 ---\n{}\n--- page 3 ---\nthree\n{}\n",
                Unread::Damaged.line(),
                Unread::TooLarge.line()
            )
        );
        assert_eq!(page_lines(&damaged), [1..=3, 4..=5, 6..=8]);
        assert!(
            !PdfText {
                pages: vec![String::new(); 2],
                unread: Vec::new(),
            }
            .has_text()
        );
    }

    #[test]
    fn oversized_input_is_refused_before_parsing() {
        let big = vec![b' '; MAX_PDF_BYTES + 1];
        assert_eq!(
            extract(&big, Duration::from_secs(1)),
            Err(PdfError::TooLarge)
        );
    }

    #[test]
    fn reasons_match_the_spec() {
        assert_eq!(PdfError::Encrypted.reason(), "pdf_encrypted");
        assert_eq!(PdfError::Damaged.reason(), "pdf_damaged");
    }
}
