//! Arguments, from the command line or a `--call` object, become one validated `Request`:
//! the only thing later stages see. Nothing downstream re-checks an argument.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::Arc;

use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory};
use serde_json::{Map, Value};

use crate::args::cli::{Cli, ColorWhen, Format};
use crate::args::params::{self, CallParams, MAX_LIMIT, Wording, name};
use crate::error::Error;
use crate::names;
use crate::read::numbers::NumberStyle;
use crate::read::sniff::EncodingChoice;
use crate::workspace::deny::DenyPolicy;
use crate::workspace::sandbox::Root;

pub use crate::args::params::{DEFAULT_MAX_BYTES, DEFAULT_MAX_LINE_CHARS, MAX_LINE_CHARS};

/// The most bytes of JSON `--call -` reads from standard input (an MCP message's bound):
/// a stream without end (`/dev/zero`) is refused, not held.
pub const MAX_CALL_BYTES: usize = 16 << 20;

/// The options that shape every call, from the command line or the environment (never
/// from a call's arguments): the same for the command line, `--call` and the MCP server.
#[derive(Debug)]
pub struct Settings {
    pub max_line_chars: u64,
    pub max_bytes: u64,
    /// `--max-bytes` was given (not its default): `--fit` under a token budget then keeps
    /// it (SPEC §18: the budget is the tokens when given, else the bytes).
    pub max_bytes_given: bool,
    /// The MCP server's default token budget (`--max-tokens`, else 9000); None on the
    /// command line, which has no token budget unless a call gives one.
    pub max_tokens: Option<u64>,
    pub numbers: NumberStyle,
    pub max_file_size: Option<SizeLimit>,
    pub encoding: EncodingChoice,
    pub deny: DenyPolicy,
    /// How long the MCP server awaits a client's `roots/list` answer.
    pub roots_timeout: std::time::Duration,
    /// Parsed outlines are kept and reused (SPEC §15): not with `--no-cache` or
    /// `AGENTREAD_NO_CACHE=1`.
    pub cache: bool,
}

/// The default of `--roots-timeout`.
const ROOTS_TIMEOUT_SECS: f64 = 10.0;

impl Settings {
    pub fn from_cli(cli: &Cli) -> Result<Settings, Error> {
        let max_line_chars = opt_bounded(
            "--max-line-chars",
            cli.max_line_chars.as_deref(),
            1,
            MAX_LINE_CHARS,
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
        let roots_timeout = match cli.roots_timeout.unwrap_or(ROOTS_TIMEOUT_SECS) {
            secs if secs.is_finite() && (0.0..=3600.0).contains(&secs) => {
                std::time::Duration::from_secs_f64(secs)
            }
            secs => {
                return Err(Error::invalid_param(format!(
                    "Invalid value '{secs}' for --roots-timeout: expected seconds from 0 to 3600."
                )));
            }
        };
        let cache = !cli.no_cache
            && std::env::var_os("AGENTREAD_NO_CACHE").is_none_or(|v| v.is_empty() || v == "0");
        // The server's `--max-tokens` is its default budget; on the command line it is
        // the call's own parameter.
        let max_tokens = match cli.mcp {
            true => Some(
                cli.tool
                    .check()?
                    .max_tokens
                    .unwrap_or(params::MCP_MAX_TOKENS),
            ),
            false => None,
        };
        Ok(Settings {
            cache,
            roots_timeout,
            max_line_chars,
            max_bytes,
            max_bytes_given: cli.max_bytes.is_some(),
            max_tokens,
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
    /// The call's parameters, each checked and their combination resolved (`end_line` and
    /// `view_range` become `start_line` and `limit`): the one typed value every stage
    /// reads them from.
    pub call: CallParams,
    /// Where the request came from, which decides how it is worded and answered.
    pub mode: Mode,
    pub format: Format,
    pub color: ColorWhen,
    pub hint: bool,
    pub root: Arc<Root>,
    pub settings: Arc<Settings>,
    /// The tool parameters as the caller gave them, for `context.params_input`.
    pub params: Params,
    /// How to decode: the call's `encoding`, else `--encoding`.
    pub encoding: EncodingChoice,
}

/// Where a request came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The command line's PATHs and flags; `all` is `--all` (every line to the end,
    /// streamed, none cut).
    CommandLine { all: bool },
    /// `--call`: a tool call's JSON arguments on the command line.
    Call,
    /// A `tools/call` of the MCP server.
    Mcp,
}

impl Request {
    /// The file's hash is computed when it is reported or compared.
    pub fn wants_hash(&self) -> bool {
        self.call.hash || self.call.if_changed.is_some()
    }

    /// Whether a file of hash `hash` is the one the caller has (`--if-changed`): it is
    /// answered `unchanged`.
    pub fn caller_has(&self, hash: Option<&str>) -> bool {
        hash.is_some() && self.call.if_changed.as_deref() == hash
    }

    /// Flags on the command line; tool parameters for `--call` and MCP.
    pub fn wording(&self) -> Wording {
        match self.mode {
            Mode::CommandLine { .. } => Wording::Cli,
            Mode::Call | Mode::Mcp => Wording::Tool,
        }
    }

    /// PNG, JPEG, GIF and WebP files are answered as images (the MCP server).
    pub fn images(&self) -> bool {
        self.mode == Mode::Mcp
    }

    /// `--all` (the command line only).
    pub fn all(&self) -> bool {
        self.mode == Mode::CommandLine { all: true }
    }

    /// What one answer may show: the byte budget, and the call's token budget, else the
    /// server's (SPEC §18).
    pub fn budget(&self) -> crate::read::Budget {
        crate::read::Budget {
            bytes: self.settings.max_bytes,
            tokens: self.call.max_tokens.or(self.settings.max_tokens),
        }
    }

    /// `paths` was given: the targets share one byte budget (SPEC §16).
    pub fn shared_budget(&self) -> bool {
        self.call.paths.is_some()
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
    /// The parameters of one target's answer: on the command line each PATH is its own
    /// `path`; each result of a `paths` call holds its own target as `path` in place of
    /// the list (which would repeat in every result, up to 50 times).
    pub fn for_target(&self, target: &Target) -> Map<String, Value> {
        let several = self.given.contains_key(name::PATHS);
        if !self.per_path && !several {
            return self.given.clone();
        }
        let path = match target {
            Target::Stdin => "-".to_string(),
            Target::Path(p) => names::text_of(p.as_bytes()),
        };
        let mut map = Map::new();
        map.insert(name::PATH.into(), Value::String(path));
        map.extend(
            self.given
                .iter()
                .filter(|(key, _)| key.as_str() != name::PATHS)
                .map(|(key, value)| (key.clone(), value.clone())),
        );
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

/// A call's parameters with the targets they name.
#[derive(Debug)]
struct Checked {
    targets: Vec<Target>,
    call: CallParams,
}

impl Request {
    /// Validates the parsed command line. `read_stdin` supplies `--call -`: at most
    /// [`MAX_CALL_BYTES`] and one more, so that a longer input is refused unread.
    pub fn from_cli(
        cli: Cli,
        read_stdin: impl FnOnce() -> std::io::Result<String>,
    ) -> Result<Request, Box<Rejected>> {
        let format = crate::args::cli::answer_format(cli.format, cli.call.is_some());
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
        let checked = match &cli.call {
            Some(call) => {
                let json = if call == "-" {
                    let json = read_stdin().map_err(|e| {
                        reject(
                            Error::invalid_param(format!(
                                "--call -: standard input could not be read: {}.",
                                crate::error::os_reason(&e)
                            )),
                            &params,
                        )
                    })?;
                    if json.len() > MAX_CALL_BYTES {
                        return Err(reject(
                            Error::invalid_param(format!(
                                "--call -: standard input holds more than {} MiB, the most a call's JSON may take; pass one call's parameters.",
                                MAX_CALL_BYTES >> 20
                            )),
                            &params,
                        ));
                    }
                    json
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
                let checked = check_call(&object, false).map_err(|e| reject(e, &params))?;
                if call == "-" && checked.targets.contains(&Target::Stdin) {
                    return Err(reject(
                        Error::invalid_param(
                            "Standard input already carries the --call JSON; it cannot also be the path.",
                        ),
                        &params,
                    ));
                }
                checked
            }
            None => {
                params.per_path = true;
                params.given = cli.tool.params_input();
                let checked = check_cli(&cli).map_err(|e| reject(e, &params))?;
                check_all(&cli, &checked.call, format).map_err(|e| reject(e, &params))?;
                checked
            }
        };
        let built = check_paths(&checked.targets)
            .and_then(|()| Settings::from_cli(&cli))
            .and_then(|settings| Ok((settings, open_root(cli.root.clone())?)));
        let (settings, root) = built.map_err(|e| reject(e, &params))?;
        Ok(Request {
            targets: checked.targets,
            format,
            color: cli.color,
            hint: !cli.no_hint,
            root: Arc::new(root),
            params,
            mode: match cli.call {
                Some(_) => Mode::Call,
                None => Mode::CommandLine { all: cli.all },
            },
            encoding: encoding_of(&checked.call, &settings),
            call: checked.call,
            settings: Arc::new(settings),
        })
    }

    /// A tool call's arguments (the MCP server's `tools/call`), checked once. The root is
    /// chosen after, from the path ([`ToolCall::path`]); see [`ToolCall::request`].
    pub fn tool_call(object: &Map<String, Value>) -> Result<ToolCall, Error> {
        let checked = check_call(object, true)?;
        check_paths(&checked.targets)?;
        if checked.targets.contains(&Target::Stdin) {
            return Err(Error::invalid_param(
                "Standard input carries the protocol here; '-' cannot be read as a path.",
            ));
        }
        Ok(ToolCall { checked })
    }
}

/// A tool call's parameters, checked, waiting for the root to answer in.
#[derive(Debug)]
pub struct ToolCall {
    checked: Checked,
}

impl ToolCall {
    /// The path the call reads.
    pub fn path(&self) -> Option<&OsStr> {
        self.checked.targets.iter().find_map(|t| match t {
            Target::Path(p) => Some(p.as_os_str()),
            Target::Stdin => None,
        })
    }

    /// The request, answered with the server's settings inside `root`.
    pub fn request(
        self,
        object: Map<String, Value>,
        settings: Arc<Settings>,
        root: Arc<Root>,
    ) -> Request {
        Request {
            targets: self.checked.targets,
            format: Format::Json,
            color: ColorWhen::Never,
            hint: true,
            root,
            params: Params::of_call(object),
            mode: Mode::Mcp,
            encoding: encoding_of(&self.checked.call, &settings),
            call: self.checked.call,
            settings,
        }
    }
}

/// The call's `encoding` (a label the table checked), else the setting's.
fn encoding_of(call: &CallParams, settings: &Settings) -> EncodingChoice {
    call.encoding
        .as_deref()
        .and_then(EncodingChoice::from_label)
        .unwrap_or(settings.encoding)
}

fn target_of(path: &OsString) -> Target {
    match path.to_str() {
        Some("-") => Target::Stdin,
        _ => Target::Path(path.clone()),
    }
}

fn check_paths(targets: &[Target]) -> Result<(), Error> {
    if targets.is_empty() {
        return Err(Error::invalid_param(
            "No PATH given. Usage: agentread [OPTIONS] [PATH]... (a file or directory, or - for standard input; see --help).",
        ));
    }
    if targets.iter().filter(|t| **t == Target::Stdin).count() > 1 {
        return Err(Error::invalid_param(
            "Standard input ('-') can be read only once per call.",
        ));
    }
    Ok(())
}

/// `--root`, else `$AGENTREAD_ROOT` (when set and not empty), else the git work tree that
/// holds the current directory, else the current directory (SPEC §17).
pub fn open_root(flag: Option<OsString>) -> Result<Root, Error> {
    if let Some(dir) = flag {
        return Root::open(&PathBuf::from(dir), "--root");
    }
    match fixed_root_from_env() {
        Some(dir) => Root::open(&PathBuf::from(dir), "$AGENTREAD_ROOT"),
        None => Root::by_default(),
    }
}

/// `$AGENTREAD_ROOT`, when set and not empty.
pub fn fixed_root_from_env() -> Option<OsString> {
    std::env::var_os("AGENTREAD_ROOT").filter(|dir| !dir.is_empty())
}

/// The server settings `--mcp-config` writes into the set-up it prints, by argument id and
/// in the order they are written (SPEC §17). An id the command line does not define (yet)
/// is never given, so it costs nothing here.
pub const MCP_CONFIG_CARRIES: [&str; 9] = [
    "root",
    "deny",
    "deny_secrets",
    "max_bytes",
    name::MAX_TOKENS,
    "max_line_chars",
    "max_file_size",
    "encoding",
    "numbers",
];

/// The first argument on the command line (in the order written) beside the print-and-exit
/// mode `mode` (an argument id: `generate`, `mcp_config`, `tool_schema`) that the mode does
/// not use (`uses`), as the command line spells it. Such a mode prints and exits, so an
/// argument it would drop is refused rather than ignored (SPEC §17).
pub fn unused_beside(matches: &ArgMatches, mode: &str, uses: &[&str]) -> Option<String> {
    let first = matches
        .ids()
        .map(|id| id.as_str())
        .filter(|id| *id != mode && !uses.contains(id))
        .filter(|id| matches.value_source(id) == Some(ValueSource::CommandLine))
        .min_by_key(|id| matches.index_of(id).unwrap_or(usize::MAX))?;
    Some(spelling(first))
}

/// The values of `ids` given on the command line, as arguments for the same command line:
/// `--deny '*.pem' --deny-secrets --max-bytes 9000` (values as given, in `ids`' order).
pub fn given_again(matches: &ArgMatches, ids: &[&str]) -> Vec<OsString> {
    let command = Cli::command();
    let mut args = Vec::new();
    for id in ids {
        let present = matches.ids().any(|i| i.as_str() == *id);
        if !present || matches.value_source(id) != Some(ValueSource::CommandLine) {
            continue;
        }
        let flag = OsString::from(spelling(id));
        let takes_values = command
            .get_arguments()
            .find(|a| a.get_id() == *id)
            .is_some_and(|a| a.get_action().takes_values());
        match (takes_values, matches.get_raw(id)) {
            (true, Some(values)) => {
                for value in values {
                    args.push(flag.clone());
                    args.push(value.to_os_string());
                }
            }
            _ => args.push(flag),
        }
    }
    args
}

/// How the command line spells the argument `id`: its long flag, or `a PATH argument`.
fn spelling(id: &str) -> String {
    if id == name::PATHS {
        return "a PATH argument".to_string();
    }
    Cli::command()
        .get_arguments()
        .find(|a| a.get_id() == id)
        .and_then(|a| a.get_long())
        .map_or_else(|| id.to_string(), |long| format!("--{long}"))
}

/// The first per-call option given on the command line, which `--call` replaces.
fn cli_window_flag(cli: &Cli) -> Option<String> {
    match cli.paths.is_empty() {
        false => Some("a PATH argument".to_string()),
        true => cli
            .tool
            .first_flag()
            .or_else(|| cli.all.then(|| "--all".to_string())),
    }
}

/// `--all` reads every line from the start line to the end, whole, and streams it as
/// text: what bounds, cuts or replaces the window cannot be combined with it (SPEC §17).
fn check_all(cli: &Cli, call: &CallParams, format: Format) -> Result<(), Error> {
    if !cli.all {
        return Ok(());
    }
    if format != Format::Text {
        let name = match format {
            Format::Json => "json",
            _ => "xml",
        };
        return Err(Error::invalid_param(format!(
            "--all streams the text format; --format {name} cannot be combined with it (page through the file with --start-line and --limit instead)."
        )));
    }
    let w = call;
    let conflict = [
        (w.limit.is_some(), "--limit", "drop one of them"),
        (
            w.tail.is_some(),
            "--tail",
            "drop --all to read the last lines, or use --start-line with --all",
        ),
        (
            cli.max_bytes.is_some(),
            "--max-bytes",
            "drop --max-bytes: --all has no byte budget",
        ),
        (
            cli.max_line_chars.is_some(),
            "--max-line-chars",
            "drop --max-line-chars: --all cuts no line",
        ),
        (
            w.start_char.is_some(),
            "--start-char",
            "drop --start-char: --all shows every line whole",
        ),
        (
            w.context.is_some(),
            "--context",
            "use PATH:N --all to read from line N to the end",
        ),
        (
            call.if_changed.is_some(),
            "--if-changed",
            "drop one of them",
        ),
        (call.outline, "--outline", "drop one of them"),
        (call.enclosing, "--enclosing", "drop one of them"),
        (
            call.max_tokens.is_some(),
            "--max-tokens",
            "drop --max-tokens: --all has no budget",
        ),
        (call.signatures, "--signatures", "drop one of them"),
        (call.fit, "--fit", "drop one of them"),
    ]
    .into_iter()
    .find(|(given, ..)| *given);
    match conflict {
        Some((_, flag, step)) => Err(Error::invalid_param(format!(
            "--all reads every line from the start line to the end of the file, none cut; {flag} cannot be combined with it ({step})."
        ))),
        None => Ok(()),
    }
}

/// The first option `--mcp` cannot be combined with: what a call decides per call, or
/// another mode.
pub fn mcp_conflict(cli: &Cli) -> Option<String> {
    [
        (cli.call.is_some(), "--call"),
        (cli.tool_schema.is_some(), "--tool-schema"),
        (cli.format.is_some(), "--format"),
    ]
    .into_iter()
    .find_map(|(given, name)| given.then(|| name.to_string()))
    .or_else(|| match cli.paths.is_empty() {
        false => Some("a PATH argument".to_string()),
        // `--max-tokens` is also the server's default budget (SPEC §12, §18).
        true => cli
            .tool
            .given
            .iter()
            .find(|(param, _)| param.name != name::MAX_TOKENS)
            .map(|(param, _)| param.flag())
            .or_else(|| cli.all.then(|| "--all".to_string())),
    })
}

fn check_cli(cli: &Cli) -> Result<Checked, Error> {
    let call = cli.tool.check()?;
    check_tail(&call, ["--tail", "--start-line", "--start-char"])?;
    Ok(Checked {
        targets: cli.paths.iter().map(target_of).collect(),
        call,
    })
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

/// A tool call's arguments: each checked by the parameter table, then their combination.
/// `mcp`: the call came from an MCP client, which knows no `--call`.
fn check_call(object: &Map<String, Value>, mcp: bool) -> Result<Checked, Error> {
    let mut call = params::from_json(object)?;
    let paths = match (&call.path, &call.paths) {
        (Some(_), Some(_)) => {
            return Err(Error::invalid_param(
                "path and paths cannot be combined: give one file as path, or several as paths.",
            ));
        }
        (Some(path), None) => std::slice::from_ref(path),
        (None, Some(paths)) => paths.as_slice(),
        (None, None) => {
            return Err(Error::invalid_param(match mcp {
                true => {
                    "The parameter 'path' is required (also spelt file_path or filePath), or 'paths' for several files."
                }
                false => "--call needs a path (or file_path, filePath), or paths.",
            }));
        }
    };
    let targets = paths
        .iter()
        .map(|path| match path.as_str() {
            "-" => Target::Stdin,
            _ => Target::Path(path.into()),
        })
        .collect();
    check_tail(&call, [name::TAIL, name::START_LINE, name::START_CHAR])?;
    let range = match (call.end_line, call.view_range) {
        (Some(_), Some(_)) => {
            return Err(Error::invalid_param(
                "end_line and view_range cannot be combined: give one of them.",
            ));
        }
        (Some(end), None) => Some((name::END_LINE, call.start_line.unwrap_or(1), Some(end))),
        (None, Some((start, end))) => {
            if call.start_line.is_some() {
                return Err(Error::invalid_param(
                    "view_range names its first line itself; start_line cannot be combined with it.",
                ));
            }
            Some((name::VIEW_RANGE, start, end))
        }
        (None, None) => None,
    };
    if let Some((name, start, end)) = range {
        if let Some(other) = [
            (call.limit.is_some(), name::LIMIT),
            (call.tail.is_some(), name::TAIL),
        ]
        .into_iter()
        .find_map(|(given, n)| given.then_some(n))
        {
            return Err(Error::invalid_param(format!(
                "{name} cannot be combined with {other}: give one of them."
            )));
        }
        call.start_line = Some(start);
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
            call.limit = Some(end - start + 1);
        }
    }
    Ok(Checked { targets, call })
}

/// `--tail` names its own lines: no start line or start character with it. `names` are
/// the three parameters as the caller spells them (flags or tool parameters).
fn check_tail(window: &CallParams, names: [&str; 3]) -> Result<(), Error> {
    let [tail, start_line, start_char] = names;
    if window.tail.is_some() && (window.start_line.is_some() || window.start_char.is_some()) {
        return Err(Error::invalid_param(format!(
            "{tail} cannot be combined with {start_line} or {start_char}."
        )));
    }
    Ok(())
}

fn opt_bounded(flag: &str, raw: Option<&str>, min: u64, max: u64) -> Result<Option<u64>, Error> {
    raw.map(|raw| params::cli_bounded(flag, raw, min, max))
        .transpose()
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
        let checked = check_call(&object, false).unwrap();
        assert_eq!(checked.targets, vec![Target::Path("a.rs".into())]);
        assert_eq!(
            (checked.call.start_line, checked.call.limit),
            (Some(5), Some(7))
        );
    }

    #[test]
    fn max_line_chars_is_bounded() {
        assert!(opt_bounded("--max-line-chars", Some("1000001"), 1, MAX_LINE_CHARS).is_err());
        assert!(opt_bounded("--max-line-chars", Some("1000000"), 1, MAX_LINE_CHARS).is_ok());
    }
}
