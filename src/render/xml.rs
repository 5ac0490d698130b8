//! The XML format: one well-formed element per PATH, for any file content; several PATHs
//! are one document, their elements inside `<files>` (the printer writes it).

use std::fmt::{Display, Write as _};
use std::io::{self, Write};

use super::Style;
use super::envelope::{Data, Envelope, ErrorInfo, Stats, WindowData};
use super::hints;
use crate::error::ErrorDetail;
use crate::outcome::Answer;
use crate::outcome::MapFile;
use crate::outcome::SymbolInfo;

pub fn write(out: &mut impl Write, context: &Style, answer: &Answer) -> io::Result<()> {
    out.write_all(to_string(context, answer).as_bytes())
}

/// The element for one answer, walked from the typed envelope (the fields JSON prints):
/// `data`'s path, type and content as elements, its other fields and all of `stats` as
/// attributes of `<stats>`, in the envelope's order; null fields are left out.
///
/// Every struct is taken apart field by field, so a field added to the envelope does
/// not compile until this says where it goes.
pub fn to_string(context: &Style, answer: &Answer) -> String {
    let Envelope {
        status,
        data,
        text: _,
        stats,
        context: _,
        error,
    } = Envelope::of(context, answer);
    let mut x = String::new();
    if let Some(error) = &error {
        write_error(&mut x, error, &answer.label);
        return x;
    }
    let kind = data.as_ref().map_or("", |data| data.kind);
    let _ = writeln!(x, "<{kind}>");
    let path = data.as_ref().map_or("", |data| data.path);
    let _ = writeln!(x, "<path>{}</path>", escape(path, false));
    let _ = writeln!(x, "<type>{kind}</type>");
    let _ = writeln!(x, "<status>{status}</status>");
    if let Some(data) = &data {
        data_elements(&mut x, data);
    }
    if let Ok(success) = &answer.result {
        for hint in hints::footer(success, context.max_bytes, context.wording) {
            let _ = writeln!(x, "<hint>{}</hint>", escape(&hint, false));
        }
    }
    x.push_str("<stats");
    if let Some(data) = &data {
        data_attributes(&mut x, data);
    }
    stats_attributes(&mut x, &stats);
    x.push_str("/>\n");
    let _ = writeln!(x, "</{kind}>");
    x
}

/// `<error>`: the message as its text, then each suggestion and the detail as elements.
fn write_error(x: &mut String, error: &ErrorInfo, label: &str) {
    let ErrorInfo {
        code,
        message,
        exit_code,
        suggestions,
        detail,
    } = error;
    let _ = write!(x, "<error code=\"{code}\" exit_code=\"{exit_code}\"");
    if !label.is_empty() {
        let _ = write!(x, " path=\"{}\"", escape(label, true));
    }
    let _ = write!(x, ">{}", escape(message, false));
    for candidate in *suggestions {
        let _ = write!(x, "<suggestion>{}</suggestion>", escape(candidate, false));
    }
    if let Some(detail) = detail {
        x.push_str("<detail");
        detail_attributes(x, detail);
        x.push_str("/>");
    }
    x.push_str("</error>\n");
}

/// `error.detail` as attributes: `reason` as JSON tags it, then the variant's fields.
fn detail_attributes(x: &mut String, detail: &ErrorDetail) {
    match detail {
        ErrorDetail::NulByte { offset } => {
            attribute(x, "reason", "nul_byte");
            attribute(x, "offset", offset);
        }
        ErrorDetail::ControlRatio { ratio } => {
            attribute(x, "reason", "control_ratio");
            // As JSON writes the number (`1.0`, not `1`); not finite, it is null.
            optional(x, "ratio", serde_json::Number::from_f64(*ratio));
        }
        ErrorDetail::Extension => attribute(x, "reason", "extension"),
        ErrorDetail::Denied { pattern } => {
            attribute(x, "reason", "denied");
            attribute(x, "pattern", pattern);
        }
        ErrorDetail::PdfEncrypted => attribute(x, "reason", "pdf_encrypted"),
        ErrorDetail::PdfDamaged => attribute(x, "reason", "pdf_damaged"),
        ErrorDetail::ImageDamaged => attribute(x, "reason", "image_damaged"),
    }
}

/// The fields of `data` that are elements: its content, its entries, its symbols.
fn data_elements(x: &mut String, data: &Data) {
    if let Some(Some(content)) = &data.content {
        let _ = writeln!(x, "<content>");
        x.push_str(&escape(content, false));
        x.push_str("</content>\n");
    }
    if let Some(entries) = data.entries {
        x.push_str("<entries>");
        for entry in entries {
            let _ = write!(x, "<entry>{}</entry>", escape(entry, false));
        }
        x.push_str("</entries>\n");
    }
    // An outline's elements are the symbols it lists: the symbol whose children they are
    // (`PATH#SYMBOL --outline`) is not one of them, and its footer names it.
    let within = data.symbol.filter(|_| data.symbols.is_none());
    for symbol in within.into_iter().chain(data.symbols.into_iter().flatten()) {
        x.push_str("<symbol");
        symbol_attributes(x, symbol);
        x.push_str("/>\n");
    }
    for elided in data.elided.into_iter().flatten() {
        x.push_str("<elided");
        // Its JSON object's fields, in their order: numbers and names; a null one is left out.
        if let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(elided) {
            for (name, value) in &fields {
                match value {
                    serde_json::Value::Null => {}
                    serde_json::Value::String(text) => attribute(x, name, text),
                    other => attribute(x, name, other),
                }
            }
        }
        x.push_str("/>\n");
    }
    // A directory's map: each file of the page, its symbols inside it.
    for file in data.files.into_iter().flatten() {
        let MapFile {
            path,
            language,
            not_parsed,
            symbols,
        } = file;
        x.push_str("<file");
        attribute(x, "path", path);
        attribute(x, "language", language);
        optional(x, "not_parsed", *not_parsed);
        x.push_str(">\n");
        for symbol in symbols {
            x.push_str("<symbol");
            symbol_attributes(x, symbol);
            x.push_str("/>\n");
        }
        x.push_str("</file>\n");
    }
}

/// The fields of `data` that are not elements, as attributes of `<stats>`.
fn data_attributes(x: &mut String, data: &Data) {
    let Data {
        kind: _,
        path: _,
        content: _,
        mime_type,
        width,
        height,
        sent_width,
        sent_height,
        window,
        target_line,
        fallback_encoding,
        suggested_encoding,
        entries: _,
        language,
        symbol: _,
        symbols: _,
        total_symbols,
        files: _,
        view,
        elided: _,
    } = data;
    optional(x, "mime_type", *mime_type);
    optional(x, "width", *width);
    optional(x, "height", *height);
    optional(x, "sent_width", *sent_width);
    optional(x, "sent_height", *sent_height);
    if let Some(window) = window {
        let WindowData {
            start_line,
            end_line,
            truncated,
            truncated_by,
            next_start_line,
            next_start_char,
        } = window;
        attribute(x, "start_line", start_line);
        optional(x, "end_line", *end_line);
        attribute(x, "truncated", truncated);
        optional(x, "truncated_by", *truncated_by);
        optional(x, "next_start_line", *next_start_line);
        optional(x, "next_start_char", *next_start_char);
    }
    optional(x, "target_line", *target_line);
    optional(x, "fallback_encoding", fallback_encoding.flatten());
    optional(x, "suggested_encoding", *suggested_encoding);
    optional(x, "language", language.flatten());
    optional(x, "total_symbols", *total_symbols);
    optional(x, "view", *view);
}

fn stats_attributes(x: &mut String, stats: &Stats) {
    let Stats {
        time_ms,
        lines_read,
        chars_read,
        total_lines,
        file_size_bytes,
        file_mtime_ms,
        encoding,
        lines_cut,
        bom,
        line_endings,
        approx_tokens,
        tokens,
        content_hash,
    } = stats;
    attribute(x, "time_ms", time_ms);
    optional(x, "lines_read", *lines_read);
    optional(x, "chars_read", *chars_read);
    optional(x, "total_lines", *total_lines);
    optional(x, "file_size_bytes", *file_size_bytes);
    optional(x, "file_mtime_ms", file_mtime_ms.flatten());
    optional(x, "encoding", encoding.as_deref());
    optional(x, "lines_cut", *lines_cut);
    optional(x, "bom", *bom);
    optional(x, "line_endings", *line_endings);
    optional(x, "approx_tokens", *approx_tokens);
    optional(x, "tokens", *tokens);
    optional(x, "content_hash", content_hash.as_deref());
}

fn symbol_attributes(x: &mut String, symbol: &SymbolInfo) {
    let SymbolInfo {
        name,
        qualified_name,
        kind,
        start_line,
        end_line,
        depth,
    } = symbol;
    optional(x, "name", name.as_deref());
    optional(x, "qualified_name", qualified_name.as_deref());
    attribute(x, "kind", kind);
    attribute(x, "start_line", start_line);
    attribute(x, "end_line", end_line);
    optional(x, "depth", *depth);
}

/// ` name="value"`, the value escaped for an attribute.
fn attribute(x: &mut String, name: &str, value: impl Display) {
    let _ = write!(x, " {name}=\"{}\"", escape(&value.to_string(), true));
}

/// An attribute that is left out when its JSON value is null.
fn optional(x: &mut String, name: &str, value: Option<impl Display>) {
    if let Some(value) = value {
        attribute(x, name, value);
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
    use std::borrow::Cow;

    use serde_json::Value;

    use super::*;

    /// Every field of `value`'s JSON object but `skip` and the nulls, as attributes: what
    /// the typed walk must write.
    fn json_attributes(value: &impl serde::Serialize, skip: &[&str]) -> String {
        let mut x = String::new();
        let value = serde_json::to_value(value).unwrap();
        for (name, value) in value.as_object().unwrap() {
            if value.is_null() || skip.contains(&name.as_str()) {
                continue;
            }
            let text = match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let _ = write!(x, " {name}=\"{}\"", escape(&text, true));
        }
        x
    }

    fn symbol(name: Option<&str>, depth: Option<u32>) -> SymbolInfo {
        SymbolInfo {
            name: name.map(String::from),
            qualified_name: name.map(|n| format!("Outer.{n}")),
            kind: "method",
            start_line: 3,
            end_line: 9,
            depth,
        }
    }

    #[test]
    fn attributes_are_the_json_fields_in_their_order() {
        for detail in [
            ErrorDetail::NulByte { offset: 1234 },
            ErrorDetail::ControlRatio { ratio: 0.42 },
            ErrorDetail::ControlRatio { ratio: 1.0 },
            ErrorDetail::ControlRatio { ratio: f64::NAN },
            ErrorDetail::Extension,
            ErrorDetail::Denied {
                pattern: "secrets/\"*\".pem".into(),
            },
            ErrorDetail::PdfEncrypted,
            ErrorDetail::PdfDamaged,
            ErrorDetail::ImageDamaged,
        ] {
            let mut x = String::new();
            detail_attributes(&mut x, &detail);
            assert_eq!(x, json_attributes(&detail, &[]));
        }

        for symbol in [symbol(Some("run&<x>"), Some(1)), symbol(None, None)] {
            let mut x = String::new();
            symbol_attributes(&mut x, &symbol);
            assert_eq!(x, json_attributes(&symbol, &[]));
        }

        let full = Stats {
            time_ms: 7,
            lines_read: Some(1),
            chars_read: Some(2),
            total_lines: Some(3),
            file_size_bytes: Some(4),
            file_mtime_ms: Some(Some(-5)),
            encoding: Some("utf-16le".into()),
            lines_cut: Some(6),
            bom: Some(true),
            line_endings: Some("crlf"),
            approx_tokens: Some(8),
            tokens: Some(9),
            content_hash: Some("ab12".into()),
        };
        let null_mtime = Stats {
            file_mtime_ms: Some(None),
            ..Stats::default()
        };
        for stats in [full, null_mtime, Stats::default()] {
            let mut x = String::new();
            stats_attributes(&mut x, &stats);
            assert_eq!(x, json_attributes(&stats, &[]));
        }

        let symbols = [symbol(Some("a"), Some(0)), symbol(None, None)];
        let files = [MapFile {
            path: "src/a \"b\".py".into(),
            language: "python",
            not_parsed: Some("timeout"),
            symbols: symbols.to_vec(),
        }];
        let entries = ["x".to_string()];
        let full = Data {
            kind: "file",
            path: "a.txt",
            content: Some(Some(Cow::Borrowed("text"))),
            mime_type: Some("image/png"),
            width: Some(1),
            height: Some(2),
            sent_width: Some(3),
            sent_height: Some(4),
            window: Some(WindowData {
                start_line: 5,
                end_line: Some(6),
                truncated: true,
                truncated_by: Some("bytes"),
                next_start_line: Some(7),
                next_start_char: Some(8),
            }),
            target_line: Some(9),
            fallback_encoding: Some(Some("replace")),
            suggested_encoding: Some("gbk"),
            entries: Some(&entries),
            language: Some(Some("rust")),
            symbol: Some(&symbols[0]),
            symbols: Some(&symbols),
            total_symbols: Some(10),
            files: Some(&files),
            view: Some("signatures"),
            elided: Some(&[]),
        };
        let sparse = Data {
            kind: "directory",
            path: "d",
            content: Some(None),
            mime_type: None,
            width: None,
            height: None,
            sent_width: None,
            sent_height: None,
            window: Some(WindowData {
                start_line: 1,
                end_line: None,
                truncated: false,
                truncated_by: None,
                next_start_line: None,
                next_start_char: None,
            }),
            target_line: None,
            fallback_encoding: Some(None),
            suggested_encoding: None,
            entries: Some(&[]),
            language: None,
            symbol: None,
            symbols: Some(&[]),
            total_symbols: None,
            files: Some(&[]),
            view: None,
            elided: None,
        };
        let elements = [
            "type", "path", "content", "entries", "symbol", "symbols", "files", "elided",
        ];
        for data in [full, sparse] {
            let mut x = String::new();
            data_attributes(&mut x, &data);
            assert_eq!(x, json_attributes(&data, &elements));
        }
    }

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
