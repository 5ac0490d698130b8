//! What reading a target found, as data: what the renderers turn into text, JSON or XML.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode};
use crate::read::window::Window;

#[derive(Debug)]
pub enum Success {
    /// A file, or standard input, read as text.
    Text(TextRead),
    Directory(Listing),
    /// `--if-changed` matched: no content.
    Unchanged(Unchanged),
    /// An image, read whole (the MCP server only).
    Image(Image, FileFacts),
    /// `--outline`: the file's symbols instead of its lines (SPEC §15).
    Outline(OutlineRead),
    /// `--outline` on a directory: the map of its source files (SPEC §15).
    Map(MapRead),
}

/// A page of a directory's map.
#[derive(Debug)]
pub struct MapRead {
    pub path: String,
    pub path_resolved: String,
    pub mtime_ms: Option<i64>,
    /// The numbered page of the map's lines.
    pub window: Window,
    /// The files with a line on the page.
    pub files: Vec<MapFile>,
    /// How many files of the whole map are listed without their symbols: the map is
    /// then partial.
    pub not_parsed: u64,
}

/// A symbol as answers describe it (`data.symbol`, `data.symbols`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct SymbolInfo {
    pub name: Option<String>,
    pub qualified_name: Option<String>,
    pub kind: &'static str,
    pub start_line: u64,
    pub end_line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
}

/// A page of a file's outline.
#[derive(Debug)]
pub struct OutlineRead {
    pub facts: FileFacts,
    pub language: &'static str,
    /// The page as text mode prints it: `START-END | ` and each definition's line.
    pub content: Vec<u8>,
    pub symbols: Vec<SymbolInfo>,
    /// The symbol of `PATH#SYMBOL --outline`, whose children are listed (`data.symbol`).
    pub symbol: Option<SymbolInfo>,
    /// The symbols the outline counts: the file's, or the children of `PATH#SYMBOL`.
    pub total_symbols: u64,
    /// The ordinal (1-based) of the first symbol shown among those counted.
    pub first_shown: u64,
    /// The start line of the first symbol left out, when the page stops early.
    pub next_start_line: Option<u64>,
    /// The character (1-based) where that symbol starts, when a shown symbol starts on
    /// the same line (SPEC §15 "Outline pages always advance").
    pub next_start_char: Option<u64>,
    pub truncated_by: Option<crate::read::window::TruncatedBy>,
    /// `--start-line`, or the first line of `PATH:N-M`.
    pub start_line: u64,
    /// What `--fit` chose (`data.view`): `outline`.
    pub view: Option<&'static str>,
    /// The exact token count of `content`, when the token budget already counted it.
    pub tokens: Option<u64>,
    /// Some bytes of the file are not valid in its encoding: its outline was made
    /// from their replacement, as a window would show them.
    pub replaced: Option<Replacement>,
}

/// Bytes not valid in a file's encoding, replaced by U+FFFD.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replacement {
    /// The encoding's name, as `stats.encoding` gives it.
    pub encoding: String,
    /// The legacy encoding `--encoding auto` would choose, when UTF-8 fell back.
    pub suggested_encoding: Option<String>,
}

/// What is known of a text read besides its window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileFacts {
    pub path: String,
    pub path_resolved: String,
    pub size_bytes: u64,
    pub mtime_ms: Option<i64>,
    pub content_hash: Option<String>,
}

#[derive(Debug)]
pub struct TextRead {
    pub facts: FileFacts,
    pub window: Window,
    /// The encoding's name for `stats.encoding`.
    pub encoding: String,
    pub bom: bool,
    /// The legacy encoding `--encoding auto` would choose, when UTF-8 fell back.
    pub suggested_encoding: Option<String>,
    /// The file's language, when structure was asked or can be offered (SPEC §15).
    pub language: Option<&'static str>,
    /// What `#SYMBOL` or `--enclosing` read.
    pub symbol: Option<SymbolInfo>,
    /// The window is of a notebook's or a PDF's view (SPEC §16).
    pub document: Option<Document>,
    /// The line a `PATH:N` target names (`data.target_line`), marked on a terminal.
    pub target_line: Option<u64>,
    /// The window is a `PATH:N-M` range: what was asked for, not a cut (SPEC §15).
    pub range: bool,
    /// A leaner view of SPEC §18, when one was asked for (boxed: most reads have none).
    pub leaner: Option<Box<Leaner>>,
}

/// The leaner views of SPEC §18 as `data.view` names them (a signatures view's
/// `data.type` too).
pub mod view {
    pub const LINES: &str = "lines";
    pub const SIGNATURES: &str = "signatures";
    pub const OUTLINE: &str = "outline";
}

/// What a signatures view or `--fit` adds to a text read.
#[derive(Debug, Default)]
pub struct Leaner {
    /// A signatures view: the runs of lines its markers stand for.
    pub elided: Option<Vec<Elided>>,
    /// What `--fit` chose (`data.view`): `lines` or `signatures`.
    pub view: Option<&'static str>,
}

impl TextRead {
    pub fn elided(&self) -> Option<&[Elided]> {
        self.leaner.as_ref()?.elided.as_deref()
    }

    pub fn view(&self) -> Option<&'static str> {
        self.leaner.as_ref()?.view
    }
}

/// A run of lines a signatures view leaves out (`data.elided`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Elided {
    pub start_line: u64,
    pub end_line: u64,
    /// The symbol whose body (or section's rest) it is, or whose docs; None for a
    /// comment or docstring of no symbol.
    pub symbol: Option<String>,
    /// `comment` or `docstring` for the rest of a long one; a body has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<&'static str>,
}

#[derive(Debug)]
pub struct Listing {
    pub path: String,
    pub path_resolved: String,
    pub mtime_ms: Option<i64>,
    /// The numbered page of entries.
    pub window: Window,
    /// The names on this page, directories suffixed with `/`.
    pub entries: Vec<String>,
}

#[derive(Debug)]
pub struct Unchanged {
    pub facts: FileFacts,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Success,
    Partial,
    Unchanged,
    Error,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Success => "success",
            Status::Partial => "partial",
            Status::Unchanged => "unchanged",
            Status::Error => "error",
        }
    }
}

/// Partial: lines remain, a line was cut, text was replaced, or a tail was shortened.
pub fn window_status(window: &Window) -> Status {
    if window.truncated() || window.lines_cut() > 0 || window.replaced() || window.tail_dropped > 0
    {
        Status::Partial
    } else {
        Status::Success
    }
}

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
            Ok(Success::Map(map)) if map.not_parsed > 0 => Status::Partial,
            Ok(Success::Map(map)) => window_status(&map.window),
            Ok(Success::Unchanged(_)) => Status::Unchanged,
            Ok(Success::Image(..)) => Status::Success,
            Ok(Success::Outline(outline)) => {
                match outline.truncated_by.is_some() || outline.replaced.is_some() {
                    true => Status::Partial,
                    false => Status::Success,
                }
            }
        }
    }

    /// The error code when this answer failed.
    pub fn failure(&self) -> Option<ErrorCode> {
        self.result.as_ref().err().map(|e| e.code)
    }
}

/// What kind of document a file is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    Notebook,
    Pdf,
}

impl DocumentKind {
    /// `data.type`.
    pub fn name(self) -> &'static str {
        match self {
            DocumentKind::Notebook => "notebook",
            DocumentKind::Pdf => "pdf",
        }
    }

    /// The kind of its symbols.
    pub fn part(self) -> &'static str {
        match self {
            DocumentKind::Notebook => "cell",
            DocumentKind::Pdf => "page",
        }
    }
}

/// What a text read says of the document whose view it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Document {
    pub kind: DocumentKind,
    /// A PDF without a text layer: its footer says so.
    pub no_text_layer: bool,
    /// The pages of a PDF whose content was not all read: its footer says how many.
    pub unread_pages: usize,
}

/// One file of the map, for `data.files`.
#[derive(Debug, serde::Serialize)]
pub struct MapFile {
    pub path: String,
    pub language: &'static str,
    /// Why the file is listed without its symbols (`too_large`, `timeout`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_parsed: Option<&'static str>,
    pub symbols: Vec<SymbolInfo>,
}

/// An image file, as it is sent.
#[derive(Debug)]
pub struct Image {
    /// `PNG`, `JPEG`, `GIF` or `WebP`.
    pub kind: &'static str,
    /// The type of `bytes`: the file's, or PNG/JPEG when it was scaled.
    pub mime_type: &'static str,
    /// The file's dimensions.
    pub width: u64,
    pub height: u64,
    /// The dimensions of what is sent.
    pub sent_width: u64,
    pub sent_height: u64,
    /// What is sent is a scaled (or re-encoded) copy, not the file.
    pub scaled: bool,
    pub bytes: Vec<u8>,
    /// The BLAKE3 of the file's bytes, when asked.
    pub hash: Option<String>,
    /// The file's bytes are the ones the caller has (`if_changed`): nothing was made.
    pub unchanged: bool,
}
