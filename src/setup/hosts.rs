//! `--mcp-config HOST`: what adds agentread to an MCP host (SPEC §17), as a command to
//! run or a snippet to merge into the host's configuration file.
//!
//! Every shape below was checked against the host's own documentation and, where the host
//! has a command line, against what that command line writes (`scripts/check-hosts.sh`):
//!
//! | host | what | where it goes |
//! |---|---|---|
//! | `claude` | `claude mcp add agentread -- BIN --mcp --root CWD` | run in the project: Claude Code's default `local` scope, this project only, kept in `~/.claude.json` |
//! | `codex` | `codex mcp add agentread -- BIN --mcp --root CWD` | run anywhere: Codex writes `[mcp_servers.agentread]` to `~/.codex/config.toml` (global) |
//! | `codex-toml` | the `[mcp_servers.agentread]` table | `.codex/config.toml` of a trusted project, or `~/.codex/config.toml` |
//! | `claude-desktop` | `{"mcpServers": {"agentread": {"command", "args"}}}` | `claude_desktop_config.json` |
//! | `cursor` | the same | `.cursor/mcp.json` (project) or `~/.cursor/mcp.json` |
//! | `gemini` | the same (what `gemini mcp add` writes) | `.gemini/settings.json` (project) or `~/.gemini/settings.json` |
//! | `vscode` | `{"servers": {"agentread": {"type": "stdio", "command", "args"}}}` | `.vscode/mcp.json` |
//! | `opencode` | `{"mcp": {"agentread": {"type": "local", "command": [BIN, ...], "enabled": true}}}` | `opencode.json` (project) or `~/.config/opencode/opencode.json` |
//! | `goose` | the `extensions:` entry of type `stdio` (`cmd`, `args`, `enabled`, `timeout`) | `~/.config/goose/config.yaml` |
//!
//! `claude` uses the default scope on purpose: the arguments name this project's root, so
//! the server belongs to this project (`--scope user` would serve one root to every
//! project). The two commands are quoted for a POSIX shell where a path needs it.

use serde_json::{Value, json};

use crate::names::{self, Quoting};

/// The name every host knows the server by.
const SERVER: &str = "agentread";

/// Goose shows this next to the extension's name.
const GOOSE_DESCRIPTION: &str = "Read numbered, bounded windows of the workspace's files";

/// Goose's own default for an extension's calls, in seconds.
const GOOSE_TIMEOUT: u64 = 300;

/// A host that `--mcp-config` prints for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    Claude,
    Codex,
    CodexToml,
    Vscode,
    Cursor,
    Gemini,
    Opencode,
    Goose,
    ClaudeDesktop,
}

impl Host {
    /// Every host by the name `--mcp-config` takes.
    pub const ALL: [(&'static str, Host); 9] = [
        ("claude", Host::Claude),
        ("codex", Host::Codex),
        ("codex-toml", Host::CodexToml),
        ("vscode", Host::Vscode),
        ("cursor", Host::Cursor),
        ("gemini", Host::Gemini),
        ("opencode", Host::Opencode),
        ("goose", Host::Goose),
        ("claude-desktop", Host::ClaudeDesktop),
    ];

    pub fn from_name(name: &str) -> Option<Host> {
        Self::ALL
            .iter()
            .find(|(known, _)| *known == name)
            .map(|&(_, host)| host)
    }

    /// The known names, for the INVALID_PARAM message: `claude, codex, …`.
    pub fn names() -> String {
        Self::ALL.map(|(name, _)| name).join(", ")
    }
}

/// The snippet or command for `host`, the binary's absolute path as the command and
/// `args` as its arguments (`--mcp --root <root>` and the server settings given beside
/// `--mcp-config`); always ends with "\n".
pub fn config(host: Host, binary: &str, args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match host {
        Host::Claude => add_command("claude", binary, &args),
        Host::Codex => add_command("codex", binary, &args),
        Host::CodexToml => {
            let args = args
                .iter()
                .map(|a| toml_string(a))
                .collect::<Vec<_>>()
                .join(", ");
            format!(
                "[mcp_servers.{SERVER}]\ncommand = {}\nargs = [{args}]\n",
                toml_string(binary)
            )
        }
        Host::ClaudeDesktop | Host::Cursor | Host::Gemini => pretty(json!({
            "mcpServers": { SERVER: { "command": binary, "args": args } }
        })),
        Host::Vscode => pretty(json!({
            "servers": { SERVER: { "type": "stdio", "command": binary, "args": args } }
        })),
        Host::Opencode => {
            let mut command = vec![binary];
            command.extend(args);
            pretty(json!({
                "$schema": "https://opencode.ai/config.json",
                "mcp": { SERVER: { "type": "local", "command": command, "enabled": true } }
            }))
        }
        Host::Goose => {
            let q = yaml_string;
            let args: String = args.iter().map(|a| format!("      - {}\n", q(a))).collect();
            format!(
                "extensions:\n  {SERVER}:\n    enabled: true\n    type: stdio\n    name: {SERVER}\n    \
                 description: {}\n    cmd: {}\n    args:\n{args}    envs: {{}}\n    \
                 env_keys: []\n    timeout: {GOOSE_TIMEOUT}\n",
                q(GOOSE_DESCRIPTION),
                q(binary)
            )
        }
    }
}

/// `<cli> mcp add agentread -- BIN ARGS…`, each word quoted for a POSIX shell if needed.
fn add_command(cli: &str, binary: &str, args: &[&str]) -> String {
    let mut line = format!("{cli} mcp add {SERVER} -- {}", shell_word(binary));
    for arg in args {
        line.push(' ');
        line.push_str(&shell_word(arg));
    }
    line.push('\n');
    line
}

fn pretty(value: Value) -> String {
    let mut text = serde_json::to_string_pretty(&value).expect("a JSON value always serializes");
    text.push('\n');
    text
}

fn shell_word(word: &str) -> String {
    names::shell_word(word, Quoting::Single)
}

/// `s` as a TOML basic string: `"` and `\` escaped, and the control characters TOML
/// forbids raw (U+0000-U+001F, U+007F); everything else, non-ASCII included, as it is.
fn toml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if c < ' ' || c == '\u{7f}' => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `s` as a YAML double-quoted scalar that is also a JSON string: JSON's escapes, plus a
/// four-digit `\u` escape for what YAML may not hold raw or would read as a line break
/// (DEL, the C1 controls with NEL, U+2028, U+2029, U+FFFE, U+FFFF).
fn yaml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    for c in Value::from(s).to_string().chars() {
        match c {
            '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{fffe}' | '\u{ffff}' => {
                out.push_str(&format!("\\u{:04X}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paths a user can have: spaces, both quotes, `$`, backslashes, non-ASCII, a newline.
    const AWKWARD: [&str; 8] = [
        "/usr/local/bin/agentread",
        "/home/a b/.local/bin/agentread",
        "/home/o'neil/\"quoted\"/agentread",
        "/tmp/$HOME/`x`/!/agentread",
        r"C:\Users\Zoë\AppData\agentread.exe",
        "/srv/проект/日本/🦀/agentread",
        "/tmp/line\nbreak\ttab\u{7f}/agentread",
        "/tmp/nel\u{85}ls\u{2028}ps\u{2029}\u{9f}\u{feff}/agentread",
    ];

    fn args(root: &str) -> Value {
        json!(["--mcp", "--root", root])
    }

    /// The set-up with no settings beside `--mcp-config`: `--mcp --root <root>`.
    fn config(host: Host, binary: &str, root: &str) -> String {
        let args = ["--mcp", "--root", root].map(String::from);
        super::config(host, binary, &args)
    }

    #[test]
    fn settings_given_beside_follow_the_root() {
        let args = ["--mcp", "--root", "/w", "--deny", "*.pem", "--deny-secrets"].map(String::from);
        assert_eq!(
            super::config(Host::Claude, "/bin/agentread", &args),
            "claude mcp add agentread -- /bin/agentread --mcp --root /w --deny '*.pem' --deny-secrets\n"
        );
        let parsed: Value = serde_json::from_str(&super::config(Host::Cursor, "a", &args)).unwrap();
        assert_eq!(
            parsed["mcpServers"]["agentread"]["args"],
            json!(["--mcp", "--root", "/w", "--deny", "*.pem", "--deny-secrets"])
        );
    }

    #[test]
    fn names_round_trip() {
        for (name, host) in Host::ALL {
            assert_eq!(Host::from_name(name), Some(host));
            assert!(Host::names().split(", ").any(|n| n == name));
        }
        assert_eq!(Host::names().split(", ").count(), 9);
        // Completion offers the same names.
        assert_eq!(
            Host::ALL.map(|(name, _)| name),
            crate::args::cli::HOST_NAMES
        );
        assert_eq!(Host::from_name("Claude"), None);
        assert_eq!(Host::from_name("vs-code"), None);
        assert_eq!(Host::from_name(""), None);
    }

    #[test]
    fn every_answer_ends_with_one_newline() {
        for (name, host) in Host::ALL {
            for path in AWKWARD {
                let text = config(host, path, path);
                assert!(
                    text.ends_with('\n') && !text.ends_with("\n\n"),
                    "{name}: {text:?}"
                );
            }
        }
    }

    #[test]
    fn mcp_servers_hosts_are_command_and_args() {
        for host in [Host::ClaudeDesktop, Host::Cursor, Host::Gemini] {
            for bin in AWKWARD {
                for root in AWKWARD {
                    let parsed: Value = serde_json::from_str(&config(host, bin, root)).unwrap();
                    let want =
                        json!({"mcpServers": {"agentread": {"command": bin, "args": args(root)}}});
                    assert_eq!(parsed, want);
                }
            }
        }
    }

    #[test]
    fn vscode_is_a_stdio_server() {
        for bin in AWKWARD {
            let parsed: Value = serde_json::from_str(&config(Host::Vscode, bin, "/w s")).unwrap();
            let want = json!({"servers": {"agentread": {"type": "stdio", "command": bin, "args": args("/w s")}}});
            assert_eq!(parsed, want);
        }
    }

    #[test]
    fn opencode_is_a_local_command_array() {
        for bin in AWKWARD {
            let parsed: Value = serde_json::from_str(&config(Host::Opencode, bin, "/w")).unwrap();
            let server = &parsed["mcp"]["agentread"];
            assert_eq!(server["type"], "local");
            assert_eq!(server["command"], json!([bin, "--mcp", "--root", "/w"]));
            assert_eq!(server["enabled"], true);
            assert_eq!(parsed["$schema"], "https://opencode.ai/config.json");
        }
    }

    #[test]
    fn the_json_is_pretty_printed() {
        let text = config(Host::Cursor, "/bin/agentread", "/w");
        assert!(
            text.starts_with("{\n  \"mcpServers\": {\n    \"agentread\": {\n"),
            "{text}"
        );
    }

    /// The inverse of `toml_string`, by the TOML spec's escapes (what a TOML parser does).
    fn toml_unquote(s: &str) -> String {
        let inner = s
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .expect("quoted");
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            assert!(
                c >= ' ' && c != '\u{7f}' || c == '\t',
                "raw control character in {s:?}"
            );
            if c != '\\' {
                assert_ne!(c, '"', "unescaped quote in {s:?}");
                out.push(c);
                continue;
            }
            match chars.next().expect("escape") {
                '"' => out.push('"'),
                '\\' => out.push('\\'),
                'b' => out.push('\u{8}'),
                't' => out.push('\t'),
                'n' => out.push('\n'),
                'f' => out.push('\u{c}'),
                'r' => out.push('\r'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
                }
                other => panic!("escape \\{other} in {s:?}"),
            }
        }
        out
    }

    /// The strings of a one-line TOML array of basic strings.
    fn toml_array(s: &str) -> Vec<String> {
        let inner = s
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .expect("array");
        let mut items = Vec::new();
        let mut rest = inner;
        while !rest.is_empty() {
            // A basic string ends at the first `"` that is not escaped.
            let mut end = 1;
            let bytes = rest.as_bytes();
            while bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            items.push(toml_unquote(&rest[..=end]));
            rest = rest[end + 1..]
                .strip_prefix(", ")
                .unwrap_or(&rest[end + 1..]);
        }
        items
    }

    #[test]
    fn codex_toml_is_the_mcp_servers_table() {
        for bin in AWKWARD {
            for root in AWKWARD {
                let text = config(Host::CodexToml, bin, root);
                let lines: Vec<&str> = text.lines().collect();
                assert_eq!(lines.len(), 3, "{text}");
                assert_eq!(lines[0], "[mcp_servers.agentread]");
                let command = lines[1].strip_prefix("command = ").unwrap();
                assert_eq!(toml_unquote(command), bin);
                let args = lines[2].strip_prefix("args = ").unwrap();
                assert_eq!(toml_array(args), ["--mcp", "--root", root]);
            }
        }
    }

    #[test]
    fn yaml_escapes_breaks_and_non_printables() {
        assert_eq!(yaml_string("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(
            yaml_string("\u{7f}\u{85}\u{2028}é"),
            r#""\u007F\u0085\u2028é""#
        );
    }

    #[test]
    fn toml_escapes_what_toml_forbids_raw() {
        assert_eq!(toml_string("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(toml_string("\u{0}\u{1f}\u{7f}"), r#""\u0000\u001F\u007F""#);
        assert_eq!(toml_string("é ✓ 🦀"), "\"é ✓ 🦀\"");
    }

    #[test]
    fn goose_is_a_stdio_extension() {
        for bin in AWKWARD {
            let text = config(Host::Goose, bin, "/w s");
            let lines: Vec<&str> = text.lines().collect();
            let unquote = |line: &str, key: &str| -> String {
                let value = line
                    .strip_prefix(key)
                    .unwrap_or_else(|| panic!("{key} in {line:?}"));
                serde_json::from_str(value).unwrap()
            };
            assert_eq!(lines[0], "extensions:");
            assert_eq!(lines[1], "  agentread:");
            assert_eq!(lines[2], "    enabled: true");
            assert_eq!(lines[3], "    type: stdio");
            assert_eq!(lines[4], "    name: agentread");
            assert_eq!(unquote(lines[5], "    description: "), GOOSE_DESCRIPTION);
            assert_eq!(unquote(lines[6], "    cmd: "), bin);
            assert_eq!(lines[7], "    args:");
            let args: Vec<String> = lines[8..11]
                .iter()
                .map(|line| unquote(line, "      - "))
                .collect();
            assert_eq!(args, ["--mcp", "--root", "/w s"]);
            assert_eq!(
                &lines[11..],
                ["    envs: {}", "    env_keys: []", "    timeout: 300"]
            );
            // Nothing YAML reads as a line break or may not hold raw.
            let raw = |c: char| matches!(c, '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}');
            assert!(!text.chars().any(raw), "{text:?}");
        }
    }

    /// Splits a line as a POSIX shell does for quoting: single quotes, double quotes,
    /// backslashes; no expansions (an unquoted `$`, `` ` `` or `~` fails the test).
    fn shell_split(line: &str) -> Vec<String> {
        let mut words = Vec::new();
        let mut word: Option<String> = None;
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match c {
                ' ' | '\t' | '\n' => words.extend(word.take()),
                '\'' => {
                    let w = word.get_or_insert_with(String::new);
                    for c in chars.by_ref() {
                        if c == '\'' {
                            break;
                        }
                        w.push(c);
                    }
                }
                '"' => {
                    let w = word.get_or_insert_with(String::new);
                    while let Some(c) = chars.next() {
                        match c {
                            '"' => break,
                            '\\' => w.push(chars.next().unwrap()),
                            '$' | '`' => panic!("expansion in {line:?}"),
                            c => w.push(c),
                        }
                    }
                }
                '\\' => word
                    .get_or_insert_with(String::new)
                    .push(chars.next().unwrap()),
                '$' | '`' | '~' | '*' | '?' | '[' | '#' | '!' | '&' | ';' | '|' | '<' | '>'
                | '(' | ')' => {
                    panic!("unquoted {c:?} in {line:?}")
                }
                c => word.get_or_insert_with(String::new).push(c),
            }
        }
        words.extend(word);
        words
    }

    #[test]
    fn claude_and_codex_commands_split_back_into_the_arguments() {
        for (host, cli) in [(Host::Claude, "claude"), (Host::Codex, "codex")] {
            for bin in AWKWARD {
                for root in AWKWARD {
                    let line = config(host, bin, root);
                    assert_eq!(
                        line.matches('\n').count(),
                        1 + bin.matches('\n').count() + root.matches('\n').count()
                    );
                    let words = shell_split(line.strip_suffix('\n').unwrap());
                    let want = [
                        cli,
                        "mcp",
                        "add",
                        "agentread",
                        "--",
                        bin,
                        "--mcp",
                        "--root",
                        root,
                    ];
                    assert_eq!(words, want, "{line}");
                }
            }
        }
    }

    #[test]
    fn plain_paths_stay_unquoted() {
        assert_eq!(
            config(
                Host::Claude,
                "/usr/local/bin/agentread",
                "/home/me/src/project-1"
            ),
            "claude mcp add agentread -- /usr/local/bin/agentread --mcp --root /home/me/src/project-1\n"
        );
        assert_eq!(
            config(Host::Codex, "/opt/a b/agentread", "/w"),
            "codex mcp add agentread -- '/opt/a b/agentread' --mcp --root /w\n"
        );
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("~/x"), "'~/x'");
    }

    /// The same round trip through the real `sh`: `set --` then the words back, NUL-separated.
    #[cfg(unix)]
    #[test]
    fn commands_round_trip_through_sh() {
        for bin in AWKWARD {
            for root in AWKWARD {
                let line = config(Host::Claude, bin, root);
                let script = format!(
                    "set -- {}\nprintf '%s\\0' \"$@\"",
                    line.strip_suffix('\n').unwrap()
                );
                let out = std::process::Command::new("sh")
                    .arg("-c")
                    .arg(&script)
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{script}");
                let words: Vec<&str> = std::str::from_utf8(&out.stdout)
                    .unwrap()
                    .strip_suffix('\0')
                    .unwrap()
                    .split('\0')
                    .collect();
                assert_eq!(
                    words,
                    [
                        "claude",
                        "mcp",
                        "add",
                        "agentread",
                        "--",
                        bin,
                        "--mcp",
                        "--root",
                        root
                    ]
                );
            }
        }
    }
}
