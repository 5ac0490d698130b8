//! Renders answers in the three formats of SPEC §6, each into any `Write`.

pub mod envelope;
pub mod hints;
pub mod json;
pub mod text;
pub mod xml;

use std::io::{self, Write};

use crate::args::cli::Format;
use crate::args::params::Wording;
use crate::outcome::Answer;

/// What rendering needs besides the answer.
#[derive(Debug, Clone)]
/// How answers are written: the format and what the reader of the output is.
pub struct Style {
    pub format: Format,
    /// `--max-bytes`, which a truncation footer names.
    pub max_bytes: u64,
    /// Text mode prints a footer.
    pub hint: bool,
    pub color: bool,
    /// Standard output is a terminal: control characters are shown visibly.
    pub terminal: bool,
    /// Standard error is a terminal: a person reads the errors.
    pub stderr_terminal: bool,
    /// `context.cwd`: the current directory relative to the root.
    pub cwd: Option<String>,
    /// More than one PATH: text answers get `==> path <==` headers.
    pub several: bool,
    /// `-C`: each window is lines around a target. With several of them, text mode says
    /// each file's total once, at the end, instead of a truncation footer per window.
    pub context_lines: bool,
    /// How hints name parameters in text and XML (JSON `text` always names the tool's).
    pub wording: Wording,
}

/// Writes answers one after another, remembering what the text format needs to separate them.
pub struct Printer<'a> {
    context: &'a Style,
    answered: usize,
    /// The next answer's lines were streamed (`--all`) after its header.
    streamed: bool,
    /// Each file's total lines, in the order first shown, for the footer of several
    /// `-C` windows.
    totals: Vec<(String, u64)>,
}

impl<'a> Printer<'a> {
    pub fn new(context: &'a Style) -> Printer<'a> {
        Printer {
            context,
            answered: 0,
            streamed: false,
            totals: Vec::new(),
        }
    }

    /// Writes what is said once after every answer: for several `-C` windows in text
    /// mode, each file's total lines (their windows left the truncation footer out); for
    /// several PATHs in XML, the end of the one `<files>` document.
    pub fn finish(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.context.format == Format::Xml && self.context.several && self.answered > 0 {
            return out.write_all(b"</files>\n");
        }
        if self.totals.is_empty() {
            return Ok(());
        }
        let totals = std::mem::take(&mut self.totals);
        text::write_totals(out, self.context, &totals)
    }

    /// Notes a `-C` window's file and total for [`Printer::finish`].
    fn note_total(&mut self, answer: &Answer) {
        let Ok(crate::outcome::Success::Text(read)) = &answer.result else {
            return;
        };
        if !self.totals.iter().any(|(path, _)| *path == read.facts.path) {
            self.totals
                .push((read.facts.path.clone(), read.window.total_lines));
        }
    }

    /// The text sink that writes `--all`'s lines to `out` as they are read, after the
    /// `==> label <==` header; [`Printer::print`] then writes the answer's footer.
    pub fn stream<'p, W: Write>(
        &'p mut self,
        out: &'p mut W,
        label: &'p str,
    ) -> text::Stream<'p, 'a, W> {
        text::Stream::new(self, out, label)
    }

    /// Writes the header of an answer whose lines follow as they are read.
    fn begin_streamed(&mut self, out: &mut impl Write, label: &str) -> io::Result<()> {
        let first = self.answered == 0;
        self.answered += 1;
        self.streamed = true;
        text::write_header(out, self.context, label, first)
    }

    /// Writes one answer: text errors to `err`, everything else to `out`.
    pub fn print(
        &mut self,
        out: &mut impl Write,
        err: &mut impl Write,
        answer: &Answer,
    ) -> io::Result<()> {
        match self.context.format {
            Format::Text => {
                let first = self.answered == 0;
                // A streamed answer's header is written already.
                let header = !std::mem::take(&mut self.streamed);
                if text::write(out, err, self.context, answer, first, header)? && header {
                    self.answered += 1;
                }
                if text::totals_at_the_end(self.context) {
                    self.note_total(answer);
                }
                Ok(())
            }
            Format::Json => json::write(out, self.context, answer),
            Format::Xml => {
                // Several answers are one document: `<files>` holds their elements, so
                // that an XML parser reads them all (several roots are not XML).
                if self.context.several && self.answered == 0 {
                    out.write_all(b"<files>\n")?;
                }
                self.answered += 1;
                xml::write(out, self.context, answer)
            }
        }
    }
}

/// Bytes as text, borrowed when they are UTF-8 (checked with SIMD: windows are UTF-8
/// by construction), else with U+FFFD for what is not.
pub fn utf8(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match crate::read::bytes::utf8(bytes) {
        Some(text) => std::borrow::Cow::Borrowed(text),
        None => String::from_utf8_lossy(bytes),
    }
}
