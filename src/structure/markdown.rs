//! Markdown: each heading (ATX `#` or setext underline) is a section that runs to the
//! line before the next heading of the same or a higher level. pulldown-cmark decides
//! what is a heading, so a `#` line in a fenced code block is none. A large file is read
//! in pieces (see `markdown_pieces`), as pulldown-cmark holds every block of what it
//! reads.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use super::collect::Collected;
use super::deadline::Deadline;
use super::markdown_pieces::{References, piece_end};
use super::symbol::{OutlineError, Symbol};

/// The separator of a section's qualified name.
const SEPARATOR: &str = " > ";

/// A heading's text is kept up to this many bytes, as other names are.
const MAX_HEADING_BYTES: usize = 200;

/// The deadline is looked at once every this many events.
const CHECK_EVERY: u32 = 1 << 12;

/// A heading as the parser reports it, before its section's end is known.
struct Heading {
    level: u8,
    text: String,
    /// 1-based, in the whole file.
    line: u64,
}

/// Appends the sections of a Markdown file to `out`, in order, nested by level, reading
/// it in pieces of at least `piece_bytes`.
pub(super) fn sections(
    source: &[u8],
    deadline: Deadline<'_>,
    piece_bytes: usize,
    out: &mut Collected,
) -> Result<(), OutlineError> {
    let text = String::from_utf8_lossy(source);
    let ends = text.bytes().filter(|&b| b == b'\n').count() as u64;
    let total = ends + u64::from(!text.is_empty() && !text.ends_with('\n'));
    let text = without_long_lines(text);
    // The open sections, outermost first, with their levels.
    let mut open: Vec<(usize, u8)> = Vec::new();
    // Reference links in headings resolve across pieces only by the labels of the whole
    // file; a file read in one piece needs none.
    let references = match text.len() > piece_bytes {
        true => References::of(&text),
        false => References::default(),
    };
    let mut start = front_matter_end(&text);
    let mut first_line = 1 + text[..start].bytes().filter(|&b| b == b'\n').count() as u64;
    while start < text.len() {
        let end = piece_end(&text, start, piece_bytes);
        let piece = &text[start..end];
        for heading in headings(piece, first_line, &references, deadline)? {
            while let Some(&(index, level)) = open.last() {
                if level < heading.level {
                    break;
                }
                out.symbols[index].end_line = heading.line - 1;
                open.pop();
            }
            let parent = open.last().map(|&(index, _)| index);
            let qualified_name = match parent {
                Some(index) => format!(
                    "{}{SEPARATOR}{}",
                    out.symbols[index].qualified_name, heading.text
                ),
                None => heading.text.clone(),
            };
            let index = out.push(Symbol {
                name: heading.text,
                qualified_name,
                kind: "section",
                start_line: heading.line,
                start_col: 0,
                def_line: heading.line,
                end_line: total,
                depth: open.len() as u32,
                parent,
                body: None,
            })?;
            open.push((index, heading.level));
        }
        first_line += piece.bytes().filter(|&b| b == b'\n').count() as u64;
        start = end;
    }
    Ok(())
}

/// Lines are parsed up to this many bytes: a heading's text is kept to 200 bytes, and
/// pulldown-cmark holds every inline of a block (60 bytes a byte of `[`), which pieces
/// cannot bound within one line.
const MAX_LINE_BYTES: usize = 64 << 10;

/// `text` with every line cut to [`MAX_LINE_BYTES`] (at a character boundary); line
/// numbers are unchanged.
fn without_long_lines(text: std::borrow::Cow<'_, str>) -> std::borrow::Cow<'_, str> {
    if text.split('\n').all(|line| line.len() <= MAX_LINE_BYTES) {
        return text;
    }
    let mut out = String::with_capacity(text.len().min(1 << 20));
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut end = line.len().min(MAX_LINE_BYTES);
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        out.push_str(&line[..end]);
    }
    std::borrow::Cow::Owned(out)
}

/// The non-empty headings of `piece`, whose first line is the file's line
/// `first_line`, with their levels (1–6).
fn headings(
    piece: &str,
    first_line: u64,
    references: &References,
    deadline: Deadline<'_>,
) -> Result<Vec<Heading>, OutlineError> {
    // CommonMark alone: no extension adds or hides headings.
    let options = Options::empty();
    let ends: Vec<usize> = piece.match_indices('\n').map(|(at, _)| at).collect();
    let line_of = |offset: usize| first_line + ends.partition_point(|&end| end < offset) as u64;
    let mut headings = Vec::new();
    let mut current: Option<Heading> = None;
    let parser = Parser::new_with_broken_link_callback(piece, options, Some(references.callback()));
    for (steps, (event, range)) in (1u32..).zip(parser.into_offset_iter()) {
        if steps % CHECK_EVERY == 0 && deadline.passed() {
            return Err(OutlineError::Timeout);
        }
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                current = Some(Heading {
                    level: level as u8,
                    text: String::new(),
                    line: line_of(range.start),
                });
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(mut heading) = current.take() {
                    heading.text = squash(&heading.text);
                    if !heading.text.is_empty() {
                        headings.push(heading);
                    }
                }
            }
            Event::Text(part) | Event::Code(part) => {
                if let Some(heading) = current.as_mut()
                    && heading.text.len() < MAX_HEADING_BYTES * 2
                {
                    heading.text.push_str(&part);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some(heading) = current.as_mut() {
                    heading.text.push(' ');
                }
            }
            _ => {}
        }
    }
    Ok(headings)
}

/// Where the front matter at the top of a file ends (0 if there is none): a `---` (or
/// TOML's `+++`) line, then a non-blank line, up to a line of the same marker (or
/// `...` for YAML). Its `title: x` over the closing `---` is no setext heading.
/// pulldown-cmark's own option would take such blocks anywhere in a file, hiding the
/// headings between two thematic breaks.
fn front_matter_end(text: &str) -> usize {
    let mut lines = text.split_inclusive('\n');
    let Some(opener) = lines.next() else {
        return 0;
    };
    let marker = match opener.trim_end() {
        "---" => "---",
        "+++" => "+++",
        _ => return 0,
    };
    let mut end = opener.len();
    for (index, line) in lines.enumerate() {
        end += line.len();
        let line = line.trim_end();
        if index == 0 && line.is_empty() {
            return 0;
        }
        if index > 0 && (line == marker || (marker == "---" && line == "...")) {
            return end;
        }
    }
    0
}

/// Heading text as one line, cut to [`MAX_HEADING_BYTES`] at a character boundary.
fn squash(text: &str) -> String {
    let mut out = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if out.len() > MAX_HEADING_BYTES {
        let mut end = MAX_HEADING_BYTES;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
        out.push('…');
    }
    out
}
