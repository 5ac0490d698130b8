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
//!
//! After the page's content come its annotations, as a viewer (and pdftotext) draws them:
//! each visible one's appearance stream placed in its rectangle, so a form field's value
//! and a FreeText note read as the page shows them. A text field without an appearance
//! (or in a form that asks viewers to make them, `NeedAppearances`) shows its value, and
//! a FreeText annotation without one its `Contents`, as the appearance poppler makes.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use lopdf::{Dictionary, Document, LoadOptions, Object, ObjectId};

use super::Unread;
use super::bounds;
use super::content;
use super::font::Font;
use super::objects::{MAX_STREAM_BYTES, dangling, get, number, resolve};
use super::tables;

use super::{MAX_TEXT_BYTES, PdfError, PdfText, normalise};

/// The most content a page may inflate to, its forms each time they are drawn included:
/// a small form drawn a million times must not cost a million times its size.
const MAX_PAGE_CONTENT_BYTES: usize = 32 << 20;

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
    /// An operation with more than `bounds::MAX_OPERATION_TOKENS` tokens.
    TooLarge,
}

/// Loads the PDF and returns the text of each page, normalised.
pub(super) fn extract_pages(
    bytes: &[u8],
    deadline: Option<Instant>,
    given_up: &AtomicBool,
) -> Result<PdfText, PdfError> {
    // Every token lopdf would parse is counted first (see `bounds`): the objects of the
    // file itself here, those of its object streams by the load filter.
    let tokens = bounds::token_budget(bytes.len());
    if !bounds::file_fits(bytes, tokens) {
        return Err(PdfError::TooLarge);
    }
    let options = LoadOptions {
        max_decompressed_size: Some(MAX_STREAM_BYTES),
        filter: Some(bounds::filter),
        ..LoadOptions::default()
    };
    let load = |bytes: &[u8], reconstruct: bool| {
        bounds::start_load(tokens);
        let options = LoadOptions {
            force_reconstruct: reconstruct,
            ..options.clone()
        };
        let loaded = Document::load_mem_with_options(bytes, options);
        if bounds::load_was_over() {
            return Err(PdfError::TooLarge);
        }
        loaded.map_err(|error| match error {
            lopdf::Error::Decryption(_)
            | lopdf::Error::InvalidPassword
            | lopdf::Error::UnsupportedSecurityHandler(_) => PdfError::Encrypted,
            // A file that says it is encrypted and fails to load needs a password we
            // don't have, or a handler lopdf lacks: either way it is no damage (SPEC §16).
            _ if declares_encryption(bytes) => PdfError::Encrypted,
            _ => PdfError::Damaged,
        })
    };
    // lopdf reads crypt filters only when they are written in place; with one written
    // elsewhere it "decrypts" with none and the text is ciphertext. Such a file is
    // decrypted here instead.
    let loaded = if declares_encryption(bytes) && indirect_crypt_filters(bytes) {
        Err(PdfError::Encrypted)
    } else {
        load(bytes, false)
    };
    // The file read as if it were not encrypted, then decrypted here; a file that needs a
    // password is never called damaged (SPEC §16).
    let decrypt_here = || match load(&without_encryption(bytes), false) {
        Ok(doc) => decrypted(doc),
        Err(PdfError::Damaged) => Err(PdfError::Encrypted),
        Err(other) => Err(other),
    };
    let mut doc = match loaded {
        // Only its attachments are encrypted (its streams' and strings' filters are
        // `/Identity`): the pages are in the clear, and poppler reads them whatever the
        // attachments' password. The file is loaded again as if not encrypted.
        Err(PdfError::Encrypted) if only_attachments_encrypted(bytes) => {
            load(&without_encryption(bytes), false)?
        }
        // Encryption lopdf could not undo as it loaded the file: tried again here.
        Err(PdfError::Encrypted) => decrypt_here()?,
        other => other?,
    };
    // lopdf rebuilds a page tree it could not read only when no filter is given; with
    // ours, the rebuild is asked for here.
    if page_tree(&doc).is_empty() {
        // Dropped first: two loads never live at once.
        drop(doc);
        doc = load(bytes, true)?;
    }
    // lopdf decrypts a file whose user password is empty as it loads it, but only with an
    // `/ID`; poppler takes a missing one as empty, and so do we: the file is loaded again
    // with `/ID [<> <>]` written into its trailer (a copy of the bytes, this once).
    if doc.is_encrypted()
        && doc.trailer.get(b"ID").is_err()
        && let Some(patched) = with_empty_id(bytes)
    {
        drop(doc);
        doc = load(&patched, false)?;
    }
    // Only its attachments encrypted, under a password lopdf did not get past: the pages
    // are in the clear (see above).
    if doc.is_encrypted() && only_attachments_encrypted(bytes) {
        drop(doc);
        doc = load(&without_encryption(bytes), false)?;
    }
    // One still encrypted needs a password we don't have, unless its encryption is one
    // lopdf leaves alone (an `/Encrypt` that is no dictionary).
    if doc.is_encrypted() {
        drop(doc);
        doc = decrypt_here()?;
    }
    let mut pages = page_tree(&doc);
    // A page whose content the cross-reference table lost (an offset that points
    // nowhere, an entry that is gone): poppler rebuilds the table from the objects
    // themselves, and so does lopdf when asked. Not for an encrypted file, whose bytes
    // were read patched.
    let lost = |doc: &Document, pages: &std::collections::BTreeMap<u32, ObjectId>| {
        pages.values().any(|&page| {
            doc.get_dictionary(page).is_err()
                || doc
                    .get_page_contents(page)
                    .iter()
                    .any(|&id| doc.get_object(id).and_then(Object::as_stream).is_err())
        })
    };
    if !pages.is_empty() && !declares_encryption(bytes) && lost(&doc, &pages) {
        drop(doc);
        doc = load(bytes, true)?;
        pages = page_tree(&doc);
    }
    // A page tree whose root is itself a page (poppler reads it as the only page).
    if pages.is_empty()
        && let Ok(Object::Reference(root)) = doc.catalog().and_then(|c| c.get(b"Pages"))
        && doc
            .get_dictionary(*root)
            .is_ok_and(|page| page.has_type(b"Page"))
    {
        pages.insert(1, *root);
    }
    // lopdf loads a file whose user password is not empty without decrypting it (and
    // without saying so): its objects are ciphertext, so no page is found. Decrypted here,
    // it needs a password (Encrypted), or opens and has pages after all (an /Encrypt that
    // is no dictionary), or opens and has none that can be read (Damaged).
    if pages.is_empty() && declares_encryption(bytes) {
        drop(doc);
        doc = decrypt_here()?;
        pages = page_tree(&doc);
    }
    if pages.is_empty() {
        return Err(PdfError::Damaged);
    }
    resolve_stream_filters(&mut doc);
    recover_unbounded_streams(&mut doc, bytes);
    let doc = doc;
    let mut walker = Walker {
        doc: &doc,
        deadline,
        given_up,
        ops: 0,
        fonts: HashMap::new(),
        text_bytes: 0,
        lost_font: false,
    };
    let mut texts = Vec::with_capacity(pages.len());
    let mut unread = Vec::new();
    let mut broken_pages = 0;
    for (index, page_id) in pages.into_values().enumerate() {
        let page = walker.page(page_id).map_err(|stop| match stop {
            Stop::Timeout => PdfError::Timeout,
            Stop::TooMuchText | Stop::TooLarge => PdfError::TooLarge,
        })?;
        broken_pages += usize::from(page.broken);
        if let Some(why) = page.unread {
            unread.push((index, why));
        }
        // Normalised page by page, so the raw text of one page at most is held twice.
        texts.push(normalise(&page.text));
    }
    // Pages whose content is broken but that gave no text are no "text layer missing":
    // the file is damaged (the random byte flips of a fuzzer end here), or its content
    // inflates past what is read (a stream of a gigabyte is no damage).
    if (broken_pages > 0 || !unread.is_empty()) && texts.iter().all(String::is_empty) {
        return Err(
            match unread.iter().any(|&(_, why)| why == Unread::TooLarge) {
                true => PdfError::TooLarge,
                false => PdfError::Damaged,
            },
        );
    }
    Ok(PdfText {
        pages: texts,
        unread,
    })
}

/// The pages of the document's page tree in order. lopdf's walk follows a `/Kids` that
/// leads back to a node already entered (a loop) again and again, so a page came out
/// twice, or the walk gave up before it found any; a `/Type /Pages` node is entered once
/// here, as poppler reads such a tree ("Loop in Pages tree"), which also keeps the walk
/// linear in the file whatever nodes are shared. A page listed twice is two pages, as
/// poppler counts it. Otherwise as lopdf reads it: `/Type /Page` leaves are pages, a kid
/// that is no object keeps its place as a page (it is read as one whose content is
/// lost), and other kids are passed over. An explicit stack: no depth of tree can
/// exhaust the thread's.
fn page_tree(doc: &Document) -> std::collections::BTreeMap<u32, ObjectId> {
    let root = doc
        .catalog()
        .and_then(|catalog| catalog.get(b"Pages"))
        .and_then(Object::as_reference);
    let Ok(root) = root else {
        return Default::default();
    };
    let mut entered = std::collections::HashSet::new();
    let mut pages = Vec::new();
    // Each node's kids, last first, so that they pop in order.
    let kids = |id: ObjectId| -> Vec<ObjectId> {
        doc.get_dictionary(id)
            .and_then(|node| node.get_deref(b"Kids", doc))
            .and_then(Object::as_array)
            .map(|kids| {
                kids.iter()
                    .rev()
                    .filter_map(|kid| kid.as_reference().ok())
                    .collect()
            })
            .unwrap_or_default()
    };
    entered.insert(root);
    let mut stack = kids(root);
    while let Some(id) = stack.pop() {
        match doc.get_dictionary(id).and_then(Dictionary::get_type) {
            Ok(b"Pages") => {
                if entered.insert(id) {
                    stack.extend(kids(id));
                }
            }
            Ok(b"Page") | Err(_) => pages.push(id),
            Ok(_) => {}
        }
    }
    (1..).zip(pages).collect()
}

/// Whether the file names an `/Encrypt` dictionary (in a trailer or a cross-reference
/// stream, which are never encrypted themselves); `/EncryptMetadata` does not count.
fn declares_encryption(bytes: &[u8]) -> bool {
    const KEY: &[u8] = b"/Encrypt";
    bytes.windows(KEY.len() + 1).any(|window| {
        window.starts_with(KEY)
            && matches!(
                window[KEY.len()],
                b' ' | b'\t' | b'\r' | b'\n' | b'0'..=b'9' | b'<'
            )
    })
}

/// Whether the file's crypt filters (`/CF`) are written as a reference to a dictionary,
/// which lopdf does not follow.
fn indirect_crypt_filters(bytes: &[u8]) -> bool {
    memchr::memmem::find_iter(bytes, b"/CF").any(|at| {
        let rest = &bytes[at + 3..];
        let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
        rest.first().is_some_and(u8::is_ascii_digit)
    })
}

/// A document loaded as if it were not encrypted (its `/Encrypt` renamed, see
/// [`without_encryption`]), decrypted with the empty password, as poppler opens it:
/// - an `/Encrypt` that is no dictionary (a damaged file) is no encryption: the file is
///   read as it is; one written into the trailer becomes an object of its own;
/// - crypt filters written elsewhere are brought into the dictionary, where lopdf looks;
/// - a V4 dictionary whose RC4 key is shorter than 128 bits (which lopdf refuses) is read
///   as V2, the same RC4 with the same key for strings and streams alike.
///
/// [`PdfError::Encrypted`] when the empty password does not open it.
fn decrypted(mut doc: Document) -> Result<Document, PdfError> {
    let (id, mut encrypt) = match doc.trailer.get(b"Encrypx") {
        Ok(Object::Reference(id)) => match doc.get_dictionary(*id) {
            Ok(encrypt) => (*id, encrypt.clone()),
            Err(_) => return Ok(doc),
        },
        // Written into the trailer: lopdf decrypts only with one of its own.
        Ok(Object::Dictionary(encrypt)) => {
            let encrypt = encrypt.clone();
            (doc.new_object_id(), encrypt)
        }
        _ => return Ok(doc),
    };
    let filters = get(&doc, &encrypt, b"CF")
        .and_then(|filters| filters.as_dict().ok())
        .map(|filters| {
            let mut direct = Dictionary::new();
            for (name, filter) in filters {
                if let Some(Object::Dictionary(filter)) = resolve(&doc, filter) {
                    direct.set(name.clone(), Object::Dictionary(filter.clone()));
                }
            }
            direct
        });
    if let Some(filters) = filters {
        let method = |key: &[u8]| {
            let name = encrypt.get(key).and_then(Object::as_name).ok()?;
            let filter = filters.get(name).and_then(Object::as_dict).ok()?;
            filter.get(b"CFM").and_then(Object::as_name).ok()
        };
        let short_key = encrypt
            .get(b"Length")
            .and_then(Object::as_i64)
            .is_ok_and(|bits| bits < 128);
        let rc4 = method(b"StmF") == Some(b"V2") && method(b"StrF") == Some(b"V2");
        if encrypt.get(b"V").and_then(Object::as_i64).ok() == Some(4) && short_key && rc4 {
            encrypt.set("V", Object::Integer(2));
        }
        encrypt.set("CF", Object::Dictionary(filters));
    }
    doc.objects.insert(id, Object::Dictionary(encrypt));
    doc.trailer.remove(b"Encrypx");
    doc.trailer.set("Encrypt", Object::Reference(id));
    // An object that fails to decrypt (an image the load filter emptied) is no failure
    // of the password: only a document still encrypted is.
    if doc.decrypt("").is_err() && doc.is_encrypted() {
        return Err(PdfError::Encrypted);
    }
    Ok(doc)
}

/// Whether the file's encryption dictionary (written in the clear, not inside an object
/// stream) leaves streams and strings alone: `/StmF /Identity` and `/StrF /Identity`.
fn only_attachments_encrypted(bytes: &[u8]) -> bool {
    let identity = |key: &[u8]| {
        memchr::memmem::find_iter(bytes, key).any(|at| {
            let rest = &bytes[at + key.len()..];
            let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
            rest.starts_with(b"/Identity")
        })
    };
    identity(b"/StmF") && identity(b"/StrF")
}

/// The file with its `/Encrypt` entries renamed (`/Encrypx`, the same length, so no
/// offset moves): lopdf then reads it as a file in the clear.
fn without_encryption(bytes: &[u8]) -> Vec<u8> {
    let mut patched = bytes.to_vec();
    const KEY: &[u8] = b"/Encrypt";
    let found: Vec<usize> = memchr::memmem::find_iter(bytes, KEY)
        .filter(|&at| {
            matches!(
                bytes.get(at + KEY.len()),
                Some(b' ' | b'\t' | b'\r' | b'\n' | b'0'..=b'9' | b'<')
            )
        })
        .collect();
    for at in found {
        patched[at + KEY.len() - 1] = b'x';
    }
    patched
}

/// The file with `/ID [<> <>]` written into the dictionary of its last trailer (or
/// cross-reference stream), where `startxref` points; nothing that any offset names moves.
/// `None` when that dictionary can't be found.
fn with_empty_id(bytes: &[u8]) -> Option<Vec<u8>> {
    let find = |from: usize, what: &[u8]| {
        bytes
            .get(from..)?
            .windows(what.len())
            .position(|w| w == what)
            .map(|at| from + at)
    };
    let startxref = bytes.windows(9).rposition(|w| w == b"startxref")?;
    let digits: String = bytes[startxref + 9..]
        .iter()
        .skip_while(|b| b.is_ascii_whitespace())
        .take_while(|b| b.is_ascii_digit())
        .map(|&b| char::from(b))
        .collect();
    let offset: usize = digits.parse().ok().filter(|&o| o < bytes.len())?;
    let dictionary = if bytes[offset..].starts_with(b"xref") {
        find(find(offset, b"trailer")?, b"<<")?
    } else {
        find(offset, b"<<").filter(|&at| at < offset + 64)?
    };
    let at = dictionary + 2;
    let mut patched = Vec::with_capacity(bytes.len() + 16);
    patched.extend_from_slice(&bytes[..at]);
    patched.extend_from_slice(b" /ID [<> <>] ");
    patched.extend_from_slice(&bytes[at..]);
    Some(patched)
}

/// Reads the data of every stream whose `/Length` is missing or no integer up to its
/// `endstream`, as poppler does: lopdf leaves such a stream empty, and a page drawn by
/// one would have no text. Image data is never read for text, and the data recovered
/// over all streams is at most the file's size.
fn recover_unbounded_streams(doc: &mut Document, bytes: &[u8]) {
    // lopdf's offsets count from the file's `%PDF-`, as it reads from there.
    let base = memchr::memmem::find(bytes, b"%PDF-").unwrap_or(0);
    let has_length = |doc: &Document, stream: &lopdf::Stream| {
        stream
            .dict
            .get(b"Length")
            .ok()
            .and_then(|length| resolve(doc, length))
            .is_some_and(|length| matches!(length, Object::Integer(n) if *n >= 0))
    };
    let mut found = Vec::new();
    for (id, object) in &doc.objects {
        let Object::Stream(stream) = object else {
            continue;
        };
        let is_image =
            matches!(stream.dict.get(b"Subtype"), Ok(Object::Name(name)) if name == b"Image");
        if let Some(start) = stream.start_position
            && stream.content.is_empty()
            && !is_image
            && !has_length(doc, stream)
        {
            found.push((*id, start));
        }
    }
    let mut room = bytes.len();
    for (id, start) in found {
        let Some(data) = bytes.get(base.saturating_add(start)..) else {
            continue;
        };
        let Some(end) = memchr::memmem::find(data, b"endstream") else {
            continue;
        };
        // The end-of-line before `endstream` is not data.
        let mut data = &data[..end];
        data = data.strip_suffix(b"\n").unwrap_or(data);
        data = data.strip_suffix(b"\r").unwrap_or(data);
        if data.len() > room.min(MAX_STREAM_BYTES) {
            break;
        }
        room -= data.len();
        if let Some(Object::Stream(stream)) = doc.objects.get_mut(&id) {
            stream.set_content(data.to_vec());
        }
    }
}

/// Writes the `/Filter` and `/DecodeParms` of every stream in place where they are
/// indirect (`/Filter 6 0 R`, `/Filter [6 0 R]`): lopdf reads only direct ones, and
/// would take a compressed page for one without text. One pass over the objects.
fn resolve_stream_filters(doc: &mut Document) {
    let direct = |doc: &Document, object: &Object| -> Option<Object> {
        let resolved = |o: &Object| match o {
            Object::Reference(id) => doc.get_object(*id).ok().cloned(),
            other => Some(other.clone()),
        };
        match resolved(object)? {
            // Elements of an array may be indirect too (at most a few filters).
            Object::Array(items) => Some(Object::Array(
                items.iter().take(16).filter_map(resolved).collect(),
            )),
            other => Some(other),
        }
    };
    let is_indirect = |object: &Object| match object {
        Object::Reference(_) => true,
        Object::Array(items) => items.iter().any(|o| matches!(o, Object::Reference(_))),
        _ => false,
    };
    let mut fixes = Vec::new();
    for (id, object) in &doc.objects {
        let Object::Stream(stream) = object else {
            continue;
        };
        for key in [&b"Filter"[..], b"DecodeParms"] {
            if let Ok(value) = stream.dict.get(key)
                && is_indirect(value)
                && let Some(value) = direct(doc, value)
            {
                fixes.push((*id, key, value));
            }
        }
    }
    for (id, key, value) in fixes {
        if let Some(Object::Stream(stream)) = doc.objects.get_mut(&id) {
            stream.dict.set(key.to_vec(), value);
        }
    }
}

/// A page's raw text, and whether some of its content could not be read.
struct PageText {
    text: String,
    broken: bool,
    /// Why some of its content was not read, when a reader should be told: damage, or
    /// content past the bound.
    unread: Option<Unread>,
}

/// Where to look names up: the resource dictionaries in force, nearest first.
type Resources<'a> = Vec<&'a Dictionary>;

/// Walks content streams, with what is shared by all pages.
struct Walker<'a> {
    doc: &'a Document,
    deadline: Option<Instant>,
    /// Set when the caller stopped waiting (its deadline, or the call was cancelled).
    given_up: &'a AtomicBool,
    /// Operators seen since the last clock check.
    ops: usize,
    /// Fonts already read, by the address of their dictionary (the document is not
    /// changed while we walk it, so an address names one font).
    fonts: HashMap<usize, Rc<Font>>,
    /// Text bytes produced over all pages, against [`MAX_TEXT_BYTES`].
    text_bytes: usize,
    /// The page being walked drew text with a font the file does not have.
    lost_font: bool,
}

/// The state one page's walk needs.
struct Page {
    lines: Lines,
    /// Content bytes inflated for this page so far, against [`MAX_PAGE_CONTENT_BYTES`].
    inflated: usize,
    /// Forms being drawn, outermost first: to refuse one that draws itself.
    forms: Vec<ObjectId>,
    broken: bool,
    state: State,
    saved: Vec<State>,
    /// `q`s beyond [`MAX_SAVED_STATES`] not yet matched by a `Q`.
    unsaved: usize,
    /// The saved states a `Q` may not restore: those saved before the form being drawn
    /// (a form's unmatched `Q` must not undo its page's `q`, as in poppler).
    floor: usize,
    /// The text matrix and the text line matrix (§9.4.2).
    tm: Matrix,
    tlm: Matrix,
    /// Open marked-content sequences (§14.6), whether each is the one with the
    /// `ActualText` being collected.
    marked: Vec<bool>,
    /// Text that replaces the glyphs drawn inside its sequence (§14.9.4), as pdftotext
    /// reads it: an emoji drawn as a picture glyph, a ligature, a shaped word.
    actual: Option<Actual>,
    /// Where glyphs show; those outside are dropped, as pdftotext drops them.
    paper: Option<Paper>,
}

/// An `ActualText` being collected: the text, and where the glyphs it replaces went.
struct Actual {
    text: String,
    /// Where the first glyph started: its rotation, x, baseline and size.
    start: Option<(Rotation, f32, f32, f32)>,
    /// Where the last glyph ended.
    end: f32,
}

/// The graphics state that matters to text (§8.4, §9.3): saved by `q`, restored by `Q`.
#[derive(Clone)]
struct State {
    ctm: Matrix,
    font: Option<Rc<Font>>,
    size: f32,
    char_spacing: f32,
    word_spacing: f32,
    /// Horizontal scaling as a factor (`Tz` is in percent).
    scaling: f32,
    leading: f32,
    rise: f32,
}

impl State {
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

fn matrix(operands: &[Object]) -> Option<Matrix> {
    (operands.len() >= 6).then(|| std::array::from_fn(|i| number(operands.get(i))))
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
            floor: 0,
            tm: IDENTITY,
            tlm: IDENTITY,
            marked: Vec::new(),
            actual: None,
            paper: Paper::of(self.doc, page_id),
        };
        self.lost_font = false;
        // A page the file does not have (a kid that is no object) lost all it held, and
        // one whose resources are no object lost its fonts.
        let mut unread = match self.doc.get_dictionary(page_id) {
            Ok(dict) => dangling(self.doc, dict, b"Resources").then_some(Unread::Damaged),
            Err(_) => Some(Unread::Damaged),
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
            unread = Some(Unread::Damaged);
        }
        match self
            .doc
            .get_page_content_with_limit(page_id, MAX_PAGE_CONTENT_BYTES)
        {
            Ok(content) => {
                page.inflated = content.len();
                self.run(&mut page, &content, &resources)?;
            }
            // Content that inflates past the bound is no damage.
            Err(lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded {
                ..
            })) => {
                page.broken = true;
                unread = Some(Unread::TooLarge);
            }
            Err(_) => {
                page.broken = true;
                unread = Some(Unread::Damaged);
            }
        }
        page.end_actual_text();
        self.annotations(&mut page, page_id)?;
        if self.lost_font {
            unread = unread.or(Some(Unread::Damaged));
        }
        Ok(PageText {
            text: page.lines.text,
            broken: page.broken,
            unread,
        })
    }

    fn check_deadline(&self) -> Result<(), Stop> {
        if self.given_up.load(Ordering::Relaxed) {
            return Err(Stop::Timeout);
        }
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => Err(Stop::Timeout),
            _ => Ok(()),
        }
    }

    /// Follows one content stream, the page's or a form's.
    fn run(
        &mut self,
        page: &mut Page,
        content: &[u8],
        resources: &Resources<'a>,
    ) -> Result<(), Stop> {
        // lopdf parses an operation's operands into one list: one that would take more
        // than its share of the budget is refused before it is parsed.
        if bounds::largest_operation(content) > bounds::MAX_OPERATION_TOKENS {
            return Err(Stop::TooLarge);
        }
        let mut operations = content::operations(content);
        for operation in operations.by_ref() {
            self.ops += 1;
            if self.ops >= OPS_PER_CLOCK_CHECK {
                self.ops = 0;
                self.check_deadline()?;
            }
            self.operate(page, operation.operator, &operation.operands, resources)?;
        }
        page.broken |= operations.stray;
        Ok(())
    }

    fn operate(
        &mut self,
        page: &mut Page,
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
                } else if page.saved.len() > page.floor
                    && let Some(saved) = page.saved.pop()
                {
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
                        // A vertical font's numbers move it along y (§9.4.3).
                        _ => {
                            let state = &page.state;
                            let shift = -number(Some(item)) / 1000.0 * state.size;
                            let step = match state.font.as_ref().and_then(|f| f.vertical) {
                                Some(_) => translation(0.0, shift),
                                None => translation(shift * state.scaling, 0.0),
                            };
                            page.tm = multiply(&step, &page.tm);
                        }
                    }
                }
            }
            "Do" => {
                if let Some(Object::Name(name)) = operands.first() {
                    self.form(page, name, resources)?;
                }
            }
            "BMC" => page.marked.push(false),
            "BDC" => {
                let doc = self.doc;
                // Only a property list written inline, as poppler reads it (a named one
                // from the resources' /Properties is left alone).
                let properties = match operands.get(1) {
                    Some(Object::Dictionary(dict)) => Some(dict),
                    _ => None,
                };
                let actual = properties
                    .and_then(|p| get(doc, p, b"ActualText"))
                    .and_then(|text| lopdf::decode_text_string(text).ok());
                match actual {
                    // Nested ones are read as the outer one says.
                    Some(text) if page.actual.is_none() => {
                        page.actual = Some(Actual {
                            text,
                            start: None,
                            end: 0.0,
                        });
                        page.marked.push(true);
                    }
                    _ => page.marked.push(false),
                }
            }
            "EMC" => page.end_marked(),
            _ => {}
        }
        Ok(())
    }

    /// Looks a font up by its resource name, reading it the first time.
    fn font(&mut self, resources: &Resources<'a>, name: &[u8]) -> Option<Rc<Font>> {
        let doc = self.doc;
        let dict = resources.iter().find_map(|res| {
            get(doc, res, b"Font")
                .and_then(|fonts| fonts.as_dict().ok())
                .and_then(|fonts| get(doc, fonts, name))
                .and_then(|font| font.as_dict().ok())
        });
        // A font the file lost (a truncated file): the text drawn with it is lost too.
        if dict.is_none()
            && resources.iter().any(|res| {
                dangling(doc, res, b"Font")
                    || get(doc, res, b"Font")
                        .and_then(|fonts| fonts.as_dict().ok())
                        .is_some_and(|fonts| dangling(doc, fonts, name))
            })
        {
            self.lost_font = true;
        }
        let dict = dict?;
        let key = std::ptr::from_ref(dict).addr();
        let font = self
            .fonts
            .entry(key)
            .or_insert_with(|| Rc::new(Font::read(doc, dict)));
        Some(Rc::clone(font))
    }

    /// Shows a string: its text goes to the layout at the point it is drawn, and the
    /// text matrix advances past it.
    fn show(&mut self, page: &mut Page, string: Option<&Object>) -> Result<(), Stop> {
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
            for code in font.codes(bytes) {
                self.place(page, &font, &bytes[code.start..code.end])?;
            }
            Ok(())
        } else {
            self.place(page, &font, bytes)
        }
    }

    /// Puts the text of `bytes` where the text matrix says, and advances it by their widths
    /// (down the page for a vertical font). Glyphs that fall outside the page are skipped,
    /// as pdftotext skips them.
    fn place(&mut self, page: &mut Page, font: &Font, bytes: &[u8]) -> Result<(), Stop> {
        let state = &page.state;
        // The way the pen moves in text space.
        let (dx, dy) = match font.vertical {
            Some(_) => (0.0, -1.0),
            None => (1.0, 0.0),
        };
        let along = |distance: f32| translation(distance * dx, distance * dy);
        // Text space to user space, for the glyphs' positions on the page.
        let to_user = multiply(&page.tm, &state.ctm);
        let shown = |at: f32, width: f32| {
            page.paper.is_none_or(|paper| {
                let (px, py) = (at * dx, at * dy + state.rise);
                let (wx, wy) = (width * dx, width * dy);
                paper.shows(
                    px * to_user[0] + py * to_user[2] + to_user[4],
                    px * to_user[1] + py * to_user[3] + to_user[5],
                    wx * to_user[0] + wy * to_user[2],
                    wx * to_user[1] + wy * to_user[3],
                )
            })
        };
        // The spacing after the last glyph moves the pen but is no ink: the layout must
        // see the gap it leaves before the next string.
        let mut advance = 0.0;
        // Blank glyphs before the first one with text: the ink starts after them.
        let mut lead = 0.0;
        // Where the ink of the last glyph shown ends.
        let mut ink_end = 0.0;
        let mut text = String::new();
        for code in font.codes(bytes) {
            let mut trailing = state.char_spacing;
            if code.is_word_space() {
                trailing += state.word_spacing;
            }
            // Spacing widens a horizontal advance, and shortens a vertical one (§9.4.4).
            let (width, spacing) = match font.vertical {
                Some(down) => (down / 1000.0 * state.size, -trailing),
                None => (
                    font.width(code) / 1000.0 * state.size * state.scaling,
                    trailing * state.scaling,
                ),
            };
            let step = width + spacing;
            let at = advance;
            advance += step;
            // The glyph's own width, without the spacing after it, as poppler tests it.
            if !shown(at, width) {
                if text.is_empty() {
                    lead = advance;
                }
                continue;
            }
            ink_end = advance - spacing;
            let before = text.len();
            font.decode(code, &mut text);
            // A glyph with no text that moves the pen as a space does (a space the font's
            // encoding calls `.notdef`, or lacks) still parts words, as its gap does in
            // pdftotext's layout.
            if text.is_empty() {
                lead = advance;
            } else if text.len() == before
                && step.abs() > Lines::SPACE * (state.size * state.scaling).abs()
                && !text.ends_with(' ')
            {
                text.push(' ');
            }
        }
        let render = [
            state.size * state.scaling,
            0.0,
            0.0,
            state.size,
            0.0,
            state.rise,
        ];
        let start = multiply(
            &multiply(&render, &multiply(&along(lead), &page.tm)),
            &state.ctm,
        );
        let size = start[2].hypot(start[3]);
        let end = multiply(
            &multiply(&render, &multiply(&along(ink_end), &page.tm)),
            &state.ctm,
        );
        page.tm = multiply(&along(advance), &page.tm);
        self.text_bytes += text.len();
        if self.text_bytes > MAX_TEXT_BYTES {
            return Err(Stop::TooMuchText);
        }
        // A vertical font's lines run down its glyphs' up axis.
        let direction = match font.vertical {
            Some(_) => (-start[2], -start[3]),
            None => (start[0], start[1]),
        };
        // Lines run along the text's direction (a quarter turn at a time, as pdftotext
        // reads rotated text): positions are taken in a frame turned with the text.
        let rotation = Rotation::of(direction.0, direction.1);
        let (x0, y) = rotation.unturn(start[4], start[5]);
        let (x1, _) = rotation.unturn(end[4], end[5]);
        match &mut page.actual {
            Some(actual) => {
                actual.start.get_or_insert((rotation, x0, y, size));
                actual.end = x1;
            }
            None => page.lines.push(rotation, x0, x1, y, size, &text),
        }
        Ok(())
    }

    /// Draws a form XObject (§8.10): its own content, with its resources, under its matrix.
    /// Images and unknown names are skipped.
    fn form(
        &mut self,
        page: &mut Page,
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
        if !is_form {
            return Ok(());
        }
        self.draw_form(page, id, stream, resources)
    }

    /// Draws a form's content with its own resources (then `resources`), under its matrix.
    fn draw_form(
        &mut self,
        page: &mut Page,
        id: ObjectId,
        stream: &'a lopdf::Stream,
        resources: &Resources<'a>,
    ) -> Result<(), Stop> {
        let doc = self.doc;
        if page.forms.len() >= MAX_FORM_DEPTH || page.forms.contains(&id) {
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
        if let Some(m) = form_numbers(doc, stream, b"Matrix").filter(|m| m.len() == 6) {
            let m: Matrix = std::array::from_fn(|i| m[i]);
            page.state.ctm = multiply(&m, &page.state.ctm);
        }
        // A form saves and restores states within its own: what it leaves saved is
        // dropped, and it restores none saved before it.
        let (floor, unsaved) = (page.floor, page.unsaved);
        (page.floor, page.unsaved) = (page.saved.len(), 0);
        page.forms.push(id);
        let outcome = self.run(page, &content, &form_resources);
        page.forms.pop();
        page.saved.truncate(page.floor);
        (page.floor, page.unsaved) = (floor, unsaved);
        (page.state, page.tm, page.tlm) = (saved_state, tm, tlm);
        outcome
    }

    /// Draws the page's visible annotations after its content (§12.5): each one's normal
    /// appearance, else the text poppler would make one of.
    fn annotations(&mut self, page: &mut Page, page_id: ObjectId) -> Result<(), Stop> {
        let doc = self.doc;
        let Ok(annotations) = doc.get_page_annotations(page_id) else {
            return Ok(());
        };
        let form = doc
            .catalog()
            .ok()
            .and_then(|catalog| get(doc, catalog, b"AcroForm"))
            .and_then(|form| form.as_dict().ok());
        let regenerate = form
            .and_then(|form| get(doc, form, b"NeedAppearances"))
            .and_then(|b| b.as_bool().ok())
            .unwrap_or(false);
        let defaults: Resources<'a> = form
            .and_then(|form| get(doc, form, b"DR"))
            .and_then(|dr| dr.as_dict().ok())
            .into_iter()
            .collect();
        for annotation in annotations.into_iter().take(MAX_ANNOTATIONS) {
            // Hidden (bit 2) and NoView (bit 6) annotations are not shown on screen.
            let flags = get(doc, annotation, b"F")
                .and_then(|f| f.as_i64().ok())
                .unwrap_or(0);
            if flags & (2 | 32) != 0 {
                continue;
            }
            let Some(rect) = get(doc, annotation, b"Rect")
                .and_then(|r| r.as_array().ok())
                .filter(|r| r.len() == 4)
                .map(|r| -> [f32; 4] {
                    let v: Vec<f32> = r.iter().map(|n| number(resolve(doc, n))).collect();
                    [
                        v[0].min(v[2]),
                        v[1].min(v[3]),
                        v[0].max(v[2]),
                        v[1].max(v[3]),
                    ]
                })
            else {
                continue;
            };
            let subtype = get(doc, annotation, b"Subtype").and_then(|s| s.as_name().ok());
            let value = match subtype {
                Some(b"Widget") => field_value(doc, annotation),
                Some(b"FreeText") => get(doc, annotation, b"Contents")
                    .and_then(|c| lopdf::decode_text_string(c).ok()),
                _ => None,
            };
            let appearance = appearance(doc, annotation);
            page.state = State::new();
            (page.tm, page.tlm) = (IDENTITY, IDENTITY);
            match (appearance, value) {
                (Some((id, stream)), value)
                    if !(regenerate && value.is_some() && subtype == Some(b"Widget")) =>
                {
                    page.state.ctm = placement(doc, stream, rect);
                    self.draw_form(page, id, stream, &defaults)?;
                }
                (_, Some(value)) => {
                    let size = font_size(doc, annotation, form).clamp(1.0, 1000.0);
                    let mut y = rect[3] - size;
                    for line in value.split(['\r', '\n']) {
                        page.lines
                            .push(Rotation::None, rect[0], rect[2], y, size, line);
                        y -= size * 1.2;
                    }
                }
                _ => {}
            }
            self.check_deadline()?;
        }
        Ok(())
    }
}

/// Annotations drawn per page at most: a page of a real form has a few hundred.
const MAX_ANNOTATIONS: usize = 10_000;

/// An annotation's normal appearance stream (`/AP /N`, the one its `/AS` names when
/// there are several).
fn appearance<'a>(
    doc: &'a Document,
    annotation: &'a Dictionary,
) -> Option<(ObjectId, &'a lopdf::Stream)> {
    let normal = get(doc, annotation, b"AP")?
        .as_dict()
        .ok()?
        .get(b"N")
        .ok()?;
    let (id, object) = doc.dereference(normal).ok()?;
    match object {
        Object::Stream(stream) => Some((id?, stream)),
        Object::Dictionary(states) => {
            let state = get(doc, annotation, b"AS")?.as_name().ok()?;
            let (id, object) = doc.dereference(states.get(state).ok()?).ok()?;
            Some((id?, object.as_stream().ok()?))
        }
        _ => None,
    }
}

/// A form's `/BBox` or `/Matrix`, either of which may be written as a reference, as
/// its numbers may.
fn form_numbers(doc: &Document, stream: &lopdf::Stream, key: &[u8]) -> Option<Vec<f32>> {
    let array = get(doc, &stream.dict, key)?.as_array().ok()?;
    Some(array.iter().map(|n| number(resolve(doc, n))).collect())
}

/// The matrix that puts an appearance's bounding box (under its own matrix) onto the
/// annotation's rectangle (§12.5.5); the form's matrix is applied by `draw_form`.
fn placement(doc: &Document, stream: &lopdf::Stream, rect: [f32; 4]) -> Matrix {
    let numbers = |key: &[u8]| form_numbers(doc, stream, key);
    let bbox = numbers(b"BBox")
        .filter(|b| b.len() == 4)
        .unwrap_or_else(|| rect.to_vec());
    let m = numbers(b"Matrix")
        .filter(|m| m.len() == 6)
        .map_or(IDENTITY, |m| std::array::from_fn(|i| m[i]));
    let corners = [
        (bbox[0], bbox[1]),
        (bbox[2], bbox[1]),
        (bbox[0], bbox[3]),
        (bbox[2], bbox[3]),
    ]
    .map(|(x, y)| (x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]));
    let fold = |f: fn(f32, f32) -> f32, pick: fn(&(f32, f32)) -> f32| {
        corners.iter().map(pick).reduce(f).unwrap_or(0.0)
    };
    let (x0, x1) = (fold(f32::min, |c| c.0), fold(f32::max, |c| c.0));
    let (y0, y1) = (fold(f32::min, |c| c.1), fold(f32::max, |c| c.1));
    let scale = |to: f32, from: f32| {
        if from.abs() > f32::EPSILON {
            to / from
        } else {
            1.0
        }
    };
    let (sx, sy) = (
        scale(rect[2] - rect[0], x1 - x0),
        scale(rect[3] - rect[1], y1 - y0),
    );
    [sx, 0.0, 0.0, sy, rect[0] - x0 * sx, rect[1] - y0 * sy]
}

/// An inheritable attribute: the dictionary's own, or that of the nearest parent that
/// has it (a field's above its widget, a page's in the page tree).
fn inherited<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    let mut dict = dict;
    for _ in 0..16 {
        if let Some(value) = get(doc, dict, key) {
            return Some(value);
        }
        dict = get(doc, dict, b"Parent")?.as_dict().ok()?;
    }
    None
}

/// The text a text or choice field shows: its value (`/V`).
fn field_value(doc: &Document, widget: &Dictionary) -> Option<String> {
    let kind = inherited(doc, widget, b"FT")?.as_name().ok()?;
    if kind != b"Tx" && kind != b"Ch" {
        return None;
    }
    let value = match inherited(doc, widget, b"V")? {
        Object::Array(items) => items
            .iter()
            .filter_map(|item| lopdf::decode_text_string(resolve(doc, item)?).ok())
            .collect::<Vec<_>>()
            .join("\n"),
        other => lopdf::decode_text_string(other).ok()?,
    };
    (!value.trim().is_empty()).then_some(value)
}

/// The font size a field's default appearance (`/DA`, "… /Helv 12 Tf …") asks for; 12
/// for none or "auto" (0).
fn font_size(doc: &Document, widget: &Dictionary, form: Option<&Dictionary>) -> f32 {
    let da = inherited(doc, widget, b"DA")
        .or_else(|| form.and_then(|form| get(doc, form, b"DA")))
        .and_then(|da| da.as_str().ok())
        .unwrap_or(b"");
    let text = String::from_utf8_lossy(da);
    let tokens: Vec<&str> = text.split_whitespace().collect();
    tokens
        .iter()
        .position(|&t| t == "Tf")
        .and_then(|i| tokens.get(i.checked_sub(1)?))
        .and_then(|size| size.parse::<f32>().ok())
        .filter(|size| size.is_finite() && *size > 0.0)
        .unwrap_or(12.0)
}

impl Page {
    /// `EMC`: ends the innermost marked-content sequence.
    fn end_marked(&mut self) {
        if self.marked.pop() == Some(true) {
            self.end_actual_text();
        }
    }

    /// Ends the `ActualText` being collected: its text goes where its glyphs were (none
    /// when it drew none, as pdftotext drops it).
    fn end_actual_text(&mut self) {
        if let Some(Actual {
            text,
            start: Some((rotation, x0, y, size)),
            end,
        }) = self.actual.take()
        {
            self.lines.push(rotation, x0, end, y, size, &text);
        }
    }

    /// `Td`: a new line, offset from the start of the current one.
    fn next_line(&mut self, x: f32, y: f32) {
        self.tlm = multiply(&translation(x, y), &self.tlm);
        self.tm = self.tlm;
    }
}

/// Which way text runs on the page, a quarter turn at a time (counter-clockwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Rotation {
    #[default]
    None,
    Quarter,
    Half,
    ThreeQuarters,
}

impl Rotation {
    /// The rotation nearest the direction `(dx, dy)` in which text advances.
    fn of(dx: f32, dy: f32) -> Rotation {
        if dx.abs() >= dy.abs() {
            if dx >= 0.0 {
                Rotation::None
            } else {
                Rotation::Half
            }
        } else if dy > 0.0 {
            Rotation::Quarter
        } else {
            Rotation::ThreeQuarters
        }
    }

    /// A point in the frame turned with the text: `x` along the text's direction, `y`
    /// along its up (a later line of text has a smaller `y`).
    fn unturn(self, x: f32, y: f32) -> (f32, f32) {
        match self {
            Rotation::None => (x, y),
            Rotation::Quarter => (y, -x),
            Rotation::Half => (-x, -y),
            Rotation::ThreeQuarters => (-y, x),
        }
    }
}

/// The page as pdftotext's text output sees it: its media box (the inherited one, else
/// US Letter, as poppler), turned by its `/Rotate`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Paper {
    /// Left, bottom, right, top.
    mediabox: [f32; 4],
    /// 0, 90, 180 or 270.
    rotate: u16,
}

impl Paper {
    /// The page's paper; `None` for a box too small to hold text (nothing is dropped then).
    fn of(doc: &Document, page_id: ObjectId) -> Option<Paper> {
        let page = doc.get_dictionary(page_id).ok()?;
        let mediabox = inherited(doc, page, b"MediaBox")
            .and_then(|b| b.as_array().ok())
            .filter(|b| b.len() == 4)
            .and_then(|b| {
                let v: Vec<f32> = b
                    .iter()
                    .map(|n| match resolve(doc, n) {
                        Some(n @ (Object::Integer(_) | Object::Real(_))) => Some(number(Some(n))),
                        _ => None,
                    })
                    .collect::<Option<_>>()?;
                Some([
                    v[0].min(v[2]),
                    v[1].min(v[3]),
                    v[0].max(v[2]),
                    v[1].max(v[3]),
                ])
            })
            .unwrap_or([0.0, 0.0, 612.0, 792.0]);
        let rotate = inherited(doc, page, b"Rotate")
            .and_then(|r| r.as_i64().ok())
            .map_or(0, |r| r.rem_euclid(360));
        let rotate = if rotate % 90 == 0 { rotate as u16 } else { 0 };
        let [x0, y0, x1, y1] = mediabox;
        (x1 - x0 >= 1.0 && y1 - y0 >= 1.0).then_some(Paper { mediabox, rotate })
    }

    /// Whether a glyph drawn at `(x, y)` that advances by `(dx, dy)` (user space) is on
    /// the page by poppler's test: its start not past the right or bottom edge, its end
    /// not before the left or top one, in the page's device space (y down, turned).
    fn shows(self, x: f32, y: f32, dx: f32, dy: f32) -> bool {
        let [x0, y0, x1, y1] = self.mediabox;
        let (across, down, step_across, step_down, width, height) = match self.rotate {
            90 => (y - y0, x - x0, dy, dx, y1 - y0, x1 - x0),
            180 => (x1 - x, y - y0, -dx, dy, x1 - x0, y1 - y0),
            270 => (y1 - y, x1 - x, -dy, -dx, y1 - y0, x1 - x0),
            _ => (x - x0, y1 - y, dx, -dy, x1 - x0, y1 - y0),
        };
        !(across + step_across < 0.0 || across > width || down + step_down < 0.0 || down > height)
    }
}

/// Turns strings placed on the page into lines of text.
#[derive(Default)]
struct Lines {
    text: String,
    /// Where the last string ended, in the frame of its rotation: its end's x, its
    /// baseline's y, its font size.
    last: Option<(Rotation, f32, f32, f32)>,
    /// Where the last string started (its x, in the same frame) and where its text
    /// begins in `text`: a string drawn again over it is a duplicate.
    last_start: (f32, usize),
}

impl Lines {
    /// A baseline moved by more than this share of the font size starts a new line;
    /// super- and subscripts move it less.
    const NEW_LINE: f32 = 0.6;
    /// A baseline moved by more than this many font sizes leaves a blank line, as a
    /// paragraph, heading or column break does; ordinary leading is 1.2.
    const BLANK_LINE: f32 = 1.9;
    /// A glyph without text that advances more than this share of the font size stands
    /// for a space, and character spacing past it letter-spaces a string (see `show`):
    /// a word space is a quarter to a third, kerning a few hundredths.
    const SPACE: f32 = 0.15;
    /// A gap between strings wider than this share of the font size parts words, as
    /// poppler's word break does (`minWordBreakSpace`): TeX's thin spaces around
    /// operators and the dots of a leader are wider, kerning is narrower.
    const WORD_BREAK: f32 = 0.1;
    /// A string that starts this far (a share of the font size) back over the last one
    /// overlaps it: an accent and its letter, drawn one over the other.
    const OVERLAP: f32 = 0.1;
    /// The same text drawn again this close (shares of the font size, along the line and
    /// across it) to where it was drawn is a duplicate, as poppler takes it: fake bold
    /// and drop shadows draw every glyph or word twice.
    const DUPLICATE_ALONG: f32 = 0.1;
    const DUPLICATE_ACROSS: f32 = 0.2;

    /// Joins a spacing accent and the letter it is drawn over into one character, as
    /// poppler does: the accent the last string ended with and the letter `text` starts
    /// with, or the letter the last string ended with and an accent that is all of
    /// `text`. Whether it did.
    fn merge_accent(&mut self, text: &str) -> bool {
        let compose = |accent: char, letter: char| {
            tables::ACCENTED
                .binary_search_by(|&(a, l, _)| (a, l).cmp(&(accent, letter)))
                .ok()
                .map(|i| tables::ACCENTED[i].2)
        };
        let mut last_chars = self.text.chars().rev();
        let Some(last) = last_chars.next() else {
            return false;
        };
        let mut chars = text.chars();
        let Some(first) = chars.next() else {
            return false;
        };
        let rest = chars.as_str();
        let merged = match compose(last, first) {
            Some(merged) => Some((merged, rest)),
            None if rest.is_empty() => compose(first, last).map(|merged| (merged, "")),
            None => None,
        };
        let Some((merged, rest)) = merged else {
            return false;
        };
        self.text.pop();
        self.text.push(merged);
        self.text.push_str(rest);
        true
    }

    /// Adds a string drawn from `x0` to `x1` on the baseline `y`, all in the frame of
    /// its rotation; text turned another way than the last starts a line of its own.
    fn push(&mut self, rotation: Rotation, x0: f32, x1: f32, y: f32, size: f32, text: &str) {
        if text.is_empty() {
            return;
        }
        if let Some((last_rotation, last_x, last_y, last_size)) = self.last {
            let height = size.max(last_size).max(f32::EPSILON);
            let rise = (y - last_y).abs();
            let (last_x0, last_text) = self.last_start;
            if rotation == last_rotation
                && (x0 - last_x0).abs() < Self::DUPLICATE_ALONG * height
                && rise < Self::DUPLICATE_ACROSS * height
                && self.text.get(last_text..) == Some(text)
            {
                return;
            }
            if rotation != last_rotation {
                self.text.push('\n');
            } else if rise > Self::NEW_LINE * height {
                self.text.push('\n');
                if rise > Self::BLANK_LINE * height {
                    self.text.push('\n');
                }
            } else if x0 - last_x < -Self::OVERLAP * height && self.merge_accent(text) {
                // An accent drawn over its letter (TeX on OT1 fonts) is one character.
                self.last = Some((rotation, x1.max(last_x), y, size));
                return;
            } else {
                let gap = x0 - last_x;
                // A jump back along the line is a new piece of text drawn over or
                // before the last (a table cell, a marginal note): keep the two apart.
                let apart = gap > Self::WORD_BREAK * height || gap < -height;
                let spaced = self.text.ends_with(char::is_whitespace)
                    || text.starts_with(char::is_whitespace);
                if apart && !spaced {
                    self.text.push(' ');
                }
            }
        }
        self.last_start = (x0, self.text.len());
        self.text.push_str(text);
        self.last = Some((rotation, x1, y, size));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_break_on_baseline_moves_and_space_on_gaps() {
        let mut lines = Lines::default();
        let none = Rotation::None;
        lines.push(none, 0.0, 30.0, 700.0, 10.0, "Hello");
        lines.push(none, 33.0, 60.0, 700.0, 10.0, "world");
        lines.push(none, 60.5, 70.0, 700.0, 10.0, "s");
        lines.push(none, 0.0, 20.0, 688.0, 10.0, "next");
        lines.push(none, 0.0, 20.0, 650.0, 10.0, "para");
        lines.push(Rotation::Quarter, 0.0, 20.0, 650.0, 10.0, "up");
        assert_eq!(lines.text, "Hello worlds\nnext\n\npara\nup");
    }

    #[test]
    fn accents_drawn_over_letters_become_one_character() {
        let mut lines = Lines::default();
        let none = Rotation::None;
        lines.push(none, 0.0, 8.0, 700.0, 10.0, "M");
        lines.push(none, 9.0, 14.0, 700.0, 10.0, "\u{b4}");
        lines.push(none, 10.0, 30.0, 700.0, 10.0, "etro");
        lines.push(none, 33.0, 38.0, 700.0, 10.0, "o");
        lines.push(none, 33.0, 38.0, 700.0, 10.0, "\u{a8}");
        // Not over a letter: a space apart, or overlapping something else.
        lines.push(none, 41.0, 45.0, 700.0, 10.0, "\u{b4}");
        lines.push(none, 44.0, 50.0, 700.0, 10.0, "x");
        assert_eq!(lines.text, "Métro ö \u{b4}x");
    }

    #[test]
    fn rotated_text_is_unturned_into_its_own_frame() {
        // Text running up the page: later glyphs have a larger y, later lines a larger x.
        let quarter = Rotation::of(0.0, 12.0);
        assert_eq!(quarter, Rotation::Quarter);
        assert_eq!(quarter.unturn(100.0, 300.0), (300.0, -100.0));
        let half = Rotation::of(-12.0, 0.1);
        assert_eq!(half, Rotation::Half);
        assert_eq!(half.unturn(500.0, 500.0), (-500.0, -500.0));
        assert_eq!(Rotation::of(0.0, -1.0).unturn(1.0, 2.0), (-2.0, 1.0));
    }

    #[test]
    fn an_empty_id_goes_into_the_last_trailer() {
        let classic = b"%PDF-1.4\nxref\n0 1\ntrailer\n<< /Size 1 >>\nstartxref\n9\n%%EOF";
        let patched = with_empty_id(classic).unwrap();
        assert!(patched.ends_with(b"trailer\n<< /ID [<> <>]  /Size 1 >>\nstartxref\n9\n%%EOF"));
        let stream = b"%PDF-1.5\n1 0 obj\n<< /Type /XRef >>\nstream\nendstream\nstartxref\n9\n";
        assert!(
            with_empty_id(stream)
                .unwrap()
                .starts_with(b"%PDF-1.5\n1 0 obj\n<< /ID [<> <>]  /Type")
        );
        assert_eq!(with_empty_id(b"no trailer"), None);
        assert_eq!(with_empty_id(b"startxref 99999"), None);
        assert!(declares_encryption(b"<< /Encrypt 6 0 R >>"));
        assert!(!declares_encryption(b"<< /EncryptMetadata false >>"));
    }

    #[test]
    fn matrices_compose_in_pdf_order() {
        let scale = [2.0, 0.0, 0.0, 2.0, 0.0, 0.0];
        let moved = multiply(&translation(10.0, 5.0), &scale);
        assert_eq!(moved, [2.0, 0.0, 0.0, 2.0, 20.0, 10.0]);
    }
}
