//! The tool definition printed by `--tool-schema` (SPEC §7), in each framework's shape.

use serde_json::{Value, json};

use crate::args::cli::SchemaFlavor;
use crate::args::params;

pub const TOOL_NAME: &str = "read";

pub const TOOL_DESCRIPTION: &str = "Read a numbered window of a text file (or list a directory) inside the workspace, with true line numbers, the file's total line count and how to read on; source code also by symbol or as an outline, Jupyter notebooks as cells, PDFs as text page by page, and several files at once with paths.";

/// The JSON Schema of the tool's parameters, from the parameter table.
pub fn parameters() -> Value {
    params::schema()
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
