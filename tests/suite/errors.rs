//! SPEC §9: error codes, exit codes and where errors are written.

use crate::common;

use common::{Workspace, code, json_lines, stderr, stdout};
use serde_json::json;

#[test]
fn not_found_names_the_path_on_stderr_in_text_mode() {
    let ws = Workspace::new();
    ws.mkdir("src");
    let out = ws.run(&["src/x.rs"]);
    assert_eq!(code(&out), 3);
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).starts_with("agentread: NOT_FOUND: File 'src/x.rs' does not exist.\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_path_outside_the_root_is_access_denied_without_absolute_paths() {
    let ws = Workspace::new();
    ws.mkdir("root");
    ws.file("secret.txt", "secret\n");
    let root = ws.path().join("root");
    let run = |path: &str, format: &str| {
        ws.cmd()
            .current_dir(&root)
            .args([path, "--format", format])
            .output()
            .unwrap()
    };
    let out = run("../secret.txt", "text");
    assert_eq!(code(&out), 4);
    // No root was chosen: the message says that the root is the current directory.
    assert_eq!(
        stderr(&out),
        "agentread: ACCESS_DENIED: Access denied: '../secret.txt' is outside the workspace root (the current directory).\n"
    );
    // A root that was chosen, by --root or AGENTREAD_ROOT, is not named.
    let chosen =
        "agentread: ACCESS_DENIED: Access denied: '../secret.txt' is outside the workspace root.\n";
    let out = ws
        .cmd()
        .current_dir(&root)
        .args(["../secret.txt", "--root", "."])
        .output()
        .unwrap();
    assert_eq!(stderr(&out), chosen);
    let out = ws
        .cmd()
        .current_dir(&root)
        .env("AGENTREAD_ROOT", ".")
        .arg("../secret.txt")
        .output()
        .unwrap();
    assert_eq!(stderr(&out), chosen);
    let absolute = ws.path().join("secret.txt");
    let out = run(absolute.to_str().unwrap(), "json");
    assert_eq!(code(&out), 4);
    let v = &json_lines(&out)[0];
    assert_eq!(v["error"]["code"], "ACCESS_DENIED");
    assert_eq!(
        v["error"]["message"],
        "Access denied: '../secret.txt' is outside the workspace root (the current directory)."
    );
    // Only params_input echoes the caller's absolute path.
    let mut without_params = v.clone();
    without_params["context"]["params_input"] = json!(null);
    let printed = without_params.to_string();
    assert!(!printed.contains(ws.path().to_str().unwrap()), "{printed}");
    // A path outside is spelt relative to the root, never as the machine's absolute path.
    let message = stderr(&run("/etc/passwd", "text"));
    assert!(
        message.starts_with("agentread: ACCESS_DENIED: Access denied: '../"),
        "{message}"
    );
    assert!(
        message.ends_with("/etc/passwd' is outside the workspace root (the current directory).\n")
    );
    assert!(!message.contains(root.to_str().unwrap()));
}

#[test]
fn a_nul_byte_in_the_first_8_kib_is_binary_file() {
    let ws = Workspace::new();
    let mut bytes = b"looks like text".to_vec();
    bytes.push(0);
    bytes.extend_from_slice(b"but is not");
    ws.file("a.dat", &bytes);
    let out = ws.run(&["a.dat"]);
    assert_eq!(code(&out), 7);
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "agentread: BINARY_FILE: File 'a.dat' appears to be binary (NUL byte at offset 15).\n"
    );
    let v = ws.json(&["a.dat"]);
    assert_eq!(v["error"]["exit_code"], 7);
    assert_eq!(
        v["error"]["detail"],
        json!({"reason": "nul_byte", "offset": 15})
    );
    assert_eq!(v["data"], json!(null));
}

#[test]
fn argument_errors_are_envelopes_on_stdout_in_json_and_xml() {
    let ws = Workspace::new();
    ws.file("a.txt", "a\n");
    for args in [
        vec!["a.txt", "--limit", "abc", "--format", "json"],
        vec!["--format", "json", "a.txt", "--bogus"],
        vec!["--format", "json"],
        vec!["-f", "json", "a.txt", "--numbers", "roman"],
        vec!["-f", "json", "a.txt", "--root", "does-not-exist"],
    ] {
        let out = ws.run(&args);
        assert_eq!(code(&out), 2, "{args:?}");
        assert_eq!(stderr(&out), "", "{args:?}");
        let v = &json_lines(&out)[0];
        assert_eq!(v["status"], "error");
        assert_eq!(v["error"]["code"], "INVALID_PARAM");
        assert_eq!(v["error"]["exit_code"], 2);
        assert_eq!(v["data"], json!(null));
        assert_eq!(v["text"], v["error"]["message"]);
    }
    let out = ws.run(&["a.txt", "--limit", "abc", "--format", "xml"]);
    assert_eq!(code(&out), 2);
    let xml = stdout(&out);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("code"), Some("INVALID_PARAM"));
    assert_eq!(
        doc.root_element().text(),
        Some("Invalid value 'abc' for --limit: expected an integer from 1 to 2000.")
    );
}

#[test]
fn argument_errors_in_text_mode_go_to_stderr() {
    let ws = Workspace::new();
    let out = ws.run(&["--bogus"]);
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out)
            .starts_with("agentread: INVALID_PARAM: Unexpected argument '--bogus' found.\n")
    );
    let out = ws.run(&[]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).starts_with("agentread: INVALID_PARAM: No PATH given."));
}

#[test]
fn help_shows_examples_and_version_prints_the_version() {
    let ws = Workspace::new();
    let out = ws.run(&["--help"]);
    assert_eq!(code(&out), 0);
    let help = stdout(&out);
    assert!(help.contains("Examples:"));
    assert!(help.contains("agentread README.md --start-line 501"));
    let out = ws.run(&["-V"]);
    assert_eq!(
        stdout(&out),
        format!("agentread {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn paths_that_are_empty_are_invalid_param() {
    let ws = Workspace::new();
    let out = ws.run(&[""]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "agentread: INVALID_PARAM: The path is empty.\n"
    );
}

#[test]
fn a_root_that_is_not_a_directory_is_invalid_param_without_echoing_absolute_paths() {
    let ws = Workspace::new();
    ws.file("a.txt", "a\n");
    let out = ws.run(&["a.txt", "--root", "missing-dir"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "agentread: INVALID_PARAM: --root 'missing-dir' is not an existing directory.\n"
    );
    let absolute = ws.path().join("missing-dir");
    let out = ws.run(&["a.txt", "--root", absolute.to_str().unwrap()]);
    assert_eq!(
        stderr(&out),
        "agentread: INVALID_PARAM: --root is not an existing directory.\n"
    );
    let out = ws
        .cmd()
        .env("AGENTREAD_ROOT", &absolute)
        .arg("a.txt")
        .output()
        .unwrap();
    assert_eq!(
        stderr(&out),
        "agentread: INVALID_PARAM: $AGENTREAD_ROOT is not an existing directory.\n"
    );
    // A file is not a root either.
    assert_eq!(code(&ws.run(&["a.txt", "--root", "a.txt"])), 2);
}

#[test]
fn clap_errors_become_one_sentence_with_clap_s_facts() {
    let ws = Workspace::new();
    ws.file("a.txt", "a\n");
    let message = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--format", "json"]);
        let out = ws.run(&all);
        assert_eq!(code(&out), 2, "{args:?}");
        json_lines(&out)[0]["error"]["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        message(&["a.txt", "--colr", "never"]),
        "Unexpected argument '--colr' found. Did you mean '--color'?"
    );
    assert_eq!(
        message(&["a.txt", "--numbers", "roman"]),
        "Invalid value 'roman' for '--numbers <S>' [possible values: pipe, tab, colon, compact, none]."
    );
    assert_eq!(
        message(&["a.txt", "--limit"]),
        "A value is required for '--limit <N>' but none was supplied."
    );
    // The format asked for holds even after the bad argument (SPEC §6).
    let out = ws.run(&["a.txt", "--bogus", "-f", "xml"]);
    let xml = stdout(&out);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("code"), Some("INVALID_PARAM"));
    assert_eq!(stderr(&out), "");
    // Text mode adds clap's tips and the usage under the sentence.
    let out = ws.run(&["a.txt", "--bogus"]);
    assert_eq!(
        stderr(&out),
        "agentread: INVALID_PARAM: Unexpected argument '--bogus' found.\n  tip: to pass '--bogus' as a value, use '-- --bogus'\n\nUsage: agentread [OPTIONS] [PATH]...\n\nFor more information, try '--help'.\n"
    );
}
