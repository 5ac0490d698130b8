//! Answers one PATH: open it inside the root, classify its first bytes, read its window.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{Cursor, Read};
use std::time::Instant;

use encoding_rs::UTF_8;
use rustix::fs::Stat;

use crate::decode::Transcoder;
use crate::dir;
use crate::error::{Error, ErrorCode};
use crate::input::{self, Metered};
use crate::outcome::{Answer, FileFacts, Listing, Success, TextRead, Unchanged};
use crate::request::{Request, Target};
use crate::sandbox::Opened;
use crate::sniff;
use crate::suggest;
use crate::window::{self, Input, Start, WindowError};

pub const STDIN_LABEL: &str = "<stdin>";

pub fn answer(request: &Request, target: &Target) -> Answer {
    let started = Instant::now();
    let (label, result) = match target {
        Target::Stdin => (STDIN_LABEL.to_string(), read_stdin(request)),
        Target::Path(path) => {
            let label = request.root.display_of(path);
            let result = read_path(request, path, &label);
            (label, result)
        }
    };
    Answer {
        label,
        params_input: request.params.for_target(target),
        time_ms: started.elapsed().as_millis() as u64,
        result,
    }
}

/// `display` is how `path` prints (relative to the root), for "did you mean".
fn read_path(request: &Request, path: &OsStr, display: &str) -> Result<Success, Error> {
    let resolved = request.root.resolve(path).map_err(|err| match err.code {
        ErrorCode::NotFound => {
            let candidates = suggest::suggestions(&request.root, display);
            err.with_suggestions(candidates)
        }
        _ => err,
    })?;
    match resolved.opened {
        Opened::File { file, stat } => {
            read_file(request, resolved.display, resolved.real, &file, &stat)
        }
        Opened::Directory { fd } => {
            let stat = rustix::fs::fstat(&fd).ok();
            let names = dir::entries(&request.root, &fd, &resolved.real, &resolved.display)?;
            list(
                request,
                resolved.display,
                resolved.real,
                stat.map(|s| mtime_ms(&s)),
                names,
            )
        }
    }
}

fn read_file(
    request: &Request,
    display: String,
    real: String,
    file: &File,
    stat: &Stat,
) -> Result<Success, Error> {
    let size = u64::try_from(stat.st_size).unwrap_or(0);
    if let Some(limit) = &request.max_file_size
        && size > limit.bytes
    {
        return Err(Error::new(
            ErrorCode::SizeLimitExceeded,
            format!(
                "File '{display}' is {size} bytes, larger than --max-file-size {} ({} bytes).",
                limit.given, limit.bytes
            ),
        ));
    }
    let facts = FileFacts {
        path: display,
        path_resolved: real,
        size_bytes: size,
        mtime_ms: Some(mtime_ms(stat)),
        content_hash: None,
    };
    let mut metered = Metered::new(file, request.wants_hash(), None);
    read_text(request, facts, &mut metered, Some((file, size)))
}

fn read_stdin(request: &Request) -> Result<Success, Error> {
    let facts = FileFacts {
        path: STDIN_LABEL.to_string(),
        path_resolved: STDIN_LABEL.to_string(),
        size_bytes: 0,
        mtime_ms: None,
        content_hash: None,
    };
    let limit = request.max_file_size.as_ref().map(|l| l.bytes);
    let mut metered = Metered::new(std::io::stdin().lock(), request.wants_hash(), limit);
    read_text(request, facts, &mut metered, None)
}

/// Classifies and reads a text input. `file` (with its size) allows reading at offsets,
/// and `--tail` to find its start by reading backwards instead of rendering every line.
fn read_text<R: Read>(
    request: &Request,
    mut facts: FileFacts,
    metered: &mut Metered<R>,
    file: Option<(&File, u64)>,
) -> Result<Success, Error> {
    let path = facts.path.clone();
    let read_failed =
        |err: std::io::Error| match (input::is_size_limit(&err), &request.max_file_size) {
            (true, Some(limit)) => Error::new(
                ErrorCode::SizeLimitExceeded,
                format!(
                    "'{path}' is larger than --max-file-size {} ({} bytes); reading stopped there.",
                    limit.given, limit.bytes
                ),
            ),
            _ => Error::read_failed(&path, &err),
        };
    let head_len = request.encoding.head_len();
    let head = metered.read_head(head_len).map_err(read_failed)?;
    let complete = head.len() < head_len;
    let file_name = path.rsplit('/').next().unwrap_or(&path);
    let decoding = sniff::classify(&head, complete, file_name, request.encoding)
        .map_err(|evidence| Error::binary(&path, evidence))?;
    let bom = decoding.bom_len;
    let body = Cursor::new(&head[bom.min(head.len())..]).chain(&mut *metered);
    let spec = &request.window;
    let start = bom as u64;
    // A regular file read as UTF-8 is read at offsets (so that large skips and counts run
    // on every core) unless its bytes must be hashed in order; a file's tail is found by
    // reading backwards from its end.
    let direct = !request.wants_hash();
    let result = match (decoding.encoding == UTF_8, file, spec.start) {
        (true, Some((file, size)), Start::Tail(n)) => input::tail_offset(file, start, size, n)
            .map_err(WindowError::Io)
            .and_then(|offset| match direct {
                true => {
                    window::read_tail_from(file_input(file, start, size), offset - start, n, spec)
                }
                false => window::read_tail_from(Input::Stream(body), offset - start, n, spec),
            }),
        (true, Some((file, size)), Start::Line(_)) if direct => {
            window::read_window(file_input(file, start, size), spec)
        }
        (true, _, _) => window::read_window(Input::Stream(body), spec),
        (false, _, _) => window::read_window(
            Input::Stream(Transcoder::new(body, decoding.encoding)),
            spec,
        ),
    };
    let window = result.map_err(|err| match err {
        WindowError::Io(err) => read_failed(err),
        other => past_the_end(other, &path, "line", "lines"),
    })?;
    facts.content_hash = metered.hash();
    if file.is_none() {
        facts.size_bytes = metered.bytes_read();
    }
    if request.if_changed.is_some() && request.if_changed == facts.content_hash {
        return Ok(Success::Unchanged(Unchanged { facts }));
    }
    Ok(Success::Text(TextRead {
        facts,
        window,
        encoding: decoding.name(),
        bom: decoding.bom(),
    }))
}

/// Pages a directory's entries like the lines of a file.
fn list(
    request: &Request,
    display: String,
    real: String,
    mtime_ms: Option<i64>,
    names: Vec<String>,
) -> Result<Success, Error> {
    let mut text = Vec::new();
    for name in &names {
        // A name with a line break would break the one-entry-a-line listing.
        text.extend_from_slice(
            name.replace('\n', "\u{240A}")
                .replace('\r', "\u{240D}")
                .as_bytes(),
        );
        text.push(b'\n');
    }
    let window =
        window::read_window(Input::Stream(&text[..]), &request.window).map_err(
            |err| match err {
                WindowError::Io(err) => Error::read_failed(&display, &err),
                other => past_the_end(other, &display, "entry", "entries"),
            },
        )?;
    let first = (window.start_line - 1) as usize;
    let entries = names
        .into_iter()
        .skip(first)
        .take(window.lines.len())
        .collect();
    Ok(Success::Directory(Listing {
        path: display,
        path_resolved: real,
        mtime_ms,
        window,
        entries,
    }))
}

/// The bytes `start..end` of `file`, read at offsets.
fn file_input(file: &File, start: u64, end: u64) -> Input<'_, std::io::Empty> {
    Input::File { file, start, end }
}

fn past_the_end(err: WindowError, path: &str, one: &str, many: &str) -> Error {
    let message = match err {
        WindowError::StartLinePastEnd {
            start_line,
            total_lines: 0,
        } => format!("start_line {start_line} is past the end of '{path}' (0 {many}; valid: 1)."),
        WindowError::StartLinePastEnd {
            start_line,
            total_lines,
        } => format!(
            "start_line {start_line} is past the end of '{path}' ({total_lines} {}; valid: 1-{total_lines}).",
            if total_lines == 1 { one } else { many }
        ),
        WindowError::StartCharPastEnd {
            line,
            start_char,
            chars,
        } => format!(
            "start_char {start_char} is past the end of {one} {line} of '{path}' ({chars} chars; valid: 1-{}).",
            chars.max(1)
        ),
        WindowError::Io(err) => return Error::read_failed(path, &err),
    };
    Error::invalid_param(message)
}

fn mtime_ms(stat: &Stat) -> i64 {
    stat.st_mtime * 1000 + stat.st_mtime_nsec as i64 / 1_000_000
}
