//! Answers one target: resolves it (`target`), then reads what it names: a file's
//! window, a directory's page, an image, or standard input.

use std::fs::File;
use std::io::Cursor;
use std::time::Instant;

use rustix::fs::Stat;

pub mod document;
pub mod image;
pub mod map;
pub mod maps;
pub mod outlines;
pub mod refusal;
pub mod structured;
pub mod text;

use crate::args::cli::Format;
use crate::args::request::{Request, Target};
use crate::error::Error;
use crate::outcome::{Answer, DocumentKind};
use crate::outcome::{FileFacts, Listing, MapRead, Success};
use crate::read::sniff::EncodingChoice;
use crate::read::{self, Budget, LineSink, ReadError, WindowSpec};
use crate::target::{self, How, Plan};
use crate::workspace::dir;
use document::document_kind;
use text::{STDIN_LABEL, check_size, read_stdin, read_text, unless_changed};

/// Whether reading a plan means parsing or decoding: a structure, a notebook's or PDF's
/// view (a PDF may take seconds, however small), or an image the MCP server sends (a
/// 631-byte JPEG may declare 10000x10000). The MCP server reads such a plan off its
/// protocol's thread.
pub fn parses(request: &Request, plan: &Plan) -> bool {
    match plan {
        Plan::File { how, .. } if *how != How::Lines => true,
        Plan::File { file, display, .. } => {
            document_kind(request, file, display).is_ok_and(|k| k.is_some())
                || (request.images() && image::is_image(file))
        }
        _ => false,
    }
}

/// Whether the plan reads the structure of a source file of at most `most` bytes (not a
/// notebook's, a PDF's or an image's, which a small file can make large): its parse is
/// bounded by its size, and by the 112 MiB a parse may hold whatever its shape. The file
/// is looked at only when its size is within `most`.
pub fn small_source_parse(request: &Request, plan: &Plan, most: u64) -> bool {
    match plan {
        Plan::File {
            how: How::Structure(_),
            file,
            display,
            ..
        } => {
            plan.file_size()
                .is_some_and(|size| size > 0 && size <= most)
                && !(document_kind(request, file, display).is_ok_and(|k| k.is_some())
                    || request.images() && image::is_image(file))
        }
        _ => false,
    }
}

/// Whether reading a plan may take much memory (up to the bound of its kind: 256 MiB for
/// a PDF or a parse, a notebook 3 times its size, an image its decode, a map its files'
/// parses): what the MCP server admits only a few at a time.
pub fn heavy(request: &Request, plan: &Plan) -> bool {
    parses(request, plan) || matches!(plan, Plan::Directory { map: true, .. })
}

/// Resolves and reads one target of a request, showing at most `budget` bytes. With a
/// `sink` (`--all`), the lines are written to it as they are read.
pub fn answer(
    request: &Request,
    target: &Target,
    budget: Budget,
    sink: Option<&mut dyn LineSink>,
) -> Answer {
    let started = Instant::now();
    let result =
        target::resolve(request, target, budget).and_then(|plan| read(request, plan, sink));
    finish(request, target, started, result)
}

/// Answers every target of a `paths` call (SPEC §16) in turn, within one byte budget:
/// what each shows is taken from what the next gets; each gets at least one byte, so that
/// it shows its first line (cut to fit, as any line too long for the budget is).
pub fn answer_all(request: &Request) -> Vec<Answer> {
    let mut budget = request.budget();
    let mut answers = Vec::with_capacity(request.targets.len());
    for target in &request.targets {
        let answer = answer(request, target, budget, None);
        budget = budget.after(shown_content(&answer));
        answers.push(answer);
    }
    answers
}

/// The content an answer shows.
pub fn shown_content(answer: &Answer) -> &[u8] {
    match &answer.result {
        Ok(Success::Text(read)) => &read.window.content,
        Ok(Success::Directory(listing)) => &listing.window.content,
        Ok(Success::Map(map)) => &map.window.content,
        Ok(Success::Outline(outline)) => &outline.content,
        _ => &[],
    }
}

/// How a target prints (`<stdin>` for standard input).
pub fn label(request: &Request, target: &Target) -> String {
    match target {
        Target::Stdin => STDIN_LABEL.to_string(),
        Target::Path(path) => request.root.display_of(&request.root.asked(path)),
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
    // Debug builds only (the tests' binary): proves that a panic still ends in an
    // INTERNAL answer. An installed (release) build has no such switch.
    #[cfg(debug_assertions)]
    if std::env::var_os("AGENTREAD_FAULT").is_some_and(|v| v == "panic") {
        panic!("fault injected by AGENTREAD_FAULT=panic");
    }
    match plan {
        Plan::Stdin { spec } => {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            // A PDF is known by its `%PDF-` header, whatever its name (SPEC §16), and
            // standard input has none.
            let head = std::io::BufRead::fill_buf(&mut input)
                .map_err(|e| Error::read_failed(STDIN_LABEL, &e))?;
            let ended = head.is_empty();
            if !request.call.raw && document::kind_of("", head) == Some(DocumentKind::Pdf) {
                let kind = DocumentKind::Pdf;
                let facts = text::stdin_facts();
                let bytes = document::read_bytes(input, 0, kind, STDIN_LABEL, request.wording())?;
                return document_answer(request, facts, bytes, kind, &spec, None, sink);
            }
            read_stdin(request, input, ended, &spec, sink)
        }
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
                        text.range = asked_line.is_some() && target_line.is_none();
                    }
                    Ok(read)
                }
                How::Structure(structure) => {
                    check_size(request, &facts)?;
                    crate::answer::structured::read(request, facts, &file, &spec, structure)
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
    let options = read::TextOptions {
        window: spec,
        encoding: EncodingChoice::Utf8,
        hash: false,
        stream_limit: None,
    };
    let refused = |err| match err {
        ReadError::Window(err) => crate::error::past_the_end(&err, &display, "line", "lines"),
        ReadError::Io(err) => Error::read_failed(&display, &err),
        ReadError::Binary(..) | ReadError::SizeLimitPassed => {
            Error::internal("a directory's map was refused as a file")
        }
    };
    // The map a page before this one made, while its tree is as it was (`maps`).
    let key = request.settings.cache.then(|| maps::key(request, &real));
    let kept = key
        .as_deref()
        .and_then(|key| maps::Kept::load(request, key));
    let (read, found, not_parsed) = match kept {
        Some(kept) if kept.holds(request) => {
            let input = read::TextInput::Stream(kept.page(keep.clone()));
            let read = read::text(input, "", options, None).map_err(refused)?;
            // `data.files` is not printed as text: its symbols are not decoded for it.
            let files = match request.format {
                Format::Text => Vec::new(),
                _ => kept.files(keep),
            };
            (read, files, kept.not_parsed())
        }
        kept => {
            // Made again: what the kept map knew of a file unchanged is not read again.
            let previous = kept.map(|kept| kept.previous());
            let mut reader = map::MapReader::new(request, &real, keep, previous);
            let read = read::text(read::TextInput::Stream(&mut reader), "", options, None)
                .map_err(refused)?;
            let found = std::mem::take(&mut reader.files);
            let not_parsed = reader.not_parsed;
            if let Some(key) = &key {
                reader.keep(key);
            }
            (read, found, not_parsed)
        }
    };
    let window = read.window;
    let last = window.end_line().unwrap_or(0);
    // The files with a line on the page: their path line, or one of their symbols'.
    let mut files = Vec::new();
    for (first, mut file) in found {
        let end = first + file.symbols.len() as u64 + u64::from(file.not_parsed.is_some());
        if first <= last && window.start_line <= end {
            // Only the symbols on the page: symbol i is the map's line first + 1 + i.
            let on_page = |i: usize| (window.start_line..=last).contains(&(first + 1 + i as u64));
            let mut i = 0;
            file.symbols.retain(|_| {
                i += 1;
                on_page(i - 1)
            });
            files.push(file);
        }
    }
    Ok(Success::Map(MapRead {
        path: display,
        path_resolved: real,
        mtime_ms,
        window,
        files,
        not_parsed,
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
    // `hash` and `if_changed` hold for an image as for any file (SPEC §11): the hash of
    // its bytes, and no image made or sent again when they are the ones the caller has.
    let hashed = match (&request.call.if_changed, request.wants_hash()) {
        (Some(known), _) => image::Hashed::UnlessUnchanged(known),
        (None, true) => image::Hashed::Yes,
        (None, false) => image::Hashed::No,
    };
    if request.images()
        && let Some(image) = image::read(file, size, display, hashed).transpose()
    {
        let mut image = image?;
        let mut facts = facts;
        facts.content_hash = image.hash.take();
        return Ok(match image.unchanged {
            true => Success::Unchanged(crate::outcome::Unchanged { facts }),
            false => Success::Image(image, facts),
        });
    }
    if let Some(kind) = document_kind(request, file, display)? {
        return read_document(request, facts, file, kind, spec, asked_line, sink);
    }
    let display = display.to_string();
    let input = read::TextInput::<std::io::Empty>::File(file, size);
    let answer = read_text(request, facts, input, spec, asked_line, None, sink);
    // Checked after an error too: a start line past the end of a file cut meanwhile.
    not_shorter(file, size, &display)?;
    answer
}

/// A file cut shorter while it was read (a log rotated by `copytruncate` under
/// `--tail`) gave a window of bytes that are no longer there, and counts of neither
/// file: an error, not a success. A file that grew while it was read (a log being
/// written) was read as it was when opened, which stays true.
fn not_shorter(file: &File, size: u64, display: &str) -> Result<(), Error> {
    match file.metadata() {
        Ok(now) if now.is_file() && now.len() < size => Err(Error::shrank(display)),
        _ => Ok(()),
    }
}

/// A notebook's or a PDF's window of its view; a notebook that is not one is read as
/// the text it is.
fn read_document(
    request: &Request,
    facts: FileFacts,
    file: &File,
    kind: DocumentKind,
    spec: &WindowSpec,
    asked_line: Option<u64>,
    sink: Option<&mut dyn LineSink>,
) -> Result<Success, Error> {
    let bytes = document::read_bytes(file, facts.size_bytes, kind, &facts.path, request.wording())?;
    not_shorter(file, facts.size_bytes, &facts.path)?;
    document_answer(request, facts, bytes, kind, spec, asked_line, sink)
}

/// The window of a document's view, from its bytes; a notebook that is not one is read as
/// the text it is.
fn document_answer(
    request: &Request,
    mut facts: FileFacts,
    bytes: Vec<u8>,
    kind: DocumentKind,
    spec: &WindowSpec,
    asked_line: Option<u64>,
    sink: Option<&mut dyn LineSink>,
) -> Result<Success, Error> {
    // `--hash` is the file's (SPEC §1), not its view's; the file the caller has makes no
    // view (a PDF's text is the costly part).
    if let Some(unchanged) = unless_changed(request, &mut facts, &bytes) {
        return Ok(unchanged);
    }
    let Some(view) = document::view(kind, &bytes, &facts.path, request.wording())? else {
        let input = read::TextInput::Stream(Cursor::new(bytes));
        return read_text(request, facts, input, spec, asked_line, None, sink);
    };
    let endings = document::file_endings(kind, &bytes);
    drop(bytes);
    let document = view.document;
    let input = read::TextInput::Stream(Cursor::new(view.text.into_bytes()));
    // `--all` streams the view as it streams a file: whole, no line cut (SPEC §17).
    let answer = read_text(
        request,
        facts,
        input,
        spec,
        asked_line,
        Some(document),
        sink,
    );
    document::with_file_endings(answer, endings)
}

fn mtime_ms(stat: &Stat) -> i64 {
    stat.st_mtime * 1000 + stat.st_mtime_nsec as i64 / 1_000_000
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_file_cut_shorter_while_read_is_an_io_error_and_one_that_grew_is_not() {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&[b'a'; 1000]).unwrap();
        assert!(not_shorter(&file, 1000, "log").is_ok());
        file.write_all(b"more\n").unwrap();
        assert!(not_shorter(&file, 1000, "log").is_ok());
        file.set_len(10).unwrap();
        let error = not_shorter(&file, 1000, "log").unwrap_err();
        assert_eq!(error.code, crate::error::ErrorCode::IoError);
        assert!(
            error.message.contains("got shorter while it was read"),
            "{}",
            error.message
        );
    }
}
