//! The simple references the reader is tested against (unit tests, property tests and
//! the fuzz targets): the whole input split into lines at once, and a reader that
//! delivers its bytes in reads of chosen sizes. Built for tests and with the `reference`
//! feature only.

use std::io::{self, Read};

/// The whole input split into lines the simple way: at `\n`, a CRLF's `\r` dropped, a
/// last line without `\n` kept.
pub fn naive_lines(data: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        match rest.iter().position(|&b| b == b'\n') {
            Some(at) => {
                let line = &rest[..at];
                lines.push(line.strip_suffix(b"\r").unwrap_or(line));
                rest = &rest[at + 1..];
            }
            None => {
                lines.push(rest);
                break;
            }
        }
    }
    lines
}

/// Delivers its bytes in reads of the given sizes in turn (each at least 1; no sizes:
/// as much as asked), to reach every buffer boundary.
pub struct Trickle<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    turn: usize,
}

impl<'a> Trickle<'a> {
    pub fn new(data: &'a [u8], sizes: Vec<usize>) -> Trickle<'a> {
        Trickle {
            data,
            sizes,
            turn: 0,
        }
    }
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size = match self.sizes.len() {
            0 => buf.len(),
            n => self.sizes[self.turn % n].max(1),
        };
        self.turn += 1;
        let n = size.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}
