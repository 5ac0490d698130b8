//! Answers one target: resolves it (`target`), then reads what it names: a file's
//! window, a directory's page, an image, or standard input.

use std::fs::File;
use std::io::{Cursor, Read};
use std::time::Instant;

use rustix::fs::Stat;
use serde_json::{Map, Value};

use crate::dir;
use crate::document::{self, Document};
use crate::error::{Error, ErrorCode};
use crate::image;
use crate::map;
use crate::outcome::{
    FileFacts, Listing, MapRead, Status, Success, TextRead, Unchanged, window_status,
};
use crate::read::sniff::{EncodingChoice, Recognised};
use crate::read::{self, LineSink, ReadError, WindowSpec};
use crate::request::{Request, Target};
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
            Ok(Success::Map(map)) => window_status(&map.window),
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

/// Resolves and reads one target of a request. With `paths` (SPEC §16), what it shows
/// is taken from the byte budget the next target gets; each gets at least one byte, so
/// that it shows its first line (cut to fit, as any line too long for the budget is).
/// With a `sink` (`--all`), the lines are written to it as they are read.
pub fn answer(request: &Request, target: &Target, sink: Option<&mut dyn LineSink>) -> Answer {
    let started = Instant::now();
    let result = target::resolve(request, target).and_then(|plan| read(request, plan, sink));
    let answer = finish(request, target, started, result);
    if request.shared_budget {
        let shown = match &answer.result {
            Ok(Success::Text(read)) => read.window.content.len(),
            Ok(Success::Directory(listing)) => listing.window.content.len(),
            Ok(Success::Map(map)) => map.window.content.len(),
            Ok(Success::Outline(outline)) => outline.content.len(),
            _ => 0,
        };
        let left = request.budget().saturating_sub(shown as u64);
        request
            .max_bytes
            .store(left.max(1), std::sync::atomic::Ordering::Relaxed);
    }
    answer
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
            map,
        } => {
            let stat = rustix::fs::fstat(&fd).ok();
            let mtime_ms = stat.map(|s| mtime_ms(&s));
            if map {
                return read_map(request, display, real, mtime_ms, &spec);
            }
            let page = dir::page(&request.root, &fd, &real, &display, &spec)?;
            Ok(Success::Directory(Listing {
                path: display,
                path_resolved: real,
                mtime_ms,
                window: page.window,
                entries: page.entries,
            }))
        }
    }
}

/// A page of a directory's map (SPEC §15): its lines are a stream the window reader pages.
fn read_map(
    request: &Request,
    display: String,
    real: String,
    mtime_ms: Option<i64>,
    spec: &WindowSpec,
) -> Result<Success, Error> {
    let keep = match spec.start {
        read::Start::Line(first) => first..=first.saturating_add(spec.limit),
        // Refused with --outline (target.rs); nothing to keep.
        read::Start::Tail(_) => 0..=0,
    };
    let mut reader = map::MapReader::new(request, &real, keep);
    let options = read::TextOptions {
        window: spec,
        encoding: EncodingChoice::Utf8,
        hash: false,
        stream_limit: None,
    };
    let read = read::text(read::TextInput::Stream(&mut reader), "", options, None).map_err(
        |err| match err {
            ReadError::Window(err) => read::past_the_end(&err, &display, "line", "lines"),
            ReadError::Io(err) => Error::read_failed(&display, &err),
            ReadError::Binary(..) | ReadError::SizeLimitPassed => {
                Error::internal("a directory's map was refused as a file")
            }
        },
    )?;
    let window = read.window;
    let last = window.end_line().unwrap_or(0);
    // The files with a line on the page: their path line, or one of their symbols'.
    let mut files = Vec::new();
    for (first, file) in std::mem::take(&mut reader.files) {
        let end = first + file.symbols.len() as u64;
        if first <= last && window.start_line <= end {
            files.push(file);
        }
    }
    Ok(Success::Map(MapRead {
        path: display,
        path_resolved: real,
        mtime_ms,
        window,
        files,
    }))
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
    if let Some(kind) = document_kind(request, file, display)? {
        return read_document(request, facts, file, kind, spec, asked_line, sink);
    }
    let input = read::TextInput::<std::io::Empty>::File(file, size);
    read_text(request, facts, input, spec, asked_line, None, sink)
}

/// Whether the file is read as a document's view (SPEC §16): never with `--raw`.
pub fn document_kind(
    request: &Request,
    file: &File,
    display: &str,
) -> Result<Option<document::Kind>, Error> {
    if request.raw {
        return Ok(None);
    }
    let mut head = [0u8; 1024];
    let n = image::read_full(file, &mut head, 0).map_err(|e| Error::read_failed(display, &e))?;
    let file_name = display.rsplit('/').next().unwrap_or(display);
    Ok(document::kind_of(file_name, &head[..n]))
}

/// A notebook's or a PDF's window of its view; a notebook that is not one is read as
/// the text it is.
fn read_document(
    request: &Request,
    mut facts: FileFacts,
    file: &File,
    kind: document::Kind,
    spec: &WindowSpec,
    asked_line: Option<u64>,
    sink: Option<&mut dyn LineSink>,
) -> Result<Success, Error> {
    let bytes = document::read_bytes(file, kind, &facts.path, request.wording)?;
    let Some(view) = document::view(kind, &bytes, &facts.path, request.wording)? else {
        let input = read::TextInput::Stream(Cursor::new(bytes));
        return read_text(request, facts, input, spec, asked_line, None, sink);
    };
    // `--hash` is the file's (SPEC §1), not its view's.
    if request.wants_hash() {
        facts.content_hash = Some(blake3::hash(&bytes).to_hex().to_string());
    }
    drop(bytes);
    let document = Document {
        kind,
        no_text_layer: view.no_text_layer,
    };
    let input = read::TextInput::Stream(Cursor::new(view.text.into_bytes()));
    // `--all` streams the view as it streams a file: whole, no line cut (SPEC §17).
    read_text(
        request,
        facts,
        input,
        spec,
        asked_line,
        Some(document),
        sink,
    )
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
    read_text(request, facts, input, spec, None, None, sink)
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
    if read.content_hash.is_some() {
        facts.content_hash = read.content_hash;
    }
    // Standard input's size, and a file's whose stat said 0 (/proc, /sys), is what was
    // read; a view's file keeps the size of the file.
    if facts.size_bytes == 0 {
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
        document,
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
