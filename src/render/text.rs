//! The text format: the numbered window and its footer on stdout, errors on stderr.
//! On a terminal, control characters show as their Unicode pictures and colour is
//! allowed; off a terminal the content is byte-faithful.

use std::io::{self, Write};

use owo_colors::OwoColorize;

use super::Context;
use super::hints;
use crate::answer::Answer;
use crate::cli::ColorWhen;
use crate::error::{Error, ErrorCode};
use crate::names;
use crate::outcome::Success;
use crate::read::window::Window;

/// The colour policy: `always` wins over NO_COLOR; `auto` colours only a terminal and
/// only when NO_COLOR is unset or empty.
pub fn use_color(when: ColorWhen, terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => terminal && no_color.is_none_or(|v| v.is_empty()),
    }
}

/// Writes one answer (its `==> label <==` header too, when `header`); returns whether
/// anything went to stdout.
pub fn write(
    out: &mut impl Write,
    err: &mut impl Write,
    context: &Context,
    answer: &Answer,
    first: bool,
    header: bool,
) -> io::Result<bool> {
    let success = match &answer.result {
        Err(error) => {
            write_error(err, error, context.stderr_terminal)?;
            return Ok(false);
        }
        Ok(success) => success,
    };
    if header {
        write_header(out, context, &answer.label, first)?;
    }
    let window = match success {
        Success::Text(read) => Some(&read.window),
        Success::Directory(listing) => Some(&listing.window),
        Success::Unchanged(_) | Success::Image(..) | Success::Outline(_) => None,
    };
    // A streamed window (`--all`) holds no content: its lines are counted.
    let mut shown = window.is_some_and(|w| w.lines_read() > 0);
    if let Some(window) = window {
        write_content(out, window, context)?;
    }
    if let Success::Outline(outline) = success {
        shown = !outline.content.is_empty();
        let text = names::utf8(&outline.content);
        match context.terminal {
            true => out.write_all(names::visible(&text, true).as_bytes())?,
            false => out.write_all(&outline.content)?,
        }
    }
    if context.hint {
        let footer = hints::footer(success, context.max_bytes, context.wording);
        if shown && !footer.is_empty() {
            out.write_all(b"\n")?;
        }
        for line in footer {
            match context.color {
                true => writeln!(out, "{}", line.yellow())?,
                false => writeln!(out, "{line}")?,
            }
        }
    }
    Ok(true)
}

/// With several PATHs, the `==> label <==` line that opens an answer (after a blank line
/// but for the first).
pub fn write_header(
    out: &mut impl Write,
    context: &Context,
    label: &str,
    first: bool,
) -> io::Result<()> {
    if !context.several {
        return Ok(());
    }
    if !first {
        out.write_all(b"\n")?;
    }
    let header = format!("==> {} <==", names::visible(label, false));
    match context.color {
        true => writeln!(out, "{}", header.bold()),
        false => writeln!(out, "{header}"),
    }
}

/// `--all`'s sink: each line written as it is read, styled as [`write_content`] styles a
/// window's lines. A failed write is kept apart from the read's own errors, so that a
/// closed pipe ends the run quietly.
pub struct Stream<'p, 'c, W: Write> {
    printer: &'p mut super::Printer<'c>,
    out: &'p mut W,
    label: &'p str,
    color: bool,
    terminal: bool,
    failed: Option<io::Error>,
}

impl<'p, 'c, W: Write> Stream<'p, 'c, W> {
    pub(super) fn new(
        printer: &'p mut super::Printer<'c>,
        out: &'p mut W,
        label: &'p str,
    ) -> Stream<'p, 'c, W> {
        let (color, terminal) = (printer.context.color, printer.context.terminal);
        Stream {
            printer,
            out,
            label,
            color,
            terminal,
            failed: None,
        }
    }

    /// The write that failed, if one did: the read stopped there.
    pub fn failed(&mut self) -> Option<io::Error> {
        self.failed.take()
    }

    fn written(&mut self, result: io::Result<()>) -> io::Result<()> {
        result.map_err(|err| {
            self.failed = Some(err);
            io::Error::other("the output was closed")
        })
    }
}

impl<W: Write> crate::read::LineSink for Stream<'_, '_, W> {
    fn begin(&mut self) -> io::Result<()> {
        let written = self.printer.begin_streamed(self.out, self.label);
        self.written(written)
    }

    fn prefix(&mut self, prefix: &[u8]) -> io::Result<()> {
        let written = match self.color {
            true => write!(self.out, "{}", names::utf8(prefix).dimmed()),
            false => self.out.write_all(prefix),
        };
        self.written(written)
    }

    fn text(&mut self, text: &[u8]) -> io::Result<()> {
        let written = match self.terminal {
            true => self
                .out
                .write_all(names::visible(&names::utf8(text), true).as_bytes()),
            false => self.out.write_all(text),
        };
        self.written(written)
    }

    fn end_line(&mut self) -> io::Result<()> {
        let written = self.out.write_all(b"\n");
        self.written(written)
    }
}

/// `agentread: CODE: message`, then any "did you mean" candidates; names in them are
/// shown with control pictures. For a person at a terminal, a path outside the root
/// adds how to set the root.
pub fn write_error(err: &mut impl Write, error: &Error, person: bool) -> io::Result<()> {
    write!(err, "agentread: ")?;
    write_error_body(err, error)?;
    let outside = error.code == ErrorCode::AccessDenied && error.detail.is_none();
    if person && outside {
        writeln!(
            err,
            "The workspace root is set by --root DIR or AGENTREAD_ROOT (else it is the current directory)."
        )?;
    }
    Ok(())
}

/// `CODE: message` and the candidates, as text mode prints them after `agentread: `.
pub fn write_error_body(err: &mut impl Write, error: &Error) -> io::Result<()> {
    writeln!(
        err,
        "{}: {}",
        error.code.name(),
        names::visible(&error.message, false)
    )?;
    if !error.suggestions.is_empty() {
        writeln!(err, "Did you mean one of these?")?;
        for candidate in &error.suggestions {
            writeln!(err, "  {}", names::visible(candidate, false))?;
        }
    }
    Ok(())
}

fn write_content(out: &mut impl Write, window: &Window, context: &Context) -> io::Result<()> {
    if !context.color && !context.terminal {
        return out.write_all(&window.content);
    }
    for line in window.rendered() {
        let prefix = names::utf8(line.prefix);
        let text = names::utf8(line.text);
        let marker = names::utf8(line.marker);
        let text = match context.terminal {
            true => names::visible(&text, true).into(),
            false => text,
        };
        match (context.color, marker.is_empty()) {
            (true, true) => writeln!(out, "{}{text}", prefix.dimmed())?,
            (true, false) => writeln!(out, "{}{text}{}", prefix.dimmed(), marker.dimmed())?,
            (false, _) => writeln!(out, "{prefix}{text}{marker}")?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn colour_policy() {
        let set = Some(OsStr::new("1"));
        let empty = Some(OsStr::new(""));
        assert!(use_color(ColorWhen::Always, false, set));
        assert!(!use_color(ColorWhen::Never, true, None));
        assert!(use_color(ColorWhen::Auto, true, None));
        assert!(use_color(ColorWhen::Auto, true, empty));
        assert!(!use_color(ColorWhen::Auto, true, set));
        assert!(!use_color(ColorWhen::Auto, false, None));
    }
}
