//! SPEC §17 and the wording rule of §12: set-up for hosts, generated files, per-call
//! encoding, the hash footer, and a window cut short without a footer.

use crate::common;

use common::{Workspace, code, json_lines, stderr, stdout};
use serde_json::Value;

#[test]
fn mcp_config_prints_each_hosts_shape_with_this_binary_and_root() {
    let ws = Workspace::new();
    let root = std::fs::canonicalize(ws.path()).unwrap();
    let root = root.to_str().unwrap();
    let bin = env!("CARGO_BIN_EXE_agentread");
    let config = |host: &str| {
        let out = ws.run(&["--mcp-config", host]);
        assert_eq!(code(&out), 0, "{host}: {}", stderr(&out));
        stdout(&out)
    };
    let args = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect()
    };
    let expected_args = vec!["--mcp".to_string(), "--root".to_string(), root.to_string()];
    for host in ["claude-desktop", "cursor", "gemini"] {
        let v: Value = serde_json::from_str(&config(host)).unwrap();
        let server = &v["mcpServers"]["agentread"];
        assert_eq!(server["command"], bin, "{host}");
        assert_eq!(args(&server["args"]), expected_args, "{host}");
    }
    let v: Value = serde_json::from_str(&config("vscode")).unwrap();
    assert_eq!(v["servers"]["agentread"]["type"], "stdio");
    assert_eq!(args(&v["servers"]["agentread"]["args"]), expected_args);
    let v: Value = serde_json::from_str(&config("opencode")).unwrap();
    let command = args(&v["mcp"]["agentread"]["command"]);
    assert_eq!(v["mcp"]["agentread"]["type"], "local");
    assert_eq!(command[0], bin);
    assert_eq!(command[1..], expected_args[..]);
    assert_eq!(
        config("claude"),
        format!("claude mcp add agentread -- {bin} --mcp --root {root}\n")
    );
    assert_eq!(
        config("codex"),
        format!("codex mcp add agentread -- {bin} --mcp --root {root}\n")
    );
    let toml = config("codex-toml");
    assert!(toml.starts_with("[mcp_servers.agentread]\n"), "{toml}");
    assert!(toml.contains(&format!("command = \"{bin}\"\n")), "{toml}");
    let goose = config("goose");
    assert!(goose.starts_with("extensions:\n  agentread:\n"), "{goose}");
    let out = ws.run(&["--mcp-config", "emacs"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("claude, codex, codex-toml"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn encoding_is_a_tool_parameter() {
    let ws = Workspace::new();
    ws.file("latin.txt", b"caf\xe9\n");
    let out = ws.run(&[
        "--call",
        r#"{"path":"latin.txt","encoding":"windows-1252"}"#,
    ]);
    let v = &json_lines(&out)[0];
    assert_eq!(v["status"], "success");
    assert_eq!(v["data"]["content"], "   1 | café\n");
    // Without it, the hint names the parameter, not the flag.
    let out = ws.run(&["--call", r#"{"path":"latin.txt"}"#, "--format", "text"]);
    assert!(
        stdout(&out).contains("use encoding=auto"),
        "{}",
        stdout(&out)
    );
    assert!(!stdout(&out).contains("--"), "{}", stdout(&out));
    let out = ws.run(&["--call", r#"{"path":"latin.txt","encoding":"klingon"}"#]);
    assert_eq!(code(&out), 2);
}

#[test]
fn hash_is_a_footer_line_in_text_mode() {
    let ws = Workspace::new();
    ws.file("a.txt", "hello\n");
    let out = ws.run(&["a.txt", "--hash"]);
    let hash = blake3::hash(b"hello\n").to_hex().to_string();
    assert_eq!(
        stdout(&out),
        format!("   1 | hello\n\n[content_hash: {hash}]\n")
    );
}

#[test]
fn a_window_cut_short_without_a_footer_says_so_on_stderr() {
    let ws = Workspace::new();
    let lines: String = (1..=30).map(|n| format!("{n}\n")).collect();
    ws.file("a.txt", lines);
    let out = ws.run(&["a.txt", "-n", "10", "--no-hint"]);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out).lines().count(), 10);
    assert_eq!(
        stderr(&out),
        "agentread: showing lines 1-10 of 30; --all reads the whole file\n"
    );
    // A window that reaches the end says nothing.
    let out = ws.run(&["a.txt", "--no-hint"]);
    assert_eq!(stderr(&out), "");
    // With several files, each line names its file.
    ws.file("b.txt", "one\n");
    let out = ws.run(&["a.txt", "b.txt", "a.txt", "-n", "10", "--no-hint"]);
    assert_eq!(
        stderr(&out),
        "agentread: a.txt: showing lines 1-10 of 30; --all reads the whole file\n\
         agentread: a.txt: showing lines 1-10 of 30; --all reads the whole file\n"
    );
    // A signatures view is paged on (--all reads lines, and refuses --signatures).
    let code_lines: String = (1..=30).map(|n| format!("fn f{n}() {{}}\n")).collect();
    ws.file("a.rs", code_lines);
    let out = ws.run(&["a.rs", "--signatures", "-n", "3", "--no-hint"]);
    assert_eq!(
        stderr(&out),
        "agentread: showing lines 1-3 of 30; --signatures --start-line 4 reads on\n"
    );
    // `--call` takes parameters and has no --all: the line names the parameter.
    let out = ws.run(&[
        "--call",
        r#"{"path":"a.txt","limit":10}"#,
        "-f",
        "text",
        "--no-hint",
    ]);
    assert_eq!(
        stderr(&out),
        "agentread: showing lines 1-10 of 30; start_line=11 reads on\n"
    );
}

/// `--all`: every line from the start line to the end, numbered, none cut, no footer.
#[test]
fn all_prints_every_line_to_the_end_none_cut() {
    let ws = Workspace::new();
    let long = "x".repeat(5000);
    let text = |n: u64| match n {
        600 => long.clone(),
        n => format!("line {n}"),
    };
    let body: String = (1..=1200).map(|n| format!("{}\n", text(n))).collect();
    ws.file("a.txt", &body);
    let out = ws.run(&["--all", "a.txt"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), common::numbered(1, 1200, text));
    assert_eq!(stderr(&out), "");
    // From --start-line, and from a `PATH:N` reference (its start line).
    let out = ws.run(&["--all", "a.txt", "-s", "1190"]);
    assert_eq!(stdout(&out), common::numbered(1190, 1200, text));
    let out = ws.run(&["a.txt:1199", "--all"]);
    assert_eq!(stdout(&out), common::numbered(1199, 1200, text));
    // As `cat -n` numbers them, and as they are.
    let out = ws.run(&["--all", "a.txt", "--numbers", "tab"]);
    let cat: String = body
        .lines()
        .enumerate()
        .map(|(i, l)| format!("{:>6}\t{l}\n", i + 1))
        .collect();
    assert_eq!(stdout(&out), cat);
    ws.file("crlf.txt", "one\r\ntwo\r\n");
    let out = ws.run(&["--all", "a.txt", "crlf.txt", "--numbers", "none"]);
    assert_eq!(
        stdout(&out),
        format!("==> a.txt <==\n{body}\n==> crlf.txt <==\none\ntwo\n")
    );
    // Standard input.
    let out = ws
        .cmd()
        .args(["--all", "-", "-s", "2"])
        .write_stdin(body.clone())
        .output()
        .unwrap();
    assert_eq!(stdout(&out), common::numbered(2, 1200, text));
    // A footer still says what is worth saying: an empty file, replaced bytes, a hash.
    ws.file("empty.txt", "");
    assert_eq!(
        stdout(&ws.run(&["--all", "empty.txt"])),
        "(file is empty)\n"
    );
    ws.file("latin.txt", b"caf\xe9\n");
    let out = ws.run(&["--all", "latin.txt", "--hash"]);
    let hash = blake3::hash(b"caf\xe9\n").to_hex().to_string();
    assert_eq!(
        stdout(&out),
        format!(
            "   1 | caf\u{FFFD}\n\n[Bytes that are not valid utf-8 are shown as U+FFFD. This looks like windows-1252: use --encoding auto.]\n[content_hash: {hash}]\n"
        )
    );
    let out = ws.run(&["--all", "latin.txt", "--encoding", "windows-1252"]);
    assert_eq!(stdout(&out), "   1 | café\n");
}

/// The README's copy: `--all --numbers none --no-hint` writes the file's lines as they
/// are, however many, with nothing on stderr.
#[test]
fn all_with_no_numbers_copies_a_file() {
    let ws = Workspace::new();
    let body: String = (1..=3000).map(|n| format!("fn f{n}() {{}}\n")).collect();
    ws.file("a.rs", &body);
    let out = ws.run(&["a.rs", "--all", "--numbers", "none", "--no-hint"]);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), body);
    assert_eq!(stderr(&out), "");
}

/// `--all` is refused with what bounds, cuts or scopes a window, and outside the command
/// line's text format: each message names the conflict and what to do instead.
#[test]
fn all_is_refused_with_bounds_ranges_symbols_and_other_modes() {
    let ws = Workspace::new();
    ws.file("a.rs", "fn a() {}\nfn b() {}\n");
    ws.mkdir("src");
    for (args, says) in [
        (
            &["a.rs", "--all", "-n", "5"][..],
            "--limit cannot be combined with it (drop one of them)",
        ),
        (
            &["a.rs", "--all", "--tail", "5"],
            "--tail cannot be combined with it (drop --all",
        ),
        (
            &["a.rs", "--all", "--max-bytes", "100"],
            "--max-bytes cannot be combined with it (drop --max-bytes",
        ),
        (
            &["a.rs", "--all", "--max-line-chars", "9"],
            "--max-line-chars cannot be combined",
        ),
        (
            &["a.rs", "--all", "--start-char", "2"],
            "--start-char cannot be combined",
        ),
        (
            &["a.rs:1", "--all", "-C", "1"],
            "(use PATH:N --all to read from line N to the end)",
        ),
        (
            &["a.rs", "--all", "--outline"],
            "--outline cannot be combined",
        ),
        (
            &["a.rs:1-2", "--all"],
            "use PATH:1 --all to read from line 1 to the end, or drop --all",
        ),
        (&["a.rs#b", "--all"], "drop --all to read the symbol"),
        (
            &["src", "--all"],
            "'src' is a directory; --all reads a file to its end",
        ),
        (
            &["a.rs", "--all", "-f", "json"],
            "--format json cannot be combined with it",
        ),
    ] {
        let out = ws.run(args);
        assert_eq!(code(&out), 2, "{args:?}");
        let message = match args.contains(&"json") {
            true => json_lines(&out)[0]["error"]["message"]
                .as_str()
                .unwrap()
                .to_string(),
            false => stderr(&out),
        };
        assert!(message.contains(says), "{args:?}: {message}");
        assert!(out.stdout.is_empty() || args.contains(&"json"), "{args:?}");
    }
    let out = ws.run(&["--all", "--call", r#"{"path":"a.rs"}"#]);
    assert_eq!(code(&out), 2);
    assert!(stdout(&out).contains("--all cannot be combined with it"));
    let out = ws.run(&["--mcp", "--all"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--all cannot be combined with it"));
    // Not in the tool's schema: --call and MCP stay bounded.
    let schema = stdout(&ws.run(&["--tool-schema"]));
    assert!(!schema.contains("\"all\""), "{schema}");
}

/// SPEC §17 "Print-and-exit modes take only what they use": `--mcp-config
/// claude --deny-secrets --root /other` printed the current directory and no
/// `--deny-secrets`, exit 0.
#[test]
fn mcp_config_writes_the_server_settings_given_beside_it() {
    let ws = Workspace::new();
    ws.mkdir("other");
    let other = std::fs::canonicalize(ws.path().join("other")).unwrap();
    let other = other.to_str().unwrap();
    let bin = env!("CARGO_BIN_EXE_agentread");
    let out = ws.run(&[
        "--mcp-config",
        "cursor",
        "--deny-secrets",
        "--root",
        "other",
        "--deny",
        "*.pem",
        "--max-bytes",
        "9000",
        "--numbers",
        "tab",
        "--deny",
        "secrets/",
        "--max-file-size",
        "10M",
        "--encoding",
        "auto",
        "--max-line-chars",
        "300",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["mcpServers"]["agentread"]["command"], bin);
    assert_eq!(
        v["mcpServers"]["agentread"]["args"],
        serde_json::json!([
            "--mcp",
            "--root",
            other,
            "--deny",
            "*.pem",
            "--deny",
            "secrets/",
            "--deny-secrets",
            "--max-bytes",
            "9000",
            "--max-line-chars",
            "300",
            "--max-file-size",
            "10M",
            "--encoding",
            "auto",
            "--numbers",
            "tab"
        ])
    );
    let out = ws.run(&[
        "--mcp-config",
        "claude",
        "--deny-secrets",
        "--root",
        "other",
    ]);
    assert_eq!(
        stdout(&out),
        format!("claude mcp add agentread -- {bin} --mcp --root {other} --deny-secrets\n")
    );
    // What the server would refuse, the set-up does not print.
    for (args, says) in [
        (
            &["--root", "missing"][..],
            "--root 'missing' is not an existing directory.",
        ),
        (&["--max-bytes", "0"][..], "--max-bytes"),
        (&["--encoding", "klingon"][..], "Unknown encoding 'klingon'"),
    ] {
        let out = ws.run(&[&["--mcp-config", "claude"][..], args].concat());
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

/// A PATH or an option a print-and-exit mode does not use is INVALID_PARAM naming it,
/// never dropped in silence.
#[test]
fn print_and_exit_modes_refuse_what_they_would_drop() {
    let ws = Workspace::new();
    ws.file("a.txt", "a\n");
    for (args, named) in [
        (&["--mcp-config", "claude", "a.txt"][..], "a PATH argument"),
        (&["--mcp-config", "claude", "-n", "3"][..], "--limit"),
        (&["--mcp-config", "claude", "--no-hint"][..], "--no-hint"),
        (
            &["--mcp-config", "claude", "--roots-timeout", "1"][..],
            "--roots-timeout",
        ),
        (&["a.txt", "--tool-schema"][..], "a PATH argument"),
        (&["--tool-schema", "openai", "-n", "3"][..], "--limit"),
        (&["--tool-schema", "--deny-secrets"][..], "--deny-secrets"),
        (&["--generate", "bash", "a.txt"][..], "a PATH argument"),
        (
            &["--generate", "man", "--start-line", "2"][..],
            "--start-line",
        ),
        (
            &["--generate", "zsh", "--mcp-config", "claude"][..],
            "--mcp-config",
        ),
        // The first of several, in the order written.
        (&["--tool-schema", "--hash", "--", "a.txt"][..], "--hash"),
    ] {
        let out = ws.run(args);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
        let message = stderr(&out);
        assert!(
            message.starts_with("agentread: INVALID_PARAM: "),
            "{message}"
        );
        assert!(
            message.contains(&format!("; {named} cannot be combined with it.")),
            "{args:?}: {message}"
        );
    }
    // The refusal of --mcp-config names every setting it carries, --max-tokens too.
    let out = ws.run(&["--mcp-config", "claude", "--hash"]);
    assert!(
        stderr(&out).contains(
            "(--root, --deny, --deny-secrets, --max-bytes, --max-tokens, --max-line-chars, --max-file-size, --encoding, --numbers)"
        ),
        "{}",
        stderr(&out)
    );
    // In the format asked for, as every refusal.
    let v = &json_lines(&ws.run(&["a.txt", "--tool-schema", "-f", "json"]))[0];
    assert_eq!(v["error"]["code"], "INVALID_PARAM");
    // Alone, each still prints.
    for args in [
        &["--tool-schema"][..],
        &["--generate", "bash"],
        &["--mcp-config", "codex"],
    ] {
        assert_eq!(code(&ws.run(args)), 0, "{args:?}");
    }
}

/// Completion offers the HOST names of `--mcp-config` (and help names them).
#[test]
fn completion_offers_the_host_names() {
    let ws = Workspace::new();
    for shell in ["bash", "zsh", "fish"] {
        let script = stdout(&ws.run(&["--generate", shell]));
        for host in ["claude", "codex-toml", "vscode", "claude-desktop", "goose"] {
            assert!(script.contains(host), "{shell}: {host}");
        }
    }
    let help = stdout(&ws.run(&["--help"]));
    assert!(help.contains("claude-desktop"), "{help}");
    // An unknown host still gets agentread's own message naming the known ones.
    let out = ws.run(&["--mcp-config", "emacs"]);
    assert!(
        stderr(&out).contains("Unknown host 'emacs' for --mcp-config: use one of claude, codex")
    );
}
