//! Times agentread's token counting in one process (SPEC §18: counting a default window
//! of at most 51,200 bytes adds at most 2 ms): the first count (the encoding's tables
//! loaded) and the median of later counts of the file given, cut to 51,200 bytes.
//!
//! `cargo build --release --features examples --example tokens_time`

use std::time::Instant;

use agentread::read::tokens;

fn main() {
    let path = std::env::args().nth(1).expect("a file to count");
    let mut bytes = std::fs::read(path).expect("the file");
    bytes.truncate(51_200);
    let started = Instant::now();
    let first = tokens::count(&bytes);
    let load = started.elapsed();
    let mut times: Vec<f64> = (0..50)
        .map(|_| {
            let started = Instant::now();
            assert_eq!(tokens::count(&bytes), first);
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "   first count (tables loaded) {:.1} ms; a {}-byte window ({first} tokens): median {:.2} ms, max {:.2} ms",
        load.as_secs_f64() * 1000.0,
        bytes.len(),
        times[times.len() / 2],
        times[times.len() - 1]
    );
}
