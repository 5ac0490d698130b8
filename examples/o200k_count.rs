//! The independent `o200k_base` count the token benchmark checks agentread against
//! (tiktoken-rs, not the tables agentread counts with): reads JSON strings,
//! one per line, on standard input and prints each one's token count on its own line.
//!
//! `cargo build --release --features examples --example o200k_count`

use std::io::{BufRead, Write};

fn main() {
    let bpe = tiktoken_rs::o200k_base_singleton();
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line.expect("standard input");
        let text: String = serde_json::from_str(&line).expect("a JSON string per line");
        writeln!(out, "{}", bpe.encode_ordinary(&text).len()).expect("standard output");
    }
}
