//! Answers one target: resolves it (`target`), then reads what it names: a file's
//! window, a directory's page, an image, or standard input.

use std::fs::File;
use std::io::Read;
use std::time::Instant;

use rustix::fs::Stat;
use serde_json::{Map, Value};

use crate::dir;
use crate::error::{Error, ErrorCode};
use crate::image;
use crate::outcome::{FileFacts, Listing, Status, Success, TextRead, Unchanged, window_status};
use crate::read::{self, LineSink, ReadError, WindowSpec};
use crate::request::{Request, Target};
use crate::sniff::Recognised;
use crate::structure;
use crate::target::{self, How, Plan};

pub const STDIN_LABEL: &str = "<stdin>";

/// The answer for one target.
#[derive(Debug)]
pub struct Answer {
    /// The path as it prints (`<stdin>` for standard input).
    pub label: String,
    pub params_input: Map<String, Value>,
    pub time_ms: u64,
    pub result: Result<Success, Error>,
}

impl Answer {
    pub fn status(&self) -> Status {
        match &self.result {
            Err(_) => Status::Error,
            Ok(Success::Text(read)) => window_status(&read.window),
            Ok(Success::Directory(listing)) => window_status(&listing.window),
            Ok(Success::Unchanged(_)) => Status::Unchanged,
            Ok(Success::Image(..)) => Status::Success,
            Ok(Success::Outline(outline)) => match outline.truncated_by {
                Some(_) => Status::Partial,
                None => Status::Success,
            },
        }
    }

    /// The error code when this answer failed.
    pub fn failure(&self) -> Option<crate::error::ErrorCode> {
        self.result.as_ref().err().map(|e| e.code)
    }
}

/// Resolves and reads one target of a request. With a `sink` (`--all`), the lines are
/// written to it as they are read.
pub fn answer(request: &Request, target: &Target, sink: Option<&mut dyn LineSink>) -> Answer {
    let started = Instant::now();
    let result = target::resolve(request, target).and_then(|plan| read(request, plan, sink));
    finish(request, target, started, result)
}

/// How a target prints (`<stdin>` for standard input).
pub fn label(request: &Request, target: &Target) -> String {
    match target {
        Target::Stdin => STDIN_LABEL.to_string(),
        Target::Path(path) => request.root.display_of(path),
    }
}

/// The answer to a target, from the result of reading it.
pub fn finish(
    request: &Request,
    target: &Target,
    started: Instant,
    result: Result<Success, Error>,
) -> Answer {
    Answer {
        label: label(request, target),
        params_input: request.params.for_target(target),
        time_ms: started.elapsed().as_millis() as u64,
        result,
    }
}

/// Reads what a resolved target names; see [`answer`] for the `sink`.
pub fn read(
    request: &Request,
    plan: Plan,
    sink: Option<&mut dyn LineSink>,
) -> Result<Success, Error> {
    #[cfg(feature = "fault-injection")]
    if std::env::var_os("AGENTREAD_FAULT").is_some_and(|v| v == "panic") {
        panic!("fault injected by AGENTREAD_FAULT=panic");
    }
    match plan {
        Plan::Stdin { spec } => read_stdin(request, &spec, sink),
        Plan::File {
            file,
            stat,
            display,
            real,
            spec,
            asked_line,
            target_line,
            how,
        } => {
            let facts = FileFacts {
                path: display,
                path_resolved: real,
                size_bytes: u64::try_from(stat.st_size).unwrap_or(0),
                mtime_ms: Some(mtime_ms(&stat)),
                content_hash: None,
            };
            match how {
                How::Lines => {
                    let mut read = read_file(request, facts, &file, &spec, asked_line, sink)?;
                    if let Success::Text(text) = &mut read {
                        text.target_line = target_line;
                    }
                    Ok(read)
                }
                How::Structure(structure) => {
                    check_size(request, &facts)?;
                    crate::structured::read(request, facts, &file, &spec, structure)
                }
            }
        }
        Plan::Directory {
            fd,
            display,
            real,
            spec,
        } => {
            let stat = rustix::fs::fstat(&fd).ok();
            let page = dir::page(&request.root, &fd, &real, &display, &spec)?;
            Ok(Success::Directory(Listing {
                path: display,
                path_resolved: real,
                mtime_ms: stat.map(|s| mtime_ms(&s)),
                window: page.window,
                entries: page.entries,
            }))
        }
    }
}

fn read_file(
    request: &Request,
    facts: FileFacts,
    file: &File,
    spec: &WindowSpec,
    asked_line: Option<u64>,
    sink: Option<&mut dyn LineSink>,
) -> Result<Success, Error> {
    check_size(request, &facts)?;
    let size = facts.size_bytes;
    let display = facts.path.as_str();
    if request.images
        && let Some(image) = image::read(file, size, display).transpose()
    {
        return image.map(|image| Success::Image(image, facts));
    }
    let input = read::TextInput::<std::io::Empty>::File(file, size);
    read_text(request, facts, input, spec, asked_line, sink)
}

/// `--max-file-size`, by the size `stat` gave.
fn check_size(request: &Request, facts: &FileFacts) -> Result<(), Error> {
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

fn read_stdin(
    request: &Request,
    spec: &WindowSpec,
    sink: Option<&mut dyn LineSink>,
) -> Result<Success, Error> {
    let facts = FileFacts {
        path: STDIN_LABEL.to_string(),
        path_resolved: STDIN_LABEL.to_string(),
        size_bytes: 0,
        mtime_ms: None,
        content_hash: None,
    };
    let stdin = std::io::stdin();
    let input = read::TextInput::Stream(TerminalEof::new(stdin.lock()));
    read_text(request, facts, input, spec, None, sink)
}

/// Standard input that ends at the first end-of-file a terminal signals (Ctrl-D): a
/// terminal's read returns 0 once per Ctrl-D and then reads on, so a reader that reads
/// again after a 0 would need several of them.
struct TerminalEof<R> {
    input: R,
    ended: bool,
}

impl<R: Read> TerminalEof<R> {
    fn new(input: R) -> TerminalEof<R> {
        TerminalEof {
            input,
            ended: false,
        }
    }
}

impl<R: Read> Read for TerminalEof<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.ended || buf.is_empty() {
            return Ok(0);
        }
        let n = self.input.read(buf)?;
        self.ended = n == 0;
        Ok(n)
    }
}

/// Reads a text input's window and words its failures for its path.
pub fn read_text<R: Read>(
    request: &Request,
    mut facts: FileFacts,
    input: read::TextInput<'_, R>,
    spec: &WindowSpec,
    asked_line: Option<u64>,
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
        encoding: request.encoding,
        hash: request.wants_hash(),
        stream_limit: request.settings.max_file_size.as_ref().map(|l| l.bytes),
    };
    let file_name = path.rsplit('/').next().unwrap_or(path);
    let read = read::text(input, file_name, options, sink).map_err(|err| match err {
        ReadError::Binary(evidence, found) => {
            let what = found.map(|mut found| {
                // A JPEG's size can lie past the first bytes.
                if let Recognised::Image {
                    size: size @ None, ..
                } = &mut found
                {
                    *size = file.and_then(crate::image::dimensions);
                }
                let at = (!is_stream).then_some(path);
                crate::error::recognised(&found, at, request.wording)
            });
            Error::binary_as(path, evidence, what)
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
        ReadError::Window(err) => read::past_the_end(&err, path, "line", "lines"),
    })?;
    // The line a `PATH:N` target names must exist; with -C the window may begin before
    // it (and even reach the end) while N lies past the end: either way it is said of N.
    if let Some(line) = asked_line
        && line > read.window.total_lines
    {
        return Err(past_line(line, read.window.total_lines, path));
    }
    facts.content_hash = read.content_hash;
    // A stream's size, and a file's whose stat said 0 (/proc, /sys), is what was read.
    if is_stream || facts.size_bytes == 0 {
        facts.size_bytes = read.bytes_read;
    }
    // By name only: the hint that offers an outline costs no parse. A window a line
    // reference already scoped (`PATH:N`, `-C`) offers none.
    let language = match asked_line {
        Some(_) => None,
        None => structure::Language::detect(file_name, b"").map(|l| l.name()),
    };
    if request.if_changed.is_some() && request.if_changed == facts.content_hash {
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
        target_line: None,
    }))
}

/// `start_line N is past the end …`, for the line a target asked for.
fn past_line(start_line: u64, total_lines: u64, path: &str) -> Error {
    let past = read::WindowError::StartLinePastEnd {
        start_line,
        total_lines,
    };
    read::past_the_end(&past, path, "line", "lines")
}

/// How messages name the size limit: the flag, or for tool calls the server's setting
/// (which the caller cannot pass).
fn max_file_size(request: &Request) -> String {
    match request.wording {
        crate::params::Wording::Cli => "--max-file-size".to_string(),
        crate::params::Wording::Tool => "the server's max_file_size".to_string(),
    }
}

fn mtime_ms(stat: &Stat) -> i64 {
    stat.st_mtime * 1000 + stat.st_mtime_nsec as i64 / 1_000_000
}
