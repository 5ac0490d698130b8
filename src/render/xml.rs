//! The XML format: one well-formed element per PATH, for any file content.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::Context;
use super::hints::{self, Wording};
use crate::error::BinaryEvidence;
use crate::outcome::{Answer, Success};
use crate::read::window::Window;

pub fn write(out: &mut impl Write, context: &Context, answer: &Answer) -> io::Result<()> {
    out.write_all(to_string(context, answer).as_bytes())
}

pub fn to_string(context: &Context, answer: &Answer) -> String {
    let mut x = String::new();
    let success = match &answer.result {
        Err(error) => {
            let _ = write!(
                x,
                "<error code=\"{}\" exit_code=\"{}\"",
                error.code.name(),
                error.exit_code()
            );
            if !answer.label.is_empty() {
                let _ = write!(x, " path=\"{}\"", escape(&answer.label, true));
            }
            let _ = write!(x, ">{}", escape(&error.message, false));
            for candidate in &error.suggestions {
                let _ = write!(x, "<suggestion>{}</suggestion>", escape(candidate, false));
            }
            match &error.detail {
                Some(BinaryEvidence::NulByte { offset }) => {
                    let _ = write!(x, "<detail reason=\"nul_byte\" offset=\"{offset}\"/>");
                }
                Some(BinaryEvidence::ControlRatio { ratio }) => {
                    let _ = write!(x, "<detail reason=\"control_ratio\" ratio=\"{ratio}\"/>");
                }
                Some(BinaryEvidence::Extension) => x.push_str("<detail reason=\"extension\"/>"),
                Some(BinaryEvidence::Denied { pattern }) => {
                    let _ = write!(
                        x,
                        "<detail reason=\"denied\" pattern=\"{}\"/>",
                        escape(pattern, true)
                    );
                }
                None => {}
            }
            x.push_str("</error>\n");
            return x;
        }
        Ok(success) => success,
    };
    let (root, path, window) = match success {
        Success::Text(read) => ("file", read.facts.path.as_str(), Some(&read.window)),
        Success::Directory(listing) => ("directory", listing.path.as_str(), Some(&listing.window)),
        Success::Unchanged(unchanged) => ("file", unchanged.facts.path.as_str(), None),
        Success::Image(_, facts) => ("image", facts.path.as_str(), None),
    };
    let _ = writeln!(x, "<{root}>");
    let _ = writeln!(x, "<path>{}</path>", escape(path, false));
    let _ = writeln!(x, "<type>{root}</type>");
    let _ = writeln!(x, "<status>{}</status>", answer.status().name());
    if let Some(window) = window {
        let _ = writeln!(x, "<content>");
        x.push_str(&escape(&crate::names::utf8(&window.content), false));
        x.push_str("</content>\n");
    }
    if let Success::Directory(listing) = success {
        x.push_str("<entries>");
        for entry in &listing.entries {
            let _ = write!(x, "<entry>{}</entry>", escape(entry, false));
        }
        x.push_str("</entries>\n");
    }
    for hint in hints::footer(success, &context.spec, Wording::Cli) {
        let _ = writeln!(x, "<hint>{}</hint>", escape(&hint, false));
    }
    x.push_str("<stats");
    let mut attr = |name: &str, value: Option<String>| {
        if let Some(value) = value {
            let _ = write!(x, " {name}=\"{}\"", escape(&value, true));
        }
    };
    let some = |v: u64| Some(v.to_string());
    if let Some(w) = window {
        window_attributes(&mut attr, w);
    }
    match success {
        Success::Text(read) => {
            attr("encoding", Some(read.encoding.clone()));
            attr("chars_read", window.map(Window::chars_read).and_then(some));
            attr("lines_cut", window.map(Window::lines_cut).and_then(some));
            attr(
                "fallback_encoding",
                window.filter(|w| w.replaced()).map(|_| "replace".into()),
            );
            attr("file_size_bytes", some(read.facts.size_bytes));
            attr("file_mtime_ms", read.facts.mtime_ms.map(|m| m.to_string()));
            attr("bom", Some(read.bom.to_string()));
            attr("line_endings", Some(read.window.line_endings.name().into()));
            attr("approx_tokens", some(read.window.chars_read().div_ceil(4)));
            attr("suggested_encoding", read.suggested_encoding.clone());
            attr("content_hash", read.facts.content_hash.clone());
        }
        Success::Directory(listing) => {
            attr("file_mtime_ms", listing.mtime_ms.map(|m| m.to_string()));
        }
        Success::Unchanged(unchanged) => {
            attr("file_size_bytes", some(unchanged.facts.size_bytes));
            attr(
                "file_mtime_ms",
                unchanged.facts.mtime_ms.map(|m| m.to_string()),
            );
            attr("content_hash", unchanged.facts.content_hash.clone());
        }
        Success::Image(image, facts) => {
            attr("mime_type", Some(image.mime_type.to_string()));
            attr("width", some(image.width));
            attr("height", some(image.height));
            attr("file_size_bytes", some(facts.size_bytes));
            attr("file_mtime_ms", facts.mtime_ms.map(|m| m.to_string()));
        }
    }
    attr("time_ms", some(answer.time_ms));
    x.push_str("/>\n");
    let _ = writeln!(x, "</{root}>");
    x
}

fn window_attributes(attr: &mut impl FnMut(&str, Option<String>), w: &Window) {
    attr("total_lines", Some(w.total_lines.to_string()));
    attr("lines_read", Some(w.lines_read().to_string()));
    attr("start_line", Some(w.start_line.to_string()));
    attr("end_line", w.end_line().map(|n| n.to_string()));
    attr(
        "next_start_line",
        w.next_start_line().map(|n| n.to_string()),
    );
    attr("truncated", Some(w.truncated().to_string()));
    attr("truncated_by", w.truncated_by.map(|t| t.name().to_string()));
    attr(
        "next_start_char",
        w.first_cut().map(|cut| (cut.shown_to + 1).to_string()),
    );
}

/// Escapes text for XML 1.0. Markup characters become entities (`>` too, so `]]>` cannot
/// appear), `\r` a character reference (parsers would otherwise turn it into `\n`), and
/// characters XML 1.0 cannot carry their control pictures. In attributes, tabs and
/// newlines are references too, so that they survive attribute normalisation.
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
    }
}
