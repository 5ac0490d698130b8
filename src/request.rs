//! Arguments, from the command line or a `--call` object, become one validated `Request`:
//! the only thing later stages see. Nothing downstream re-checks an argument.

use std::ffi::OsString;
use std::path::PathBuf;

use serde_json::{Map, Value};

use crate::cli::{Cli, ColorWhen, Format};
use crate::error::Error;
use crate::read::window::{Start, WindowSpec};
use crate::sandbox::Root;
use crate::sniff::EncodingChoice;

pub const DEFAULT_LIMIT: u64 = 500;
pub const MAX_LIMIT: u64 = 2000;
pub const DEFAULT_MAX_LINE_CHARS: u64 = 2000;
pub const DEFAULT_MAX_BYTES: u64 = 51200;

/// Everything one run needs, validated.
#[derive(Debug)]
pub struct Request {
    pub targets: Vec<Target>,
    pub window: WindowSpec,
    pub format: Format,
    pub color: ColorWhen,
    pub hint: bool,
    pub encoding: EncodingChoice,
    pub max_file_size: Option<SizeLimit>,
    pub hash: bool,
    pub if_changed: Option<String>,
    pub root: Root,
    /// The tool parameters as the caller gave them, for `context.params_input`.
    pub params: Params,
}

impl Request {
    /// The file's hash is computed when it is reported or compared.
    pub fn wants_hash(&self) -> bool {
        self.hash || self.if_changed.is_some()
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
            Target::Path(p) => p.to_string_lossy().into_owned(),
        };
        let mut map = Map::new();
        map.insert("path".into(), Value::String(path));
        map.extend(self.given.clone());
        map
    }
}

/// A request that could not be built: the error, and what is known for its envelope.
#[derive(Debug)]
pub struct Rejected {
    pub error: Error,
    pub format: Format,
    pub params: Map<String, Value>,
}

/// The window parameters of either source, before validation of their combination.
#[derive(Debug, Default)]
struct ToolParams {
    paths: Vec<Target>,
    start_line: Option<u64>,
    limit: Option<u64>,
    tail: Option<u64>,
    start_char: Option<u64>,
    hash: bool,
    if_changed: Option<String>,
}

impl Request {
    /// Validates the parsed command line. `read_stdin` supplies `--call -`.
    pub fn from_cli(
        cli: Cli,
        read_stdin: impl FnOnce() -> std::io::Result<String>,
    ) -> Result<Request, Box<Rejected>> {
        let format = cli.format.unwrap_or(if cli.call.is_some() {
            Format::Json
        } else {
            Format::Text
        });
        let mut params = Params::default();
        let reject = |error: Error, params: &Params| {
            Box::new(Rejected {
                error,
                format,
                params: params.given.clone(),
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
        build(cli, tool, format, params.clone()).map_err(|e| reject(e, &params))
    }
}

fn build(cli: Cli, tool: ToolParams, format: Format, params: Params) -> Result<Request, Error> {
    if tool.paths.is_empty() {
        return Err(Error::invalid_param(
            "No PATH given. Usage: agentread PATH... [OPTIONS] (see --help).",
        ));
    }
    if tool.paths.iter().filter(|t| **t == Target::Stdin).count() > 1 {
        return Err(Error::invalid_param(
            "Standard input ('-') can be read only once per call.",
        ));
    }
    if tool.tail.is_some() && (tool.start_line.is_some() || tool.start_char.is_some()) {
        return Err(Error::invalid_param(
            "--tail cannot be combined with --start-line or --start-char.",
        ));
    }
    let max_line_chars = opt_bounded(
        "--max-line-chars",
        cli.max_line_chars.as_deref(),
        1,
        u64::MAX,
    )?
    .unwrap_or(DEFAULT_MAX_LINE_CHARS);
    let max_bytes = opt_bounded("--max-bytes", cli.max_bytes.as_deref(), 1, u64::MAX)?
        .unwrap_or(DEFAULT_MAX_BYTES);
    let max_file_size = match cli.max_file_size {
        None => None,
        Some(given) => Some(SizeLimit {
            bytes: parse_size(&given).ok_or_else(|| {
                Error::invalid_param(format!(
                    "Invalid value '{given}' for --max-file-size: expected bytes, or a number with K, M, G, KiB, MiB, GiB, KB, MB or GB."
                ))
            })?,
            given,
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
    let start = match tool.tail {
        Some(n) => Start::Tail(n),
        None => Start::Line(tool.start_line.unwrap_or(1)),
    };
    let window = WindowSpec {
        start,
        limit: tool.tail.or(tool.limit).unwrap_or(DEFAULT_LIMIT),
        start_char: tool.start_char.unwrap_or(1),
        max_line_chars,
        max_bytes,
        numbers: cli.numbers,
    };
    let root = open_root(cli.root)?;
    Ok(Request {
        targets: tool.paths,
        window,
        format,
        color: cli.color,
        hint: !cli.no_hint,
        encoding,
        max_file_size,
        hash: tool.hash,
        if_changed: tool.if_changed,
        root,
        params,
    })
}

/// `--root`, else `$AGENTREAD_ROOT` (when set and not empty), else the current directory.
fn open_root(flag: Option<OsString>) -> Result<Root, Error> {
    if let Some(dir) = flag {
        return Root::open(&PathBuf::from(dir), "--root");
    }
    match std::env::var_os("AGENTREAD_ROOT") {
        Some(dir) if !dir.is_empty() => Root::open(&PathBuf::from(dir), "$AGENTREAD_ROOT"),
        _ => Root::open(&PathBuf::from("."), "The current directory"),
    }
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
    ]
    .into_iter()
    .find_map(|(given, name)| given.then_some(name))
}

fn tool_params_from_cli(cli: &Cli) -> Result<ToolParams, Error> {
    let paths = cli
        .paths
        .iter()
        .map(|p| match p.to_str() {
            Some("-") => Target::Stdin,
            _ => Target::Path(p.clone()),
        })
        .collect();
    Ok(ToolParams {
        paths,
        start_line: opt_bounded("--start-line", cli.start_line.as_deref(), 1, u64::MAX)?,
        limit: opt_bounded("--limit", cli.limit.as_deref(), 1, MAX_LIMIT)?,
        tail: opt_bounded("--tail", cli.tail.as_deref(), 1, MAX_LIMIT)?,
        start_char: opt_bounded("--start-char", cli.start_char.as_deref(), 1, u64::MAX)?,
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

/// The parameter names `--call` accepts, canonical name first, then its aliases.
pub const CALL_PARAMETERS: &[&[&str]] = &[
    &["path", "file_path", "filePath"],
    &["start_line", "offset"],
    &["limit", "max_lines"],
    &["tail"],
    &["start_char"],
    &["hash"],
    &["if_changed"],
];

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
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for (key, value) in object {
        let Some(names) = CALL_PARAMETERS.iter().find(|n| n.contains(&key.as_str())) else {
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
            "start_line" => tool.start_line = Some(json_bounded(key, value, 1, u64::MAX)?),
            "limit" => tool.limit = Some(json_bounded(key, value, 1, MAX_LIMIT)?),
            "tail" => tool.tail = Some(json_bounded(key, value, 1, MAX_LIMIT)?),
            "start_char" => tool.start_char = Some(json_bounded(key, value, 1, u64::MAX)?),
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
    if tool.tail.is_some() && (tool.start_line.is_some() || tool.start_char.is_some()) {
        return Err(Error::invalid_param(
            "tail cannot be combined with start_line or start_char.",
        ));
    }
    Ok(tool)
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
        assert_eq!((tool.start_line, tool.limit), (Some(5), Some(7)));
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
