//! How names and text are shown safely (SPEC §14): control pictures, written once for
//! every format, `<U+202E>` for the C1 and bidirectional controls, and `\xHH` for the
//! bytes of a name that are not UTF-8, reversibly.

use std::fmt::Write as _;

/// The control picture (U+2400 block) of a C0 control or DEL.
pub fn picture(c: char) -> Option<char> {
    match c {
        '\0'..='\u{1f}' => char::from_u32(0x2400 + c as u32),
        '\u{7f}' => Some('\u{2421}'),
        _ => None,
    }
}

/// Whether `c` is a C1 control (which some terminals obey) or a bidirectional control
/// (which reorders what a terminal or an editor shows: "Trojan Source").
pub fn is_hidden_control(c: char) -> bool {
    matches!(
        c,
        '\u{80}'..='\u{9f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{061c}'
    )
}

/// Text with every control character shown, so it cannot drive a terminal: C0 controls
/// and DEL as their pictures, C1 and bidirectional controls as `<U+202E>`. With
/// `keep_tabs`, tabs stay tabs (file content); in a name a tab is shown too.
pub fn visible(text: &str, keep_tabs: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\t' if keep_tabs => out.push(c),
            c if is_hidden_control(c) => {
                let _ = write!(out, "<U+{:04X}>", c as u32);
            }
            c => out.push(picture(c).unwrap_or(c)),
        }
    }
    out
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

/// The bytes a printed name stands for, so that any name agentread prints can be passed
/// back (SPEC §14): each `\xHH` (either case of hex digit) becomes its byte, a control
/// picture its control (a NUL, which no name holds, excepted), and `<U+202E>` of a C1 or
/// bidirectional control that control. None when the name has none of them.
pub fn unescape(name: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(name.len());
    let mut escaped = false;
    let mut i = 0;
    while i < name.len() {
        let rest = &name[i..];
        let (bytes, len) = if let [b'\\', b'x', hi, lo, ..] = rest
            && let (Some(hi), Some(lo)) = (hex(Some(hi)), hex(Some(lo)))
        {
            (Some(vec![hi << 4 | lo]), 4)
        } else if let Some(c) = first_char(rest)
            && let Some(control) = control_of(c)
        {
            (Some(vec![control]), c.len_utf8())
        } else if let Some((c, len)) = hidden_control_written(rest) {
            (Some(c.to_string().into_bytes()), len)
        } else {
            (None, 1)
        };
        match bytes {
            Some(bytes) => {
                out.extend_from_slice(&bytes);
                escaped = true;
            }
            None => out.push(name[i]),
        }
        i += len;
    }
    escaped.then_some(out)
}

/// The character `bytes` start with, when they start with valid UTF-8.
fn first_char(bytes: &[u8]) -> Option<char> {
    let valid = bytes.utf8_chunks().next()?.valid();
    valid.chars().next()
}

/// The control a control picture shows ([`picture`]'s inverse), NUL excepted.
fn control_of(c: char) -> Option<u8> {
    match c {
        '\u{2401}'..='\u{241f}' => Some((c as u32 - 0x2400) as u8),
        '\u{2421}' => Some(0x7f),
        _ => None,
    }
}

/// A C1 or bidirectional control written `<U+202E>` at the start of `bytes`, and the
/// length of that spelling.
fn hidden_control_written(bytes: &[u8]) -> Option<(char, usize)> {
    let digits = bytes.strip_prefix(b"<U+")?;
    let end = digits.iter().take(7).position(|&b| b == b'>')?;
    let code = u32::from_str_radix(std::str::from_utf8(&digits[..end]).ok()?, 16).ok()?;
    let c = char::from_u32(code).filter(|&c| is_hidden_control(c))?;
    Some((c, 3 + end + 1))
}

/// How [`shell_word`] quotes a word that needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quoting {
    /// In single quotes (inside which only `'` needs care: `'\''`): a command line to run.
    Single,
    /// In double quotes, `"`, `\`, `$` and `` ` `` escaped: a word inside a suggestion
    /// that is itself in single quotes (`try 'zcat "a b.gz" | agentread -'`). A word that
    /// starts with `-` is written `./-…`, so that it is no option.
    Double,
}

/// `word` as one POSIX shell word: as it is when it has only characters no shell treats
/// specially, else quoted as `quoting` says.
pub fn shell_word(word: &str, quoting: Quoting) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./,:@%+=".contains(c);
    match quoting {
        Quoting::Single => {
            if !word.is_empty() && word.chars().all(plain) {
                return word.to_string();
            }
            format!("'{}'", word.replace('\'', r"'\''"))
        }
        Quoting::Double => {
            let word = match word.starts_with('-') {
                true => format!("./{word}"),
                false => word.to_string(),
            };
            if word.chars().all(plain) {
                return word;
            }
            let mut quoted = String::from("\"");
            for c in word.chars() {
                if matches!(c, '"' | '\\' | '$' | '`') {
                    quoted.push('\\');
                }
                quoted.push(c);
            }
            quoted.push('"');
            quoted
        }
    }
}

fn hex(b: Option<&u8>) -> Option<u8> {
    (*b? as char).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_printed_name_is_unescaped_to_its_bytes() {
        for name in [
            &b"tab\tname.txt"[..],
            b"new\nline\x7f.txt",
            "bidi\u{202e}evil\u{85}.txt".as_bytes(),
            b"latin\xe9\xff.txt",
        ] {
            let printed = visible(&text_of(name), false);
            assert_ne!(printed.as_bytes(), name);
            assert_eq!(
                unescape(printed.as_bytes()).as_deref(),
                Some(name),
                "{printed}"
            );
        }
        // What stands for nothing stays as written.
        assert_eq!(unescape(b"plain.txt"), None);
        assert_eq!(unescape("<U+0041> \u{2400} <U+202E".as_bytes()), None);
    }

    #[test]
    fn controls_become_pictures() {
        assert_eq!(
            visible("a\u{1b}[31mb\r\t\u{7f}\u{9b}", true),
            "a\u{241b}[31mb\u{240d}\t\u{2421}<U+009B>"
        );
        assert_eq!(visible("a\tb\n", false), "a\u{2409}b\u{240a}");
    }

    #[test]
    fn c1_and_bidirectional_controls_are_named() {
        assert_eq!(
            visible(
                "x\u{202e}y\u{2066}\u{2069}\u{200e}\u{200f}\u{61c}\u{85}\u{80}\u{9f}z",
                false
            ),
            "x<U+202E>y<U+2066><U+2069><U+200E><U+200F><U+061C><U+0085><U+0080><U+009F>z"
        );
        // Their neighbours are ordinary text.
        for c in [
            '\u{7e}', '\u{a0}', '\u{2029}', '\u{202f}', '\u{2065}', '\u{206a}', '\u{61b}',
        ] {
            assert_eq!(visible(&c.to_string(), false), c.to_string());
        }
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
