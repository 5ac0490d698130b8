//! The command line (SPEC §1): one clap definition, the source of `--help`, the
//! completions and the man page.
//!
//! Numeric options are taken as text and validated in `request`, so that the command
//! line and `--call` share one set of checks and messages.

use std::ffi::OsString;

use clap::{Parser, ValueEnum, ValueHint};

use crate::args::params::{CliParams, CliValue, PARAMS, Param, ParamType};
use crate::read::numbers::NumberStyle;

/// What `--generate` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Generated {
    Bash,
    Zsh,
    Fish,
    Powershell,
    Elvish,
    /// the man page (roff)
    Man,
}

impl Generated {
    /// Every script, with the file name it is committed under in `completions/`.
    pub const SHELLS: [(Generated, &'static str); 5] = [
        (Generated::Bash, "agentread.bash"),
        (Generated::Zsh, "_agentread"),
        (Generated::Fish, "agentread.fish"),
        (Generated::Powershell, "_agentread.ps1"),
        (Generated::Elvish, "agentread.elv"),
    ];
}

/// The examples of `--help`, also the EXAMPLES section of the man page.
pub const EXAMPLES: &str = "\
Examples:
  agentread README.md                         lines 1-500, numbered \"   1 | \"
  agentread README.md --start-line 501        the next page
  agentread src/lib.rs -s 120 -n 40 --numbers tab
  agentread Cargo.lock --tail 100             the last 100 lines, with their true numbers
  agentread tests/data/min.js --start-char 2001
                                              read on inside a long line
  agentread src/main.rs --format json | jq .stats
  agentread --call '{\"path\":\"src/lib.rs\",\"start_line\":101}'
  agentread src/                              a directory: its entries, paged
  agentread src/read/window.rs --outline      its functions, types and sections, with lines
  agentread 'src/read/window.rs#Window.rendered'
                                              one symbol's lines, by name
  agentread src/lib.rs:120 --enclosing        the whole function that holds line 120
  agentread src/ --outline                    a map of the source files under src/
  agentread tests/data/analysis.ipynb         a notebook's cells and outputs as text
  agentread tests/data/pdf/fpdf2_two_pages.pdf#page-2
                                              a PDF's text, page 2
  agentread --call '{\"paths\":[\"src/main.rs:1-20\",\"README.md\"]}'
                                              several files in one call
  seq 100000 | agentread - -s 1000 -n 50      standard input
  agentread src/lib.rs:42 -C 5                lines 37-47: a compiler's reference, with context
  grep -rn 'fn main' src | cut -d: -f1,2 | xargs agentread -C 3
                                              every match of a search, with its context
  agentread tests/data/.env --deny-secrets    refused: ACCESS_DENIED, naming the glob
  agentread --tool-schema anthropic           the tool definition for an agent framework
  agentread --mcp --root .                    serve the read tool to an MCP host
  agentread --mcp-config claude --deny-secrets
                                              the command that adds agentread to Claude Code
  agentread --all src/main.rs > copy.txt      every line, numbered, none cut
  agentread --all src/main.rs --numbers tab   the same numbered as cat -n numbers them
  mkdir -p ~/.zfunc && agentread --generate zsh > ~/.zfunc/_agentread
                                              zsh completions, for a ~/.zfunc on $fpath

Exit status: 0 success or partial, 1 INTERNAL, 2 INVALID_PARAM, 3 NOT_FOUND,
4 ACCESS_DENIED, 5 PERMISSION_DENIED, 6 NOT_FILE, 7 BINARY_FILE,
8 SIZE_LIMIT_EXCEEDED, 9 IO_ERROR.";

/// The man page's sections beyond the options (title, text), rendered by the generator
/// that also writes the completions.
pub const MAN_SECTIONS: &[(&str, &str)] = &[
    (
        "ROOT AND SANDBOX",
        "Nothing outside the workspace root is read. The root is --root DIR, else $AGENTREAD_ROOT, else the top of the git work tree that holds the current directory (its nearest ancestor with a .git entry), else the current directory. A relative PATH is joined to a chosen root (--root, $AGENTREAD_ROOT), else to the current directory, as cat does; an absolute PATH must lie inside the root. Every path is resolved one component at a time from a handle on the root, following symlinks inside it; a path or link that leads out is ACCESS_DENIED, and a link swapped during the read cannot lead out. FIFOs, sockets and devices are NOT_FILE, found without blocking. Every path printed is relative to the root.",
    ),
    (
        "LINE REFERENCES",
        "PATH:N starts the window at line N, PATH:N:C does the same (the column is ignored), PATH:N-M shows lines N to M. With -C K a PATH:N target shows K lines before and after line N. A file whose name holds the colon always wins. In --call and MCP, end_line and view_range ([start, end], end -1 for the end) are accepted in place of limit.",
    ),
    (
        "DENY POLICY",
        "--deny GLOB (repeatable) and $AGENTREAD_DENY (globs separated by ':') refuse files whose root-relative path matches a gitignore-style glob; --deny-secrets adds a built-in list (.env, .env.*, *.pem, *.key, id_rsa, .netrc, .aws/credentials and more). The globs are matched against the file opened and every symlink on the way to it. A refusal is ACCESS_DENIED with error.detail {\"reason\":\"denied\",\"pattern\":...}.",
    ),
    (
        "OUTPUT FORMATS",
        "text: the numbered window, then a footer when something is worth saying (truncated, cut lines, fallback encoding, empty file); errors on stderr. json: one object per PATH (JSON Lines) with the keys status (success, partial, unchanged, error), data (path, content, start_line, end_line, truncated, next_start_line, ...), text, stats (total_lines, lines_read, chars_read, file_size_bytes, encoding, line_endings, bom, approx_tokens, ...), context (cwd, params_input, path_resolved) and, on error, error (code, message, exit_code, suggestions, detail). xml: one element per PATH with the same facts.",
    ),
    (
        "STRUCTURE AND DOCUMENTS",
        "--outline lists a source file's symbols (Rust, Python, JavaScript, TypeScript, Go, Java, C, C++, Markdown) as START-END | definition line; on a directory, the map of its source files. PATH#SYMBOL reads one symbol by its qualified name or last parts; --enclosing with PATH:N reads the symbol (else the indented block) that holds line N. Files up to 8 MiB are parsed, for at most 2 s. Jupyter notebooks are read as their cells (# %% [code] cell-N) with text outputs, PDFs as their text under --- page N --- lines; cells and pages are symbols (nb.ipynb#cell-3, doc.pdf#page-2). --raw reads them as their bytes. In --call and MCP, paths reads 1 to 50 targets in one call within one byte budget.",
    ),
    (
        "MCP SERVER",
        "agentread --mcp serves the read tool over the Model Context Protocol on standard input and output until standard input closes. --root, --max-bytes, --max-tokens, --max-line-chars, --max-file-size, --encoding, --numbers, --deny and --deny-secrets shape every call; the server's token budget is 9000 unless --max-tokens sets another. Without --root or $AGENTREAD_ROOT, the client's roots are used. PNG, JPEG, GIF and WebP files are answered as images, scaled down to 1568 pixels on the longer side when larger or over 5 MiB; over 100 megapixels or 64 MiB they are refused.",
    ),
];

/// Print a numbered, bounded window of a file, for coding agents, people and pipelines.
#[derive(Debug, Parser)]
#[command(
    name = "agentread",
    version,
    after_help = EXAMPLES,
    allow_negative_numbers = true,
    max_term_width = 100
)]
pub struct Cli {
    /// Files or directories, relative to the root or absolute inside it; `-` reads standard input
    #[arg(value_name = "PATH", value_hint = ValueHint::AnyPath)]
    pub paths: Vec<OsString>,

    /// The per-call options, from the parameter table.
    #[command(flatten)]
    pub tool: CliParams,

    /// Output format [default: text; json with --call]
    #[arg(short = 'f', long, value_enum, value_name = "F")]
    pub format: Option<Format>,

    /// Line-number style
    #[arg(long, value_enum, value_name = "S", default_value_t = NumberStyle::Pipe)]
    pub numbers: NumberStyle,

    /// Workspace root; nothing outside it is read [default: $AGENTREAD_ROOT, else the git work tree holding the current directory, else the current directory]
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub root: Option<OsString>,

    /// Cut longer lines to N characters (1-1000000), marked ` … [+K chars]` [default: 2000]
    #[arg(long, value_name = "N", value_hint = ValueHint::Other)]
    pub max_line_chars: Option<String>,

    /// Budget in bytes for one window's content, number prefixes included [default: 51200]
    #[arg(long, value_name = "N", value_hint = ValueHint::Other)]
    pub max_bytes: Option<String>,

    /// Refuse larger files: bytes, or K, M, G, KiB, MiB, GiB (1024s), KB, MB, GB (1000s)
    #[arg(long, value_name = "SIZE", value_hint = ValueHint::Other)]
    pub max_file_size: Option<String>,

    /// Encoding: utf-8, auto, or a WHATWG label (gbk, shift_jis, windows-1252, utf-16le, ...) [default: utf-8]
    #[arg(long, value_name = "E", value_hint = ValueHint::Other)]
    pub encoding: Option<String>,

    /// When to colour the output; NO_COLOR is honoured by auto
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,

    /// Print no footer in text mode (for pipelines)
    #[arg(long)]
    pub no_hint: bool,

    /// Parse every file afresh: keep no parsed outlines (also AGENTREAD_NO_CACHE=1)
    #[arg(long)]
    pub no_cache: bool,

    /// With --mcp: how long a client's answer to roots/list is awaited, in seconds
    /// (fractions allowed) [default: 10]
    #[arg(long, value_name = "SECS", value_hint = ValueHint::Other)]
    pub roots_timeout: Option<f64>,

    /// Take the parameters as a tool call's JSON arguments; `-` reads them from standard input
    #[arg(long, value_name = "JSON", value_hint = ValueHint::Other)]
    pub call: Option<String>,

    /// Print the tool definition for an agent framework and exit
    #[arg(
        long,
        value_enum,
        value_name = "FLAVOR",
        num_args = 0..=1,
        default_missing_value = "json-schema"
    )]
    pub tool_schema: Option<SchemaFlavor>,

    /// Refuse files matching this gitignore-style glob (repeatable) [also: $AGENTREAD_DENY, globs separated by ':']
    #[arg(long, value_name = "GLOB", value_hint = ValueHint::Other)]
    pub deny: Vec<String>,

    /// Refuse the built-in list of secret files (.env, *.pem, id_rsa, .netrc, ...)
    #[arg(long)]
    pub deny_secrets: bool,

    /// Serve the `read` tool over the Model Context Protocol on standard input and output
    #[arg(long)]
    pub mcp: bool,

    /// Every line from the start line to the end, none cut: no limit, byte budget or line cut; streamed as text
    #[arg(long)]
    pub all: bool,

    /// Print a completion script or the man page and exit
    #[arg(long, value_enum, value_name = "WHAT")]
    pub generate: Option<Generated>,

    /// Print what adds agentread to an MCP host and exit, with the server settings given beside it
    #[arg(long, value_name = "HOST", value_parser = HostName)]
    pub mcp_config: Option<String>,
}

impl Cli {
    /// The commonest command lines, parsed as clap would parse them, without clap:
    /// building clap's command and parsing with it was a third of the work of reading a
    /// small file. Taken here: PATHs (not `-`), the per-call options of the parameter
    /// table as `--long VALUE`, `-s VALUE` or a flag, each at most once, and `--format`.
    /// `None` for anything else (`--long=VALUE`, `-n3`, `--`, a value that starts with
    /// `-`, any other option, no PATH), which clap parses. A test holds the two equal.
    pub fn plain(args: &[OsString]) -> Option<Cli> {
        let mut paths = Vec::new();
        let mut given: Vec<(&'static Param, CliValue)> = Vec::new();
        let mut format = None;
        let mut root: Option<OsString> = None;
        let mut rest = args.get(1..)?.iter();
        while let Some(arg) = rest.next() {
            if !arg.as_encoded_bytes().starts_with(b"-") {
                if arg.is_empty() {
                    return None;
                }
                paths.push(arg.clone());
                continue;
            }
            // `--root DIR`: the one command-line option every host's call and every
            // script gives (clap would cost a read a third of a millisecond more).
            if arg == "--root" {
                let dir = rest.next()?;
                let plain = !dir.is_empty() && !dir.as_encoded_bytes().starts_with(b"-");
                if !plain || root.replace(dir.clone()).is_some() {
                    return None;
                }
                continue;
            }
            let arg = arg.to_str()?;
            let mut value = || {
                let value = rest.next()?.to_str()?;
                let plain = !value.is_empty() && !value.starts_with('-');
                plain.then(|| value.to_string())
            };
            if arg == "-f" || arg == "--format" {
                let asked = match value()?.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    "xml" => Format::Xml,
                    _ => return None,
                };
                if format.replace(asked).is_some() {
                    return None;
                }
                continue;
            }
            let named = |p: &&Param| match arg.strip_prefix("--") {
                Some(long) => p.long == Some(long),
                None => p.long.is_some() && arg.len() == 2 && arg[1..].chars().next() == p.short,
            };
            let param = PARAMS.iter().find(named)?;
            if given.iter().any(|(p, _)| std::ptr::eq(*p, param)) {
                return None;
            }
            let raw = match param.kind {
                ParamType::Flag { .. } => CliValue::Flag,
                _ => CliValue::Text(value()?),
            };
            given.push((param, raw));
        }
        if paths.is_empty() {
            return None;
        }
        // clap's matches give them in the table's order.
        given.sort_by_key(|(p, _)| PARAMS.iter().position(|q| std::ptr::eq(q, *p)));
        Some(Cli {
            paths,
            tool: CliParams { given },
            format,
            numbers: NumberStyle::Pipe,
            root,
            max_line_chars: None,
            max_bytes: None,
            max_file_size: None,
            encoding: None,
            color: ColorWhen::Auto,
            no_hint: false,
            no_cache: false,
            roots_timeout: None,
            call: None,
            tool_schema: None,
            deny: Vec::new(),
            deny_secrets: false,
            mcp: false,
            all: false,
            generate: None,
            mcp_config: None,
        })
    }
}

/// The hosts `--mcp-config` knows (`setup::hosts::Host::ALL`, whose test keeps the two
/// lists equal): offered by completion and `--help`.
pub const HOST_NAMES: [&str; 9] = [
    "claude",
    "codex",
    "codex-toml",
    "vscode",
    "cursor",
    "gemini",
    "opencode",
    "goose",
    "claude-desktop",
];

/// `--mcp-config`'s HOST: offers [`HOST_NAMES`] to completion and help, and takes any
/// text, so that an unknown host gets agentread's own message naming the known ones.
#[derive(Clone, Copy, Debug)]
struct HostName;

impl clap::builder::TypedValueParser for HostName {
    type Value = String;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        Ok(value.to_string_lossy().into_owned())
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            HOST_NAMES
                .into_iter()
                .map(clap::builder::PossibleValue::new),
        ))
    }
}

/// How the answers are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// the numbered lines and a footer
    Text,
    /// one JSON object per PATH, one per line
    Json,
    /// one XML element per PATH
    Xml,
}

/// When to colour text output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// on a terminal, unless NO_COLOR is set
    Auto,
    /// always, even when NO_COLOR is set
    Always,
    /// never
    Never,
}

/// Which shape of tool definition to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaFlavor {
    /// {"name","description","parameters"}
    JsonSchema,
    /// {"type":"function","function":{...}}
    Openai,
    /// {"name","description","input_schema"}
    Anthropic,
}

/// The format answers are written in: `--format`, else json for `--call`, else text.
pub fn answer_format(format: Option<Format>, call: bool) -> Format {
    format.unwrap_or(if call { Format::Json } else { Format::Text })
}

/// The format to answer in when the arguments cannot be parsed: the last valid
/// `--format` of the raw arguments, else json for `--call`, else text.
///
/// A walk of its own, not clap's `ignore_errors`: clap stops at the first bad argument,
/// so `a.txt --bogus -f json` would answer in text, against SPEC §6.
pub fn format_hint(args: &[OsString]) -> Format {
    let mut format = None;
    let mut call = false;
    let mut args = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(arg) = args.next() {
        if arg == "--" {
            break;
        }
        let value = if arg == "--format" || arg == "-f" {
            args.next().map(|v| v.into_owned())
        } else if let Some(v) = arg.strip_prefix("--format=") {
            Some(v.to_string())
        } else if let Some(v) = arg.strip_prefix("-f").filter(|v| !v.is_empty()) {
            Some(v.strip_prefix('=').unwrap_or(v).to_string())
        } else {
            call |= arg == "--call" || arg.starts_with("--call=");
            None
        };
        if let Some(parsed) = value.and_then(|v| Format::from_str(&v, false).ok()) {
            format = Some(parsed);
        }
    }
    answer_format(format, call)
}

/// clap's tips for an error (such as passing a value that starts with `-`), one line
/// each, for text mode's stderr.
pub fn clap_tips(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    match e.get(ContextKind::Suggested) {
        Some(ContextValue::StyledStrs(tips)) => {
            tips.iter().map(|tip| format!("  tip: {tip}\n")).collect()
        }
        _ => String::new(),
    }
}

/// clap's error as one sentence for `error.message`, from the error's own facts.
pub fn clap_message(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(list)) => Some(list.join(", ")),
        _ => None,
    };
    let arg = text(ContextKind::InvalidArg).unwrap_or_default();
    let mut message = match e.kind() {
        ErrorKind::UnknownArgument => format!("Unexpected argument '{arg}' found."),
        ErrorKind::InvalidValue => match text(ContextKind::InvalidValue) {
            Some(value) if !value.is_empty() => {
                let valid = text(ContextKind::ValidValue)
                    .map(|v| format!(" [possible values: {v}]"))
                    .unwrap_or_default();
                format!("Invalid value '{value}' for '{arg}'{valid}.")
            }
            _ => format!("A value is required for '{arg}' but none was supplied."),
        },
        _ => {
            // Any other kind: clap's first line, as a sentence.
            let rendered = e.render().to_string();
            let first = rendered.lines().next().unwrap_or_default();
            let first = first.strip_prefix("error: ").unwrap_or(first).trim();
            let mut sentence = first.to_string();
            if let Some(c) = sentence.get(..1) {
                sentence.replace_range(..1, &c.to_uppercase());
            }
            if !sentence.ends_with('.') {
                sentence.push('.');
            }
            sentence
        }
    };
    if let Some(suggested) = text(ContextKind::SuggestedArg) {
        message.push_str(&format!(" Did you mean '{suggested}'?"));
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// The help texts name the defaults the request applies (doc comments, so that
    /// parsing builds no text at start-up; this keeps them true).
    #[test]
    fn help_texts_say_the_defaults_the_request_applies() {
        use crate::args::params::{DEFAULT_MAX_BYTES, DEFAULT_MAX_LINE_CHARS};
        let command = Cli::command();
        let help = |name: &str| {
            command
                .get_arguments()
                .find(|a| a.get_id() == name)
                .and_then(|a| a.get_help())
                .map(|h| h.to_string())
                .unwrap()
        };
        assert!(help("max_line_chars").contains(&format!("[default: {DEFAULT_MAX_LINE_CHARS}]")));
        assert!(help("max_bytes").contains(&format!("[default: {DEFAULT_MAX_BYTES}]")));
        assert!(help(crate::args::params::name::LIMIT).contains("[default: 500]"));
    }

    fn hint(args: &[&str]) -> Format {
        let args: Vec<OsString> = std::iter::once("agentread")
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect();
        format_hint(&args)
    }

    #[test]
    fn the_format_is_found_even_when_parsing_fails() {
        assert_eq!(
            hint(&["a", "--limit", "abc", "--format", "json"]),
            Format::Json
        );
        assert_eq!(hint(&["--format=xml", "--bogus"]), Format::Xml);
        assert_eq!(hint(&["-fjson"]), Format::Json);
        assert_eq!(hint(&["--call", "{}", "--bogus"]), Format::Json);
        assert_eq!(hint(&["--call", "{}", "-f", "text"]), Format::Text);
        assert_eq!(hint(&["--format", "yaml"]), Format::Text);
        assert_eq!(hint(&["--", "--format", "json"]), Format::Text);
        // After the bad argument too: clap's lenient parse would stop at it.
        assert_eq!(hint(&["a", "--bogus", "-f", "json"]), Format::Json);
        assert_eq!(
            hint(&["--numbers", "roman", "a", "--format=xml"]),
            Format::Xml
        );
    }

    #[test]
    fn the_plain_command_lines_are_what_clap_makes_of_them() {
        use clap::{CommandFactory, FromArgMatches};
        use std::os::unix::ffi::OsStringExt;
        let args = |list: &[&str]| -> Vec<OsString> {
            std::iter::once("agentread")
                .chain(list.iter().copied())
                .map(OsString::from)
                .collect()
        };
        let mut lines: Vec<Vec<OsString>> = Vec::new();
        for path in [
            "a",
            "src/lib.rs",
            "a b",
            "src/lib.rs#Window.render",
            "h.md#Parent/@vue/reactivity",
            "x.rs:10-20",
            "ü.txt",
            "1",
            " -a",
        ] {
            lines.push(args(&[path]));
        }
        lines.push(vec![
            OsString::from("agentread"),
            OsString::from_vec(vec![b'a', 0xff, b'b']),
        ]);
        lines.push(vec![
            OsString::from("agentread"),
            OsString::from("--root"),
            OsString::from_vec(vec![b'w', 0xff]),
            OsString::from("a"),
        ]);
        // Every per-call option of the table, after the PATH and before it.
        for param in PARAMS.iter() {
            let Some(long) = param.long else { continue };
            let flag = format!("--{long}");
            let short = param.short.map(|c| format!("-{c}"));
            let mut spellings = vec![flag.as_str()];
            spellings.extend(short.as_deref());
            for spelling in spellings {
                let with: Vec<&str> = match param.kind {
                    ParamType::Flag { .. } => vec![spelling],
                    _ => vec![spelling, "7"],
                };
                lines.push(args(&[&["a.rs"], &with[..]].concat()));
                lines.push(args(&[&with[..], &["a.rs"]].concat()));
            }
        }
        for list in [
            &["a.rs", "-s", "5", "-n", "10"][..],
            &["a.rs", "-n", "10", "-s", "5"],
            &["a.rs", "--limit", "x", "--outline", "--format", "json"],
            &["-f", "xml", "a.rs", "--max-tokens", "300", "--signatures"],
            &["-f", "text", "a.rs"],
            &["a.rs", "b.rs"],
            &["a.rs", "-n", "3", "b.rs"],
            &["a.rs", "--fit", "--max-tokens", "2000"],
            &["--root", "/tmp/ws", ".", "--outline", "--start-line", "501"],
            &["a.rs", "--root", "ws dir", "-n", "3"],
        ] {
            lines.push(args(list));
        }
        for line in &lines {
            let matches = Cli::command().try_get_matches_from(line).unwrap();
            let clap = Cli::from_arg_matches(&matches).unwrap();
            let plain = Cli::plain(line).unwrap_or_else(|| panic!("{line:?}"));
            assert_eq!(format!("{plain:?}"), format!("{clap:?}"), "{line:?}");
        }
        // Anything else is clap's.
        for list in [
            &["-"][..],
            &["--"],
            &["-n3"],
            &["--limit=3", "a"],
            &["a", "-n"],
            &["a", "-n", "-3"],
            &["a", "-n", ""],
            &["a", "-n", "3", "-n", "4"],
            &["a", "--outline", "--outline"],
            &["a", "--format", "yaml"],
            &["a", "-f", "json", "-f", "xml"],
            &["a", "--numbers", "tab"],
            &["a", "--bogus"],
            &["a", "--root"],
            &["a", "--root", ""],
            &["a", "--root", "-x"],
            &["a", "--root", "x", "--root", "y"],
            &["a", "--root=x"],
            &["a", "-h"],
            &["--version"],
            &["--mcp"],
            &["--call", "{}"],
            &["-n", "3"],
            &[""],
            &[],
        ] {
            assert!(Cli::plain(&args(list)).is_none(), "{list:?}");
        }
    }
}
