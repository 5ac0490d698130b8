//! Fonts as text (PDF 32000-1 §9.5–§9.10): how a string's bytes split into codes, the
//! text of each code, and how far each code advances — read the way poppler reads them.
//!
//! - Codes are split by the font's encoding: one byte for simple fonts, two for
//!   `Identity-H`/`-V` and the Unicode CMaps, the code space ranges of an embedded CMap
//!   otherwise. A ToUnicode map's own `codespacerange` splits nothing.
//! - A code's text comes from the ToUnicode map when the map has it, else from the
//!   font's encoding: its `/Differences` (`/.notdef` entries skipped, the others kept)
//!   over its `/BaseEncoding` or built-in encoding (Symbol's and ZapfDingbats' own).
//!   A composite font's code is a CID by its `/Encoding` (a predefined CJK CMap such as
//!   `GBK-EUC-H` splits and maps codes through Adobe's tables, `predefined`), and a
//!   font without a usable ToUnicode map takes the text of its CIDs from its character
//!   collection (`CIDSystemInfo`: Adobe-GB1, -CNS1, -Japan1, -Korea1). Widths are by CID.
//! - A simple font without `/Widths` that is one of the standard 14 (or a common alias,
//!   `Arial` for Helvetica) advances by the standard metrics.

use std::collections::HashMap;
use std::sync::Arc;

use lopdf::{Dictionary, Document, Object};

use super::cmap::{self, CMap, CodeRange};
use super::glyph::glyph_text;
use super::objects::{MAX_STREAM_BYTES, get, number, resolve};
use super::{predefined, tables};

/// What a font gives the layout: its codes, their text and their advances.
pub(super) struct Font {
    space: CodeSpace,
    to_unicode: Option<CMap>,
    /// A simple font's text for each of its 256 codes from its encoding, "" for none.
    simple: Option<Vec<Box<str>>>,
    /// A composite font whose codes are UTF-16 units (`UniGB-UCS2-H`, `UniJIS-UTF16-H`…).
    unicode_codes: bool,
    /// A composite font's CID → text map (its character collection's), when it has no
    /// usable ToUnicode map.
    collection: Option<Arc<hayro_cmap::CMap>>,
    widths: Widths,
    /// Vertical writing (§9.7.4.3): the advance of a composite font whose CMap is a `-V`
    /// one (or says `/WMode 1`) goes down the page, by this many thousandths of the size
    /// (`/DW2`'s second number, negated; 1000 by default). `None` for horizontal fonts.
    pub(super) vertical: Option<f32>,
}

/// How the bytes of a string split into codes.
enum CodeSpace {
    OneByte,
    TwoBytes,
    Ranges(Vec<CodeRange>),
    /// A predefined CMap: a code is as long as the map has CIDs for.
    Predefined(Arc<hayro_cmap::CMap>),
    /// An embedded encoding CMap: codes split by its code space ranges, and mapped to
    /// CIDs by its `cidrange`s (a code none maps is CID 0, as poppler takes it).
    Embedded(CMap),
}

/// One code of a string: where its bytes are, and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Code {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) value: u32,
    /// The glyph it selects: the code itself, but for a predefined CJK CMap's.
    pub(super) cid: u32,
}

impl Code {
    /// §9.3.3: word spacing applies to the single-byte code 32 only.
    pub(super) fn is_word_space(&self) -> bool {
        self.end - self.start == 1 && self.value == 32
    }
}

/// Glyph advances in thousandths of the font size.
pub(super) enum Widths {
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

/// A font that is none of the standard 14 and has no `Widths` is given this average
/// advance: words in one string don't need it, and gaps between strings are then judged
/// a little generously.
const UNKNOWN_WIDTH: f32 = 500.0;

/// Entries read from a composite font's `W` array at most; a range `c1 c2 w` expands
/// to its codes, so a crafted `0 4294967295 w` must not become 4 billion entries.
const MAX_COMPOSITE_WIDTHS: usize = 65_536;

impl Widths {
    pub(super) fn of(&self, code: u32) -> f32 {
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

fn name<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a [u8]> {
    get(doc, dict, key).and_then(|o| o.as_name().ok())
}

impl Font {
    pub(super) fn read(doc: &Document, dict: &Dictionary) -> Font {
        let subtype = name(doc, dict, b"Subtype").unwrap_or(b"");
        let to_unicode = get(doc, dict, b"ToUnicode")
            .and_then(|o| o.as_stream().ok())
            .and_then(|s| s.get_plain_content_with_limit(MAX_STREAM_BYTES).ok())
            .map(|source| CMap::parse(&source));
        if subtype == b"Type0" {
            Font::composite(doc, dict, to_unicode)
        } else {
            Font::simple(doc, dict, subtype, to_unicode)
        }
    }

    fn simple(doc: &Document, dict: &Dictionary, subtype: &[u8], to_unicode: Option<CMap>) -> Font {
        let standard = name(doc, dict, b"BaseFont").and_then(standard_font);
        let (base, differences) = match get(doc, dict, b"Encoding") {
            Some(Object::Name(base)) => (Some(base.as_slice()), None),
            Some(Object::Dictionary(encoding)) => (
                name(doc, encoding, b"BaseEncoding"),
                get(doc, encoding, b"Differences").and_then(|d| d.as_array().ok()),
            ),
            _ => (None, None),
        };
        let builtin = match standard {
            Some("Symbol") => &tables::SYMBOL,
            Some("ZapfDingbats") => &tables::ZAPF_DINGBATS,
            // A TrueType font without an encoding maps its codes through its own cmap,
            // which for text fonts is what WinAnsi says.
            _ if subtype == b"TrueType" => &tables::WIN_ANSI,
            _ => &tables::STANDARD,
        };
        let named = match base {
            Some(b"WinAnsiEncoding") => Some(&tables::WIN_ANSI),
            Some(b"MacRomanEncoding") => Some(&tables::MAC_ROMAN),
            Some(b"MacExpertEncoding") => Some(&tables::MAC_EXPERT),
            Some(b"StandardEncoding") => Some(&tables::STANDARD),
            _ => None,
        };
        // Without a named base, an embedded Type 1 program's own encoding is the base
        // (pdfTeX writes no /Encoding for a math font used as it is encoded).
        let program = match named {
            None => type1_program(doc, dict),
            Some(_) => None,
        };
        let own = program.as_deref().and_then(cmap::type1_encoding);
        let mut names: [&[u8]; 256] =
            std::array::from_fn(|code| named.unwrap_or(builtin).get(code).as_bytes());
        if let Some(own) = &own {
            names = [b"".as_slice(); 256];
            for &(code, glyph) in own {
                names[usize::from(code)] = glyph;
            }
        }
        let mut code: i64 = 0;
        for item in differences.map(Vec::as_slice).unwrap_or(&[]) {
            match resolve(doc, item) {
                Some(Object::Integer(next)) => code = *next,
                Some(Object::Name(glyph)) => {
                    if let Some(slot) = usize::try_from(code).ok().and_then(|c| names.get_mut(c)) {
                        *slot = glyph;
                    }
                    code = code.saturating_add(1);
                }
                _ => {}
            }
        }
        let zapf = standard == Some("ZapfDingbats");
        // A Type 3 font's glyphs are often named for their shapes (`/square`): as poppler,
        // a name it doesn't know stands for its code's character.
        let type3 = subtype == b"Type3";
        let text = names
            .iter()
            .enumerate()
            .map(|(code, glyph)| match glyph_text(glyph, zapf) {
                Some(text) => text,
                None if type3 && !glyph.is_empty() && glyph != b".notdef" => u8::try_from(code)
                    .ok()
                    .filter(|b| b.is_ascii_graphic() || *b >= 0xa0)
                    .map(|b| char::from(b).to_string())
                    .unwrap_or_default(),
                None => String::new(),
            })
            .map(String::into_boxed_str)
            .collect();
        let mut widths = simple_widths(doc, dict, subtype == b"Type3");
        if let (Widths::Simple { widths: w, .. }, Some(metrics)) =
            (&widths, standard.and_then(standard_metrics))
            && w.is_empty()
        {
            let mut standard: Vec<f32> = names
                .iter()
                .map(|glyph| f32::from(metric_width(metrics, glyph)))
                .collect();
            // As poppler: a file that encodes code 32 as `.notdef` still means a space.
            if let Some(space) = standard.get_mut(32)
                && *space == 0.0
            {
                *space = f32::from(metric_width(metrics, b"space"));
            }
            widths = Widths::Simple {
                first: 0,
                widths: standard,
                missing: 0.0,
            };
        }
        Font {
            space: CodeSpace::OneByte,
            to_unicode,
            simple: Some(text),
            unicode_codes: false,
            collection: None,
            widths,
            vertical: None,
        }
    }

    fn composite(doc: &Document, dict: &Dictionary, to_unicode: Option<CMap>) -> Font {
        let from_to_unicode = |to_unicode: &Option<CMap>| match to_unicode {
            Some(cmap) if !cmap.code_ranges.is_empty() => {
                CodeSpace::Ranges(cmap.code_ranges.clone())
            }
            _ => CodeSpace::TwoBytes,
        };
        let vertical = match get(doc, dict, b"Encoding") {
            Some(Object::Name(cmap)) => cmap == b"V" || cmap.ends_with(b"-V"),
            Some(Object::Stream(stream)) => {
                stream.dict.get(b"WMode").and_then(Object::as_i64).ok() == Some(1)
            }
            _ => false,
        };
        let (space, unicode_codes) = match get(doc, dict, b"Encoding") {
            Some(Object::Name(cmap)) => {
                let cmap = cmap.as_slice();
                let contains = |part: &[u8]| cmap.windows(part.len()).any(|w| w == part);
                if cmap.starts_with(b"Identity") {
                    (CodeSpace::TwoBytes, false)
                } else if contains(b"UCS2") || contains(b"UTF16") {
                    (CodeSpace::TwoBytes, true)
                } else if let Some(map) = predefined::cmap(cmap) {
                    (CodeSpace::Predefined(map), false)
                } else {
                    // Another predefined CMap (most mix one- and two-byte codes): the
                    // ToUnicode map's code spaces are the best guess at its own.
                    (from_to_unicode(&to_unicode), false)
                }
            }
            Some(Object::Stream(stream)) => {
                let embedded = stream
                    .get_plain_content_with_limit(MAX_STREAM_BYTES)
                    .map(|source| CMap::parse(&source))
                    .ok();
                match embedded {
                    Some(cmap) if !cmap.code_ranges.is_empty() => {
                        (CodeSpace::Embedded(cmap), false)
                    }
                    _ => (from_to_unicode(&to_unicode), false),
                }
            }
            _ => (CodeSpace::TwoBytes, false),
        };
        // The collection's map is inflated only for a font whose codes have no text
        // otherwise (most CJK PDFs carry ToUnicode maps).
        let usable = to_unicode.as_ref().is_some_and(|map| !map.is_empty());
        let unicode_codes = unicode_codes
            || (!usable && matches!(space, CodeSpace::TwoBytes) && cids_are_unicode(doc, dict));
        let collection = if usable || unicode_codes {
            None
        } else {
            let info = descendant(doc, dict).and_then(|d| get(doc, d, b"CIDSystemInfo"));
            let info = info.and_then(|info| info.as_dict().ok());
            let string = |key: &[u8]| {
                info.and_then(|info| get(doc, info, key))
                    .and_then(|s| s.as_str().ok())
            };
            match (string(b"Registry"), string(b"Ordering"), &space) {
                (Some(registry), Some(ordering), _) => predefined::collection(registry, ordering),
                (_, _, CodeSpace::Predefined(map)) => predefined::collection_of(map),
                _ => None,
            }
        };
        Font {
            space,
            to_unicode,
            simple: None,
            unicode_codes,
            collection,
            widths: composite_widths(doc, dict),
            vertical: vertical.then(|| vertical_advance(doc, dict)),
        }
    }

    /// The codes of a string, in order.
    pub(super) fn codes<'s>(&'s self, bytes: &'s [u8]) -> impl Iterator<Item = Code> + 's {
        let mut pos = 0;
        std::iter::from_fn(move || {
            let rest = bytes.get(pos..).filter(|rest| !rest.is_empty())?;
            let len = match &self.space {
                CodeSpace::OneByte => 1,
                // An odd byte at the end of a two-byte string is no code.
                CodeSpace::TwoBytes if rest.len() < 2 => return None,
                CodeSpace::TwoBytes => 2,
                CodeSpace::Ranges(ranges)
                | CodeSpace::Embedded(CMap {
                    code_ranges: ranges,
                    ..
                }) => (1..=4.min(rest.len()))
                    .find(|&n| ranges.iter().any(|r| r.contains(&rest[..n])))
                    // Bytes in no range take the shortest length there is (as poppler).
                    .unwrap_or_else(|| ranges.iter().map(|r| r.len).min().unwrap_or(1))
                    .min(rest.len()),
                CodeSpace::Predefined(map) => (1..=4.min(rest.len()))
                    .find(|&n| predefined::cid(map, value_of(&rest[..n]), n).is_some())
                    // A byte no length maps: a lead byte of a two-byte code, or one byte.
                    .unwrap_or(if rest[0] >= 0x80 && rest.len() >= 2 {
                        2
                    } else {
                        1
                    }),
            };
            let value = value_of(&rest[..len]);
            let cid = match &self.space {
                CodeSpace::Predefined(map) => predefined::cid(map, value, len).unwrap_or(0),
                CodeSpace::Embedded(map) if !map.cid_ranges.is_empty() => {
                    map.cid(value).unwrap_or(0)
                }
                _ => value,
            };
            let code = Code {
                start: pos,
                end: pos + len,
                value,
                cid,
            };
            pos += len;
            Some(code)
        })
    }

    /// Appends the text of a code.
    pub(super) fn decode(&self, code: Code, out: &mut String) {
        if let Some(text) = self.to_unicode.as_ref().and_then(|map| map.get(code.value)) {
            out.push_str(text);
        } else if let Some(simple) = &self.simple {
            if let Some(text) = usize::try_from(code.value).ok().and_then(|c| simple.get(c)) {
                out.push_str(text);
            }
        } else if self.unicode_codes
            && let Some(c) = char::from_u32(code.value)
        {
            out.push(super::glyph::shown(c));
        } else if let Some(collection) = &self.collection {
            predefined::push_text(collection, code.cid, out);
        }
    }

    pub(super) fn width(&self, code: Code) -> f32 {
        self.widths.of(code.cid)
    }
}

/// A code of one to four bytes as a number.
fn value_of(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0u32, |acc, &b| (acc << 8) | u32::from(b))
}

/// A composite font's CIDFont (the one entry of its `/DescendantFonts`).
fn descendant<'a>(doc: &'a Document, dict: &'a Dictionary) -> Option<&'a Dictionary> {
    get(doc, dict, b"DescendantFonts")
        .and_then(|fonts| fonts.as_array().ok())
        .and_then(|fonts| fonts.first())
        .and_then(|font| resolve(doc, font))
        .and_then(|font| font.as_dict().ok())
}

/// How far a vertical font's glyphs advance down the page, in thousandths of the size:
/// its CIDFont's `/DW2` second number negated, 1000 by default (per-glyph `/W2` widths
/// are not read).
fn vertical_advance(doc: &Document, dict: &Dictionary) -> f32 {
    descendant(doc, dict)
        .and_then(|font| get(doc, font, b"DW2"))
        .and_then(|dw2| dw2.as_array().ok())
        .and_then(|dw2| dw2.get(1))
        .map(|down| -number(resolve(doc, down)))
        .filter(|down| *down > 0.0)
        .unwrap_or(1000.0)
}

/// Whether a composite font without a ToUnicode map numbers its glyphs by Unicode, as
/// poppler reads it: its collection is `Adobe-UCS`, or `Adobe-Identity` (or none it
/// knows) with the CIDs mapped to glyphs by a `CIDToGIDMap` stream (TCPDF writes the
/// text's code points as CIDs so). Under an identity map the CIDs are glyph numbers,
/// which say nothing of the text (poppler prints them as characters all the same).
fn cids_are_unicode(doc: &Document, dict: &Dictionary) -> bool {
    let Some(font) = descendant(doc, dict) else {
        return false;
    };
    let ordering = get(doc, font, b"CIDSystemInfo")
        .and_then(|info| info.as_dict().ok())
        .and_then(|info| get(doc, info, b"Ordering"))
        .and_then(|ordering| ordering.as_str().ok());
    match ordering {
        Some(b"UCS") => true,
        Some(b"GB1" | b"CNS1" | b"Japan1" | b"Korea1") => false,
        _ => matches!(get(doc, font, b"CIDToGIDMap"), Some(Object::Stream(_))),
    }
}

/// The most a Type 1 program may inflate to for its encoding to be read: real ones are a
/// few dozen KiB, and every font of a crafted file may name a bomb.
const MAX_TYPE1_PROGRAM_BYTES: usize = 4 << 20;

/// The program of an embedded Type 1 font (`/FontFile`), inflated, if it has one.
fn type1_program(doc: &Document, dict: &Dictionary) -> Option<Vec<u8>> {
    let descriptor = get(doc, dict, b"FontDescriptor")?.as_dict().ok()?;
    let stream = get(doc, descriptor, b"FontFile")?.as_stream().ok()?;
    stream
        .get_plain_content_with_limit(MAX_TYPE1_PROGRAM_BYTES)
        .ok()
}

/// The standard font a `BaseFont` names, by its metrics' name: the 14 and their usual
/// aliases (`Arial,Bold`, `TimesNewRomanPS-ItalicMT`, `CourierNewPSMT`…), a subset
/// prefix (`ABCDEF+`) ignored.
fn standard_font(base_font: &[u8]) -> Option<&'static str> {
    let base_font = match base_font.get(6) {
        Some(b'+') if base_font[..6].iter().all(u8::is_ascii_uppercase) => &base_font[7..],
        _ => base_font,
    };
    let lower: String = String::from_utf8_lossy(base_font)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let bold = lower.contains("bold");
    let italic = lower.contains("italic") || lower.contains("oblique");
    let pick = |regular, b, i, bi| match (bold, italic) {
        (false, false) => regular,
        (true, false) => b,
        (false, true) => i,
        (true, true) => bi,
    };
    if lower.starts_with("courier") {
        Some(pick(
            "Courier",
            "Courier-Bold",
            "Courier-Oblique",
            "Courier-BoldOblique",
        ))
    } else if lower.starts_with("helvetica") || lower.starts_with("arial") {
        Some(pick(
            "Helvetica",
            "Helvetica-Bold",
            "Helvetica-Oblique",
            "Helvetica-BoldOblique",
        ))
    } else if lower.starts_with("times") {
        Some(pick(
            "Times-Roman",
            "Times-Bold",
            "Times-Italic",
            "Times-BoldItalic",
        ))
    } else if lower.eq_ignore_ascii_case("Symbol") || lower.starts_with("symbolmt") {
        Some("Symbol")
    } else if lower.starts_with("zapfdingbats") || lower == "dingbats" {
        Some("ZapfDingbats")
    } else {
        None
    }
}

fn standard_metrics(font: &str) -> Option<&'static [u16]> {
    tables::METRICS
        .iter()
        .find(|(name, _)| *name == font)
        .map(|(_, widths)| widths.as_slice())
}

fn metric_width(metrics: &[u16], glyph: &[u8]) -> u16 {
    tables::METRIC_GLYPHS
        .find(glyph)
        .and_then(|i| metrics.get(i))
        .copied()
        .unwrap_or(0)
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
    let descendant = descendant(doc, dict);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyph_names_map_as_poppler_maps_them() {
        let text = |name: &str| glyph_text(name.as_bytes(), false);
        assert_eq!(text("fi").as_deref(), Some("\u{fb01}"));
        assert_eq!(text("dotaccent").as_deref(), Some("\u{2d9}"));
        assert_eq!(text(".notdef"), None);
        assert_eq!(text("uni00410042").as_deref(), Some("AB"));
        assert_eq!(text("u1F600").as_deref(), Some("\u{1f600}"));
        assert_eq!(text("a.sc").as_deref(), Some("a"));
        assert_eq!(text("f_f_i").as_deref(), Some("ffi"));
        assert_eq!(text("Omega").as_deref(), Some("\u{2126}"));
        assert_eq!(text("nosuchglyph"), None);
        assert_eq!(text("a121").as_deref(), Some("y"));
        assert_eq!(text("g12"), None);
        assert_eq!(text("abc121"), None);
        assert_eq!(text("uniD800"), None);
        assert_eq!(glyph_text(b"a20", true).as_deref(), Some("\u{2714}"));
    }

    #[test]
    fn standard_fonts_and_their_aliases_are_known() {
        assert_eq!(standard_font(b"Helvetica"), Some("Helvetica"));
        assert_eq!(
            standard_font(b"ABCDEF+Arial,BoldItalic"),
            Some("Helvetica-BoldOblique")
        );
        assert_eq!(standard_font(b"TimesNewRomanPSMT"), Some("Times-Roman"));
        assert_eq!(standard_font(b"Courier-Oblique"), Some("Courier-Oblique"));
        assert_eq!(standard_font(b"Symbol"), Some("Symbol"));
        assert_eq!(standard_font(b"CMR10"), None);
        let helvetica = standard_metrics("Helvetica").unwrap();
        assert_eq!(metric_width(helvetica, b"f"), 278);
        assert_eq!(metric_width(helvetica, b"nosuchglyph"), 0);
        let symbol = standard_metrics("Symbol").unwrap();
        assert_eq!(metric_width(symbol, b"Omega"), 768);
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
