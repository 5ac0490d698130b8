//! Arguments, from the command line or a `--call` object, become one validated `Request`:
//! the only thing later stages see. Nothing downstream re-checks an argument.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::cli::{Cli, ColorWhen, Format};
use crate::deny::DenyPolicy;
use crate::error::Error;
use crate::names;
use crate::read::numbers::NumberStyle;
use crate::read::window::{Start, WindowSpec};
use crate::sandbox::Root;
use crate::sniff::EncodingChoice;

pub const DEFAULT_LIMIT: u64 = 500;
pub const MAX_LIMIT: u64 = 2000;
pub const DEFAULT_MAX_LINE_CHARS: u64 = 2000;
pub const DEFAULT_MAX_BYTES: u64 = 51200;
pub const MAX_CONTEXT: u64 = 999;

/// The options that shape every call, from the command line or the environment (never
/// from a call's arguments): the same for the command line, `--call` and the MCP server.
#[derive(Debug)]
pub struct Settings {
    pub max_line_chars: u64,
    pub max_bytes: u64,
    pub numbers: NumberStyle,
    pub max_file_size: Option<SizeLimit>,
    pub encoding: EncodingChoice,
    pub deny: DenyPolicy,
}

impl Settings {
    pub fn from_cli(cli: &Cli) -> Result<Settings, Error> {
        let max_line_chars = opt_bounded(
            "--max-line-chars",
            cli.max_line_chars.as_deref(),
            1,
            u64::MAX,
        )?
        .unwrap_or(DEFAULT_MAX_LINE_CHARS);
        let max_bytes = opt_bounded("--max-bytes", cli.max_bytes.as_deref(), 1, u64::MAX)?
            .unwrap_or(DEFAULT_MAX_BYTES);
        let max_file_size = match &cli.max_file_size {
            None => None,
            Some(given) => Some(SizeLimit {
                bytes: parse_size(given).ok_or_else(|| {
                    Error::invalid_param(format!(
                        "Invalid value '{given}' for --max-file-size: expected bytes, or a number with K, M, G, KiB, MiB, GiB, KB, MB or GB."
                    ))
                })?,
                given: given.clone(),
            }),
        };
        let encoding = match cli.encoding.as_deref() {
            None => EncodingChoice::Utf8,
            Some(label) => EncodingChoice::from_label(label).ok_or_else(|| {
                Error::invalid_param(format!(
                    "Unknown encoding '{label}': use utf-8, auto, or a WHATWG label such as gbk, shift_jis, euc-kr, big5, windows-1252 or utf-16le."
                ))
            })?,
        };
        let environment: Vec<String> = std::env::var("AGENTREAD_DENY")
            .unwrap_or_default()
            .split(':')
            .filter(|g| !g.is_empty())
            .map(str::to_string)
            .collect();
        let deny = DenyPolicy::new(&environment, &cli.deny, cli.deny_secrets)?;
        Ok(Settings {
            max_line_chars,
            max_bytes,
            numbers: cli.numbers,
            max_file_size,
            encoding,
            deny,
        })
    }
}

/// Everything one run needs, validated.
#[derive(Debug)]
pub struct Request {
    pub targets: Vec<Target>,
    pub window: WindowParams,
    pub format: Format,
    pub color: ColorWhen,
    pub hint: bool,
    pub hash: bool,
    pub if_changed: Option<String>,
    pub root: Arc<Root>,
    pub settings: Arc<Settings>,
    /// The tool parameters as the caller gave them, for `context.params_input`.
    pub params: Params,
    /// PNG, JPEG, GIF and WebP files are answered as images (the MCP server).
    pub images: bool,
}

/// The window options a call gave, before a target says what they apply to.
#[derive(Debug, Clone, Copy, Default)]
pub struct WindowParams {
    pub start_line: Option<u64>,
    pub limit: Option<u64>,
    pub tail: Option<u64>,
    pub start_char: Option<u64>,
    /// `-C K`: lines around a `PATH:N` target.
    pub context: Option<u64>,
}

/// A `PATH:N`, `PATH:N:C` or `PATH:N-M` reference (SPEC §13).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRef {
    pub line: u64,
    /// The last line of `:N-M`.
    pub end: Option<u64>,
}

/// Splits `a.rs:12`, `a.rs:12:5` and `a.rs:12-20` into the file's path and the reference.
pub fn line_ref(path: &[u8]) -> Option<(&[u8], LineRef)> {
    let number = |b: &[u8]| -> Option<u64> {
        (!b.is_empty() && b.iter().all(u8::is_ascii_digit))
            .then(|| std::str::from_utf8(b).ok()?.parse::<u64>().ok())
            .flatten()
            .filter(|n| *n >= 1)
    };
    let colon = path.iter().rposition(|&b| b == b':')?;
    let (before, last) = (&path[..colon], &path[colon + 1..]);
    if let Some(dash) = last.iter().position(|&b| b == b'-') {
        let (line, end) = (number(&last[..dash])?, number(&last[dash + 1..])?);
        return (!before.is_empty()).then_some((
            before,
            LineRef {
                line,
                end: Some(end),
            },
        ));
    }
    let last = number(last)?;
    // `:N:C`: the column is ignored.
    if let Some(colon) = before.iter().rposition(|&b| b == b':')
        && let Some(line) = number(&before[colon + 1..])
        && colon > 0
    {
        return Some((&before[..colon], LineRef { line, end: None }));
    }
    (!before.is_empty()).then_some((
        before,
        LineRef {
            line: last,
            end: None,
        },
    ))
}

impl Request {
    /// The file's hash is computed when it is reported or compared.
    pub fn wants_hash(&self) -> bool {
        self.hash || self.if_changed.is_some()
    }

    /// The window to read for a target: the call's options, or a line reference's.
    pub fn spec_for(&self, reference: Option<LineRef>) -> Result<WindowSpec, Error> {
        let w = &self.window;
        let mut spec = WindowSpec {
            start: match w.tail {
                Some(n) => Start::Tail(n),
                None => Start::Line(w.start_line.unwrap_or(1)),
            },
            limit: w.tail.or(w.limit).unwrap_or(DEFAULT_LIMIT),
            start_char: w.start_char.unwrap_or(1),
            max_line_chars: self.settings.max_line_chars,
            max_bytes: self.settings.max_bytes,
            numbers: self.settings.numbers,
            line_endings: self.format != Format::Text,
        };
        let Some(reference) = reference else {
            if w.context.is_some() {
                return Err(Error::invalid_param(
                    "--context needs a PATH:N target (such as src/main.rs:42 -C 5).",
                ));
            }
            return Ok(spec);
        };
        let n = reference.line;
        if let Some(end) = reference.end {
            if let Some(flag) = [
                (w.start_line.is_some(), "--start-line"),
                (w.limit.is_some(), "--limit"),
                (w.tail.is_some(), "--tail"),
                (w.context.is_some(), "--context"),
            ]
            .into_iter()
            .find_map(|(given, name)| given.then_some(name))
            {
                return Err(Error::invalid_param(format!(
                    "A PATH:N-M target names its lines itself; {flag} cannot be combined with it (use PATH:N with {flag}, or change N-M)."
                )));
            }
            if end < n {
                return Err(Error::invalid_param(format!(
                    "The range {n}-{end} ends before it starts: write PATH:N-M with M ≥ N."
                )));
            }
            if end - n + 1 > MAX_LIMIT {
                return Err(Error::invalid_param(format!(
                    "The range {n}-{end} is {} lines; at most {MAX_LIMIT} lines can be read at once (read it in parts).",
                    end - n + 1
                )));
            }
            spec.start = Start::Line(n);
            spec.limit = end - n + 1;
            return Ok(spec);
        }
        if w.start_line.is_some() || w.tail.is_some() {
            let flag = if w.tail.is_some() {
                "--tail"
            } else {
                "--start-line"
            };
            return Err(Error::invalid_param(format!(
                "A PATH:N target starts at line N; {flag} cannot be combined with it (drop :N, or drop {flag})."
            )));
        }
        match w.context {
            Some(k) => {
                let first = n.saturating_sub(k).max(1);
                let lines = n + k - first + 1;
                spec.start = Start::Line(first);
                spec.limit = w.limit.map_or(lines, |l| l.min(lines));
            }
            None => spec.start = Start::Line(n),
        }
        Ok(spec)
    }
}

/// One PATH to answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Path(OsString),
    Stdin,
}

/// `--max-file-size`, with the spelling the caller used (for messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeLimit {
    pub bytes: u64,
    pub given: String,
}

/// The caller's tool parameters, verbatim: the `--call` object, or the command line's
/// PATH and window options under their tool names.
#[derive(Debug, Clone, Default)]
pub struct Params {
    given: Map<String, Value>,
    /// On the command line each PATH is its own `path` parameter.
    per_path: bool,
}

impl Params {
    pub fn for_target(&self, target: &Target) -> Map<String, Value> {
        if !self.per_path {
            return self.given.clone();
        }
        let path = match target {
            Target::Stdin => "-".to_string(),
            Target::Path(p) => names::text_of(p.as_bytes()),
        };
        let mut map = Map::new();
        map.insert("path".into(), Value::String(path));
        map.extend(self.given.clone());
        map
    }

    /// The parameters of a call given as a tool call's arguments.
    pub fn of_call(object: Map<String, Value>) -> Params {
        Params {
            given: object,
            per_path: false,
        }
    }
}

/// A request that could not be built: the error, and what is known for its envelope.
#[derive(Debug)]
pub struct Rejected {
    pub error: Error,
    pub format: Format,
    pub params: Map<String, Value>,
}

/// The tool parameters of either source, before validation of their combination.
#[derive(Debug, Default)]
struct ToolParams {
    paths: Vec<Target>,
    window: WindowParams,
    hash: bool,
    if_changed: Option<String>,
}

impl Request {
    /// Validates the parsed command line. `read_stdin` supplies `--call -`.
    pub fn from_cli(
        cli: Cli,
        read_stdin: impl FnOnce() -> std::io::Result<String>,
    ) -> Result<Request, Box<Rejected>> {
        let format = crate::cli::answer_format(cli.format, cli.call.is_some());
        let mut params = Params::default();
        let reject = |error: Error, params: &Params| {
            // Every parameter the caller gave, the path included.
            let given = match cli.paths.first() {
                Some(first) if params.per_path => params.for_target(&target_of(first)),
                _ => params.given.clone(),
            };
            Box::new(Rejected {
                error,
                format,
                params: given,
            })
        };
        let tool = match &cli.call {
            Some(call) => {
                let json = if call == "-" {
                    read_stdin().map_err(|e| {
                        reject(
                            Error::invalid_param(format!(
                                "--call -: standard input could not be read: {}.",
                                crate::error::os_reason(&e)
                            )),
                            &params,
                        )
                    })?
                } else {
                    call.clone()
                };
                let object = parse_call_object(&json).map_err(|e| reject(e, &params))?;
                params.given = object.clone();
                if let Some(flag) = cli_window_flag(&cli) {
                    return Err(reject(
                        Error::invalid_param(format!(
                            "--call takes the tool parameters from its JSON; {flag} cannot be combined with it."
                        )),
                        &params,
                    ));
                }
                let tool = tool_params_from_call(&object).map_err(|e| reject(e, &params))?;
                if call == "-" && tool.paths.contains(&Target::Stdin) {
                    return Err(reject(
                        Error::invalid_param(
                            "Standard input already carries the --call JSON; it cannot also be the path.",
                        ),
                        &params,
                    ));
                }
                tool
            }
            None => {
                params.per_path = true;
                params.given = cli_params_input(&cli);
                tool_params_from_cli(&cli).map_err(|e| reject(e, &params))?
            }
        };
        let built = check_paths(&tool)
            .and_then(|()| Settings::from_cli(&cli))
            .and_then(|settings| Ok((settings, open_root(cli.root.clone())?)));
        let (settings, root) = built.map_err(|e| reject(e, &params))?;
        Ok(Request {
            targets: tool.paths,
            window: tool.window,
            format,
            color: cli.color,
            hint: !cli.no_hint,
            hash: tool.hash,
            if_changed: tool.if_changed,
            root: Arc::new(root),
            settings: Arc::new(settings),
            params,
            images: false,
        })
    }

    /// A tool call's arguments (the MCP server's `tools/call`), answered with the
    /// server's settings inside `root`. The error keeps nothing but the message: the
    /// caller answers it with the arguments as given.
    pub fn from_tool_call(
        object: &Map<String, Value>,
        settings: Arc<Settings>,
        root: Arc<Root>,
    ) -> Result<Request, Error> {
        let tool = tool_params_from_call(object)?;
        check_paths(&tool)?;
        if tool.paths.contains(&Target::Stdin) {
            return Err(Error::invalid_param(
                "Standard input carries the protocol here; '-' cannot be read as a path.",
            ));
        }
        Ok(Request {
            targets: tool.paths,
            window: tool.window,
            format: Format::Json,
            color: ColorWhen::Never,
            hint: true,
            hash: tool.hash,
            if_changed: tool.if_changed,
            root,
            settings,
            params: Params::of_call(object.clone()),
            images: true,
        })
    }
}

fn target_of(path: &OsString) -> Target {
    match path.to_str() {
        Some("-") => Target::Stdin,
        _ => Target::Path(path.clone()),
    }
}

fn check_paths(tool: &ToolParams) -> Result<(), Error> {
    if tool.paths.is_empty() {
        return Err(Error::invalid_param(
            "No PATH given. Usage: agentread [OPTIONS] [PATH]... (a file or directory, or - for standard input; see --help).",
        ));
    }
    if tool.paths.iter().filter(|t| **t == Target::Stdin).count() > 1 {
        return Err(Error::invalid_param(
            "Standard input ('-') can be read only once per call.",
        ));
    }
    Ok(())
}

/// `--root`, else `$AGENTREAD_ROOT` (when set and not empty), else the current directory.
pub fn open_root(flag: Option<OsString>) -> Result<Root, Error> {
    if let Some(dir) = flag {
        return Root::open(&PathBuf::from(dir), "--root");
    }
    match fixed_root_from_env() {
        Some(dir) => Root::open(&PathBuf::from(dir), "$AGENTREAD_ROOT"),
        None => Root::open(&PathBuf::from("."), "The current directory"),
    }
}

/// `$AGENTREAD_ROOT`, when set and not empty.
pub fn fixed_root_from_env() -> Option<OsString> {
    std::env::var_os("AGENTREAD_ROOT").filter(|dir| !dir.is_empty())
}

/// The first window option given on the command line, which `--call` replaces.
fn cli_window_flag(cli: &Cli) -> Option<&'static str> {
    [
        (!cli.paths.is_empty(), "a PATH argument"),
        (cli.start_line.is_some(), "--start-line"),
        (cli.limit.is_some(), "--limit"),
        (cli.tail.is_some(), "--tail"),
        (cli.start_char.is_some(), "--start-char"),
        (cli.hash, "--hash"),
        (cli.if_changed.is_some(), "--if-changed"),
        (cli.context.is_some(), "--context"),
    ]
    .into_iter()
    .find_map(|(given, name)| given.then_some(name))
}

/// The first option `--mcp` cannot be combined with: what a call decides per call, or
/// another mode.
pub fn mcp_conflict(cli: &Cli) -> Option<&'static str> {
    [
        (cli.call.is_some(), "--call"),
        (cli.tool_schema.is_some(), "--tool-schema"),
        (cli.format.is_some(), "--format"),
    ]
    .into_iter()
    .find_map(|(given, name)| given.then_some(name))
    .or_else(|| cli_window_flag(cli))
}

fn tool_params_from_cli(cli: &Cli) -> Result<ToolParams, Error> {
    let paths = cli.paths.iter().map(target_of).collect();
    let window = WindowParams {
        start_line: opt_bounded("--start-line", cli.start_line.as_deref(), 1, u64::MAX)?,
        limit: opt_bounded("--limit", cli.limit.as_deref(), 1, MAX_LIMIT)?,
        tail: opt_bounded("--tail", cli.tail.as_deref(), 1, MAX_LIMIT)?,
        start_char: opt_bounded("--start-char", cli.start_char.as_deref(), 1, u64::MAX)?,
        context: opt_bounded("--context", cli.context.as_deref(), 0, MAX_CONTEXT)?,
    };
    check_tail(&window, ["--tail", "--start-line", "--start-char"])?;
    Ok(ToolParams {
        paths,
        window,
        hash: cli.hash,
        if_changed: cli
            .if_changed
            .as_deref()
            .map(|h| check_hash("--if-changed", h))
            .transpose()?,
    })
}

/// The command line's tool parameters under their tool names, values as given
/// (`-n 3` becomes `"limit":3`; a value that is not a number stays text).
fn cli_params_input(cli: &Cli) -> Map<String, Value> {
    let mut map = Map::new();
    let numbers = [
        ("start_line", &cli.start_line),
        ("limit", &cli.limit),
        ("tail", &cli.tail),
        ("start_char", &cli.start_char),
        ("context", &cli.context),
    ];
    for (name, raw) in numbers {
        if let Some(raw) = raw {
            let value = match raw.parse::<u64>() {
                Ok(n) => Value::from(n),
                Err(_) => match raw.parse::<i64>() {
                    Ok(n) => Value::from(n),
                    Err(_) => Value::String(raw.clone()),
                },
            };
            map.insert(name.into(), value);
        }
    }
    if cli.hash {
        map.insert("hash".into(), Value::Bool(true));
    }
    if let Some(h) = &cli.if_changed {
        map.insert("if_changed".into(), Value::String(h.clone()));
    }
    map
}

/// The parameter names `--call` advertises, canonical name first, then its aliases.
pub const CALL_PARAMETERS: &[&[&str]] = &[
    &["path", "file_path", "filePath"],
    &["start_line", "offset"],
    &["limit", "max_lines"],
    &["tail"],
    &["start_char"],
    &["hash"],
    &["if_changed"],
];

/// Accepted as well, not advertised: the range words of other read tools (SPEC §13)
/// and the context of a `PATH:N` target.
const EXTRA_CALL_PARAMETERS: &[&[&str]] = &[&["end_line"], &["view_range"], &["context"]];

/// The advertised parameters, for the message that refuses an unknown one.
fn accepted_parameters() -> String {
    CALL_PARAMETERS
        .iter()
        .map(|names| match names {
            [name] => name.to_string(),
            [name, aliases @ ..] => format!("{name} ({})", aliases.join(", ")),
            [] => String::new(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn parse_call_object(json: &str) -> Result<Map<String, Value>, Error> {
    match serde_json::from_str::<Value>(json) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(Error::invalid_param(
            "--call expects a JSON object of tool arguments, such as {\"path\":\"src/main.rs\"}.",
        )),
        Err(e) => Err(Error::invalid_param(format!(
            "--call: the arguments are not valid JSON ({e})."
        ))),
    }
}

fn tool_params_from_call(object: &Map<String, Value>) -> Result<ToolParams, Error> {
    let mut tool = ToolParams::default();
    let w = &mut tool.window;
    let mut seen: Vec<(&str, &str)> = Vec::new();
    let mut end_line = None;
    let mut view_range = None;
    for (key, value) in object {
        let Some(names) = CALL_PARAMETERS
            .iter()
            .chain(EXTRA_CALL_PARAMETERS)
            .find(|n| n.contains(&key.as_str()))
        else {
            return Err(Error::invalid_param(format!(
                "Unknown parameter '{key}'. Accepted: {}.",
                accepted_parameters()
            )));
        };
        let canonical = names[0];
        if let Some((_, first)) = seen.iter().find(|(c, _)| *c == canonical) {
            return Err(Error::invalid_param(format!(
                "The parameter '{canonical}' is given twice (as '{first}' and '{key}')."
            )));
        }
        seen.push((canonical, key));
        if value.is_null() {
            continue; // frameworks send null for an optional parameter left out
        }
        match canonical {
            "path" => {
                let Value::String(path) = value else {
                    return Err(Error::invalid_param(format!(
                        "Invalid value {value} for {key}: expected a string."
                    )));
                };
                tool.paths = vec![match path.as_str() {
                    "-" => Target::Stdin,
                    _ => Target::Path(path.into()),
                }];
            }
            "start_line" => w.start_line = Some(json_bounded(key, value, 1, u64::MAX)?),
            "limit" => w.limit = Some(json_bounded(key, value, 1, MAX_LIMIT)?),
            "tail" => w.tail = Some(json_bounded(key, value, 1, MAX_LIMIT)?),
            "start_char" => w.start_char = Some(json_bounded(key, value, 1, u64::MAX)?),
            "context" => w.context = Some(json_bounded(key, value, 0, MAX_CONTEXT)?),
            "end_line" => end_line = Some(json_bounded(key, value, 1, u64::MAX)?),
            "view_range" => view_range = Some(parse_view_range(value)?),
            "hash" => {
                tool.hash = match value {
                    Value::Bool(b) => *b,
                    Value::String(s) if s == "true" || s == "false" => s == "true",
                    _ => {
                        return Err(Error::invalid_param(format!(
                            "Invalid value {value} for {key}: expected true or false."
                        )));
                    }
                }
            }
            _ => {
                let Value::String(hash) = value else {
                    return Err(Error::invalid_param(format!(
                        "Invalid value {value} for {key}: expected a 64-digit lowercase hex hash."
                    )));
                };
                tool.if_changed = Some(check_hash(key, hash)?);
            }
        }
    }
    if tool.paths.is_empty() {
        return Err(Error::invalid_param(
            "--call needs a path (or file_path, filePath).",
        ));
    }
    check_tail(&tool.window, ["tail", "start_line", "start_char"])?;
    let w = &mut tool.window;
    let range = match (end_line, view_range) {
        (Some(_), Some(_)) => {
            return Err(Error::invalid_param(
                "end_line and view_range cannot be combined: give one of them.",
            ));
        }
        (Some(end), None) => Some(("end_line", w.start_line.unwrap_or(1), Some(end))),
        (None, Some((start, end))) => {
            if w.start_line.is_some() {
                return Err(Error::invalid_param(
                    "view_range names its first line itself; start_line cannot be combined with it.",
                ));
            }
            Some(("view_range", start, end))
        }
        (None, None) => None,
    };
    if let Some((name, start, end)) = range {
        if let Some(other) = [(w.limit.is_some(), "limit"), (w.tail.is_some(), "tail")]
            .into_iter()
            .find_map(|(given, n)| given.then_some(n))
        {
            return Err(Error::invalid_param(format!(
                "{name} cannot be combined with {other}: give one of them."
            )));
        }
        w.start_line = Some(start);
        if let Some(end) = end {
            if end < start {
                return Err(Error::invalid_param(format!(
                    "{name} {end} is before the first line {start}: the range must not end before it starts."
                )));
            }
            if end - start + 1 > MAX_LIMIT {
                return Err(Error::invalid_param(format!(
                    "{name} asks for lines {start}-{end} ({} lines); at most {MAX_LIMIT} can be read at once.",
                    end - start + 1
                )));
            }
            w.limit = Some(end - start + 1);
        }
    }
    Ok(tool)
}

/// `--tail` names its own lines: no start line or start character with it. `names` are
/// the three parameters as the caller spells them (flags or tool parameters).
fn check_tail(window: &WindowParams, names: [&str; 3]) -> Result<(), Error> {
    let [tail, start_line, start_char] = names;
    if window.tail.is_some() && (window.start_line.is_some() || window.start_char.is_some()) {
        return Err(Error::invalid_param(format!(
            "{tail} cannot be combined with {start_line} or {start_char}."
        )));
    }
    Ok(())
}

/// `[start, end]`, 1-based and inclusive, `end` = -1 for "to the end".
fn parse_view_range(value: &Value) -> Result<(u64, Option<u64>), Error> {
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

fn range_text(min: u64, max: u64) -> String {
    if max == u64::MAX {
        format!("an integer of at least {min}")
    } else {
        format!("an integer from {min} to {max}")
    }
}

fn opt_bounded(flag: &str, raw: Option<&str>, min: u64, max: u64) -> Result<Option<u64>, Error> {
    raw.map(|raw| {
        raw.parse::<u64>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| {
                Error::invalid_param(format!(
                    "Invalid value '{raw}' for {flag}: expected {}.",
                    range_text(min, max)
                ))
            })
    })
    .transpose()
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

fn check_hash(name: &str, hash: &str) -> Result<String, Error> {
    let valid = hash.len() == 64 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if valid {
        Ok(hash.to_string())
    } else {
        Err(Error::invalid_param(format!(
            "Invalid value '{hash}' for {name}: expected the 64-digit lowercase hex BLAKE3 hash that --hash reports."
        )))
    }
}

/// `--max-file-size`: bytes, or a number (fractions allowed) with K, M, G, KiB, MiB, GiB
/// (powers of 1024) or KB, MB, GB (powers of 1000), letters in any case, an optional `B`.
pub fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let unit = unit.trim().to_ascii_lowercase();
    let multiplier: u64 = match unit.as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        _ => return None,
    };
    if number.is_empty() || number.starts_with('.') || number.ends_with('.') {
        return None;
    }
    if let Ok(whole) = number.parse::<u64>() {
        return whole.checked_mul(multiplier);
    }
    let value: f64 = number.parse().ok()?;
    let bytes = (value * multiplier as f64).floor();
    (bytes < u64::MAX as f64).then_some(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_references_are_split_from_the_path() {
        let r = |line, end| Some(LineRef { line, end });
        let split = |p: &str| line_ref(p.as_bytes()).map(|(f, r)| (f.to_vec(), r));
        assert_eq!(
            split("a.rs:12"),
            Some((b"a.rs".to_vec(), r(12, None).unwrap()))
        );
        assert_eq!(
            split("a.rs:12:7"),
            Some((b"a.rs".to_vec(), r(12, None).unwrap()))
        );
        assert_eq!(
            split("a.rs:3-9"),
            Some((b"a.rs".to_vec(), r(3, Some(9)).unwrap()))
        );
        // A colon inside the path stays in it; only the last part is the reference.
        assert_eq!(
            split("x:y.rs:4"),
            Some((b"x:y.rs".to_vec(), r(4, None).unwrap()))
        );
        // The last part decides: here `:4` after a path that ends in `:2-3`.
        assert_eq!(
            split("a.rs:2-3:4"),
            Some((b"a.rs:2-3".to_vec(), r(4, None).unwrap()))
        );
        // Not references: no path, no number, zero, signs, an open range.
        for no in [
            ":5", "a.rs:", "a.rs:0", "a.rs:+5", "a.rs:x", "a.rs:1-", "a.rs:-2", "a.rs",
        ] {
            assert_eq!(split(no), None, "{no}");
        }
    }

    #[test]
    fn sizes_use_binary_and_decimal_units_in_any_case() {
        assert_eq!(parse_size("100"), Some(100));
        assert_eq!(parse_size("1k"), Some(1024));
        assert_eq!(parse_size("1KiB"), Some(1024));
        assert_eq!(parse_size("2MiB"), Some(2 << 20));
        assert_eq!(parse_size("2mb"), Some(2_000_000));
        assert_eq!(parse_size("1G"), Some(1 << 30));
        assert_eq!(parse_size("3GB"), Some(3_000_000_000));
        assert_eq!(parse_size("1.5K"), Some(1536));
        assert_eq!(parse_size("12B"), Some(12));
        for bad in ["", "M", "-1", "1.", "1x", "1 TB", "99999999999999999999G"] {
            assert_eq!(parse_size(bad), None, "{bad}");
        }
    }

    #[test]
    fn call_aliases_map_to_one_parameter() {
        let object =
            parse_call_object(r#"{"file_path":"a.rs","offset":5,"max_lines":"7"}"#).unwrap();
        let tool = tool_params_from_call(&object).unwrap();
        assert_eq!(tool.paths, vec![Target::Path("a.rs".into())]);
        assert_eq!(
            (tool.window.start_line, tool.window.limit),
            (Some(5), Some(7))
        );
    }

    #[test]
    fn call_rejects_unknown_and_repeated_keys() {
        let object = parse_call_object(r#"{"path":"a","lines":3}"#).unwrap();
        let err = tool_params_from_call(&object).unwrap_err();
        assert_eq!(
            err.message,
            "Unknown parameter 'lines'. Accepted: path (file_path, filePath), start_line (offset), limit (max_lines), tail, start_char, hash, if_changed."
        );
        let object = parse_call_object(r#"{"path":"a","filePath":"b"}"#).unwrap();
        assert!(tool_params_from_call(&object).is_err());
    }

    #[test]
    fn out_of_range_values_are_refused_not_clamped() {
        assert!(opt_bounded("--limit", Some("2001"), 1, MAX_LIMIT).is_err());
        assert!(opt_bounded("--limit", Some("0"), 1, MAX_LIMIT).is_err());
        assert_eq!(
            opt_bounded("--limit", Some("2000"), 1, MAX_LIMIT).unwrap(),
            Some(2000)
        );
        let err = opt_bounded("--limit", Some("abc"), 1, MAX_LIMIT).unwrap_err();
        assert_eq!(
            err.message,
            "Invalid value 'abc' for --limit: expected an integer from 1 to 2000."
        );
        assert!(json_bounded("limit", &serde_json::json!(2.5), 1, MAX_LIMIT).is_err());
        assert!(json_bounded("limit", &serde_json::json!(-1), 1, MAX_LIMIT).is_err());
    }

    #[test]
    fn hashes_must_be_64_lowercase_hex_digits() {
        assert!(check_hash("h", &"a".repeat(64)).is_ok());
        assert!(check_hash("h", &"A".repeat(64)).is_err());
        assert!(check_hash("h", &"a".repeat(63)).is_err());
    }
}
