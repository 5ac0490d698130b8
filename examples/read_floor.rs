//! The floor for counting a large file's lines on this machine: every core `pread`s its
//! share of the file, 1 MiB at a time, into a page-aligned buffer and counts its newlines,
//! and nothing else. `scripts/bench.sh` measures the big-file scenarios against it: what
//! agentread takes beyond it is what it could still save.
//!
//! Usage: read_floor FILE   (prints the number of newlines)

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicU64, Ordering};

use agentread::read::buffer::AlignedBuf;

const CHUNK: u64 = 1 << 20;
const READ: usize = 256 * 1024;

fn main() {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: read_floor FILE");
        std::process::exit(2);
    };
    let file = File::open(&path).expect("the file opens");
    let size = file.metadata().expect("the file has a size").len();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicU64::new(0);
    let count = || {
        let mut buf = AlignedBuf::new(READ);
        let mut newlines = 0;
        loop {
            let start = next.fetch_add(CHUNK, Ordering::Relaxed);
            if start >= size {
                return newlines;
            }
            let end = (start + CHUNK).min(size);
            let mut pos = start;
            while pos < end {
                let want = ((end - pos) as usize).min(READ);
                let got = file.read_at(&mut buf[..want], pos).expect("the file reads");
                if got == 0 {
                    break;
                }
                newlines += bytecount::count(&buf[..got], b'\n') as u64;
                pos += got as u64;
            }
        }
    };
    let total: u64 = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(count)).collect();
        count() + helpers.into_iter().map(|h| h.join().unwrap()).sum::<u64>()
    });
    println!("{total}");
}
