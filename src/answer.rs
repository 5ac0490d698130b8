//! Answers one PATH: open it inside the root, classify its first bytes, read its window.

use std::ffi::OsStr;
use std::fs::File;
use std::io::Read;
use std::time::Instant;

use rustix::fs::Stat;

use crate::dir;
use crate::error::{Error, ErrorCode};
use crate::outcome::{Answer, FileFacts, Listing, Success, TextRead, Unchanged};
use crate::read::{self, ReadError};
use crate::request::{Request, Target};
use crate::sandbox::Opened;
use crate::suggest;

pub const STDIN_LABEL: &str = "<stdin>";

pub fn answer(request: &Request, target: &Target) -> Answer {
    let started = Instant::now();
    #[cfg(feature = "fault-injection")]
    if std::env::var_os("AGENTREAD_FAULT").is_some_and(|v| v == "panic") {
        panic!("fault injected by AGENTREAD_FAULT=panic");
    }
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
    read_text(
        request,
        facts,
        read::TextInput::<std::io::Empty>::File(file, size),
    )
}

fn read_stdin(request: &Request) -> Result<Success, Error> {
    let facts = FileFacts {
        path: STDIN_LABEL.to_string(),
        path_resolved: STDIN_LABEL.to_string(),
        size_bytes: 0,
        mtime_ms: None,
        content_hash: None,
    };
    read_text(
        request,
        facts,
        read::TextInput::Stream(std::io::stdin().lock()),
    )
}

/// Reads a text input's window and words its failures for its path.
fn read_text<R: Read>(
    request: &Request,
    mut facts: FileFacts,
    input: read::TextInput<'_, R>,
) -> Result<Success, Error> {
    let path = facts.path.as_str();
    let is_stream = matches!(input, read::TextInput::Stream(_));
    let options = read::TextOptions {
        window: &request.window,
        encoding: request.encoding,
        hash: request.wants_hash(),
        stream_limit: request.max_file_size.as_ref().map(|l| l.bytes),
    };
    let file_name = path.rsplit('/').next().unwrap_or(path);
    let read = read::text(input, file_name, options).map_err(|err| match err {
        ReadError::Binary(evidence) => Error::binary(path, evidence),
        ReadError::SizeLimitPassed => {
            let limit = request.max_file_size.as_ref();
            Error::new(
                ErrorCode::SizeLimitExceeded,
                format!(
                    "'{path}' is larger than --max-file-size {} ({} bytes); reading stopped there.",
                    limit.map_or("", |l| l.given.as_str()),
                    limit.map_or(0, |l| l.bytes)
                ),
            )
        }
        ReadError::Io(err) => Error::read_failed(path, &err),
        ReadError::Window(err) => read::past_the_end(&err, path, "line", "lines"),
    })?;
    facts.content_hash = read.content_hash;
    if is_stream {
        facts.size_bytes = read.bytes_read;
    }
    if request.if_changed.is_some() && request.if_changed == facts.content_hash {
        return Ok(Success::Unchanged(Unchanged { facts }));
    }
    Ok(Success::Text(TextRead {
        facts,
        window: read.window,
        encoding: read.encoding,
        bom: read.bom,
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
    let window = read::entries(&names, &request.window)
        .map_err(|err| read::past_the_end(&err, &display, "entry", "entries"))?;
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

fn mtime_ms(stat: &Stat) -> i64 {
    stat.st_mtime * 1000 + stat.st_mtime_nsec as i64 / 1_000_000
}
