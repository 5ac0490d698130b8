//! The JSON format: one object per PATH, one per line, with the keys of SPEC §6.

use std::io::{self, Write};

use serde_json::{Value, json};

use super::Context;
use super::hints::{self, Wording};
use crate::outcome::{Answer, FileFacts, Success};
use crate::read::window::Window;

pub fn write(out: &mut impl Write, context: &Context, answer: &Answer) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &to_value(context, answer))?;
    out.write_all(b"\n")
}

pub fn to_value(context: &Context, answer: &Answer) -> Value {
    let status = answer.status().name();
    let success = match &answer.result {
        Err(error) => {
            return json!({
                "status": status,
                "data": null,
                "text": error_text(error),
                "stats": {"time_ms": answer.time_ms},
                "context": {
                    "cwd": context.cwd,
                    "params_input": answer.params_input,
                    "path_resolved": null,
                },
                "error": {
                    "code": error.code.name(),
                    "message": error.message,
                    "exit_code": error.exit_code(),
                    "suggestions": error.suggestions,
                    "detail": error.detail,
                },
            });
        }
        Ok(success) => success,
    };
    let (data, stats, path_resolved, summary) = match success {
        Success::Text(read) => {
            let w = &read.window;
            let mut data = window_data("file", &read.facts.path, w);
            data["fallback_encoding"] = match w.replaced() {
                true => json!("replace"),
                false => Value::Null,
            };
            if let Some(legacy) = &read.suggested_encoding {
                data["suggested_encoding"] = json!(legacy);
            }
            let mut stats = window_stats(answer, w);
            stats["file_size_bytes"] = json!(read.facts.size_bytes);
            stats["file_mtime_ms"] = json!(read.facts.mtime_ms);
            stats["encoding"] = json!(read.encoding);
            stats["lines_cut"] = json!(w.lines_cut());
            stats["bom"] = json!(read.bom);
            stats["line_endings"] = json!(w.line_endings.name());
            stats["approx_tokens"] = json!(w.chars_read().div_ceil(4));
            add_hash(&mut stats, &read.facts);
            let summary = summary("Read", "line", "lines", "Lines", &read.facts.path, w);
            (data, stats, json!(read.facts.path_resolved), summary)
        }
        Success::Directory(listing) => {
            let w = &listing.window;
            let mut data = window_data("directory", &listing.path, w);
            data["entries"] = json!(listing.entries);
            let mut stats = window_stats(answer, w);
            stats["file_mtime_ms"] = json!(listing.mtime_ms);
            stats["lines_cut"] = json!(w.lines_cut());
            stats["approx_tokens"] = json!(w.chars_read().div_ceil(4));
            let summary = summary("Listed", "entry", "entries", "Entries", &listing.path, w);
            (data, stats, json!(listing.path_resolved), summary)
        }
        Success::Unchanged(unchanged) => {
            let facts = &unchanged.facts;
            let data = json!({"type": "file", "path": facts.path, "content": null});
            let mut stats = json!({
                "time_ms": answer.time_ms,
                "file_size_bytes": facts.size_bytes,
                "file_mtime_ms": facts.mtime_ms,
            });
            add_hash(&mut stats, facts);
            let summary = format!("'{}' is unchanged.", facts.path);
            (data, stats, json!(facts.path_resolved), summary)
        }
        Success::Image(image, facts) => {
            let data = json!({
                "type": "image",
                "path": facts.path,
                "mime_type": image.mime_type,
                "width": image.width,
                "height": image.height,
            });
            let stats = json!({
                "time_ms": answer.time_ms,
                "file_size_bytes": facts.size_bytes,
                "file_mtime_ms": facts.mtime_ms,
            });
            (
                data,
                stats,
                json!(facts.path_resolved),
                image_summary(image, facts),
            )
        }
    };
    let mut text = format!("{summary}\n(Took {}ms)", answer.time_ms);
    for hint in hints::footer(success, &context.spec, Wording::Tool) {
        text.push('\n');
        text.push_str(&hint);
    }
    json!({
        "status": status,
        "data": data,
        "text": text,
        "stats": stats,
        "context": {
            "cwd": context.cwd,
            "params_input": answer.params_input,
            "path_resolved": path_resolved,
        },
    })
}

/// An error's message, then its "did you mean" candidates as text mode prints them: the
/// `text` that many hosts show the model.
pub fn error_text(error: &crate::error::Error) -> String {
    let mut text = error.message.clone();
    if !error.suggestions.is_empty() {
        text.push_str("\nDid you mean one of these?");
        for candidate in &error.suggestions {
            text.push_str("\n  ");
            text.push_str(candidate);
        }
    }
    text
}

/// `Image 'a/logo.png': PNG, 640x480, 12345 bytes.`
pub fn image_summary(image: &crate::image::Image, facts: &FileFacts) -> String {
    format!(
        "Image '{}': {}, {}x{}, {} bytes.",
        facts.path, image.kind, image.width, image.height, facts.size_bytes
    )
}

fn window_data(kind: &str, path: &str, w: &Window) -> Value {
    let next_start_char = w.first_cut().map(|cut| cut.shown_to + 1);
    json!({
        "type": kind,
        "path": path,
        "content": crate::names::utf8(&w.content),
        "start_line": w.start_line,
        "end_line": w.end_line(),
        "truncated": w.truncated(),
        "truncated_by": w.truncated_by.map(|t| t.name()),
        "next_start_line": w.next_start_line(),
        "next_start_char": next_start_char,
    })
}

fn window_stats(answer: &Answer, w: &Window) -> Value {
    json!({
        "time_ms": answer.time_ms,
        "lines_read": w.lines_read(),
        "chars_read": w.chars_read(),
        "total_lines": w.total_lines,
    })
}

fn add_hash(stats: &mut Value, facts: &FileFacts) {
    if let Some(hash) = &facts.content_hash {
        stats["content_hash"] = json!(hash);
    }
}

/// `Read 500 lines from 'src/utils.py' (Lines 1-500).`
fn summary(verb: &str, one: &str, many: &str, range: &str, path: &str, w: &Window) -> String {
    let n = w.lines_read();
    let unit = if n == 1 { one } else { many };
    match w.end_line() {
        Some(last) => format!(
            "{verb} {n} {unit} from '{path}' ({range} {}-{last}).",
            w.start_line
        ),
        None => format!("{verb} {n} {unit} from '{path}'."),
    }
}
