//! SPEC §7: tool calls with `--call`, and the tool definitions of `--tool-schema`.

use crate::common;

use common::{Workspace, code, json_lines, stdout};
use serde_json::{Value, json};

fn file(ws: &Workspace) {
    let body: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    ws.file("src/app.py", body);
}

fn call(ws: &Workspace, json: &str) -> (i32, Value) {
    let out = ws.run(&["--call", json]);
    (code(&out), json_lines(&out).remove(0))
}

#[test]
fn call_takes_the_parameters_and_their_aliases() {
    let ws = Workspace::new();
    file(&ws);
    for args in [
        r#"{"path":"src/app.py","start_line":5,"limit":2}"#,
        r#"{"file_path":"src/app.py","offset":5,"max_lines":2}"#,
        r#"{"filePath":"src/app.py","offset":5,"limit":2}"#,
    ] {
        let (exit, v) = call(&ws, args);
        assert_eq!(exit, 0);
        assert_eq!(
            v["data"]["content"], "   5 | line 5\n   6 | line 6\n",
            "{args}"
        );
        let given: Value = serde_json::from_str(args).unwrap();
        assert_eq!(
            v["context"]["params_input"], given,
            "echoed verbatim: {args}"
        );
    }
}

#[test]
fn call_answers_in_json_unless_a_format_is_given() {
    let ws = Workspace::new();
    file(&ws);
    let out = ws.run(&[
        "--call",
        r#"{"path":"src/app.py","limit":1}"#,
        "--format",
        "text",
        "--no-hint",
    ]);
    assert_eq!(stdout(&out), "   1 | line 1\n");
    let out = ws.run(&["--call", r#"{"path":"src/app.py","limit":1}"#, "-f", "xml"]);
    assert!(stdout(&out).starts_with("<file>\n"));
}

#[test]
fn call_with_tail_start_char_hash_and_if_changed() {
    let ws = Workspace::new();
    file(&ws);
    let (_, v) = call(&ws, r#"{"path":"src/app.py","tail":2,"hash":true}"#);
    assert_eq!(v["data"]["content"], "  29 | line 29\n  30 | line 30\n");
    let hash = v["stats"]["content_hash"].as_str().unwrap().to_string();
    let (exit, v) = call(
        &ws,
        &format!(r#"{{"path":"src/app.py","if_changed":"{hash}"}}"#),
    );
    assert_eq!((exit, v["status"].clone()), (0, json!("unchanged")));
    let (_, v) = call(
        &ws,
        r#"{"path":"src/app.py","start_line":3,"start_char":3,"limit":1}"#,
    );
    assert_eq!(v["data"]["content"], "   3 | ne 3\n");
}

#[test]
fn call_rejects_unknown_keys_naming_the_accepted_ones() {
    let ws = Workspace::new();
    file(&ws);
    let (exit, v) = call(&ws, r#"{"path":"src/app.py","lines":10}"#);
    assert_eq!(exit, 2);
    assert_eq!(v["error"]["code"], "INVALID_PARAM");
    assert_eq!(
        v["error"]["message"],
        "Unknown parameter 'lines'. Accepted: path (file_path, filePath), paths, start_line (offset), limit (max_lines), tail, start_char, hash, if_changed, symbol, outline, enclosing, raw, encoding, max_tokens, signatures, fit; also context, end_line, view_range."
    );
    // The message names the advertised parameters only (README); the range words the
    // schema leaves out are accepted all the same.
    for ok in [
        r#"{"path":"src/app.py","end_line":2}"#,
        r#"{"path":"src/app.py","view_range":[1,2]}"#,
        r#"{"path":"src/app.py:2","context":1}"#,
    ] {
        assert_eq!(call(&ws, ok).0, 0, "{ok}");
    }
    assert_eq!(
        v["context"]["params_input"],
        json!({"path": "src/app.py", "lines": 10})
    );
}

#[test]
fn call_validates_values_like_the_command_line() {
    let ws = Workspace::new();
    file(&ws);
    for (args, message) in [
        (
            r#"{"path":"src/app.py","limit":0}"#,
            "Invalid value 0 for limit: expected an integer from 1 to 2000.",
        ),
        (
            r#"{"path":"src/app.py","max_lines":5000}"#,
            "Invalid value 5000 for max_lines: expected an integer from 1 to 2000.",
        ),
        (
            r#"{"path":"src/app.py","offset":"x"}"#,
            "Invalid value \"x\" for offset: expected an integer of at least 1.",
        ),
        (
            r#"{"path":"src/app.py","tail":3,"start_line":2}"#,
            "tail cannot be combined with start_line or start_char.",
        ),
        (
            r#"{"path":"src/app.py","file_path":"b"}"#,
            "The parameter 'path' is given twice (as 'path' and 'file_path').",
        ),
        (
            r#"{"limit":3}"#,
            "--call needs a path (or file_path, filePath), or paths.",
        ),
        (
            r#"[1,2]"#,
            "--call expects a JSON object of tool arguments, such as {\"path\":\"src/main.rs\"}.",
        ),
    ] {
        let (exit, v) = call(&ws, args);
        assert_eq!(exit, 2, "{args}");
        assert_eq!(v["error"]["message"], message, "{args}");
    }
    let (exit, v) = call(&ws, "{not json");
    assert_eq!(exit, 2);
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("--call: the arguments are not valid JSON")
    );
    // A numeric string and a null (left out) are what models send; both are accepted.
    let (exit, v) = call(
        &ws,
        r#"{"path":"src/app.py","limit":"2","start_line":null}"#,
    );
    assert_eq!((exit, v["stats"]["lines_read"].clone()), (0, json!(2)));
}

#[test]
fn call_reads_its_json_from_stdin_with_a_dash() {
    let ws = Workspace::new();
    file(&ws);
    let out = ws
        .cmd()
        .args(["--call", "-"])
        .write_stdin(r#"{"path":"src/app.py","limit":1}"#)
        .output()
        .unwrap();
    let v = &json_lines(&out)[0];
    assert_eq!(v["data"]["content"], "   1 | line 1\n");
    let out = ws
        .cmd()
        .args(["--call", "-"])
        .write_stdin(r#"{"path":"-"}"#)
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    // A stream without end is refused after the most a call may take, not held: before,
    // `--call - < /dev/zero` grew past 4 GB.
    let mut cmd = std::process::Command::new(ws.cmd().get_program());
    let out = cmd
        .current_dir(ws.path())
        .args(["--call", "-"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    let v = &json_lines(&out)[0];
    assert_eq!(v["error"]["code"], "INVALID_PARAM");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("--call -: standard input holds more than 16 MiB"),
        "{v}"
    );
}

#[test]
fn call_does_not_mix_with_command_line_parameters() {
    let ws = Workspace::new();
    file(&ws);
    let out = ws.run(&["--call", r#"{"path":"src/app.py"}"#, "src/app.py"]);
    assert_eq!(code(&out), 2);
    let v = &json_lines(&out)[0];
    assert_eq!(
        v["error"]["message"],
        "--call takes the tool parameters from its JSON; a PATH argument cannot be combined with it."
    );
    let out = ws.run(&["--call", r#"{"path":"src/app.py"}"#, "--limit", "3"]);
    assert_eq!(code(&out), 2);
}

fn schema(ws: &Workspace, flavor: Option<&str>) -> Value {
    let mut args = vec!["--tool-schema"];
    args.extend(flavor);
    let out = ws.run(&args);
    assert_eq!(code(&out), 0);
    serde_json::from_str(&stdout(&out)).unwrap()
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

/// The parameters' JSON Schema, checked field by field.
fn check_parameters(p: &Value) {
    assert_eq!(p["type"], "object");
    // `path`, or `paths` for several files: neither alone is required.
    assert_eq!(p["required"], json!([]));
    assert_eq!(p["additionalProperties"], false);
    let props = &p["properties"];
    assert_eq!(
        keys(props),
        [
            "path",
            "paths",
            "start_line",
            "limit",
            "tail",
            "start_char",
            "hash",
            "if_changed",
            "symbol",
            "outline",
            "enclosing",
            "raw",
            "encoding",
            "max_tokens",
            "signatures",
            "fit"
        ]
    );
    assert_eq!(props["path"]["type"], "string");
    assert_eq!(
        props["paths"],
        json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 50,
               "description": props["paths"]["description"]})
    );
    assert_eq!(
        props["start_line"],
        json!({"type": "integer", "minimum": 1, "default": 1, "description": props["start_line"]["description"]})
    );
    assert_eq!(
        (
            props["limit"]["minimum"].clone(),
            props["limit"]["maximum"].clone(),
            props["limit"]["default"].clone()
        ),
        (json!(1), json!(2000), json!(500))
    );
    assert_eq!(
        (
            props["tail"]["minimum"].clone(),
            props["tail"]["maximum"].clone()
        ),
        (json!(1), json!(2000))
    );
    assert_eq!(props["start_char"]["default"], 1);
    assert_eq!(props["hash"]["type"], "boolean");
    assert_eq!(props["if_changed"]["pattern"], "^[0-9a-f]{64}$");
    for (name, prop) in props.as_object().unwrap() {
        assert!(
            prop["description"].as_str().is_some_and(|d| !d.is_empty()),
            "{name}"
        );
    }
}

fn check_description(d: &Value) {
    let d = d.as_str().unwrap();
    assert!(
        d.ends_with('.') && !d.trim_end_matches('.').contains(". "),
        "one sentence: {d}"
    );
}

#[test]
fn tool_schema_prints_each_frameworks_shape() {
    let ws = Workspace::new();
    let plain = schema(&ws, None);
    assert_eq!(plain, schema(&ws, Some("json-schema")));
    assert_eq!(keys(&plain), ["name", "description", "parameters"]);
    assert_eq!(plain["name"], "read");
    check_description(&plain["description"]);
    check_parameters(&plain["parameters"]);

    let openai = schema(&ws, Some("openai"));
    assert_eq!(keys(&openai), ["type", "function"]);
    assert_eq!(openai["type"], "function");
    assert_eq!(
        keys(&openai["function"]),
        ["name", "description", "parameters"]
    );
    assert_eq!(openai["function"]["name"], "read");
    check_parameters(&openai["function"]["parameters"]);

    let anthropic = schema(&ws, Some("anthropic"));
    assert_eq!(keys(&anthropic), ["name", "description", "input_schema"]);
    assert_eq!(anthropic["name"], "read");
    check_parameters(&anthropic["input_schema"]);

    let out = ws.run(&["--tool-schema", "gemini"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn the_schema_and_call_agree() {
    // Every parameter the schema names is accepted by --call with a valid value.
    let ws = Workspace::new();
    file(&ws);
    let (exit, v) = call(
        &ws,
        &format!(
            r#"{{"path":"src/app.py","limit":3,"start_char":1,"start_line":1,"hash":false,"if_changed":"{}"}}"#,
            "0".repeat(64)
        ),
    );
    assert_eq!((exit, v["status"].clone()), (0, json!("partial")));
}
