//! Throws random and mutated JSON-RPC lines at one `agentread --mcp` session and checks
//! the protocol holds: every request (a message with an id and a method) gets exactly one
//! answer of a valid JSON-RPC shape, a line that is no request object gets one error with
//! id null, nothing else is ever written to stdout, the server does not panic, its peak
//! resident memory stays under 1 GiB, and it still answers a ping at the end. Only
//! stable Rust is needed (no cargo-fuzz):
//!
//! `cargo run --release --example mcp_fuzz -- target/<host>/release/agentread [SECONDS] [SEED]`
//!
//! The messages are built from valid `tools/call` (heavy ones too: PDFs, a notebook, a
//! large image, outlines of deep and large sources, directory maps, `paths`),
//! `tools/list`, `ping` and other requests, notifications (cancellations among them) and
//! responses, then mutated at the JSON level (a value replaced by a random one: huge
//! strings and numbers, deep nesting, wrong types, hostile paths) or at the byte level
//! (bytes flipped, cut, repeated). The harness works out what each line must get by the
//! rules of JSON-RPC (SPEC §12), and sends them as fast as the server takes them (its
//! answers are read on another thread), so that its backpressure and concurrent calls
//! are exercised too.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

/// What a line sent must get.
#[derive(Debug, Clone, PartialEq)]
enum Expect {
    /// Exactly one answer with this id.
    Answer(Value),
    /// Zero or one answer with this id (a request the client cancelled, or one that may
    /// legitimately stay open).
    MaybeAnswer(Value),
    /// One error with id null.
    NullError,
    /// Nothing.
    Nothing,
}

/// The rules of SPEC §12, from the client's side: what a line must be answered with.
fn expect(line: &[u8]) -> Expect {
    let body = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if body.iter().all(u8::is_ascii_whitespace) {
        return Expect::Nothing;
    }
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        // Well-formed JSON that serde cannot hold (a lone surrogate, `1e400`) is answered
        // with the id it names, when it names one the server can take (as it does).
        let well_formed = serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok();
        return match well_formed.then(|| agentread::salvage_id(body)).flatten() {
            Some(id) => Expect::Answer(id),
            None => Expect::NullError,
        };
    };
    let Value::Object(object) = value else {
        return Expect::NullError;
    };
    let id = object.get("id");
    let echo = match id {
        Some(id @ (Value::Number(_) | Value::String(_))) => Some(id.clone()),
        _ => None,
    };
    match (object.get("method"), id) {
        // A notification (no id): never answered, unless its method is not a string
        // (an invalid request, answered with id null).
        (Some(Value::String(_)), None) => Expect::Nothing,
        (Some(_), None) => Expect::NullError,
        (Some(Value::String(method)), Some(_)) => match echo {
            Some(id) if method == "subscriptions/listen" => Expect::MaybeAnswer(id),
            Some(id) => Expect::Answer(id),
            None => Expect::NullError,
        },
        (Some(_), Some(_)) => echo.map_or(Expect::NullError, Expect::Answer),
        (None, _) if object.contains_key("result") || object.contains_key("error") => {
            Expect::Nothing
        }
        (None, _) => echo.map_or(Expect::NullError, Expect::Answer),
    }
}

/// How many answers an id must get.
struct Bounds {
    id: Value,
    least: u32,
    most: u32,
}

impl Bounds {
    fn none(id: Value) -> Bounds {
        Bounds {
            id,
            least: 0,
            most: 0,
        }
    }

    fn one(id: Value) -> Bounds {
        Bounds {
            id,
            least: 1,
            most: 1,
        }
    }
}

/// An id as the answer carries it: rmcp writes an integral number as an integer. A
/// number beyond an i64 (an invalid id, echoed in the error) is compared to 12 digits:
/// serde_json's parse of such a number and of its shortest form may differ in the last.
fn id_key(id: &Value) -> String {
    match id {
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => format!("n{i}"),
            (None, Some(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => format!("n{}", f as i64),
            (None, Some(f)) => format!("n{f:.11e}"),
            _ => format!("n{n}"),
        },
        Value::String(s) => format!("s{s}"),
        other => format!("?{other}"),
    }
}

/// The workspace the server reads: text, a directory, an image, a binary file, links.
fn workspace() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-fuzz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src/deep/er")).unwrap();
    let lines: String = (1..=3000)
        .map(|n| format!("line {n} of the file\n"))
        .collect();
    std::fs::write(dir.join("big.txt"), lines).unwrap();
    std::fs::write(dir.join("src/lib.rs"), "pub fn a() {}\n// é € 😀\n").unwrap();
    std::fs::write(dir.join("src/deep/er/x.py"), "def f():\n    return 1\n").unwrap();
    std::fs::write(dir.join("long-line.txt"), "x".repeat(300_000)).unwrap();
    std::fs::write(dir.join("crlf.txt"), "a\r\nb\r\n").unwrap();
    std::fs::write(dir.join("latin1.txt"), b"caf\xe9\n").unwrap();
    std::fs::write(dir.join("bin.dat"), b"\0\x01\x02binary").unwrap();
    std::fs::write(dir.join("empty.txt"), b"").unwrap();
    std::fs::write(dir.join("evil\u{202e}txt.rs"), "x\u{202e}y\n").unwrap();
    std::fs::write(dir.join("ctrl.txt"), "a\u{1b}[31mred\u{9b}\n").unwrap();
    // A 1x1 PNG.
    std::fs::write(
        dir.join("dot.png"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\xff\xff?\0\x05\xfe\x02\xfe\xa7\x35\x81\x84\0\0\0\0IEND\xaeB`\x82",
    )
    .unwrap();
    // Heavy kinds: documents, a large image, and source files whose outline is work.
    std::fs::write(
        dir.join("doc.pdf"),
        pdf(&b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET\n".repeat(200), 3),
    )
    .unwrap();
    std::fs::write(dir.join("numbers.pdf"), pdf(&b"0 ".repeat(1_000_000), 1)).unwrap();
    std::fs::write(
        dir.join("damaged.pdf"),
        b"%PDF-1.5\n1 0 obj << /Type /Catalog",
    )
    .unwrap();
    let cell = r#"{"cell_type":"code","metadata":{},"source":"def f():\n    return 1","outputs":[],"execution_count":1}"#;
    std::fs::write(
        dir.join("nb.ipynb"),
        format!(
            r#"{{"cells":[{}],"metadata":{{}},"nbformat":4,"nbformat_minor":5}}"#,
            vec![cell; 50].join(",")
        ),
    )
    .unwrap();
    image::RgbImage::from_fn(2000, 1500, |x, y| {
        image::Rgb([x as u8, y as u8, (x ^ y) as u8])
    })
    .save(dir.join("wide.png"))
    .unwrap();
    let mut deep = String::from("class C:\n    def f(self):\n");
    for level in 0..600 {
        deep.push_str(&" ".repeat(8 + level));
        deep.push_str("if True:\n");
    }
    deep.push_str(&" ".repeat(608));
    deep.push_str("pass\n");
    std::fs::write(dir.join("src/deep.py"), deep).unwrap();
    let body: String = (0..60_000)
        .map(|i| format!("    let x{i} = f(a, b + {i});\n"))
        .collect();
    std::fs::write(
        dir.join("src/one_fn.rs"),
        format!("fn main() {{\n{body}}}\n"),
    )
    .unwrap();
    let _ = std::os::unix::fs::symlink("big.txt", dir.join("link"));
    let _ = std::os::unix::fs::symlink("/etc/passwd", dir.join("out"));
    let _ = std::os::unix::fs::symlink("loop", dir.join("loop"));
    dir
}

/// A PDF of `pages` pages that all draw `content` (uncompressed).
fn pdf(content: &[u8], pages: usize) -> Vec<u8> {
    let kids = vec!["3 0 R"; pages].join(" ");
    let mut stream = format!("<< /Length {} >>\nstream\n", content.len()).into_bytes();
    stream.extend_from_slice(content);
    stream.extend_from_slice(b"\nendstream");
    let objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        format!("<< /Type /Pages /Kids [{kids}] /Count {pages} >>").into_bytes(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 4 0 R >> >> >>".to_vec(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
        stream,
    ];
    let mut out = b"%PDF-1.5\n".to_vec();
    let mut offsets = Vec::new();
    for (n, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", n + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

const PATHS: &[&str] = &[
    "big.txt",
    "src/lib.rs",
    "src",
    ".",
    "src/deep/er/x.py",
    "long-line.txt",
    "crlf.txt",
    "latin1.txt",
    "bin.dat",
    "empty.txt",
    "evil\u{202e}txt.rs",
    "ctrl.txt",
    "dot.png",
    "link",
    "out",
    "loop",
    "missing.txt",
    "src/lib.rs:1",
    "big.txt:10-20",
    "../etc/passwd",
    "/etc/passwd",
    "big.txt/",
    "bad\\xFF.txt",
    "-",
    "doc.pdf",
    "numbers.pdf",
    "damaged.pdf",
    "nb.ipynb",
    "wide.png",
    "src/deep.py",
    "src/one_fn.rs",
    "doc.pdf#page-2",
    "src/deep.py#C.f",
];

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 3 { 9 } else { 12 }) {
        0 => Value::Null,
        1 => json!(rng.chance(50)),
        2 => json!(rng.next() as i64),
        3 => json!(*rng.pick(&[0i64, -1, 1, 2000, 2001, i64::MAX, i64::MIN])),
        4 => json!(*rng.pick(&[1.5f64, -0.0, 1e308, 3.0])),
        5 => json!(*rng.pick(PATHS)),
        6 => json!("x".repeat(*rng.pick(&[0usize, 1, 4097, 70_000]))),
        7 => json!(u64::MAX),
        8 => json!("\u{202e}\u{0}\u{1b}[31m\u{ffff}"),
        9 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        10 => {
            let mut map = Map::new();
            for _ in 0..rng.below(4) {
                let key = rng.pick(&["path", "limit", "start_line", "tail", "x", "name"]);
                map.insert(key.to_string(), random_value(rng, depth + 1));
            }
            Value::Object(map)
        }
        _ => {
            // Deeply nested: past serde_json's limit of 128 levels sometimes.
            let levels = *rng.pick(&[10usize, 127, 200]);
            let mut v = json!(1);
            for _ in 0..levels {
                v = json!([v]);
            }
            v
        }
    }
}

fn read_arguments(rng: &mut Rng) -> Value {
    let mut args = Map::new();
    args.insert("path".into(), json!(*rng.pick(PATHS)));
    for (key, values) in [
        ("start_line", &[1i64, 2, 10, 2999, 3000, 3001, 0][..]),
        ("limit", &[1, 5, 500, 2000][..]),
        ("tail", &[1, 3, 2000][..]),
        ("start_char", &[1, 2, 100_000][..]),
    ] {
        if rng.chance(20) {
            args.insert(key.into(), json!(*rng.pick(values)));
        }
    }
    if rng.chance(10) {
        args.insert("hash".into(), json!(true));
    }
    // Heavy reads: outlines (of files and directories: maps), symbols, leaner views.
    if rng.chance(12) {
        args.insert("outline".into(), json!(true));
    }
    if rng.chance(5) {
        let symbol = *rng.pick(&["a", "f", "C.f", "main", "cell-2", "page-1", "nope"]);
        args.insert("symbol".into(), json!(symbol));
    }
    if rng.chance(4) {
        args.insert("signatures".into(), json!(true));
    }
    if rng.chance(4) {
        args.insert("fit".into(), json!(true));
    }
    if rng.chance(3) {
        args.insert("raw".into(), json!(true));
    }
    if rng.chance(3) {
        args.insert("enclosing".into(), json!(true));
    }
    if rng.chance(5) {
        let many: Vec<&str> = (0..=rng.below(6)).map(|_| *rng.pick(PATHS)).collect();
        args.remove("path");
        args.insert("paths".into(), json!(many));
    }
    Value::Object(args)
}

/// A valid message of some kind, before mutation.
fn template(rng: &mut Rng, id: u64, outstanding: &[Value]) -> Value {
    let id = match rng.below(10) {
        0 => json!(format!("s-{id}")),
        _ => json!(id),
    };
    match rng.below(20) {
        0..=10 => json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
            "params":{"name":"read","arguments":read_arguments(rng)}}),
        11 => json!({"jsonrpc":"2.0","id":id,"method":"tools/list"}),
        12 => json!({"jsonrpc":"2.0","id":id,"method":"ping"}),
        13 => json!({"jsonrpc":"2.0","id":id,"method":rng.pick(&[
            "prompts/list","resources/list","resources/read","logging/setLevel",
            "completion/complete","initialize","no/such","tasks/get","skills/list"])}),
        14 if !outstanding.is_empty() => json!({"jsonrpc":"2.0","method":"notifications/cancelled",
            "params":{"requestId": rng.pick(outstanding).clone(), "reason":"fuzz"}}),
        15 => json!({"jsonrpc":"2.0","method":"notifications/roots/list_changed"}),
        16 => json!({"jsonrpc":"2.0","id":id,"result":{}}),
        17 => json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
            "params":{"name":rng.pick(&["read","nope"]),"arguments":read_arguments(rng),
                "_meta":{"progressToken":1}}}),
        _ => json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
            "params":{"name":"read","arguments":{"path":"big.txt","start_line":rng.below(3000)+1,"limit":5}}}),
    }
}

/// Replaces one value somewhere in `v` by a random one (or removes a key).
fn mutate_value(rng: &mut Rng, v: &mut Value, depth: usize) {
    match v {
        Value::Object(map) if !map.is_empty() && depth < 4 => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = rng.pick(&keys).clone();
            match rng.below(6) {
                0 => {
                    map.remove(&key);
                }
                1 => {
                    map.insert(key, random_value(rng, depth));
                }
                _ => mutate_value(rng, map.get_mut(&key).unwrap(), depth + 1),
            }
        }
        Value::Array(items) if !items.is_empty() && depth < 4 => {
            let at = rng.below(items.len());
            mutate_value(rng, &mut items[at], depth + 1);
        }
        other => *other = random_value(rng, depth),
    }
}

/// Byte-level damage: flip, cut, repeat or splice in bytes (never a newline).
fn mutate_bytes(rng: &mut Rng, line: &mut Vec<u8>) {
    if line.is_empty() {
        return;
    }
    match rng.below(5) {
        0 => {
            let at = rng.below(line.len());
            line[at] ^= 1 << rng.below(8);
        }
        1 => line.truncate(rng.below(line.len())),
        2 => {
            let at = rng.below(line.len());
            let to = (at + rng.below(16)).min(line.len());
            let piece = line[at..to].to_vec();
            line.splice(at..at, piece);
        }
        3 => {
            let at = rng.below(line.len());
            let junk: Vec<u8> = (0..rng.below(8)).map(|_| rng.next() as u8).collect();
            line.splice(at..at, junk);
        }
        _ => {
            let at = rng.below(line.len());
            const TOKENS: [&[u8]; 8] = [b"{", b"}", b"[", b"]", b"\"", b",", b":", b"\\"];
            let token = *rng.pick(&TOKENS);
            line.splice(at..at, token.iter().copied());
        }
    }
    for b in line.iter_mut() {
        if *b == b'\n' {
            *b = b' ';
        }
    }
}

/// One line to send.
fn message(rng: &mut Rng, id: u64, outstanding: &[Value]) -> Vec<u8> {
    let mut value = template(rng, id, outstanding);
    if rng.chance(35) {
        for _ in 0..=rng.below(3) {
            mutate_value(rng, &mut value, 0);
        }
    }
    let mut line = serde_json::to_vec(&value).unwrap();
    if rng.chance(12) {
        mutate_bytes(rng, &mut line);
    }
    if rng.chance(2) {
        line = (0..rng.below(64)).map(|_| rng.next() as u8).collect();
        line.retain(|&b| b != b'\n');
    }
    if rng.chance(2) {
        line.splice(0..0, *b"\xEF\xBB\xBF");
    }
    if rng.chance(3) {
        line.push(b'\r');
    }
    line
}

/// What the answers told, gathered on the reading thread.
#[derive(Default)]
struct Seen {
    answers: HashMap<String, u32>,
    null_errors: u64,
    total: u64,
    /// Lines that are not a JSON-RPC answer of a valid shape.
    bad: Vec<String>,
}

fn check_answer(line: &str, seen: &mut Seen) {
    seen.total += 1;
    let Ok(v) = serde_json::from_str::<Value>(line) else {
        seen.bad
            .push(format!("not JSON: {}", &line[..line.len().min(200)]));
        return;
    };
    let ok_shape = v["jsonrpc"] == "2.0"
        && v.get("id").is_some()
        && (v.get("result").is_some() != v.get("error").is_some())
        && v.get("error")
            .is_none_or(|e| e["code"].is_i64() && e["message"].is_string());
    if !ok_shape {
        seen.bad
            .push(format!("bad shape: {}", &line[..line.len().min(300)]));
        return;
    }
    if let Some(result) = v.get("result")
        && let Some(content) = result.get("content")
    {
        // A tool result: the text block and the envelope agree on the status.
        let is_error = result["isError"].as_bool();
        let status = result["structuredContent"]["status"].as_str();
        let consistent = match (is_error, status) {
            (Some(true), Some("error")) => true,
            (Some(false), Some(s)) => s != "error",
            // several targets: `results`, isError only when all failed
            (Some(_), None) => result["structuredContent"]["results"].is_array(),
            _ => false,
        };
        if !consistent || !content.is_array() {
            seen.bad.push(format!(
                "inconsistent result: {}",
                &line[..line.len().min(300)]
            ));
        }
    }
    match &v["id"] {
        Value::Null => seen.null_errors += 1,
        id => *seen.answers.entry(id_key(id)).or_default() += 1,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(binary) = args.first() else {
        eprintln!("usage: mcp_fuzz AGENTREAD_BIN [SECONDS] [SEED]");
        std::process::exit(2);
    };
    let seconds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0x5eed);
    let dir = workspace();
    let mut server = Command::new(binary)
        .args(["--mcp", "--root"])
        .arg(&dir)
        .current_dir(&dir)
        .env_remove("AGENTREAD_ROOT")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agentread starts");
    let pid = server.id();
    let mut input = server.stdin.take().unwrap();
    let stdout = server.stdout.take().unwrap();
    let mut stderr = server.stderr.take().unwrap();
    let stderr_text = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let seen = Arc::new(Mutex::new(Seen::default()));
    let (answered_tx, answered) = mpsc::channel::<()>();
    let _ = &answered;
    let reader = {
        let seen = seen.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else {
                    seen.lock().unwrap().bad.push("stdout is not UTF-8".into());
                    break;
                };
                check_answer(&line, &mut seen.lock().unwrap());
                let _ = answered_tx.send(());
            }
        })
    };

    writeln!(
        input,
        "{}",
        json!({"jsonrpc":"2.0","id":"init","method":"initialize","params":{
            "protocolVersion":"2025-06-18","capabilities":{},
            "clientInfo":{"name":"mcp_fuzz","version":"1"}}})
    )
    .unwrap();
    writeln!(
        input,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .unwrap();

    let mut rng = Rng(seed | 1);
    // Per id: the fewest and the most answers it must get. Each request sent gets one
    // (a second one with an id still unanswered is refused as a duplicate: one answer
    // too); a cancelled one may get none.
    let mut expected: HashMap<String, Bounds> = HashMap::new();
    expected.insert(id_key(&json!("init")), Bounds::one(json!("init")));
    let mut expected_null = 0u64;
    let mut sent = 0u64;
    let mut requests = 0u64;
    let mut recent: Vec<Value> = Vec::new();
    let started = Instant::now();
    let mut next_id = 1u64;
    let mut next_report = 10;
    // With MCP_FUZZ_TRACE set, the lines sent for each id are kept, to show a failure's.
    let trace = std::env::var_os("MCP_FUZZ_TRACE").is_some();
    let mut sent_lines: HashMap<String, Vec<String>> = HashMap::new();
    while started.elapsed() < Duration::from_secs(seconds) {
        let _ = answered.try_iter().count();
        let line = message(&mut rng, next_id, &recent);
        next_id += 1;
        match expect(&line) {
            Expect::Nothing => {}
            Expect::NullError => expected_null += 1,
            kind @ (Expect::Answer(_) | Expect::MaybeAnswer(_)) => {
                let (id, optional) = match kind {
                    Expect::Answer(id) => (id, false),
                    Expect::MaybeAnswer(id) => (id, true),
                    _ => unreachable!(),
                };
                let entry = expected
                    .entry(id_key(&id))
                    .or_insert(Bounds::none(id.clone()));
                entry.most += 1;
                if !optional {
                    entry.least += 1;
                }
                requests += 1;
                if trace {
                    sent_lines
                        .entry(id_key(&id))
                        .or_default()
                        .push(String::from_utf8_lossy(&line).into_owned());
                }
                recent.push(id);
                if recent.len() > 512 {
                    recent.drain(..256);
                }
            }
        }
        // A cancellation makes its request's answer optional.
        let body = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&line);
        if let Ok(v) = serde_json::from_slice::<Value>(body)
            && v["method"] == "notifications/cancelled"
            && v.get("id").is_none()
            && let Some(id) = v["params"].get("requestId")
            && let Some(entry) = expected.get_mut(&id_key(id))
        {
            entry.least = 0;
        }
        if input
            .write_all(&line)
            .and_then(|()| input.write_all(b"\n"))
            .is_err()
        {
            eprintln!("the server closed its input");
            break;
        }
        sent += 1;
        if started.elapsed() >= Duration::from_secs(next_report) {
            next_report += 60;
            let s = seen.lock().unwrap();
            eprintln!(
                "{:>5} s: {sent} lines sent, {requests} requests, {} answers, {} bad",
                started.elapsed().as_secs(),
                s.total,
                s.bad.len()
            );
        }
    }
    // The server still answers a ping, after everything before it.
    writeln!(
        input,
        r#"{{"jsonrpc":"2.0","id":"final-ping","method":"ping"}}"#
    )
    .unwrap();
    input.flush().unwrap();
    expected.insert(
        id_key(&json!("final-ping")),
        Bounds::one(json!("final-ping")),
    );
    // Wait until every answer that must come has come (or 60 s).
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let done = {
            let s = seen.lock().unwrap();
            s.null_errors >= expected_null
                && expected
                    .iter()
                    .all(|(key, bounds)| s.answers.get(key).copied().unwrap_or(0) >= bounds.least)
        };
        if done || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    // Late extra answers would show up now.
    std::thread::sleep(Duration::from_millis(500));
    let rss = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("VmRSS") || l.starts_with("VmHWM"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(", ");
    // The server's high-water mark of resident memory, in KiB.
    let peak_kib: u64 = rss
        .split(", ")
        .find_map(|field| field.strip_prefix("VmHWM: "))
        .and_then(|kib| kib.trim_end_matches(" kB").parse().ok())
        .unwrap_or(0);
    drop(input);
    let status = server.wait().unwrap();
    reader.join().unwrap();
    let stderr_text = stderr_text.join().unwrap();

    let s = seen.lock().unwrap();
    let mut failures: Vec<String> = s.bad.clone();
    for (key, bounds) in &expected {
        let got = s.answers.get(key).copied().unwrap_or(0);
        if got < bounds.least || got > bounds.most {
            failures.push(format!(
                "id {}: {got} answers, expected {}..={}{}",
                bounds.id,
                bounds.least,
                bounds.most,
                sent_lines
                    .get(key)
                    .map(|lines| format!(", sent: {}", lines.join(" | ")))
                    .unwrap_or_default()
            ));
        }
    }
    for key in s.answers.keys() {
        if !expected.contains_key(key) {
            failures.push(format!("an answer for id {key}, which was never sent"));
        }
    }
    if s.null_errors != expected_null {
        failures.push(format!(
            "{} errors with id null, expected {expected_null}",
            s.null_errors
        ));
    }
    if status.code() != Some(0) {
        failures.push(format!("the server exited with {status}"));
    }
    if peak_kib > 1 << 20 {
        failures.push(format!(
            "the server's peak RSS was {peak_kib} KiB, over 1 GiB"
        ));
    }
    if stderr_text.contains("panicked") {
        failures.push(format!("a panic: {stderr_text}"));
    }
    println!(
        "seed {seed}, {} s: {sent} lines sent, {requests} requests, {} answers ({} with id null, {expected_null} expected), final ping answered: {}, server {rss}, exit {status}, {} failures",
        started.elapsed().as_secs(),
        s.total,
        s.null_errors,
        s.answers
            .get(&id_key(&json!("final-ping")))
            .copied()
            .unwrap_or(0)
            == 1,
        failures.len()
    );
    for failure in failures.iter().take(20) {
        println!("  FAIL {failure}");
    }
    let _ = std::fs::remove_dir_all(Path::new(&dir));
    if !failures.is_empty() {
        std::process::exit(1);
    }
}
