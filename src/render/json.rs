//! The JSON format: one object per PATH, one per line, with the keys of SPEC §6, as the
//! typed envelope describes them.

use std::io::{self, Write};

use super::Style;
use super::envelope::Envelope;
use crate::outcome::Answer;
use crate::read::bytes;

/// The C1 and bidirectional controls, which JSON allows raw, are written `\u202e` (SPEC
/// §14), in names and content alike.
pub fn write(out: &mut impl Write, context: &Style, answer: &Answer) -> io::Result<()> {
    let json = serde_json::to_vec(&Envelope::of(context, answer))?;
    out.write_all(&escape_json_controls(&json))?;
    out.write_all(b"\n")
}

/// JSON text (as serde_json or sonic-rs writes it) with the C1 and bidirectional
/// controls escaped as `\u202e`: JSON allows them raw, and neither writer escapes them,
/// but a terminal or an editor that shows the JSON would obey them. They can only occur
/// inside strings (JSON's own syntax is ASCII), where the escape means the same text.
/// Borrowed when there is nothing to escape.
pub fn escape_json_controls(json: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    // Every such character's UTF-8 encoding begins with 0xC2 (C1), 0xD8 (U+061C) or
    // 0xE2 (the U+2xxx ones).
    let mut from = 0;
    let mut found = std::iter::from_fn(|| {
        let at = from + bytes::find3(0xC2, 0xD8, 0xE2, &json[from..])?;
        from = at + 1;
        Some(at)
    })
    .filter(|&at| hidden_control_at(&json[at..]).is_some())
    .peekable();
    if found.peek().is_none() {
        return std::borrow::Cow::Borrowed(json);
    }
    let mut out = Vec::with_capacity(json.len() + 64);
    let mut copied = 0;
    for at in found {
        let (c, len) = hidden_control_at(&json[at..]).unwrap_or(('\0', 1));
        out.extend_from_slice(&json[copied..at]);
        let _ = std::io::Write::write_fmt(&mut out, format_args!("\\u{:04x}", c as u32));
        copied = at + len;
    }
    out.extend_from_slice(&json[copied..]);
    std::borrow::Cow::Owned(out)
}

/// The hidden control whose UTF-8 encoding `bytes` begins with, and its length.
fn hidden_control_at(bytes: &[u8]) -> Option<(char, usize)> {
    let len = match bytes.first()? {
        0xC2 | 0xD8 => 2,
        0xE2 => 3,
        _ => return None,
    };
    let c = std::str::from_utf8(bytes.get(..len)?)
        .ok()?
        .chars()
        .next()?;
    crate::names::is_hidden_control(c).then_some((c, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_hidden_controls_inside_strings() {
        let value =
            serde_json::json!({"name": "evil\u{202e}txt.exe", "c1": "\u{9b}31m", "ok": "é €"});
        let json = serde_json::to_vec(&value).unwrap();
        let escaped = escape_json_controls(&json);
        let text = std::str::from_utf8(&escaped).unwrap();
        assert!(text.contains(r"evil\u202etxt.exe"), "{text}");
        assert!(text.contains(r"\u009b31m"), "{text}");
        assert!(text.contains("é €"));
        let back: serde_json::Value = serde_json::from_slice(&escaped).unwrap();
        assert_eq!(back, value);
        let plain = br#"{"a":"\u00e9 no controls"}"#;
        assert!(matches!(
            escape_json_controls(plain),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
