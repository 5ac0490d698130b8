//! Glyph names as text: the Adobe Glyph List (and ZapfDingbats'), `uni` and `u` with hex digits (`uni0041`, `u1F600`),
//! numeric names and suffixed names, as poppler maps them.

use super::names::Names;
use super::tables;

/// The text of a glyph name, as poppler finds it: the Adobe Glyph List (for
/// ZapfDingbats, its own list first), `uni` followed by groups of four hex digits and `u` followed by four to six, a name with a suffix
/// (`a.sc`) as its base, a ligature of names joined by `_` as their texts.
pub(super) fn glyph_text(name: &[u8], zapf: bool) -> Option<String> {
    if name.is_empty() || name == b".notdef" {
        return None;
    }
    let lookup = |names: &Names, chars: &[char]| names.find(name).map(|i| chars[i]);
    if zapf && let Some(c) = lookup(&tables::ZAPF_NAMES, &tables::ZAPF_CHARS) {
        return Some(c.to_string());
    }
    if let Some(c) = lookup(&tables::GLYPH_NAMES, &tables::GLYPH_CHARS) {
        return Some(c.to_string());
    }
    let text = std::str::from_utf8(name).ok()?;
    if let Some(base) = text.split_once('.').map(|(base, _)| base) {
        return glyph_text(base.as_bytes(), zapf);
    }
    if text.contains('_') {
        let parts: Option<Vec<String>> = text
            .split('_')
            .map(|part| glyph_text(part.as_bytes(), zapf))
            .collect();
        return parts.map(|parts| parts.concat());
    }
    let hex = |digits: &str| {
        digits
            .bytes()
            .all(|b| b.is_ascii_hexdigit())
            .then(|| u32::from_str_radix(digits, 16).ok())
            .flatten()
    };
    if let Some(digits) = text.strip_prefix("uni")
        && !digits.is_empty()
        && digits.len() % 4 == 0
    {
        let units: Option<Vec<u16>> = (0..digits.len() / 4)
            .map(|i| hex(&digits[i * 4..i * 4 + 4]).map(|u| u as u16))
            .collect();
        return char::decode_utf16(units?)
            .collect::<Result<String, _>>()
            .ok();
    }
    if let Some(digits) = text.strip_prefix('u')
        && (4..=6).contains(&digits.len())
        && let Some(c) = hex(digits).and_then(char::from_u32)
    {
        return Some(c.to_string());
    }
    // A numeric name (`a121`, `g65`, `c32`: one or two letters, then the code in decimal)
    // is its code's character, as poppler maps it; TeX's LaTeX symbol fonts name glyphs so.
    let digits = text.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    if (1..=2).contains(&(text.len() - digits.len()))
        && (2..=3).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
        && let Some(c) = digits.parse().ok().and_then(char::from_u32)
        && !c.is_control()
    {
        return Some(c.to_string());
    }
    None
}

/// A glyph name that is one character (a ToUnicode map may name its targets).
pub(super) fn glyph_char(name: &[u8]) -> Option<char> {
    let text = glyph_text(name, false)?;
    let mut chars = text.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

/// `c` as text shows it: a noncharacter (U+FFFF, which some producers map unknown glyphs
/// to, U+FFFE, U+FDD0-U+FDEF) is U+FFFD, as poppler gives it; it is no character to print.
pub(super) fn shown(c: char) -> char {
    let code = u32::from(c);
    match (0xFDD0..=0xFDEF).contains(&code) || code & 0xFFFE == 0xFFFE {
        true => char::REPLACEMENT_CHARACTER,
        false => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noncharacters_are_shown_as_the_replacement_character() {
        for c in [
            '\u{FFFF}',
            '\u{FFFE}',
            '\u{FDD0}',
            '\u{1FFFF}',
            '\u{10FFFE}',
        ] {
            assert_eq!(shown(c), '\u{FFFD}', "{c:?}");
        }
        for c in ['a', '\u{FFFD}', '\u{FDCF}', '\u{FDF0}', '博', '\u{1F600}'] {
            assert_eq!(shown(c), c, "{c:?}");
        }
    }
}
