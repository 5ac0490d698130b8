//! Lays a page's text out in lines by following its content stream (PDF 32000-1 §9).
//!
//! lopdf's own `extract_text` ignores where text is drawn: a LaTeX page comes out as one
//! line and groff's man pages lose the spaces between words (60% word recall against
//! pdftotext, see the survey). So this walker keeps the text state a viewer keeps (the
//! text and line matrices, the current transformation, font, size, spacing) and the
//! advance of every glyph from the font's widths, and turns positions into layout: a
//! baseline that moves is a new line, a far move a blank line, a horizontal gap a space.
//! Text is taken in the order the stream draws it, which is reading order for what word
//! processors, browsers, TeX and groff produce.

use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Encoding, LoadOptions, Object, ObjectId};

use super::{MAX_TEXT_BYTES, PdfError, normalise};

/// The most any one stream may inflate to, 32 MiB. Object and cross-reference streams,
/// fonts' ToUnicode maps and page contents are all far smaller; lopdf's default (256 MiB)
/// lets a 1 MiB file allocate that much per stream.
const MAX_STREAM_BYTES: usize = 32 << 20;

/// The most content a page may inflate to, its forms each time they are drawn included:
/// a small form drawn a million times must not cost a million times its size.
const MAX_PAGE_CONTENT_BYTES: usize = 64 << 20;

/// How deep forms may nest (a form that draws itself is refused sooner, as a cycle).
const MAX_FORM_DEPTH: usize = 8;

/// How many saved graphics states (`q`) are kept; deeper saves are counted, not stored,
/// so a stream of a million `q`s costs no memory.
const MAX_SAVED_STATES: usize = 64;

/// The deadline is checked every this many operators (a check costs a clock read).
const OPS_PER_CLOCK_CHECK: usize = 1024;

/// A page's text may only fail this way; anything else is a page with less text.
enum Stop {
    Timeout,
    TooMuchText,
}

/// Loads the PDF and returns the text of each page, normalised.
pub(super) fn extract_pages(
    bytes: &[u8],
    deadline: Option<Instant>,
) -> Result<Vec<String>, PdfError> {
    let options = LoadOptions {
        max_decompressed_size: Some(MAX_STREAM_BYTES),
        ..LoadOptions::default()
    };
    let doc = Document::load_mem_with_options(bytes, options).map_err(|error| match error {
        lopdf::Error::Decryption(_) | lopdf::Error::InvalidPassword => PdfError::Encrypted,
        _ => PdfError::Damaged,
    })?;
    // lopdf decrypts a file whose user password is empty as it loads it; one still
    // encrypted afterwards needs a password we don't have.
    if doc.is_encrypted() {
        return Err(PdfError::Encrypted);
    }
    let pages = doc.get_pages();
    if pages.is_empty() {
        return Err(PdfError::Damaged);
    }
    let mut walker = Walker {
        doc: &doc,
        deadline,
        ops: 0,
        fonts: HashMap::new(),
        text_bytes: 0,
    };
    let mut texts = Vec::with_capacity(pages.len());
    let mut broken_pages = 0;
    for page_id in pages.into_values() {
        let page = walker.page(page_id).map_err(|stop| match stop {
            Stop::Timeout => PdfError::Timeout,
            Stop::TooMuchText => PdfError::TooLarge,
        })?;
        broken_pages += usize::from(page.broken);
        // Normalised page by page, so the raw text of one page at most is held twice.
        texts.push(normalise(&page.text));
    }
    // Pages whose content is broken but that gave no text are no "text layer missing":
    // the file is damaged (the random byte flips of a fuzzer end here).
    if broken_pages > 0 && texts.iter().all(String::is_empty) {
        return Err(PdfError::Damaged);
    }
    Ok(texts)
}

/// A page's raw text, and whether some of its content could not be read.
struct PageText {
    text: String,
    broken: bool,
}

/// Where to look names up: the resource dictionaries in force, nearest first.
type Resources<'a> = Vec<&'a Dictionary>;

/// Walks content streams, with what is shared by all pages.
struct Walker<'a> {
    doc: &'a Document,
    deadline: Option<Instant>,
    /// Operators seen since the last clock check.
    ops: usize,
    /// Fonts already read, by the address of their dictionary (the document is not
    /// changed while we walk it, so an address names one font).
    fonts: HashMap<usize, Rc<Font<'a>>>,
    /// Text bytes produced over all pages, against [`MAX_TEXT_BYTES`].
    text_bytes: usize,
}

/// The state one page's walk needs.
struct Page<'a> {
    lines: Lines,
    /// Content bytes inflated for this page so far, against [`MAX_PAGE_CONTENT_BYTES`].
    inflated: usize,
    /// Forms being drawn, outermost first: to refuse one that draws itself.
    forms: Vec<ObjectId>,
    broken: bool,
    state: State<'a>,
    saved: Vec<State<'a>>,
    /// `q`s beyond [`MAX_SAVED_STATES`] not yet matched by a `Q`.
    unsaved: usize,
    /// The text matrix and the text line matrix (§9.4.2).
    tm: Matrix,
    tlm: Matrix,
}

/// The graphics state that matters to text (§8.4, §9.3): saved by `q`, restored by `Q`.
#[derive(Clone)]
struct State<'a> {
    ctm: Matrix,
    font: Option<Rc<Font<'a>>>,
    size: f32,
    char_spacing: f32,
    word_spacing: f32,
    /// Horizontal scaling as a factor (`Tz` is in percent).
    scaling: f32,
    leading: f32,
    rise: f32,
}

impl State<'_> {
    fn new() -> Self {
        State {
            ctm: IDENTITY,
            font: None,
            size: 0.0,
            char_spacing: 0.0,
            word_spacing: 0.0,
            scaling: 1.0,
            leading: 0.0,
            rise: 0.0,
        }
    }
}

/// An affine matrix `[a b c d e f]`, as PDF writes them.
type Matrix = [f32; 6];

const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// `m × n`: first `m`'s transformation, then `n`'s (§8.3.4).
fn multiply(m: &Matrix, n: &Matrix) -> Matrix {
    [
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    ]
}

fn translation(x: f32, y: f32) -> Matrix {
    [1.0, 0.0, 0.0, 1.0, x, y]
}

/// A number operand; anything else, or a number that is not finite, is 0 (a crafted
/// NaN would otherwise poison every position after it).
fn number(object: Option<&Object>) -> f32 {
    let value = match object {
        Some(Object::Integer(i)) => *i as f32,
        Some(Object::Real(r)) => *r,
        _ => 0.0,
    };
    if value.is_finite() { value } else { 0.0 }
}

fn matrix(operands: &[Object]) -> Option<Matrix> {
    (operands.len() >= 6).then(|| std::array::from_fn(|i| number(operands.get(i))))
}

/// What a font gives the layout: the text of its codes and how far each code advances.
struct Font<'a> {
    /// lopdf's decoding (ToUnicode map, named encoding or `Differences`); `None` when the
    /// font has none lopdf can read, and then one-byte codes are read as Latin-1.
    encoding: Option<Encoding<'a>>,
    /// Composite (`Type0`) fonts take two bytes a code, as `Identity-H` and the
    /// usual CJK encodings do; simple fonts one.
    two_byte: bool,
    widths: Widths,
}

/// Glyph advances in thousandths of the font size.
enum Widths {
    /// A simple font's `Widths` from `FirstChar`; codes outside use `missing`.
    Simple {
        first: i64,
        widths: Vec<f32>,
        missing: f32,
    },
    /// A composite font's `W` entries as code → width, and its `DW`.
    Composite {
        widths: HashMap<u32, f32>,
        default: f32,
    },
}

/// A standard-14 font written without `Widths` is given this average advance: words in
/// one string don't need it, and gaps between strings are then judged a little generously.
const UNKNOWN_WIDTH: f32 = 500.0;

/// Entries read from a composite font's `W` array at most; a range `c1 c2 w` expands
/// to its codes, so a crafted `0 4294967295 w` must not become 4 billion entries.
const MAX_COMPOSITE_WIDTHS: usize = 65_536;

impl Widths {
    fn of(&self, code: u32) -> f32 {
        match self {
            Widths::Simple {
                first,
                widths,
                missing,
            } => i64::from(code)
                .checked_sub(*first)
                .and_then(|i| usize::try_from(i).ok())
                .and_then(|i| widths.get(i))
                .copied()
                .unwrap_or(*missing),
            Widths::Composite { widths, default } => widths.get(&code).copied().unwrap_or(*default),
        }
    }
}

impl<'a> Font<'a> {
    fn read(doc: &'a Document, dict: &'a Dictionary) -> Font<'a> {
        let subtype = dict
            .get(b"Subtype")
            .and_then(Object::as_name)
            .unwrap_or(b"");
        let two_byte = subtype == b"Type0";
        let encoding = dict
            .get_font_encoding_with_limit(doc, MAX_STREAM_BYTES)
            .ok();
        let widths = if two_byte {
            composite_widths(doc, dict)
        } else {
            simple_widths(doc, dict, subtype == b"Type3")
        };
        Font {
            encoding,
            two_byte,
            widths,
        }
    }

    /// The codes of a string: one or two bytes each.
    fn codes<'s>(&self, bytes: &'s [u8]) -> impl Iterator<Item = u32> + 's {
        let step = if self.two_byte { 2 } else { 1 };
        bytes.chunks_exact(step).map(|code| {
            code.iter()
                .fold(0u32, |acc, &byte| (acc << 8) | u32::from(byte))
        })
    }

    fn decode(&self, bytes: &[u8], out: &mut String) {
        if let Some(encoding) = &self.encoding {
            // Into a scratch string: a decoding that fails halfway leaves nothing behind.
            let mut decoded = String::new();
            if encoding.write_to_string(bytes, &mut decoded).is_ok() {
                out.push_str(&decoded);
                return;
            }
        }
        // No usable encoding: one-byte codes are most often Latin-1 (WinAnsi agrees on
        // letters and digits); two-byte glyph ids mean nothing without a map.
        if !self.two_byte {
            out.extend(bytes.iter().map(|&byte| char::from(byte)));
        }
    }
}

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Object> {
    doc.dereference(object).ok().map(|(_, object)| object)
}

fn get<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    dict.get(key).ok().and_then(|object| resolve(doc, object))
}

fn simple_widths(doc: &Document, dict: &Dictionary, type3: bool) -> Widths {
    let first = match get(doc, dict, b"FirstChar") {
        Some(Object::Integer(first)) => *first,
        _ => 0,
    };
    // Type 3 widths are in glyph space; the font matrix takes them to text space
    // (its usual [0.001 0 0 0.001 0 0] makes the factor 1).
    let scale = if type3 {
        match get(doc, dict, b"FontMatrix").and_then(|m| m.as_array().ok()) {
            Some(m) if !m.is_empty() => (number(m.first()) * 1000.0).abs(),
            _ => 1.0,
        }
    } else {
        1.0
    };
    let widths: Vec<f32> = match get(doc, dict, b"Widths").and_then(|w| w.as_array().ok()) {
        Some(widths) => widths
            .iter()
            .take(256)
            .map(|w| number(resolve(doc, w)) * scale)
            .collect(),
        None => Vec::new(),
    };
    let missing = get(doc, dict, b"FontDescriptor")
        .and_then(|d| d.as_dict().ok())
        .and_then(|d| get(doc, d, b"MissingWidth"))
        .map(|w| number(Some(w)) * scale)
        .filter(|w| *w > 0.0)
        .unwrap_or(if widths.is_empty() {
            UNKNOWN_WIDTH
        } else {
            0.0
        });
    Widths::Simple {
        first,
        widths,
        missing,
    }
}

fn composite_widths(doc: &Document, dict: &Dictionary) -> Widths {
    let descendant = get(doc, dict, b"DescendantFonts")
        .and_then(|fonts| fonts.as_array().ok())
        .and_then(|fonts| fonts.first())
        .and_then(|font| resolve(doc, font))
        .and_then(|font| font.as_dict().ok());
    let mut widths = HashMap::new();
    let mut default = 1000.0;
    if let Some(descendant) = descendant {
        if let Some(dw) = get(doc, descendant, b"DW") {
            default = number(Some(dw));
        }
        let entries = get(doc, descendant, b"W")
            .and_then(|w| w.as_array().ok())
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        // `c [w1 w2 …]` gives codes c, c+1, …; `c1 c2 w` gives c1..=c2 the width w.
        let mut i = 0;
        while i < entries.len() && widths.len() < MAX_COMPOSITE_WIDTHS {
            let first = number(entries.get(i)).max(0.0) as u32;
            match entries.get(i + 1).and_then(|next| resolve(doc, next)) {
                Some(Object::Array(list)) => {
                    for (offset, w) in list.iter().take(MAX_COMPOSITE_WIDTHS).enumerate() {
                        let code = first.saturating_add(offset as u32);
                        widths.insert(code, number(resolve(doc, w)));
                    }
                    i += 2;
                }
                Some(_) => {
                    let last = number(entries.get(i + 1)).max(0.0) as u32;
                    let w = number(entries.get(i + 2));
                    let room = (MAX_COMPOSITE_WIDTHS - widths.len()) as u32;
                    for code in first..=last.min(first.saturating_add(room)) {
                        widths.insert(code, w);
                    }
                    i += 3;
                }
                None => break,
            }
        }
    }
    Widths::Composite { widths, default }
}

impl<'a> Walker<'a> {
    fn page(&mut self, page_id: ObjectId) -> Result<PageText, Stop> {
        // Also checked here: thousands of near-empty pages may hold few operators, and
        // inflating a page's content is work the operator count doesn't see.
        self.check_deadline()?;
        let mut page = Page {
            lines: Lines::default(),
            inflated: 0,
            forms: Vec::new(),
            broken: false,
            state: State::new(),
            saved: Vec::new(),
            unsaved: 0,
            tm: IDENTITY,
            tlm: IDENTITY,
        };
        let resources = match self.doc.get_page_resources(page_id) {
            Ok((direct, ids)) => direct
                .into_iter()
                .chain(
                    ids.into_iter()
                        .filter_map(|id| self.doc.get_dictionary(id).ok()),
                )
                .collect(),
            Err(_) => {
                page.broken = true;
                Vec::new()
            }
        };
        // lopdf skips content streams it can't find; a page that names one that is gone
        // (a truncated file, rebuilt from what was left) has lost text, not lacked it.
        let contents = self.doc.get_page_contents(page_id);
        if contents
            .iter()
            .any(|&id| self.doc.get_object(id).and_then(Object::as_stream).is_err())
        {
            page.broken = true;
        }
        match self
            .doc
            .get_page_content_with_limit(page_id, MAX_PAGE_CONTENT_BYTES)
        {
            Ok(content) => {
                page.inflated = content.len();
                self.run(&mut page, &content, &resources)?;
            }
            Err(_) => page.broken = true,
        }
        Ok(PageText {
            text: page.lines.text,
            broken: page.broken,
        })
    }

    fn check_deadline(&self) -> Result<(), Stop> {
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => Err(Stop::Timeout),
            _ => Ok(()),
        }
    }

    /// Follows one content stream, the page's or a form's.
    fn run(
        &mut self,
        page: &mut Page<'a>,
        content: &[u8],
        resources: &Resources<'a>,
    ) -> Result<(), Stop> {
        for operation in Content::decode_iter(content) {
            self.ops += 1;
            if self.ops >= OPS_PER_CLOCK_CHECK {
                self.ops = 0;
                self.check_deadline()?;
            }
            let Ok(operation) = operation else {
                // What came before the broken operator stays; the rest can't be parsed.
                page.broken = true;
                break;
            };
            self.operate(page, &operation.operator, &operation.operands, resources)?;
        }
        Ok(())
    }

    fn operate(
        &mut self,
        page: &mut Page<'a>,
        operator: &str,
        operands: &[Object],
        resources: &Resources<'a>,
    ) -> Result<(), Stop> {
        let arg = |i: usize| number(operands.get(i));
        let state = &mut page.state;
        match operator {
            "q" => {
                if page.saved.len() < MAX_SAVED_STATES {
                    page.saved.push(state.clone());
                } else {
                    page.unsaved += 1;
                }
            }
            "Q" => {
                if page.unsaved > 0 {
                    page.unsaved -= 1;
                } else if let Some(saved) = page.saved.pop() {
                    *state = saved;
                }
            }
            "cm" => {
                if let Some(m) = matrix(operands) {
                    state.ctm = multiply(&m, &state.ctm);
                }
            }
            "BT" => {
                page.tm = IDENTITY;
                page.tlm = IDENTITY;
            }
            "Tf" => {
                state.size = arg(1);
                state.font = match operands.first() {
                    Some(Object::Name(name)) => self.font(resources, name),
                    _ => None,
                };
            }
            "Tc" => state.char_spacing = arg(0),
            "Tw" => state.word_spacing = arg(0),
            "Tz" => state.scaling = arg(0) / 100.0,
            "TL" => state.leading = arg(0),
            "Ts" => state.rise = arg(0),
            "Td" => page.next_line(arg(0), arg(1)),
            "TD" => {
                state.leading = -arg(1);
                page.next_line(arg(0), arg(1));
            }
            "Tm" => {
                if let Some(m) = matrix(operands) {
                    page.tm = m;
                    page.tlm = m;
                }
            }
            "T*" => page.next_line(0.0, -page.state.leading),
            "Tj" => self.show(page, operands.first())?,
            "'" => {
                page.next_line(0.0, -page.state.leading);
                self.show(page, operands.first())?;
            }
            "\"" => {
                state.word_spacing = arg(0);
                state.char_spacing = arg(1);
                page.next_line(0.0, -page.state.leading);
                self.show(page, operands.get(2))?;
            }
            "TJ" => {
                let Some(Object::Array(items)) = operands.first() else {
                    return Ok(());
                };
                for item in items {
                    match item {
                        Object::String(..) => self.show(page, Some(item))?,
                        // A number moves the next glyph left by thousandths of the size;
                        // a large negative one is how TeX and others write a space.
                        _ => {
                            let state = &page.state;
                            let shift = -number(Some(item)) / 1000.0 * state.size * state.scaling;
                            page.tm = multiply(&translation(shift, 0.0), &page.tm);
                        }
                    }
                }
            }
            "Do" => {
                if let Some(Object::Name(name)) = operands.first() {
                    self.form(page, name, resources)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Looks a font up by its resource name, reading it the first time.
    fn font(&mut self, resources: &Resources<'a>, name: &[u8]) -> Option<Rc<Font<'a>>> {
        let doc = self.doc;
        let dict = resources.iter().find_map(|res| {
            get(doc, res, b"Font")
                .and_then(|fonts| fonts.as_dict().ok())
                .and_then(|fonts| get(doc, fonts, name))
                .and_then(|font| font.as_dict().ok())
        })?;
        let key = std::ptr::from_ref(dict).addr();
        let font = self
            .fonts
            .entry(key)
            .or_insert_with(|| Rc::new(Font::read(doc, dict)));
        Some(Rc::clone(font))
    }

    /// Shows a string: its text goes to the layout at the point it is drawn, and the
    /// text matrix advances past it.
    fn show(&mut self, page: &mut Page<'a>, string: Option<&Object>) -> Result<(), Stop> {
        let Some(Object::String(bytes, _)) = string else {
            return Ok(());
        };
        let Some(font) = page.state.font.clone() else {
            return Ok(());
        };
        // Letter-spaced text (groff spaces `,b` apart with `Tc` instead of a space) has
        // its gaps inside the string: place it glyph by glyph so the layout sees them.
        let state = &page.state;
        if state.char_spacing.abs() > Lines::SPACE * state.size.abs() {
            for code in bytes.chunks(if font.two_byte { 2 } else { 1 }) {
                self.place(page, &font, code)?;
            }
            Ok(())
        } else {
            self.place(page, &font, bytes)
        }
    }

    /// Puts the text of `bytes` where the text matrix says, and advances it by their widths.
    fn place(&mut self, page: &mut Page<'a>, font: &Font<'a>, bytes: &[u8]) -> Result<(), Stop> {
        let state = &page.state;
        // The spacing after the last glyph moves the pen but is no ink: the layout must
        // see the gap it leaves before the next string.
        let (mut advance, mut trailing) = (0.0, 0.0);
        for code in font.codes(bytes) {
            trailing = state.char_spacing;
            // Word spacing applies to the one-byte code 32 only (§9.3.3).
            if !font.two_byte && code == 32 {
                trailing += state.word_spacing;
            }
            advance += (font.widths.of(code) / 1000.0 * state.size + trailing) * state.scaling;
        }
        let render = [
            state.size * state.scaling,
            0.0,
            0.0,
            state.size,
            0.0,
            state.rise,
        ];
        let start = multiply(&multiply(&render, &page.tm), &state.ctm);
        let size = start[2].hypot(start[3]);
        let ink = translation(advance - trailing * state.scaling, 0.0);
        let end = multiply(&multiply(&render, &multiply(&ink, &page.tm)), &state.ctm);
        page.tm = multiply(&translation(advance, 0.0), &page.tm);
        let mut text = String::new();
        font.decode(bytes, &mut text);
        self.text_bytes += text.len();
        if self.text_bytes > MAX_TEXT_BYTES {
            return Err(Stop::TooMuchText);
        }
        page.lines.push(start[4], end[4], start[5], size, &text);
        Ok(())
    }

    /// Draws a form XObject (§8.10): its own content, with its resources, under its matrix.
    /// Images and unknown names are skipped.
    fn form(
        &mut self,
        page: &mut Page<'a>,
        name: &[u8],
        resources: &Resources<'a>,
    ) -> Result<(), Stop> {
        let doc = self.doc;
        let Some((id, stream)) = resources.iter().find_map(|res| {
            let xobjects = get(doc, res, b"XObject")?.as_dict().ok()?;
            let (id, object) = doc.dereference(xobjects.get(name).ok()?).ok()?;
            Some((id?, object.as_stream().ok()?))
        }) else {
            return Ok(());
        };
        let is_form = stream
            .dict
            .get(b"Subtype")
            .and_then(Object::as_name)
            .is_ok_and(|s| s == b"Form");
        if !is_form || page.forms.len() >= MAX_FORM_DEPTH || page.forms.contains(&id) {
            return Ok(());
        }
        let room = MAX_PAGE_CONTENT_BYTES.saturating_sub(page.inflated);
        let content = if stream.dict.get(b"Filter").is_ok() {
            match stream.decompressed_content_with_limit(room.min(MAX_STREAM_BYTES)) {
                Ok(content) => content,
                Err(_) => {
                    page.broken = true;
                    return Ok(());
                }
            }
        } else if stream.content.len() <= room {
            stream.content.clone()
        } else {
            page.broken = true;
            return Ok(());
        };
        page.inflated += content.len();
        let own = get(doc, &stream.dict, b"Resources").and_then(|r| r.as_dict().ok());
        let form_resources: Resources<'a> = match own {
            Some(own) => std::iter::once(own)
                .chain(resources.iter().copied())
                .collect(),
            None => resources.clone(),
        };
        // The form runs in a saved state, with its matrix on top of the current one, and
        // leaves the text matrices as it found them.
        let (saved_state, tm, tlm) = (page.state.clone(), page.tm, page.tlm);
        if let Some(m) = stream
            .dict
            .get(b"Matrix")
            .ok()
            .and_then(|m| m.as_array().ok())
            .and_then(|m| matrix(m))
        {
            page.state.ctm = multiply(&m, &page.state.ctm);
        }
        page.forms.push(id);
        let outcome = self.run(page, &content, &form_resources);
        page.forms.pop();
        (page.state, page.tm, page.tlm) = (saved_state, tm, tlm);
        outcome
    }
}

impl Page<'_> {
    /// `Td`: a new line, offset from the start of the current one.
    fn next_line(&mut self, x: f32, y: f32) {
        self.tlm = multiply(&translation(x, y), &self.tlm);
        self.tm = self.tlm;
    }
}

/// Turns strings placed on the page into lines of text.
#[derive(Default)]
struct Lines {
    text: String,
    /// Where the last string ended: its end's x, its baseline's y, its font size.
    last: Option<(f32, f32, f32)>,
}

impl Lines {
    /// A baseline moved by more than this share of the font size starts a new line;
    /// super- and subscripts move it less.
    const NEW_LINE: f32 = 0.6;
    /// A baseline moved by more than this many font sizes leaves a blank line, as a
    /// paragraph, heading or column break does; ordinary leading is 1.2.
    const BLANK_LINE: f32 = 1.9;
    /// A gap wider than this share of the font size is a space: a word space is a
    /// quarter to a third, kerning a few hundredths.
    const SPACE: f32 = 0.15;

    fn push(&mut self, x0: f32, x1: f32, y: f32, size: f32, text: &str) {
        if text.is_empty() {
            return;
        }
        if let Some((last_x, last_y, last_size)) = self.last {
            let height = size.max(last_size).max(f32::EPSILON);
            let rise = (y - last_y).abs();
            if rise > Self::NEW_LINE * height {
                self.text.push('\n');
                if rise > Self::BLANK_LINE * height {
                    self.text.push('\n');
                }
            } else {
                let gap = x0 - last_x;
                // A jump back along the line is a new piece of text drawn over or
                // before the last (a table cell, a marginal note): keep the two apart.
                let apart = gap > Self::SPACE * height || gap < -height;
                let spaced = self.text.ends_with(char::is_whitespace)
                    || text.starts_with(char::is_whitespace);
                if apart && !spaced {
                    self.text.push(' ');
                }
            }
        }
        self.text.push_str(text);
        self.last = Some((x1, y, size));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_break_on_baseline_moves_and_space_on_gaps() {
        let mut lines = Lines::default();
        lines.push(0.0, 30.0, 700.0, 10.0, "Hello");
        lines.push(33.0, 60.0, 700.0, 10.0, "world");
        lines.push(60.5, 70.0, 700.0, 10.0, "s");
        lines.push(0.0, 20.0, 688.0, 10.0, "next");
        lines.push(0.0, 20.0, 650.0, 10.0, "para");
        assert_eq!(lines.text, "Hello worlds\nnext\n\npara");
    }

    #[test]
    fn matrices_compose_in_pdf_order() {
        let scale = [2.0, 0.0, 0.0, 2.0, 0.0, 0.0];
        let moved = multiply(&translation(10.0, 5.0), &scale);
        assert_eq!(moved, [2.0, 0.0, 0.0, 2.0, 20.0, 10.0]);
    }

    #[test]
    fn composite_width_ranges_are_capped() {
        let widths = Widths::Composite {
            widths: HashMap::from([(3, 250.0)]),
            default: 1000.0,
        };
        assert_eq!(widths.of(3), 250.0);
        assert_eq!(widths.of(4), 1000.0);
        let simple = Widths::Simple {
            first: 32,
            widths: vec![278.0],
            missing: 0.0,
        };
        assert_eq!(simple.of(32), 278.0);
        assert_eq!(simple.of(31), 0.0);
        // A crafted FirstChar must not overflow the subtraction.
        let crafted = Widths::Simple {
            first: i64::MIN,
            widths: vec![1.0],
            missing: 2.0,
        };
        assert_eq!(crafted.of(7), 2.0);
    }
}
