//! Test helpers: a temporary workspace and a clean way to run agentread in it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

/// A temporary workspace root with files in it.
pub struct Workspace {
    pub dir: tempfile::TempDir,
}

impl Workspace {
    pub fn new() -> Workspace {
        Workspace {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    /// A workspace in memory (`/dev/shm`) when one can be made there, else as [`new`], for
    /// large inputs: what is written there never goes to the disk, and the holes of a
    /// sparse file are read as zeros at once, while on disk each read first fills the page
    /// cache with them (a second of system time a GiB).
    ///
    /// [`new`]: Workspace::new
    pub fn in_memory() -> Workspace {
        match tempfile::tempdir_in("/dev/shm") {
            Ok(dir) => Workspace { dir },
            Err(_) => Workspace::new(),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `bytes` to `name` (parent directories created).
    pub fn file(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, bytes).unwrap();
        path
    }

    pub fn mkdir(&self, name: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::create_dir_all(&path).unwrap();
        path
    }

    /// agentread with the workspace as its current directory and an environment cleared
    /// of what changes its output (NO_COLOR, AGENTREAD_ROOT).
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::cargo_bin("agentread").unwrap();
        cmd.current_dir(self.dir.path())
            .env_remove("NO_COLOR")
            .env_remove("AGENTREAD_ROOT")
            .env_remove("CLICOLOR_FORCE")
            // The outline cache is tested on its own (structure_answers.rs), in a
            // directory of its own, and kept out of the home directory here.
            .env("AGENTREAD_NO_CACHE", "1");
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd().args(args).output().unwrap()
    }

    /// Runs with `--format json` and decodes the single JSON object printed.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.extend(["--format", "json"]);
        let out = self.run(&all);
        let lines = json_lines(&out);
        assert_eq!(lines.len(), 1, "one object expected: {}", stdout(&out));
        lines.into_iter().next().unwrap()
    }
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

pub fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

/// Every line of stdout decoded as a JSON object.
pub fn json_lines(out: &Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON {e}: {l}")))
        .collect()
}

/// The qualified names of an outline answer's symbols (`data.symbols`), in order.
pub fn qualified_names(v: &Value) -> Vec<&str> {
    v["data"]["symbols"]
        .as_array()
        .unwrap_or_else(|| panic!("no symbols: {v}"))
        .iter()
        .map(|s| s["qualified_name"].as_str().unwrap())
        .collect()
}

/// `bytes` followed by zeros up to `len` bytes. The zeros come from the allocator at
/// once: `Vec::resize` writes them a byte at a time in the unoptimised test build
/// (a quarter of a second for 64 MiB).
pub fn padded(bytes: &[u8], len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    out[..bytes.len()].copy_from_slice(bytes);
    out
}

/// Numbered lines `from..=to` as the default style renders them.
pub fn numbered(from: u64, to: u64, text: impl Fn(u64) -> String) -> String {
    (from..=to)
        .map(|n| format!("{n:>4} | {}\n", text(n)))
        .collect()
}

/// The binary under test. Debug builds carry the fault switch (`AGENTREAD_FAULT=panic`
/// makes every answer panic), for the tests of panics.
pub fn fault_binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_agentread"))
}

/// Reads `race` in `dir`, a link that [`while_swapping_link`] swaps between `a` and `b`,
/// 330 times, and checks that no read shows `secret`: every eleventh read is a process
/// of its own (`cli` runs it), the others are calls to one `agentread --mcp` started
/// with `mcp`, which reach the same check and open for a fraction of a process's cost.
/// Each read is shown or refused (`ACCESS_DENIED`, or `NOT_FOUND` mid-swap), and both
/// were seen: the race was real, and never won.
pub fn a_swapped_link_never_shows(
    dir: &Path,
    (a, b): (&Path, &Path),
    mut cli: impl FnMut() -> Output,
    mcp: &[&str],
    secret: &str,
) {
    let mut server = Server::start(dir, mcp, serde_json::json!({}));
    let (mut shown, mut refused, mut id) = (0, 0, 0);
    let flips = while_swapping_link(&dir.join("race"), a, b, 330, || {
        id += 1;
        let (text, code) = if id % 11 == 0 {
            let out = cli();
            let code = match code(&out) {
                0 => None,
                3 => Some("NOT_FOUND".to_string()),
                4 => Some("ACCESS_DENIED".to_string()),
                other => panic!("unexpected exit {other}: {}", stdout(&out)),
            };
            (stdout(&out), code)
        } else {
            server.read_call(id, serde_json::json!({"path": "race"}));
            let v = server.receive();
            let code = v["result"]["structuredContent"]["error"]["code"].as_str();
            (v.to_string(), code.map(str::to_string))
        };
        assert!(!text.contains(secret), "{secret} was shown: {text}");
        match code.as_deref() {
            None => shown += 1,
            Some("ACCESS_DENIED") => refused += 1,
            Some("NOT_FOUND") => {}
            Some(other) => panic!("unexpected {other}: {text}"),
        }
    });
    server.finish();
    assert!(
        flips > 100,
        "the link was not swapped often enough ({flips})"
    );
    assert!(shown > 0 && refused > 0, "shown {shown}, refused {refused}");
}

/// Swaps the symlink `link` between the targets `a` and `b` (atomically, by renaming a
/// fresh link over it) on another thread while `read` runs `runs` times; returns how
/// many times the link was swapped.
pub fn while_swapping_link(
    link: &Path,
    a: &Path,
    b: &Path,
    runs: usize,
    mut read: impl FnMut(),
) -> u64 {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (link, a, b, stop) = (
            link.to_path_buf(),
            a.to_path_buf(),
            b.to_path_buf(),
            stop.clone(),
        );
        std::thread::spawn(move || {
            let fresh = link.with_extension("swap");
            let mut flips = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let target = if flips.is_multiple_of(2) { &a } else { &b };
                let _ = std::fs::remove_file(&fresh);
                std::os::unix::fs::symlink(target, &fresh).unwrap();
                std::fs::rename(&fresh, &link).unwrap();
                flips += 1;
            }
            flips
        })
    };
    for _ in 0..runs {
        read();
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap()
}

/// `agentread --mcp` as a child for JSON-RPC written by hand: lines are sent to its
/// stdin, and its answers are read on another thread, so that a test waits for one with
/// a deadline rather than forever.
pub struct Server {
    pub child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
}

/// A server a test left running (it failed, or had no more to ask) is stopped with it.
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How long [`Server::receive`] waits for an answer before the test fails as hung.
pub const ANSWER_GUARD: std::time::Duration = std::time::Duration::from_secs(30);

impl Server {
    /// Starts `agentread --mcp` in `dir` and initialises it, declaring `capabilities`.
    pub fn start(dir: &Path, args: &[&str], capabilities: Value) -> Server {
        let mut server = Server::spawn(dir, args);
        server.send(
            &serde_json::json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
                "protocolVersion":"2025-06-18","capabilities":capabilities,
                "clientInfo":{"name":"suite","version":"1"}}})
            .to_string(),
        );
        let init = server.receive();
        assert_eq!(init["result"]["serverInfo"]["name"], "agentread", "{init}");
        server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        server
    }

    /// Starts `agentread --mcp` in `dir`, not initialised.
    pub fn spawn(dir: &Path, args: &[&str]) -> Server {
        use std::io::BufRead;
        use std::process::Stdio;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_agentread"))
            .arg("--mcp")
            .args(args)
            .current_dir(dir)
            .env_remove("AGENTREAD_ROOT")
            .env_remove("AGENTREAD_DENY")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Server {
            child,
            stdin,
            lines,
        }
    }

    /// Writes `line` and a newline to the server's stdin.
    pub fn send(&mut self, line: &str) {
        use std::io::Write;
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line of stdout within `limit`, as it was written.
    pub fn receive_line_within(&mut self, limit: std::time::Duration) -> String {
        self.lines
            .recv_timeout(limit)
            .unwrap_or_else(|e| panic!("no answer within {limit:?}: {e}"))
    }

    /// The next line of stdout within `limit`, which must be a JSON-RPC message.
    pub fn receive_within(&mut self, limit: std::time::Duration) -> Value {
        let line = self.receive_line_within(limit);
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
        assert_eq!(v["jsonrpc"], "2.0", "{line}");
        v
    }

    /// The next message, within [`ANSWER_GUARD`].
    pub fn receive(&mut self) -> Value {
        self.receive_within(ANSWER_GUARD)
    }

    /// Writes `message` as one line.
    pub fn send_json(&mut self, message: &Value) {
        self.send(&message.to_string());
    }

    /// The CPU time the server has used so far (user and system), whatever the load.
    pub fn cpu_time(&self) -> std::time::Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        // The fields after the command's name (in parentheses): utime is the 14th field.
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        // SAFETY: sysconf has no preconditions.
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
        std::time::Duration::from_millis(ticks * 1000 / per_second)
    }

    /// The server's peak resident memory so far, in MiB.
    pub fn peak_mib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
            .unwrap();
        kib / 1024
    }

    /// Sends a `tools/call` of `read` with `arguments` and id `id`.
    pub fn read_call(&mut self, id: u64, arguments: Value) {
        self.send(
            &serde_json::json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
                "params":{"name":"read","arguments":arguments}})
            .to_string(),
        );
    }

    /// Closes stdin; the server must exit 0 with nothing more on stdout.
    pub fn finish(mut self) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert_eq!(status.code(), Some(0));
        let rest: Vec<String> = self.lines.iter().collect();
        assert!(rest.is_empty(), "stdout after the last answer: {rest:?}");
    }
}

/// A one-page PDF whose objects are `objects` (numbered from 5, each `(dict, stream
/// data)`; a dict without data is a plain object), the page's content being object 5.
pub fn pdf(objects: &[(String, Option<Vec<u8>>)]) -> Vec<u8> {
    pages_pdf(objects, 1)
}

/// [`pdf`] with `pages` pages, all of them object 3.
pub fn pages_pdf(objects: &[(String, Option<Vec<u8>>)], pages: usize) -> Vec<u8> {
    let mut out = b"%PDF-1.5\n".to_vec();
    let mut offsets = Vec::new();
    let kids = vec!["3 0 R"; pages].join(" ");
    let fixed = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        format!("<< /Type /Pages /Kids [{kids}] /Count {pages} >>"),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 4 0 R >> >> >>".to_string(),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    let all = fixed
        .iter()
        .map(|d| (d.clone(), None))
        .chain(objects.iter().cloned());
    for (i, (dict, data)) in all.enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{dict}\n", i + 1).as_bytes());
        if let Some(data) = data {
            out.extend_from_slice(b"stream\n");
            out.extend_from_slice(&data);
            out.extend_from_slice(b"\nendstream\n");
        }
        out.extend_from_slice(b"endobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", offsets.len() + 1).as_bytes(),
    );
    for offset in &offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            offsets.len() + 1
        )
        .as_bytes(),
    );
    out
}
