//! The text format: the numbered window and its footer on stdout, errors on stderr.
//! On a terminal, control characters show as their Unicode pictures and colour is
//! allowed; off a terminal the content is byte-faithful.

use std::io::{self, Write};

use owo_colors::OwoColorize;

use super::Style;
use super::hints;
use super::utf8;
use crate::args::cli::ColorWhen;
use crate::error::{Error, ErrorCode};
use crate::names;
use crate::outcome::Answer;
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
    context: &Style,
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
    let (window, target) = match success {
        Success::Text(read) => (Some(&read.window), read.target_line),
        Success::Directory(listing) => (Some(&listing.window), None),
        Success::Map(map) => (Some(&map.window), None),
        Success::Unchanged(_) | Success::Image(..) | Success::Outline(_) => (None, None),
    };
    // A streamed window (`--all`) holds no content: its lines are counted.
    let mut shown = window.is_some_and(|w| w.lines_read() > 0);
    if let Some(window) = window {
        write_content(out, window, context, target)?;
    }
    if let Success::Outline(outline) = success {
        shown = !outline.content.is_empty();
        match context.terminal {
            true => out.write_all(visible_lines(&utf8(&outline.content)).as_bytes())?,
            false => out.write_all(&outline.content)?,
        }
    }
    if context.hint {
        // Several `-C` windows: each file's total is said once, at the end.
        let truncation = !totals_at_the_end(context);
        let footer = hints::footer_of(success, context.max_bytes, context.wording, truncation);
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

/// Several `-C` windows in text mode with a footer: a window is expected to be partial,
/// so none says it is truncated; [`write_totals`] gives each file's total once.
pub fn totals_at_the_end(context: &Style) -> bool {
    context.several && context.context_lines && context.hint
}

/// After several `-C` windows: `[Lines in each file: a.rs 301, b.rs 120.]`.
pub fn write_totals(
    out: &mut impl Write,
    context: &Style,
    totals: &[(String, u64)],
) -> io::Result<()> {
    let each: Vec<String> = totals
        .iter()
        .map(|(path, total)| format!("{} {total}", names::visible(path, false)))
        .collect();
    let line = format!("[Lines in each file: {}.]", each.join(", "));
    out.write_all(b"\n")?;
    match context.color {
        true => writeln!(out, "{}", line.yellow()),
        false => writeln!(out, "{line}"),
    }
}

/// With several PATHs, the `==> label <==` line that opens an answer (after a blank line
/// but for the first).
pub fn write_header(
    out: &mut impl Write,
    context: &Style,
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
            true => write!(self.out, "{}", utf8(prefix).dimmed()),
            false => self.out.write_all(prefix),
        };
        self.written(written)
    }

    fn text(&mut self, text: &[u8]) -> io::Result<()> {
        let written = match self.terminal {
            true => self
                .out
                .write_all(names::visible(&utf8(text), true).as_bytes()),
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
            "The workspace root is set by --root DIR or AGENTREAD_ROOT (else it is the git work tree holding the current directory, or outside one the current directory)."
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

/// The window's lines: as they are off a terminal without colour, else line by line,
/// control characters made visible on a terminal and the number prefixes dimmed. On a
/// terminal, the line a `PATH:N` target names (`target`) is marked: `  42 > ` for
/// `  42 | `, its number bold when colour is on.
fn write_content(
    out: &mut impl Write,
    window: &Window,
    context: &Style,
    target: Option<u64>,
) -> io::Result<()> {
    if !context.color && !context.terminal {
        return out.write_all(&window.content);
    }
    let target = target.filter(|_| context.terminal);
    for (shown, line) in window.lines.iter().zip(window.rendered()) {
        let is_target = target == Some(shown.number);
        let prefix = utf8(line.prefix);
        let prefix = match is_target {
            true => std::borrow::Cow::Owned(marked(&prefix)),
            false => prefix,
        };
        let text = utf8(line.text);
        let marker = utf8(line.marker);
        let text = match context.terminal {
            true => names::visible(&text, true).into(),
            false => text,
        };
        let style = match is_target {
            true => owo_colors::Style::new().bold(),
            false => owo_colors::Style::new().dimmed(),
        };
        match (context.color, marker.is_empty()) {
            (true, true) => writeln!(out, "{}{text}", prefix.style(style))?,
            (true, false) => writeln!(out, "{}{text}{}", prefix.style(style), marker.dimmed())?,
            (false, _) => writeln!(out, "{prefix}{text}{marker}")?,
        }
    }
    Ok(())
}

/// Several lines for a terminal: each line's control characters shown as pictures, its
/// line end kept. [`names::visible`] is for one name or one line: given the whole text
/// it would draw every line end as `␊` and put an outline on one line.
fn visible_lines(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| match line.strip_suffix('\n') {
            Some(body) => names::visible(body, true) + "\n",
            None => names::visible(line, true),
        })
        .collect()
}

/// A number prefix with the target's mark: the separator becomes `>` (`  42 > `,
/// `42> `), or for `tab` the padding's first space (`>   42\t`). `--numbers none` has no
/// number to mark.
fn marked(prefix: &str) -> String {
    if let Some(number) = prefix.strip_suffix(" | ") {
        format!("{number} > ")
    } else if let Some(number) = prefix.strip_suffix(": ") {
        format!("{number}> ")
    } else if let Some(number) = prefix.strip_suffix('\t') {
        format!(">{}\t", number.strip_prefix(' ').unwrap_or(number))
    } else {
        prefix.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn the_target_line_is_marked_in_each_number_style() {
        assert_eq!(marked("  42 | "), "  42 > ");
        assert_eq!(marked("12345 | "), "12345 > ");
        assert_eq!(marked("42: "), "42> ");
        assert_eq!(marked("    42\t"), ">   42\t");
        assert_eq!(marked("1234567\t"), ">1234567\t");
        assert_eq!(marked(""), "");
    }

    #[test]
    fn lines_stay_lines_on_a_terminal() {
        assert_eq!(
            visible_lines("1-2 | fn a()\n3-4 | fn b\x1b()\n"),
            "1-2 | fn a()\n3-4 | fn b\u{241b}()\n"
        );
        assert_eq!(visible_lines("a\rb"), "a\u{240d}b");
        assert_eq!(visible_lines(""), "");
    }

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
