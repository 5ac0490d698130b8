//! SPEC §12: `agentread --mcp`, driven as a child process by rmcp's own client and by
//! JSON-RPC lines written by hand. Every result is compared with what the command line
//! answers for the same call.
// Roots are deprecated by a newer protocol revision (SEP-2577); SPEC §12 uses them.
#![allow(deprecated)]

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use common::{Server, Workspace};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    ListRootsResult, Root,
};
use rmcp::service::{RequestContext, RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ErrorData, ServiceExt};
use serde_json::{Map, Value, json};

/// A client that declares roots and answers `roots/list` with the current list.
#[derive(Clone, Default)]
struct RootsClient {
    roots: Arc<Mutex<Vec<String>>>,
}

impl ClientHandler for RootsClient {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::builder()
                .enable_roots()
                .enable_roots_list_changed()
                .build(),
            Implementation::new("agentread-tests", "1"),
        )
    }

    #[allow(deprecated)]
    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        let roots = self.roots.lock().unwrap().iter().map(Root::new).collect();
        Ok(ListRootsResult::new(roots))
    }
}

fn server_command(ws: &Workspace, args: &[&str]) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_agentread"));
    cmd.arg("--mcp")
        .args(args)
        .current_dir(ws.path())
        .env_remove("AGENTREAD_ROOT")
        .env_remove("AGENTREAD_DENY")
        .env_remove("NO_COLOR");
    cmd
}

async fn plain_client(ws: &Workspace, args: &[&str]) -> RunningService<RoleClient, ()> {
    let transport = TokioChildProcess::new(server_command(ws, args)).unwrap();
    ().serve(transport).await.expect("initialize")
}

async fn roots_client(
    ws: &Workspace,
    args: &[&str],
    client: RootsClient,
) -> RunningService<RoleClient, RootsClient> {
    let transport = TokioChildProcess::new(server_command(ws, args)).unwrap();
    client.serve(transport).await.expect("initialize")
}

fn arguments(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("arguments must be an object: {other}"),
    }
}

async fn call<S: rmcp::Service<RoleClient>>(
    client: &RunningService<RoleClient, S>,
    args: Value,
) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new("read").with_arguments(arguments(args)))
        .await
        .expect("tools/call answers")
}

fn text_of(result: &CallToolResult, i: usize) -> String {
    match result.content[i].as_text() {
        Some(text) => text.text.clone(),
        None => panic!("content[{i}] is not text: {:?}", result.content[i]),
    }
}

/// JSON with `time_ms` and the `(Took …)` line masked, which may differ between runs.
fn masked(mut v: Value) -> Value {
    v["stats"]["time_ms"] = json!(0);
    if let Some(text) = v["text"].as_str() {
        let text: Vec<&str> = text
            .lines()
            .filter(|l| !(l.starts_with("(Took ") && l.ends_with("ms)")))
            .collect();
        v["text"] = json!(text.join("\n"));
    }
    v
}

/// What the command line answers for the same call: text mode's stdout (or stderr
/// without `agentread: `) and the `--call` JSON.
fn command_line(ws: &Workspace, args: &Value, settings: &[&str]) -> (String, Value, bool) {
    let call = args.to_string();
    let text = ws
        .cmd()
        .args(["--call", &call, "--format", "text", "--color", "never"])
        .args(settings)
        .output()
        .unwrap();
    let failed = !text.status.success();
    let text = match failed {
        true => String::from_utf8(text.stderr)
            .unwrap()
            .strip_prefix("agentread: ")
            .expect("errors start with agentread: ")
            .to_string(),
        false => String::from_utf8(text.stdout).unwrap(),
    };
    let json = ws
        .cmd()
        .args(["--call", &call])
        .args(settings)
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&json.stdout).unwrap();
    (text, json, failed)
}

fn workspace() -> Workspace {
    filled(Workspace::new())
}

/// `ws` with the files [`workspace`] holds.
fn filled(ws: Workspace) -> Workspace {
    let lines: String = (1..=700).map(|n| format!("line {n}\n")).collect();
    ws.file("src/app.rs", lines);
    ws.file("src/lib.rs", "pub fn a() {}\n");
    ws.file("long.txt", format!("{}\nshort\n", "x".repeat(5000)));
    ws.file("crlf.txt", "a\r\nb\r\n");
    ws.file("latin1.txt", b"caf\xe9 cr\xe8me\n");
    ws.file("bin.dat", b"\x00\x01\x02binary");
    ws.file("empty.txt", "");
    ws.file("ctrl.txt", "a\x1b[31mred\n");
    ws.mkdir("docs");
    ws
}

#[tokio::test]
async fn initialize_names_the_server_and_lists_one_read_tool() {
    let ws = workspace();
    let client = plain_client(&ws, &[]).await;
    let info = client.peer_info().expect("server info");
    let server = info.server_info.clone().expect("serverInfo");
    assert_eq!(server.name, "agentread");
    let version = ws.run(&["-V"]);
    assert_eq!(
        format!("agentread {}\n", server.version),
        String::from_utf8(version.stdout).unwrap()
    );
    assert!(info.capabilities.tools.is_some());

    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 1);
    let tool = &tools[0];
    assert_eq!(tool.name, "read");
    let schema: Value = serde_json::from_slice(&ws.run(&["--tool-schema"]).stdout).unwrap();
    assert_eq!(tool.description.as_deref(), schema["description"].as_str());
    assert_eq!(
        Value::Object((*tool.input_schema).clone()),
        schema["parameters"]
    );
    // The server refuses '-' (its standard input carries the protocol): the schema
    // does not offer it.
    let described = Value::Object((*tool.input_schema).clone()).to_string();
    assert!(
        !described.contains("standard input") && !described.contains("'-'"),
        "{described}"
    );
    let hints = tool.annotations.as_ref().expect("annotations");
    assert_eq!(hints.read_only_hint, Some(true));
    assert_eq!(hints.destructive_hint, Some(false));
    assert_eq!(hints.idempotent_hint, Some(true));
    assert_eq!(hints.open_world_hint, Some(false));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn every_call_answers_as_the_command_line_does() {
    let ws = workspace();
    let client = plain_client(&ws, &[]).await;
    let hash = blake3::hash(b"pub fn a() {}\n").to_hex().to_string();
    let cases = [
        json!({"path": "src/app.rs"}),
        json!({"path": "src/app.rs", "start_line": 650, "limit": 20}),
        json!({"file_path": "src/app.rs", "offset": 3, "max_lines": 2}),
        json!({"path": "src/app.rs", "tail": 3}),
        json!({"path": "long.txt", "limit": 1}),
        json!({"path": "long.txt", "start_char": 2001, "limit": 1}),
        json!({"path": "crlf.txt"}),
        json!({"path": "latin1.txt"}),
        json!({"path": "ctrl.txt"}),
        json!({"path": "empty.txt"}),
        json!({"path": "docs"}),
        json!({"path": "."}),
        json!({"path": "src/app.rs:10-12"}),
        json!({"path": "src/app.rs:10", "context": 2}),
        json!({"path": "src/app.rs", "view_range": [5, 7]}),
        json!({"path": "src/app.rs", "start_line": 698, "end_line": 700}),
        json!({"path": "src/lib.rs", "hash": true}),
        json!({"path": "src/lib.rs", "if_changed": hash}),
        // Failures, bad arguments included: results the model can read, not protocol errors.
        json!({"path": "src/ap.rs"}),
        json!({"path": "bin.dat"}),
        json!({"path": "../outside.txt"}),
        json!({"path": "src/app.rs", "start_line": 900}),
        json!({"path": "src/app.rs", "lines": 3}),
        json!({"path": "src/app.rs", "limit": 0}),
        json!({"path": "src/app.rs", "tail": 2, "start_line": 1}),
        json!({"path": "src/app.rs", "limit": 5, "view_range": [1, 2]}),
    ];
    for args in cases {
        let result = call(&client, args.clone()).await;
        let (text, json, failed) = command_line(&ws, &args, &[]);
        assert_eq!(result.is_error, Some(failed), "{args}");
        assert_eq!(text_of(&result, 0), text, "{args}");
        let structured = result
            .structured_content
            .clone()
            .expect("structuredContent");
        assert_eq!(masked(structured.clone()), masked(json), "{args}");
        assert_eq!(failed, structured["status"] == "error", "{args}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn server_settings_shape_every_call() {
    let ws = workspace();
    let settings = [
        "--numbers",
        "tab",
        "--max-line-chars",
        "10",
        "--max-bytes",
        "60",
    ];
    let client = plain_client(&ws, &settings).await;
    for args in [json!({"path": "src/app.rs"}), json!({"path": "long.txt"})] {
        let result = call(&client, args.clone()).await;
        let (text, json, _) = command_line(&ws, &args, &settings);
        assert_eq!(text_of(&result, 0), text);
        assert_eq!(masked(result.structured_content.unwrap()), masked(json));
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn standard_input_carries_the_protocol_and_is_never_a_path() {
    let ws = workspace();
    let client = plain_client(&ws, &[]).await;
    let result = call(&client, json!({"path": "-"})).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        result.structured_content.unwrap()["error"]["code"],
        "INVALID_PARAM"
    );
    // The server still serves.
    let result = call(&client, json!({"path": "src/lib.rs"})).await;
    assert_eq!(text_of(&result, 0), "   1 | pub fn a() {}\n");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_unknown_tool_is_an_error_naming_read() {
    let ws = workspace();
    let client = plain_client(&ws, &[]).await;
    let err = client
        .call_tool(CallToolRequestParams::new("write").with_arguments(Map::new()))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("'read'"), "{err}");
    let result = call(&client, json!({"path": "src/lib.rs"})).await;
    assert_eq!(result.is_error, Some(false));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_clients_roots_are_the_roots_and_are_asked_again_when_they_change() {
    let ws = workspace();
    let first = Workspace::new();
    first.file("one.txt", "first root\n");
    let second = Workspace::new();
    second.file("two.txt", "second root\n");
    let uri = |w: &Workspace| format!("file://{}", w.path().display());
    let client = RootsClient::default();
    *client.roots.lock().unwrap() = vec![
        "file:///no/such/directory".to_string(),
        uri(&first),
        uri(&second),
    ];
    let service = roots_client(&ws, &[], client.clone()).await;

    // A relative path against the first existing root.
    let r = call(&service, json!({"path": "one.txt"})).await;
    assert_eq!(text_of(&r, 0), "   1 | first root\n");
    let r = call(&service, json!({"path": "two.txt"})).await;
    assert_eq!(r.structured_content.unwrap()["error"]["code"], "NOT_FOUND");
    // An absolute path against the root that holds it; printed relative to that root.
    let abs = second.path().join("two.txt");
    let r = call(&service, json!({"path": abs.to_str().unwrap()})).await;
    assert_eq!(text_of(&r, 0), "   1 | second root\n");
    let v = r.structured_content.clone().unwrap();
    assert_eq!(v["data"]["path"], "two.txt");
    assert_eq!(v["context"]["path_resolved"], "two.txt");
    // The sandbox holds per root: leaving the root is refused.
    let r = call(&service, json!({"path": "../x"})).await;
    assert_eq!(
        r.structured_content.unwrap()["error"]["code"],
        "ACCESS_DENIED"
    );
    // The workspace (the current directory) is not a root.
    let r = call(&service, json!({"path": "src/lib.rs"})).await;
    assert_eq!(r.structured_content.unwrap()["error"]["code"], "NOT_FOUND");

    // The roots change at run time.
    *client.roots.lock().unwrap() = vec![uri(&second)];
    service.notify_roots_list_changed().await.unwrap();
    let mut answered = false;
    for _ in 0..50 {
        let r = call(&service, json!({"path": "two.txt"})).await;
        if r.is_error == Some(false) {
            assert_eq!(text_of(&r, 0), "   1 | second root\n");
            answered = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(answered, "the new roots were not used");
    service.cancel().await.unwrap();
}

#[tokio::test]
async fn a_fixed_root_wins_over_the_clients_roots() {
    let ws = workspace();
    let other = Workspace::new();
    other.file("one.txt", "other\n");
    let client = RootsClient::default();
    *client.roots.lock().unwrap() = vec![format!("file://{}", other.path().display())];
    let service = roots_client(&ws, &["--root", "src"], client).await;
    let r = call(&service, json!({"path": "lib.rs"})).await;
    assert_eq!(text_of(&r, 0), "   1 | pub fn a() {}\n");
    let r = call(&service, json!({"path": "one.txt"})).await;
    assert_eq!(r.structured_content.unwrap()["error"]["code"], "NOT_FOUND");
    service.cancel().await.unwrap();
}

#[tokio::test]
async fn agentread_root_in_the_environment_is_a_fixed_root_too() {
    let ws = workspace();
    let other = Workspace::new();
    let client = RootsClient::default();
    *client.roots.lock().unwrap() = vec![format!("file://{}", other.path().display())];
    let mut cmd = server_command(&ws, &[]);
    cmd.env("AGENTREAD_ROOT", ws.path().join("src"));
    let service = client
        .clone()
        .serve(TokioChildProcess::new(cmd).unwrap())
        .await
        .expect("initialize");
    let r = call(&service, json!({"path": "lib.rs"})).await;
    assert_eq!(text_of(&r, 0), "   1 | pub fn a() {}\n");
    let r = call(&service, json!({"path": "../long.txt"})).await;
    assert_eq!(
        r.structured_content.unwrap()["error"]["code"],
        "ACCESS_DENIED"
    );
    service.cancel().await.unwrap();
}

#[tokio::test]
async fn without_roots_the_current_directory_is_the_root() {
    let ws = workspace();
    let client = plain_client(&ws, &[]).await;
    let r = call(&client, json!({"path": "src/lib.rs"})).await;
    assert_eq!(r.structured_content.unwrap()["context"]["cwd"], ".");
    client.cancel().await.unwrap();
}

/// SPEC §17: without `--root`, `AGENTREAD_ROOT` or client roots, the server takes the
/// command line's default root, the git work tree holding its current directory; a
/// relative path is joined to that directory, and paths print relative to the root.
#[tokio::test]
async fn without_roots_a_server_in_a_checkout_reads_the_whole_work_tree() {
    let ws = workspace();
    ws.mkdir(".git");
    ws.file("README.md", "top\n");
    let mut cmd = server_command(&ws, &[]);
    cmd.current_dir(ws.path().join("src"));
    let client = ().serve(TokioChildProcess::new(cmd).unwrap()).await.unwrap();
    let r = call(&client, json!({"path": "../README.md"})).await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r, 0));
    let v = r.structured_content.unwrap();
    assert_eq!(v["data"]["path"], "README.md");
    assert_eq!(v["context"]["cwd"], "src");
    let r = call(&client, json!({"path": "lib.rs"})).await;
    assert_eq!(r.structured_content.unwrap()["data"]["path"], "src/lib.rs");
    let r = call(&client, json!({"path": "../../outside"})).await;
    assert_eq!(
        text_of(&r, 0),
        "ACCESS_DENIED: Access denied: '../outside' is outside the workspace root (the git work tree holding the current directory).\n"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_deny_policy_applies_to_every_call() {
    let ws = workspace();
    ws.file(".env", "TOKEN=secret\n");
    ws.file("keys/server.pem", "-----BEGIN-----\n");
    std::os::unix::fs::symlink(".env", ws.path().join("env-link")).unwrap();
    let client = plain_client(&ws, &["--deny-secrets", "--deny", "src/app.rs"]).await;
    for (path, pattern) in [
        (".env", ".env"),
        ("env-link", ".env"),
        ("keys/server.pem", "*.pem"),
        ("src/app.rs", "src/app.rs"),
    ] {
        let r = call(&client, json!({"path": path, "hash": true})).await;
        assert_eq!(r.is_error, Some(true), "{path}");
        let v = r.structured_content.clone().unwrap();
        assert_eq!(v["error"]["code"], "ACCESS_DENIED");
        assert_eq!(
            v["error"]["detail"],
            json!({"reason": "denied", "pattern": pattern})
        );
        assert!(!v.to_string().contains("secret"));
        assert!(!text_of(&r, 0).contains("secret"));
    }
    client.cancel().await.unwrap();
}

/// A PNG, JPEG, GIF and WebP of known dimensions, built by hand.
fn images(ws: &Workspace) -> Vec<(&'static str, &'static str, &'static str, u64, u64)> {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend(640u32.to_be_bytes());
    png.extend(480u32.to_be_bytes());
    png.extend(b"\x08\x06\0\0\0\0\0\0\0\0\0\0\0IEND\xaeB`\x82");
    ws.file("pics/logo.png", &png);
    let mut jpeg = b"\xFF\xD8\xFF\xE0\0\x10JFIF\0\x01\x01\0\0\x01\0\x01\0\0".to_vec();
    jpeg.extend(b"\xFF\xC0\0\x11\x08");
    jpeg.extend(200u16.to_be_bytes()); // height
    jpeg.extend(300u16.to_be_bytes()); // width
    jpeg.extend(b"\x03\x01\x22\0\x02\x11\x01\x03\x11\x01\xFF\xD9");
    ws.file("pics/photo.jpg", &jpeg);
    let mut gif = b"GIF89a".to_vec();
    gif.extend(16u16.to_le_bytes());
    gif.extend(8u16.to_le_bytes());
    gif.extend(b"\0\0\0;");
    // A name that does not say it: the first bytes decide.
    ws.file("pics/anim.data", &gif);
    let mut webp = b"RIFF\x1a\0\0\0WEBPVP8L\x0d\0\0\0\x2f".to_vec();
    // VP8L: 14-bit width-1 and height-1.
    let (w, h) = (99u32, 77u32);
    let bits = (w - 1) | ((h - 1) << 14);
    webp.extend(bits.to_le_bytes());
    webp.extend([0u8; 8]);
    ws.file("pics/cat.webp", &webp);
    vec![
        ("pics/logo.png", "PNG", "image/png", 640, 480),
        ("pics/photo.jpg", "JPEG", "image/jpeg", 300, 200),
        ("pics/anim.data", "GIF", "image/gif", 16, 8),
        ("pics/cat.webp", "WebP", "image/webp", 99, 77),
    ]
}

#[tokio::test]
async fn images_are_answered_as_image_blocks_with_their_dimensions() {
    let ws = workspace();
    let cases = images(&ws);
    let client = plain_client(&ws, &[]).await;
    for (path, kind, mime, width, height) in cases {
        let bytes = std::fs::read(ws.path().join(path)).unwrap();
        let r = call(&client, json!({"path": path})).await;
        assert_eq!(r.is_error, Some(false), "{path}");
        assert_eq!(
            text_of(&r, 0),
            format!(
                "Image '{path}': {kind}, {width}x{height}, {} bytes.",
                bytes.len()
            )
        );
        let Some(image) = r.content[1].as_image() else {
            panic!("content[1] of {path} is not an image");
        };
        assert_eq!(image.mime_type, mime);
        use base64::Engine as _;
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(&image.data)
            .unwrap();
        assert_eq!(decoded, bytes);
        let v = r.structured_content.unwrap();
        assert_eq!(v["status"], "success");
        assert_eq!(
            v["data"],
            json!({"type": "image", "path": path, "mime_type": mime, "width": width, "height": height,
                   "sent_width": width, "sent_height": height})
        );
        assert_eq!(v["stats"]["file_size_bytes"], bytes.len() as u64);
        assert!(v["stats"]["file_mtime_ms"].is_i64());
        assert_eq!(v["context"]["path_resolved"], path);
        // Outside --mcp an image stays binary.
        let out = ws.run(&[path]);
        assert_eq!(common::code(&out), 7, "{path}");
        // `hash` gives its bytes' BLAKE3, and `if_changed` with it sends nothing again.
        let hash = blake3::hash(&bytes).to_hex().to_string();
        let r = call(&client, json!({"path": path, "hash": true})).await;
        assert!(
            text_of(&r, 0).ends_with(&format!("\n[content_hash: {hash}]")),
            "{path}: {}",
            text_of(&r, 0)
        );
        let v = r.structured_content.unwrap();
        assert_eq!(v["stats"]["content_hash"], hash.as_str(), "{path}: {v}");
        let r = call(&client, json!({"path": path, "if_changed": hash})).await;
        assert_eq!(r.content.len(), 1, "{path}");
        let v = r.structured_content.unwrap();
        assert_eq!(v["status"], "unchanged", "{path}: {v}");
    }
    // Over 64 MiB, or over 100 megapixels by its header: refused before decoding.
    let logo = std::fs::read(ws.path().join("pics/logo.png")).unwrap();
    ws.file("pics/huge.png", common::padded(&logo, (64 << 20) + 1));
    let mut vast = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    vast.extend(20_000u32.to_be_bytes());
    vast.extend(10_000u32.to_be_bytes());
    vast.extend(b"\x08\x06\0\0\0\0\0\0\0\0\0\0\0IEND\xaeB`\x82");
    ws.file("pics/vast.png", &vast);
    for path in ["pics/huge.png", "pics/vast.png"] {
        let r = call(&client, json!({ "path": path })).await;
        assert_eq!(r.is_error, Some(true), "{path}");
        let v = r.structured_content.unwrap();
        assert_eq!(v["error"]["code"], "SIZE_LIMIT_EXCEEDED", "{path}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("over 100 megapixels or 64 MiB"),
            "{path}"
        );
    }
    // No pixels: a model's API refuses such an image, so it is not sent.
    let mut empty = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    empty.extend(0u32.to_be_bytes());
    empty.extend(0u32.to_be_bytes());
    empty.extend(b"\x08\x06\0\0\0\0\0\0\0\0\0\0\0IEND\xaeB`\x82");
    ws.file("pics/empty.png", &empty);
    let r = call(&client, json!({ "path": "pics/empty.png" })).await;
    assert_eq!(r.is_error, Some(true));
    let v = r.structured_content.unwrap();
    assert_eq!(v["error"]["code"], "BINARY_FILE");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("0x0: it has no pixels to send"),
        "{v}"
    );
    client.cancel().await.unwrap();
}

/// An image's signature with a header that cannot be read: BINARY_FILE with the reason
/// `image_damaged` (SPEC §16).
#[tokio::test]
async fn a_damaged_image_is_binary_with_its_reason() {
    let ws = workspace();
    // A real PNG whose first chunk is not named IHDR: its size bytes are not a size.
    let mut renamed = Vec::new();
    image::RgbImage::new(64, 48)
        .write_to(
            &mut std::io::Cursor::new(&mut renamed),
            image::ImageFormat::Png,
        )
        .unwrap();
    renamed[12..16].copy_from_slice(b"JUNK");
    let files: [(&str, &[u8]); 5] = [
        ("bad.png", b"\x89PNG\r\n\x1a\ngarbage"),
        ("cut.png", b"\x89PNG\r\n\x1a\n\0\0"),
        (
            "long.png",
            b"\x89PNG\r\n\x1a\ngarbage garbage garbage garbage garbage",
        ),
        ("renamed.png", &renamed),
        ("cut.jpg", b"\xFF\xD8\xFF"),
    ];
    for (name, bytes) in files {
        ws.file(&format!("pics/{name}"), bytes);
    }
    let client = plain_client(&ws, &[]).await;
    for (name, _) in files {
        let r = call(&client, json!({ "path": format!("pics/{name}") })).await;
        assert_eq!(r.is_error, Some(true), "{name}");
        let v = r.structured_content.unwrap();
        assert_eq!(v["error"]["code"], "BINARY_FILE", "{name}: {v}");
        assert_eq!(
            v["error"]["detail"],
            json!({"reason": "image_damaged"}),
            "{name}: {v}"
        );
    }
    client.cancel().await.unwrap();
}

/// `width`/`height` are those of the image as shown, after its EXIF orientation (SPEC
/// §16): a photo stored 40x20 and turned a quarter by its EXIF is 20x40, sent as it is.
#[tokio::test]
async fn an_image_turned_by_its_exif_is_as_wide_as_it_is_shown() {
    let ws = workspace();
    let mut bytes = Vec::new();
    image::RgbImage::new(40, 20)
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Jpeg,
        )
        .unwrap();
    // APP1 Exif, big-endian TIFF, one IFD entry: Orientation (0x0112) = 6, "rotate 90 CW".
    let exif: &[u8] = b"Exif\0\0MM\0\x2a\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0\x06\0\0\0\0\0\0";
    let mut app1 = vec![0xff, 0xe1];
    app1.extend_from_slice(&((exif.len() + 2) as u16).to_be_bytes());
    app1.extend_from_slice(exif);
    bytes.splice(2..2, app1);
    ws.file("photo.jpg", &bytes);
    let client = plain_client(&ws, &[]).await;
    let r = call(&client, json!({"path": "photo.jpg"})).await;
    assert_eq!(r.is_error, Some(false));
    let v = r.structured_content.unwrap();
    let data = &v["data"];
    assert_eq!(
        (&data["width"], &data["height"]),
        (&json!(20), &json!(40)),
        "{v}"
    );
    assert_eq!(
        (&data["sent_width"], &data["sent_height"]),
        (&json!(20), &json!(40)),
        "{v}"
    );
    assert!(v["text"].as_str().unwrap().contains("JPEG, 20x40"), "{v}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_large_image_is_scaled_to_1568_pixels_on_its_longer_side() {
    let ws = workspace();
    // Just past the longer side images are scaled to, and wide: scaling and encoding cost
    // by the pixel.
    let (width, height) = (1600u32, 400u32);
    let mut pixels = Vec::with_capacity((width * height * 3) as usize);
    for y in 0..height {
        for x in 0..width {
            pixels.extend_from_slice(&[x as u8, y as u8, (x + y) as u8]);
        }
    }
    let image = image::RgbImage::from_raw(width, height, pixels).unwrap();
    image.save(ws.path().join("wide.png")).unwrap();
    let size = std::fs::metadata(ws.path().join("wide.png")).unwrap().len();
    let client = plain_client(&ws, &[]).await;
    let r = call(&client, json!({"path": "wide.png"})).await;
    assert_eq!(r.is_error, Some(false));
    assert_eq!(
        text_of(&r, 0),
        format!("Image 'wide.png': PNG, 1600x400, scaled to 1568x392, {size} bytes.")
    );
    let Some(sent) = r.content[1].as_image() else {
        panic!("content[1] is not an image");
    };
    // Opaque: the smaller of PNG and JPEG (SPEC §16).
    assert!(
        ["image/png", "image/jpeg"].contains(&sent.mime_type.as_str()),
        "{}",
        sent.mime_type
    );
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&sent.data)
        .unwrap();
    let decoded = image::load_from_memory(&bytes).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (1568, 392));
    let v = r.structured_content.unwrap();
    assert_eq!(v["data"]["width"], 1600);
    assert_eq!(v["data"]["sent_width"], 1568);
    assert_eq!(v["data"]["sent_height"], 392);
    // A JPEG source is sent as JPEG.
    image.save(ws.path().join("wide.jpg")).unwrap();
    let r = call(&client, json!({"path": "wide.jpg"})).await;
    let Some(sent) = r.content[1].as_image() else {
        panic!("content[1] is not an image");
    };
    assert_eq!(sent.mime_type, "image/jpeg");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&sent.data)
        .unwrap();
    assert_eq!(
        image::guess_format(&bytes).unwrap(),
        image::ImageFormat::Jpeg
    );
    let decoded = image::load_from_memory(&bytes).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (1568, 392));
    client.cancel().await.unwrap();
}

/// The images of one call with `paths` carry at most 20 MiB: past that, an image is
/// answered with its text block only, saying so and how to read it alone (SPEC §16).
#[test]
fn the_images_of_one_call_carry_at_most_20_mib() {
    let ws = workspace();
    // 4.5 MB each, small enough to be sent as it is: five pass 20 MiB, four do not.
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend(1200u32.to_be_bytes());
    png.extend(1000u32.to_be_bytes());
    png.extend(b"\x08\x06\0\0\0\0\0\0\0\0\0\0\0IEND\xaeB`\x82");
    ws.file("big.png", common::padded(&png, 4_500_000));
    // A raw client: the answer is a line of 24 MB.
    let mut raw = Server::start(ws.path(), &[], json!({}));
    raw.read_call(
        3,
        json!({"paths": ["big.png", "big.png", "big.png", "big.png", "big.png"]}),
    );
    let answer = raw.receive_within(std::time::Duration::from_secs(120));
    assert_eq!(answer["id"], 3);
    let content = answer["result"]["content"].as_array().unwrap();
    let images = content.iter().filter(|c| c["type"] == "image").count();
    assert_eq!(images, 4);
    let text = content[0]["text"].as_str().unwrap();
    assert!(
        text.ends_with(
            "==> big.png <==\nImage 'big.png': PNG, 1200x1000, 4500000 bytes.\n[Not sent: the images of one call carry at most 20 MiB. Read it in a call of its own (path='big.png') to see it.]\n"
        ),
        "{text}"
    );
    assert_eq!(text.matches("[Not sent").count(), 1, "{text}");
    // Its result says so as well: partial, nothing sent.
    let results = answer["result"]["structuredContent"]["results"]
        .as_array()
        .unwrap();
    assert_eq!(results[3]["status"], "success");
    let last = &results[4];
    assert_eq!(last["status"], "partial", "{last}");
    assert_eq!(
        (&last["data"]["sent_width"], &last["data"]["sent_height"]),
        (&Value::Null, &Value::Null)
    );
    assert!(
        last["text"]
            .as_str()
            .unwrap()
            .ends_with("Read it in a call of its own (path='big.png') to see it.]"),
        "{last}"
    );
    raw.finish();
}

/// A scaled image without transparency is sent as the smaller of PNG and JPEG (SPEC §16):
/// noise is far smaller as JPEG; with transparent pixels it stays PNG.
#[tokio::test]
async fn a_scaled_opaque_image_is_sent_as_the_smaller_of_png_and_jpeg() {
    let ws = workspace();
    // Just past the longer side images are scaled to, and wide: scaling and encoding cost
    // by the pixel.
    let (width, height) = (1600u32, 400u32);
    let mut seed = 1u32;
    let noise: Vec<u8> = (0..width * height * 3)
        .map(|_| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 24) as u8
        })
        .collect();
    let opaque = image::RgbImage::from_raw(width, height, noise).unwrap();
    opaque.save(ws.path().join("noise.png")).unwrap();
    // Every other column transparent.
    let row: Vec<u8> = (0..width)
        .flat_map(|x| [x as u8, 0, 0, if x % 2 == 0 { 0 } else { 255 }])
        .collect();
    let clear = image::RgbaImage::from_raw(width, height, row.repeat(height as usize)).unwrap();
    clear.save(ws.path().join("clear.png")).unwrap();
    let client = plain_client(&ws, &[]).await;
    for (path, mime) in [("noise.png", "image/jpeg"), ("clear.png", "image/png")] {
        let r = call(&client, json!({ "path": path })).await;
        let Some(sent) = r.content[1].as_image() else {
            panic!("content[1] of {path} is not an image");
        };
        assert_eq!(sent.mime_type, mime, "{path}");
        let v = r.structured_content.unwrap();
        assert_eq!(v["data"]["sent_width"], 1568, "{path}");
        assert_eq!(v["data"]["sent_height"], 392, "{path}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn paths_give_one_result_with_a_section_per_target() {
    let ws = workspace();
    let client = plain_client(&ws, &[]).await;
    let r = call(
        &client,
        json!({"paths": ["src/lib.rs", "missing.rs", "src/app.rs:2-3"]}),
    )
    .await;
    assert_eq!(r.is_error, Some(false));
    assert_eq!(
        text_of(&r, 0),
        "==> src/lib.rs <==\n   1 | pub fn a() {}\n\n\
         ==> missing.rs <==\nNOT_FOUND: File 'missing.rs' does not exist.\n\n\
         ==> src/app.rs:2-3 <==\n   2 | line 2\n   3 | line 3\n\n\
         [Truncated: showing lines 2-3 of 700. Use start_line=4 to continue. Use outline=true to list its symbols.]\n"
    );
    let v = r.structured_content.unwrap();
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!(results[0]["status"], "success");
    assert_eq!(results[1]["error"]["code"], "NOT_FOUND");
    assert_eq!(results[2]["data"]["start_line"], 2);
    // An error only when every target failed.
    let r = call(&client, json!({"paths": ["missing.rs", "gone.rs"]})).await;
    assert_eq!(r.is_error, Some(true));
    client.cancel().await.unwrap();
}

#[test]
fn mcp_refuses_per_call_options_before_serving() {
    let ws = workspace();
    for args in [
        vec!["--mcp", "src/lib.rs"],
        vec!["--mcp", "--call", "{}"],
        vec!["--mcp", "--tool-schema"],
        vec!["--mcp", "--format", "json"],
        vec!["--mcp", "--limit", "3"],
        vec!["--mcp", "--start-line", "3"],
        vec!["--mcp", "--tail", "3"],
        vec!["--mcp", "--start-char", "3"],
        vec!["--mcp", "--hash"],
        vec!["--mcp", "-C", "3"],
    ] {
        let out = ws.cmd().args(&args).write_stdin("").output().unwrap();
        assert_eq!(common::code(&out), 2, "{args:?}");
        assert!(
            common::stderr(&out).contains("INVALID_PARAM")
                || common::stdout(&out).contains("INVALID_PARAM"),
            "{args:?}"
        );
    }
}

#[test]
fn malformed_lines_and_unknown_methods_do_not_stop_the_server() {
    let ws = workspace();
    let mut raw = Server::start(ws.path(), &[], json!({}));
    raw.send("this is not JSON");
    raw.send("{\"jsonrpc\":\"2.0\",\"id\":");
    raw.send("");
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"no/such/method"}"#);
    // Each line that is not JSON is answered with a parse error (-32700, id null); the
    // blank line is skipped; the next answer is for id 1.
    for _ in 0..2 {
        let v = raw.receive();
        assert_eq!(
            (&v["id"], &v["error"]["code"]),
            (&Value::Null, &json!(-32700))
        );
    }
    let v = raw.receive();
    assert_eq!(v["id"], 1);
    assert_eq!(v["error"]["code"], -32601);
    raw.read_call(2, json!({"path": "ctrl.txt"}));
    let v = raw.receive();
    assert_eq!(v["id"], 2);
    assert_eq!(v["result"]["content"][0]["text"], "   1 | a\u{1b}[31mred\n");
    raw.send(
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#,
    );
    let v = raw.receive();
    assert_eq!(v["id"], 3);
    assert!(v["error"]["message"].as_str().unwrap().contains("'read'"));
    // JSON, but no JSON-RPC message: an Invalid Request error, on a line of its own,
    // and the server goes on.
    raw.send(r#"{"jsonrpc":"2.0","id":4,"params":[1,2]}"#);
    let v = raw.receive();
    assert_eq!(v["error"]["code"], -32600);
    raw.read_call(5, json!({"path": "ctrl.txt"}));
    let v = raw.receive();
    assert_eq!(v["id"], 5);
    assert_eq!(v["result"]["isError"], false);
    // A request on a line over the 16 MiB limit is not read, but answered with its id
    // (every request with an id gets an answer carrying it); a request in a
    // CRLF line and one with a byte-order mark are still requests.
    let pad = "x".repeat(17 << 20);
    raw.send(&format!(
        r#"{{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{{"name":"read","arguments":{{"path":"ctrl.txt"}},"_meta":{{"pad":"{pad}"}}}}}}"#
    ));
    let v = raw.receive();
    assert_eq!(v["id"], 99, "{v}");
    assert_eq!(v["error"]["code"], -32600);
    assert!(v["error"]["message"].as_str().unwrap().contains("16 MiB"));
    raw.send(concat!(
        r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","#,
        r#""params":{"name":"read","arguments":{"path":"ctrl.txt"}}}"#,
        "\r"
    ));
    let v = raw.receive();
    assert_eq!(v["id"], 6);
    assert_eq!(v["result"]["content"][0]["text"], "   1 | a\u{1b}[31mred\n");
    raw.send("\u{feff}{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}");
    assert_eq!(raw.receive()["id"], 7);
    raw.finish();
}

#[test]
fn stdout_carries_only_protocol_messages_whatever_the_files_hold() {
    let ws = workspace();
    ws.file(
        "evil.txt",
        "\n}{\"jsonrpc\":\"2.0\"}\n\u{1b}]0;x\u{7}\r\n\0",
    );
    let mut raw = Server::start(ws.path(), &[], json!({}));
    for (id, path) in ["evil.txt", "bin.dat", "nope", "docs", "latin1.txt"]
        .iter()
        .enumerate()
    {
        raw.read_call(id as u64 + 10, json!({"path": path}));
    }
    let mut ids: Vec<u64> = (0..5)
        .map(|_| raw.receive()["id"].as_u64().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, vec![10, 11, 12, 13, 14]);
    raw.finish();
}

/// A 1 GiB text file: numbered lines, a long run of spaces (sparse, so it is made at
/// once), and numbered lines at the end.
fn one_gib(ws: &Workspace) -> u64 {
    let path = ws.path().join("big.log");
    let mut file = std::fs::File::create(&path).unwrap();
    let head: String = (1..=1000).map(|n| format!("line {n}\n")).collect();
    file.write_all(head.as_bytes()).unwrap();
    file.set_len(1 << 30).unwrap();
    use std::io::Seek;
    file.seek(std::io::SeekFrom::End(0)).unwrap();
    file.write_all(b"\nend 1\nend 2\n").unwrap();
    1003
}

fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap()
}

#[test]
fn a_small_read_is_not_queued_behind_large_ones_and_memory_stays_bounded() {
    let ws = filled(Workspace::in_memory());
    let last = one_gib(&ws);
    let mut raw = Server::start(ws.path(), &[], json!({}));
    for id in 100..108 {
        raw.read_call(id, json!({"path": "big.log", "start_line": last - 1}));
    }
    raw.read_call(1, json!({"path": "src/lib.rs"}));
    let first = raw.receive();
    assert_eq!(
        first["id"], 1,
        "the small read was answered after a large one"
    );
    let mut big = Vec::new();
    for _ in 0..8 {
        let v = raw.receive();
        assert_eq!(v["result"]["isError"], false, "{v}");
        assert_eq!(
            v["result"]["structuredContent"]["stats"]["total_lines"],
            last
        );
        big.push(v["id"].as_u64().unwrap());
    }
    big.sort_unstable();
    assert_eq!(big, (100..108).collect::<Vec<_>>());
    let peak = peak_rss_kib(raw.child.id());
    assert!(
        peak < 32 * 1024,
        "peak RSS {peak} KiB with eight 1 GiB reads"
    );
    raw.finish();
}

/// The outline of a small source file has turns of its own: it is answered before two
/// slow heavy reads that hold both heavy turns (before, it waited for one of them).
#[test]
fn a_small_outline_is_not_queued_behind_slow_heavy_reads() {
    let ws = workspace();
    // Each a parse of seconds: 8 MB of Python, given up at the 2 s parse budget or read.
    let slow = "def f(x):\n    return [x for x in range(10) if x]\n".repeat(160_000);
    ws.file("slow1.py", &slow);
    ws.file("slow2.py", &slow);
    ws.file("small.py", "def g():\n    return 1\n");
    let mut raw = Server::start(ws.path(), &["--no-cache"], json!({}));
    raw.read_call(100, json!({"path": "slow1.py", "outline": true}));
    raw.read_call(101, json!({"path": "slow2.py", "outline": true}));
    std::thread::sleep(std::time::Duration::from_millis(200));
    raw.read_call(1, json!({"path": "small.py", "outline": true}));
    let first = raw.receive();
    assert_eq!(first["id"], 1, "the small outline waited: {first}");
    assert_eq!(
        first["result"]["structuredContent"]["data"]["symbols"][0]["name"],
        "g"
    );
    for _ in 0..2 {
        raw.receive();
    }
    raw.finish();
}

/// `agentread --mcp` in `ws`, its standard streams piped, for a test that writes and
/// closes them itself.
fn piped_server(ws: &Workspace) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_agentread"))
        .arg("--mcp")
        .current_dir(ws.path())
        .env_remove("AGENTREAD_ROOT")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn a_client_that_closes_our_output_ends_the_server_quietly() {
    let ws = workspace();
    let mut child = piped_server(&ws);
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}"#)
        .unwrap();
    stdin.write_all(b"\n").unwrap();
    stdin.flush().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_client_that_declares_roots_but_never_lists_them_does_not_hang_a_call() {
    let ws = workspace();
    // The wait is the server's setting (10 s by default), short here.
    let mut raw = Server::start(
        ws.path(),
        &["--roots-timeout", "0.3"],
        serde_json::from_str(r#"{"roots":{"listChanged":true}}"#).unwrap(),
    );
    raw.read_call(7, json!({"path": "src/lib.rs"}));
    // The server asks for the roots first; this client never answers. The call is
    // answered all the same, and refused: the server does not fall back to its own
    // directory (SPEC §12).
    let mut answer = raw.receive();
    if answer["method"] == "roots/list" {
        answer = raw.receive();
    }
    assert_eq!(answer["id"], 7);
    assert_eq!(answer["result"]["isError"], true);
    assert_eq!(
        answer["result"]["structuredContent"]["error"]["code"],
        "ACCESS_DENIED"
    );
    let message = answer["result"]["structuredContent"]["error"]["message"].to_string();
    assert!(message.contains("within 0.3 s"), "{message}");
    raw.finish();
}

#[tokio::test]
async fn max_file_size_is_checked_before_an_image_is_recognised() {
    let ws = workspace();
    images(&ws);
    let client = plain_client(&ws, &["--max-file-size", "16"]).await;
    let r = call(&client, json!({"path": "pics/logo.png"})).await;
    let v = r.structured_content.unwrap();
    assert_eq!(v["error"]["code"], "SIZE_LIMIT_EXCEEDED");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("max_file_size 16")
    );
    client.cancel().await.unwrap();
}

/// SPEC §12 and §17: every hint a model sees names a parameter it can pass; the hash is
/// a footer line of the text block; a call without a path says that `path` is required.
#[tokio::test]
async fn hints_name_parameters_and_the_hash_is_a_footer_line() {
    let ws = workspace();
    ws.file("data.gz", b"\x1F\x8B\x08\0\0\0\0\0\0\x03\x01\0");
    let zh: Vec<u8> = "中文文本，这是一个测试。\n"
        .repeat(10)
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    ws.file("zh.txt", zh);
    let client = plain_client(&ws, &[]).await;
    for args in [
        json!({"path": "src/app.rs", "limit": 3}),
        json!({"path": "long.txt"}),
        json!({"path": "latin1.txt"}),
        json!({"path": "src/app.rs:3", "start_line": 2}),
        json!({"path": "src/app.rs", "context": 2}),
        json!({"path": "src/app.rs", "symbol": "x", "tail": 3}),
        json!({"path": "src/app.rs", "enclosing": true}),
        json!({"path": "src/nope.rs"}),
        json!({"path": "data.gz"}),
        json!({"path": "zh.txt"}),
        json!({"path": "bin.dat"}),
        json!({"path": "docs", "outline": true}),
        json!({"path": "src/app.rs", "if_changed": "zz"}),
    ] {
        let r = call(&client, args.clone()).await;
        let text = text_of(&r, 0);
        assert!(!text.contains("--"), "{args}: {text}");
    }
    // UTF-16 without a BOM is read, not refused (SPEC §11).
    let r = call(&client, json!({"path": "zh.txt"})).await;
    assert!(
        text_of(&r, 0).contains("   1 | 中文文本，这是一个测试。\n"),
        "{}",
        text_of(&r, 0)
    );
    let r = call(&client, json!({"path": "data.gz"})).await;
    assert!(text_of(&r, 0).contains("gzip data; try 'zcat data.gz | agentread -'"));
    let r = call(&client, json!({"path": "src/app.rs", "limit": 3})).await;
    assert!(
        text_of(&r, 0)
            .contains("Use start_line=4 to continue. Use outline=true to list its symbols.]")
    );
    let r = call(&client, json!({"path": "src/lib.rs", "hash": true})).await;
    let hash = blake3::hash(b"pub fn a() {}\n").to_hex().to_string();
    assert!(
        text_of(&r, 0).ends_with(&format!("[content_hash: {hash}]\n")),
        "{}",
        text_of(&r, 0)
    );
    let r = call(&client, json!({"limit": 3})).await;
    assert_eq!(r.is_error, Some(true));
    assert!(
        text_of(&r, 0).contains("The parameter 'path' is required"),
        "{}",
        text_of(&r, 0)
    );
    client.cancel().await.unwrap();
}

/// A last request without its `\n`, then the end of input: answered all the same.
#[test]
fn a_last_request_without_its_newline_is_answered() {
    let ws = workspace();
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read","arguments":{"path":"src/lib.rs","limit":1}}}"#,
    );
    let mut child = piped_server(&ws);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let last = answers
        .iter()
        .find(|a| a["id"] == 5)
        .expect("the last request's answer");
    assert_eq!(last["result"]["isError"], false, "{last}");
    assert_eq!(out.status.code(), Some(0));
}

/// A root listed again is served once, and at most 64 roots are held: each holds a
/// descriptor, and 1,000 of them took every one a process may have (every read then
/// failed with "Too many open files").
#[tokio::test]
async fn a_root_listed_many_times_is_held_once() {
    let ws = workspace();
    let first = Workspace::new();
    first.file("one.txt", "first root\n");
    let client = RootsClient::default();
    *client.roots.lock().unwrap() = vec![format!("file://{}", first.path().display()); 1000];
    let mut cmd = tokio::process::Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -n 128 && exec \"$0\" --mcp")
        .arg(env!("CARGO_BIN_EXE_agentread"))
        .current_dir(ws.path())
        .env_remove("AGENTREAD_ROOT")
        .env_remove("AGENTREAD_DENY");
    let transport = TokioChildProcess::new(cmd).unwrap();
    let service = client.serve(transport).await.expect("initialize");
    let r = call(&service, json!({"path": "one.txt"})).await;
    assert_eq!(text_of(&r, 0), "   1 | first root\n", "{r:?}");
    service.cancel().await.unwrap();
}
