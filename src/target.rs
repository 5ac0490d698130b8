//! A target (a PATH as written, its `\xHH` spelling, `PATH:N`, `PATH:N-M`) becomes a
//! [`Plan`]: a file or directory opened inside the root and the window to read from it.
//! Every check that concerns one target is here; what comes after only reads.

use std::ffi::OsStr;
use std::fs::File;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fs::Stat;

use crate::args::cli::Format;
use crate::args::params::{DEFAULT_LIMIT, MAX_LIMIT, Wording, name};
use crate::args::request::{Request, Target};
use crate::error::{Error, ErrorCode};
use crate::names;
use crate::read::window::{Budget, Start, WindowSpec};
use crate::workspace::sandbox::{Opened, Resolved};
use crate::workspace::suggest;

/// What to read for one target, every check of it passed. (One lives at a time: its
/// size does not matter.)
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Plan {
    Stdin {
        spec: WindowSpec,
    },
    File {
        file: File,
        stat: Stat,
        /// The path as asked and as opened (root-relative).
        display: String,
        real: String,
        spec: WindowSpec,
        /// The line a `PATH:N` target names, which must exist (the first of `PATH:N-M`).
        asked_line: Option<u64>,
        /// The line a `PATH:N` or `PATH:N:C` target points at (not a range's).
        target_line: Option<u64>,
        how: How,
    },
    Directory {
        fd: OwnedFd,
        display: String,
        real: String,
        spec: WindowSpec,
        /// `--outline`: the map of its source files' symbols, not its entries.
        map: bool,
    },
}

/// How a file is read: by lines, or by its structure (SPEC §15).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum How {
    Lines,
    Structure(Structure),
}

/// What of a file's structure is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Structure {
    /// `PATH#SYMBOL` or `symbol`: the lines of one symbol, from line `from` of them
    /// when given (`--start-line`, which must lie inside the symbol).
    Symbol { query: String, from: Option<u64> },
    /// `--outline`: the symbols that start within `from..=to` (of `within`'s children),
    /// on line `from` at or after character `from_char`; those counted start at line
    /// `first` or after (a range `PATH:N-M`'s N, else 1).
    Outline {
        first: u64,
        from: u64,
        from_char: u64,
        to: Option<u64>,
        within: Option<String>,
    },
    /// `--enclosing`: the innermost symbol (or indented block) that holds this line.
    Enclosing(u64),
    /// `--signatures` (SPEC §18): the lines from `from` (to `to`, or within the symbol
    /// `within`) with function and method bodies elided.
    Signatures(Scope),
    /// `--fit` (SPEC §18): the richest view of the asked lines that fits the budget.
    Fit(Scope),
}

/// The lines a signatures view or `--fit` covers: from `from` to `to` (the end of the
/// file when None), or the symbol `within`'s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// The first line of the lines asked for: a range's N, else `from`.
    pub first: u64,
    pub from: u64,
    pub to: Option<u64>,
    pub within: Option<String>,
}

impl Plan {
    /// The size of a regular file to read (by its descriptor); None otherwise.
    pub fn file_size(&self) -> Option<u64> {
        match self {
            Plan::File { stat, .. } => Some(u64::try_from(stat.st_size).unwrap_or(0)),
            _ => None,
        }
    }
}

/// INVALID_PARAM when a start line is outside the lines `line..=end` a target names.
fn outside_range(wording: Wording, from: u64, line: u64, end: Option<u64>) -> Result<(), Error> {
    if from < line || from > end.unwrap_or(u64::MAX) {
        let range = end.map_or(format!("{line}-"), |end| format!("{line}-{end}"));
        return Err(Error::invalid_param(format!(
            "{} {from} is outside the lines {range} the target names; give a line within them.",
            wording.name(name::START_LINE)
        )));
    }
    Ok(())
}

/// Resolves one target of a request; what it shows may take at most `budget` bytes (the
/// byte budget, or with `paths` what the earlier targets left of it).
pub fn resolve(request: &Request, target: &Target, budget: Budget) -> Result<Plan, Error> {
    match target {
        Target::Stdin => {
            if request.call.symbol.is_some()
                || request.call.outline
                || request.call.enclosing
                || request.call.signatures
            {
                return Err(Error::invalid_param(
                    "Reading by structure (a symbol, the outline, the enclosing block) needs a file, not standard input.",
                ));
            }
            Ok(Plan::Stdin {
                spec: spec_for(request, None, budget)?,
            })
        }
        Target::Path(path) => resolve_path(request, path, budget),
    }
}

/// A PATH as written; when it names nothing, as its `\xHH` spelling of bytes that are
/// not UTF-8, then as a `PATH:N` reference whose part before `:N` names a file (SPEC §13,
/// §14).
fn resolve_path(request: &Request, path: &OsStr, budget: Budget) -> Result<Plan, Error> {
    let path = &*request.root.asked(path);
    let first = match request.root.resolve(path) {
        Ok(resolved) => return plan(request, resolved, Part::Whole, budget),
        Err(err) if err.code == ErrorCode::NotFound => err,
        Err(err) => return Err(err),
    };
    if let Some(bytes) = names::unescape(path.as_bytes())
        && let Ok(resolved) = request.root.resolve(OsStr::from_bytes(&bytes))
    {
        return plan(request, resolved, Part::Whole, budget);
    }
    // `a.rs#S/f`: the first `#` whose part before names a file starts the symbol, so
    // that a symbol's own `/` (`S/f`, `operator/=`) stays in it.
    for (file, symbol) in symbol_refs(path.as_bytes()) {
        match request.root.resolve(OsStr::from_bytes(file)) {
            Ok(resolved) if matches!(resolved.opened, Opened::File { .. }) => {
                let symbol = String::from_utf8_lossy(symbol).into_owned();
                return plan(request, resolved, Part::Symbol(symbol), budget);
            }
            // The file before `#` is there but cannot be read (a link leading outside,
            // a FIFO, no permission): that is the answer, as it is for `PATH:N`.
            Err(err) if err.code != ErrorCode::NotFound => return Err(err),
            _ => {}
        }
    }
    if let Some((file, reference)) = line_ref(path.as_bytes()) {
        let file = OsStr::from_bytes(file);
        let resolved = request
            .root
            .resolve(file)
            .map_err(|err| with_suggestions(request, err, &request.root.display_of(file)))?;
        // A reference points into a file; `dir:3` names nothing.
        if matches!(resolved.opened, Opened::File { .. }) {
            return plan(request, resolved, Part::Lines(reference), budget);
        }
    }
    Err(with_suggestions(
        request,
        first,
        &request.root.display_of(path),
    ))
}

fn with_suggestions(request: &Request, err: Error, display: &str) -> Error {
    match err.code {
        ErrorCode::NotFound => {
            // A name as agentread prints it (`\xHH`, control pictures) is compared as the
            // name it stands for.
            let asked = names::unescape(display.as_bytes()).map(|bytes| names::text_of(&bytes));
            let asked = asked.as_deref().unwrap_or(display);
            let candidates = suggest::suggestions(&request.root, asked, &request.settings.deny);
            err.with_suggestions(candidates)
        }
        _ => err,
    }
}

/// What the target's spelling names in the file.
enum Part {
    Whole,
    Lines(LineRef),
    Symbol(String),
}

fn plan(request: &Request, resolved: Resolved, part: Part, budget: Budget) -> Result<Plan, Error> {
    let reference = match &part {
        Part::Lines(reference) => Some(*reference),
        _ => None,
    };
    let symbol = match part {
        // A path `a.py#K` with a symbol parameter `m` names two symbols: neither is chosen.
        Part::Symbol(symbol) if request.call.symbol.is_some() => {
            return Err(Error::invalid_param(format!(
                "'{}#{symbol}' names a symbol, and {} names another: give only one of them.",
                resolved.display,
                request.wording().name(name::SYMBOL)
            )));
        }
        Part::Symbol(symbol) => Some(symbol),
        _ => request.call.symbol.clone(),
    };
    let file = matches!(resolved.opened, Opened::File { .. });
    if request.all() && !file {
        return Err(Error::invalid_param(format!(
            "'{}' is a directory; --all reads a file to its end (list the directory without --all).",
            resolved.display
        )));
    }
    let how = how(request, reference, symbol, file)?;
    // A directory's map is paged as lines.
    let spec = match how {
        How::Structure(_) if file => structure_spec(request, budget),
        _ => spec_for(request, reference, budget)?,
    };
    match resolved.opened {
        Opened::File { file, stat } => {
            check_deny(request, &resolved.display, &resolved.passed)?;
            Ok(Plan::File {
                file,
                stat,
                display: resolved.display,
                real: resolved.real,
                spec,
                asked_line: reference.map(|r| r.line),
                target_line: reference.filter(|r| r.end.is_none()).map(|r| r.line),
                how,
            })
        }
        Opened::Directory { fd } => Ok(Plan::Directory {
            fd,
            display: resolved.display,
            real: resolved.real,
            spec,
            map: how != How::Lines,
        }),
    }
}

/// The ways `a.rs#Window.render` splits into a file and a symbol: at each `#`, the
/// first first (SPEC §15 "`/` in a target"); the caller takes the first whose file exists.
pub fn symbol_refs(path: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    path.iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'#')
        .map(move |(hash, _)| (&path[..hash], &path[hash + 1..]))
        .filter(|(file, symbol)| !file.is_empty() && !symbol.is_empty() && !file.ends_with(b"/"))
}

/// How the target is read, and the combinations SPEC §15 refuses.
fn how(
    request: &Request,
    reference: Option<LineRef>,
    symbol: Option<String>,
    file: bool,
) -> Result<How, Error> {
    let w = &request.call;
    let name = |param: &str| request.wording().name(param);
    let first = |given: &[(bool, &str)]| {
        given
            .iter()
            .find_map(|(given, param)| given.then(|| name(param)))
    };
    if !file && (symbol.is_some() || request.call.enclosing) {
        let what = match symbol {
            Some(_) => "A symbol".to_string(),
            None => name(name::ENCLOSING),
        };
        return Err(Error::invalid_param(format!(
            "{what} reads a file, not a directory: give one of its files, or use {} for a map of the directory.",
            request.wording().flag(name::OUTLINE)
        )));
    }
    if request.call.outline && request.call.enclosing {
        return Err(Error::invalid_param(format!(
            "{} and {} cannot be combined: give one of them.",
            name(name::OUTLINE),
            name(name::ENCLOSING)
        )));
    }
    // The leaner views of SPEC §18 are views of lines: not of a list of symbols, nor of
    // what holds one line.
    for (view, asked) in [(name::SIGNATURES, w.signatures), (name::FIT, w.fit)] {
        if !asked {
            continue;
        }
        if let Some(other) = first(&[
            (w.outline, name::OUTLINE),
            (w.enclosing, name::ENCLOSING),
            (view == name::FIT && w.signatures, name::SIGNATURES),
            (w.tail.is_some(), name::TAIL),
            (w.context.is_some(), name::CONTEXT),
            (w.start_char.is_some(), name::START_CHAR),
        ]) {
            return Err(Error::invalid_param(format!(
                "{} cannot be combined with {other}: give one of them.",
                name(view)
            )));
        }
        if !file {
            return Err(Error::invalid_param(format!(
                "{} reads a file, not a directory: give one of its files, or use {} for a map of the directory.",
                name(view),
                request.wording().flag(name::OUTLINE)
            )));
        }
    }
    let scope = |within: Option<String>| match reference {
        // From line L with `--start-line L`, as the footer of a page of the range's
        // outline says to go on.
        Some(LineRef { line, end }) => Scope {
            first: line,
            from: w.start_line.unwrap_or(line),
            to: end,
            within,
        },
        // In a symbol, 0: from the symbol's start.
        None => {
            let from = w.start_line.unwrap_or(if within.is_some() { 0 } else { 1 });
            Scope {
                first: from,
                from,
                to: None,
                within,
            }
        }
    };
    let leaner = |within: Option<String>| {
        if !(w.signatures || w.fit) {
            return Ok(None);
        }
        let scope = scope(within);
        if let Some(LineRef { line, end }) = reference {
            outside_range(request.wording(), scope.from, line, end)?;
        }
        Ok(Some(How::Structure(match w.signatures {
            true => Structure::Signatures(scope),
            false => Structure::Fit(scope),
        })))
    };
    if let Some(symbol) = symbol {
        if request.all() {
            return Err(Error::invalid_param(
                "A symbol names its lines itself; --all cannot be combined with it (drop --all to read the symbol, or drop #SYMBOL to read the whole file).",
            ));
        }
        if let Some(flag) = first(&[
            (reference.is_some(), "a line reference (PATH:N)"),
            (w.tail.is_some(), name::TAIL),
            (w.context.is_some(), name::CONTEXT),
            (
                w.start_char.is_some() && !request.call.outline,
                name::START_CHAR,
            ),
            (request.call.enclosing, name::ENCLOSING),
        ]) {
            return Err(Error::invalid_param(format!(
                "A symbol names its lines itself; {flag} cannot be combined with it."
            )));
        }
        if let Some(how) = leaner(Some(symbol.clone()))? {
            return Ok(how);
        }
        return Ok(match request.call.outline {
            true => How::Structure(Structure::Outline {
                first: 1,
                // 0: from the symbol's start.
                from: w.start_line.unwrap_or(0),
                from_char: w.start_char.unwrap_or(1),
                to: None,
                within: Some(symbol),
            }),
            false => How::Structure(Structure::Symbol {
                query: symbol,
                from: w.start_line,
            }),
        });
    }
    if let Some(how) = leaner(None)? {
        return Ok(how);
    }
    if request.call.outline {
        if let Some(flag) = first(&[
            (w.tail.is_some(), name::TAIL),
            (w.context.is_some(), name::CONTEXT),
            (w.start_char.is_some() && !file, name::START_CHAR),
        ]) {
            return Err(Error::invalid_param(format!(
                "{} lists symbols; {flag} cannot be combined with it.",
                name(name::OUTLINE)
            )));
        }
        return Ok(match reference {
            // `PATH:N --start-char C` pages as `--start-line N --start-char C` does;
            // `PATH:N-M` lists the symbols that start within N-M (`PATH:N`: N and after),
            // from line L with `--start-line L`, as its footer says to go on.
            Some(LineRef { line, end }) => {
                let from = w.start_line.unwrap_or(line);
                outside_range(request.wording(), from, line, end)?;
                How::Structure(Structure::Outline {
                    first: end.map_or(1, |_| line),
                    from,
                    from_char: w.start_char.unwrap_or(1),
                    to: end,
                    within: None,
                })
            }
            None => How::Structure(Structure::Outline {
                first: 1,
                from: w.start_line.unwrap_or(1),
                from_char: w.start_char.unwrap_or(1),
                to: None,
                within: None,
            }),
        });
    }
    if request.call.enclosing {
        if let Some(flag) = first(&[
            (w.tail.is_some(), name::TAIL),
            (w.context.is_some(), name::CONTEXT),
            (w.start_char.is_some(), name::START_CHAR),
            (
                reference.is_some_and(|r| r.end.is_some()),
                "a range (PATH:N-M)",
            ),
            (
                reference.is_some() && w.start_line.is_some(),
                name::START_LINE,
            ),
        ]) {
            return Err(Error::invalid_param(format!(
                "{} reads what holds one line; {flag} cannot be combined with it.",
                name(name::ENCLOSING)
            )));
        }
        return match reference.map(|r| r.line).or(w.start_line) {
            Some(line) => Ok(How::Structure(Structure::Enclosing(line))),
            None => Err(Error::invalid_param(format!(
                "{} needs a line: a PATH:N target (such as src/main.rs:42) or {}.",
                name(name::ENCLOSING),
                request.wording().set(&[(name::START_LINE, &"N")])
            ))),
        };
    }
    Ok(How::Lines)
}

/// The window settings a structured read starts from; its lines come from the symbol.
fn structure_spec(request: &Request, budget: Budget) -> WindowSpec {
    WindowSpec {
        start: Start::Line(1),
        limit: request.call.limit.unwrap_or(MAX_LIMIT),
        start_char: 1,
        max_line_chars: request.settings.max_line_chars,
        max_bytes: budget.bytes,
        max_tokens: budget.tokens,
        numbers: request.settings.numbers,
        line_endings: request.format != Format::Text,
    }
}

/// The deny policy, against the path as asked, every link followed and the file opened
/// (`passed`, as the sandbox walked them).
fn check_deny(request: &Request, display: &str, passed: &[Vec<u8>]) -> Result<(), Error> {
    for path in passed {
        if let Some(pattern) = request
            .settings
            .deny
            .denying(Path::new(OsStr::from_bytes(path)))
        {
            return Err(Error::denied(display, &names::text_of(path), &pattern));
        }
    }
    Ok(())
}

/// A `PATH:N`, `PATH:N:C` or `PATH:N-M` reference (SPEC §13).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRef {
    pub line: u64,
    /// The last line of `:N-M`.
    pub end: Option<u64>,
}

/// Splits `a.rs:12`, `a.rs:12:5` and `a.rs:12-20` into the file's path and the reference.
pub fn line_ref(path: &[u8]) -> Option<(&[u8], LineRef)> {
    let number = |b: &[u8]| -> Option<u64> {
        (!b.is_empty() && b.iter().all(u8::is_ascii_digit))
            .then(|| std::str::from_utf8(b).ok()?.parse::<u64>().ok())
            .flatten()
            .filter(|n| *n >= 1)
    };
    let colon = path.iter().rposition(|&b| b == b':')?;
    let (before, last) = (&path[..colon], &path[colon + 1..]);
    if let Some(dash) = last.iter().position(|&b| b == b'-') {
        let (line, end) = (number(&last[..dash])?, number(&last[dash + 1..])?);
        return (!before.is_empty()).then_some((
            before,
            LineRef {
                line,
                end: Some(end),
            },
        ));
    }
    let last = number(last)?;
    // `:N:C`: the column is ignored.
    if let Some(colon) = before.iter().rposition(|&b| b == b':')
        && let Some(line) = number(&before[colon + 1..])
        && colon > 0
    {
        return Some((&before[..colon], LineRef { line, end: None }));
    }
    (!before.is_empty()).then_some((
        before,
        LineRef {
            line: last,
            end: None,
        },
    ))
}

/// The window to read for a target: the call's options, or a line reference's.
fn spec_for(
    request: &Request,
    reference: Option<LineRef>,
    budget: Budget,
) -> Result<WindowSpec, Error> {
    let w = &request.call;
    let name = |param: &str| request.wording().name(param);
    let mut spec = WindowSpec {
        start: match w.tail {
            Some(n) => Start::Tail(n),
            None => Start::Line(w.start_line.unwrap_or(1)),
        },
        limit: w.tail.or(w.limit).unwrap_or(DEFAULT_LIMIT),
        start_char: w.start_char.unwrap_or(1),
        max_line_chars: request.settings.max_line_chars,
        max_bytes: budget.bytes,
        max_tokens: budget.tokens,
        numbers: request.settings.numbers,
        line_endings: request.format != Format::Text,
    };
    if request.all() {
        // Streamed to the end, whole (SPEC §17): no limit, budget or cut applies.
        spec.limit = u64::MAX;
        spec.max_bytes = u64::MAX;
        spec.max_tokens = None;
        spec.max_line_chars = u64::MAX;
    }
    let Some(reference) = reference else {
        if w.context.is_some() {
            return Err(Error::invalid_param(format!(
                "{} needs a PATH:N target (such as src/main.rs:42 with {}).",
                name(name::CONTEXT),
                request.wording().set(&[(name::CONTEXT, &5)])
            )));
        }
        return Ok(spec);
    };
    let n = reference.line;
    // `end_line` or `view_range` set the start line and limit: a refusal names what was
    // given.
    let given = |param: &'static str| -> String {
        match (param, w.end_line.is_some(), w.view_range.is_some()) {
            (name::START_LINE | name::LIMIT, true, _) => name(name::END_LINE),
            (name::START_LINE | name::LIMIT, _, true) => name(name::VIEW_RANGE),
            _ => name(param),
        }
    };
    if let Some(end) = reference.end {
        if request.all() {
            return Err(Error::invalid_param(format!(
                "A PATH:N-M target names its last line; --all reads to the end of the file (use PATH:{n} --all to read from line {n} to the end, or drop --all)."
            )));
        }
        if let Some((param, flag)) = [
            (w.start_line.is_some(), name::START_LINE),
            (w.limit.is_some(), name::LIMIT),
            (w.tail.is_some(), name::TAIL),
            (w.context.is_some(), name::CONTEXT),
        ]
        .into_iter()
        .find_map(|(is, param)| is.then(|| (param, given(param))))
        {
            // What works instead: a limit or context goes with PATH:N; a start line or
            // a tail goes with no line in the path at all.
            let instead = match param {
                name::LIMIT | name::CONTEXT if w.end_line.is_none() && w.view_range.is_none() => {
                    format!("use PATH:{n} with {flag}, or drop {flag}")
                }
                _ => format!("drop :{n}-{end}, or drop {flag}"),
            };
            return Err(Error::invalid_param(format!(
                "A PATH:N-M target names its lines itself; {flag} cannot be combined with it ({instead})."
            )));
        }
        if end < n {
            return Err(Error::invalid_param(format!(
                "The range {n}-{end} ends before it starts: write PATH:N-M with M ≥ N."
            )));
        }
        if end - n + 1 > MAX_LIMIT {
            return Err(Error::invalid_param(format!(
                "The range {n}-{end} is {} lines; at most {MAX_LIMIT} lines can be read at once (read it in parts).",
                end - n + 1
            )));
        }
        spec.start = Start::Line(n);
        spec.limit = end - n + 1;
        return Ok(spec);
    }
    if w.start_line.is_some() || w.tail.is_some() {
        let flag = given(if w.tail.is_some() {
            name::TAIL
        } else {
            name::START_LINE
        });
        return Err(Error::invalid_param(format!(
            "A PATH:N target starts at line N; {flag} cannot be combined with it (drop :N, or drop {flag})."
        )));
    }
    match w.context {
        Some(k) => {
            let first = n.saturating_sub(k).max(1);
            let lines = n + k - first + 1;
            spec.start = Start::Line(first);
            spec.limit = w.limit.map_or(lines, |l| l.min(lines));
        }
        None => spec.start = Start::Line(n),
    }
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_references_are_split_from_the_path() {
        let r = |line, end| Some(LineRef { line, end });
        let split = |p: &str| line_ref(p.as_bytes()).map(|(f, r)| (f.to_vec(), r));
        assert_eq!(
            split("a.rs:12"),
            Some((b"a.rs".to_vec(), r(12, None).unwrap()))
        );
        assert_eq!(
            split("a.rs:12:7"),
            Some((b"a.rs".to_vec(), r(12, None).unwrap()))
        );
        assert_eq!(
            split("a.rs:3-9"),
            Some((b"a.rs".to_vec(), r(3, Some(9)).unwrap()))
        );
        // A colon inside the path stays in it; only the last part is the reference.
        assert_eq!(
            split("x:y.rs:4"),
            Some((b"x:y.rs".to_vec(), r(4, None).unwrap()))
        );
        // The last part decides: here `:4` after a path that ends in `:2-3`.
        assert_eq!(
            split("a.rs:2-3:4"),
            Some((b"a.rs:2-3".to_vec(), r(4, None).unwrap()))
        );
        // Not references: no path, no number, zero, signs, an open range.
        for no in [
            ":5", "a.rs:", "a.rs:0", "a.rs:+5", "a.rs:x", "a.rs:1-", "a.rs:-2", "a.rs",
        ] {
            assert_eq!(split(no), None, "{no}");
        }
    }
}
