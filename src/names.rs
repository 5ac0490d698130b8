//! How names and text are shown safely (SPEC §14): control pictures, written once for
//! every format, and `\xHH` for the bytes of a name that are not UTF-8, reversibly.

use std::fmt::Write as _;

/// The control picture (U+2400 block) of a C0 control or DEL.
pub fn picture(c: char) -> Option<char> {
    match c {
        '\0'..='\u{1f}' => char::from_u32(0x2400 + c as u32),
        '\u{7f}' => Some('\u{2421}'),
        _ => None,
    }
}

/// Text with every control character as its picture, so it cannot drive a terminal.
/// With `keep_tabs`, tabs stay tabs (file content); in a name a tab is shown too.
/// C1 controls, which some terminals obey, become U+FFFD.
pub fn visible(text: &str, keep_tabs: bool) -> String {
    text.chars()
        .map(|c| match c {
            '\t' if keep_tabs => c,
            '\u{80}'..='\u{9f}' => '\u{FFFD}',
            _ => picture(c).unwrap_or(c),
        })
        .collect()
}

/// Bytes as text, borrowed when they are UTF-8 (checked with SIMD: rendered windows
/// are UTF-8 by construction), else with U+FFFD for what is not.
pub fn utf8(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// A name's bytes as text: valid UTF-8 as it is, every other byte as `\xHH`.
pub fn text_of(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// The bytes a printed name stands for: each `\xHH` (either case of hex digit) becomes
/// its byte. None when the name has no such escape.
pub fn unescape(name: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(name.len());
    let mut escaped = false;
    let mut i = 0;
    while i < name.len() {
        if name[i] == b'\\'
            && name.get(i + 1) == Some(&b'x')
            && let (Some(hi), Some(lo)) = (hex(name.get(i + 2)), hex(name.get(i + 3)))
        {
            out.push(hi << 4 | lo);
            escaped = true;
            i += 4;
            continue;
        }
        out.push(name[i]);
        i += 1;
    }
    escaped.then_some(out)
}

fn hex(b: Option<&u8>) -> Option<u8> {
    (*b? as char).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_pictures() {
        assert_eq!(
            visible("a\u{1b}[31mb\r\t\u{7f}\u{9b}", true),
            "a\u{241b}[31mb\u{240d}\t\u{2421}\u{fffd}"
        );
        assert_eq!(visible("a\tb\n", false), "a\u{2409}b\u{240a}");
    }

    #[test]
    fn invalid_bytes_are_written_as_hex_and_read_back() {
        let name = b"bad\xff\xfe.txt";
        assert_eq!(text_of(name), "bad\\xFF\\xFE.txt");
        assert_eq!(unescape(text_of(name).as_bytes()).unwrap(), name);
        assert_eq!(text_of("café".as_bytes()), "café");
        assert_eq!(unescape(b"plain.txt"), None);
        assert_eq!(unescape(b"a\\xzz"), None);
        assert_eq!(unescape(b"a\\x4a").unwrap(), b"aJ");
    }
}
