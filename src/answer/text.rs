//! A text input's window (a file, standard input, or a document's view), with its
//! failures worded for its path.

use std::io::Read;

use crate::args::params::Wording;
use crate::args::request::Request;
use crate::error::{Error, ErrorCode};
use crate::outcome::{Document, FileFacts, Success, TextRead, Unchanged};
use crate::read::sniff::{EncodingChoice, Recognised};
use crate::read::{self, LineSink, ReadError, WindowSpec};
use crate::structure;

pub const STDIN_LABEL: &str = "<stdin>";

/// `--max-file-size`, by the size `stat` gave.
pub fn check_size(request: &Request, facts: &FileFacts) -> Result<(), Error> {
    let size = facts.size_bytes;
    let display = facts.path.as_str();
    if let Some(limit) = &request.settings.max_file_size
        && size > limit.bytes
    {
        return Err(Error::new(
            ErrorCode::SizeLimitExceeded,
            format!(
                "File '{display}' is {size} bytes, larger than {} {} ({} bytes).",
                max_file_size(request),
                limit.given,
                limit.bytes
            ),
        ));
    }
    Ok(())
}

pub fn read_stdin(
    request: &Request,
    input: impl Read,
    ended: bool,
    spec: &WindowSpec,
    sink: Option<&mut dyn LineSink>,
) -> Result<Success, Error> {
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stdin());
    let input = read::TextInput::Stream(TerminalEof {
        input,
        ended,
        terminal,
    });
    read_text(request, stdin_facts(), input, spec, None, None, sink)
}

/// Standard input's facts: no size, time or hash of its own.
pub fn stdin_facts() -> FileFacts {
    FileFacts {
        path: STDIN_LABEL.to_string(),
        path_resolved: STDIN_LABEL.to_string(),
        size_bytes: 0,
        mtime_ms: None,
        content_hash: None,
    }
}

/// Standard input that ends at the first end-of-file a terminal signals (Ctrl-D): a
/// terminal's read returns 0 once per Ctrl-D and then reads on, so a reader that reads
/// again after a 0 would need several of them. After a partial line, Ctrl-D hands over
/// the line without its end (a terminal gives a whole line, with its `\n`, otherwise):
/// that too is the end.
struct TerminalEof<R> {
    input: R,
    /// The end was seen (a look at the first bytes found none): not read again.
    ended: bool,
    /// Standard input is a terminal, which hands over a line at a time (a pipe may hand
    /// over any part of one).
    terminal: bool,
}

impl<R: Read> Read for TerminalEof<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.ended || buf.is_empty() {
            return Ok(0);
        }
        let n = self.input.read(buf)?;
        self.ended = n == 0 || (self.terminal && n < buf.len() && buf[n - 1] != b'\n');
        Ok(n)
    }
}

/// Reads a text input's window and words its failures for its path. `document`: the
/// input is that document's view (UTF-8, its hash already taken from the file).
pub fn read_text<R: Read>(
    request: &Request,
    mut facts: FileFacts,
    input: read::TextInput<'_, R>,
    spec: &WindowSpec,
    asked_line: Option<u64>,
    document: Option<Document>,
    sink: Option<&mut dyn LineSink>,
) -> Result<Success, Error> {
    let path = facts.path.as_str();
    let is_stream = matches!(input, read::TextInput::Stream(_));
    let file = match &input {
        read::TextInput::File(file, _) => Some(*file),
        read::TextInput::Stream(_) => None,
    };
    let options = read::TextOptions {
        window: spec,
        encoding: match document {
            Some(_) => EncodingChoice::Utf8,
            None => request.encoding,
        },
        hash: request.wants_hash() && document.is_none(),
        stream_limit: request.settings.max_file_size.as_ref().map(|l| l.bytes),
    };
    // A view is text whatever the file's name says.
    let file_name = match document {
        Some(_) => "",
        None => path.rsplit('/').next().unwrap_or(path),
    };
    let read = read::text(input, file_name, options, sink).map_err(|err| match err {
        ReadError::Binary(evidence, found) => {
            let what = found.map(|mut found| {
                // A JPEG's size can lie past the first bytes.
                if let Recognised::Image {
                    size: size @ None, ..
                } = &mut found
                {
                    *size = file.and_then(crate::answer::image::dimensions);
                }
                let at = (!is_stream).then_some(path);
                crate::answer::refusal::recognised(&found, at, request.wording())
            });
            Error::binary_as(path, evidence.into(), what)
        }
        ReadError::SizeLimitPassed => {
            let limit = request.settings.max_file_size.as_ref();
            Error::new(
                ErrorCode::SizeLimitExceeded,
                format!(
                    "'{path}' is larger than {} {} ({} bytes); reading stopped there.",
                    max_file_size(request),
                    limit.map_or("", |l| l.given.as_str()),
                    limit.map_or(0, |l| l.bytes)
                ),
            )
        }
        ReadError::Io(err) => Error::read_failed(path, &err),
        ReadError::Window(read::WindowError::StartLinePastEnd { total_lines, .. })
            if asked_line.is_some() =>
        {
            past_line(asked_line.unwrap_or_default(), total_lines, path)
        }
        ReadError::Window(err) => crate::error::past_the_end(&err, path, "line", "lines"),
    })?;
    // The line a `PATH:N` target names must exist; with -C the window may begin before
    // it (and even reach the end) while N lies past the end: either way it is said of N.
    if let Some(line) = asked_line
        && line > read.window.total_lines
    {
        return Err(past_line(line, read.window.total_lines, path));
    }
    if read.content_hash.is_some() {
        facts.content_hash = read.content_hash;
    }
    // Standard input's size, and a file's whose stat said 0 (/proc, /sys), is what was
    // read; a view's file keeps the size of the file.
    if facts.size_bytes == 0 {
        facts.size_bytes = read.bytes_read;
    }
    // By name only: the hint that offers an outline costs no parse. Every window of a
    // file in a known language offers it when cut (SPEC §15, §18), one a line reference
    // scoped (`PATH:N`, `PATH:N-M`, `-C`) too.
    let language = structure::Language::detect(file_name, b"").map(|l| l.name());
    if request.caller_has(facts.content_hash.as_deref()) {
        return Ok(Success::Unchanged(Unchanged { facts }));
    }
    Ok(Success::Text(TextRead {
        facts,
        window: read.window,
        encoding: read.encoding,
        bom: read.bom,
        suggested_encoding: read.suggested_encoding,
        language,
        symbol: None,
        document,
        target_line: None,
        range: false,
        leaner: None,
    }))
}

/// `start_line N is past the end …`, for the line a target asked for.
fn past_line(start_line: u64, total_lines: u64, path: &str) -> Error {
    let past = read::WindowError::StartLinePastEnd {
        start_line,
        total_lines,
    };
    crate::error::past_the_end(&past, path, "line", "lines")
}

/// How messages name the size limit: the flag, or for tool calls the server's setting
/// (which the caller cannot pass).
fn max_file_size(request: &Request) -> String {
    match request.wording() {
        Wording::Cli => "--max-file-size".to_string(),
        Wording::Tool => "the server's max_file_size".to_string(),
    }
}

/// The file's hash into `facts` when it is asked for (`--hash`, `--if-changed`) and not
/// yet known, and the `unchanged` answer when it is the hash `--if-changed` gives.
pub fn unless_changed(request: &Request, facts: &mut FileFacts, bytes: &[u8]) -> Option<Success> {
    if !request.wants_hash() {
        return None;
    }
    let hash = facts
        .content_hash
        .get_or_insert_with(|| blake3::hash(bytes).to_hex().to_string());
    request.caller_has(Some(hash)).then(|| {
        Success::Unchanged(Unchanged {
            facts: facts.clone(),
        })
    })
}
