//! What reading a target found, as data: what the renderers turn into text, JSON or XML.

use crate::answer::image::Image;
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
    pub files: Vec<crate::answer::map::MapFile>,
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
    pub total_symbols: u64,
    /// The start line of the first symbol left out, when the page stops early.
    pub next_start_line: Option<u64>,
    pub truncated_by: Option<crate::read::window::TruncatedBy>,
    /// `--start-line`, or the first line of `PATH:N-M`.
    pub start_line: u64,
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
    pub document: Option<crate::answer::document::Document>,
    /// The line a `PATH:N` target names (`data.target_line`), marked on a terminal.
    pub target_line: Option<u64>,
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
