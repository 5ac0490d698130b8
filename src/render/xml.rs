//! The XML format: one well-formed element per PATH, for any file content.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde_json::{Map, Value};

use super::Context;
use super::envelope::Envelope;
use super::hints;
use crate::answer::Answer;

pub fn write(out: &mut impl Write, context: &Context, answer: &Answer) -> io::Result<()> {
    out.write_all(to_string(context, answer).as_bytes())
}

/// The element for one answer, walked from the typed envelope (the fields JSON prints):
/// `data`'s path, type and content as elements, its other fields and all of `stats` as
/// attributes of `<stats>`, in the envelope's order; null fields are left out.
pub fn to_string(context: &Context, answer: &Answer) -> String {
    let envelope = serde_json::to_value(Envelope::of(context, answer)).unwrap_or_default();
    let mut x = String::new();
    if let Some(error) = envelope.get("error").and_then(Value::as_object) {
        let field = |name: &str| error.get(name).map(scalar).unwrap_or_default();
        let _ = write!(
            x,
            "<error code=\"{}\" exit_code=\"{}\"",
            field("code"),
            field("exit_code")
        );
        if !answer.label.is_empty() {
            let _ = write!(x, " path=\"{}\"", escape(&answer.label, true));
        }
        let _ = write!(x, ">{}", escape(&field("message"), false));
        for candidate in error["suggestions"].as_array().into_iter().flatten() {
            let _ = write!(
                x,
                "<suggestion>{}</suggestion>",
                escape(&scalar(candidate), false)
            );
        }
        if let Some(detail) = error.get("detail").and_then(Value::as_object) {
            x.push_str("<detail");
            attributes(&mut x, detail, &[]);
            x.push_str("/>");
        }
        x.push_str("</error>\n");
        return x;
    }
    let empty = Map::new();
    let data = envelope["data"].as_object().unwrap_or(&empty);
    let kind = data.get("type").map(scalar).unwrap_or_default();
    let _ = writeln!(x, "<{kind}>");
    let _ = writeln!(
        x,
        "<path>{}</path>",
        escape(&data.get("path").map(scalar).unwrap_or_default(), false)
    );
    let _ = writeln!(x, "<type>{kind}</type>");
    let _ = writeln!(x, "<status>{}</status>", answer.status().name());
    if let Some(content) = data.get("content").and_then(Value::as_str) {
        let _ = writeln!(x, "<content>");
        x.push_str(&escape(content, false));
        x.push_str("</content>\n");
    }
    if let Some(entries) = data.get("entries").and_then(Value::as_array) {
        x.push_str("<entries>");
        for entry in entries {
            let _ = write!(x, "<entry>{}</entry>", escape(&scalar(entry), false));
        }
        x.push_str("</entries>\n");
    }
    for symbol in data.get("symbol").into_iter().chain(
        data.get("symbols")
            .and_then(Value::as_array)
            .into_iter()
            .flatten(),
    ) {
        if let Some(fields) = symbol.as_object() {
            x.push_str("<symbol");
            attributes(&mut x, fields, &[]);
            x.push_str("/>\n");
        }
    }
    // A directory's map: each file of the page, its symbols inside it.
    for file in data
        .get("files")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
    {
        x.push_str("<file");
        attributes(&mut x, file, &["symbols"]);
        x.push_str(">\n");
        for symbol in file
            .get("symbols")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
        {
            x.push_str("<symbol");
            attributes(&mut x, symbol, &[]);
            x.push_str("/>\n");
        }
        x.push_str("</file>\n");
    }
    if let Ok(success) = &answer.result {
        for hint in hints::footer(success, context.max_bytes, context.wording) {
            let _ = writeln!(x, "<hint>{}</hint>", escape(&hint, false));
        }
    }
    x.push_str("<stats");
    attributes(
        &mut x,
        data,
        &[
            "type", "path", "content", "entries", "symbol", "symbols", "files",
        ],
    );
    if let Some(stats) = envelope["stats"].as_object() {
        attributes(&mut x, stats, &[]);
    }
    x.push_str("/>\n");
    let _ = writeln!(x, "</{kind}>");
    x
}

/// The fields of `object` but `skip`, as attributes; null fields are left out.
fn attributes(x: &mut String, object: &Map<String, Value>, skip: &[&str]) {
    for (name, value) in object {
        if value.is_null() || skip.contains(&name.as_str()) {
            continue;
        }
        let _ = write!(x, " {name}=\"{}\"", escape(&scalar(value), true));
    }
}

/// A JSON scalar as attribute or element text.
fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Escapes text for XML 1.0. Markup characters become entities (`>` too, so `]]>` cannot
/// appear), `\r` a character reference (parsers would otherwise turn it into `\n`), and
/// characters XML 1.0 cannot carry their control pictures. C1 and bidirectional controls,
/// which XML 1.0 allows but a terminal or an editor showing the XML would obey, are
/// character references (`&#x9B;`, `&#x202E;`): the parsed text is the same. In
/// attributes, tabs and newlines are references too, so that they survive attribute
/// normalisation.
pub fn escape(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\r' => out.push_str("&#13;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\t' | '\n' => out.push(c),
            '\0'..='\u{1f}' => out.push(crate::names::picture(c).unwrap_or('\u{FFFD}')),
            '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            c if crate::names::is_hidden_control(c) => {
                let _ = write!(out, "&#x{:X};", c as u32);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_characters_xml_cannot_carry() {
        assert_eq!(
            escape("</content>&]]>", false),
            "&lt;/content&gt;&amp;]]&gt;"
        );
        assert_eq!(
            escape("a\u{0}b\u{1b}c\rd\te\n", false),
            "a\u{2400}b\u{241b}c&#13;d\te\n"
        );
        assert_eq!(escape("\"q\"\n", true), "&quot;q&quot;&#10;");
        assert_eq!(escape("\u{FFFF}", false), "\u{FFFD}");
        assert_eq!(
            escape("a\u{9b}b\u{202e}c\u{85}", true),
            "a&#x9B;b&#x202E;c&#x85;"
        );
    }

    #[test]
    fn hidden_controls_parse_back_from_their_references() {
        let text = "x\u{80}\u{9f}\u{202a}\u{2069}\u{200f}\u{61c}y";
        let xml = format!(
            "<a b=\"{}\">{}</a>",
            escape(text, true),
            escape(text, false)
        );
        assert!(!xml.contains('\u{9f}') && !xml.contains('\u{202a}'));
        let doc = roxmltree::Document::parse(&xml).unwrap();
        assert_eq!(doc.root_element().text(), Some(text));
        assert_eq!(doc.root_element().attribute("b"), Some(text));
    }
}
