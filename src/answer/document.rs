//! Notebooks and PDFs read as a text view (SPEC §16): which files are documents, their
//! view and its symbols (cells, pages), and the errors a document's reading can meet.

use std::cell::RefCell;
use std::fs::File;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::args::params::{Wording, name};
use crate::args::request::Request;
use crate::error::{Error, ErrorCode, ErrorDetail};
use crate::formats::notebook;
use crate::formats::pdf::{self, PdfError};
use crate::outcome::{Document, DocumentKind, Success};
use crate::read::bytes;
use crate::read::endings::{EndingsScan, LineEndings};

/// How long extracting a PDF's text may take.
const PDF_BUDGET: Duration = Duration::from_secs(10);

/// A part of a document: a notebook's cell or a PDF's page, with its lines in the view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// `cell-3`, `page-12`.
    pub name: String,
    /// A cell's nbformat `id`, which also names it.
    pub id: Option<String>,
    pub kind: &'static str,
    pub start_line: u64,
    pub end_line: u64,
    /// What the outline shows for it, when not its first line: `cell-2 [code] import os`.
    pub title: Option<String>,
}

/// A document's view.
#[derive(Debug)]
pub struct View {
    /// Its kind, and what its footer says of it (a PDF without a text layer, pages not
    /// read whole).
    pub document: Document,
    /// Every line ends in `\n`.
    pub text: String,
    pub parts: Vec<Part>,
}

/// Whether `file_name` and the file's first bytes make it a document. A PDF is known by
/// its `%PDF-` header (within the first KiB, as readers allow), a notebook by its name.
pub fn kind_of(file_name: &str, head: &[u8]) -> Option<DocumentKind> {
    let start = &head[..head.len().min(1024)];
    if bytes::find_str(b"%PDF-", start).is_some() {
        return Some(DocumentKind::Pdf);
    }
    let lower = file_name.to_ascii_lowercase();
    lower.ends_with(".ipynb").then_some(DocumentKind::Notebook)
}

/// Whether the file is read as a document's view (SPEC §16): never with `--raw`.
pub fn document_kind(
    request: &Request,
    file: &File,
    display: &str,
) -> Result<Option<DocumentKind>, Error> {
    if request.call.raw {
        return Ok(None);
    }
    let mut head = [0u8; 1024];
    let n =
        super::image::read_full(file, &mut head, 0).map_err(|e| Error::read_failed(display, &e))?;
    let file_name = display.rsplit('/').next().unwrap_or(display);
    Ok(kind_of(file_name, &head[..n]))
}

/// The largest file read as a document of `kind`.
fn max_bytes(kind: DocumentKind) -> u64 {
    match kind {
        DocumentKind::Notebook => notebook::MAX_NOTEBOOK_BYTES,
        DocumentKind::Pdf => pdf::MAX_PDF_BYTES as u64,
    }
}

/// Reads `file` (or standard input) whole, up to the bound for its kind.
pub fn read_bytes(
    file: impl std::io::Read,
    size: u64,
    kind: DocumentKind,
    path: &str,
    wording: Wording,
) -> Result<Vec<u8>, Error> {
    crate::read::up_to(file, max_bytes(kind), size)
        .map_err(|e| Error::read_failed(path, &e))?
        .ok_or_else(|| too_large(kind, path, wording))
}

fn too_large(kind: DocumentKind, path: &str, wording: Wording) -> Error {
    let raw = wording.flag(name::RAW);
    let message = match kind {
        DocumentKind::Notebook => format!(
            "'{path}' is a notebook larger than 64 MiB, the most that is read as a view; {raw} reads it as it is."
        ),
        DocumentKind::Pdf => format!(
            "'{path}' is a PDF larger than 64 MiB, the most that is read as a view; {}",
            pdf_next_step(&raw)
        ),
    };
    Error::new(ErrorCode::SizeLimitExceeded, message)
}

/// What to do with a PDF whose text is not read: `--raw` alone would be refused again
/// as binary when its streams are compressed, as most are.
fn pdf_next_step(raw: &str) -> String {
    format!(
        "{raw} reads its bytes as they are (binary where its streams are compressed, as most are), and poppler's pdftotext reads its text without this bound."
    )
}

/// The view of a document's bytes. None: a notebook that is not valid nbformat-4 JSON,
/// which is then read as plain text.
pub fn view(
    kind: DocumentKind,
    bytes: &[u8],
    path: &str,
    wording: Wording,
) -> Result<Option<View>, Error> {
    match kind {
        DocumentKind::Notebook => Ok(notebook::view_bounded(bytes)
            .map_err(|notebook::TooManyCells| {
                Error::new(
                    ErrorCode::SizeLimitExceeded,
                    format!(
                        "'{path}' is a notebook of more than {} cells, the most that is read as a view; {} reads it as it is.",
                        notebook::MAX_CELLS,
                        wording.flag(name::RAW)
                    ),
                )
            })?
            .map(|view| {
                // The view's lines, found once: each cell's title takes its own.
                let lines: Vec<&str> = view.text.lines().collect();
                let parts = view
                    .cells
                    .iter()
                    .map(|cell| Part {
                        name: format!("cell-{}", cell.number),
                        id: cell.id.clone(),
                        kind: kind.part(),
                        start_line: cell.start_line,
                        end_line: cell.end_line,
                        title: Some(cell_title(&lines, cell)),
                    })
                    .collect();
                View {
                    document: Document {
                        kind,
                        no_text_layer: false,
                        unread_pages: 0,
                    },
                    parts,
                    text: view.text,
                }
            })),
        DocumentKind::Pdf => {
            let cancelled = cancelled_flag();
            let text = pdf::extract_unless(bytes, PDF_BUDGET, cancelled.as_deref())
                .map_err(|e| pdf_error(e, path, wording))?;
            let parts = pdf::page_lines(&text)
                .into_iter()
                .enumerate()
                .map(|(i, lines)| Part {
                    name: format!("page-{}", i + 1),
                    id: None,
                    kind: kind.part(),
                    start_line: *lines.start() as u64,
                    end_line: *lines.end() as u64,
                    title: None,
                })
                .collect();
            Ok(Some(View {
                document: Document {
                    kind,
                    // Pages that lost their content are no scan: the footer says what
                    // they are.
                    no_text_layer: !text.has_text() && text.unread.is_empty(),
                    unread_pages: text.unread.len(),
                },
                text: pdf::view(&text),
                parts,
            }))
        }
    }
}

thread_local! {
    /// The flag of the call this thread answers, when it can be cancelled (MCP).
    static CANCELLED: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `work` (an answer) so that the long parts of it (a PDF's text) give up within a
/// few milliseconds of `cancelled` being set; what is answered then goes nowhere.
pub fn cancellable<T>(cancelled: Arc<AtomicBool>, work: impl FnOnce() -> T) -> T {
    CANCELLED.with(|flag| *flag.borrow_mut() = Some(cancelled));
    let result = work();
    CANCELLED.with(|flag| *flag.borrow_mut() = None);
    result
}

/// The flag [`cancellable`] set on this thread, if any.
fn cancelled_flag() -> Option<Arc<AtomicBool>> {
    CANCELLED.with(|flag| flag.borrow().clone())
}

fn pdf_error(error: PdfError, path: &str, wording: Wording) -> Error {
    let raw = wording.flag(name::RAW);
    match error {
        PdfError::Encrypted => Error {
            detail: Some(ErrorDetail::PdfEncrypted),
            ..Error::new(
                ErrorCode::BinaryFile,
                format!(
                    "'{path}' is an encrypted PDF: its text cannot be read without its password."
                ),
            )
        },
        PdfError::Damaged => Error {
            detail: Some(ErrorDetail::PdfDamaged),
            ..Error::new(
                ErrorCode::BinaryFile,
                format!("'{path}' is a damaged PDF: no text could be read from it."),
            )
        },
        PdfError::TooLarge => Error::new(
            ErrorCode::SizeLimitExceeded,
            format!(
                "'{path}' is a PDF too large to read as text within {} MiB of memory (its objects or a page's content, or more than {} MiB of text); {}",
                pdf::MEMORY_BUDGET >> 20,
                pdf::MAX_TEXT_BYTES >> 20,
                pdf_next_step(&raw)
            ),
        ),
        PdfError::Timeout => Error::new(
            ErrorCode::SizeLimitExceeded,
            format!(
                "Reading the text of '{path}' took longer than {} s and was given up; {}",
                PDF_BUDGET.as_secs(),
                pdf_next_step(&raw)
            ),
        ),
    }
}

/// How the outline names a cell: its handle and kind, then its first line, or for a
/// markdown cell its first heading (`cell-1 [markdown] # Loading the data`, `cell-2 [code]
/// import pandas as pd`). The header alone (`# %% [code] cell-2`) says nothing of what the
/// cell holds.
fn cell_title(lines: &[&str], cell: &notebook::Cell) -> String {
    let outputs = format!("# %% [output] cell-{}", cell.number);
    // The cell's source: the lines after its header, up to its outputs.
    let source: Vec<&str> = lines
        .iter()
        .copied()
        .skip(cell.start_line as usize)
        .take(cell.end_line.saturating_sub(cell.start_line) as usize)
        .take_while(|line| *line != outputs)
        .map(|line| line.trim())
        .filter(|line| !line.is_empty())
        .collect();
    let heading = match cell.kind {
        notebook::CellKind::Markdown => source.iter().find(|line| line.starts_with('#')),
        _ => None,
    };
    let head = format!("cell-{} [{}]", cell.number, cell.kind.name());
    match heading.or(source.first()) {
        Some(line) => format!("{head} {line}"),
        None => head,
    }
}

/// The part `query` names: `cell-3` / `page-12` (case ignored), or a cell's `id`.
pub fn find<'a>(parts: &'a [Part], query: &str) -> Option<&'a Part> {
    let query = query.trim();
    parts
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(query))
        .or_else(|| parts.iter().find(|p| p.id.as_deref() == Some(query)))
}

/// A notebook's line endings: `stats.line_endings` describes the file an editor writes
/// back (SPEC §11), its JSON, not the view. A PDF is no text to write back: its view's.
pub fn file_endings(kind: DocumentKind, file_bytes: &[u8]) -> Option<LineEndings> {
    (kind == DocumentKind::Notebook).then(|| {
        let mut scan = EndingsScan::default();
        scan.scan(file_bytes);
        scan.result()
    })
}

/// The answer with the file's line endings, where it reports any.
pub fn with_file_endings(
    answer: Result<Success, Error>,
    endings: Option<LineEndings>,
) -> Result<Success, Error> {
    answer.map(|mut answer| {
        if let (Success::Text(read), Some(endings)) = (&mut answer, endings)
            && read.window.line_endings.is_some()
        {
            read.window.line_endings = Some(endings);
        }
        answer
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_known_by_header_or_name() {
        assert_eq!(kind_of("a.bin", b"%PDF-1.7\n"), Some(DocumentKind::Pdf));
        assert_eq!(kind_of("a.pdf", b"junk\n%PDF-1.4"), Some(DocumentKind::Pdf));
        assert_eq!(kind_of("a.pdf", b"not a pdf"), None);
        assert_eq!(kind_of("A.IPYNB", b"{"), Some(DocumentKind::Notebook));
        assert_eq!(kind_of("a.json", b"{"), None);
    }

    #[test]
    fn parts_are_found_by_name_or_id() {
        let part = |n: u64, id: Option<&str>| Part {
            name: format!("cell-{n}"),
            id: id.map(str::to_string),
            kind: "cell",
            start_line: n,
            end_line: n,
            title: None,
        };
        let parts = [part(1, Some("intro")), part(2, None)];
        assert_eq!(find(&parts, "cell-2").map(|p| p.start_line), Some(2));
        assert_eq!(find(&parts, "CELL-1").map(|p| p.start_line), Some(1));
        assert_eq!(find(&parts, "intro").map(|p| p.start_line), Some(1));
        assert_eq!(find(&parts, "cell-3"), None);
    }
}
