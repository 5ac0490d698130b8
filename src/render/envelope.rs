//! An answer as typed data (SPEC §6): the one description of the output's fields, which
//! the JSON format serialises, the XML format walks, and the MCP server returns as its
//! `structuredContent`. Field order is the order printed.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Map, Value};

use super::Style;
use super::hints;
use super::utf8;
use crate::args::params::Wording;
use crate::error::{Error, ErrorDetail};
use crate::outcome::Answer;
use crate::outcome::{FileFacts, Success, SymbolInfo, view};
use crate::read::window::Window;

/// The top-level object: `status`, `data`, `text`, `stats`, `context`, and `error`
/// only on error.
#[derive(Debug, Serialize)]
pub struct Envelope<'a> {
    pub status: &'static str,
    pub data: Option<Data<'a>>,
    pub text: String,
    pub stats: Stats,
    pub context: ContextInfo<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo<'a>>,
}

/// `data`: what was read. Absent fields are left out; `Some(None)` prints `null`.
#[derive(Debug, Serialize)]
pub struct Data<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Option<Cow<'a, str>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent_width: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent_height: Option<u64>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub window: Option<WindowData>,
    /// The line a `PATH:N` target names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback_encoding: Option<Option<&'static str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggested_encoding: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entries: Option<&'a [String]>,
    /// Every answer about structure names its language, `null` when none is known
    /// (`--enclosing` in a text file reads an indentation block).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<Option<&'static str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<&'a SymbolInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbols: Option<&'a [SymbolInfo]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_symbols: Option<u64>,
    /// A directory's map: the files on the page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<&'a [crate::outcome::MapFile]>,
    /// What `--fit` chose: `lines`, `signatures` or `outline` (SPEC §18).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub view: Option<&'static str>,
    /// A signatures view's markers: the runs of lines they stand for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elided: Option<&'a [crate::outcome::Elided]>,
}

/// Where the window lies and how to read on.
#[derive(Debug, Serialize)]
pub struct WindowData {
    pub start_line: u64,
    pub end_line: Option<u64>,
    pub truncated: bool,
    pub truncated_by: Option<&'static str>,
    pub next_start_line: Option<u64>,
    pub next_start_char: Option<u64>,
}

/// `stats`. Absent fields are left out; `Some(None)` prints `null`.
#[derive(Debug, Default, Serialize)]
pub struct Stats {
    pub time_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines_read: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chars_read: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_lines: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_size_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_mtime_ms: Option<Option<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines_cut: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bom: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_endings: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approx_tokens: Option<u64>,
    /// The content's exact `o200k_base` tokens (SPEC §18).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
}

/// `context`.
#[derive(Debug, Serialize)]
pub struct ContextInfo<'a> {
    pub cwd: Option<&'a str>,
    pub params_input: &'a Map<String, Value>,
    pub path_resolved: Option<&'a str>,
}

/// `error`.
#[derive(Debug, Serialize)]
pub struct ErrorInfo<'a> {
    pub code: &'static str,
    pub message: &'a str,
    pub exit_code: u8,
    pub suggestions: &'a [String],
    pub detail: Option<&'a ErrorDetail>,
}

impl<'a> Envelope<'a> {
    /// The typed description of `answer`.
    pub fn of(context: &'a Style, answer: &'a Answer) -> Envelope<'a> {
        let status = answer.status().name();
        let mut stats = Stats {
            time_ms: answer.time_ms,
            ..Stats::default()
        };
        let info = |path_resolved| ContextInfo {
            cwd: context.cwd.as_deref(),
            params_input: &answer.params_input,
            path_resolved,
        };
        let success = match &answer.result {
            Err(error) => {
                return Envelope {
                    status,
                    data: None,
                    text: error_text(error),
                    stats,
                    context: info(None),
                    error: Some(ErrorInfo {
                        code: error.code.name(),
                        message: &error.message,
                        exit_code: error.exit_code(),
                        suggestions: &error.suggestions,
                        detail: error.detail.as_ref(),
                    }),
                };
            }
            Ok(success) => success,
        };
        let (data, path_resolved, summary) = match success {
            Success::Text(read) => {
                let w = &read.window;
                window_stats(&mut stats, w);
                stats.file_size_bytes = Some(read.facts.size_bytes);
                stats.file_mtime_ms = Some(read.facts.mtime_ms);
                stats.encoding = Some(read.encoding.clone());
                stats.lines_cut = Some(w.lines_cut());
                stats.bom = Some(read.bom);
                stats.line_endings = w.line_endings.map(|e| e.name());
                stats.approx_tokens = Some(w.chars_read().div_ceil(4));
                stats.content_hash = read.facts.content_hash.clone();
                let structured = read.symbol.is_some() || read.leaner.is_some();
                let kind = match (read.elided(), read.document) {
                    (Some(_), _) => view::SIGNATURES,
                    (None, Some(document)) => document.kind.name(),
                    (None, None) => "file",
                };
                let data = Data {
                    fallback_encoding: Some(w.replaced().then_some("replace")),
                    suggested_encoding: read.suggested_encoding.as_deref(),
                    language: structured.then_some(read.language),
                    symbol: read.symbol.as_ref(),
                    target_line: read.target_line,
                    view: read.view(),
                    elided: read.elided(),
                    ..window_data(kind, &read.facts.path, w)
                };
                let summary = summary("Read", "line", "lines", "Lines", &read.facts.path, w);
                (data, read.facts.path_resolved.as_str(), summary)
            }
            Success::Directory(listing) => {
                let w = &listing.window;
                window_stats(&mut stats, w);
                stats.file_mtime_ms = Some(listing.mtime_ms);
                stats.lines_cut = Some(w.lines_cut());
                stats.approx_tokens = Some(w.chars_read().div_ceil(4));
                let data = Data {
                    entries: Some(&listing.entries),
                    ..window_data("directory", &listing.path, w)
                };
                let summary = summary("Listed", "entry", "entries", "Entries", &listing.path, w);
                (data, listing.path_resolved.as_str(), summary)
            }
            Success::Map(map) => {
                let w = &map.window;
                window_stats(&mut stats, w);
                stats.file_mtime_ms = Some(map.mtime_ms);
                stats.lines_cut = Some(w.lines_cut());
                stats.approx_tokens = Some(w.chars_read().div_ceil(4));
                let data = Data {
                    files: Some(&map.files),
                    ..window_data("outline_map", &map.path, w)
                };
                let summary = summary("Mapped", "line", "lines", "Lines", &map.path, w);
                (data, map.path_resolved.as_str(), summary)
            }
            Success::Unchanged(unchanged) => {
                let facts = &unchanged.facts;
                file_stats(&mut stats, facts);
                stats.content_hash = facts.content_hash.clone();
                let data = Data {
                    content: Some(None),
                    ..Data::bare("file", &facts.path)
                };
                let summary = format!("'{}' is unchanged.", facts.path);
                (data, facts.path_resolved.as_str(), summary)
            }
            Success::Outline(outline) => {
                let facts = &outline.facts;
                file_stats(&mut stats, facts);
                stats.content_hash = facts.content_hash.clone();
                // As every answer with content (SPEC §3): the characters shown, / 4.
                let chars = utf8(&outline.content).chars().count() as u64;
                stats.approx_tokens = Some(chars.div_ceil(4));
                let data = Data {
                    content: Some(Some(utf8(&outline.content))),
                    language: Some(Some(outline.language)),
                    symbol: outline.symbol.as_ref(),
                    symbols: Some(&outline.symbols),
                    total_symbols: Some(outline.total_symbols),
                    window: Some(WindowData {
                        start_line: outline.start_line,
                        end_line: outline.symbols.last().map(|s| s.start_line),
                        truncated: outline.next_start_line.is_some(),
                        truncated_by: outline.truncated_by.map(|t| t.name()),
                        next_start_line: outline.next_start_line,
                        next_start_char: outline.next_start_char,
                    }),
                    view: outline.view,
                    fallback_encoding: outline.replaced.as_ref().map(|_| Some("replace")),
                    suggested_encoding: outline
                        .replaced
                        .as_ref()
                        .and_then(|r| r.suggested_encoding.as_deref()),
                    ..Data::bare("outline", &facts.path)
                };
                let summary = format!(
                    "Outline of '{}' ({} of {} symbols).",
                    facts.path,
                    outline.symbols.len(),
                    outline.total_symbols
                );
                (data, facts.path_resolved.as_str(), summary)
            }
            Success::Image(image, facts) => {
                file_stats(&mut stats, facts);
                stats.content_hash = facts.content_hash.clone();
                let data = Data {
                    mime_type: Some(image.mime_type),
                    width: Some(image.width),
                    height: Some(image.height),
                    sent_width: Some(image.sent_width),
                    sent_height: Some(image.sent_height),
                    ..Data::bare("image", &facts.path)
                };
                (
                    data,
                    facts.path_resolved.as_str(),
                    image_summary(image, facts),
                )
            }
        };
        let counted = match success {
            Success::Outline(outline) => outline.tokens,
            _ => None,
        };
        if let Some(content) = content_of(success) {
            stats.tokens = Some(counted.unwrap_or_else(|| crate::read::tokens::count(content)));
        }
        let mut text = format!("{summary}\n(Took {}ms)", answer.time_ms);
        for hint in hints::footer(success, context.max_bytes, Wording::Tool) {
            text.push('\n');
            // The summary's footer, as SPEC §6 writes it: `[Truncated: Showing lines …]`.
            match hint
                .strip_prefix("[Truncated")
                .and_then(|rest| rest.split_once(": showing "))
            {
                Some((budget, rest)) => {
                    text.push_str(&format!("[Truncated{budget}: Showing {rest}"));
                }
                None => text.push_str(&hint),
            }
        }
        Envelope {
            status,
            data: Some(data),
            text,
            stats,
            context: info(Some(path_resolved)),
            error: None,
        }
    }
}

/// The content an answer shows, which `stats.tokens` counts.
fn content_of(success: &Success) -> Option<&[u8]> {
    match success {
        Success::Text(read) => Some(&read.window.content),
        Success::Directory(listing) => Some(&listing.window.content),
        Success::Map(map) => Some(&map.window.content),
        Success::Outline(outline) => Some(&outline.content),
        Success::Unchanged(_) | Success::Image(..) => None,
    }
}

impl<'a> Data<'a> {
    fn bare(kind: &'static str, path: &'a str) -> Data<'a> {
        Data {
            kind,
            path,
            content: None,
            mime_type: None,
            width: None,
            height: None,
            sent_width: None,
            sent_height: None,
            window: None,
            target_line: None,
            fallback_encoding: None,
            suggested_encoding: None,
            entries: None,
            language: None,
            symbol: None,
            symbols: None,
            total_symbols: None,
            files: None,
            view: None,
            elided: None,
        }
    }
}

fn window_data<'a>(kind: &'static str, path: &'a str, w: &'a Window) -> Data<'a> {
    Data {
        content: Some(Some(utf8(&w.content))),
        window: Some(WindowData {
            start_line: w.start_line,
            end_line: w.end_line(),
            truncated: w.truncated(),
            truncated_by: w.truncated_by.map(|t| t.name()),
            next_start_line: w.next_start_line(),
            next_start_char: w.first_cut().map(|cut| cut.shown_to + 1),
        }),
        ..Data::bare(kind, path)
    }
}

fn window_stats(stats: &mut Stats, w: &Window) {
    stats.lines_read = Some(w.lines_read());
    stats.chars_read = Some(w.chars_read());
    stats.total_lines = Some(w.total_lines);
}

fn file_stats(stats: &mut Stats, facts: &FileFacts) {
    stats.file_size_bytes = Some(facts.size_bytes);
    stats.file_mtime_ms = Some(facts.mtime_ms);
}

/// An error's message, then its "did you mean" candidates as text mode prints them: the
/// `text` that many hosts show the model.
pub fn error_text(error: &Error) -> String {
    let mut text = error.message.clone();
    if !error.suggestions.is_empty() {
        text.push_str("\nDid you mean one of these?");
        for candidate in &error.suggestions {
            text.push_str("\n  ");
            text.push_str(candidate);
        }
    }
    text
}

/// `Image 'a/logo.png': PNG, 640x480, 12345 bytes.`, and for a large image what it was
/// scaled to: `PNG, 4000x3000, scaled to 1568x1176, 812345 bytes.` (the file's bytes).
pub fn image_summary(image: &crate::outcome::Image, facts: &FileFacts) -> String {
    let scaled = match image.scaled {
        true => format!(", scaled to {}x{}", image.sent_width, image.sent_height),
        false => String::new(),
    };
    let hash = match &facts.content_hash {
        // The hash of its bytes, as a footer line of the text block (SPEC §17).
        Some(hash) => format!("\n[content_hash: {hash}]"),
        None => String::new(),
    };
    format!(
        "Image '{}': {}, {}x{}{scaled}, {} bytes.{hash}",
        facts.path, image.kind, image.width, image.height, facts.size_bytes
    )
}

/// `Read 500 lines from 'src/utils.py' (Lines 1-500).`
fn summary(verb: &str, one: &str, many: &str, range: &str, path: &str, w: &Window) -> String {
    let n = w.lines_read();
    let unit = if n == 1 { one } else { many };
    match w.end_line() {
        Some(last) => format!(
            "{verb} {n} {unit} from '{path}' ({range} {}-{last}).",
            w.start_line
        ),
        None => format!("{verb} {n} {unit} from '{path}'."),
    }
}
