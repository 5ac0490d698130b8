//! The tool definition printed by `--tool-schema` (SPEC §7), in each framework's shape.

use serde_json::{Value, json};

use crate::cli::SchemaFlavor;
use crate::request::{DEFAULT_LIMIT, MAX_LIMIT};

pub const TOOL_NAME: &str = "read";

pub const TOOL_DESCRIPTION: &str = "Read a numbered window of a text file (or list a directory) inside the workspace, with true line numbers, the file's total line count and how to read on.";

/// The JSON Schema of the tool's parameters: the names, defaults and bounds `--call` accepts.
pub fn parameters() -> Value {
    json!({
        "type": "object",
        "properties": {
            "path": {
                "type": "string",
                "description": "File or directory to read, relative to the workspace root or absolute inside it; '-' reads standard input."
            },
            "start_line": {
                "type": "integer",
                "minimum": 1,
                "default": 1,
                "description": "First line to show, 1-based."
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_LIMIT,
                "default": DEFAULT_LIMIT,
                "description": "Most lines to show."
            },
            "tail": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_LIMIT,
                "description": "Show the last N lines, with their true numbers, instead of a start line. Not with start_line or start_char."
            },
            "start_char": {
                "type": "integer",
                "minimum": 1,
                "default": 1,
                "description": "Begin the first line at this character, to read on inside a long line that was cut."
            },
            "hash": {
                "type": "boolean",
                "default": false,
                "description": "Report stats.content_hash, the BLAKE3 hash of the file's bytes."
            },
            "if_changed": {
                "type": "string",
                "pattern": "^[0-9a-f]{64}$",
                "description": "A content_hash from an earlier read: if the file still has it, the answer is status 'unchanged' without content."
            }
        },
        "required": ["path"],
        "additionalProperties": false
    })
}

pub fn definition(flavor: SchemaFlavor) -> Value {
    match flavor {
        SchemaFlavor::JsonSchema => json!({
            "name": TOOL_NAME,
            "description": TOOL_DESCRIPTION,
            "parameters": parameters(),
        }),
        SchemaFlavor::Openai => json!({
            "type": "function",
            "function": {
                "name": TOOL_NAME,
                "description": TOOL_DESCRIPTION,
                "parameters": parameters(),
            },
        }),
        SchemaFlavor::Anthropic => json!({
            "name": TOOL_NAME,
            "description": TOOL_DESCRIPTION,
            "input_schema": parameters(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::CALL_PARAMETERS;

    #[test]
    fn the_schema_names_exactly_the_parameters_call_accepts() {
        let schema = parameters();
        let mut names: Vec<&str> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        names.sort_unstable();
        let mut accepted: Vec<&str> = CALL_PARAMETERS.iter().map(|n| n[0]).collect();
        accepted.sort_unstable();
        assert_eq!(names, accepted);
    }
}
