//! The streaming window reader (SPEC §3, §4): skip the lines before the window by
//! counting newlines, write the window's lines, count the lines after it.
//!
//! It is pure over any `Read` and uses one fixed buffer, so memory stays flat whatever
//! the input: lines outside the window are never decoded, and a shown line is held
//! only up to its cut, which the byte budget bounds as `--max-line-chars` does (the
//! first line too: at least one line is shown, but never more of it than the budget).

use std::collections::VecDeque;
use std::io::{self, Read};

use super::bytes;
use super::endings::LineEndings;
use super::line::{LineCutter, LineFacts, MAX_LINE_CHARS};
use super::numbers::{LineNumber, NumberStyle};
pub use super::source::{BUFFER_SIZE, Input, LineSource};

/// Where the window begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// At this 1-based line.
    Line(u64),
    /// The last this many lines.
    Tail(u64),
}

/// What to show, already validated (see `request`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowSpec {
    pub start: Start,
    pub limit: u64,
    /// 1-based character of the first line where the shown part begins.
    pub start_char: u64,
    pub max_line_chars: u64,
    pub max_bytes: u64,
    /// `--max-tokens` (SPEC §18): the content's `o200k_base` tokens, applied as
    /// `max_bytes` is. None: no token budget (the tokenizer is then never loaded).
    pub max_tokens: Option<u64>,
    pub numbers: NumberStyle,
    /// Find the input's line endings (`stats.line_endings`); text output does not show them.
    pub line_endings: bool,
}

/// What one answer may show: `--max-bytes` and `--max-tokens`, or, with `paths`, what
/// the answers before it left of them (SPEC §16, §18).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub bytes: u64,
    pub tokens: Option<u64>,
}

impl Budget {
    /// What is left after an answer showed `content`: at least one byte and one token,
    /// so that the next answer still shows its first line, cut to fit.
    pub fn after(self, content: &[u8]) -> Budget {
        Budget {
            bytes: self.bytes.saturating_sub(content.len() as u64).max(1),
            tokens: self
                .tokens
                .map(|t| t.saturating_sub(super::tokens::count(content)).max(1)),
        }
    }
}

/// Why lines remain after the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TruncatedBy {
    Limit,
    Bytes,
    Tokens,
}

impl TruncatedBy {
    pub fn name(self) -> &'static str {
        match self {
            TruncatedBy::Limit => "limit",
            TruncatedBy::Bytes => "bytes",
            TruncatedBy::Tokens => "tokens",
        }
    }
}

/// One line of the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShownLine {
    pub number: u64,
    /// How the line was cut: characters skipped (`--start-char`), shown and left out.
    pub facts: LineFacts,
    /// The lengths in bytes of its rendered parts in `Window::content`: number prefix,
    /// text, cut marker (the `\n` follows).
    pub parts: [usize; 3],
}

/// A shown line's rendered parts, for renderers that style each one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderedLine<'a> {
    pub prefix: &'a [u8],
    pub text: &'a [u8],
    pub marker: &'a [u8],
}

/// The first cut line, for the footer and `data.next_start_char`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    pub line: u64,
    /// The absolute character position where the shown part ends.
    pub shown_to: u64,
    /// The line's length in characters.
    pub total: u64,
}

/// The answer of the reader for one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// The rendered lines: prefixes, text, cut markers, each ending with `\n`.
    pub content: Vec<u8>,
    pub lines: Vec<ShownLine>,
    /// First line of the window (also when no line is shown).
    pub start_line: u64,
    pub total_lines: u64,
    pub truncated_by: Option<TruncatedBy>,
    /// With `--tail`: lines of the tail left out to keep within `--max-bytes` (or
    /// `--max-tokens`, as `tail_dropped_by` says).
    pub tail_dropped: u64,
    pub tail_dropped_by: TruncatedBy,
    /// The token budget the window was read within, for the footer that names it.
    pub max_tokens: Option<u64>,
    /// The last input line the window covers, when its lines are not the input's one
    /// for one (a signatures view, whose marker lines stand for runs of lines).
    pub covered_to: Option<u64>,
    /// Where the next window starts when it is not the line after this one: a symbol's
    /// window that reached the symbol's end from a later line than its start goes on at
    /// the symbol's start, not past its end.
    pub resume_at: Option<u64>,
    /// None when they were not looked for (`WindowSpec::line_endings`).
    pub line_endings: Option<LineEndings>,
    /// `--all`: the lines handed to a [`LineSink`] as they were read, not held here.
    pub streamed: Streamed,
}

/// What [`stream_all`] handed to its sink: counted, not held.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Streamed {
    pub lines: u64,
    /// Characters of text, each line's `\n` included.
    pub chars: u64,
    /// Some text was replaced by U+FFFD.
    pub replaced: bool,
}

/// Where `--all` writes each line as it is read (SPEC §17), so that no line, and no
/// window, is ever held whole.
pub trait LineSink {
    /// The window begins: its start line exists, or the input is empty and read from
    /// line 1. Called once, before any line, and not at all when the window fails.
    fn begin(&mut self) -> io::Result<()>;
    /// A line's number prefix.
    fn prefix(&mut self, prefix: &[u8]) -> io::Result<()>;
    /// A piece of a line's text: valid UTF-8, whole characters. A long line comes in
    /// several pieces.
    fn text(&mut self, text: &[u8]) -> io::Result<()>;
    /// The line ends.
    fn end_line(&mut self) -> io::Result<()>;
}

impl Window {
    fn empty(start_line: u64) -> Window {
        Window {
            content: Vec::new(),
            lines: Vec::new(),
            start_line,
            total_lines: 0,
            truncated_by: None,
            tail_dropped: 0,
            tail_dropped_by: TruncatedBy::Bytes,
            max_tokens: None,
            covered_to: None,
            resume_at: None,
            line_endings: None,
            streamed: Streamed::default(),
        }
    }

    /// The shown lines' rendered parts, in order.
    pub fn rendered(&self) -> impl Iterator<Item = RenderedLine<'_>> {
        let mut rest = self.content.as_slice();
        self.lines.iter().map(move |line| {
            let [prefix, text, marker] = line.parts;
            let (p, after) = rest.split_at(prefix);
            let (t, after) = after.split_at(text);
            let (m, after) = after.split_at(marker);
            rest = after.get(1..).unwrap_or_default();
            RenderedLine {
                prefix: p,
                text: t,
                marker: m,
            }
        })
    }

    pub fn lines_read(&self) -> u64 {
        self.lines.len() as u64 + self.streamed.lines
    }

    pub fn end_line(&self) -> Option<u64> {
        if self.covered_to.is_some() && !self.lines.is_empty() {
            return self.covered_to;
        }
        match self.lines.last() {
            Some(line) => Some(line.number),
            None => (self.streamed.lines > 0).then(|| self.start_line + self.streamed.lines - 1),
        }
    }

    pub fn truncated(&self) -> bool {
        self.truncated_by.is_some()
    }

    pub fn next_start_line(&self) -> Option<u64> {
        self.truncated_by?;
        Some(
            self.resume_at
                .unwrap_or(self.end_line().unwrap_or(self.start_line - 1) + 1),
        )
    }

    /// Characters of file text shown, each line's `\n` included.
    pub fn chars_read(&self) -> u64 {
        self.lines.iter().map(|l| l.facts.shown + 1).sum::<u64>() + self.streamed.chars
    }

    pub fn lines_cut(&self) -> u64 {
        self.lines.iter().filter(|l| l.facts.is_cut()).count() as u64
    }

    /// Some shown text was replaced by U+FFFD.
    pub fn replaced(&self) -> bool {
        self.streamed.replaced || self.lines.iter().any(|l| l.facts.replaced)
    }

    pub fn first_cut(&self) -> Option<Cut> {
        self.lines.iter().find(|l| l.facts.is_cut()).map(|l| Cut {
            line: l.number,
            shown_to: l.facts.skipped + l.facts.shown,
            total: l.facts.total(),
        })
    }
}

/// Why the reader could not produce a window.
#[derive(Debug)]
pub enum WindowError {
    Io(io::Error),
    StartLinePastEnd {
        start_line: u64,
        total_lines: u64,
    },
    StartCharPastEnd {
        line: u64,
        start_char: u64,
        chars: u64,
    },
}

impl From<io::Error> for WindowError {
    fn from(err: io::Error) -> WindowError {
        WindowError::Io(err)
    }
}

/// A window of numbered lines that are not an input's lines one for one (the signatures
/// view of SPEC §18): each entry, `(number, text)`, is one line with its own number, cut
/// as `--max-line-chars` cuts, within `spec`'s limit and budgets as a window's lines
/// are. Returns the window and how many entries it shows; the caller sets what the
/// window says about the input (`total_lines`, `truncated_by`, `covered_to`).
pub fn entries_window<T: AsRef<[u8]>>(entries: &[(u64, T)], spec: &WindowSpec) -> (Window, usize) {
    let start = entries.first().map_or(1, |(number, _)| *number);
    let mut window = Window::empty(start);
    window.max_tokens = spec.max_tokens;
    // Room made once, as the entries are known: the lines the limit lets through, and
    // their text with a gutter and a line end each, up to the budget and a line more. A
    // view of a thousand lines grown line by line copied its lines and content into
    // freshly faulted pages at each doubling (a tenth of `--fit`'s page faults).
    let most = entries
        .len()
        .min(usize::try_from(spec.limit).unwrap_or(usize::MAX));
    window.lines.reserve_exact(most);
    let text: usize = entries[..most]
        .iter()
        .map(|(_, text)| text.as_ref().len() + ROOM_PER_LINE)
        .sum();
    window
        .content
        .reserve_exact(text.min(budget(spec).saturating_add(MAX_LINE_CHARS as usize)));
    let mut number = LineNumber::default();
    let max_chars = spec.max_line_chars.min(MAX_LINE_CHARS);
    let mut byte_stop = false;
    for (n, text) in entries {
        let (n, text) = (*n, text.as_ref());
        if window.lines.len() as u64 == spec.limit {
            break;
        }
        let out = &mut window.content;
        let before = out.len();
        number.set(n);
        spec.numbers.write_prefix_of(out, &number);
        let text_start = out.len();
        let room = budget(spec).saturating_sub(text_start - before);
        let mut cutter = LineCutter::within(0, max_chars, room);
        cutter.feed(text, out);
        let facts = cutter.finish(out);
        let marker_start = out.len();
        if facts.is_cut() {
            write_cut_marker(out, facts.dropped);
        }
        let parts = [
            text_start - before,
            marker_start - text_start,
            out.len() - marker_start,
        ];
        out.push(b'\n');
        if !window.lines.is_empty() && out.len() > budget(spec) {
            out.truncate(before);
            byte_stop = true;
            break;
        }
        window.lines.push(ShownLine {
            number: n,
            facts,
            parts,
        });
    }
    let fitted = fit_tokens(&mut window, spec);
    let shown = window.lines.len();
    window.truncated_by = match (shown < entries.len(), fitted, byte_stop) {
        (false, ..) => None,
        (true, Some(_), _) => Some(TruncatedBy::Tokens),
        (true, None, true) => Some(TruncatedBy::Bytes),
        (true, None, false) => Some(TruncatedBy::Limit),
    };
    (window, shown)
}

/// Reads the window `spec` asks for from `input`.
pub fn read_window<R: Read>(input: Input<'_, R>, spec: &WindowSpec) -> Result<Window, WindowError> {
    window_from(LineSource::new(input), spec)
}

/// Reads the window `spec` asks for from lines already set up.
pub fn window_from<R: Read>(
    mut source: LineSource<'_, R>,
    spec: &WindowSpec,
) -> Result<Window, WindowError> {
    source.find_line_endings(spec.line_endings);
    match spec.start {
        Start::Line(start) => forward(&mut source, start, spec),
        Start::Tail(n) => tail_lines(&mut source, 1, n, spec),
    }
}

/// `--tail` when the caller already knows the byte offset (relative to `input`) where the
/// last `n` lines begin: the lines before are only counted.
pub fn read_tail_from<R: Read>(
    input: Input<'_, R>,
    offset: u64,
    n: u64,
    spec: &WindowSpec,
) -> Result<Window, WindowError> {
    tail_from(LineSource::new(input), offset, n, spec)
}

/// [`read_tail_from`] on lines already set up.
pub fn tail_from<R: Read>(
    mut source: LineSource<'_, R>,
    offset: u64,
    n: u64,
    spec: &WindowSpec,
) -> Result<Window, WindowError> {
    source.find_line_endings(spec.line_endings);
    let before = source.skip_to(offset)?;
    tail_lines(&mut source, before + 1, n, spec)
}

fn forward<R: Read>(
    source: &mut LineSource<'_, R>,
    start: u64,
    spec: &WindowSpec,
) -> Result<Window, WindowError> {
    if let Some(empty) = skip_to_start(source, start)? {
        return Ok(empty);
    }

    let mut window = Window::empty(start);
    // Room for a typical window at once: grown line by line, it was copied several times.
    window.content.reserve(budget(spec).min(16 * 1024));
    window.lines.reserve(spec.limit.min(256) as usize);
    let mut writer = LineWriter::new(spec);
    let mut rejected = false;
    while window.lines_read() < spec.limit && source.has_more()? {
        // `--start-char` applies to the first line only.
        if window.lines_read() > 0 || spec.start_char == 1 {
            writer.write_whole_lines(source, start, spec, &mut window);
            if window.lines_read() == spec.limit || !source.has_more()? {
                break;
            }
        }
        let number = start + window.lines_read();
        let skip = if number == start {
            spec.start_char - 1
        } else {
            0
        };
        let before = window.content.len();
        let line = writer.write_line(source, number, skip, &mut window.content)?;
        if skip > 0 && line.facts.total() < spec.start_char {
            return Err(WindowError::StartCharPastEnd {
                line: number,
                start_char: spec.start_char,
                chars: line.facts.total(),
            });
        }
        // The budget may stop the window before a line, never before the first one.
        if !window.lines.is_empty() && window.content.len() > budget(spec) {
            window.content.truncate(before);
            rejected = true;
            break;
        }
        window.lines.push(line);
    }
    window.max_tokens = spec.max_tokens;
    let fitted = fit_tokens(&mut window, spec);
    let after = source.count_rest()? + u64::from(rejected) + fitted.unwrap_or(0);
    window.total_lines = start - 1 + window.lines_read() + after;
    window.truncated_by = match (after, fitted, rejected) {
        (0, ..) => None,
        (_, Some(_), _) => Some(TruncatedBy::Tokens),
        (_, None, true) => Some(TruncatedBy::Bytes),
        (_, None, false) => Some(TruncatedBy::Limit),
    };
    window.line_endings = source.line_endings();
    Ok(window)
}

/// Passes over the lines before `start`. The empty window of an empty input read from
/// line 1 when there is nothing to show; an error when `start` lies past the end.
fn skip_to_start<R: Read>(
    source: &mut LineSource<'_, R>,
    start: u64,
) -> Result<Option<Window>, WindowError> {
    let skipped = source.skip_lines(start - 1)?;
    if skipped < start - 1 || !source.has_more()? {
        let total = skipped + u64::from(source.ends_inside_a_line());
        if start == 1 && total == 0 {
            let mut window = Window::empty(1);
            window.line_endings = source.line_endings();
            return Ok(Some(window));
        }
        return Err(WindowError::StartLinePastEnd {
            start_line: start,
            total_lines: total,
        });
    }
    Ok(None)
}

/// `--all` (SPEC §17): every line from `start` to the end, none cut, each handed to
/// `sink` as it is read. Memory is the read buffer's whatever the input: a line that
/// does not end inside the buffer goes to the sink piece by piece. The window returned
/// holds no content; it counts what was streamed.
pub fn stream_all<R: Read>(
    input: Input<'_, R>,
    start: u64,
    spec: &WindowSpec,
    sink: &mut dyn LineSink,
) -> Result<Window, WindowError> {
    let mut source = LineSource::new(input);
    source.find_line_endings(spec.line_endings);
    let empty = skip_to_start(&mut source, start)?;
    sink.begin()?;
    if let Some(empty) = empty {
        return Ok(empty);
    }
    let mut window = Window::empty(start);
    let mut streamed = Streamed::default();
    let mut number = LineNumber::default();
    let mut prefix = Vec::new();
    let mut text = Vec::new();
    let mut prefix_of = |n: u64, prefix: &mut Vec<u8>| {
        number.set(n);
        prefix.clear();
        spec.numbers.write_prefix_of(prefix, &number);
    };
    while source.has_more()? {
        // The lines that end inside the buffer as valid UTF-8: nearly every line.
        let buffered = source.buffered();
        let mut used = 0;
        for end in bytes::positions(b'\n', buffered) {
            let line = without_cr(&buffered[used..end]);
            let Some(chars) = whole_text(line, u64::MAX) else {
                break;
            };
            prefix_of(start + streamed.lines, &mut prefix);
            sink.prefix(&prefix)?;
            sink.text(line)?;
            sink.end_line()?;
            streamed.lines += 1;
            streamed.chars += chars + 1;
            used = end + 1;
        }
        source.consume(used);
        if !source.has_more()? {
            break;
        }
        // A line that goes on past the buffer, or holds bytes that are not valid UTF-8.
        prefix_of(start + streamed.lines, &mut prefix);
        sink.prefix(&prefix)?;
        let mut cutter = LineCutter::whole();
        source.next_line_with(&mut cutter, &mut text, |piece| {
            sink.text(piece)?;
            piece.clear();
            Ok(())
        })?;
        let facts = cutter.finish(&mut text);
        if !text.is_empty() {
            sink.text(&text)?;
            text.clear();
        }
        sink.end_line()?;
        streamed.lines += 1;
        streamed.chars += facts.shown + 1;
        streamed.replaced |= facts.replaced;
    }
    window.total_lines = start - 1 + streamed.lines;
    window.streamed = streamed;
    window.line_endings = source.line_endings();
    Ok(window)
}

/// Writes the lines from here to the end, numbered from `first`, and keeps the last `n`
/// of them, of which only as many as the budget can show (at least one). The oldest lines
/// leave as soon as they are out of either, so memory stays near the budget whatever the
/// input: a stream read to its end, or a file's last lines found by offset.
fn tail_lines<R: Read>(
    source: &mut LineSource<'_, R>,
    first: u64,
    n: u64,
    spec: &WindowSpec,
) -> Result<Window, WindowError> {
    let mut window = Window::empty(first);
    let mut kept: VecDeque<ShownLine> = VecDeque::new();
    // Where each kept line begins, counted from the first byte ever written.
    let mut starts: VecDeque<usize> = VecDeque::new();
    let mut removed = 0;
    let mut writer = LineWriter::new(spec);
    let mut number = first;
    while source.has_more()? {
        starts.push_back(removed + window.content.len());
        let line = writer.write_line(source, number, 0, &mut window.content)?;
        kept.push_back(line);
        let end = removed + window.content.len();
        while kept.len() as u64 > n
            || (kept.len() > 1 && starts.front().is_some_and(|&at| end - at > budget(spec)))
        {
            kept.pop_front();
            starts.pop_front();
        }
        // Compact when at least half of the buffer belongs to lines that left.
        let dead = starts.front().map_or(0, |&at| at - removed);
        if dead >= 64 * 1024 && dead * 2 >= window.content.len() {
            window.content.drain(..dead);
            removed += dead;
        }
        number += 1;
    }
    if let Some(&at) = starts.front() {
        window.content.drain(..at - removed);
    }
    window.total_lines = number - 1;
    window.tail_dropped = (number - first).min(n) - kept.len() as u64;
    window.start_line = kept.front().map_or(window.total_lines.max(1), |l| l.number);
    window.lines = kept.into();
    window.max_tokens = spec.max_tokens;
    if let Some(dropped) = fit_tail_tokens(&mut window, spec) {
        window.tail_dropped += dropped;
        window.tail_dropped_by = TruncatedBy::Tokens;
    }
    window.line_endings = source.line_endings();
    Ok(window)
}

fn budget(spec: &WindowSpec) -> usize {
    usize::try_from(spec.max_bytes).unwrap_or(usize::MAX)
}

/// Bytes made room for in a view's content for each line besides its text: a gutter
/// (`  42 | ` up to 99,999,999 lines) and a line end. A longer one grows the content once.
const ROOM_PER_LINE: usize = 16;

/// Where each shown line's rendered bytes end in `window.content` (its `\n` included).
fn line_ends(window: &Window) -> Vec<usize> {
    let mut end = 0;
    window
        .lines
        .iter()
        .map(|line| {
            end += line.parts.iter().sum::<usize>() + 1;
            end
        })
        .collect()
}

/// `--max-tokens` on a window read forward (SPEC §18), applied as the byte budget is: the
/// window stops before the line that would take its content past the budget, and a first
/// line that alone passes it is cut to fit. Some(lines dropped) when the budget took
/// anything away. A token is at least one byte, so content within the budget in bytes
/// is not counted at all.
fn fit_tokens(window: &mut Window, spec: &WindowSpec) -> Option<u64> {
    let max = spec.max_tokens?;
    if window.lines.is_empty() || window.content.len() as u64 <= max {
        return None;
    }
    let ends = line_ends(window);
    let keep = super::tokens::lines_within(&window.content, &ends, max);
    let shown = window.lines.len();
    if keep == shown {
        return None;
    }
    if keep == 0 {
        window.content.truncate(ends[0]);
        window.lines.truncate(1);
        cut_line_to_tokens(window, max);
        return Some(shown as u64 - 1);
    }
    window.content.truncate(ends[keep - 1]);
    window.lines.truncate(keep);
    Some((shown - keep) as u64)
}

/// `--max-tokens` on a tail: its oldest lines leave until the rest fits (at least one
/// line, cut to fit when it alone passes). Some(lines dropped) when the budget took
/// anything away.
fn fit_tail_tokens(window: &mut Window, spec: &WindowSpec) -> Option<u64> {
    let max = spec.max_tokens?;
    if window.lines.is_empty() || window.content.len() as u64 <= max {
        return None;
    }
    let ends = line_ends(window);
    let starts: Vec<usize> = std::iter::once(0).chain(ends.iter().copied()).collect();
    // Each line counted alone: their sums from the end find where to begin, then the
    // exact count of what is kept moves it.
    let alone: Vec<u64> = (0..ends.len())
        .map(|i| super::tokens::count(&window.content[starts[i]..ends[i]]))
        .collect();
    let mut sum = 0;
    let mut from = ends.len();
    while from > 0 && sum + alone[from - 1] <= max {
        sum += alone[from - 1];
        from -= 1;
    }
    let fits = |from: usize| super::tokens::count(&window.content[starts[from]..]) <= max;
    while from < ends.len() && !fits(from) {
        from += 1;
    }
    while from > 0 && from < ends.len() && fits(from - 1) {
        from -= 1;
    }
    if from == 0 {
        return None;
    }
    let last = ends.len() - 1;
    let from = from.min(last);
    window.content.drain(..starts[from]);
    window.lines.drain(..from);
    window.start_line = window.lines[0].number;
    if from == last && super::tokens::count(&window.content) > max {
        cut_line_to_tokens(window, max);
    }
    Some(from as u64)
}

/// Cuts the window's one line so that its rendered content fits `max` tokens, as the
/// byte budget cuts a line too long for it: the most characters that fit (at least one),
/// then the cut marker; `next_start_char` continues it.
fn cut_line_to_tokens(window: &mut Window, max: u64) {
    let line = window.lines[0];
    let [prefix_len, text_len, _] = line.parts;
    let prefix = window.content[..prefix_len].to_vec();
    let text =
        String::from_utf8_lossy(&window.content[prefix_len..prefix_len + text_len]).into_owned();
    let shown = line.facts.shown;
    let render = |chars: u64| {
        let mut out = prefix.clone();
        let end = super::tokens::char_end(&text, chars as usize);
        out.extend_from_slice(&text.as_bytes()[..end]);
        let text_end = out.len();
        let dropped = line.facts.dropped + (shown - chars);
        if dropped > 0 {
            write_cut_marker(&mut out, dropped);
        }
        let marker_end = out.len();
        out.push(b'\n');
        (out, end, marker_end - text_end, dropped)
    };
    let fits = |chars: u64| super::tokens::count(&render(chars).0) <= max;
    // The most characters that fit, found by halving: fewer characters never take more
    // tokens once the marker's are counted.
    let (mut lo, mut hi) = (shown.min(1), shown);
    if !fits(hi) {
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if fits(mid) { lo = mid } else { hi = mid - 1 }
        }
    }
    let (out, text_bytes, marker, dropped) = render(hi);
    let kept = &text.as_bytes()[..text_bytes];
    window.lines[0] = ShownLine {
        facts: LineFacts {
            shown: hi,
            dropped,
            replaced: line.facts.replaced && kept.windows(3).any(|w| w == "\u{FFFD}".as_bytes()),
            ..line.facts
        },
        parts: [prefix_len, text_bytes, marker],
        ..line
    };
    window.content = out;
}

/// Writes one line at a time, appended to a buffer: prefix, text, cut marker, `\n`.
struct LineWriter {
    numbers: NumberStyle,
    max_line_chars: u64,
    /// `--max-bytes`: no line's text is kept beyond it.
    budget: usize,
    number: LineNumber,
}

impl LineWriter {
    fn new(spec: &WindowSpec) -> LineWriter {
        LineWriter {
            numbers: spec.numbers,
            max_line_chars: spec.max_line_chars.min(MAX_LINE_CHARS),
            budget: budget(spec),
            number: LineNumber::default(),
        }
    }

    /// Appends line `number` to `out`: prefix, text, cut marker, `\n`.
    fn write_line<R: Read>(
        &mut self,
        source: &mut LineSource<'_, R>,
        number: u64,
        skip: u64,
        out: &mut Vec<u8>,
    ) -> io::Result<ShownLine> {
        let start = out.len();
        self.number.set(number);
        self.numbers.write_prefix_of(out, &self.number);
        let text_start = out.len();
        // A line alone past the budget is cut at it: a later line would not be shown
        // anyway, and the first one, always shown, is not held whole.
        let max_text = self.budget.saturating_sub(text_start - start);
        let whole = match skip {
            0 => whole_line(source.buffered(), self.max_line_chars)
                .filter(|line| line.text <= max_text),
            _ => None,
        };
        let facts = match whole {
            Some(line) => {
                out.extend_from_slice(&source.buffered()[..line.text]);
                source.consume(line.len);
                LineFacts {
                    shown: line.shown,
                    ..LineFacts::default()
                }
            }
            None => {
                let mut cutter = LineCutter::within(skip, self.max_line_chars, max_text);
                source.next_line(&mut cutter, out)?;
                cutter.finish(out)
            }
        };
        let marker_start = out.len();
        if facts.is_cut() {
            write_cut_marker(out, facts.dropped);
        }
        let parts = [
            text_start - start,
            marker_start - text_start,
            out.len() - marker_start,
        ];
        out.push(b'\n');
        Ok(ShownLine {
            number,
            facts,
            parts,
        })
    }

    /// Writes the lines that end inside the source's buffer and can be shown whole,
    /// one after another: the common case of [`LineWriter::write_line`] (nearly every
    /// line of source code) without its setup for each line. Stops at `spec.limit` lines,
    /// before a line that needs the cutter, and before a line that would take the window
    /// past the budget, all of which [`forward`] then meets as it meets any other line.
    fn write_whole_lines<R: Read>(
        &mut self,
        source: &mut LineSource<'_, R>,
        first: u64,
        spec: &WindowSpec,
        window: &mut Window,
    ) {
        let buffered = source.buffered();
        let mut used = 0;
        for end in bytes::positions(b'\n', buffered) {
            if window.lines_read() == spec.limit {
                break;
            }
            let text = without_cr(&buffered[used..end]);
            let Some(shown) = whole_text(text, self.max_line_chars) else {
                break;
            };
            let number = first + window.lines_read();
            let out = &mut window.content;
            let start = out.len();
            self.number.set(number);
            self.numbers.write_prefix_of(out, &self.number);
            let prefix = out.len() - start;
            out.extend_from_slice(text);
            out.push(b'\n');
            if out.len() > budget(spec) {
                out.truncate(start);
                break;
            }
            window.lines.push(ShownLine {
                number,
                facts: LineFacts {
                    shown,
                    ..LineFacts::default()
                },
                parts: [prefix, text.len(), 0],
            });
            used = end + 1;
        }
        source.consume(used);
    }
}

/// The next line of `buffered`, when it ends there and can be shown whole.
struct WholeLine {
    /// Bytes of its text (a CRLF's `\r` left out).
    text: usize,
    /// Bytes up to and with its `\n`.
    len: usize,
    /// Characters of its text.
    shown: u64,
}

fn whole_line(buffered: &[u8], max_chars: u64) -> Option<WholeLine> {
    let end = bytes::find(b'\n', buffered)?;
    let text = without_cr(&buffered[..end]);
    Some(WholeLine {
        text: text.len(),
        len: end + 1,
        shown: whole_text(text, max_chars)?,
    })
}

/// A line's text without the `\r` of its CRLF.
fn without_cr(line: &[u8]) -> &[u8] {
    match line.split_last() {
        Some((b'\r', text)) => text,
        _ => line,
    }
}

/// The characters of a line's text when it is shown whole, as it is: valid UTF-8 of at
/// most `max_chars` bytes, so that no cut can apply. None sends it through the cutter.
fn whole_text(text: &[u8], max_chars: u64) -> Option<u64> {
    if text.len() as u64 > max_chars {
        return None;
    }
    let chars = match is_ascii(text) {
        true => text.len(),
        false => bytes::chars(bytes::utf8(text)?),
    };
    Some(chars as u64)
}

/// `<[u8]>::is_ascii` a word at a time: the standard one goes byte by byte through
/// pieces as short as a line of code.
fn is_ascii(bytes: &[u8]) -> bool {
    let (words, rest) = bytes.as_chunks::<8>();
    let high = words.iter().fold(0, |all, w| all | u64::from_ne_bytes(*w));
    high & 0x8080_8080_8080_8080 == 0 && rest.iter().all(u8::is_ascii)
}

/// ` … [+N chars]`: a space, the ellipsis, the count of characters left out.
pub fn write_cut_marker(out: &mut Vec<u8>, dropped: u64) {
    out.extend_from_slice(" … [+".as_bytes());
    out.extend_from_slice(itoa::Buffer::new().format(dropped).as_bytes());
    out.extend_from_slice(b" chars]");
}

#[cfg(test)]
mod tests {
    use super::super::reference::{Trickle, naive_lines};
    use super::*;
    use proptest::prelude::*;

    fn spec(start: u64, limit: u64) -> WindowSpec {
        WindowSpec {
            start: Start::Line(start),
            limit,
            start_char: 1,
            max_line_chars: 2000,
            max_bytes: 51200,
            max_tokens: None,
            numbers: NumberStyle::Pipe,
            line_endings: true,
        }
    }

    fn read(data: &[u8], spec: &WindowSpec) -> Window {
        read_window(Input::Stream(data), spec).expect("window")
    }

    fn text(window: &Window) -> String {
        String::from_utf8(window.content.clone()).unwrap()
    }

    #[test]
    fn counts_lines_as_the_spec_says() {
        for (data, total) in [
            (&b""[..], 0),
            (b"a\n", 1),
            (b"a\nb", 2),
            (b"\n\n", 2),
            (b"a\r\nb\r\n", 2),
        ] {
            assert_eq!(read(data, &spec(1, 500)).total_lines, total, "{data:?}");
        }
    }

    #[test]
    fn every_shown_line_ends_with_a_newline_and_crlf_loses_its_cr() {
        let w = read(b"one\r\ntwo\rx\nthree", &spec(1, 500));
        assert_eq!(text(&w), "   1 | one\n   2 | two\rx\n   3 | three\n");
        assert_eq!(w.line_endings, Some(LineEndings::Mixed));
    }

    #[test]
    fn window_in_the_middle_reports_what_remains() {
        let data: String = (1..=10).map(|i| format!("line {i}\n")).collect();
        let w = read(data.as_bytes(), &spec(4, 3));
        assert_eq!(text(&w), "   4 | line 4\n   5 | line 5\n   6 | line 6\n");
        assert_eq!(w.total_lines, 10);
        assert_eq!(w.truncated_by, Some(TruncatedBy::Limit));
        assert_eq!(w.next_start_line(), Some(7));
        let w = read(data.as_bytes(), &spec(8, 3));
        assert_eq!((w.end_line(), w.truncated_by), (Some(10), None));
    }

    #[test]
    fn start_past_the_end_names_the_count() {
        let err = read_window(Input::Stream(&b"a\nb\n"[..]), &spec(3, 10)).unwrap_err();
        assert!(matches!(
            err,
            WindowError::StartLinePastEnd {
                start_line: 3,
                total_lines: 2
            }
        ));
        let err = read_window(Input::Stream(&b""[..]), &spec(2, 10)).unwrap_err();
        assert!(matches!(
            err,
            WindowError::StartLinePastEnd {
                start_line: 2,
                total_lines: 0
            }
        ));
        assert_eq!(read(b"", &spec(1, 10)).lines_read(), 0);
    }

    #[test]
    fn budget_stops_before_the_line_that_would_pass_it_but_shows_one() {
        let data = "abcdefghij\n".repeat(10); // rendered: 7 + 10 + 1 = 18 bytes a line
        let mut s = spec(1, 100);
        s.max_bytes = 18 * 3 + 17;
        let w = read(data.as_bytes(), &s);
        assert_eq!(w.lines_read(), 3);
        assert_eq!(w.truncated_by, Some(TruncatedBy::Bytes));
        assert_eq!(w.next_start_line(), Some(4));
        assert_eq!(w.total_lines, 10);
        s.max_bytes = 1;
        assert_eq!(read(data.as_bytes(), &s).lines_read(), 1);
    }

    #[test]
    fn the_token_budget_stops_before_the_line_that_would_pass_it() {
        let data = "let value = compute(state);\n".repeat(40);
        let mut s = spec(1, 100);
        let whole = super::super::tokens::count(read(data.as_bytes(), &s).content.as_slice());
        s.max_tokens = Some(whole / 2);
        let w = read(data.as_bytes(), &s);
        let shown = super::super::tokens::count(&w.content);
        assert!(shown <= whole / 2);
        assert_eq!(w.truncated_by, Some(TruncatedBy::Tokens));
        let next = w.next_start_line().unwrap();
        s.max_tokens = None;
        s.limit = next;
        let more = read(data.as_bytes(), &s);
        assert!(super::super::tokens::count(&more.content) > whole / 2);
        assert_eq!(w.total_lines, 40);
        // A first line alone past the budget is cut to fit, and says where it goes on.
        s.limit = 100;
        s.max_tokens = Some(4);
        let w = read(data.as_bytes(), &s);
        assert_eq!(w.lines_read(), 1);
        assert!(w.first_cut().is_some());
        assert!(super::super::tokens::count(&w.content) <= 4 || w.lines[0].facts.shown == 1);
        // A tail drops its oldest lines.
        s.start = Start::Tail(30);
        s.max_tokens = Some(whole / 4);
        let w = read(data.as_bytes(), &s);
        assert!(super::super::tokens::count(&w.content) <= whole / 4);
        assert_eq!(w.end_line(), Some(40));
        assert_eq!(w.tail_dropped_by, TruncatedBy::Tokens);
    }

    #[test]
    fn renderers_get_each_line_as_prefix_text_and_marker() {
        let mut s = spec(1, 10);
        s.max_line_chars = 3;
        let w = read(b"ab\nabcdef\n\nx | y\n", &s);
        let parts: Vec<(String, String, String)> = w
            .rendered()
            .map(|l| {
                let text = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
                (text(l.prefix), text(l.text), text(l.marker))
            })
            .collect();
        assert_eq!(
            parts,
            [
                ("   1 | ".into(), "ab".into(), "".into()),
                ("   2 | ".into(), "abc".into(), " … [+3 chars]".into()),
                ("   3 | ".into(), "".into(), "".into()),
                ("   4 | ".into(), "x |".into(), " … [+2 chars]".into()),
            ]
        );
        // A tail trimmed from the front to fit the budget keeps its parts aligned.
        let mut s = spec(1, 3);
        s.start = Start::Tail(3);
        s.max_bytes = 24;
        let w = read(b"one\ntwo\nthree\n", &s);
        assert_eq!(w.tail_dropped, 1);
        let texts: Vec<&[u8]> = w.rendered().map(|l| l.text).collect();
        assert_eq!(texts, [b"two".as_slice(), b"three"]);
    }

    #[test]
    fn long_lines_are_cut_with_a_marker_and_the_first_cut_is_reported() {
        let mut s = spec(1, 10);
        s.max_line_chars = 3;
        let w = read("ab\nhéllo\nxyz\n".as_bytes(), &s);
        assert_eq!(text(&w), "   1 | ab\n   2 | hél … [+2 chars]\n   3 | xyz\n");
        assert_eq!(w.lines_cut(), 1);
        assert_eq!(
            w.first_cut(),
            Some(Cut {
                line: 2,
                shown_to: 3,
                total: 5
            })
        );
        assert_eq!(w.chars_read(), 3 + 4 + 4);
    }

    /// Lines that end inside the buffer are taken whole when no cut can apply; each
    /// boundary of that shortcut gives the cutter's answer.
    #[test]
    fn whole_lines_count_characters_as_the_cutter_does() {
        let mut s = spec(1, 10);
        s.max_line_chars = 5;
        // 4 bytes of 3 characters: taken whole; 6 bytes of 5 and 6 bytes of 2: not whole,
        // and not cut either; invalid UTF-8: replaced; a CRLF line of 5 bytes of text.
        let data = b"h\xc3\xa9l\nh\xc3\xa9llo\n\xe6\xbc\xa2\xe5\xad\x97\n\xffa\nabcde\r\n";
        let w = read(data, &s);
        assert_eq!(
            text(&w),
            "   1 | hél\n   2 | héllo\n   3 | 漢字\n   4 | \u{FFFD}a\n   5 | abcde\n"
        );
        let shown: Vec<u64> = w.lines.iter().map(|l| l.facts.shown).collect();
        assert_eq!(shown, [3, 5, 2, 2, 5]);
        assert!(w.replaced());
        assert_eq!((w.lines_cut(), w.chars_read()), (0, 3 + 5 + 2 + 2 + 5 + 5));
        assert_eq!(w.line_endings, Some(LineEndings::Mixed));
    }

    #[test]
    fn start_char_begins_the_first_line_later() {
        let mut s = spec(2, 2);
        s.start_char = 3;
        s.max_line_chars = 2;
        let w = read(b"0123\nabcdef\nxyz\n", &s);
        assert_eq!(text(&w), "   2 | cd … [+2 chars]\n   3 | xy … [+1 chars]\n");
        assert_eq!(
            w.first_cut(),
            Some(Cut {
                line: 2,
                shown_to: 4,
                total: 6
            })
        );
        s.start_char = 7;
        assert!(matches!(
            read_window(Input::Stream(&b"0123\nabcdef\n"[..]), &s),
            Err(WindowError::StartCharPastEnd {
                line: 2,
                start_char: 7,
                chars: 6
            })
        ));
    }

    #[test]
    fn tail_keeps_true_numbers_and_fits_the_budget_from_the_front() {
        let data: String = (1..=10).map(|i| format!("{i}\n")).collect();
        let mut s = spec(1, 3);
        s.start = Start::Tail(3);
        let w = read(data.as_bytes(), &s);
        assert_eq!(text(&w), "   8 | 8\n   9 | 9\n  10 | 10\n");
        assert_eq!((w.start_line, w.total_lines, w.truncated_by), (8, 10, None));
        s.max_bytes = 20;
        let w = read(data.as_bytes(), &s);
        assert_eq!(text(&w), "   9 | 9\n  10 | 10\n");
        assert_eq!(w.tail_dropped, 1);
        let offset = data.find("8\n").unwrap() as u64;
        let fast = read_tail_from(Input::Stream(data.as_bytes()), offset, 3, &s).unwrap();
        assert_eq!(fast, w);
    }

    #[test]
    fn a_line_longer_than_the_buffer_is_counted_not_held() {
        let mut data = vec![b'x'; BUFFER_SIZE * 3 + 17];
        data.extend_from_slice(b"\nend\n");
        let mut s = spec(1, 10);
        s.max_line_chars = 5;
        let w = read(&data, &s);
        assert_eq!(
            text(&w),
            format!(
                "   1 | xxxxx … [+{} chars]\n   2 | end\n",
                BUFFER_SIZE * 3 + 12
            )
        );
    }

    /// A sink that records what `--all` writes, and the largest piece of text it got.
    #[derive(Default)]
    struct Recorder {
        out: Vec<u8>,
        began: usize,
        largest: usize,
    }

    impl LineSink for Recorder {
        fn begin(&mut self) -> io::Result<()> {
            self.began += 1;
            Ok(())
        }
        fn prefix(&mut self, prefix: &[u8]) -> io::Result<()> {
            self.out.extend_from_slice(prefix);
            Ok(())
        }
        fn text(&mut self, text: &[u8]) -> io::Result<()> {
            assert!(
                std::str::from_utf8(text).is_ok(),
                "a piece of whole characters"
            );
            self.largest = self.largest.max(text.len());
            self.out.extend_from_slice(text);
            Ok(())
        }
        fn end_line(&mut self) -> io::Result<()> {
            self.out.push(b'\n');
            Ok(())
        }
    }

    fn stream<R: Read>(input: Input<'_, R>, start: u64) -> (Recorder, Result<Window, WindowError>) {
        let mut recorder = Recorder::default();
        let result = stream_all(input, start, &spec(start, 1), &mut recorder);
        (recorder, result)
    }

    /// `--all` writes a line longer than the buffer in pieces no larger than the buffer,
    /// whole: no cut, no marker, invalid bytes replaced as in any window.
    #[test]
    fn all_streams_every_line_whole_in_pieces() {
        let long = "é".repeat(BUFFER_SIZE * 2 + 3);
        let mut bytes = long.clone().into_bytes();
        bytes.extend_from_slice(b"\r\nb\xffc\nlast");
        let (recorder, window) = stream(Input::Stream(&bytes[..]), 1);
        let window = window.unwrap();
        let want = format!("   1 | {long}\n   2 | b\u{FFFD}c\n   3 | last\n");
        assert!(recorder.out == want.as_bytes(), "the lines as they are");
        assert!(recorder.largest <= BUFFER_SIZE + 4, "{}", recorder.largest);
        assert_eq!(recorder.began, 1);
        assert_eq!(
            (window.lines_read(), window.end_line(), window.total_lines),
            (3, Some(3), 3)
        );
        assert!(window.content.is_empty() && window.lines.is_empty());
        assert!(window.replaced() && !window.truncated() && window.lines_cut() == 0);
        assert_eq!(
            window.chars_read(),
            (BUFFER_SIZE * 2 + 3 + 1) as u64 + 4 + 5
        );
        // From a start line; past the end it fails before anything is written.
        let (recorder, window) = stream(Input::Stream(&b"a\nb\nc\n"[..]), 2);
        assert_eq!(recorder.out, b"   2 | b\n   3 | c\n");
        assert_eq!(window.unwrap().start_line, 2);
        let (recorder, window) = stream(Input::Stream(&b"a\n"[..]), 3);
        assert!(matches!(
            window,
            Err(WindowError::StartLinePastEnd {
                start_line: 3,
                total_lines: 1
            })
        ));
        assert_eq!((recorder.began, recorder.out.len()), (0, 0));
        // An empty input read from line 1 begins and shows nothing.
        let (recorder, window) = stream(Input::Stream(&b""[..]), 1);
        assert_eq!((recorder.began, window.unwrap().total_lines), (1, 0));
    }

    fn naive_window(data: &[u8], start: u64, limit: u64, max_chars: u64) -> (String, u64) {
        naive_window_within(data, start, limit, max_chars, usize::MAX)
    }

    /// The naive window with each line's text cut at `max_chars` characters and at the
    /// bytes that `max_bytes` leaves after its number (at least one character).
    fn naive_window_within(
        data: &[u8],
        start: u64,
        limit: u64,
        max_chars: u64,
        max_bytes: usize,
    ) -> (String, u64) {
        let lines = naive_lines(data);
        let mut out = String::new();
        for (i, line) in lines
            .iter()
            .enumerate()
            .skip(start as usize - 1)
            .take(limit as usize)
        {
            let text = String::from_utf8_lossy(line);
            let chars: Vec<char> = text.chars().collect();
            let prefix = format!("{:>4} | ", i + 1);
            let room = max_bytes.saturating_sub(prefix.len());
            let mut kept = String::new();
            for c in chars.iter().take(max_chars as usize) {
                if !kept.is_empty() && kept.len() + c.len_utf8() > room {
                    break;
                }
                kept.push(*c);
            }
            let shown = kept.chars().count();
            out.push_str(&prefix);
            out.push_str(&kept);
            if chars.len() > shown {
                out.push_str(&format!(" … [+{} chars]", chars.len() - shown));
            }
            out.push('\n');
        }
        (out, lines.len() as u64)
    }

    fn naive_endings(data: &[u8]) -> LineEndings {
        let mut scan = super::super::endings::EndingsScan::default();
        scan.scan(data);
        scan.result()
    }

    /// Reads `data` (after `skip` leading bytes) as a file, with every skip and count done
    /// by the parallel tally in chunks of `chunk` bytes.
    fn read_as_file(
        data: &[u8],
        skip: usize,
        chunk: u64,
        spec: &WindowSpec,
    ) -> Result<Window, WindowError> {
        read_as_file_with(data, skip, chunk, 4096, spec)
    }

    /// [`read_as_file`] through a read buffer of `buffer` bytes.
    fn read_as_file_with(
        data: &[u8],
        skip: usize,
        chunk: u64,
        buffer: usize,
        spec: &WindowSpec,
    ) -> Result<Window, WindowError> {
        use std::io::Write;
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(data).unwrap();
        let input: Input<'_, std::io::Empty> = Input::File {
            file: &file,
            start: skip as u64,
            end: data.len() as u64,
        };
        let source = LineSource::tuned(
            input,
            super::super::tally::Parallel { min: 0, chunk },
            buffer,
        );
        match spec.start {
            Start::Tail(n) => {
                let offset =
                    super::super::metered::tail_offset(&file, skip as u64, data.len() as u64, n)
                        .unwrap();
                tail_from(source, offset - skip as u64, n, spec)
            }
            Start::Line(_) => window_from(source, spec),
        }
    }

    #[test]
    fn long_lines_measured_in_parallel_match_a_stream() {
        let long = "aé€😀".repeat(40);
        let data = format!("{long}\r\nshort\r\n{long}\n{long}");
        let mut s = spec(1, 10);
        s.max_line_chars = 5;
        let want = read_window(Input::Stream(data.as_bytes()), &s).unwrap();
        assert_eq!(want.lines[0].facts.total(), 160);
        for chunk in 1..14 {
            for buffer in [1, 2, 3, 5, 64] {
                let got = read_as_file_with(data.as_bytes(), 0, chunk, buffer, &s).unwrap();
                assert_eq!(got, want, "chunk {chunk} buffer {buffer}");
            }
        }
    }

    #[test]
    fn a_file_read_with_parallel_tallies_matches_a_stream() {
        let data: String = (1..=500).map(|i| format!("line {i}\r\n")).collect();
        for (start, chunk) in [(1, 7), (2, 64), (250, 100), (500, 3), (501, 4096)] {
            let s = spec(start, 10);
            let file = read_as_file(data.as_bytes(), 0, chunk, &s);
            let stream = read_window(Input::Stream(data.as_bytes()), &s);
            match (file, stream) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "start {start} chunk {chunk}"),
                (
                    Err(WindowError::StartLinePastEnd { total_lines: a, .. }),
                    Err(WindowError::StartLinePastEnd { total_lines: b, .. }),
                ) => {
                    assert_eq!(a, b)
                }
                (a, b) => panic!("{a:?} vs {b:?}"),
            }
        }
    }

    /// Lines of ASCII, CR, é and €, whole or split, and an invalid byte.
    fn text_bytes(max_len: usize) -> impl Strategy<Value = Vec<u8>> {
        let byte = prop_oneof![
            Just(b'\n'),
            Just(b'\r'),
            Just(b'a'),
            Just(0xC3u8),
            Just(0xA9u8),
            Just(0xE2u8),
            Just(0x82u8),
            Just(0xACu8),
            Just(0xFFu8)
        ];
        proptest::collection::vec(byte, 0..max_len)
    }

    proptest! {
        #[test]
        fn agrees_with_a_naive_reader_at_every_buffer_boundary(
            data in text_bytes(80),
            start in 1u64..12,
            limit in 1u64..6,
            max_chars in 1u64..8,
            sizes in proptest::collection::vec(1usize..7, 0..5),
        ) {
            let mut s = spec(start, limit);
            s.max_line_chars = max_chars;
            let input = Trickle::new(&data, sizes);
            let (want, total) = naive_window(&data, start, limit, max_chars);
            match read_window(Input::Stream(input), &s) {
                Ok(w) => {
                    prop_assert_eq!(text(&w), want);
                    prop_assert_eq!(w.total_lines, total);
                    prop_assert_eq!(w.truncated(), start - 1 + w.lines_read() < total);
                }
                Err(WindowError::StartLinePastEnd { total_lines, .. }) => {
                    prop_assert_eq!(total_lines, total);
                    prop_assert!(start > total && !(start == 1 && total == 0));
                }
                Err(other) => prop_assert!(false, "unexpected {:?}", other),
            }
        }

        /// The budget stops the window before the line that would pass it, never before
        /// the first, wherever that line falls among those written in one pass.
        #[test]
        fn the_budget_agrees_with_a_naive_reader(
            data in text_bytes(120),
            start in 1u64..4,
            limit in 1u64..30,
            max_chars in 1u64..12,
            max_bytes in 1u64..120,
            sizes in proptest::collection::vec(1usize..40, 0..4),
        ) {
            let mut s = spec(start, limit);
            s.max_line_chars = max_chars;
            s.max_bytes = max_bytes;
            let (unbounded, total) =
                naive_window_within(&data, start, limit, max_chars, max_bytes as usize);
            let mut want = String::new();
            let mut shown = 0;
            for line in unbounded.split_inclusive('\n') {
                if shown > 0 && want.len() + line.len() > max_bytes as usize {
                    break;
                }
                want.push_str(line);
                shown += 1;
            }
            match read_window(Input::Stream(Trickle::new(&data, sizes)), &s) {
                Ok(w) => {
                    prop_assert_eq!(text(&w), want);
                    prop_assert_eq!(w.total_lines, total);
                    let rest = start - 1 + w.lines_read() < total;
                    prop_assert_eq!(w.truncated(), rest);
                    let by_bytes = shown < unbounded.split_inclusive('\n').count();
                    prop_assert_eq!(w.truncated_by == Some(TruncatedBy::Bytes), by_bytes);
                }
                Err(WindowError::StartLinePastEnd { total_lines, .. }) => {
                    prop_assert_eq!(total_lines, total);
                }
                Err(other) => prop_assert!(false, "unexpected {:?}", other),
            }
        }

        #[test]
        fn file_reads_with_tiny_parallel_chunks_agree_with_a_naive_reader(
            data in proptest::collection::vec(
                prop_oneof![Just(b'\n'), Just(b'\r'), Just(b'a'), Just(0xC3u8), Just(0xA9u8), Just(0xFFu8)],
                0..90,
            ),
            prefix in 0usize..4,
            start in 1u64..14,
            limit in 1u64..6,
            tail in proptest::option::of(1u64..6),
            chunk in 1u64..9,
            buffer in 1usize..12,
            endings in any::<bool>(),
        ) {
            let prefix = prefix.min(data.len());
            let body = &data[prefix..];
            let mut s = spec(start, limit);
            s.max_line_chars = 3;
            s.line_endings = endings;
            if let Some(n) = tail {
                s.start = Start::Tail(n);
                s.limit = n;
            }
            let total = naive_lines(body).len() as u64;
            let first = match s.start {
                Start::Tail(n) => total.saturating_sub(n) + 1,
                Start::Line(start) => start,
            };
            let (want, _) = naive_window(body, first, s.limit, 3);
            match read_as_file_with(&data, prefix, chunk, buffer, &s) {
                Ok(w) => {
                    prop_assert_eq!(text(&w), want);
                    prop_assert_eq!(w.total_lines, total);
                    prop_assert_eq!(w.line_endings, endings.then(|| naive_endings(body)));
                    if tail.is_none() {
                        prop_assert_eq!(w.truncated(), first - 1 + w.lines_read() < total);
                    }
                }
                Err(WindowError::StartLinePastEnd { total_lines, .. }) => {
                    prop_assert_eq!(total_lines, total);
                    prop_assert!(tail.is_none() && start > total && !(start == 1 && total == 0));
                }
                Err(other) => prop_assert!(false, "unexpected {:?}", other),
            }
        }

        /// `--all` shows what a window without limit or cut would, at every buffer
        /// boundary, from a stream or from a file read at offsets.
        #[test]
        fn all_agrees_with_a_naive_reader(
            data in text_bytes(80),
            start in 1u64..12,
            sizes in proptest::collection::vec(1usize..7, 0..5),
        ) {
            let (want, total) = naive_window(&data, start, u64::MAX, u64::MAX);
            let mut file = tempfile::tempfile().unwrap();
            std::io::Write::write_all(&mut file, &data).unwrap();
            let at_offsets: Input<'_, std::io::Empty> =
                Input::File { file: &file, start: 0, end: data.len() as u64 };
            for (recorder, result) in [
                stream(Input::Stream(Trickle::new(&data, sizes.clone())), start),
                stream(at_offsets, start),
            ] {
                match result {
                    Ok(w) => {
                        prop_assert_eq!(String::from_utf8(recorder.out).unwrap(), want.clone());
                        prop_assert_eq!(w.total_lines, total);
                        prop_assert_eq!(w.lines_read(), total.saturating_sub(start - 1));
                    }
                    Err(WindowError::StartLinePastEnd { total_lines, .. }) => {
                        prop_assert_eq!(total_lines, total);
                        prop_assert_eq!(recorder.began, 0);
                    }
                    Err(other) => prop_assert!(false, "unexpected {:?}", other),
                }
            }
        }

        #[test]
        fn tail_agrees_with_the_last_lines_of_a_naive_reader(
            data in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), Just(b'a')], 0..60),
            n in 1u64..8,
            sizes in proptest::collection::vec(1usize..7, 0..5),
        ) {
            let total = naive_lines(&data).len() as u64;
            let start = total.saturating_sub(n) + 1;
            let (want, _) = naive_window(&data, start, n, 2000);
            let mut s = spec(1, n);
            s.start = Start::Tail(n);
            let w = read_window(Input::Stream(Trickle::new(&data, sizes)), &s).unwrap();
            prop_assert_eq!(text(&w), want);
            prop_assert_eq!((w.total_lines, w.start_line), (total, start.max(1)));
        }
    }
}
