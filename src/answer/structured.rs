//! Reads a file by its structure (SPEC §15): its outline, one symbol's lines, or the
//! symbol (else the indented block) that holds a line. The file is parsed only here,
//! so that a plain window never loads a grammar.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::File;
use std::io::{Cursor, Write as _};
use std::time::Duration;

use crate::answer::document;
use crate::answer::outlines::Outline;
use crate::answer::text::{read_text, unless_changed};
use crate::args::params::{DEFAULT_LIMIT, Wording, name};
use crate::args::request::Request;
use crate::error::{Error, ErrorCode};
use crate::outcome::Document;
use crate::outcome::{
    Elided, FileFacts, Leaner, OutlineRead, Replacement, Success, SymbolInfo, TextRead, view,
};
use crate::read::sniff::EncodingChoice;
use crate::read::window::{Start, TruncatedBy, WindowSpec, entries_window, write_cut_marker};
use crate::read::{self, TextInput, bytes, tokens};
use crate::structure::{self, CommentRun, KNOWN_LANGUAGES, Language, Lookup, Symbol};
use crate::target::{Scope, Structure};

/// The largest file that is parsed.
pub const MAX_PARSE_BYTES: u64 = 8 << 20;
/// The most matches an ambiguous `PATH#SYMBOL` lists: the answer stays small however
/// many there are.
const MAX_AMBIGUOUS: usize = 20;
/// How long a parse may take.
pub const PARSE_BUDGET: Duration = Duration::from_secs(2);

/// Reads what `structure` asks of `file`.
pub fn read(
    request: &Request,
    mut facts: FileFacts,
    file: &File,
    spec: &WindowSpec,
    structure: Structure,
) -> Result<Success, Error> {
    let path = facts.path.clone();
    let mut file_bytes = None;
    if let Some(kind) = document::document_kind(request, file, &path)? {
        let bytes = document::read_bytes(file, facts.size_bytes, kind, &path, request.wording())?;
        // The file the caller has: no view is made (a PDF's text is the costly part).
        if let Some(unchanged) = unless_changed(request, &mut facts, &bytes) {
            return Ok(unchanged);
        }
        if let Some(view) = document::view(kind, &bytes, &path, request.wording())? {
            return read_document(request, facts, &bytes, view, spec, structure);
        }
        // Not a notebook after all: its text, as any file's.
        file_bytes = Some(bytes);
    }
    let file_name = path.rsplit('/').next().unwrap_or(&path);
    let bytes = match file_bytes {
        Some(bytes) if bytes.len() as u64 > MAX_PARSE_BYTES => {
            return Err(too_large_to_parse(&path, request));
        }
        Some(bytes) => bytes,
        None if facts.size_bytes > MAX_PARSE_BYTES => {
            return past_the_parse_bound(request, facts, file, spec, structure, file_name);
        }
        None => read_bounded(file, facts.size_bytes, &path, request)?,
    };
    // The same refusals as a window's: binary files are not parsed.
    let decoding = crate::read::sniff::classify_whole(&bytes, file_name, request.encoding)
        .map_err(|evidence| {
            let head = &bytes[..bytes.len().min(crate::read::sniff::SNIFF_LEN)];
            let found = crate::read::sniff::recognise(head);
            let what = found.map(|found| {
                crate::answer::refusal::recognised(&found, Some(&path), request.wording())
            });
            Error::binary_as(&path, evidence.into(), what)
        })?;
    // `--hash` is the file's, with its outline as with its lines; `--if-changed` answers
    // every view of a file the caller has with `unchanged` (SPEC §11).
    if let Some(unchanged) = unless_changed(request, &mut facts, &bytes) {
        return Ok(unchanged);
    }
    // Parsed as a window reads it: without its byte-order mark, and UTF-16 (or an
    // encoding asked for) as its text. Lines are the same, so line numbers hold; the
    // lines of a symbol are still read from the file as it is.
    let (text, replaced): (Cow<[u8]>, bool) = match (decoding.bom_len, decoding.encoding) {
        (0, encoding) if encoding == encoding_rs::UTF_8 => {
            (Cow::Borrowed(&bytes), std::str::from_utf8(&bytes).is_err())
        }
        (bom, encoding) => {
            let (text, replaced) = encoding.decode_without_bom_handling(&bytes[bom..]);
            (Cow::Owned(text.into_owned().into_bytes()), replaced)
        }
    };
    // An outline of a file some of whose bytes are shown as U+FFFD is partial, as a
    // window of those bytes is, with the same facts and hint.
    let replacement = replaced.then(|| {
        let head_len = request.encoding.head_len();
        let head = &bytes[..bytes.len().min(head_len)];
        Replacement {
            encoding: decoding.name(),
            suggested_encoding: match request.encoding {
                EncodingChoice::Utf8 => {
                    crate::read::sniff::legacy_guess(head, head.len() < head_len)
                }
                _ => None,
            },
        }
    });
    let mark = |answer: Result<Success, Error>| {
        answer.map(|mut answer| {
            if let Success::Outline(outline) = &mut answer {
                outline.replaced = replacement.clone();
            }
            answer
        })
    };
    // The `#!` line, or a `.h` file's first 64 KiB (C or C++).
    let language = Language::detect(file_name, &text);
    // The views of a known language's symbols: the language is checked, then the text
    // parsed (or its outline taken from the cache) once.
    let parsed = || {
        let language = known(language, &path, request)?;
        parse(language, &text, &path, request).map(|outline| (language, outline))
    };
    match structure {
        Structure::Outline {
            first,
            from,
            from_char,
            to,
            within,
        } => {
            let (language, parsed) = parsed()?;
            let symbols = &parsed.symbols;
            let find = |query: &str| lookup(symbols, language, query, &path);
            let page = Page::of(request, spec, (first, from), from_char, to, within);
            mark(outline(
                request,
                facts,
                &text,
                language.name(),
                symbols,
                page,
                &find,
            ))
        }
        Structure::Signatures(scope) => {
            let (language, parsed) = parsed()?;
            let find = |query: &str| lookup(&parsed.symbols, language, query, &path);
            let source = Source::of_file(&text, language, &parsed, decoding.bom());
            let limit = request.call.limit.unwrap_or(DEFAULT_LIMIT);
            let spec = WindowSpec { limit, ..*spec };
            let view = signatures_view(&source, &scope, &find, &path, &spec, request.wording())?;
            let within = view.symbol.clone();
            signatures_read(facts, &source, &view, &spec, within)
        }
        Structure::Fit(scope) => {
            if language.is_none() {
                // No known language: the usual window (SPEC §18).
                let spec = plain_spec(request, spec, &scope);
                drop(text);
                let input = TextInput::Stream(Cursor::new(bytes));
                return read_text(request, facts, input, &spec, None, None, None);
            }
            let (language, parsed) = parsed()?;
            let find = |query: &str| lookup(&parsed.symbols, language, query, &path);
            let source = Source::of_file(&text, language, &parsed, decoding.bom());
            mark(fit(request, facts, &source, spec, &scope, &find))
        }
        Structure::Symbol { query, from } => {
            let (language, parsed) = parsed()?;
            let symbols = &parsed.symbols;
            let symbol = &symbols[lookup(symbols, language, &query, &path)?];
            let read = Found {
                language: Some(language.name()),
                document: None,
            };
            drop(text);
            let at = At::From(inside(symbol, from, &path, request)?);
            lines_of(request, facts, bytes, spec, read, info(symbol), at)
        }
        Structure::Enclosing(line) => {
            check_line(&text, line, &path)?;
            let parsed = match language {
                Some(language) => Some(parse(language, &text, &path, request)?),
                None => None,
            };
            let symbols = parsed.as_ref().map_or(&[][..], |p| &p.symbols);
            let info = innermost(symbols, line).unwrap_or_else(|| block(&text, line));
            let read = Found {
                language: language.map(Language::name),
                document: None,
            };
            drop(text);
            lines_of(request, facts, bytes, spec, read, info, At::Holding(line))
        }
    }
}

/// A notebook's or a PDF's structure: its cells or pages are its symbols (SPEC §16).
fn read_document(
    request: &Request,
    facts: FileFacts,
    file_bytes: &[u8],
    view: document::View,
    spec: &WindowSpec,
    structure: Structure,
) -> Result<Success, Error> {
    let path = facts.path.clone();
    let document = view.document;
    let kind = document.kind;
    let symbols: Vec<Symbol> = view
        .parts
        .iter()
        .map(|part| Symbol {
            name: part.name.clone(),
            qualified_name: part.name.clone(),
            kind: part.kind,
            start_line: part.start_line,
            start_col: 0,
            def_line: part.start_line,
            end_line: part.end_line,
            depth: 0,
            parent: None,
            body: None,
        })
        .collect();
    let bytes = view.text.into_bytes();
    let find = |query: &str| find_part(&view.parts, query, &path);
    // `data.language` of a document's part: what kind of document it is.
    let read = Found {
        language: Some(kind.name()),
        document: Some(document),
    };
    // What the outline shows for each part that has a title (a notebook's cell).
    let titles: Vec<(u64, String)> = view
        .parts
        .iter()
        .filter_map(|part| Some((part.start_line, part.title.clone()?)))
        .collect();
    let answer = match structure {
        Structure::Outline {
            first,
            from,
            from_char,
            to,
            within,
        } => {
            let page = Page {
                titles,
                ..Page::of(request, spec, (first, from), from_char, to, within)
            };
            outline(request, facts, &bytes, kind.name(), &symbols, page, &find)
        }
        Structure::Signatures(_) => Err(known(None, &path, request).unwrap_err()),
        Structure::Fit(scope) => {
            let source = Source {
                bytes: &bytes,
                language: kind.name(),
                symbols: &symbols,
                markdown: None,
                comments: &[],
                document: Some(document),
                bom: false,
                titles: &titles,
            };
            fit(request, facts, &source, spec, &scope, &find)
        }
        Structure::Symbol { query, from } => {
            let symbol = &symbols[find(&query)?];
            let at = At::From(inside(symbol, from, &path, request)?);
            lines_of(request, facts, bytes, spec, read, info(symbol), at)
        }
        Structure::Enclosing(line) => {
            check_line(&bytes, line, &path)?;
            let info = innermost(&symbols, line).unwrap_or_else(|| block(&bytes, line));
            lines_of(request, facts, bytes, spec, read, info, At::Holding(line))
        }
    };
    document::with_file_endings(answer, document::file_endings(kind, file_bytes))
}

/// The cell or page `query` names, or NOT_FOUND with the nearest ones.
fn find_part(parts: &[document::Part], query: &str, path: &str) -> Result<usize, Error> {
    // A cell's id is the notebook's to choose, and two cells may have the same one: then
    // it names no one cell. A name (`cell-3`) is unique, and wins over an id.
    let named: Vec<usize> = (0..parts.len())
        .filter(|&i| parts[i].id.as_deref() == Some(query.trim()))
        .collect();
    let by_name = parts
        .iter()
        .any(|p| p.name.eq_ignore_ascii_case(query.trim()));
    if named.len() > 1 && !by_name {
        let what = parts[named[0]].kind;
        return Err(Error::invalid_param(format!(
            "'{}' is the id of {} {what}s in '{path}': name one by its number.",
            query.trim(),
            named.len()
        ))
        .with_suggestions(
            named
                .iter()
                .take(MAX_AMBIGUOUS)
                .map(|&i| format!("{path}#{}", parts[i].name))
                .collect(),
        ));
    }
    if let Some(found) = document::find(parts, query) {
        return Ok(parts
            .iter()
            .position(|p| std::ptr::eq(p, found))
            .unwrap_or_default());
    }
    // `cell-40` of a notebook of 12 cells: the cells numbered nearest; else the first.
    let digits = query
        .trim()
        .trim_start_matches(|c: char| !c.is_ascii_digit());
    let wanted = digits.parse::<usize>().unwrap_or(1).max(1);
    let mut near: Vec<usize> = (0..parts.len()).collect();
    near.sort_by_key(|&i| (i + 1).abs_diff(wanted));
    near.truncate(3);
    near.sort_unstable();
    let what = parts.first().map_or("part", |p| p.kind);
    Err(Error::new(
        ErrorCode::NotFound,
        format!("No {what} '{query}' in '{path}' ({} {what}s).", parts.len()),
    )
    .with_suggestions(
        near.iter()
            .map(|&i| format!("{path}#{}", parts[i].name))
            .collect(),
    ))
}

/// `line` must be a line of the file.
fn check_line(bytes: &[u8], line: u64, path: &str) -> Result<(), Error> {
    let total = count_lines(bytes);
    if line > total {
        return Err(crate::error::past_the_end(
            &read::WindowError::StartLinePastEnd {
                start_line: line,
                total_lines: total,
            },
            path,
            "line",
            "lines",
        ));
    }
    Ok(())
}

/// The innermost symbol that holds `line`.
fn innermost(symbols: &[Symbol], line: u64) -> Option<SymbolInfo> {
    symbols
        .iter()
        .filter(|s| s.start_line <= line && line <= s.end_line)
        .max_by_key(|s| (s.depth, s.start_line))
        .map(info)
}

/// A file larger than is parsed: in a known language (told by its name, or its first
/// 64 KiB), `SIZE_LIMIT_EXCEEDED`; in none, what any file in no known language gets
/// (SPEC §18: `--fit` falls back to the usual window; the other views are refused
/// naming the known languages), whatever its size.
fn past_the_parse_bound(
    request: &Request,
    facts: FileFacts,
    file: &File,
    spec: &WindowSpec,
    structure: Structure,
    file_name: &str,
) -> Result<Success, Error> {
    let path = facts.path.clone();
    let mut head = vec![0; 64 << 10];
    let read = std::os::unix::fs::FileExt::read_at(file, &mut head, 0)
        .map_err(|e| Error::read_failed(&path, &e))?;
    head.truncate(read);
    if Language::detect(file_name, &head).is_some() {
        return Err(too_large_to_parse(&path, request));
    }
    match structure {
        Structure::Fit(scope) => {
            let spec = plain_spec(request, spec, &scope);
            let input = TextInput::<Cursor<Vec<u8>>>::File(file, facts.size_bytes);
            read_text(request, facts, input, &spec, None, None, None)
        }
        // The lines around N are found by their indentation in the whole text.
        Structure::Enclosing(_) => Err(too_large_to_parse(&path, request)),
        _ => Err(known(None, &path, request).unwrap_err()),
    }
}

/// The file's bytes, up to [`MAX_PARSE_BYTES`].
fn read_bounded(file: &File, size: u64, path: &str, request: &Request) -> Result<Vec<u8>, Error> {
    read::up_to(file, MAX_PARSE_BYTES, size)
        .map_err(|e| Error::read_failed(path, &e))?
        .ok_or_else(|| too_large_to_parse(path, request))
}

fn too_large_to_parse(path: &str, request: &Request) -> Error {
    Error::new(
        ErrorCode::SizeLimitExceeded,
        format!(
            "File '{path}' is larger than 8 MiB, the most that is parsed for its structure; line windows still work ({}).",
            request
                .wording()
                .set(&[(name::START_LINE, &"N"), (name::LIMIT, &"M")])
        ),
    )
}

fn known(language: Option<Language>, path: &str, request: &Request) -> Result<Language, Error> {
    language.ok_or_else(|| {
        Error::invalid_param(format!(
            "'{path}' is not in a language whose structure is known ({KNOWN_LANGUAGES}); {} reads any file's lines.",
            request.wording().set(&[(name::START_LINE, &"N")])
        ))
    })
}

fn parse(
    language: Language,
    bytes: &[u8],
    path: &str,
    request: &Request,
) -> Result<std::sync::Arc<Outline>, Error> {
    crate::answer::outlines::outline(request, language, bytes, PARSE_BUDGET).map_err(|why| {
        Error::new(
            ErrorCode::SizeLimitExceeded,
            format!(
                "The structure of '{path}' cannot be read: {why}; line windows still work ({}).",
                request
                    .wording()
                    .set(&[(name::START_LINE, &"N"), (name::LIMIT, &"M")])
            ),
        )
    })
}

/// The index of the one symbol `query` names, or the error that says what it could be.
fn lookup(symbols: &[Symbol], language: Language, query: &str, path: &str) -> Result<usize, Error> {
    let target = |s: &Symbol| format!("{path}#{}", s.qualified_name);
    match structure::find(symbols, language, query) {
        Lookup::Found(i) => Ok(i),
        Lookup::NotFound { suggestions } => Err(Error::new(
            ErrorCode::NotFound,
            format!("No symbol '{query}' in '{path}'."),
        )
        .with_suggestions(suggestions.iter().map(|&i| target(&symbols[i])).collect())),
        Lookup::Ambiguous(matches) => {
            // Each match is named by its qualified name when that is unique in the file,
            // else by its lines; names are counted once, so that a file of 100,000 `f`s
            // costs one pass, and at most MAX_AMBIGUOUS are listed.
            let mut count: HashMap<&str, usize> = HashMap::new();
            for s in symbols {
                *count.entry(s.qualified_name.as_str()).or_default() += 1;
            }
            let suggestions = matches
                .iter()
                .take(MAX_AMBIGUOUS)
                .map(|&i| {
                    let s = &symbols[i];
                    match count.get(s.qualified_name.as_str()) == Some(&1) {
                        true => target(s),
                        false => format!("{path}:{}-{}", s.start_line, s.end_line),
                    }
                })
                .collect();
            let more = match matches.len().saturating_sub(MAX_AMBIGUOUS) {
                0 => String::new(),
                left => format!("; the first {MAX_AMBIGUOUS} are listed, {left} more are not"),
            };
            Err(Error::invalid_param(format!(
                "Symbol '{query}' is ambiguous in '{path}' ({} matches{more}).",
                matches.len()
            ))
            .with_suggestions(suggestions))
        }
    }
}

fn info(symbol: &Symbol) -> SymbolInfo {
    SymbolInfo {
        name: Some(symbol.name.clone()),
        qualified_name: Some(symbol.qualified_name.clone()),
        kind: symbol.kind,
        start_line: symbol.start_line,
        end_line: symbol.end_line,
        depth: None,
    }
}

/// The indentation block around `line` (SPEC §15), as a symbol of kind `block`.
fn block(bytes: &[u8], line: u64) -> SymbolInfo {
    let mut lines: Vec<&[u8]> = crate::read::split_lines(bytes).collect();
    if bytes.ends_with(b"\n") {
        lines.pop();
    }
    let lines: Vec<&[u8]> = lines
        .into_iter()
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect();
    let (first, last) = structure::indentation_block(&lines, line as usize);
    SymbolInfo {
        name: None,
        qualified_name: None,
        kind: "block",
        start_line: first as u64,
        end_line: last as u64,
        depth: None,
    }
}

fn count_lines(bytes: &[u8]) -> u64 {
    let newlines = bytes::count(b'\n', bytes) as u64;
    newlines + u64::from(!bytes.is_empty() && !bytes.ends_with(b"\n"))
}

/// What a symbol's read says besides its lines.
struct Found {
    language: Option<&'static str>,
    document: Option<Document>,
}

/// Where a symbol's read starts.
enum At {
    /// At this line of the symbol (`--start-line`), else at its start.
    From(Option<u64>),
    /// So that the window holds this line (`--enclosing`): at the symbol's start when
    /// that page holds it, else with the line in the middle.
    Holding(u64),
}

/// `--start-line L` with a symbol: L must lie inside it.
fn inside(
    symbol: &Symbol,
    from: Option<u64>,
    path: &str,
    request: &Request,
) -> Result<Option<u64>, Error> {
    match from {
        Some(line) if line < symbol.start_line || line > symbol.end_line => Err(outside_symbol(
            request.wording(),
            line,
            &symbol.qualified_name,
            path,
            (symbol.start_line, symbol.end_line),
        )),
        _ => Ok(from),
    }
}

/// A start line outside the symbol named `symbol`, whose lines are `first..=last`.
fn outside_symbol(
    wording: Wording,
    line: u64,
    symbol: &str,
    path: &str,
    (first, last): (u64, u64),
) -> Error {
    Error::invalid_param(format!(
        "{} {line} is outside the symbol '{symbol}' in '{path}' (lines {first}-{last}); give a line within it.",
        wording.name(name::START_LINE),
    ))
}

/// Reads the lines of `symbol` as `PATH:N-M` would, up to the limit and the budget.
/// The symbol's lines are what "lines remain" counts: a read that shows the rest of the
/// symbol is whole (SPEC §15 "Symbol reads are whole answers").
fn lines_of(
    request: &Request,
    facts: FileFacts,
    bytes: Vec<u8>,
    spec: &WindowSpec,
    what: Found,
    symbol: SymbolInfo,
    at: At,
) -> Result<Success, Error> {
    let end = symbol.end_line;
    let read_from = |start: u64| {
        let spec = WindowSpec {
            start: Start::Line(start),
            limit: (end.saturating_sub(start) + 1).min(spec.limit),
            ..*spec
        };
        let input = TextInput::Stream(Cursor::new(&bytes[..]));
        read_text(
            request,
            facts.clone(),
            input,
            &spec,
            None,
            what.document,
            None,
        )
    };
    let shows = |success: &Success, line: u64| match success {
        Success::Text(read) => {
            read.window.start_line <= line && read.window.end_line().is_some_and(|l| l >= line)
        }
        _ => true,
    };
    let mut success = match at {
        At::From(from) => read_from(from.unwrap_or(symbol.start_line))?,
        // A blank line N of a block counts as the next non-blank one: the block's start.
        At::Holding(line) if line < symbol.start_line || line > end => {
            read_from(symbol.start_line)?
        }
        At::Holding(line) => {
            let mut success = read_from(symbol.start_line)?;
            if !shows(&success, line) {
                // N in the middle, but a window as full as the symbol's end allows.
                let limit = spec.limit.min(end - symbol.start_line + 1);
                let start = line
                    .saturating_sub(limit / 2)
                    .min((end + 1).saturating_sub(limit))
                    .max(symbol.start_line);
                success = read_from(start)?;
            }
            if !shows(&success, line) {
                // A budget holds fewer lines than the limit: the earliest start whose
                // window still shows N (found by halving) gives the fullest window up to
                // N. When that window reaches the symbol's end it is the answer; else as
                // many lines with N in their middle, or ending at the symbol's end when
                // that comes first, when they still show N.
                let (mut lo, mut hi) = (symbol.start_line, line);
                let mut fullest = read_from(line)?;
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    let window = read_from(mid)?;
                    if shows(&window, line) {
                        (hi, fullest) = (mid, window);
                    } else {
                        lo = mid + 1;
                    }
                }
                let (held, last) = match &fullest {
                    Success::Text(read) => (
                        read.window.lines_read(),
                        read.window.end_line().unwrap_or(line),
                    ),
                    _ => (0, end),
                };
                success = fullest;
                let start = line
                    .saturating_sub(held / 2)
                    .min((end + 1).saturating_sub(held))
                    .max(symbol.start_line);
                if last < end && held > 1 && start > hi {
                    let centred = read_from(start)?;
                    if shows(&centred, line) {
                        success = centred;
                    }
                }
            }
            success
        }
    };
    // Paged from a line of the symbol, the rest of it is what remains; found by a line it
    // holds, all of it (SPEC §15 "Symbol reads are whole answers").
    let first = match at {
        At::From(from) => from.unwrap_or(symbol.start_line),
        At::Holding(_) => symbol.start_line,
    };
    if let Success::Text(read) = &mut success {
        read.language = what.language;
        symbol_window(&mut read.window, first, end);
        read.symbol = Some(symbol);
    }
    Ok(success)
}

/// A window of a symbol whose lines that count are `first..=end` (SPEC §15 "Symbol reads
/// are whole answers"): down to the symbol's end it is whole, not cut by the file's
/// lines after it, unless its last line was cut by the budget; from a line after
/// `first`, the limit cut the lines before (the footer says how to read it from its
/// start, and the next window starts there).
fn symbol_window(window: &mut read::window::Window, first: u64, end: u64) {
    let last_cut = window.lines.last().is_some_and(|l| l.facts.is_cut());
    if window.end_line().is_some_and(|last| last >= end)
        && !(window.truncated_by == Some(TruncatedBy::Bytes) && last_cut)
    {
        window.truncated_by = (window.start_line > first).then_some(TruncatedBy::Limit);
        window.resume_at = window.truncated_by.map(|_| first);
    }
}

/// Which symbols an outline lists: those that start within `from..=to`, or within the
/// symbol `within`.
struct Page {
    /// The first line of the range whose symbols are counted (a range `PATH:N-M`'s N,
    /// else 1).
    first: u64,
    from: u64,
    /// The character of line `from` where the page starts (`--start-char`).
    from_char: u64,
    to: Option<u64>,
    within: Option<String>,
    /// The bytes its lines may take.
    budget: u64,
    /// What the outline shows for the symbol starting at a line, when it is not that
    /// line (a notebook's cell: its name, kind and first line).
    titles: Vec<(u64, String)>,
    /// The tokens its lines may take.
    tokens: Option<u64>,
    /// The most symbols it lists.
    limit: usize,
}

impl Page {
    fn of(
        request: &Request,
        spec: &WindowSpec,
        (first, from): (u64, u64),
        from_char: u64,
        to: Option<u64>,
        within: Option<String>,
    ) -> Page {
        Page {
            first,
            from,
            from_char,
            to,
            within,
            budget: spec.max_bytes,
            tokens: spec.max_tokens,
            limit: request.call.limit.unwrap_or(DEFAULT_LIMIT) as usize,
            titles: Vec::new(),
        }
    }
}

/// A page of the file's outline: the symbols `page` selects, at most `--limit` of them
/// and within the byte budget. `find` looks a symbol up by a caller's name for it.
fn outline(
    request: &Request,
    facts: FileFacts,
    bytes: &[u8],
    language: &'static str,
    symbols: &[Symbol],
    page: Page,
    find: &dyn Fn(&str) -> Result<usize, Error>,
) -> Result<Success, Error> {
    outline_page(request, facts, bytes, language, symbols, page, find).map(|(page, _)| page)
}

/// [`outline`], and whether the page's lines, before any budget cut them, are the first
/// lines of the outline of every symbol it selects (their ranges are as wide).
fn outline_page(
    request: &Request,
    facts: FileFacts,
    bytes: &[u8],
    language: &'static str,
    symbols: &[Symbol],
    page: Page,
    find: &dyn Fn(&str) -> Result<usize, Error>,
) -> Result<(Success, bool), Error> {
    let path = facts.path.clone();
    let Page {
        first: range_first,
        from,
        from_char,
        to,
        within,
        budget,
        titles,
        tokens: max_tokens,
        limit,
    } = page;
    // The symbols counted: the file's, or those inside the symbol `within`.
    let parent = match &within {
        Some(query) => Some(find(query)?),
        None => None,
    };
    let (first, last, counted): (u64, u64, Vec<&Symbol>) = match parent {
        Some(index) => {
            let parent = &symbols[index];
            let children = symbols[index + 1..]
                .iter()
                .take_while(|s| s.depth > parent.depth)
                .collect();
            (parent.start_line, parent.end_line, children)
        }
        // A range's symbols: those that start within it.
        None => (
            1,
            u64::MAX,
            symbols
                .iter()
                .filter(|s| s.start_line >= range_first && s.start_line <= to.unwrap_or(u64::MAX))
                .collect(),
        ),
    };
    let (from, to) = match &within {
        // Not given: the symbol's children from its start.
        Some(_) if from == 0 => (first, last),
        Some(query) if from < first || from > last => {
            return Err(outside_symbol(
                request.wording(),
                from,
                query,
                &path,
                (first, last),
            ));
        }
        Some(_) => (from, last),
        None => (from, to.unwrap_or(u64::MAX)),
    };
    let total_lines = count_lines(bytes);
    if within.is_none() && from > total_lines.max(1) {
        return Err(crate::error::past_the_end(
            &read::WindowError::StartLinePastEnd {
                start_line: from,
                total_lines,
            },
            &path,
            "line",
            "lines",
        ));
    }
    let line_texts: Vec<&[u8]> = crate::read::split_lines(bytes).collect();
    let line_text = |line: u64| -> &[u8] {
        line_texts
            .get((line as usize).wrapping_sub(1))
            .copied()
            .unwrap_or_default()
    };
    // `--start-char C` on line `from`: the byte column where character C starts.
    let from_col = match from_char {
        0 | 1 => 0,
        char => {
            let text = String::from_utf8_lossy(line_text(from));
            text.char_indices()
                .nth(char as usize - 1)
                .map_or(u64::MAX, |(at, _)| at as u64)
        }
    };
    let starts_after = |s: &Symbol| (s.start_line, s.start_col) >= (from, from_col);
    let skipped = counted.iter().filter(|s| !starts_after(s)).count();
    let chosen: Vec<&Symbol> = counted
        .iter()
        .copied()
        .filter(|s| starts_after(s) && s.start_line <= to)
        .collect();
    let page: Vec<&Symbol> = chosen.iter().take(limit).copied().collect();
    let mut rows = RowTexts::new(request.settings.max_line_chars);
    // The first row's range and text, to cut it when it alone passes a budget.
    let mut first_row: Option<(String, String)> = None;
    let range_width = |s: &&Symbol| {
        let digits = |n: u64| n.checked_ilog10().map_or(1, |d| d as usize + 1);
        digits(s.start_line) + 1 + digits(s.end_line)
    };
    let width = page.iter().map(range_width).max().unwrap_or(0);
    let as_wide = chosen[page.len()..].iter().all(|s| range_width(s) <= width);
    let mut content = Vec::new();
    let mut shown = Vec::new();
    let mut truncated_by = None;
    for symbol in &page {
        let range = format!("{}-{}", symbol.start_line, symbol.end_line);
        let title = titles.iter().find(|(line, _)| *line == symbol.start_line);
        let text = match title {
            Some((_, title)) => cut(title, request.settings.max_line_chars),
            None => rows.text(symbol, line_text(symbol.def_line)),
        };
        let line = format!("{range:>width$} | {text}\n");
        if !shown.is_empty() && (content.len() + line.len()) as u64 > budget {
            truncated_by = Some(TruncatedBy::Bytes);
            break;
        }
        if shown.is_empty() {
            first_row = Some((range, text));
        }
        content.extend_from_slice(line.as_bytes());
        shown.push(SymbolInfo {
            depth: Some(symbol.depth),
            ..info(symbol)
        });
    }
    // A token budget counts the page once: the count of what it keeps is the answer's.
    let mut page_tokens = None;
    if let Some(max) = max_tokens
        && content.len() as u64 > max
    {
        let ends: Vec<usize> = bytes::positions(b'\n', &content).map(|at| at + 1).collect();
        let (keep, tokens) = tokens::lines_within_counted(&content, &ends, max);
        if keep < ends.len() {
            content.truncate(ends[keep.max(1) - 1]);
            shown.truncate(keep.max(1));
            truncated_by = Some(TruncatedBy::Tokens);
        }
        page_tokens = tokens.filter(|_| keep > 0);
    }
    // A first row that alone passes a budget is cut to fit both, as a window's first line
    // is (SPEC §4, §18).
    let fits = |row: &str| {
        row.len() as u64 <= budget
            && max_tokens.is_none_or(|max| tokens::within(row.as_bytes(), max))
    };
    if shown.len() == 1
        && let Some((range, text)) = &first_row
        && !fits(&String::from_utf8_lossy(&content))
    {
        content = first_row_cut(range, width, text, fits).into_bytes();
        truncated_by = truncated_by.or(Some(TruncatedBy::Bytes));
        page_tokens = None;
    }
    let following = chosen.get(shown.len());
    let next = following.map(|s| s.start_line);
    if next.is_some() && truncated_by.is_none() {
        truncated_by = Some(TruncatedBy::Limit);
    }
    // When the next symbol starts on a line a shown one starts on, the next page starts
    // at its character, so that pages always advance.
    let next_start_char = following
        .filter(|next| {
            shown
                .last()
                .is_some_and(|s| s.start_line == next.start_line)
        })
        .map(|next| {
            let text = line_text(next.start_line);
            let before = text.get(..next.start_col as usize).unwrap_or(text);
            String::from_utf8_lossy(before).chars().count() as u64 + 1
        });
    let outline = Success::Outline(OutlineRead {
        facts,
        language,
        content,
        symbols: shown,
        symbol: parent.map(|index| info(&symbols[index])),
        total_symbols: counted.len() as u64,
        first_shown: skipped as u64 + 1,
        next_start_line: next,
        next_start_char,
        truncated_by,
        start_line: from,
        view: None,
        tokens: page_tokens,
        replaced: None,
    });
    Ok((outline, as_wide))
}

/// The text of each outline row from its definition's line, cut to the line's character
/// limit: from the symbol's start when that lies past what the cut line shows (minified
/// code, whose symbols share one line), so that each row shows its own definition. Each
/// line's characters are counted once and walked forward only, as rows come in order: a
/// page of a one-line file costs its line, not its line for each symbol.
struct RowTexts {
    max_chars: u64,
    /// The line counted last: its number and characters, and how far it was walked (a
    /// byte, and the characters before it).
    line: u64,
    total: u64,
    at: usize,
    before: u64,
}

impl RowTexts {
    fn new(max_chars: u64) -> RowTexts {
        RowTexts {
            max_chars,
            line: 0,
            total: 0,
            at: 0,
            before: 0,
        }
    }

    fn text(&mut self, symbol: &Symbol, raw: &[u8]) -> String {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if self.line != symbol.def_line {
            (self.line, self.total, self.at, self.before) = (symbol.def_line, chars_of(raw), 0, 0);
        }
        let col = (symbol.start_col as usize).min(raw.len());
        if symbol.def_line != symbol.start_line
            || self.total <= self.max_chars
            || col < char_boundary(raw, self.max_chars)
        {
            return cut_bytes(raw, self.total, self.max_chars);
        }
        // The characters before the symbol's start, walked on from the last row's.
        if col < self.at {
            (self.at, self.before) = (0, 0);
        }
        self.before += chars_of(&raw[self.at..col]);
        self.at = col;
        format!(
            "…{}",
            cut_bytes(&raw[col..], self.total - self.before, self.max_chars)
        )
    }
}

/// `bytes` of `chars` characters as lossy UTF-8 shows them, cut after `max_chars` with the
/// window's marker.
fn cut_bytes(bytes: &[u8], chars: u64, max_chars: u64) -> String {
    let shown = char_boundary(bytes, max_chars);
    let mut text = String::from_utf8_lossy(&bytes[..shown]).into_owned();
    if chars > max_chars {
        let mut marker = Vec::new();
        write_cut_marker(&mut marker, chars - max_chars);
        text.push_str(&String::from_utf8_lossy(&marker));
    }
    text
}

/// The characters of `bytes` as lossy UTF-8 shows them.
fn chars_of(bytes: &[u8]) -> u64 {
    bytes
        .utf8_chunks()
        .map(|chunk| chunk.valid().chars().count() as u64 + chunk.invalid().len().min(1) as u64)
        .sum()
}

/// The byte where character `chars` of `bytes` starts, as lossy UTF-8 counts them (or the
/// end).
fn char_boundary(bytes: &[u8], chars: u64) -> usize {
    let mut at = 0;
    let mut left = chars;
    for chunk in bytes.utf8_chunks() {
        for (i, _) in chunk.valid().char_indices() {
            if left == 0 {
                return at + i;
            }
            left -= 1;
        }
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            if left == 0 {
                return at;
            }
            left -= 1;
            at += chunk.invalid().len();
        }
    }
    bytes.len()
}

/// A first outline row that alone passes the budget, its text cut to the most characters
/// with which `fits` holds (none, with only its range and the marker, at least).
fn first_row_cut(range: &str, width: usize, text: &str, fits: impl Fn(&str) -> bool) -> String {
    let chars = text.chars().count();
    let row = |keep: usize| -> String {
        let kept: String = text.chars().take(keep).collect();
        let mut line = format!("{range:>width$} | {kept}").into_bytes();
        if keep < chars {
            write_cut_marker(&mut line, (chars - keep) as u64);
        }
        line.push(b'\n');
        String::from_utf8_lossy(&line).into_owned()
    };
    let (mut lo, mut hi) = (0, chars);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        match fits(&row(mid)) {
            true => lo = mid,
            false => hi = mid - 1,
        }
    }
    row(lo)
}

/// A definition's line, cut as `--max-line-chars` cuts lines (with the window's marker).
pub fn cut(text: &str, max_chars: u64) -> String {
    let chars = text.chars().count() as u64;
    if chars <= max_chars {
        return text.to_string();
    }
    let kept: String = text.chars().take(max_chars as usize).collect();
    let mut line = kept.into_bytes();
    write_cut_marker(&mut line, chars - max_chars);
    String::from_utf8_lossy(&line).into_owned()
}

/// A parsed file, as the leaner views of SPEC §18 see it.
struct Source<'a> {
    bytes: &'a [u8],
    /// `data.language`: the language's name, or the document's kind.
    language: &'static str,
    symbols: &'a [Symbol],
    /// Whether its signatures are Markdown's sections; None: it has no signatures view
    /// (a notebook or a PDF).
    markdown: Option<bool>,
    /// Its comment runs, for the signatures view to cut the long ones short.
    comments: &'a [CommentRun],
    document: Option<Document>,
    /// The file starts with a byte-order mark (`stats.bom`); `bytes` are without it.
    bom: bool,
    /// What its outline shows for a part, by its first line (a notebook's cells).
    titles: &'a [(u64, String)],
}

impl<'a> Source<'a> {
    /// A source file's text (decoded, without its byte-order mark) and its outline.
    fn of_file(text: &'a [u8], language: Language, outline: &'a Outline, bom: bool) -> Self {
        Source {
            bytes: text,
            language: language.name(),
            symbols: &outline.symbols,
            markdown: Some(language == Language::Markdown),
            comments: outline.comments.as_deref().unwrap_or_default(),
            document: None,
            bom,
            titles: &[],
        }
    }
}

/// A signatures view of some lines: each entry a line of the file or a marker.
struct SignaturesView<'a> {
    /// `(number, text)`: a line's own number, or a marker's first elided line. A line
    /// is borrowed from the file: a big file's view is not a copy of it.
    entries: Vec<(u64, Cow<'a, [u8]>)>,
    /// The last line of the file each entry stands for.
    covers: Vec<u64>,
    /// Each marker's run, by entry, as far as the view shows it (the symbol's name is
    /// copied only for the entries a page shows).
    markers: Vec<Option<structure::Elision>>,
    total_lines: u64,
    /// The symbol the view is of (`PATH#SYMBOL --signatures`).
    symbol: Option<SymbolInfo>,
    /// Its entries surely pass the page's budget: it was made no further.
    over: bool,
}

/// The file's lines, each without its line end (a UTF-8 BOM left out), read forward
/// only and found only as far as they are asked for: a view that stops at its page's
/// budget does not index the rest of a big file (an index of every line, grown by
/// doubling, was a tenth of a `--fit` read).
struct FileLines<'a> {
    /// The text without its BOM.
    whole: &'a [u8],
    /// The lines from line `at` on.
    rest: std::iter::Peekable<Box<dyn Iterator<Item = &'a [u8]> + 'a>>,
    at: u64,
    total: u64,
}

impl<'a> FileLines<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        let whole = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let lines: Box<dyn Iterator<Item = &'a [u8]> + 'a> = Box::new(read::split_lines(whole));
        FileLines {
            whole,
            rest: lines.peekable(),
            at: 1,
            total: count_lines(whole),
        }
    }

    /// Line `n` (empty past the last): `n` is at least the line asked for before.
    fn line(&mut self, n: u64) -> &'a [u8] {
        debug_assert!(n >= self.at, "lines are read forward");
        if n > self.total {
            return b"";
        }
        while self.at < n {
            self.rest.next();
            self.at += 1;
        }
        let line = self.rest.peek().copied().unwrap_or_default();
        line.strip_suffix(b"\r").unwrap_or(line)
    }

    /// Every line, from the first.
    fn all(&self) -> Vec<&'a [u8]> {
        read::split_lines(self.whole)
            .take(usize::try_from(self.total).unwrap_or(usize::MAX))
            .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
            .collect()
    }
}

/// The lines `scope` asks for: its symbol's, or from its start line to its end.
fn scope_lines(
    source: &Source,
    scope: &Scope,
    find: &dyn Fn(&str) -> Result<usize, Error>,
    total: u64,
    path: &str,
    wording: Wording,
) -> Result<(u64, u64, Option<SymbolInfo>), Error> {
    if let Some(query) = &scope.within {
        let symbol = &source.symbols[find(query)?];
        let (first, last) = (symbol.start_line, symbol.end_line);
        // A start line pages the symbol from there (SPEC §15), as a read of it does.
        let from = match scope.from {
            0 => first,
            from if (first..=last).contains(&from) => from,
            from => return Err(outside_symbol(wording, from, query, path, (first, last))),
        };
        return Ok((from, last, Some(info(symbol))));
    }
    if scope.from > total.max(1) {
        return Err(crate::error::past_the_end(
            &read::WindowError::StartLinePastEnd {
                start_line: scope.from,
                total_lines: total,
            },
            path,
            "line",
            "lines",
        ));
    }
    Ok((scope.from, scope.to.unwrap_or(total).min(total), None))
}

/// The signatures view of the lines `scope` asks for (SPEC §18), as far as a page
/// within `page` may need it: a page shows no more entries than its line limit allows,
/// nor past its byte budget (an entry takes its text's bytes, or the line's character
/// limit's when it is cut, and a line end), and one entry more tells that the view goes
/// on. A big file's view costs its first page, not the file.
fn signatures_view<'a>(
    source: &Source<'a>,
    scope: &Scope,
    find: &dyn Fn(&str) -> Result<usize, Error>,
    path: &str,
    page: &WindowSpec,
    wording: Wording,
) -> Result<SignaturesView<'a>, Error> {
    let mut lines = FileLines::new(source.bytes);
    let total = lines.total;
    let (lo, hi, symbol) = scope_lines(source, scope, find, total, path, wording)?;
    // Markdown's sections end where their text does: their runs need every line.
    let sections = source.markdown == Some(true);
    let every = if sections { lines.all() } else { Vec::new() };
    let runs = structure::elisions(source.symbols, sections, &every, source.comments);
    let cap = usize::try_from(page.limit.max(1))
        .unwrap_or(usize::MAX)
        .saturating_add(1);
    // Room made once for as many entries as the page or the lines allow, up to 65,536
    // (2 MiB of entries; a longer view grows from there): a view grown by doubling copied
    // itself into fresh pages each time.
    let room = usize::try_from((hi + 1).saturating_sub(lo))
        .unwrap_or(usize::MAX)
        .min(cap)
        .min(1 << 16);
    let mut view = SignaturesView {
        entries: Vec::with_capacity(room),
        covers: Vec::with_capacity(room),
        markers: Vec::with_capacity(room),
        total_lines: total,
        symbol,
        over: false,
    };
    let mut runs = runs.iter().peekable();
    // What the entries so far take on a page at least, each with its line end.
    let mut least = Least::new(page);
    let mut n = lo;
    while n <= hi && view.entries.len() < cap && !(view.entries.len() > 1 && least.over()) {
        while runs.next_if(|run| run.last < n).is_some() {}
        match runs.peek() {
            Some(run) if run.first <= n => {
                let last = run.last.min(hi);
                let name = run.symbol.map(|symbol| &source.symbols[symbol].name);
                // Indented as the body's first line that has text.
                let mut marker: Vec<u8> = (n..=last)
                    .map(|n| lines.line(n))
                    .find(|l| l.iter().any(|b| !b.is_ascii_whitespace()))
                    .map(|l| {
                        l.iter()
                            .take_while(|&&b| b == b' ' || b == b'\t')
                            .copied()
                            .collect()
                    })
                    .unwrap_or_default();
                let _ = match (run.part, name) {
                    (structure::Part::Body, Some(name)) => {
                        write!(marker, "⋯ lines {n}-{last} (body of {name})")
                    }
                    (structure::Part::Comment, Some(name)) => {
                        write!(marker, "⋯ lines {n}-{last} (docs of {name})")
                    }
                    (structure::Part::Docstring, _) => {
                        write!(marker, "⋯ lines {n}-{last} (docstring)")
                    }
                    (_, None) => write!(marker, "⋯ lines {n}-{last} (comment)"),
                };
                least.add(&marker, 1);
                view.entries.push((n, Cow::Owned(marker)));
                view.covers.push(last);
                view.markers.push(Some(structure::Elision {
                    first: n,
                    last,
                    ..**run
                }));
                n = last + 1;
            }
            _ => {
                let text = lines.line(n);
                least.add(text, 1);
                view.entries.push((n, Cow::Borrowed(text)));
                view.covers.push(n);
                view.markers.push(None);
                n += 1;
            }
        }
    }
    view.over = least.over();
    Ok(view)
}

/// A page of a signatures view, within `spec`'s limit and budgets.
fn signatures_read(
    facts: FileFacts,
    source: &Source,
    view: &SignaturesView,
    spec: &WindowSpec,
    symbol: Option<SymbolInfo>,
) -> Result<Success, Error> {
    let (mut window, shown) = entries_window(&view.entries, spec);
    window.total_lines = view.total_lines;
    window.covered_to = view.covers.get(shown.wrapping_sub(1)).copied();
    Ok(Success::Text(TextRead {
        facts,
        window,
        encoding: "utf-8".to_string(),
        bom: source.bom,
        suggested_encoding: None,
        language: Some(source.language),
        symbol,
        document: None,
        target_line: None,
        range: false,
        leaner: Some(Box::new(Leaner {
            elided: Some(
                view.markers[..shown]
                    .iter()
                    .flatten()
                    .map(|run| Elided {
                        start_line: run.first,
                        end_line: run.last,
                        symbol: run.symbol.map(|symbol| source.symbols[symbol].name.clone()),
                        part: match run.part {
                            structure::Part::Body => None,
                            structure::Part::Comment => Some("comment"),
                            structure::Part::Docstring => Some("docstring"),
                        },
                    })
                    .collect(),
            ),
            view: None,
        })),
    }))
}

/// The usual window of the lines `scope` asks for, for a file `--fit` has no view of.
fn plain_spec(request: &Request, spec: &WindowSpec, scope: &Scope) -> WindowSpec {
    WindowSpec {
        start: Start::Line(scope.from.max(1)),
        limit: match scope.to {
            Some(to) => to.saturating_sub(scope.from.max(1)) + 1,
            None => request.call.limit.unwrap_or(DEFAULT_LIMIT),
        },
        ..*spec
    }
}

/// What lines take on a page at least, told without rendering them, and whether that
/// passes the budget: a line shown whole (one of at most `max_line_chars` bytes has no
/// more characters) takes its bytes and at least [`tokens::fewest`] of them (a gutter
/// and a line's end only add to either: each is set apart by a byte no piece crosses),
/// and a line cut takes at least `max_line_chars` bytes. Tokens only under a token
/// budget.
struct Least<'s> {
    spec: &'s WindowSpec,
    cap: u64,
    bytes: u64,
    tokens: u64,
}

impl<'s> Least<'s> {
    fn new(spec: &'s WindowSpec) -> Self {
        let cap = spec.max_line_chars.min(read::line::MAX_LINE_CHARS);
        Least {
            spec,
            cap,
            bytes: 0,
            tokens: 0,
        }
    }

    /// Adds `line` and `end` bytes after it.
    fn add(&mut self, line: &[u8], end: u64) {
        let len = line.len() as u64;
        self.bytes += len.min(self.cap) + end;
        if len <= self.cap && self.spec.max_tokens.is_some() {
            self.tokens += tokens::fewest(line);
        }
    }

    fn over(&self) -> bool {
        self.bytes > self.spec.max_bytes
            || self.spec.max_tokens.is_some_and(|max| self.tokens > max)
    }
}

/// How many of lines `lo..=hi` of `source` surely pass the budget as a lines view (see
/// [`Least`]): a window of them stops before the last, or cuts it when it is the first.
/// None when all of them may fit. Reads only as far as the budget.
fn lines_surely_over(source: &Source, lo: u64, hi: u64, spec: &WindowSpec) -> Option<u64> {
    // A notebook's or a PDF's lines are not its bytes; a first line shown from a later
    // character is not whole.
    if source.document.is_some() || spec.start_char > 1 {
        return None;
    }
    let mut least = Least::new(spec);
    let lines = read::split_lines(source.bytes)
        .skip(usize::try_from(lo.saturating_sub(1)).unwrap_or(usize::MAX))
        .take(usize::try_from((hi + 1).saturating_sub(lo)).unwrap_or(usize::MAX));
    for (n, line) in (1..).zip(lines) {
        // The last line may have no end: none is counted.
        least.add(line.strip_suffix(b"\r").unwrap_or(line), 0);
        if least.over() {
            return Some(n);
        }
    }
    None
}

/// The lines `lo..=hi` as `--fit` answers with them (`data.view` `lines`): a symbol's
/// read as without `--fit` (a range keeps its window fields).
fn as_lines_view(
    read: &mut TextRead,
    language: &'static str,
    symbol: Option<SymbolInfo>,
    (lo, hi): (u64, u64),
) {
    if symbol.is_some() {
        symbol_window(&mut read.window, lo, hi);
    }
    read.language = Some(language);
    read.symbol = symbol;
    read.leaner = Some(Box::new(Leaner {
        elided: None,
        view: Some(view::LINES),
    }));
}

/// `--fit` (SPEC §18): the richest view of the asked lines that fits the budget whole:
/// the lines, else their signatures, else their outline, else the outline's first page.
fn fit(
    request: &Request,
    facts: FileFacts,
    source: &Source,
    spec: &WindowSpec,
    scope: &Scope,
    find: &dyn Fn(&str) -> Result<usize, Error>,
) -> Result<Success, Error> {
    // The budget is the tokens when given, else the bytes: the default byte budget does
    // not cut a view that fits the tokens asked for.
    let spec = &WindowSpec {
        max_bytes: match spec.max_tokens.is_some() && !request.settings.max_bytes_given {
            true => u64::MAX,
            false => spec.max_bytes,
        },
        ..*spec
    };
    // Both budgets hold where both apply (a given `--max-bytes` with `--max-tokens`).
    let fits = |content: &[u8]| {
        content.len() as u64 <= spec.max_bytes
            && spec
                .max_tokens
                .is_none_or(|max| tokens::within(content, max))
    };
    let path = facts.path.clone();
    let total = count_lines(source.bytes);
    let (lo, hi, symbol) = scope_lines(source, scope, find, total, &path, request.wording())?;
    // Each view is read within the budget itself, so that a view that does not fit costs
    // what the budget holds, not the whole of a big file: it fits when no budget cut it
    // (the line limit is the asked range's length, so `limit` only means it ended).
    let within = WindowSpec {
        start: Start::Line(lo),
        limit: (hi + 1).saturating_sub(lo).max(1),
        ..*spec
    };
    // A view that fits whole is the same read with or without the token budget, so each
    // is read within the byte budget alone, and its content only asked whether it fits
    // (which stops counting at the budget, or sooner): the tokens of a view that does not
    // fit are not counted line by line to find where it would be cut.
    let probe = WindowSpec {
        max_tokens: None,
        ..within
    };
    let whole_fits = |window: &mut read::window::Window| {
        let fits = matches!(window.truncated_by, None | Some(TruncatedBy::Limit))
            && spec
                .max_tokens
                .is_none_or(|max| tokens::within(&window.content, max));
        window.max_tokens = spec.max_tokens;
        fits
    };
    // The lines themselves, unless they surely pass the budget: a big file is then not
    // numbered only to be dropped.
    let surely_over = lines_surely_over(source, lo, hi, spec);
    if surely_over.is_none() {
        let input = TextInput::Stream(Cursor::new(source.bytes));
        let mut lines = read_text(
            request,
            facts.clone(),
            input,
            &probe,
            None,
            source.document,
            None,
        )?;
        if let Success::Text(read) = &mut lines
            && whole_fits(&mut read.window)
        {
            as_lines_view(read, source.language, symbol, (lo, hi));
            return Ok(lines);
        }
    }
    // Their signatures.
    if source.markdown.is_some() {
        // Made only as far as the budget holds, so that a view that does not fit costs
        // what the budget holds; it is then read (and asked whether it fits) in full.
        let view = signatures_view(source, scope, find, &path, &within, request.wording())?;
        if !view.over {
            let mut read = signatures_read(facts.clone(), source, &view, &probe, symbol.clone())?;
            if let Success::Text(text) = &mut read
                && whole_fits(&mut text.window)
            {
                if let Some(leaner) = &mut text.leaner {
                    leaner.view = Some(view::SIGNATURES);
                }
                return Ok(read);
            }
        }
    }
    // Their outline, whole, else its first page. The page is read first: when nothing cut
    // it, it is the whole outline; when the budget the whole must fit cut it and its lines
    // are the whole outline's first lines, the whole does not fit either (it holds them, and
    // the pieces a text is counted by end at a line's end: a prefix of lines costs no
    // more than the whole). Only otherwise is the whole rendered to be asked.
    // The outline of the asked lines: a symbol's own row and those inside it (its
    // children alone would leave a function's outline empty).
    let outline_of = |budget: u64, tokens: Option<u64>, limit: usize| {
        let page = Page {
            // A range's symbols are counted from its first line, when paged from a later
            // one (the outline's footer says so).
            first: match scope.to {
                Some(_) => scope.first,
                None => lo,
            },
            from: lo,
            from_char: 1,
            to: Some(hi),
            within: None,
            budget,
            tokens,
            limit,
            titles: source.titles.to_vec(),
        };
        outline_page(
            request,
            facts.clone(),
            source.bytes,
            source.language,
            source.symbols,
            page,
            find,
        )
    };
    let (page, as_wide) = outline_of(spec.max_bytes, spec.max_tokens, DEFAULT_LIMIT as usize)?;
    let cut = match &page {
        Success::Outline(o) => o.truncated_by,
        _ => None,
    };
    let mut answer = match cut {
        None => page,
        // The budget the whole is asked to fit is the tokens when given, else the bytes.
        Some(TruncatedBy::Tokens) if as_wide => page,
        Some(TruncatedBy::Bytes) if as_wide && spec.max_tokens.is_none() => page,
        _ => {
            let (whole, _) = outline_of(u64::MAX, None, usize::MAX)?;
            let whole_fits = match &whole {
                Success::Outline(o) => fits(&o.content),
                _ => true,
            };
            if whole_fits { whole } else { page }
        }
    };
    // Lines that define nothing have no outline to step down to: their usual window, cut
    // by the budget, with the footer that says how to go on (an empty answer would leave
    // the caller nowhere).
    if matches!(&answer, Success::Outline(o) if o.symbols.is_empty()) {
        // No more lines than surely pass the budget are read: a token budget cuts a
        // window once it is read, and the asked lines may be all of a big file.
        let within = WindowSpec {
            limit: surely_over.map_or(within.limit, |n| n.min(within.limit)),
            ..within
        };
        let input = TextInput::Stream(Cursor::new(source.bytes));
        let mut lines = read_text(request, facts, input, &within, None, source.document, None)?;
        if let Success::Text(read) = &mut lines {
            as_lines_view(read, source.language, symbol, (lo, hi));
        }
        return Ok(lines);
    }
    if let Success::Outline(o) = &mut answer {
        o.view = Some(view::OUTLINE);
        o.symbol = o.symbol.take().or(symbol);
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::FileLines;

    /// Lines are read forward, each without its line end, and the count is the whole
    /// file's from the start (a BOM is no line of its own).
    #[test]
    fn file_lines_are_read_forward() {
        let mut lines = FileLines::new(b"\xEF\xBB\xBFa\r\nb\n\nlast");
        assert_eq!(lines.total, 4);
        assert_eq!(lines.line(2), b"b");
        assert_eq!(lines.line(2), b"b");
        assert_eq!(lines.line(3), b"");
        assert_eq!(lines.line(4), b"last");
        assert_eq!(lines.line(9), b"");
        assert_eq!(lines.all(), [&b"a"[..], b"b", b"", b"last"]);
        for (text, total) in [
            (&b"\xEF\xBB\xBF"[..], 0),
            (b"", 0),
            (b"x\n", 1),
            (b"\n\n", 2),
        ] {
            let lines = FileLines::new(text);
            assert_eq!(
                (lines.total, lines.all().len() as u64),
                (total, total),
                "{text:?}"
            );
        }
    }
}
