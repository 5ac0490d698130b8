//! Reads per second through one `agentread --mcp` session, against one `agentread`
//! process per read, on the same file: `cargo run --release --example mcp_bench --
//! target/<host>/release/agentread FILE [READS] [SPAWNS]`.
//!
//! The session is driven as an agent drives it: one `tools/call` line, then its answer,
//! then the next. The client does no more than write a line and read one, so that the
//! rate is the server's.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// How a successful read's answer ends (`isError` is `CallToolResult`'s last field).
const READ_OK: &str = "\"isError\":false}}\n";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [binary, file, ..] = args.as_slice() else {
        eprintln!("usage: mcp_bench AGENTREAD_BIN FILE [READS] [SPAWNS]");
        std::process::exit(2);
    };
    let reads: u32 = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let spawns: u32 = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(1_000);
    let file = Path::new(file).canonicalize().expect("the file exists");
    let root = file.parent().unwrap();
    let name = file.file_name().unwrap().to_str().unwrap();

    let mut server = Command::new(binary)
        .args(["--mcp", "--root"])
        .arg(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("agentread starts");
    let session = {
        let mut session = Session {
            input: server.stdin.take().unwrap(),
            output: Answers::new(server.stdout.take().unwrap()),
        };
        session.ask("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"mcp_bench\",\"version\":\"1\"}}}\n");
        let call = format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}}\n{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{{\"name\":\"read\",\"arguments\":{{\"path\":\"{name}\"}}}}}}\n"
        );
        let first = std::str::from_utf8(session.ask(&call)).expect("an answer is UTF-8");
        assert!(first.ends_with(READ_OK), "the read failed: {first}");
        let call = call.split_once('\n').unwrap().1.to_string();
        // Every answer is checked, as cheaply as a client can: it ends as a successful
        // read's does (validating or copying 30 KB would be the client's time, not the
        // server's).
        let mut read = || {
            let answer = session.ask(&call);
            assert!(answer.ends_with(READ_OK.as_bytes()), "a read failed");
        };
        for _ in 0..500 {
            read();
        }
        rates(reads, read)
    };
    server.wait().unwrap();

    let arguments = format!("{{\"path\":\"{name}\"}}");
    let spawn = || {
        let status = Command::new(binary)
            .arg("--root")
            .arg(root)
            .args(["--call", &arguments])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
    };
    for _ in 0..50 {
        spawn();
    }
    let spawned = rates(spawns, spawn);
    println!("one MCP session: {}", session.describe(reads));
    println!("one process a read: {}", spawned.describe(spawns));
    println!(
        "ratio: {:.1}x (of the medians)",
        session.median / spawned.median
    );
}

/// Reads a second, over batches of a tenth of the runs each: on a shared machine a
/// burst of a neighbour's work slows a batch or two, which the median leaves out.
struct Rates {
    median: f64,
    slowest: f64,
    fastest: f64,
}

const BATCHES: u32 = 10;

fn rates(runs: u32, mut run: impl FnMut()) -> Rates {
    let per_batch = (runs / BATCHES).max(1);
    let mut rates: Vec<f64> = (0..BATCHES)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..per_batch {
                run();
            }
            f64::from(per_batch) / started.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    let middle = rates.len() / 2;
    Rates {
        median: (rates[middle - 1] + rates[middle]) / 2.0,
        slowest: rates[0],
        fastest: rates[rates.len() - 1],
    }
}

impl Rates {
    fn describe(&self, runs: u32) -> String {
        format!(
            "{:.0} reads/s ({:.0} us a read, median of {BATCHES} batches of {}; {:.0}-{:.0} us)",
            self.median,
            1e6 / self.median,
            (runs / BATCHES).max(1),
            1e6 / self.fastest,
            1e6 / self.slowest
        )
    }
}

/// The server's answers, one line each, read into a page-aligned buffer. On some CPUs
/// (the AMD EPYC this was measured on) the kernel copies into a destination that is not
/// page-aligned several times slower: with a 1 MiB `BufReader` (allocated 16 bytes past a
/// page boundary) the client's own reads were a quarter of each round trip, which is not
/// the server's time.
/// One MCP session: a request written, its answer read.
struct Session<W, R> {
    input: W,
    output: Answers<R>,
}

impl<W: Write, R: Read> Session<W, R> {
    fn ask(&mut self, request: &str) -> &[u8] {
        self.input.write_all(request.as_bytes()).unwrap();
        self.input.flush().unwrap();
        self.output.next()
    }
}

struct Answers<R> {
    input: R,
    storage: Vec<u8>,
    start: usize,
}

const ANSWER_CAPACITY: usize = 1 << 20;

impl<R: Read> Answers<R> {
    fn new(input: R) -> Answers<R> {
        let storage = vec![0u8; ANSWER_CAPACITY + 4096];
        let start = storage.as_ptr().align_offset(4096);
        Answers {
            input,
            storage,
            start,
        }
    }

    /// The next answer. The server writes nothing unasked here (its root is fixed), so
    /// a read never holds the start of the next answer.
    fn next(&mut self) -> &[u8] {
        let buffer = &mut self.storage[self.start..self.start + ANSWER_CAPACITY];
        let mut filled = 0;
        loop {
            let n = self
                .input
                .read(&mut buffer[filled..])
                .expect("the server answers");
            assert!(n > 0, "the server ended before answering");
            filled += n;
            if buffer[filled - 1] == b'\n' {
                return &buffer[..filled];
            }
            assert!(filled < ANSWER_CAPACITY, "an answer of over 1 MiB");
        }
    }
}
