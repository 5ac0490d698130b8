//! The footer's sentences, shared by the text footer, the XML `<hint>`s and the JSON
//! `text` field. The command line's wording says `--start-line 501`; the tool's wording
//! (JSON `text`, `--call`, MCP) says `start_line=501`.

use crate::args::params::{Wording, name};
use crate::outcome::DocumentKind;
use crate::outcome::{Success, view};
use crate::read::window::{TruncatedBy, Window};

/// The footer lines worth saying for this answer, in order.
/// `max_bytes` is the byte budget a truncation footer names.
pub fn footer(success: &Success, max_bytes: u64, wording: Wording) -> Vec<String> {
    footer_of(success, max_bytes, wording, true)
}

/// [`footer`], without the line that says a window is truncated when `truncation` is
/// false (several `-C` windows, whose totals are said once at the end).
pub fn footer_of(
    success: &Success,
    max_bytes: u64,
    wording: Wording,
    truncation: bool,
) -> Vec<String> {
    match success {
        Success::Text(read) => {
            // A truncated window of code, or of a document: its outline finds the part
            // worth reading.
            let parts = match read.document.map(|d| d.kind) {
                Some(DocumentKind::Notebook) => Some("cells"),
                Some(DocumentKind::Pdf) => Some("pages"),
                None => read.language.map(|_| "symbols"),
            };
            // `--fit` answered with lines cut by the budget: they define nothing, so no
            // leaner view of them is there to suggest.
            let no_leaner = read.view() == Some(view::LINES)
                && matches!(
                    read.window.truncated_by,
                    Some(TruncatedBy::Bytes | TruncatedBy::Tokens)
                );
            let mut also = match parts {
                _ if no_leaner => String::new(),
                Some(parts) if read.symbol.is_none() => {
                    format!(" Use {} to list its {parts}.", wording.flag(name::OUTLINE))
                }
                _ => String::new(),
            };
            if !no_leaner {
                also.push_str(&leaner(read, wording));
            }
            let mut hints = window_hints(
                &read.window,
                max_bytes,
                wording,
                ("file", "lines"),
                &also,
                truncation && read.symbol.is_none(),
                CutStep {
                    symbol_in: read.symbol.as_ref().map(|_| read.facts.path.as_str()),
                    // `--signatures` shows a line cut; the line goes on in the file's
                    // lines (`--fit` takes a start character itself).
                    without: (read.elided().is_some() && read.view().is_none())
                        .then_some(name::SIGNATURES),
                },
            );
            if let Some(symbol) = &read.symbol {
                let lines = symbol_hints(read, symbol, max_bytes, wording, truncation);
                hints.splice(0..0, lines);
            }
            if read.window.replaced() {
                let suggested = read.suggested_encoding.as_deref();
                hints.push(replaced_hint(&read.encoding, suggested, wording));
            }
            match read.document.map_or(0, |d| d.unread_pages) {
                0 => {}
                1 => hints.push(
                    "[1 page of this PDF was not read whole: its last line says why.]".to_string(),
                ),
                n => hints.push(format!(
                    "[{n} pages of this PDF were not read whole: the last line of each says why.]"
                )),
            }
            if read.document.is_some_and(|d| d.no_text_layer) {
                hints.push(
                    "[This PDF has no text layer (scanned or drawn pages): only its page lines are shown.]"
                        .to_string(),
                );
            }
            if read.view() == Some(view::SIGNATURES) {
                hints.push(fit_hint(view::SIGNATURES, wording));
            }
            if no_leaner {
                hints.push(
                    "[The lines do not fit the budget and define no symbols: showing those that fit.]"
                        .to_string(),
                );
            }
            if let Some(hash) = &read.facts.content_hash {
                hints.push(format!("[content_hash: {hash}]"));
            }
            hints
        }
        Success::Map(map) => {
            let mut hints = window_hints(
                &map.window,
                max_bytes,
                wording,
                ("map", "lines"),
                "",
                true,
                CutStep::default(),
            );
            match map.not_parsed {
                0 => {}
                1 => hints.push(
                    "[1 file is listed without its symbols: the line under its path says why.]"
                        .to_string(),
                ),
                n => hints.push(format!(
                    "[{n} files are listed without their symbols: the line under each path says why.]"
                )),
            }
            hints
        }
        Success::Directory(listing) => window_hints(
            &listing.window,
            max_bytes,
            wording,
            ("directory", "entries"),
            "",
            true,
            CutStep::default(),
        ),
        Success::Unchanged(unchanged) => vec![format!(
            "(unchanged since hash {})",
            unchanged.facts.content_hash.as_deref().unwrap_or_default()
        )],
        // Its summary holds its hash (`envelope::image_summary`).
        Success::Image(..) => Vec::new(),
        Success::Outline(outline) => {
            let shown = outline.symbols.len();
            let replaced = outline
                .replaced
                .as_ref()
                .map(|r| replaced_hint(&r.encoding, r.suggested_encoding.as_deref(), wording));
            if shown == 0 {
                return std::iter::once("(no symbols)".to_string())
                    .chain(replaced)
                    .collect();
            }
            let fit = outline.view.map(|view| fit_hint(view, wording));
            let mut hints = Vec::new();
            if let Some(next) = outline.next_start_line {
                let first = outline.first_shown;
                let last = first + shown as u64 - 1;
                let lines = |s: Option<&crate::outcome::SymbolInfo>| s.map_or(0, |s| s.start_line);
                let go_on = match outline.next_start_char {
                    Some(char) => {
                        wording.set(&[(name::START_LINE, &next), (name::START_CHAR, &char)])
                    }
                    None => wording.set(&[(name::START_LINE, &next)]),
                };
                hints.push(format!(
                    "[Truncated: showing symbols {first}-{last} of {} (lines {}-{}). Use {go_on} to continue.]",
                    outline.total_symbols,
                    lines(outline.symbols.first()),
                    lines(outline.symbols.last()),
                ));
            }
            hints.extend(fit);
            hints.extend(replaced);
            hints
        }
    }
}

/// `--fit` chose a view other than the lines: which, and how to read a part (SPEC §18).
fn fit_hint(view: &str, wording: Wording) -> String {
    let part = match wording {
        Wording::Cli => "--start-line/--limit",
        Wording::Tool => "start_line/limit",
    };
    format!(
        "[The lines do not fit the budget: showing their {view}. Use PATH#SYMBOL or {part} to read a part.]"
    )
}

/// Where the step to the rest of a cut line leads, when not to the same call.
#[derive(Default)]
struct CutStep<'a> {
    /// The file of a symbol's read: a cut line goes on in the file, by line and
    /// character, which a symbol's read does not take (SPEC §15).
    symbol_in: Option<&'a str>,
    /// The leaner view shown (`signatures`), which a line's next characters are not
    /// read with: the step to them drops it.
    without: Option<&'static str>,
}

fn window_hints(
    window: &Window,
    max_bytes: u64,
    wording: Wording,
    (kind, unit): (&str, &str),
    // Said after "Use … to continue." on the truncation line.
    also: &str,
    // Whether to say that the window is truncated.
    truncation: bool,
    cut_step: CutStep,
) -> Vec<String> {
    let CutStep { symbol_in, without } = cut_step;
    if window.total_lines == 0 {
        return vec![format!("({kind} is empty)")];
    }
    let mut hints = Vec::new();
    let (first, last, total) = (
        window.start_line,
        window.end_line().unwrap_or(window.start_line),
        window.total_lines,
    );
    if let Some(next) = window.next_start_line().filter(|_| truncation) {
        let why = truncated(window, max_bytes);
        hints.push(format!(
            "[{why}: showing {unit} {first}-{last} of {total}. Use {} to continue.{also}]",
            wording.set(&[(name::START_LINE, &next)])
        ));
    }
    if window.tail_dropped > 0 {
        let dropped = window.tail_dropped;
        hints.push(format!(
            "[Truncated at {}: showing the last {} {unit} ({first}-{last} of {total}). Use {} for the {dropped} before them.]",
            match window.tail_dropped_by {
                TruncatedBy::Tokens => format!("{} tokens", window.max_tokens.unwrap_or_default()),
                _ => format!("{max_bytes} bytes"),
            },
            window.lines_read(),
            wording.set(&[(name::START_LINE, &(first - dropped)), (name::LIMIT, &dropped)]),
        ));
    }
    if let Some(cut) = window.first_cut() {
        let step = wording.set(&[
            (name::START_LINE, &cut.line),
            (name::START_CHAR, &(cut.shown_to + 1)),
        ]);
        let step = match (symbol_in, wording) {
            (None, _) => step,
            (Some(path), Wording::Cli) => format!("{} {step}", quoted(path)),
            (Some(_), Wording::Tool) => format!("{step} without a symbol"),
        };
        let step = match without {
            Some(view) => format!("{step} without {}", wording.flag(view)),
            None => step,
        };
        hints.push(format!(
            "[Line {} was cut at {} of {} chars. Use {step} to continue it.]",
            cut.line, cut.shown_to, cut.total,
        ));
    }
    hints
}

/// A symbol's read (`PATH#SYMBOL`, `--enclosing`): where to go on inside the symbol when
/// it is cut, and which symbol was read (SPEC §15 "Symbol reads are whole answers").
fn symbol_hints(
    read: &crate::outcome::TextRead,
    symbol: &crate::outcome::SymbolInfo,
    max_bytes: u64,
    wording: Wording,
    truncation: bool,
) -> Vec<String> {
    let window = &read.window;
    let path = &read.facts.path;
    let mut hints = Vec::new();
    if let Some(next) = window.next_start_line().filter(|_| truncation) {
        let why = truncated(window, max_bytes);
        let (go_on, from_start) = symbol_step(path, symbol, next, wording);
        let what = match from_start {
            true => "read it from its start",
            false => "continue",
        };
        hints.push(format!(
            "[{why}: showing lines {}-{} of {}. Use {go_on} to {what}.{}]",
            window.start_line,
            window.end_line().unwrap_or(window.start_line),
            window.total_lines,
            leaner(read, wording)
        ));
    }
    hints.push(match &symbol.qualified_name {
        Some(name) => format!(
            "[Symbol {name} ({}): lines {}-{} of {}.]",
            symbol.kind, symbol.start_line, symbol.end_line, window.total_lines
        ),
        None => format!(
            "[Block: lines {}-{} of {}.]",
            symbol.start_line, symbol.end_line, window.total_lines
        ),
    });
    hints
}

/// Cut by a budget: a leaner view shows all of it (SPEC §18), said after the truncation
/// line's step; nothing otherwise.
fn leaner(read: &crate::outcome::TextRead, wording: Wording) -> String {
    let by_budget = matches!(
        read.window.truncated_by,
        Some(TruncatedBy::Bytes | TruncatedBy::Tokens)
    );
    match by_budget && read.language.is_some() && read.document.is_none() && read.elided().is_none()
    {
        true => format!(
            " Use {} or {} to see all of it in fewer tokens.",
            wording.flag(name::SIGNATURES),
            wording.flag(name::FIT)
        ),
        false => String::new(),
    }
}

/// `Truncated`, with the budget that cut the window when one did.
fn truncated(window: &Window, max_bytes: u64) -> String {
    match window.truncated_by {
        Some(TruncatedBy::Bytes) => format!("Truncated at {max_bytes} bytes"),
        Some(TruncatedBy::Tokens) => format!(
            "Truncated at {} tokens",
            window.max_tokens.unwrap_or_default()
        ),
        _ => "Truncated".to_string(),
    }
}

/// The step that reads on in a symbol cut at line `next`, and whether it goes back to
/// the symbol's start: when a window around line N reached the symbol's end, its start
/// is what is left (`next` is then the symbol's start, before the window).
pub fn symbol_step(
    path: &str,
    symbol: &crate::outcome::SymbolInfo,
    next: u64,
    wording: Wording,
) -> (String, bool) {
    let from_start = next > symbol.end_line || next <= symbol.start_line;
    let from = if from_start { symbol.start_line } else { next };
    (symbol_go_on(path, symbol, from, wording), from_start)
}

/// How to read on from line `next` inside `symbol` (a block has no name: by its lines).
fn symbol_go_on(
    path: &str,
    symbol: &crate::outcome::SymbolInfo,
    next: u64,
    wording: Wording,
) -> String {
    match (&symbol.qualified_name, wording) {
        (Some(name), Wording::Cli) => {
            format!("{} -s {next}", quoted(&format!("{path}#{name}")))
        }
        // Named too, since an `--enclosing` caller passed no symbol to keep.
        (Some(name), Wording::Tool) => format!(
            "{} with the same symbol ({}={})",
            wording.set(&[(name::START_LINE, &next)]),
            name::SYMBOL,
            serde_json::Value::from(name.as_str())
        ),
        (None, _) => wording.set(&[
            (name::START_LINE, &next),
            (name::LIMIT, &(symbol.end_line.saturating_sub(next) + 1)),
        ]),
    }
}

/// A target as a shell word: in single quotes, a quote inside written `'\''`.
fn quoted(target: &str) -> String {
    format!("'{}'", target.replace('\'', "'\\''"))
}

/// The hint of a read some of whose bytes are shown as U+FFFD.
fn replaced_hint(encoding: &str, suggested: Option<&str>, wording: Wording) -> String {
    let mut hint = format!("[Bytes that are not valid {encoding} are shown as U+FFFD.");
    if let Some(legacy) = suggested {
        hint.push_str(&format!(
            " This looks like {legacy}: use {}.",
            wording.set(&[(name::ENCODING, &"auto")])
        ));
    }
    hint.push(']');
    hint
}
