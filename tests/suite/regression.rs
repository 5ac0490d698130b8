//! Regression tests, each named after what it guards: reads that blocked or read nothing,
//! quadratic lookups, unbounded memory, hostile names, JSON-RPC answers and races.
//! Where a test guards against a hang or a slow path it asserts on the result and
//! keeps a generous wall-clock limit only as a guard against hanging the suite.
//!
//! Its few helpers are at the end; the MCP server driven by hand is `common::Server`,
//! shared with the MCP tests.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Server, Workspace};

/// Wall-clock guard for the tests of slow paths: far above what they take.
const HANG_GUARD: Duration = Duration::from_secs(5);

fn bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_agentread"))
}

/// Runs agentread in `ws` with `args`; fails if it runs longer than `limit`.
fn run_within(ws: &Workspace, args: &[&std::ffi::OsStr], limit: Duration) -> std::process::Output {
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(ws.path())
        .env_remove("AGENTREAD_ROOT")
        .env_remove("AGENTREAD_DENY")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Drained as the child writes: a full pipe would stop it.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).unwrap();
            bytes
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("agentread {args:?} still ran after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    std::process::Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn run_str_within(ws: &Workspace, args: &[&str], limit: Duration) -> std::process::Output {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    run_within(ws, &args, limit)
}

// ---------------------------------------------------------------------------------------
// The MCP server, driven with JSON-RPC lines written by hand

// ---------------------------------------------------------------------------------------
// 1, 2: files that stat calls regular and empty, or whose read would block

/// `/proc/kmsg` is a regular file by stat whose read blocks once the kernel's messages
/// are read: it is NOT_FILE at once. (It needs root; reading it takes the messages it
/// holds, as any reader of it does.)
#[test]
fn a_file_whose_read_would_block_is_not_file_at_once() {
    if !rustix::process::geteuid().is_root() || !Path::new("/proc/kmsg").exists() {
        return;
    }
    let ws = Workspace::new();
    for _ in 0..2 {
        let out = run_str_within(&ws, &["--root", "/", "proc/kmsg", "-f", "json"], HANG_GUARD);
        let v = &json_lines(&out)[0];
        assert_eq!(code(&out), 6, "{v}");
        assert_eq!(v["error"]["code"], "NOT_FILE");
        assert_eq!(
            v["error"]["message"],
            "'proc/kmsg' cannot be read without blocking (a kernel or device interface, not a regular file); it was not read."
        );
    }
}

/// `/proc/self/status` has a size of 0 and content: it is read to its end.
#[test]
fn proc_files_of_size_zero_are_read_to_their_end() {
    let ws = Workspace::new();
    let out = run_str_within(&ws, &["--root", "/proc", "self/status"], HANG_GUARD);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("   1 | Name:\tagentread\n"), "{text}");
    assert!(!text.contains("(file is empty)"));

    let v = &json_lines(&run_str_within(
        &ws,
        &["--root", "/proc", "self/status", "-f", "json", "--hash"],
        HANG_GUARD,
    ))[0];
    assert_eq!(v["status"], "success", "{v}");
    let total = v["stats"]["total_lines"].as_u64().unwrap();
    assert!(total > 10, "{v}");
    assert_eq!(v["stats"]["lines_read"], total);
    assert_eq!(v["stats"]["content_hash"].as_str().unwrap().len(), 64);

    // The tail is the file's last lines, numbered as such.
    let v = &json_lines(&run_str_within(
        &ws,
        &[
            "--root",
            "/proc",
            "self/status",
            "-f",
            "json",
            "--tail",
            "2",
        ],
        HANG_GUARD,
    ))[0];
    assert_eq!(v["status"], "success", "{v}");
    let total = v["stats"]["total_lines"].as_u64().unwrap();
    assert!(total > 10);
    assert_eq!(v["data"]["start_line"], total - 1);
    assert_eq!(v["data"]["end_line"], total);

    // --max-file-size is enforced while reading, as for standard input.
    let out = run_str_within(
        &ws,
        &["--root", "/proc", "self/status", "--max-file-size", "10"],
        HANG_GUARD,
    );
    assert_eq!(code(&out), 8, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("SIZE_LIMIT_EXCEEDED"),
        "{}",
        stderr(&out)
    );
}

// ---------------------------------------------------------------------------------------
// 3: backpressure

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap_or(0)
}

/// `agentread --mcp` in `ws`, initialized, with its standard input and output to drive
/// by hand (a client that may stop reading).
fn initialized_server(
    ws: &Workspace,
) -> (
    std::process::Child,
    std::process::ChildStdin,
    std::process::ChildStdout,
) {
    let mut child = Command::new(bin())
        .arg("--mcp")
        .current_dir(ws.path())
        .env_remove("AGENTREAD_ROOT")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"r","version":"1"}}}"#;
    writeln!(stdin, "{init}").unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .unwrap();
    (child, stdin, stdout)
}

/// A client that sends calls and never reads the answers: the server stops reading once
/// 64 calls are in flight (and 64 more read ahead), instead of growing.
#[test]
fn a_client_that_never_reads_answers_makes_the_server_stop_reading() {
    const CALLS: u64 = 2000;
    let ws = Workspace::new();
    // Answers of some 6 KB each, so that a few fill the pipe: no larger, since every call
    // is answered in the end.
    let text: String = (1..=100)
        .map(|n| format!("line {n:05} of the file\n"))
        .collect();
    ws.file("big.txt", &text);
    let (mut child, mut stdin, stdout) = initialized_server(&ws);
    // Writes on another thread: once the server stops reading, the writes block.
    let (tx, written) = mpsc::channel();
    let writer = std::thread::spawn(move || {
        for id in 1..=CALLS {
            let line = format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"read\",\"arguments\":{{\"path\":\"big.txt\"}}}}}}\n"
            );
            if stdin.write_all(line.as_bytes()).is_err() {
                break;
            }
            let _ = tx.send(id);
        }
    });
    // Wait until the writes stop going through: none for 700 ms, looked at every 50 ms.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut sent = 0;
    let mut moved = Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(50));
        let now = written.try_iter().last().unwrap_or(sent);
        if now != sent {
            moved = Instant::now();
        }
        sent = now;
        if (sent > 0 && moved.elapsed() >= Duration::from_millis(700))
            || sent == CALLS
            || Instant::now() > deadline
        {
            break;
        }
    }
    let rss = rss_kib(child.id());
    // 64 in flight, 64 read ahead, and what the pipe and the buffer before the server
    // hold (64 KiB + 8 KiB, some 500 calls of 140 bytes): far from all of them.
    assert!(
        (64..1000).contains(&sent),
        "the server took {sent} calls of {CALLS} without any answer being read"
    );
    assert!(rss < 64 * 1024, "RSS {rss} KiB");
    // Reading the answers lets the server go on, and every call is answered once.
    let reader = std::thread::spawn(move || {
        let mut ids = Vec::new();
        for line in BufReader::new(stdout).lines() {
            let v: Value = serde_json::from_str(&line.unwrap()).unwrap();
            if v["id"] != 0 {
                assert_eq!(v["result"]["isError"], false, "{v}");
            }
            ids.push(v["id"].as_u64().unwrap());
            if ids.len() as u64 == CALLS + 1 {
                break;
            }
        }
        ids
    });
    writer.join().unwrap();
    let mut ids = reader.join().unwrap();
    ids.sort_unstable();
    assert_eq!(ids, (0..=CALLS).collect::<Vec<u64>>());
    let _ = child.kill();
    let _ = child.wait();
}

/// A client that asks for images and never reads the answers: heavy reads wait while the
/// answers not yet written pass 128 MiB, so 64 calls in flight of 12 MiB of images each
/// do not make the server hold them all (1.6 GB with 20 MiB each before); read, every
/// call is answered.
#[test]
fn unread_image_answers_do_not_pile_up() {
    const CALLS: u64 = 64;
    let ws = Workspace::new();
    // A 640x480 PNG header, padded to 3 MiB: sent as it is, 4 MiB of base64.
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend(640u32.to_be_bytes());
    png.extend(480u32.to_be_bytes());
    png.extend(b"\x08\x06\0\0\0\0\0\0\0\0\0\0\0IEND\xaeB`\x82");
    png.resize(3 << 20, 0);
    ws.file("p.png", &png);
    let (mut child, mut stdin, stdout) = initialized_server(&ws);
    for id in 1..=CALLS {
        writeln!(
            stdin,
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"read\",\"arguments\":{{\"paths\":[\"p.png\",\"p.png\",\"p.png\"]}}}}}}"
        )
        .unwrap();
    }
    stdin.flush().unwrap();
    // Long enough for every call to have been answered, were nothing holding them back.
    std::thread::sleep(Duration::from_secs(4));
    let peak = peak_kib(child.id());
    assert!(peak < 400 * 1024, "peak RSS {peak} KiB");
    let reader = std::thread::spawn(move || {
        let mut ids = Vec::new();
        for line in BufReader::new(stdout).lines() {
            // The id only, not 12 MiB of JSON parsed for each answer.
            let line = line.unwrap();
            let at = line.find("\"id\":").unwrap() + 5;
            let digits: String = line[at..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            ids.push(digits.parse::<u64>().unwrap());
            if ids.len() as u64 == CALLS + 1 {
                break;
            }
        }
        ids
    });
    let mut ids = reader.join().unwrap();
    ids.sort_unstable();
    assert_eq!(ids, (0..=CALLS).collect::<Vec<u64>>());
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
}

/// The peak resident memory of process `pid` (`VmHWM`), in KiB.
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap()
}

// ---------------------------------------------------------------------------------------
// 4: the client's roots fail closed

fn roots_answer(id: &Value, roots: Value) -> String {
    json!({"jsonrpc":"2.0","id":id,"result":{"roots":roots}}).to_string()
}

/// Sends a read, answers the server's `roots/list` with `roots`, and returns the read's
/// answer.
fn read_with_roots(server: &mut Server, id: u64, path: &str, roots: Value) -> Value {
    server.read_call(id, json!({"path": path}));
    let asked = server.receive();
    assert_eq!(asked["method"], "roots/list", "{asked}");
    server.send(&roots_answer(&asked["id"], roots));
    server.receive()
}

fn denied_message(v: &Value) -> String {
    assert_eq!(v["result"]["isError"], true, "{v}");
    let error = &v["result"]["structuredContent"]["error"];
    assert_eq!(error["code"], "ACCESS_DENIED", "{v}");
    error["message"].as_str().unwrap().to_string()
}

#[test]
fn a_client_whose_roots_give_no_usable_directory_is_refused_not_served_our_directory() {
    let ws = Workspace::new();
    ws.file("here.txt", "the server's directory\n");
    let elsewhere = Workspace::new();
    elsewhere.file("there.txt", "the client's root\n");
    let caps = json!({"roots": {"listChanged": true}});
    let missing = format!("file://{}/missing", elsewhere.path().display());
    let file_root = format!("file://{}/there.txt", elsewhere.path().display());
    for (roots, why) in [
        (json!([]), "it lists no roots"),
        (
            json!([{"uri": missing}]),
            "its one root is not an existing directory named by a file:// URI",
        ),
        (
            json!([{"uri": "https://example.com/repo"}, {"uri": file_root}]),
            "none of its 2 roots is an existing directory named by a file:// URI",
        ),
    ] {
        let mut server = Server::start(ws.path(), &[], caps.clone());
        let v = read_with_roots(&mut server, 1, "here.txt", roots);
        assert_eq!(
            denied_message(&v),
            format!(
                "The client's roots give no usable directory ({why}); the server does not fall back to its own directory. Start it with --root DIR."
            )
        );
        // Every read is refused, without asking again...
        server.read_call(2, json!({"path": "here.txt"}));
        denied_message(&server.receive());
        // ...until the client says its roots changed.
        server.send(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#);
        let root = format!("file://{}", elsewhere.path().display());
        let v = read_with_roots(&mut server, 3, "there.txt", json!([{"uri": root}]));
        assert_eq!(
            v["result"]["content"][0]["text"], "   1 | the client's root\n",
            "{v}"
        );
        server.finish();
    }
    // A client without the roots capability is served the current directory.
    let mut server = Server::start(ws.path(), &[], json!({}));
    server.read_call(1, json!({"path": "here.txt"}));
    let v = server.receive();
    assert_eq!(
        v["result"]["content"][0]["text"],
        "   1 | the server's directory\n"
    );
    server.finish();
}

/// Many calls sent before the client's answer to `roots/list`: the answer is still
/// read (the server reads on past calls it cannot start yet), so the calls are served.
#[test]
fn the_roots_answer_behind_many_calls_is_still_read() {
    let ws = Workspace::new();
    ws.file("a.txt", "a\n");
    let mut server = Server::start(ws.path(), &[], json!({"roots": {}}));
    for id in 1..=100 {
        server.read_call(id, json!({"path": "a.txt"}));
    }
    let asked = server.receive();
    assert_eq!(asked["method"], "roots/list", "{asked}");
    let root = format!("file://{}", ws.path().display());
    server.send(&roots_answer(&asked["id"], json!([{"uri": root}])));
    let mut ids = Vec::new();
    for _ in 1..=100 {
        let v = server.receive();
        assert_eq!(v["result"]["isError"], false, "{v}");
        ids.push(v["id"].as_u64().unwrap());
    }
    ids.sort_unstable();
    assert_eq!(ids, (1..=100).collect::<Vec<_>>());
    server.finish();
}

// ---------------------------------------------------------------------------------------
// 5: hostile lengths and "did you mean"

#[test]
fn a_path_over_4096_bytes_is_invalid_param_before_any_lookup() {
    let ws = Workspace::new();
    ws.file("a.txt", "a\n");
    let long = "x/".repeat(2500);
    let out = run_str_within(&ws, &[&long], HANG_GUARD);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "agentread: INVALID_PARAM: The path is 5000 bytes long; at most 4096 bytes are accepted.\n"
    );
    // 4096 bytes are still a path (here one that does not exist).
    let most = format!("{}a.txt", "./".repeat(2045));
    assert_eq!(most.len(), 4095);
    let out = run_str_within(&ws, &[&most], HANG_GUARD);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// A 4,000-byte missing name among 20,000 long names: the name is compared with none of
/// them, and a near miss among them is still found.
#[test]
fn did_you_mean_among_twenty_thousand_long_names_is_quick() {
    let ws = Workspace::in_memory();
    let dir = ws.mkdir("many");
    let stem = "n".repeat(200);
    for i in 0..20_000 {
        std::fs::File::create(dir.join(format!("{stem}{i:05}"))).unwrap();
    }
    let missing = format!("many/{}", "q".repeat(4000));
    let out = run_str_within(&ws, &[&missing, "-f", "json"], HANG_GUARD);
    assert_eq!(code(&out), 3);
    let v = &json_lines(&out)[0];
    assert_eq!(v["error"]["suggestions"], json!([]));

    // One edit from an existing name: offered.
    let near = format!("many/{stem}1234");
    let out = run_str_within(&ws, &[&near, "-f", "json"], HANG_GUARD);
    assert_eq!(code(&out), 3);
    let v = &json_lines(&out)[0];
    let suggestions = v["error"]["suggestions"].as_array().unwrap();
    assert!(
        suggestions.contains(&json!(format!("many/{stem}12345")))
            || suggestions.contains(&json!(format!("many/{stem}01234"))),
        "{suggestions:?}"
    );
}

/// A missing file at the bottom of 2,000 nested directories: the search does not walk
/// the path again from the root at every step.
#[test]
fn did_you_mean_for_a_path_two_thousand_directories_deep_is_quick() {
    let ws = Workspace::in_memory();
    let deep = "d/".repeat(2000);
    std::fs::create_dir_all(ws.path().join(&deep)).unwrap();
    std::fs::write(ws.path().join(&deep).join("file.txt"), "x\n").unwrap();
    let missing = format!("{deep}fiel.txt");
    let out = run_str_within(&ws, &[&missing], HANG_GUARD);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert!(stderr(&out).starts_with("agentread: NOT_FOUND: File '"));
    let out = run_str_within(&ws, &[&format!("{deep}file.txt")], HANG_GUARD);
    assert_eq!(stdout(&out), "   1 | x\n");
}

#[test]
fn a_4_mib_path_through_mcp_is_invalid_param_at_once() {
    let ws = Workspace::new();
    ws.file("a.txt", "a\n");
    let mut server = Server::start(ws.path(), &[], json!({}));
    let started = Instant::now();
    server.read_call(1, json!({"path": "p".repeat(4 << 20)}));
    let v = server.receive();
    assert_eq!(v["id"], 1);
    let error = &v["result"]["structuredContent"]["error"];
    assert_eq!(error["code"], "INVALID_PARAM", "{error}");
    assert_eq!(
        error["message"],
        "The path is 4194304 bytes long; at most 4096 bytes are accepted."
    );
    assert!(started.elapsed() < HANG_GUARD);
    server.finish();
}

// ---------------------------------------------------------------------------------------
// 6: a page of a listing

#[test]
fn a_listing_page_is_numbered_from_its_start_and_counts_every_entry() {
    let ws = Workspace::new();
    for i in 0..50 {
        ws.file(&format!("f{i:02}.txt"), "x");
    }
    std::fs::write(
        ws.path().join(std::ffi::OsStr::from_bytes(b"bad\xff.txt")),
        "x",
    )
    .unwrap();
    let v = &json_lines(&run_str_within(
        &ws,
        &[".", "-s", "48", "-n", "3", "-f", "json"],
        HANG_GUARD,
    ))[0];
    assert_eq!(
        v["data"]["entries"],
        json!(["f46.txt", "f47.txt", "f48.txt"])
    );
    assert_eq!(v["stats"]["total_lines"], 51);
    assert_eq!(v["data"]["start_line"], 48);
    assert_eq!(v["data"]["next_start_line"], 51);
    let v = &json_lines(&run_str_within(
        &ws,
        &[".", "-n", "1", "-f", "json"],
        HANG_GUARD,
    ))[0];
    assert_eq!(v["data"]["entries"], json!(["bad\\xFF.txt"]));
}

// ---------------------------------------------------------------------------------------
// 7: no line is held whole

/// The peak resident memory of a running process, in KiB (`VmHWM`).
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status")
}

#[test]
fn a_line_longer_than_the_byte_budget_is_cut_at_it_and_never_held_whole() {
    let ws = Workspace::in_memory();
    let path = ws.path().join("one-line.txt");
    let mut file = std::fs::File::create(&path).unwrap();
    let chunk = "é".repeat(1 << 19); // 1 MiB of two-byte characters
    for _ in 0..64 {
        file.write_all(chunk.as_bytes()).unwrap();
    }
    file.write_all(b"\nsecond\n").unwrap();
    drop(file);
    let chars = 64u64 << 19;
    // The default budget (51200 bytes, less the number: 25596 two-byte characters), or
    // --max-line-chars when the budget is larger (100,000 characters, 200 KB; counting the
    // tokens of what is shown is most of the run, so no more): the line is cut at the
    // smaller bound, its second line then shown too.
    for (max_bytes, shown, end_line) in [("51200", 25596u64, 1), ("100000000", 100_000, 2)] {
        let mut child = Command::new(bin())
            .arg(&path)
            .arg("--root")
            .arg(ws.path())
            .args(["-f", "json", "--max-line-chars", "100000"])
            .args(["--max-bytes", max_bytes])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        // A 4 KiB pipe: the answer (over 50 KB) keeps agentread alive, its window already
        // read, until the output is drained, so its own high-water mark can be read from
        // /proc (`ru_maxrss` from wait4 also counts pages a spawn inherited).
        // SAFETY: F_SETPIPE_SZ on a pipe descriptor this process owns.
        unsafe {
            libc::fcntl(
                std::os::fd::AsRawFd::as_raw_fd(&stdout),
                libc::F_SETPIPE_SZ,
                4096,
            )
        };
        let mut first = [0u8; 1];
        stdout.read_exact(&mut first).unwrap();
        let peak = peak_rss_kib(child.id());
        let mut out = String::from_utf8(first.to_vec()).unwrap();
        stdout.read_to_string(&mut out).unwrap();
        assert!(child.wait().unwrap().success());
        let v: Value = serde_json::from_str(out.trim()).unwrap();
        let first = v["data"]["content"]
            .as_str()
            .unwrap()
            .lines()
            .next()
            .unwrap();
        assert!(
            first.len() as u64 <= 2 * shown + 64,
            "{} bytes",
            first.len()
        );
        assert!(first.ends_with(&format!(" … [+{} chars]", chars - shown)));
        assert_eq!(v["data"]["next_start_char"], shown + 1);
        assert_eq!(v["data"]["end_line"], end_line);
        assert_eq!(v["stats"]["total_lines"], 2);
        assert!(
            peak < 48 * 1024,
            "peak RSS {peak} KiB reading a 64 MiB line with --max-bytes {max_bytes}"
        );
    }
}

/// `--all` streams: a 64 MiB line and 200,000 lines after it are written as they are
/// read, whole, while agentread's own peak memory stays flat; a reader that stops early
/// ends the run quietly.
#[test]
fn all_streams_a_64_mib_line_and_200_000_lines_in_flat_memory() {
    let ws = Workspace::in_memory();
    let path = ws.path().join("big.txt");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let chunk = "é".repeat(1 << 19); // 1 MiB of two-byte characters
    for _ in 0..64 {
        file.write_all(chunk.as_bytes()).unwrap();
    }
    file.write_all(b"\n").unwrap();
    for n in 2..=200_001u32 {
        writeln!(file, "line {n}").unwrap();
    }
    drop(file);
    let spawn = || {
        Command::new(bin())
            .arg(&path)
            .arg("--root")
            .arg(ws.path())
            .arg("--all")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut child = spawn();
    let mut stdout = child.stdout.take().unwrap();
    // SAFETY: F_SETPIPE_SZ on a pipe descriptor this process owns.
    unsafe {
        libc::fcntl(
            std::os::fd::AsRawFd::as_raw_fd(&stdout),
            libc::F_SETPIPE_SZ,
            4096,
        )
    };
    // Past the long line and most of the short ones, agentread is still alive, held by
    // the small pipe: its high-water mark covers the whole long line.
    let mut head = vec![0u8; (64 << 20) + 7 + 1_500_000];
    stdout.read_exact(&mut head).unwrap();
    let peak = peak_rss_kib(child.id());
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(
        peak < 48 * 1024,
        "peak RSS {peak} KiB streaming a 64 MiB line with --all"
    );
    let prefix = b"   1 | ";
    assert_eq!(&head[..prefix.len()], prefix);
    let line_end = prefix.len() + (64 << 20);
    // Compared a MiB at a time: two bytes at a time took most of the test's time.
    assert!(
        head[prefix.len()..line_end]
            .chunks(1 << 20)
            .all(|c| c == chunk.as_bytes())
    );
    assert_eq!(head[line_end], b'\n');
    head.extend_from_slice(&rest);
    let after = std::str::from_utf8(&head[line_end + 1..]).unwrap();
    assert_eq!(after.lines().count(), 200_000);
    assert!(after.starts_with("   2 | line 2\n"));
    assert!(after.ends_with("200001 | line 200001\n"));
    // A reader that stops early: exit 0, nothing on stderr.
    let mut child = spawn();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

// ---------------------------------------------------------------------------------------
// 8: C1 and bidirectional controls

const TROJAN: &str = "evil\u{202e}txt.rs";

#[test]
fn bidi_and_c1_controls_in_names_are_named_in_text_mode() {
    let ws = Workspace::new();
    ws.file(TROJAN, "x\n");
    ws.file("c1\u{9b}31m.txt", "y\n");
    let out = run_str_within(&ws, &["."], HANG_GUARD);
    assert_eq!(
        stdout(&out),
        "   1 | c1<U+009B>31m.txt\n   2 | evil<U+202E>txt.rs\n"
    );
    let out = run_str_within(&ws, &[TROJAN, "c1\u{9b}31m.txt"], HANG_GUARD);
    assert_eq!(
        stdout(&out),
        "==> evil<U+202E>txt.rs <==\n   1 | x\n\n==> c1<U+009B>31m.txt <==\n   1 | y\n"
    );
    let out = run_str_within(&ws, &["evil\u{202e}txt.r"], HANG_GUARD);
    assert_eq!(
        stderr(&out),
        "agentread: NOT_FOUND: File 'evil<U+202E>txt.r' does not exist.\nDid you mean one of these?\n  evil<U+202E>txt.rs\n"
    );
}

#[test]
fn json_escapes_bidi_and_c1_controls_in_names_and_content() {
    let ws = Workspace::new();
    ws.file(TROJAN, "if (admin\u{202e} \u{2066}) {\u{85}\n");
    let out = run_str_within(&ws, &[TROJAN, "-f", "json"], HANG_GUARD);
    let raw = stdout(&out);
    for c in ['\u{202e}', '\u{2066}', '\u{85}'] {
        assert!(!raw.contains(c), "raw {c:?} in {raw}");
    }
    assert!(raw.contains(r"evil\u202etxt.rs"), "{raw}");
    assert!(raw.contains(r"admin\u202e \u2066) {\u0085"), "{raw}");
    let v = &json_lines(&out)[0];
    assert_eq!(v["data"]["path"], TROJAN);
    assert_eq!(
        v["data"]["content"],
        "   1 | if (admin\u{202e} \u{2066}) {\u{85}\n"
    );
    // Off a terminal, text mode keeps the content byte for byte.
    let out = run_str_within(&ws, &[TROJAN], HANG_GUARD);
    assert_eq!(stdout(&out), "   1 | if (admin\u{202e} \u{2066}) {\u{85}\n");
}

#[test]
fn xml_writes_c1_and_bidi_controls_as_character_references() {
    let ws = Workspace::new();
    ws.file(TROJAN, "a\u{9b}b\u{202e}c\n");
    let out = run_str_within(&ws, &[TROJAN, "-f", "xml"], HANG_GUARD);
    let xml = stdout(&out);
    assert!(
        !xml.contains('\u{9b}') && !xml.contains('\u{202e}'),
        "{xml}"
    );
    assert!(xml.contains("a&#x9B;b&#x202E;c"), "{xml}");
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let content = doc
        .descendants()
        .find(|n| n.has_tag_name("content"))
        .and_then(|n| n.text())
        .unwrap();
    assert_eq!(content, "\n   1 | a\u{9b}b\u{202e}c\n");
    let path = doc.descendants().find(|n| n.has_tag_name("path")).unwrap();
    assert_eq!(path.text(), Some(TROJAN));
}

/// The server's answers in JSON escape the bidirectional controls too.
#[test]
fn mcp_answers_escape_bidi_and_c1_controls() {
    let ws = Workspace::new();
    ws.file(TROJAN, "x\u{202e}y\u{9b}\n");
    let mut server = Server::spawn(ws.path(), &[]);
    server.send(
        &json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
            "protocolVersion":"2025-06-18","capabilities":{},
            "clientInfo":{"name":"regression","version":"1"}}})
        .to_string(),
    );
    let _ = server.receive_line_within(HANG_GUARD);
    server.read_call(1, json!({"path": TROJAN}));
    let line = server.receive_line_within(HANG_GUARD);
    assert!(
        !line.contains('\u{202e}') && !line.contains('\u{9b}'),
        "{line}"
    );
    let v: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(
        v["result"]["content"][0]["text"],
        "   1 | x\u{202e}y\u{9b}\n"
    );
    assert_eq!(v["result"]["structuredContent"]["data"]["path"], TROJAN);
    server.finish();
}

// ---------------------------------------------------------------------------------------
// 9: JSON-RPC answers

/// The error code of an answer (null for a result).
fn error_code(v: &Value) -> Value {
    v["error"]["code"].clone()
}

/// Every request gets one answer with JSON-RPC's code for what is wrong with it.
#[test]
fn every_malformed_request_gets_the_right_json_rpc_error() {
    let ws = Workspace::new();
    ws.file("a.txt", "a\n");
    let mut server = Server::start(ws.path(), &[], json!({}));
    let cases: &[(&str, Value, i64)] = &[
        ("this is not JSON", Value::Null, -32700),
        (r#"{"jsonrpc":"2.0","id":1,"#, Value::Null, -32700),
        ("[1,2]", Value::Null, -32600),
        ("42", Value::Null, -32600),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":[1,2]}"#,
            json!(2),
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}"#,
            json!(3),
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read","arguments":[1]}}"#,
            json!(4),
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":"x"}"#,
            json!(5),
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call"}"#,
            json!(6),
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":7,"method":"no/such/method"}"#,
            json!(7),
            -32601,
        ),
        (r#"{"jsonrpc":"2.0","id":8,"method":5}"#, json!(8), -32600),
        (r#"{"jsonrpc":"2.0","id":9}"#, json!(9), -32600),
        (r#"{"id":10,"method":"ping"}"#, json!(10), -32600),
        (
            r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
            Value::Null,
            -32600,
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            Value::Null,
            -32600,
        ),
        (
            r#"{"jsonrpc":"2.0","id":"s-11","method":"prompts/get","params":[]}"#,
            json!("s-11"),
            -32602,
        ),
    ];
    for (line, id, code) in cases {
        server.send(line);
        let v = server.receive();
        assert_eq!(
            (&v["id"], error_code(&v)),
            (id, json!(code)),
            "{line} -> {v}"
        );
        assert!(v.get("result").is_none());
    }
    // Well-formed requests are still served, with params or without.
    for (id, line) in [
        (20, r#"{"jsonrpc":"2.0","id":20,"method":"ping"}"#),
        (
            21,
            r#"{"jsonrpc":"2.0","id":21,"method":"ping","params":{}}"#,
        ),
        (
            22,
            r#"{"jsonrpc":"2.0","id":22,"method":"ping","params":{"_meta":{}}}"#,
        ),
        (23, r#"{"jsonrpc":"2.0","id":23,"method":"tools/list"}"#),
        (
            24,
            r#"{"jsonrpc":"2.0","id":24,"method":"tools/list","params":{}}"#,
        ),
    ] {
        server.send(line);
        let v = server.receive();
        assert_eq!(v["id"], id, "{v}");
        assert!(v.get("result").is_some(), "{line} -> {v}");
    }
    // Notifications and responses, well-formed or not, are never answered.
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/whatever","params":[1]}"#);
    server
        .send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}}"#);
    server.send(r#"{"jsonrpc":"2.0","id":77,"result":{}}"#);
    server.send("");
    server.read_call(30, json!({"path": "a.txt"}));
    let v = server.receive();
    assert_eq!(v["id"], 30);
    assert_eq!(v["result"]["content"][0]["text"], "   1 | a\n");
    server.finish();
}

// ---------------------------------------------------------------------------------------
// 10: a rename race in the sandbox's walk

/// Swaps `a` and `b` with `renameat2(RENAME_EXCHANGE)` on another thread while `read`
/// runs; returns what `read` returned and how many swaps there were.
fn while_exchanging<T>(a: &Path, b: &Path, read: impl FnOnce() -> T) -> (T, u64) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (a, b, stop) = (a.to_path_buf(), b.to_path_buf(), stop.clone());
        std::thread::spawn(move || {
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                rustix::fs::renameat_with(
                    rustix::fs::CWD,
                    &a,
                    rustix::fs::CWD,
                    &b,
                    rustix::fs::RenameFlags::EXCHANGE,
                )
                .unwrap();
                swaps += 1;
            }
            swaps
        })
    };
    let result = read();
    stop.store(true, Ordering::Relaxed);
    (result, swapper.join().unwrap())
}

/// A link and a file swapped under the reader: the link's readlink can find a file
/// (EINVAL). The walk looks again, and every answer is one of the two files.
#[test]
fn a_link_swapped_for_a_file_while_it_is_read_never_fails_with_invalid_argument() {
    let ws = Workspace::new();
    ws.file("target.txt", "through the link\n");
    std::os::unix::fs::symlink("target.txt", ws.path().join("link")).unwrap();
    ws.file("plain", "a plain file\n");
    ws.mkdir("dir");
    ws.file("dir/inner.txt", "inside\n");
    let targets: Vec<&str> = ["link", "plain"].repeat(150);
    let mut args = targets.clone();
    args.extend(["-f", "json"]);
    let (out, swaps) = while_exchanging(&ws.path().join("link"), &ws.path().join("plain"), || {
        run_str_within(&ws, &args, Duration::from_secs(30))
    });
    assert!(swaps > 0);
    let answers = json_lines(&out);
    assert_eq!(answers.len(), targets.len());
    let mut changed = 0;
    for v in &answers {
        match v["status"].as_str() {
            Some("success") => {
                let content = v["data"]["content"].as_str().unwrap();
                assert!(
                    content == "   1 | through the link\n" || content == "   1 | a plain file\n",
                    "{v}"
                );
            }
            _ => {
                let message = v["error"]["message"].as_str().unwrap();
                assert!(!message.contains("Invalid argument"), "{v}");
                assert!(
                    message.ends_with("changed while it was being opened; try again."),
                    "{v}"
                );
                changed += 1;
            }
        }
    }
    assert!(
        changed * 20 < answers.len(),
        "{changed} of {} changed",
        answers.len()
    );

    // A directory on the way swapped with a link to it.
    std::os::unix::fs::symlink("dir", ws.path().join("dirlink")).unwrap();
    let targets: Vec<&str> = ["dirlink/inner.txt", "dir/inner.txt"].repeat(100);
    let mut args = targets.clone();
    args.extend(["-f", "json"]);
    let (out, _) = while_exchanging(&ws.path().join("dir"), &ws.path().join("dirlink"), || {
        run_str_within(&ws, &args, Duration::from_secs(30))
    });
    for v in json_lines(&out) {
        let message = v["error"]["message"].as_str().unwrap_or_default();
        assert!(!message.contains("Invalid argument"), "{v}");
    }
}

// ---------------------------------------------------------------------------------------
// Helpers

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

fn code(out: &std::process::Output) -> i32 {
    out.status.code().expect("exited normally")
}

/// Every line of stdout decoded as a JSON object.
fn json_lines(out: &std::process::Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON {e}: {l}")))
        .collect()
}
