//! Binary and encoding decisions on the first bytes of an input (SPEC §5, §11).

use super::bytes;
use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

/// The binary rules look at this many first bytes.
pub const SNIFF_LEN: usize = 8 * 1024;
/// `--encoding auto` gives the detector this many first bytes.
pub const DETECT_LEN: usize = 64 * 1024;

/// Files with these extensions are binary unless their first 8 KiB are valid text.
const BINARY_EXTENSIONS: &[&str] = &[
    "7z", "a", "apk", "avi", "bin", "bmp", "bz2", "class", "dat", "db", "deb", "dll", "dmg", "doc",
    "docx", "dylib", "ear", "eot", "exe", "flac", "gif", "gz", "h5", "ico", "img", "iso", "jar",
    "jpeg", "jpg", "lib", "m4a", "mkv", "mov", "mp3", "mp4", "npy", "npz", "o", "obj", "odt",
    "ogg", "otf", "parquet", "pdf", "pickle", "pkl", "png", "ppt", "pptx", "psd", "pyc", "pyo",
    "rar", "rlib", "rpm", "so", "sqlite", "sqlite3", "tar", "tgz", "tif", "tiff", "ttf", "war",
    "wasm", "wav", "webm", "webp", "woff", "woff2", "xls", "xlsx", "xz", "zip", "zst",
];

/// What the caller asked for with `--encoding`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodingChoice {
    /// Strict UTF-8 (the default); a BOM or recognisable UTF-16 still wins.
    Utf8,
    /// BOM, else UTF-8 if valid, else a detected legacy encoding.
    Auto,
    /// This encoding (a WHATWG label resolved by encoding_rs).
    Named(&'static Encoding),
}

impl EncodingChoice {
    /// `utf-8`, `auto`, or any WHATWG label.
    pub fn from_label(label: &str) -> Option<EncodingChoice> {
        if label.eq_ignore_ascii_case("auto") {
            return Some(EncodingChoice::Auto);
        }
        // Not the WHATWG "replacement" decoder (`iso-2022-kr`, `hz-gb-2312`, …), which turns
        // any input into one U+FFFD: no encoding to read a file in.
        let encoding = Encoding::for_label_no_replacement(label.trim().as_bytes())?;
        Some(if encoding == UTF_8 {
            EncodingChoice::Utf8
        } else {
            EncodingChoice::Named(encoding)
        })
    }

    /// How many first bytes the sniffer wants.
    pub fn head_len(self) -> usize {
        match self {
            EncodingChoice::Auto => DETECT_LEN,
            _ => SNIFF_LEN,
        }
    }
}

/// How to decode an input that is text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decoding {
    pub encoding: &'static Encoding,
    /// Length of the byte order mark at the start (skipped).
    pub bom_len: usize,
}

impl Decoding {
    /// The name reported in `stats.encoding`: the WHATWG name, lower case.
    pub fn name(&self) -> String {
        self.encoding.name().to_ascii_lowercase()
    }

    pub fn bom(&self) -> bool {
        self.bom_len > 0
    }
}

/// An input shorter than this is never guessed to be UTF-16 (a BOM or `--encoding` still
/// decides).
const TINY_LEN: usize = 8;

/// Decides whether `head` (the first bytes; `complete` when it is the whole input) is text,
/// and how to decode it.
pub fn classify(
    head: &[u8],
    complete: bool,
    file_name: &str,
    choice: EncodingChoice,
) -> Result<Decoding, Evidence> {
    let sample = &head[..head.len().min(SNIFF_LEN)];
    // A byte order mark decides the encoding, whatever was asked (as WHATWG decoding does).
    if let Some((encoding, bom_len)) = Encoding::for_bom(head) {
        let decoding = Decoding { encoding, bom_len };
        return if encoding == UTF_8 {
            check_bytes(
                &sample[bom_len.min(sample.len())..],
                file_name,
                complete,
                decoding,
            )
        } else {
            check_utf16(sample, decoding)
        };
    }
    // A few bytes are too little evidence: `a\0b\n` would pass for UTF-16, so a tiny
    // input holding a NUL is binary, never guessed to be UTF-16 (SPEC §17).
    let tiny = complete && head.len() < TINY_LEN;
    let utf16 = match choice {
        EncodingChoice::Named(e) if e == UTF_16LE || e == UTF_16BE => Some(e),
        EncodingChoice::Named(_) => None,
        _ if tiny => None,
        // UTF-16 without a BOM is recognised and decoded, not refused (SPEC §11): by its
        // NULs when it is mostly ASCII, else by its code units.
        EncodingChoice::Utf8 | EncodingChoice::Auto => {
            recognise_utf16(sample).or_else(|| utf16_by_its_units(sample))
        }
    };
    if let Some(encoding) = utf16 {
        return check_utf16(
            sample,
            Decoding {
                encoding,
                bom_len: 0,
            },
        );
    }
    let encoding = match choice {
        EncodingChoice::Utf8 => UTF_8,
        EncodingChoice::Named(e) => e,
        EncodingChoice::Auto if is_utf8_text(head, complete) => UTF_8,
        EncodingChoice::Auto => detect(head, complete),
    };
    check_bytes(
        sample,
        file_name,
        complete,
        Decoding {
            encoding,
            bom_len: 0,
        },
    )
}

/// Why an input is binary (SPEC §11): the evidence a refusal reports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Evidence {
    /// A NUL byte at this 0-based offset of the first 8 KiB.
    NulByte { offset: u64 },
    /// This fraction (0.42, not 42) of the first 8 KiB are control bytes.
    ControlRatio { ratio: f64 },
    /// A known binary extension whose start is not valid text.
    Extension,
}

/// [`classify`] for an input held whole: its head is its first [`SNIFF_LEN`] bytes.
pub fn classify_whole(
    bytes: &[u8],
    file_name: &str,
    choice: EncodingChoice,
) -> Result<Decoding, Evidence> {
    let head = &bytes[..bytes.len().min(SNIFF_LEN)];
    classify(head, bytes.len() <= SNIFF_LEN, file_name, choice)
}

/// What a binary input is, recognised by its first bytes, so that a refusal can name it
/// and the step that reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recognised {
    /// `PNG`, `JPEG`, `GIF` or `WebP`, with its width and height when the head holds them.
    Image {
        kind: ImageKind,
        size: Option<(u64, u64)>,
    },
    Gzip,
    Bzip2,
    Xz,
    Zstd,
    Zip,
    SevenZip,
    Tar,
    Pdf,
    Elf,
    MachO,
    Pe,
    JavaClass,
    Sqlite,
    /// Text in UTF-16 without a byte order mark, judged by its code units.
    Utf16(&'static Encoding),
}

/// The four image formats an MCP host shows, by their first bytes (imagesize knows many
/// more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
    Gif,
    Webp,
}

impl ImageKind {
    /// The kind whose signature `head` starts with, however short the rest (imagesize
    /// wants more bytes than a signature before it names a kind: a PNG cut after its
    /// signature is a damaged PNG, not a binary file).
    pub fn of(head: &[u8]) -> Option<ImageKind> {
        if head.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(ImageKind::Png)
        } else if head.starts_with(b"\xFF\xD8\xFF") {
            Some(ImageKind::Jpeg)
        } else if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
            Some(ImageKind::Gif)
        } else if head.starts_with(b"RIFF") && head.get(8..12) == Some(&b"WEBP"[..]) {
            Some(ImageKind::Webp)
        } else {
            None
        }
    }

    /// Whether the header a size is read from is one: a PNG's first chunk must be its
    /// 13-byte IHDR (other bytes there would be read as a size all the same).
    pub fn header_sound(self, head: &[u8]) -> bool {
        self != ImageKind::Png || head.get(8..16) == Some(&b"\0\0\0\x0dIHDR"[..])
    }

    /// `PNG`, `JPEG`, `GIF` or `WebP`.
    pub fn name(self) -> &'static str {
        match self {
            ImageKind::Png => "PNG",
            ImageKind::Jpeg => "JPEG",
            ImageKind::Gif => "GIF",
            ImageKind::Webp => "WebP",
        }
    }

    pub fn mime_type(self) -> &'static str {
        match self {
            ImageKind::Png => "image/png",
            ImageKind::Jpeg => "image/jpeg",
            ImageKind::Gif => "image/gif",
            ImageKind::Webp => "image/webp",
        }
    }
}

/// What `head` (the first bytes of an input found to be binary) is, when its magic
/// number, or its code units, say so.
pub fn recognise(head: &[u8]) -> Option<Recognised> {
    let at = |offset: usize, magic: &[u8]| head.get(offset..offset + magic.len()) == Some(magic);
    let u32_at = |offset: usize, big: bool| {
        let bytes: [u8; 4] = head.get(offset..offset + 4)?.try_into().ok()?;
        Some(match big {
            true => u32::from_be_bytes(bytes),
            false => u32::from_le_bytes(bytes),
        })
    };
    if let Some(kind) = ImageKind::of(head) {
        let size = imagesize::blob_size(head)
            .ok()
            .filter(|_| kind.header_sound(head))
            .map(|s| (s.width as u64, s.height as u64));
        return Some(Recognised::Image { kind, size });
    }
    let found = if at(0, b"\x1F\x8B") {
        Recognised::Gzip
    } else if at(0, b"BZh")
        && head.get(3).is_some_and(|d| (b'1'..=b'9').contains(d))
        && (at(4, b"1AY&SY") || at(4, b"\x17rE8P\x90"))
    {
        Recognised::Bzip2
    } else if at(0, b"\xFD7zXZ\0") {
        Recognised::Xz
    } else if at(0, b"\x28\xB5\x2F\xFD") {
        Recognised::Zstd
    } else if at(0, b"PK\x03\x04") || at(0, b"PK\x05\x06") || at(0, b"PK\x07\x08") {
        Recognised::Zip
    } else if at(0, b"7z\xBC\xAF\x27\x1C") {
        Recognised::SevenZip
    } else if at(257, b"ustar") {
        Recognised::Tar
    } else if at(0, b"%PDF-") {
        Recognised::Pdf
    } else if at(0, b"\x7FELF") {
        Recognised::Elf
    } else if [
        b"\xFE\xED\xFA\xCE",
        b"\xFE\xED\xFA\xCF",
        b"\xCE\xFA\xED\xFE",
        b"\xCF\xFA\xED\xFE",
    ]
    .iter()
    .any(|magic| at(0, *magic))
    {
        Recognised::MachO
    } else if at(0, b"\xCA\xFE\xBA\xBE") {
        // Shared by universal Mach-O binaries (a count of architectures follows) and
        // Java class files (a version of at least 45 follows).
        match u32_at(4, true)? {
            1..=30 => Recognised::MachO,
            45.. => Recognised::JavaClass,
            _ => return None,
        }
    } else if at(0, b"MZ") && u32_at(0x3C, false).is_some_and(|pe| at(pe as usize, b"PE\0\0")) {
        Recognised::Pe
    } else if at(0, b"SQLite format 3\0") {
        Recognised::Sqlite
    } else {
        return utf16_by_its_units(head).map(Recognised::Utf16);
    };
    Some(found)
}

/// UTF-16 without a BOM and without the NUL in every other byte of mostly-ASCII text
/// (Chinese, Japanese, Korean, Cyrillic …), judged by its 16-bit code units. Read in one
/// byte order, the sample must have:
/// - no unit that text does not use: a lone surrogate, a NUL or other C0 control but
///   `\t \n \f \r`, a C1 control, a private-use character or a non-character;
/// - at least one line end, tab or space: an ASCII unit, whose NUL byte is what makes
///   the input binary, and which 8-bit text (UTF-8, legacy encodings) cannot have;
/// - nine units in ten or more in the scripts text is written in;
/// - fewer than half of its other units made of two printable ASCII bytes: ASCII text
///   read two bytes at a time falls in the CJK ranges, but nearly all of it that way.
///
/// Binary data fails the first test it meets.
fn utf16_by_its_units(sample: &[u8]) -> Option<&'static Encoding> {
    // Eight units: a line or two of CJK text (the tiniest inputs are SPEC §17's).
    const MIN_UNITS: usize = 8;
    let units = sample.len() / 2;
    if units < MIN_UNITS {
        return None;
    }
    // A line end, tab or space is a unit with a NUL byte: without one (all 8-bit text)
    // the units need not be looked at, which saves every plain read a pass over its head.
    bytes::find(0, &sample[..units * 2])?;
    // A short sample is a whole small input: UTF-16 has an even length, and UTF-8 text
    // with a NUL in it (a `.mo` file's strings) reads as Hangul or CJK units.
    if units < 32 && (sample.len() % 2 == 1 || utf8_but_nul(sample)) {
        return None;
    }
    let printable = |b: u8| (0x20..=0x7E).contains(&b);
    [UTF_16LE, UTF_16BE].into_iter().find(|&encoding| {
        let unit = |pair: &[u8]| match encoding == UTF_16LE {
            true => u16::from_le_bytes([pair[0], pair[1]]),
            false => u16::from_be_bytes([pair[0], pair[1]]),
        };
        let (mut ascii, mut spaces, mut scripts, mut ascii_pairs) = (0, 0, 0, 0);
        let mut pairs = sample[..units * 2].chunks_exact(2).map(unit).peekable();
        while let Some(u) = pairs.next() {
            match u {
                0xD800..=0xDBFF => match pairs.peek() {
                    Some(0xDC00..=0xDFFF) => {
                        pairs.next();
                        scripts += 2;
                    }
                    // The sample may end between the two halves of a pair.
                    None => scripts += 1,
                    Some(_) => return false,
                },
                0x09 | 0x0A | 0x0C | 0x0D | 0x20..=0x7E => {
                    ascii += 1;
                    spaces += usize::from(matches!(u, 0x09 | 0x0A | 0x0D | 0x20));
                    scripts += 1;
                }
                0x0000..=0x001F
                | 0x007F..=0x009F
                | 0xDC00..=0xDFFF
                | 0xE000..=0xF8FF
                | 0xFDD0..=0xFDEF
                | 0xFFFE
                | 0xFFFF => return false,
                _ => {
                    let [high, low] = u.to_be_bytes();
                    ascii_pairs += usize::from(printable(high) && printable(low));
                    scripts += usize::from(is_text_script(u));
                }
            }
        }
        spaces > 0 && scripts * 10 >= units * 9 && ascii_pairs * 2 < units - ascii
    })
}

/// Whether bytes are UTF-8 with NULs among them and at least one character beyond ASCII
/// (a sequence cut at either end counts as one).
fn utf8_but_nul(sample: &[u8]) -> bool {
    let text: Vec<u8> = sample.iter().copied().filter(|&b| b != 0).collect();
    let from = text.iter().take_while(|&&b| b & 0xC0 == 0x80).count();
    let beyond_ascii = text.iter().any(|b| !b.is_ascii());
    beyond_ascii
        && match std::str::from_utf8(&text[from..]) {
            Ok(_) => true,
            Err(error) => error.error_len().is_none(),
        }
}

/// BMP ranges that running text is mostly written in (beyond ASCII): Latin, Greek,
/// Cyrillic, Armenian, Hebrew, Arabic, the Indic scripts, Thai, Hangul, general
/// punctuation, CJK punctuation, kana, bopomofo, CJK ideographs and full-width forms.
fn is_text_script(u: u16) -> bool {
    matches!(
        u,
        0x00A0..=0x024F
            | 0x0370..=0x058F
            | 0x0590..=0x06FF
            | 0x0900..=0x0DFF
            | 0x0E00..=0x0E7F
            | 0x1100..=0x11FF
            | 0x1E00..=0x1FFF
            | 0x2000..=0x206F
            | 0x3000..=0x312F
            | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xAC00..=0xD7A3
            | 0xFF00..=0xFFEF
    )
}

/// The legacy encoding `--encoding auto` would choose for a head that is not UTF-8.
pub fn legacy_guess(head: &[u8], complete: bool) -> Option<String> {
    if Encoding::for_bom(head).is_some() || is_utf8_text(head, complete) {
        return None;
    }
    let guess = detect(head, complete);
    (guess != UTF_8).then(|| guess.name().to_ascii_lowercase())
}

/// Where the first byte that is not UTF-8 lies in `file` (its bytes `0..size`), among its
/// first `most` bytes, read from `from` (a character boundary: the end of what is known to
/// be UTF-8) in blocks through a fixed buffer: what a head of valid UTF-8 does not tell.
pub fn first_invalid_utf8(file: &std::fs::File, from: u64, size: u64, most: u64) -> Option<u64> {
    // Cut short, the bytes may end inside a character that goes on after them.
    let cut = size > most;
    let size = size.min(most);
    use std::os::unix::fs::FileExt;
    let mut buffer = vec![0u8; 64 << 10];
    // Bytes of a character the last block cut, carried to the front of the next.
    let mut carried = 0;
    let mut at = from;
    while at < size {
        let read = file.read_at(&mut buffer[carried..], at).ok()?;
        if read == 0 {
            break;
        }
        let filled = carried + read;
        let block_start = at - carried as u64;
        at += read as u64;
        match std::str::from_utf8(&buffer[..filled]) {
            Ok(_) => carried = 0,
            Err(error) if error.error_len().is_none() && at < size => {
                let valid = error.valid_up_to();
                buffer.copy_within(valid..filled, 0);
                carried = filled - valid;
            }
            Err(error) if error.error_len().is_none() && cut => return None,
            Err(error) => return Some(block_start + error.valid_up_to() as u64),
        }
    }
    None
}

/// The legacy encoding of a file whose head is UTF-8 but which is not, guessed from the
/// bytes around its first that is not (`--encoding auto`, and the footer's suggestion).
pub fn guess_at(file: &std::fs::File, invalid: u64) -> &'static Encoding {
    use std::os::unix::fs::FileExt;
    let from = invalid.saturating_sub(1 << 10);
    let mut sample = vec![0u8; 64 << 10];
    let read = file.read_at(&mut sample, from).unwrap_or(0);
    sample.truncate(read);
    // From the first line start, so that no character is cut at the front.
    let start = match from {
        0 => 0,
        _ => memchr::memchr(b'\n', &sample).map_or(0, |i| i + 1),
    };
    detect(&sample[start.min(sample.len())..], false)
}

/// chardetng's guess for a head that is not UTF-8.
fn detect(head: &[u8], complete: bool) -> &'static Encoding {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    detector.feed(head, complete);
    detector.guess(None, chardetng::Utf8Detection::Allow)
}

/// The NUL, control-ratio and extension rules, for encodings where a byte is a byte.
fn check_bytes(
    sample: &[u8],
    file_name: &str,
    complete: bool,
    decoding: Decoding,
) -> Result<Decoding, Evidence> {
    if let Some(offset) = bytes::find(0, sample) {
        return Err(Evidence::NulByte {
            offset: (offset + decoding.bom_len) as u64,
        });
    }
    // Bytes below 0x20 or DEL are few in text: when even all of them could not pass the
    // threshold, there is no need to tell tabs and newlines from the rest.
    let low = count_low_bytes(sample);
    if low * 10 > sample.len() * 3 {
        let controls = sample
            .iter()
            .filter(|&&b| is_suspect_control(b as u32))
            .count();
        check_ratio(controls, sample.len())?;
    }
    if has_binary_extension(file_name) && !decodes_cleanly(sample, complete, decoding.encoding) {
        return Err(Evidence::Extension);
    }
    Ok(decoding)
}

/// UTF-16 has NULs by nature: judge its decoded characters instead.
fn check_utf16(sample: &[u8], decoding: Decoding) -> Result<Decoding, Evidence> {
    let body = &sample[decoding.bom_len.min(sample.len())..];
    let (text, _) = decoding.encoding.decode_without_bom_handling(body);
    let chars = text.chars().count();
    let controls = text
        .chars()
        .filter(|&c| c == '\0' || is_suspect_control(c as u32))
        .count();
    check_ratio(controls, chars)?;
    Ok(decoding)
}

fn check_ratio(controls: usize, len: usize) -> Result<(), Evidence> {
    if len == 0 || controls * 10 <= len * 3 {
        return Ok(());
    }
    let ratio = controls as f64 / len as f64;
    Err(Evidence::ControlRatio {
        ratio: (ratio * 100.0).round() / 100.0,
    })
}

/// Bytes below 0x20, and DEL. Counted in byte-wide lanes over blocks of 255, which the
/// compiler turns into SIMD; a plain count widens every byte and runs seven times slower.
fn count_low_bytes(sample: &[u8]) -> usize {
    sample
        .chunks(255)
        .map(|block| {
            block
                .iter()
                .fold(0u8, |n, &b| n + u8::from((b < 0x20) | (b == 0x7F))) as usize
        })
        .sum()
}

/// Control characters that text does not use (all but `\t \n \r \f \b` and ESC).
fn is_suspect_control(c: u32) -> bool {
    (c < 0x20 && !matches!(c, 0x08 | 0x09 | 0x0A | 0x0C | 0x0D | 0x1B)) || c == 0x7F
}

fn has_binary_extension(file_name: &str) -> bool {
    match file_name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => BINARY_EXTENSIONS
            .iter()
            .any(|known| known.eq_ignore_ascii_case(ext)),
        _ => false,
    }
}

/// UTF-8 where only a character cut by the end of the sample may be incomplete.
fn is_utf8_text(head: &[u8], complete: bool) -> bool {
    match std::str::from_utf8(head) {
        Ok(_) => true,
        Err(e) => !complete && e.error_len().is_none(),
    }
}

fn decodes_cleanly(sample: &[u8], complete: bool, encoding: &'static Encoding) -> bool {
    if encoding == UTF_8 {
        return is_utf8_text(sample, complete);
    }
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(sample.len() * 3 + 16);
    let (result, _) = decoder.decode_to_string_without_replacement(sample, &mut out, complete);
    !matches!(result, encoding_rs::DecoderResult::Malformed(..))
}

/// UTF-16 without a BOM: mostly-ASCII text has a NUL in every other byte. The sample must
/// also decode without unpaired surrogates.
fn recognise_utf16(sample: &[u8]) -> Option<&'static Encoding> {
    let pairs = sample.len() / 2;
    if pairs < 2 || bytes::find(0, sample).is_none() {
        return None;
    }
    let (mut even_nuls, mut odd_nuls) = (0, 0);
    for pair in sample.chunks_exact(2) {
        even_nuls += usize::from(pair[0] == 0);
        odd_nuls += usize::from(pair[1] == 0);
    }
    let encoding = if odd_nuls * 10 >= pairs * 4 && even_nuls * 20 <= pairs {
        UTF_16LE
    } else if even_nuls * 10 >= pairs * 4 && odd_nuls * 20 <= pairs {
        UTF_16BE
    } else {
        return None;
    };
    let body = &sample[..pairs * 2];
    let (_, malformed) = encoding.decode_without_bom_handling(body);
    (!malformed || ends_in_a_lone_high_surrogate(body, encoding)).then_some(encoding)
}

/// The sample may end between the two halves of a surrogate pair.
fn ends_in_a_lone_high_surrogate(body: &[u8], encoding: &'static Encoding) -> bool {
    let Some(last) = body.len().checked_sub(2) else {
        return false;
    };
    let unit = if encoding == UTF_16LE {
        u16::from_le_bytes([body[last], body[last + 1]])
    } else {
        u16::from_be_bytes([body[last], body[last + 1]])
    };
    (0xD800..0xDC00).contains(&unit) && !encoding.decode_without_bom_handling(&body[..last]).1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf8(head: &[u8], name: &str) -> Result<Decoding, Evidence> {
        classify(head, true, name, EncodingChoice::Utf8)
    }

    #[test]
    fn low_bytes_are_counted_across_blocks() {
        let mut data = vec![b'a'; 1000];
        for i in (0..1000).step_by(3) {
            data[i] = if i % 2 == 0 { 0x7F } else { b'\n' };
        }
        let naive = data.iter().filter(|&&b| b < 0x20 || b == 0x7F).count();
        assert_eq!(count_low_bytes(&data), naive);
        assert_eq!(count_low_bytes(&[0x01; 255]), 255);
    }

    #[test]
    fn nul_in_the_first_8_kib_is_binary_with_its_offset() {
        let mut data = vec![b'a'; 100];
        data[42] = 0;
        assert_eq!(utf8(&data, "x.txt"), Err(Evidence::NulByte { offset: 42 }));
        let mut late = vec![b'a'; SNIFF_LEN + 10];
        late[SNIFF_LEN + 1] = 0;
        assert!(utf8(&late, "x.txt").is_ok());
    }

    #[test]
    fn control_bytes_over_30_percent_are_binary() {
        let mut data = vec![b'a'; 100];
        data[..31].fill(0x01);
        assert_eq!(
            utf8(&data, "x"),
            Err(Evidence::ControlRatio { ratio: 0.31 })
        );
        data[..31].fill(b'\t');
        data[..30].fill(0x02);
        assert!(utf8(&data, "x").is_ok());
        // Escapes of coloured logs are text.
        assert!(utf8(&[0x1B; 100], "x").is_ok());
    }

    #[test]
    fn a_binary_extension_needs_text_that_is_not_valid() {
        assert_eq!(
            utf8(b"\x89PNG\r\n\x1a\n", "logo.png"),
            Err(Evidence::Extension)
        );
        assert!(utf8(b"plain text\n", "notes.dat").is_ok());
        assert!(utf8(b"\xff\xfe not utf-16 here", "x.txt").is_ok());
        assert!(utf8(b"caf\xe9\n", "x.txt").is_ok());
        assert!(!has_binary_extension(".bin"));
    }

    #[test]
    fn boms_decide_the_encoding() {
        let d = utf8(b"\xEF\xBB\xBFhello", "x").unwrap();
        assert_eq!((d.name(), d.bom_len), ("utf-8".to_string(), 3));
        let d = utf8(b"\xFF\xFEh\0i\0", "x").unwrap();
        assert_eq!((d.name(), d.bom_len), ("utf-16le".to_string(), 2));
        let d = utf8(b"\xFE\xFF\0h\0i", "x").unwrap();
        assert_eq!(d.name(), "utf-16be");
    }

    /// SPEC §17: `printf 'a\0b\n'` is binary, not two UTF-16 characters.
    #[test]
    fn a_tiny_input_with_a_nul_is_binary_never_utf16() {
        for choice in [EncodingChoice::Utf8, EncodingChoice::Auto] {
            assert_eq!(
                classify(b"a\0b\n", true, "x.txt", choice),
                Err(Evidence::NulByte { offset: 1 })
            );
            assert_eq!(
                classify(b"a\0b\0c\0\n", true, "x.txt", choice),
                Err(Evidence::NulByte { offset: 1 })
            );
        }
        // Eight bytes and more may be UTF-16; a BOM decides whatever the size.
        let eight = classify(b"a\0b\0c\0\n\0", true, "x.txt", EncodingChoice::Utf8);
        assert_eq!(eight.map(|d| d.encoding), Ok(UTF_16LE));
        let bom = classify(b"\xff\xfea\0", true, "x.txt", EncodingChoice::Utf8);
        assert_eq!(bom.map(|d| d.encoding), Ok(UTF_16LE));
    }

    #[test]
    fn utf16_without_a_bom_is_recognised_not_refused() {
        let le: Vec<u8> = "hello world\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert_eq!(utf8(&le, "x").unwrap().encoding, UTF_16LE);
        let be: Vec<u8> = "hello world\n"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        assert_eq!(utf8(&be, "x").unwrap().encoding, UTF_16BE);
    }

    fn utf16(text: &str, encoding: &'static Encoding) -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| match encoding == UTF_16LE {
                true => u.to_le_bytes(),
                false => u.to_be_bytes(),
            })
            .collect()
    }

    /// Deterministic bytes that look random (a 64-bit LCG's high bytes).
    fn noise(seed: u64, len: usize) -> Vec<u8> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..len)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (state >> 56) as u8
            })
            .collect()
    }

    const CHINESE: &str = "中文文本，这是一个测试。\n第二行的内容也是中文：数据、结构与算法。\n";

    /// The first byte that is not UTF-8 is found past any block boundary, and a character
    /// cut by a block (or by the bytes looked at) is no such byte.
    #[test]
    fn the_first_byte_that_is_not_utf8_is_found_across_blocks() {
        use std::io::Write;
        let mut text = vec![b'a'; (64 << 10) - 1];
        text.extend_from_slice("€ and more\n".as_bytes());
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&text).unwrap();
        let size = text.len() as u64;
        assert_eq!(first_invalid_utf8(&file, 0, size, u64::MAX), None);
        assert_eq!(first_invalid_utf8(&file, 0, size, 64 << 10), None);
        file.write_all(b"caf\xe9\n").unwrap();
        assert_eq!(
            first_invalid_utf8(&file, 0, size + 5, u64::MAX),
            Some(size + 3)
        );
        // From a character boundary past the start.
        assert_eq!(
            first_invalid_utf8(&file, 4096, size + 5, u64::MAX),
            Some(size + 3)
        );
        assert_eq!(guess_at(&file, size + 3), encoding_rs::WINDOWS_1252);
    }

    /// Text in UTF-16 without a BOM or the NULs of ASCII (Chinese, Japanese, Korean,
    /// Cyrillic, Greek) is recognised by its code units, in either byte order.
    #[test]
    fn utf16_is_recognised_by_its_code_units() {
        for text in [
            CHINESE.repeat(20),
            "日本語のテキストです。これは文章です。\n".repeat(20),
            "한국어 텍스트입니다. 이것은 문장입니다.\n".repeat(20),
            "Привет, мир! Это тест.\n".repeat(20),
            "Καλημέρα κόσμε, αυτό είναι ένα κείμενο.\n".repeat(20),
            "汉字与表情😀混在一行里，也是中文。\n".repeat(3),
            // Two short lines.
            "中文文本测试\n第二行\n".to_string(),
        ] {
            for encoding in [UTF_16LE, UTF_16BE] {
                let bytes = utf16(&text, encoding);
                assert_eq!(utf16_by_its_units(&bytes), Some(encoding), "{text}");
                assert_eq!(recognise(&bytes), Some(Recognised::Utf16(encoding)));
                // The default decodes it as `auto` does (SPEC §11: not refused).
                let auto = classify(&bytes, true, "x.txt", EncodingChoice::Auto).unwrap();
                assert_eq!(auto.encoding, encoding);
                assert_eq!(utf8(&bytes, "x.txt").unwrap().encoding, encoding);
            }
        }
        // Another encoding named: its NULs make it binary, and the refusal names UTF-16.
        let bytes = utf16(&CHINESE.repeat(20), UTF_16LE);
        let latin1 = EncodingChoice::Named(encoding_rs::WINDOWS_1252);
        assert!(matches!(
            classify(&bytes, true, "x.txt", latin1),
            Err(Evidence::NulByte { .. })
        ));
        // A small input: UTF-8 with a NUL (a `.mo` file's strings) and an odd length are
        // not UTF-16, whose units they would pass for.
        let mo = "тар:\n\0  Привет мира и т.д.\n".as_bytes();
        assert_eq!(utf16_by_its_units(mo), None);
        let odd = utf16("中文文本测试\n第二行\n", UTF_16LE);
        assert_eq!(utf16_by_its_units(&odd[..odd.len() - 1]), None);
        // A sample cut between the halves of a surrogate pair.
        let mut cut = utf16(&format!("{}😀", CHINESE.repeat(3)), UTF_16LE);
        cut.truncate(cut.len() - 2);
        assert_eq!(utf16_by_its_units(&cut), Some(UTF_16LE));
    }

    /// Nothing else is taken for UTF-16: binary data of many kinds, UTF-8 and legacy
    /// text, and ASCII text with a stray NUL (which reads as CJK two bytes at a time).
    #[test]
    fn binary_data_and_8_bit_text_are_never_utf16() {
        let mut elf = b"\x7FELF\x02\x01\x01\0".to_vec();
        elf.extend(noise(1, 4096).iter().map(|b| b & 0x0F));
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x04\xd9\0\0\x01\x65\x08\x02".to_vec();
        png.extend(noise(2, 4096));
        let mut gzip = b"\x1F\x8B\x08\0\0\0\0\0\0\x03".to_vec();
        gzip.extend(noise(3, 4096));
        let mut ascii = b"hello world, this is plain ASCII text. ".repeat(100);
        ascii[201] = 0;
        let encode = |encoding: &'static Encoding, text: &str| encoding.encode(text).0.into_owned();
        let gbk = encode(encoding_rs::GBK, &CHINESE.repeat(20));
        let sjis = encode(
            encoding_rs::SHIFT_JIS,
            &"日本語のテキストです。\n".repeat(40),
        );
        let latin = encode(
            encoding_rs::WINDOWS_1252,
            &"café au lait, déjà vu\n".repeat(40),
        );
        for (what, bytes) in [
            ("ELF", elf),
            ("PNG", png),
            ("gzip", gzip),
            ("ASCII with a NUL", ascii),
            ("UTF-8", CHINESE.repeat(20).into_bytes()),
            ("GBK", gbk),
            ("Shift_JIS", sjis),
            ("windows-1252", latin),
        ] {
            assert_eq!(utf16_by_its_units(&bytes), None, "{what}");
            let auto = classify(&bytes, true, "x", EncodingChoice::Auto).map(|d| d.encoding);
            assert!(
                auto.is_err() || !matches!(auto, Ok(e) if e == UTF_16LE || e == UTF_16BE),
                "{what}"
            );
        }
        for seed in 0..2000 {
            let len = [64, 65, 257, 8192][seed as usize % 4];
            let bytes = noise(seed, len);
            assert_eq!(utf16_by_its_units(&bytes), None, "seed {seed}");
        }
    }

    /// Binary formats are named by their magic numbers, whatever their names.
    #[test]
    fn binary_formats_are_recognised_by_their_magic_numbers() {
        let mut tar = vec![0u8; 512];
        tar[..5].copy_from_slice(b"a.txt");
        tar[257..263].copy_from_slice(b"ustar\0");
        let mut pe = b"MZ\x90\0".to_vec();
        pe.resize(0x80, 0);
        pe[0x3C] = 0x40;
        pe[0x40..0x44].copy_from_slice(b"PE\0\0");
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x04\xd9\0\0\x01\x65\x08\x02\0\0\0";
        for (head, want) in [
            (
                png.to_vec(),
                Recognised::Image {
                    kind: ImageKind::Png,
                    size: Some((1241, 357)),
                },
            ),
            (b"\x1F\x8B\x08\0rest".to_vec(), Recognised::Gzip),
            (b"BZh91AY&SY\0\0".to_vec(), Recognised::Bzip2),
            (b"\xFD7zXZ\0\0\x04".to_vec(), Recognised::Xz),
            (b"\x28\xB5\x2F\xFD\0\0".to_vec(), Recognised::Zstd),
            (b"PK\x03\x04\x14\0".to_vec(), Recognised::Zip),
            (b"7z\xBC\xAF\x27\x1C\0\x04".to_vec(), Recognised::SevenZip),
            (tar, Recognised::Tar),
            (b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n".to_vec(), Recognised::Pdf),
            (b"\x7FELF\x02\x01\x01\0\0\0".to_vec(), Recognised::Elf),
            (b"\xCF\xFA\xED\xFE\x07\0\0\x01".to_vec(), Recognised::MachO),
            (b"\xCA\xFE\xBA\xBE\0\0\0\x02".to_vec(), Recognised::MachO),
            (
                b"\xCA\xFE\xBA\xBE\0\0\0\x34".to_vec(),
                Recognised::JavaClass,
            ),
            (pe, Recognised::Pe),
            (b"SQLite format 3\0\x10\0".to_vec(), Recognised::Sqlite),
        ] {
            assert_eq!(recognise(&head), Some(want), "{want:?}");
        }
        assert_eq!(recognise(b"MZ but no PE header at all, just text"), None);
        assert_eq!(recognise(b"\0\0\0\0 nothing known"), None);
    }

    #[test]
    fn auto_prefers_utf8_then_detects() {
        let auto = |b: &[u8]| classify(b, true, "x", EncodingChoice::Auto).unwrap().name();
        assert_eq!(auto("naïve café".as_bytes()), "utf-8");
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("日本語のテキストです。これは文章です。");
        assert_eq!(auto(&sjis), "shift_jis");
    }

    #[test]
    fn labels_resolve_through_whatwg() {
        assert_eq!(
            EncodingChoice::from_label("utf8"),
            Some(EncodingChoice::Utf8)
        );
        assert_eq!(
            EncodingChoice::from_label("AUTO"),
            Some(EncodingChoice::Auto)
        );
        assert_eq!(
            EncodingChoice::from_label("latin1"),
            Some(EncodingChoice::Named(encoding_rs::WINDOWS_1252))
        );
        assert_eq!(EncodingChoice::from_label("klingon"), None);
        // The "replacement" labels name no encoding a file can be read in.
        assert_eq!(EncodingChoice::from_label("iso-2022-kr"), None);
        assert_eq!(EncodingChoice::from_label("hz-gb-2312"), None);
    }
}
