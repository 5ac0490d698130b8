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
}
