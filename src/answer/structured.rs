//! Reads a file by its structure (SPEC §15): its outline, one symbol's lines, or the
//! symbol (else the indented block) that holds a line. The file is parsed only here,
//! so that a plain window never loads a grammar.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::File;
use std::io::Cursor;
use std::time::Duration;

use crate::answer::document;
use crate::answer::text::read_text;
use crate::args::params::name;
use crate::args::request::Request;
use crate::error::{Error, ErrorCode};
use crate::outcome::Document;
use crate::outcome::{FileFacts, OutlineRead, Success, SymbolInfo};
use crate::read::window::{Start, TruncatedBy, WindowSpec, write_cut_marker};
use crate::read::{self, TextInput};
use crate::structure::{self, KNOWN_LANGUAGES, Language, Lookup, Symbol};
use crate::target::Structure;

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
        let bytes = document::read_bytes(file, kind, &path, request.wording())?;
        if let Some(view) = document::view(kind, &bytes, &path, request.wording())? {
            return read_document(request, facts, &bytes, view, spec, structure);
        }
        // Not a notebook after all: its text, as any file's.
        file_bytes = Some(bytes);
    }
    let bytes = match file_bytes {
        Some(bytes) if bytes.len() as u64 > MAX_PARSE_BYTES => {
            return Err(too_large_to_parse(&path, request));
        }
        Some(bytes) => bytes,
        None => read_bounded(file, &path, request)?,
    };
    let file_name = path.rsplit('/').next().unwrap_or(&path);
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
    // `--hash` is the file's, with its outline as with its lines (issue 28).
    if request.wants_hash() {
        facts.content_hash = Some(blake3::hash(&bytes).to_hex().to_string());
    }
    // Parsed as a window reads it: without its byte-order mark, and UTF-16 (or an
    // encoding asked for) as its text. Lines are the same, so line numbers hold; the
    // lines of a symbol are still read from the file as it is.
    let text: Cow<[u8]> = match (decoding.bom_len, decoding.encoding) {
        (0, encoding) if encoding == encoding_rs::UTF_8 => Cow::Borrowed(&bytes),
        (bom, encoding) => {
            let (text, _) = encoding.decode_without_bom_handling(&bytes[bom..]);
            Cow::Owned(text.into_owned().into_bytes())
        }
    };
    let first_line = text.split(|&b| b == b'\n').next().unwrap_or_default();
    let language = Language::detect(file_name, first_line);
    match structure {
        Structure::Outline { from, to, within } => {
            let language = known(language, &path, request)?;
            let symbols = parse(language, &text, &path, request)?;
            let find = |query: &str| lookup(&symbols, language, query, &path);
            let page = Page {
                from,
                to,
                within,
                budget: spec.max_bytes,
            };
            outline(
                request,
                facts,
                &text,
                language.name(),
                &symbols,
                page,
                &find,
            )
        }
        Structure::Symbol(query) => {
            let language = known(language, &path, request)?;
            let symbols = parse(language, &text, &path, request)?;
            let symbol = &symbols[lookup(&symbols, language, &query, &path)?];
            let read = Found {
                language: Some(language.name()),
                document: None,
            };
            drop(text);
            lines_of(request, facts, bytes, spec, read, info(symbol))
        }
        Structure::Enclosing(line) => {
            check_line(&text, line, &path)?;
            let symbols = match language {
                Some(language) => parse(language, &text, &path, request)?,
                None => Vec::new(),
            };
            let info = innermost(&symbols, line).unwrap_or_else(|| block(&text, line));
            let read = Found {
                language: language.map(Language::name),
                document: None,
            };
            drop(text);
            lines_of(request, facts, bytes, spec, read, info)
        }
    }
}

/// A notebook's or a PDF's structure: its cells or pages are its symbols (SPEC §16).
fn read_document(
    request: &Request,
    mut facts: FileFacts,
    file_bytes: &[u8],
    view: document::View,
    spec: &WindowSpec,
    structure: Structure,
) -> Result<Success, Error> {
    let path = facts.path.clone();
    // `--hash` is the file's, not its view's.
    if request.wants_hash() {
        facts.content_hash = Some(blake3::hash(file_bytes).to_hex().to_string());
    }
    let document = Document {
        kind: view.kind,
        no_text_layer: view.no_text_layer,
    };
    let symbols: Vec<Symbol> = view
        .parts
        .iter()
        .map(|part| Symbol {
            name: part.name.clone(),
            qualified_name: part.name.clone(),
            kind: part.kind,
            start_line: part.start_line,
            def_line: part.start_line,
            end_line: part.end_line,
            depth: 0,
            parent: None,
        })
        .collect();
    let bytes = view.text.into_bytes();
    let find = |query: &str| find_part(&view.parts, query, &path);
    // `data.language` of a document's part: what kind of document it is.
    let read = Found {
        language: Some(view.kind.name()),
        document: Some(document),
    };
    match structure {
        Structure::Outline { from, to, within } => {
            let page = Page {
                from,
                to,
                within,
                budget: spec.max_bytes,
            };
            outline(
                request,
                facts,
                &bytes,
                view.kind.name(),
                &symbols,
                page,
                &find,
            )
        }
        Structure::Symbol(query) => {
            let symbol = &symbols[find(&query)?];
            lines_of(request, facts, bytes, spec, read, info(symbol))
        }
        Structure::Enclosing(line) => {
            check_line(&bytes, line, &path)?;
            let info = innermost(&symbols, line).unwrap_or_else(|| block(&bytes, line));
            lines_of(request, facts, bytes, spec, read, info)
        }
    }
}

/// The cell or page `query` names, or NOT_FOUND with the nearest ones.
fn find_part(parts: &[document::Part], query: &str, path: &str) -> Result<usize, Error> {
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

/// The file's bytes, up to [`MAX_PARSE_BYTES`].
fn read_bounded(file: &File, path: &str, request: &Request) -> Result<Vec<u8>, Error> {
    read::up_to(file, MAX_PARSE_BYTES)
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
) -> Result<Vec<Symbol>, Error> {
    structure::outline(language, bytes, PARSE_BUDGET).map_err(|why| {
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
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
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
    let newlines = bytecount::count(bytes, b'\n') as u64;
    newlines + u64::from(!bytes.is_empty() && !bytes.ends_with(b"\n"))
}

/// What a symbol's read says besides its lines.
struct Found {
    language: Option<&'static str>,
    document: Option<Document>,
}

/// Reads the lines of `symbol` as `PATH:N-M` would, up to the limit and the budget.
fn lines_of(
    request: &Request,
    facts: FileFacts,
    bytes: Vec<u8>,
    spec: &WindowSpec,
    what: Found,
    symbol: SymbolInfo,
) -> Result<Success, Error> {
    let lines = symbol.end_line - symbol.start_line + 1;
    let spec = WindowSpec {
        start: Start::Line(symbol.start_line),
        limit: lines.min(spec.limit),
        ..*spec
    };
    let input = TextInput::Stream(Cursor::new(bytes));
    let mut success = read_text(request, facts, input, &spec, None, what.document, None)?;
    if let Success::Text(read) = &mut success {
        read.language = what.language;
        read.symbol = Some(symbol);
    }
    Ok(success)
}

/// Which symbols an outline lists: those that start within `from..=to`, or within the
/// symbol `within`.
struct Page {
    from: u64,
    to: Option<u64>,
    within: Option<String>,
    /// The bytes its lines may take.
    budget: u64,
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
    let path = facts.path.clone();
    let Page {
        from,
        to,
        within,
        budget,
    } = page;
    let (from, to, min_depth) = match &within {
        Some(query) => {
            let parent = &symbols[find(query)?];
            (parent.start_line, parent.end_line, parent.depth + 1)
        }
        None => (from, to.unwrap_or(u64::MAX), 0),
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
    let chosen: Vec<&Symbol> = symbols
        .iter()
        .filter(|s| s.start_line >= from && s.start_line <= to && s.depth >= min_depth)
        .collect();
    let limit = request
        .call
        .limit
        .unwrap_or(crate::args::params::DEFAULT_LIMIT) as usize;
    let line_texts: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let text_of = |line: u64| -> String {
        let raw = line_texts
            .get(line as usize - 1)
            .copied()
            .unwrap_or_default();
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        cut(
            &String::from_utf8_lossy(raw),
            request.settings.max_line_chars,
        )
    };
    let page: Vec<&Symbol> = chosen.iter().take(limit).copied().collect();
    let width = page
        .iter()
        .map(|s| format!("{}-{}", s.start_line, s.end_line).len())
        .max()
        .unwrap_or(0);
    let mut content = Vec::new();
    let mut shown = Vec::new();
    let mut truncated_by = None;
    for symbol in &page {
        let range = format!("{}-{}", symbol.start_line, symbol.end_line);
        let line = format!("{range:>width$} | {}\n", text_of(symbol.def_line));
        if !shown.is_empty() && (content.len() + line.len()) as u64 > budget {
            truncated_by = Some(TruncatedBy::Bytes);
            break;
        }
        content.extend_from_slice(line.as_bytes());
        shown.push(SymbolInfo {
            depth: Some(symbol.depth),
            ..info(symbol)
        });
    }
    let next = chosen.get(shown.len()).map(|s| s.start_line);
    if next.is_some() && truncated_by.is_none() {
        truncated_by = Some(TruncatedBy::Limit);
    }
    Ok(Success::Outline(OutlineRead {
        facts,
        language,
        content,
        symbols: shown,
        total_symbols: symbols.len() as u64,
        next_start_line: next,
        truncated_by,
        start_line: from,
    }))
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
