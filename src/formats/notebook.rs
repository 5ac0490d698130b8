//! Notebooks (SPEC §16): an nbformat-4 `.ipynb` file read as a view in jupytext's percent
//! format, each cell a header line, its source as written, then a code cell's outputs as text.

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// The largest notebook read as a view. The view needs the whole file in memory (JSON cannot
/// be windowed), so this bounds what one read holds: the file, then its view, at most about
/// twice the file for a notebook that is all text (1.1x for one of embedded plots). 64 MiB is
/// several times the largest notebooks met in practice and parses in a fraction of a second.
pub const MAX_NOTEBOOK_BYTES: u64 = 64 << 20;

/// An output longer than this keeps its first lines and says how many it left out.
const MAX_OUTPUT_LINES: u64 = 50;

/// What a cell holds, as nbformat's `cell_type` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CellKind {
    Markdown,
    Code,
    Raw,
}

impl CellKind {
    /// `markdown`, `code`, `raw`.
    pub fn name(self) -> &'static str {
        match self {
            CellKind::Markdown => "markdown",
            CellKind::Code => "code",
            CellKind::Raw => "raw",
        }
    }
}

/// One cell and the lines of the view it occupies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// From 1, in file order: the N of `cell-N`.
    pub number: usize,
    /// nbformat 4.5's cell `id`, absent in older notebooks.
    pub id: Option<String>,
    pub kind: CellKind,
    /// The header line `# %% [kind] cell-N`.
    pub start_line: u64,
    /// The cell's last line: its header, last source line or last output line. The blank line
    /// that separates it from the next cell belongs to neither.
    pub end_line: u64,
}

/// The text a notebook is read as, and where each cell lies in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotebookView {
    /// The view; every line ends in `\n`.
    pub text: String,
    pub cells: Vec<Cell>,
    /// `metadata.kernelspec.language`, else `metadata.language_info.name`.
    pub language: Option<String>,
}

/// The view of a notebook, or None when the bytes are not a valid nbformat-4 notebook (then
/// the file is read as plain text).
///
/// Valid means: a JSON object with `"nbformat": 4` and a `cells` list whose cells have a known
/// `cell_type` and a `source`, and whose outputs have a known `output_type`; fields that do not
/// change the view may be missing. The JSON is parsed once, strings borrowed from `bytes`
/// where they hold no escapes, and cells are rendered one at a time as they are parsed, so
/// memory beyond `bytes` is the view plus one cell; embedded images are measured, never kept.
pub fn view(bytes: &[u8]) -> Option<NotebookView> {
    view_bounded(bytes).ok().flatten()
}

/// The most cells a notebook read as a view may have, 20,000: real notebooks have a
/// few hundred. Each cell costs its callers a part and a symbol as well as its lines, so
/// 1.4 million empty cells (a 63 MiB file) took 340 MB for a window and 564 MB for an
/// outline; past this bound a notebook is [`TooManyCells`].
pub const MAX_CELLS: usize = 20_000;

/// A notebook with more than [`MAX_CELLS`] cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyCells;

/// What `Cells` fails with past [`MAX_CELLS`], told apart from JSON that is not a notebook.
const TOO_MANY_CELLS: &str = "agentread: more cells than are read";

/// [`view`], or [`TooManyCells`] for a notebook past [`MAX_CELLS`] (refused, not read as
/// plain text: it is a notebook).
pub fn view_bounded(bytes: &[u8]) -> Result<Option<NotebookView>, TooManyCells> {
    // Editors on Windows may save a BOM, which JSON does not allow but nbformat's reader skips.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let notebook: Notebook<'_> = match serde_json::from_slice(bytes) {
        Ok(notebook) => notebook,
        Err(error) if error.to_string().starts_with(TOO_MANY_CELLS) => return Err(TooManyCells),
        Err(_) => return Ok(None),
    };
    if notebook.nbformat != 4 {
        return Ok(None);
    }
    let metadata = notebook.metadata.unwrap_or_default();
    let language = metadata
        .kernelspec
        .and_then(|k| k.language.0)
        .or_else(|| metadata.language_info.and_then(|l| l.name.0))
        .map(Cow::into_owned);
    let View { text, cells, .. } = notebook.cells.0;
    // A NUL a kernel printed (`"abc\u0000def"` in the JSON, no NUL in the file) is shown
    // as its picture, U+2400: as a NUL the view would be taken for a binary file's.
    let text = match memchr::memchr(0, text.as_bytes()) {
        Some(_) => text.replace('\0', "\u{2400}"),
        None => text,
    };
    Ok(Some(NotebookView {
        text,
        cells,
        language,
    }))
}

#[derive(Deserialize)]
struct Notebook<'a> {
    nbformat: u64,
    #[serde(borrow, default)]
    metadata: Option<Metadata<'a>>,
    cells: Cells,
}

#[derive(Deserialize, Default)]
struct Metadata<'a> {
    #[serde(borrow, default)]
    kernelspec: Option<LanguageOf<'a>>,
    #[serde(borrow, default)]
    language_info: Option<LanguageOf<'a>>,
}

/// `kernelspec` and `language_info` name the language in different fields.
#[derive(Deserialize, Default)]
struct LanguageOf<'a> {
    #[serde(borrow, default)]
    language: AnyString<'a>,
    #[serde(borrow, default)]
    name: AnyString<'a>,
}

/// The `cells` list, already rendered: each cell is drawn into the view as soon as it is parsed
/// and then dropped, so the parsed notebook never exists whole beside its view.
struct Cells(View);

impl<'de> Deserialize<'de> for Cells {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CellsVisitor;
        impl<'de> Visitor<'de> for CellsVisitor {
            type Value = Cells;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of cells")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Cells, A::Error> {
                let mut view = View::default();
                while let Some(cell) = seq.next_element::<RawCell<'de>>()? {
                    if view.cells.len() >= MAX_CELLS {
                        return Err(de::Error::custom(TOO_MANY_CELLS));
                    }
                    view.push_cell(cell);
                }
                Ok(Cells(view))
            }
        }
        deserializer.deserialize_seq(CellsVisitor)
    }
}

#[derive(Deserialize)]
struct RawCell<'a> {
    cell_type: CellKind,
    #[serde(default)]
    id: Option<String>,
    #[serde(borrow)]
    source: Multiline<'a>,
    #[serde(borrow, default)]
    outputs: Vec<Output<'a>>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum OutputType {
    Stream,
    ExecuteResult,
    DisplayData,
    Error,
}

/// One output, every type's fields in one struct: serde's tagged enums buffer their content,
/// which would copy each embedded image and defeat the borrowed `RawValue`.
#[derive(Deserialize)]
struct Output<'a> {
    output_type: OutputType,
    #[serde(borrow, default)]
    name: Option<Text<'a>>,
    #[serde(borrow, default)]
    text: Option<Multiline<'a>>,
    #[serde(borrow, default)]
    data: Option<MimeBundle<'a>>,
    #[serde(borrow, default)]
    ename: Option<Text<'a>>,
    #[serde(borrow, default)]
    evalue: Option<Text<'a>>,
    #[serde(borrow, default)]
    traceback: Vec<Text<'a>>,
}

/// A string, borrowed from the file unless it held escapes.
#[derive(Default)]
struct Text<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for TextVisitor<'a> {
            type Value = Text<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(TextVisitor(PhantomData))
    }
}

/// A string where it is one, None for any other value: metadata is free-form and a notebook
/// whose `language` is odd is still a notebook.
#[derive(Default)]
struct AnyString<'a>(Option<Cow<'a, str>>);

impl<'de: 'a, 'a> Deserialize<'de> for AnyString<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct AnyVisitor<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for AnyVisitor<'a> {
            type Value = AnyString<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(AnyString(Some(Cow::Borrowed(v))))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(AnyString(Some(Cow::Owned(v.to_owned()))))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(AnyString(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(AnyString(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(AnyString(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(AnyString(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(AnyString(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(AnyString(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(AnyString(None))
            }
        }
        deserializer.deserialize_any(AnyVisitor(PhantomData))
    }
}

/// nbformat's multiline string: one string, or a list of strings to be joined as they are
/// (each piece keeps its own `\n`).
enum Multiline<'a> {
    One(Text<'a>),
    Many(Vec<Text<'a>>),
}

impl Multiline<'_> {
    fn pieces(&self) -> &[Text<'_>] {
        match self {
            Multiline::One(text) => std::slice::from_ref(text),
            Multiline::Many(pieces) => pieces,
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Multiline<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MultilineVisitor<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for MultilineVisitor<'a> {
            type Value = Multiline<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or a list of strings")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Multiline::One(Text(Cow::Borrowed(v))))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Multiline::One(Text(Cow::Owned(v.to_owned()))))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut pieces = Vec::new();
                while let Some(piece) = seq.next_element::<Text<'a>>()? {
                    pieces.push(piece);
                }
                Ok(Multiline::Many(pieces))
            }
        }
        deserializer.deserialize_any(MultilineVisitor(PhantomData))
    }
}

/// What the view keeps of an output's `data`: its `text/plain`, else the one other MIME type
/// it names and that type's decoded size. The other values are measured while they are parsed
/// and never stored.
struct MimeBundle<'a> {
    plain: Option<Multiline<'a>>,
    other: Option<Other<'a>>,
}

struct Other<'a> {
    mime: Cow<'a, str>,
    size: u64,
}

impl<'de: 'a, 'a> Deserialize<'de> for MimeBundle<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BundleVisitor<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for BundleVisitor<'a> {
            type Value = MimeBundle<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a MIME bundle")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut bundle = MimeBundle {
                    plain: None,
                    other: None,
                };
                while let Some(Text(mime)) = map.next_key::<Text<'a>>()? {
                    if mime == "text/plain" {
                        bundle.plain = Some(map.next_value()?);
                        continue;
                    }
                    let size = map.next_value_seed(SizeOf(encoding_of(&mime)))?;
                    // An image is what such an output is for (a plot beside its HTML or
                    // JavaScript twin); otherwise the first type, as the file lists them.
                    let replace = match &bundle.other {
                        None => true,
                        Some(other) => !is_image(&other.mime) && is_image(&mime),
                    };
                    if replace {
                        bundle.other = Some(Other { mime, size });
                    }
                }
                Ok(bundle)
            }
        }
        deserializer.deserialize_map(BundleVisitor(PhantomData))
    }
}

fn is_image(mime: &str) -> bool {
    mime.starts_with("image/")
}

/// How nbformat stores a MIME type's value.
#[derive(Clone, Copy)]
enum Encoding {
    /// Binary content, base64-encoded (what IPython does for PNG, JPEG, PDF and the like).
    Base64,
    /// JSON content stored as JSON (`application/json`, `application/*+json`).
    Json,
    /// Text stored as a string or a list of strings.
    Text,
}

fn encoding_of(mime: &str) -> Encoding {
    let (top, sub) = mime.split_once('/').unwrap_or((mime, ""));
    // nbformat's own rule for JSON types (`_is_json_mime`).
    if mime == "application/json" || (top == "application" && sub.ends_with("+json")) {
        return Encoding::Json;
    }
    let binary = match top {
        "image" => !sub.ends_with("+xml"),
        "audio" | "video" | "font" => true,
        "application" => matches!(sub, "pdf" | "octet-stream" | "zip" | "gzip" | "wasm"),
        _ => false,
    };
    if binary {
        Encoding::Base64
    } else {
        Encoding::Text
    }
}

/// Measures a MIME value as it is parsed: the size of what it decodes to.
struct SizeOf(Encoding);

impl<'de> DeserializeSeed<'de> for SizeOf {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<u64, D::Error> {
        match self.0 {
            // As stored: re-serialising would allocate a tree for a size nobody needs exactly.
            Encoding::Json => {
                let raw = <&RawValue>::deserialize(deserializer)?;
                let raw = raw.get();
                Ok(match serde_json::from_str::<Text<'_>>(raw) {
                    Ok(Text(s)) => s.len() as u64,
                    Err(_) => raw.len() as u64,
                })
            }
            encoding => deserializer.deserialize_any(SizeVisitor(encoding)),
        }
    }
}

struct SizeVisitor(Encoding);

impl<'de> Visitor<'de> for SizeVisitor {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string or a list of strings")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
        Ok(match self.0 {
            Encoding::Base64 => base64_sextets(v) * 6 / 8,
            Encoding::Json | Encoding::Text => v.len() as u64,
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u64, A::Error> {
        // The pieces are one text cut at its newlines: for base64, count their digits
        // together, since a piece need not hold a whole number of 4-digit groups.
        let mut total = 0u64;
        while let Some(n) = seq.next_element_seed(PieceSize(self.0))? {
            total += n;
        }
        Ok(match self.0 {
            Encoding::Base64 => total * 6 / 8,
            Encoding::Json | Encoding::Text => total,
        })
    }
}

struct PieceSize(Encoding);

impl<'de> DeserializeSeed<'de> for PieceSize {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<u64, D::Error> {
        struct PieceVisitor(Encoding);
        impl Visitor<'_> for PieceVisitor {
            type Value = u64;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
                Ok(match self.0 {
                    Encoding::Base64 => base64_sextets(v),
                    Encoding::Json | Encoding::Text => v.len() as u64,
                })
            }
        }
        deserializer.deserialize_str(PieceVisitor(self.0))
    }
}

/// The base64 digits in `s`, each worth six bits: whitespace (line breaks every 76 columns
/// in older notebooks) and `=` padding carry none. Counted in place, never decoded.
fn base64_sextets(s: &str) -> u64 {
    s.bytes()
        .filter(|&b| !matches!(b, b'=' | b'\n' | b'\r' | b' ' | b'\t'))
        .count() as u64
}

/// The view being drawn: its text, the number of lines so far, and the cells.
#[derive(Default)]
struct View {
    text: String,
    lines: u64,
    cells: Vec<Cell>,
}

impl View {
    fn push_cell(&mut self, cell: RawCell<'_>) {
        let number = self.cells.len() + 1;
        // jupytext's percent format: one blank line before every header but the first.
        if number > 1 {
            self.text.push('\n');
            self.lines += 1;
        }
        let start_line = self.lines + 1;
        self.push_header(cell.cell_type.name(), number);
        self.push_source(&cell.source);
        if cell.cell_type == CellKind::Code {
            self.push_outputs(&cell.outputs, number);
        }
        self.cells.push(Cell {
            number,
            id: cell.id,
            kind: cell.cell_type,
            start_line,
            end_line: self.lines,
        });
    }

    fn push_header(&mut self, kind: &str, number: usize) {
        let _ = writeln!(self.text, "# %% [{kind}] cell-{number}");
        self.lines += 1;
    }

    /// The source as written; only a missing last newline is added.
    fn push_source(&mut self, source: &Multiline<'_>) {
        for Text(piece) in source.pieces() {
            self.text.push_str(piece);
            self.lines += count_newlines(piece);
        }
        let wrote = source.pieces().iter().any(|Text(piece)| !piece.is_empty());
        if wrote && !self.text.ends_with('\n') {
            self.text.push('\n');
            self.lines += 1;
        }
    }

    fn push_outputs(&mut self, outputs: &[Output<'_>], number: usize) {
        let mut header = false;
        let mut block = Block::default();
        let mut stream: Option<&str> = None;
        for output in outputs {
            let name = output.name.as_ref().map_or("", |t| &*t.0);
            // Consecutive writes to one stream are one text: a kernel flushes stdout in pieces
            // that need not end at a line, and Jupyter shows them joined.
            let continues = output.output_type == OutputType::Stream && stream == Some(name);
            if !continues {
                self.push_block(&mut block, &mut header, number);
            }
            stream = None;
            match output.output_type {
                OutputType::Stream => {
                    stream = Some(name);
                    if let Some(text) = &output.text {
                        block.feed_all(text);
                    }
                }
                OutputType::ExecuteResult | OutputType::DisplayData => {
                    let Some(data) = &output.data else { continue };
                    // An empty `text/plain` says nothing: the other type is named instead.
                    let plain = data
                        .plain
                        .as_ref()
                        .filter(|plain| plain.pieces().iter().any(|Text(piece)| !piece.is_empty()));
                    let other_line = |other: &Other<'_>| {
                        let mime: String = other
                            .mime
                            .chars()
                            .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
                            .collect();
                        format!("[{mime} output, {} bytes]\n", other.size)
                    };
                    if let Some(plain) = plain {
                        block.feed_all(plain);
                        // A figure with its text twin (`<Figure size …>`) shows both
                        // (SPEC §16): the text, then the image's line.
                        if let Some(image) = data.other.as_ref().filter(|o| is_image(&o.mime)) {
                            block.feed_marker(&other_line(image));
                        }
                    } else if let Some(other) = &data.other {
                        block.feed_marker(&other_line(other));
                    }
                }
                OutputType::Error => {
                    let ename = output.ename.as_ref().map_or("", |t| &t.0);
                    let evalue = output.evalue.as_ref().map_or("", |t| &t.0);
                    block.feed(ename);
                    // `KeyboardInterrupt` has no message: no dangling `: `.
                    if !evalue.is_empty() {
                        block.feed(": ");
                        block.feed(evalue);
                    }
                    block.end_text();
                    // IPython's entries are whole frames with inner newlines and no last one.
                    for Text(entry) in &output.traceback {
                        block.feed(entry);
                        block.end_text();
                    }
                }
            }
        }
        self.push_block(&mut block, &mut header, number);
    }

    /// Moves a finished output into the view, under the cell's output header if it is the
    /// first with any line.
    fn push_block(&mut self, block: &mut Block, header: &mut bool, number: usize) {
        let block = std::mem::take(block).finish();
        if block.lines == 0 {
            return;
        }
        if !*header {
            self.push_header("output", number);
            *header = true;
        }
        self.text.push_str(&block.text);
        self.lines += block.lines;
    }
}

fn count_newlines(s: &str) -> u64 {
    s.bytes().filter(|&b| b == b'\n').count() as u64
}

/// One output drawn as terminal text: ANSI escape sequences removed, a carriage return
/// starting its line over (what a terminal shows of a progress bar is its last state), and
/// only the first 50 lines kept, the rest counted.
#[derive(Default)]
struct Block {
    text: String,
    /// Lines ended so far, kept or not.
    lines: u64,
    /// Where the line being written starts in `text`.
    line_start: usize,
    /// The line being written has something in it.
    open: bool,
    /// A `\r` was seen: the line starts over unless a `\n` follows.
    pending_cr: bool,
    escape: Escape,
    /// Lines that name an output's other data (an image), past the 50 kept: shown after
    /// the count of the lines left out, never among them.
    after: String,
}

struct Finished {
    text: String,
    lines: u64,
}

/// Where a byte falls in an escape sequence (ECMA-48), for sequences cut across pieces.
#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum Escape {
    #[default]
    None,
    /// After ESC.
    Esc,
    /// After ESC and intermediate bytes (0x20-0x2F): a final byte ends it.
    Intermediate,
    /// Control Sequence, `ESC [` … final byte 0x40-0x7E.
    Csi,
    /// A string (OSC, DCS, SOS, PM, APC) ended by BEL or `ESC \`.
    String,
    /// ESC inside a string: `\` ends it.
    StringEsc,
}

impl Escape {
    /// The state after `b`, or None when the sequence breaks before `b` (which is then text).
    fn next(self, b: u8) -> Option<Escape> {
        match (self, b) {
            (Escape::None, _) => None,
            (Escape::Esc, b'[') => Some(Escape::Csi),
            (Escape::Esc, b']' | b'P' | b'X' | b'^' | b'_') => Some(Escape::String),
            (Escape::Esc | Escape::Intermediate, 0x20..=0x2f) => Some(Escape::Intermediate),
            (Escape::Esc | Escape::Intermediate, 0x30..=0x7e) => Some(Escape::None),
            (Escape::Csi, 0x20..=0x3f) => Some(Escape::Csi),
            (Escape::Csi, 0x40..=0x7e) => Some(Escape::None),
            (Escape::Esc | Escape::Intermediate | Escape::Csi, _) => None,
            (Escape::String | Escape::StringEsc, 0x07) => Some(Escape::None),
            (Escape::StringEsc, b'\\') => Some(Escape::None),
            // An unterminated string must not swallow the rest of the output.
            (Escape::String | Escape::StringEsc, b'\n') => None,
            (Escape::String | Escape::StringEsc, 0x1b) => Some(Escape::StringEsc),
            (Escape::String | Escape::StringEsc, _) => Some(Escape::String),
        }
    }
}

impl Block {
    fn feed_all(&mut self, text: &Multiline<'_>) {
        for Text(piece) in text.pieces() {
            self.feed(piece);
        }
    }

    /// A line that names an output's other data (`[image/png output, N bytes]`): shown
    /// even past the 50 lines kept, after their count.
    fn feed_marker(&mut self, line: &str) {
        self.end_text();
        match self.lines < MAX_OUTPUT_LINES {
            true => self.feed(line),
            false => self.after.push_str(line),
        }
    }

    /// Ends the current line if it has anything (a piece of an error that lacks its `\n`).
    fn end_text(&mut self) {
        if self.open || self.pending_cr {
            self.feed("\n");
        }
    }

    /// Takes text, dropping escape sequences; what is left goes to `write`.
    fn feed(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if self.escape == Escape::None {
                let esc = bytes[i..].iter().position(|&b| b == 0x1b);
                let end = esc.map_or(bytes.len(), |at| i + at);
                self.write(&s[i..end]);
                if esc.is_none() {
                    return;
                }
                self.escape = Escape::Esc;
                i = end + 1;
                continue;
            }
            match self.escape.next(bytes[i]) {
                Some(state) => {
                    self.escape = state;
                    i += 1;
                }
                // The byte is text again; it is ASCII or starts a character, since a broken
                // sequence consumed only ASCII, so `s[i..]` stays on a character boundary.
                None => self.escape = Escape::None,
            }
        }
    }

    /// Text without escapes: split at `\n` and `\r`.
    fn write(&mut self, mut s: &str) {
        while !s.is_empty() {
            if self.pending_cr {
                self.pending_cr = false;
                if let Some(rest) = s.strip_prefix('\n') {
                    self.end_line();
                    s = rest;
                    continue;
                }
                self.text.truncate(self.line_start);
                self.open = false;
            }
            let cut = s.find(['\n', '\r']).unwrap_or(s.len());
            if cut > 0 {
                if self.lines < MAX_OUTPUT_LINES {
                    self.text.push_str(&s[..cut]);
                }
                self.open = true;
            }
            match s.as_bytes().get(cut) {
                Some(b'\n') => self.end_line(),
                Some(_) => self.pending_cr = true,
                None => {}
            }
            s = &s[(cut + 1).min(s.len())..];
        }
    }

    fn end_line(&mut self) {
        if self.lines < MAX_OUTPUT_LINES {
            self.text.push('\n');
            self.line_start = self.text.len();
        }
        self.lines += 1;
        self.open = false;
    }

    fn finish(mut self) -> Finished {
        if self.open {
            self.end_line();
        }
        if self.lines > MAX_OUTPUT_LINES {
            let more = self.lines - MAX_OUTPUT_LINES;
            let _ = writeln!(self.text, "[… {more} more lines]");
            self.lines = MAX_OUTPUT_LINES + 1;
        }
        self.lines += count_newlines(&self.after);
        self.text.push_str(&self.after);
        Finished {
            text: self.text,
            lines: self.lines,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view_of(json: &str) -> NotebookView {
        view(json.as_bytes()).expect("a valid notebook")
    }

    fn notebook(cells: &str) -> String {
        format!(r#"{{"nbformat": 4, "nbformat_minor": 5, "metadata": {{}}, "cells": [{cells}]}}"#)
    }

    fn code(outputs: &str) -> String {
        notebook(&format!(
            r#"{{"cell_type": "code", "source": "x", "metadata": {{}}, "execution_count": 1, "outputs": [{outputs}]}}"#
        ))
    }

    /// The lines under the output header of a one-cell notebook.
    fn outputs_of(outputs: &str) -> String {
        let text = view_of(&code(outputs)).text;
        let (_, after) = text
            .split_once("# %% [output] cell-1\n")
            .unwrap_or(("", ""));
        after.to_owned()
    }

    #[test]
    fn cells_as_jupytext_percent_format() {
        let v = view_of(&notebook(
            r##"{"cell_type": "markdown", "id": "a1", "metadata": {}, "source": ["# Title\n", "text"]},
                {"cell_type": "code", "id": "b2", "metadata": {}, "execution_count": null, "outputs": [], "source": "import os\nprint(1)\n"},
                {"cell_type": "raw", "id": "c3", "metadata": {}, "source": ""},
                {"cell_type": "code", "id": "d4", "metadata": {}, "execution_count": 2, "outputs": [{"output_type": "stream", "name": "stdout", "text": ["1\n"]}], "source": []}"##,
        ));
        assert_eq!(
            v.text,
            "# %% [markdown] cell-1\n# Title\ntext\n\n\
             # %% [code] cell-2\nimport os\nprint(1)\n\n\
             # %% [raw] cell-3\n\n\
             # %% [code] cell-4\n# %% [output] cell-4\n1\n"
        );
        let spans: Vec<_> = v
            .cells
            .iter()
            .map(|c| (c.number, c.id.as_deref(), c.kind, c.start_line, c.end_line))
            .collect();
        assert_eq!(
            spans,
            [
                (1, Some("a1"), CellKind::Markdown, 1, 3),
                (2, Some("b2"), CellKind::Code, 5, 7),
                (3, Some("c3"), CellKind::Raw, 9, 9),
                (4, Some("d4"), CellKind::Code, 11, 13),
            ]
        );
    }

    #[test]
    fn cells_without_ids_from_nbformat_4_0() {
        let v = view_of(
            r#"{"nbformat": 4, "nbformat_minor": 0, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
                "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": ["a = 1"]}]}"#,
        );
        assert_eq!(v.text, "# %% [code] cell-1\na = 1\n");
        assert_eq!(v.cells[0].id, None);
        assert_eq!(v.language.as_deref(), Some("python"));
    }

    #[test]
    fn language_from_language_info_when_kernelspec_has_none() {
        let v = view_of(
            r#"{"nbformat": 4, "nbformat_minor": 2, "cells": [],
                "metadata": {"kernelspec": {"name": "ir", "language": 7}, "language_info": {"name": "R"}}}"#,
        );
        assert_eq!(v.language.as_deref(), Some("R"));
        assert_eq!(v.text, "");
        assert!(v.cells.is_empty());
        let v = view_of(r#"{"nbformat": 4, "nbformat_minor": 2, "cells": []}"#);
        assert_eq!(v.language, None);
    }

    #[test]
    fn source_as_written_with_its_last_newline_added() {
        let v = view_of(&notebook(
            r#"{"cell_type": "code", "metadata": {}, "outputs": [], "source": ["a\r\n", "\n", "  b"]},
               {"cell_type": "markdown", "metadata": {}, "source": ["", ""]}"#,
        ));
        assert_eq!(
            v.text,
            "# %% [code] cell-1\na\r\n\n  b\n\n# %% [markdown] cell-2\n"
        );
        assert_eq!((v.cells[0].end_line, v.cells[1].start_line), (4, 6));
    }

    #[test]
    fn streams_joined_with_carriage_returns_applied() {
        let out = outputs_of(
            r#"{"output_type": "stream", "name": "stdout", "text": ["a", "b\n"]},
               {"output_type": "stream", "name": "stdout", "text": "c\n 10%\r 50%\r100%\r\nd\r"},
               {"output_type": "stream", "name": "stderr", "text": "\u001b[31mwarn\u001b[0m"}"#,
        );
        assert_eq!(out, "ab\nc\n100%\nd\nwarn\n");
    }

    #[test]
    fn execute_result_and_display_data_text_plain() {
        let out = outputs_of(
            r#"{"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": {"text/plain": ["   a\n", "0  1"], "text/html": ["<table/>"]}},
               {"output_type": "display_data", "metadata": {}, "data": {"image/png": "iVBORw0KGgo=\n", "text/plain": "<Figure size 640x480 with 1 Axes>"}}"#,
        );
        assert_eq!(
            out,
            "   a\n0  1\n<Figure size 640x480 with 1 Axes>\n[image/png output, 8 bytes]\n"
        );
    }

    #[test]
    fn other_outputs_one_line_with_decoded_size() {
        // "aGVsbG8=" is "hello"; "aGVsbG8h" is "hello!".
        let out = outputs_of(
            r#"{"output_type": "display_data", "metadata": {}, "data": {"image/png": "aGVs\nbG8=\n"}},
               {"output_type": "display_data", "metadata": {}, "data": {"image/jpeg": ["aGVsbG", "8h\n"]}},
               {"output_type": "display_data", "metadata": {}, "data": {"text/html": ["<b>é</b>\n", "<i/>"], "application/javascript": "x"}},
               {"output_type": "execute_result", "metadata": {}, "execution_count": 3, "data": {"application/json": {"a": [1, 2]}}},
               {"output_type": "display_data", "metadata": {}, "data": {"text/html": "<p/>", "image/svg+xml": ["<svg/>"]}},
               {"output_type": "display_data", "metadata": {}, "data": {"application/vnd.jupyter.widget-view+json": "\"q\"", "application/pdf": "QUJD"}},
               {"output_type": "display_data", "metadata": {}, "data": {}},
               {"output_type": "display_data", "metadata": {}, "data": {"text/plain": [""], "image/gif": "R0lG"}}"#,
        );
        assert_eq!(
            out,
            "[image/png output, 5 bytes]\n\
             [image/jpeg output, 6 bytes]\n\
             [text/html output, 14 bytes]\n\
             [application/json output, 13 bytes]\n\
             [image/svg+xml output, 6 bytes]\n\
             [application/vnd.jupyter.widget-view+json output, 3 bytes]\n\
             [image/gif output, 3 bytes]\n"
        );
    }

    #[test]
    fn base64_size_from_digits_and_padding() {
        for (b64, n) in [
            ("", 0),
            ("QQ==", 1),
            ("QUI=", 2),
            ("QUJD", 3),
            ("QUJD\nRA==\n", 4),
            ("QU JD\r\nRA", 4),
        ] {
            assert_eq!(base64_sextets(b64) * 6 / 8, n, "{b64:?}");
        }
    }

    #[test]
    fn errors_as_name_value_then_traceback_without_escapes() {
        let out = outputs_of(
            r#"{"output_type": "error", "ename": "ZeroDivisionError", "evalue": "division by zero",
                "traceback": ["\u001b[0;31m----\u001b[0m", "\u001b[0;32mCell \u001b[0;32mIn[1], line 1\u001b[0m\n\u001b[1;32m----> 1\u001b[0m 1/0\n", "\u001b]8;;file:///x\u0007link\u001b]8;;\u0007 \u001b(Bdone\u001b"]},
               {"output_type": "error", "ename": "KeyboardInterrupt", "evalue": "", "traceback": []}"#,
        );
        assert_eq!(
            out,
            "ZeroDivisionError: division by zero\n----\nCell In[1], line 1\n----> 1 1/0\nlink done\n\
             KeyboardInterrupt\n"
        );
    }

    #[test]
    fn long_output_keeps_50_lines() {
        let lines: Vec<String> = (1..=120).map(|i| format!("\"{i}\\n\"")).collect();
        let out = outputs_of(&format!(
            r#"{{"output_type": "stream", "name": "stdout", "text": [{}]}}"#,
            lines.join(",")
        ));
        let expected: String = (1..=50).map(|i| format!("{i}\n")).collect();
        assert_eq!(out, format!("{expected}[… 70 more lines]\n"));

        let exactly = (1..=50).map(|i| format!("{i}\n")).collect::<String>();
        let out = outputs_of(&format!(
            r#"{{"output_type": "stream", "name": "stdout", "text": {:?}}}"#,
            exactly
        ));
        assert_eq!(out, exactly);
        let out = outputs_of(&format!(
            r#"{{"output_type": "stream", "name": "stdout", "text": {:?}}}"#,
            format!("{exactly}51")
        ));
        assert_eq!(out, format!("{exactly}[… 1 more lines]\n"));
    }

    /// A figure's line is never among the lines left out past the 50 kept (SPEC §16: the
    /// text lines, then the image's line).
    #[test]
    fn a_figure_line_follows_a_long_text_twin() {
        let lines: Vec<String> = (1..=60).map(|i| format!("\"{i}\\n\"")).collect();
        let out = outputs_of(&format!(
            r#"{{"output_type": "execute_result", "execution_count": 1, "metadata": {{}}, "data": {{"image/png": "iVBORw0KGgo=\n", "text/plain": [{}]}}}}"#,
            lines.join(",")
        ));
        let expected: String = (1..=50).map(|i| format!("{i}\n")).collect();
        assert_eq!(
            out,
            format!("{expected}[… 10 more lines]\n[image/png output, 8 bytes]\n")
        );
    }

    #[test]
    fn cell_lines_count_output_lines() {
        let v = view_of(&code(
            r#"{"output_type": "stream", "name": "stdout", "text": "a\nb\n"}"#,
        ));
        assert_eq!(
            v.text,
            "# %% [code] cell-1\nx\n# %% [output] cell-1\na\nb\n"
        );
        assert_eq!((v.cells[0].start_line, v.cells[0].end_line), (1, 5));
        // An output that draws nothing gets no header.
        let v = view_of(&code(
            r#"{"output_type": "stream", "name": "stdout", "text": ""}"#,
        ));
        assert_eq!(v.text, "# %% [code] cell-1\nx\n");
    }

    #[test]
    fn not_notebooks() {
        for bytes in [
            &b""[..],
            b"not json",
            b"{\"nbformat\": 4, \"cells\": [",
            b"[]",
            b"{\"a\": 1}",
            b"{\"nbformat\": 4}",
            b"{\"nbformat\": \"4\", \"cells\": []}",
            b"{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"heading\", \"source\": \"\"}]}",
            b"{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\"}]}",
            b"{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\", \"source\": 1}]}",
            b"{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\", \"source\": \"\", \"outputs\": [{\"output_type\": \"pyout\"}]}]}",
            b"{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\", \"source\": \"\xff\"}]}",
        ] {
            assert_eq!(view(bytes), None, "{:?}", String::from_utf8_lossy(bytes));
        }
    }

    #[test]
    fn nbformat_3_is_not_read() {
        let v3 = r#"{"nbformat": 3, "nbformat_minor": 0, "metadata": {"name": ""},
            "worksheets": [{"cells": [{"cell_type": "code", "input": ["1"], "language": "python", "outputs": []}]}]}"#;
        assert_eq!(view(v3.as_bytes()), None);
        let v3_with_cells = r#"{"nbformat": 3, "cells": []}"#;
        assert_eq!(view(v3_with_cells.as_bytes()), None);
    }

    #[test]
    fn bom_is_skipped() {
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend_from_slice(notebook("").as_bytes());
        assert!(view(&bytes).is_some());
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        let deep = "[".repeat(100_000);
        for doc in [
            deep.clone(),
            format!(r#"{{"nbformat": 4, "metadata": {deep}"#),
            format!(r#"{{"nbformat": 4, "cells": [], "metadata": {{"x": {deep}}}}}"#),
            notebook(&format!(
                r#"{{"cell_type": "code", "source": "", "outputs": [{{"output_type": "display_data", "data": {{"application/json": {deep}}}}}]}}"#
            )),
            notebook(&format!(r#"{{"cell_type": "code", "source": {deep}}}"#)),
        ] {
            assert_eq!(view(doc.as_bytes()), None);
        }
        // Deep but closed, in a field nobody reads: still a notebook.
        let closed = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let doc = format!(r#"{{"nbformat": 4, "cells": [], "metadata": {{"x": {closed}}}}}"#);
        assert!(view(doc.as_bytes()).is_some());
    }

    #[test]
    fn escapes_that_do_not_parse_keep_the_text() {
        let mut block = Block::default();
        block.feed("a\u{1b}");
        block.feed("[1mb\u{1b}\u{e9}c\u{1b}[1\u{e9}d\u{1b}]title\nnext\u{1b}P$q\u{1b}\\e\u{1b}");
        assert_eq!(block.finish().text, "ab\u{e9}c\u{e9}d\nnexte\n");
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        fn text() -> impl Strategy<Value = String> {
            proptest::string::string_regex("([a-z\\r\\n\\u{1b}\\[;m\\]\\x07é]){0,40}").unwrap()
        }

        fn multiline() -> impl Strategy<Value = serde_json::Value> {
            prop_oneof![
                text().prop_map(serde_json::Value::from),
                proptest::collection::vec(text(), 0..4).prop_map(serde_json::Value::from),
            ]
        }

        fn output() -> impl Strategy<Value = serde_json::Value> {
            let mime = prop_oneof![
                Just("text/plain"),
                Just("image/png"),
                Just("text/html"),
                Just("application/json"),
            ];
            prop_oneof![
                multiline().prop_map(|t| serde_json::json!({"output_type": "stream", "name": "stdout", "text": t})),
                (mime, multiline()).prop_map(|(m, t)| serde_json::json!({"output_type": "display_data", "metadata": {}, "data": {m: t}})),
                (text(), text(), proptest::collection::vec(text(), 0..3)).prop_map(|(n, v, tb)| serde_json::json!({"output_type": "error", "ename": n, "evalue": v, "traceback": tb})),
            ]
        }

        fn cell() -> impl Strategy<Value = serde_json::Value> {
            (
                prop_oneof![Just("code"), Just("markdown"), Just("raw")],
                multiline(),
                proptest::collection::vec(output(), 0..4),
            )
                .prop_map(|(kind, source, outputs)| {
                    serde_json::json!({"cell_type": kind, "metadata": {}, "source": source, "outputs": outputs})
                })
        }

        proptest! {
            #[test]
            fn never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
                let _ = view(&bytes);
            }

            #[test]
            fn never_panics_on_mangled_notebooks(cells in proptest::collection::vec(cell(), 0..4), cut in any::<usize>(), byte in any::<u8>()) {
                let mut bytes = serde_json::to_vec(&serde_json::json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells})).unwrap();
                let at = cut % bytes.len();
                bytes[at] = byte;
                let _ = view(&bytes);
            }

            #[test]
            fn cells_span_the_view(cells in proptest::collection::vec(cell(), 0..6)) {
                let doc = serde_json::json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells});
                let v = view(doc.to_string().as_bytes()).expect("generated notebooks are valid");
                prop_assert!(v.text.is_empty() || v.text.ends_with('\n'));
                let lines: Vec<&str> = v.text.lines().collect();
                prop_assert_eq!(v.cells.len(), cells.len());
                let mut next = 1;
                for cell in &v.cells {
                    prop_assert!(cell.start_line == next || cell.start_line == next + 1);
                    prop_assert!(cell.end_line >= cell.start_line);
                    let header = format!("# %% [{}] cell-{}", cell.kind.name(), cell.number);
                    prop_assert_eq!(lines[cell.start_line as usize - 1], header.as_str());
                    next = cell.end_line + 1;
                }
                prop_assert_eq!(next - 1, count_newlines(&v.text));
            }
        }
    }
}
