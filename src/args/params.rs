//! The tool's parameters (SPEC §7): one table, from which the command line's per-call
//! flags, the parsing of `--call` and MCP arguments, `context.params_input`, the message
//! that refuses an unknown key and the tool schema are all derived. A new parameter is one
//! entry of [`PARAMS`] plus a field of [`CallParams`] and its behaviour.

use clap::{Arg, ArgAction, ArgMatches, Command, ValueHint};
use serde_json::{Map, Value, json};

use crate::error::Error;

pub const DEFAULT_LIMIT: u64 = 500;
pub const DEFAULT_MAX_LINE_CHARS: u64 = 2000;
/// The longest cut `--max-line-chars` may ask for (SPEC §1).
pub const MAX_LINE_CHARS: u64 = 1_000_000;
pub const DEFAULT_MAX_BYTES: u64 = 51200;
pub const MAX_LIMIT: u64 = 2000;
pub const MAX_CONTEXT: u64 = 999;
/// The largest `--max-tokens` (SPEC §18).
pub const MAX_TOKENS: u64 = 1_000_000;
/// The MCP server's token budget unless its `--max-tokens` says otherwise: under the
/// 10,000-token warning Claude Code prints for a tool answer.
pub const MCP_MAX_TOKENS: u64 = 9000;
/// The most targets one call's `paths` names.
pub const MAX_PATHS: usize = 50;

/// The wire name of each parameter: the one place it is spelt, for the table and for the
/// messages and hints that name a parameter.
pub mod name {
    pub const PATH: &str = "path";
    pub const PATHS: &str = "paths";
    pub const START_LINE: &str = "start_line";
    pub const LIMIT: &str = "limit";
    pub const TAIL: &str = "tail";
    pub const START_CHAR: &str = "start_char";
    pub const CONTEXT: &str = "context";
    pub const HASH: &str = "hash";
    pub const IF_CHANGED: &str = "if_changed";
    pub const END_LINE: &str = "end_line";
    pub const VIEW_RANGE: &str = "view_range";
    pub const SYMBOL: &str = "symbol";
    /// The parameters that ask for a view are named as the view (`data.view`).
    pub const OUTLINE: &str = crate::outcome::view::OUTLINE;
    pub const ENCLOSING: &str = "enclosing";
    pub const RAW: &str = "raw";
    pub const ENCODING: &str = "encoding";
    pub const MAX_TOKENS: &str = "max_tokens";
    pub const SIGNATURES: &str = crate::outcome::view::SIGNATURES;
    pub const FIT: &str = "fit";
}

/// The tool parameters of one call, each checked on its own (their combination is checked
/// by `request`). `None` and `false`: not given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallParams {
    /// `path` in a tool call (the command line's PATHs are positional).
    pub path: Option<String>,
    /// `paths`: several targets in one call (SPEC §16), 1 to [`MAX_PATHS`].
    pub paths: Option<Vec<String>>,
    pub start_line: Option<u64>,
    pub limit: Option<u64>,
    pub tail: Option<u64>,
    pub start_char: Option<u64>,
    /// `-C K`: lines around a `PATH:N` target.
    pub context: Option<u64>,
    pub hash: bool,
    pub if_changed: Option<String>,
    pub end_line: Option<u64>,
    pub view_range: Option<ViewRange>,
    /// A WHATWG label, `utf-8` or `auto` (checked).
    pub encoding: Option<String>,
    /// A symbol of the file (SPEC §15), as `PATH#SYMBOL` names it.
    pub symbol: Option<String>,
    pub outline: bool,
    pub enclosing: bool,
    /// Notebooks and PDFs as their bytes (SPEC §16).
    pub raw: bool,
    /// A budget for the content in `o200k_base` tokens (SPEC §18).
    pub max_tokens: Option<u64>,
    /// Function and method bodies elided (SPEC §18).
    pub signatures: bool,
    /// The richest view that fits the budget whole (SPEC §18).
    pub fit: bool,
}

/// `[start, end]` of `view_range`, `end` None for "to the end".
pub type ViewRange = (u64, Option<u64>);

/// One parameter: its names, how the command line spells it, its type and bounds, and
/// the words that describe it.
pub struct Param {
    /// The name on the wire (`--call`, MCP, `params_input`, the schema).
    pub name: &'static str,
    /// Other names a tool call may use.
    pub aliases: &'static [&'static str],
    /// The command line's long flag (the wire name's constant where they are one word,
    /// else its kebab-case); None for a parameter of tool calls only.
    pub long: Option<&'static str>,
    pub short: Option<char>,
    pub value_name: &'static str,
    /// The line of `--help`.
    pub help: &'static str,
    /// The tool schema's description.
    pub description: &'static str,
    /// Listed in the tool schema; the others are accepted without being advertised.
    pub advertised: bool,
    pub required: bool,
    pub kind: ParamType,
}

/// A parameter's type, its bounds, and the field of [`CallParams`] it fills.
pub enum ParamType {
    Integer {
        min: u64,
        max: u64,
        default: Option<u64>,
        field: fn(&mut CallParams) -> &mut Option<u64>,
    },
    Flag {
        field: fn(&mut CallParams) -> &mut bool,
    },
    /// A string, checked by `check` (which gets the name as the caller spelled it).
    Text {
        pattern: Option<&'static str>,
        check: fn(&str, &str) -> Result<String, Error>,
        expected: &'static str,
        field: fn(&mut CallParams) -> &mut Option<String>,
    },
    /// A list of 1 to `max` strings.
    List {
        max: usize,
        field: fn(&mut CallParams) -> &mut Option<Vec<String>>,
    },
    /// `[start, end]`, `end` -1 for the end of the file.
    Range {
        field: fn(&mut CallParams) -> &mut Option<ViewRange>,
    },
}

/// The parameters, in the order `params_input` lists the command line's and the schema
/// lists them.
pub static PARAMS: &[Param] = &[
    Param {
        name: name::PATH,
        aliases: &["file_path", "filePath"],
        long: None,
        short: None,
        value_name: "PATH",
        help: "",
        // One schema serves --tool-schema and MCP (SPEC §12), and the MCP server cannot
        // read standard input: '-', which --call accepts, is not advertised.
        description: "File or directory to read, relative to the workspace root or absolute inside it.",
        advertised: true,
        required: false,
        kind: ParamType::Text {
            pattern: None,
            check: |_, path| Ok(path.to_string()),
            expected: "a string",
            field: |g| &mut g.path,
        },
    },
    Param {
        name: name::PATHS,
        aliases: &[],
        long: None,
        short: None,
        value_name: "PATHS",
        help: "",
        description: "Instead of path: 1 to 50 files to read in one call, each written as path would be (a.rs:10-20, a.rs#Window.render), answered in turn within one byte budget.",
        advertised: true,
        required: false,
        kind: ParamType::List {
            max: MAX_PATHS,
            field: |g| &mut g.paths,
        },
    },
    Param {
        name: name::START_LINE,
        aliases: &["offset"],
        long: Some("start-line"),
        short: Some('s'),
        value_name: "N",
        help: "First line to show, 1-based [default: 1]",
        description: "First line to show, 1-based.",
        advertised: true,
        required: false,
        kind: ParamType::Integer {
            min: 1,
            max: u64::MAX,
            default: Some(1),
            field: |g| &mut g.start_line,
        },
    },
    Param {
        name: name::LIMIT,
        aliases: &["max_lines"],
        long: Some(name::LIMIT),
        short: Some('n'),
        value_name: "N",
        help: "Most lines to show, 1-2000 [default: 500]",
        description: "Most lines to show.",
        advertised: true,
        required: false,
        kind: ParamType::Integer {
            min: 1,
            max: MAX_LIMIT,
            default: Some(DEFAULT_LIMIT),
            field: |g| &mut g.limit,
        },
    },
    Param {
        name: name::TAIL,
        aliases: &[],
        long: Some(name::TAIL),
        short: None,
        value_name: "N",
        help: "Show the last N lines (1-2000) instead of a start line",
        description: "Show the last N lines, with their true numbers, instead of a start line. Not with start_line or start_char.",
        advertised: true,
        required: false,
        kind: ParamType::Integer {
            min: 1,
            max: MAX_LIMIT,
            default: None,
            field: |g| &mut g.tail,
        },
    },
    Param {
        name: name::START_CHAR,
        aliases: &[],
        long: Some("start-char"),
        short: None,
        value_name: "C",
        help: "Begin the first line of the window at character C, to page inside a long line [default: 1]",
        description: "Begin the first line at this character, to read on inside a long line that was cut.",
        advertised: true,
        required: false,
        kind: ParamType::Integer {
            min: 1,
            max: u64::MAX,
            default: Some(1),
            field: |g| &mut g.start_char,
        },
    },
    Param {
        name: name::CONTEXT,
        aliases: &[],
        long: Some(name::CONTEXT),
        short: Some('C'),
        value_name: "K",
        help: "With a PATH:N target, show K lines before and after line N (0-999)",
        description: "With a PATH:N target, K lines before and after line N.",
        advertised: false,
        required: false,
        kind: ParamType::Integer {
            min: 0,
            max: MAX_CONTEXT,
            default: None,
            field: |g| &mut g.context,
        },
    },
    Param {
        name: name::HASH,
        aliases: &[],
        long: Some(name::HASH),
        short: None,
        value_name: "",
        help: "Report the BLAKE3 hash of the file's bytes in stats.content_hash",
        description: "Report stats.content_hash, the BLAKE3 hash of the file's bytes.",
        advertised: true,
        required: false,
        kind: ParamType::Flag {
            field: |g| &mut g.hash,
        },
    },
    Param {
        name: name::IF_CHANGED,
        aliases: &[],
        long: Some("if-changed"),
        short: None,
        value_name: "HASH",
        help: "Answer `unchanged`, without content, when the file's hash is HASH",
        description: "A content_hash from an earlier read: if the file still has it, the answer is status 'unchanged' without content.",
        advertised: true,
        required: false,
        kind: ParamType::Text {
            pattern: Some("^[0-9a-f]{64}$"),
            check: check_hash,
            expected: "a 64-digit lowercase hex hash",
            field: |g| &mut g.if_changed,
        },
    },
    Param {
        name: name::END_LINE,
        aliases: &[],
        long: None,
        short: None,
        value_name: "N",
        help: "",
        description: "Last line to show, 1-based and inclusive (in place of limit).",
        advertised: false,
        required: false,
        kind: ParamType::Integer {
            min: 1,
            max: u64::MAX,
            default: None,
            field: |g| &mut g.end_line,
        },
    },
    Param {
        name: name::VIEW_RANGE,
        aliases: &[],
        long: None,
        short: None,
        value_name: "RANGE",
        help: "",
        description: "[start, end], 1-based and inclusive, end -1 for the end of the file (in place of limit).",
        advertised: false,
        required: false,
        kind: ParamType::Range {
            field: |g| &mut g.view_range,
        },
    },
    Param {
        name: name::SYMBOL,
        aliases: &[],
        long: None,
        short: None,
        value_name: "SYMBOL",
        help: "",
        description: "Read one function, class, method or Markdown section by name (Window.render, render, or a heading), instead of guessing its lines; path names the file. start_line inside it pages the symbol from there; not with tail or start_char.",
        advertised: true,
        required: false,
        kind: ParamType::Text {
            pattern: None,
            check: check_symbol,
            expected: "a string",
            field: |g| &mut g.symbol,
        },
    },
    Param {
        name: name::OUTLINE,
        aliases: &[],
        long: Some(name::OUTLINE),
        short: None,
        value_name: "",
        help: "List the file's symbols (functions, classes, sections) with their lines, or a directory's map",
        description: "List the file's symbols (functions, classes, methods, Markdown sections) with their line ranges instead of its lines: use it first on a large source file, then read one symbol. On a directory, a map of its source files.",
        advertised: true,
        required: false,
        kind: ParamType::Flag {
            field: |g| &mut g.outline,
        },
    },
    Param {
        name: name::ENCLOSING,
        aliases: &[],
        long: Some(name::ENCLOSING),
        short: None,
        value_name: "",
        help: "With PATH:N or --start-line N, read the whole function or block that holds line N",
        description: "With a path like a.rs:120 or start_line=120, read the whole function, method or class that holds that line (as a stack trace's frame points at it).",
        advertised: true,
        required: false,
        kind: ParamType::Flag {
            field: |g| &mut g.enclosing,
        },
    },
    Param {
        name: name::RAW,
        aliases: &[],
        long: Some(name::RAW),
        short: None,
        value_name: "",
        help: "Read notebooks and PDFs as their bytes, not as a view",
        description: "Read a notebook as its JSON text and a PDF as the binary file it is, instead of their readable view.",
        advertised: true,
        required: false,
        kind: ParamType::Flag {
            field: |g| &mut g.raw,
        },
    },
    Param {
        name: name::ENCODING,
        aliases: &[],
        long: None,
        short: None,
        value_name: "E",
        help: "",
        description: "How to decode the file: utf-8 (the default), auto (detect), or a WHATWG label such as windows-1252, shift_jis, gbk or utf-16le.",
        advertised: true,
        required: false,
        kind: ParamType::Text {
            pattern: None,
            check: check_encoding,
            expected: "an encoding name",
            field: |g| &mut g.encoding,
        },
    },
    Param {
        name: name::MAX_TOKENS,
        aliases: &[],
        long: Some("max-tokens"),
        short: None,
        value_name: "N",
        help: "Budget for the window's content in o200k_base tokens, 1-1000000 [default: none; 9000 with --mcp]",
        description: "Most tokens (o200k_base) of content to show, as the window's budget: set it to what you can afford for this read; the server's default applies otherwise.",
        advertised: true,
        required: false,
        kind: ParamType::Integer {
            min: 1,
            max: MAX_TOKENS,
            default: None,
            field: |g| &mut g.max_tokens,
        },
    },
    Param {
        name: name::SIGNATURES,
        aliases: &[],
        long: Some(name::SIGNATURES),
        short: None,
        value_name: "",
        help: "Show the file with function and method bodies elided and long comments cut to their first paragraph",
        description: "Show a source file with its function and method bodies elided (one marker line each) and long comments cut to their first paragraph: the whole file's API in a fraction of the tokens. Use it to understand a large file before reading one symbol.",
        advertised: true,
        required: false,
        kind: ParamType::Flag {
            field: |g| &mut g.signatures,
        },
    },
    Param {
        name: name::FIT,
        aliases: &[],
        long: Some(name::FIT),
        short: None,
        value_name: "",
        help: "Show the richest view that fits the budget whole: the lines, else signatures, else the outline",
        description: "Show the richest view of the file that fits the token (or byte) budget whole: its lines, else its signatures, else its outline. Use it when a file may be too large to read at once.",
        advertised: true,
        required: false,
        kind: ParamType::Flag {
            field: |g| &mut g.fit,
        },
    },
];

impl std::fmt::Debug for Param {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl Param {
    /// The flag as the command line spells it (`--start-line`), else the name.
    pub fn flag(&self) -> String {
        match self.long {
            Some(long) => format!("--{long}"),
            None => self.name.to_string(),
        }
    }

    /// The command line's argument, whose id is the parameter's name.
    fn arg(&self) -> Option<Arg> {
        let long = self.long?;
        let arg = Arg::new(self.name).long(long).help(self.help);
        let arg = match self.short {
            Some(short) => arg.short(short),
            None => arg,
        };
        Some(match self.kind {
            ParamType::Flag { .. } => arg.action(ArgAction::SetTrue),
            // Values are taken as text and checked here, so that the command line and
            // tool calls share one set of checks and messages.
            _ => arg.value_name(self.value_name).value_hint(ValueHint::Other),
        })
    }

    /// Checks one value of a tool call (`key` is the name the caller used) into `given`.
    fn take_json(&self, key: &str, value: &Value, given: &mut CallParams) -> Result<(), Error> {
        match &self.kind {
            ParamType::Integer {
                min, max, field, ..
            } => *field(given) = Some(json_bounded(key, value, *min, *max)?),
            ParamType::Flag { field } => {
                *field(given) = match value {
                    Value::Bool(b) => *b,
                    Value::String(s) if s == "true" || s == "false" => s == "true",
                    _ => {
                        return Err(Error::invalid_param(format!(
                            "Invalid value {value} for {key}: expected true or false."
                        )));
                    }
                }
            }
            ParamType::Text {
                check,
                expected,
                field,
                ..
            } => {
                let Value::String(text) = value else {
                    return Err(Error::invalid_param(format!(
                        "Invalid value {value} for {key}: expected {expected}."
                    )));
                };
                *field(given) = Some(check(key, text)?);
            }
            ParamType::List { max, field } => *field(given) = Some(string_list(key, value, *max)?),
            ParamType::Range { field } => *field(given) = Some(parse_view_range(value)?),
        }
        Ok(())
    }

    /// Checks one value of the command line into `given`.
    fn take_cli(&self, raw: &CliValue, given: &mut CallParams) -> Result<(), Error> {
        let flag = self.flag();
        match (&self.kind, raw) {
            (ParamType::Flag { field }, _) => *field(given) = true,
            (
                ParamType::Integer {
                    min, max, field, ..
                },
                CliValue::Text(raw),
            ) => {
                *field(given) = Some(cli_bounded(&flag, raw, *min, *max)?);
            }
            (ParamType::Text { check, field, .. }, CliValue::Text(raw)) => {
                *field(given) = Some(check(&flag, raw)?);
            }
            // Ranges and bare flags have no command-line spelling that reaches here.
            (
                ParamType::Integer { .. }
                | ParamType::Text { .. }
                | ParamType::List { .. }
                | ParamType::Range { .. },
                _,
            ) => {}
        }
        Ok(())
    }

    /// The parameter's JSON Schema.
    fn schema(&self) -> Value {
        let mut schema = match &self.kind {
            ParamType::Integer {
                min, max, default, ..
            } => {
                let mut s = json!({"type": "integer", "minimum": min});
                if *max != u64::MAX {
                    s["maximum"] = json!(max);
                }
                if let Some(default) = default {
                    s["default"] = json!(default);
                }
                s
            }
            ParamType::Flag { .. } => json!({"type": "boolean", "default": false}),
            ParamType::Text { pattern, .. } => {
                let mut s = json!({"type": "string"});
                if let Some(pattern) = pattern {
                    s["pattern"] = json!(pattern);
                }
                s
            }
            ParamType::List { max, .. } => json!({
                "type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": max
            }),
            ParamType::Range { .. } => json!({
                "type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2
            }),
        };
        schema["description"] = json!(self.description);
        schema
    }
}

/// How hints and messages name a parameter: as the command line's flag or as the tool's
/// parameter, in the language of whoever reads them (SPEC §12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wording {
    /// `--start-line 501`.
    Cli,
    /// `start_line=501`: `--call` and MCP, whose callers pass parameters, not flags.
    Tool,
}

impl Wording {
    /// The parameter `name` (a tool parameter's, or a setting's in snake case).
    pub fn name(self, name: &str) -> String {
        match self {
            Wording::Tool => name.to_string(),
            Wording::Cli => match by_key(name).and_then(|p| p.long) {
                Some(long) => format!("--{long}"),
                None => format!("--{}", name.replace('_', "-")),
            },
        }
    }

    /// A flag turned on: `--outline`, or `outline=true`.
    pub fn flag(self, name: &str) -> String {
        match self {
            Wording::Cli => self.name(name),
            Wording::Tool => format!("{name}=true"),
        }
    }

    /// Parameters with their values: `--start-line 1 --start-char 2001`, or
    /// `start_line=1, start_char=2001`.
    pub fn set(self, values: &[(&str, &dyn std::fmt::Display)]) -> String {
        let parts: Vec<String> = values
            .iter()
            .map(|(name, value)| match self {
                Wording::Cli => format!("{} {value}", self.name(name)),
                Wording::Tool => format!("{name}={value}"),
            })
            .collect();
        parts.join(match self {
            Wording::Cli => " ",
            Wording::Tool => ", ",
        })
    }
}

/// The JSON Schema of the tool's parameters: the advertised names, defaults and bounds.
pub fn schema() -> Value {
    let properties: Map<String, Value> = PARAMS
        .iter()
        .filter(|p| p.advertised)
        .map(|p| (p.name.to_string(), p.schema()))
        .collect();
    let required: Vec<&str> = PARAMS
        .iter()
        .filter(|p| p.required)
        .map(|p| p.name)
        .collect();
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false
    })
}

/// The parameter a tool call's key names, by its name or an alias.
pub fn by_key(key: &str) -> Option<&'static Param> {
    PARAMS
        .iter()
        .find(|p| p.name == key || p.aliases.contains(&key))
}

/// The advertised parameters (with their aliases), for the message that refuses an
/// unknown one: what the schema offers, so that a model retries with a parameter it was
/// given, then the unadvertised range words (`context`, `end_line`, `view_range`), which
/// are accepted too.
fn accepted() -> String {
    let advertised = PARAMS
        .iter()
        .filter(|p| p.advertised)
        .map(|p| match p.aliases {
            [] => p.name.to_string(),
            aliases => format!("{} ({})", p.name, aliases.join(", ")),
        })
        .collect::<Vec<_>>()
        .join(", ");
    // The others are accepted too (SPEC §7 names them all), after those offered.
    let others: Vec<&str> = PARAMS
        .iter()
        .filter(|p| !p.advertised)
        .map(|p| p.name)
        .collect();
    match others.is_empty() {
        true => advertised,
        false => format!("{advertised}; also {}", others.join(", ")),
    }
}

/// `paths`: an array of 1 to `max` strings.
fn string_list(key: &str, value: &Value, max: usize) -> Result<Vec<String>, Error> {
    let expected = || {
        Error::invalid_param(format!(
            "Invalid value {value} for {key}: expected an array of 1 to {max} paths (strings)."
        ))
    };
    let Value::Array(items) = value else {
        return Err(expected());
    };
    if items.is_empty() || items.len() > max {
        return Err(Error::invalid_param(format!(
            "{key} names {} paths; one call reads 1 to {max}.",
            items.len()
        )));
    }
    items
        .iter()
        .map(|item| item.as_str().map(str::to_string).ok_or_else(expected))
        .collect()
}

/// A tool call's arguments, each checked on its own. Unknown keys, and one parameter given
/// under two names, are refused; `null` is a parameter left out (frameworks send it).
pub fn from_json(object: &Map<String, Value>) -> Result<CallParams, Error> {
    let mut given = CallParams::default();
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for (key, value) in object {
        let Some(param) = by_key(key) else {
            return Err(Error::invalid_param(format!(
                "Unknown parameter '{key}'. Accepted: {}.",
                accepted()
            )));
        };
        if let Some((_, first)) = seen.iter().find(|(name, _)| *name == param.name) {
            return Err(Error::invalid_param(format!(
                "The parameter '{}' is given twice (as '{first}' and '{key}').",
                param.name
            )));
        }
        seen.push((param.name, key));
        if !value.is_null() {
            param.take_json(key, value, &mut given)?;
        }
    }
    Ok(given)
}

/// A per-call value as the command line gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CliValue {
    Flag,
    Text(String),
}

/// The command line's per-call options, unchecked: the table's flags, added to the clap
/// definition by `#[command(flatten)]`.
#[derive(Debug, Clone, Default)]
pub struct CliParams {
    pub given: Vec<(&'static Param, CliValue)>,
}

impl CliParams {
    /// The first option given, as the command line spells it.
    pub fn first_flag(&self) -> Option<String> {
        self.given.first().map(|(p, _)| p.flag())
    }

    /// Checks each value into one `CallParams`.
    pub fn check(&self) -> Result<CallParams, Error> {
        let mut given = CallParams::default();
        for (param, raw) in &self.given {
            param.take_cli(raw, &mut given)?;
        }
        Ok(given)
    }

    /// The options under their tool names with their values as given (`-n 3` becomes
    /// `"limit":3`; a value that is not a number stays text).
    pub fn params_input(&self) -> Map<String, Value> {
        self.given
            .iter()
            .map(|(param, raw)| {
                let value = match raw {
                    CliValue::Flag => Value::Bool(true),
                    CliValue::Text(raw) => match param.kind {
                        ParamType::Integer { .. } => match raw.parse::<u64>() {
                            Ok(n) => Value::from(n),
                            Err(_) => match raw.parse::<i64>() {
                                Ok(n) => Value::from(n),
                                Err(_) => Value::String(raw.clone()),
                            },
                        },
                        _ => Value::String(raw.clone()),
                    },
                };
                (param.name.to_string(), value)
            })
            .collect()
    }
}

impl clap::Args for CliParams {
    fn augment_args(cmd: Command) -> Command {
        PARAMS
            .iter()
            .filter_map(Param::arg)
            .fold(cmd, |cmd, arg| cmd.arg(arg))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for CliParams {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Vec::new();
        for param in PARAMS.iter().filter(|p| p.long.is_some()) {
            match param.kind {
                ParamType::Flag { .. } => {
                    if matches.get_flag(param.name) {
                        given.push((param, CliValue::Flag));
                    }
                }
                _ => {
                    if let Some(value) = matches.get_one::<String>(param.name) {
                        given.push((param, CliValue::Text(value.clone())));
                    }
                }
            }
        }
        Ok(CliParams { given })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

fn range_text(min: u64, max: u64) -> String {
    if max == u64::MAX {
        format!("an integer of at least {min}")
    } else {
        format!("an integer from {min} to {max}")
    }
}

/// A command-line integer within bounds; `flag` is how the message names it.
pub fn cli_bounded(flag: &str, raw: &str, min: u64, max: u64) -> Result<u64, Error> {
    raw.parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| {
            Error::invalid_param(format!(
                "Invalid value '{raw}' for {flag}: expected {}.",
                range_text(min, max)
            ))
        })
}

/// A JSON integer (or a string of digits, as models sometimes send) within bounds.
fn json_bounded(key: &str, value: &Value, min: u64, max: u64) -> Result<u64, Error> {
    let number = match value {
        Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 1.8e19)
                .map(|f| f as u64)
        }),
        Value::String(s) => s.parse::<u64>().ok(),
        _ => None,
    };
    number.filter(|n| (min..=max).contains(n)).ok_or_else(|| {
        Error::invalid_param(format!(
            "Invalid value {value} for {key}: expected {}.",
            range_text(min, max)
        ))
    })
}

/// The longest `symbol`, in bytes: as long as the longest PATH (SPEC §2), so that a call
/// cannot make an answer large by its symbol alone.
pub const MAX_SYMBOL_BYTES: usize = 4096;

fn check_symbol(name: &str, symbol: &str) -> Result<String, Error> {
    if symbol.trim().is_empty() {
        return Err(Error::invalid_param(format!(
            "{name} is empty: give a symbol's name (render, Window.render, or a heading)."
        )));
    }
    if symbol.len() > MAX_SYMBOL_BYTES {
        return Err(Error::invalid_param(format!(
            "{name} is {} bytes long; at most {MAX_SYMBOL_BYTES} bytes name a symbol.",
            symbol.len()
        )));
    }
    Ok(symbol.to_string())
}

fn check_encoding(_: &str, label: &str) -> Result<String, Error> {
    match crate::read::sniff::EncodingChoice::from_label(label) {
        Some(_) => Ok(label.to_string()),
        None => Err(Error::invalid_param(format!(
            "Unknown encoding '{label}': use utf-8, auto, or a WHATWG label such as gbk, shift_jis, euc-kr, big5, windows-1252 or utf-16le."
        ))),
    }
}

fn check_hash(name: &str, hash: &str) -> Result<String, Error> {
    let valid = hash.len() == 64 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if valid {
        Ok(hash.to_string())
    } else {
        // Named as the caller names it: a flag on the command line, a parameter in a call.
        let asks = match name.starts_with("--") {
            true => "--hash",
            false => "hash=true",
        };
        Err(Error::invalid_param(format!(
            "Invalid value '{hash}' for {name}: expected the 64-digit lowercase hex BLAKE3 hash that {asks} reports."
        )))
    }
}

/// `[start, end]`, 1-based and inclusive, `end` = -1 for "to the end".
fn parse_view_range(value: &Value) -> Result<ViewRange, Error> {
    let invalid = || {
        Error::invalid_param(format!(
            "Invalid value {value} for view_range: expected [start, end] with 1 ≤ start, and end ≥ start or -1 for the end of the file."
        ))
    };
    let Value::Array(pair) = value else {
        return Err(invalid());
    };
    let [start, end] = pair.as_slice() else {
        return Err(invalid());
    };
    let start = start.as_u64().filter(|n| *n >= 1).ok_or_else(invalid)?;
    match end.as_i64() {
        Some(-1) => Ok((start, None)),
        _ => Ok((
            start,
            Some(end.as_u64().filter(|n| *n >= 1).ok_or_else(invalid)?),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(json: &str) -> Map<String, Value> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn aliases_fill_one_parameter() {
        let given = from_json(&object(
            r#"{"file_path":"a.rs","offset":5,"max_lines":"7"}"#,
        ));
        let given = given.unwrap();
        assert_eq!(given.path.as_deref(), Some("a.rs"));
        assert_eq!((given.start_line, given.limit), (Some(5), Some(7)));
    }

    #[test]
    fn unknown_keys_are_refused_naming_every_accepted_one() {
        let err = from_json(&object(r#"{"path":"a","lines":3}"#)).unwrap_err();
        assert_eq!(
            err.message,
            "Unknown parameter 'lines'. Accepted: path (file_path, filePath), paths, start_line (offset), limit (max_lines), tail, start_char, hash, if_changed, symbol, outline, enclosing, raw, encoding, max_tokens, signatures, fit; also context, end_line, view_range."
        );
        assert!(from_json(&object(r#"{"path":"a","filePath":"b"}"#)).is_err());
        // An empty symbol names none: a parameter given wrong, not a symbol not found.
        for empty in [
            r#"{"path":"a","symbol":""}"#,
            r#"{"path":"a","symbol":"  "}"#,
        ] {
            let err = from_json(&object(empty)).unwrap_err();
            assert_eq!(err.code, crate::error::ErrorCode::InvalidParam, "{empty}");
        }
    }

    #[test]
    fn every_parameter_is_accepted_by_its_name_and_aliases() {
        for param in PARAMS {
            for key in std::iter::once(&param.name).chain(param.aliases) {
                assert!(std::ptr::eq(by_key(key).unwrap(), param), "{key}");
            }
        }
    }

    #[test]
    fn out_of_range_values_are_refused_not_clamped() {
        assert!(cli_bounded("--limit", "2001", 1, MAX_LIMIT).is_err());
        assert!(cli_bounded("--limit", "0", 1, MAX_LIMIT).is_err());
        assert_eq!(cli_bounded("--limit", "2000", 1, MAX_LIMIT).unwrap(), 2000);
        let err = cli_bounded("--limit", "abc", 1, MAX_LIMIT).unwrap_err();
        assert_eq!(
            err.message,
            "Invalid value 'abc' for --limit: expected an integer from 1 to 2000."
        );
        assert!(json_bounded("limit", &json!(2.5), 1, MAX_LIMIT).is_err());
        assert!(json_bounded("limit", &json!(-1), 1, MAX_LIMIT).is_err());
        assert_eq!(json_bounded("limit", &json!(3.0), 1, MAX_LIMIT).unwrap(), 3);
    }

    #[test]
    fn wordings_name_flags_or_parameters() {
        assert_eq!(Wording::Cli.set(&[("start_line", &5)]), "--start-line 5");
        assert_eq!(
            Wording::Tool.set(&[("start_line", &1), ("start_char", &2001)]),
            "start_line=1, start_char=2001"
        );
        assert_eq!(Wording::Cli.name("encoding"), "--encoding");
        assert_eq!(Wording::Cli.name("context"), "--context");
    }

    #[test]
    fn hashes_must_be_64_lowercase_hex_digits() {
        assert!(check_hash("h", &"a".repeat(64)).is_ok());
        assert!(check_hash("h", &"A".repeat(64)).is_err());
        assert!(check_hash("h", &"a".repeat(63)).is_err());
    }

    #[test]
    fn the_schema_lists_the_advertised_parameters_in_order() {
        let schema = schema();
        let names: Vec<&str> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let advertised: Vec<&str> = PARAMS
            .iter()
            .filter(|p| p.advertised)
            .map(|p| p.name)
            .collect();
        assert_eq!(names, advertised);
        assert_eq!(schema["properties"]["limit"]["maximum"], MAX_LIMIT);
        assert_eq!(schema["properties"]["limit"]["default"], DEFAULT_LIMIT);
    }

    /// The help lines say the defaults and bounds the checks apply.
    #[test]
    fn help_lines_say_the_defaults_and_bounds() {
        for param in PARAMS.iter().filter(|p| p.long.is_some()) {
            if let ParamType::Integer {
                min, max, default, ..
            } = param.kind
            {
                if let Some(default) = default {
                    assert!(param.help.contains(&format!("[default: {default}]")));
                }
                if max != u64::MAX {
                    assert!(
                        param.help.contains(&format!("{min}-{max}")),
                        "{}",
                        param.name
                    );
                }
            }
        }
    }
}
