//! Binary and encoding decisions on the first bytes of an input (SPEC §5, §11).

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};
use memchr::memchr;

use crate::error::BinaryEvidence;

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
        let encoding = Encoding::for_label(label.trim().as_bytes())?;
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

/// Decides whether `head` (the first bytes; `complete` when it is the whole input) is text,
/// and how to decode it.
pub fn classify(
    head: &[u8],
    complete: bool,
    file_name: &str,
    choice: EncodingChoice,
) -> Result<Decoding, BinaryEvidence> {
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
    let utf16 = match choice {
        EncodingChoice::Named(e) if e == UTF_16LE || e == UTF_16BE => Some(e),
        EncodingChoice::Named(_) => None,
        EncodingChoice::Utf8 | EncodingChoice::Auto => recognise_utf16(sample),
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

/// The legacy encoding `--encoding auto` would choose for a head that is not UTF-8.
pub fn legacy_guess(head: &[u8], complete: bool) -> Option<String> {
    if Encoding::for_bom(head).is_some() || is_utf8_text(head, complete) {
        return None;
    }
    let guess = detect(head, complete);
    (guess != UTF_8).then(|| guess.name().to_ascii_lowercase())
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
) -> Result<Decoding, BinaryEvidence> {
    if let Some(offset) = memchr(0, sample) {
        return Err(BinaryEvidence::NulByte {
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
        return Err(BinaryEvidence::Extension);
    }
    Ok(decoding)
}

/// UTF-16 has NULs by nature: judge its decoded characters instead.
fn check_utf16(sample: &[u8], decoding: Decoding) -> Result<Decoding, BinaryEvidence> {
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

fn check_ratio(controls: usize, len: usize) -> Result<(), BinaryEvidence> {
    if len == 0 || controls * 10 <= len * 3 {
        return Ok(());
    }
    let ratio = controls as f64 / len as f64;
    Err(BinaryEvidence::ControlRatio {
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
    if pairs < 2 || memchr(0, sample).is_none() {
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

    fn utf8(head: &[u8], name: &str) -> Result<Decoding, BinaryEvidence> {
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
        assert_eq!(
            utf8(&data, "x.txt"),
            Err(BinaryEvidence::NulByte { offset: 42 })
        );
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
            Err(BinaryEvidence::ControlRatio { ratio: 0.31 })
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
            Err(BinaryEvidence::Extension)
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
    }
}
