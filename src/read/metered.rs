//! Raw byte sources: the metered reader every input goes through (byte count, BLAKE3
//! hash, the size limit of a stream), the head the sniffer looks at, and the backward
//! scan that finds where `--tail` begins in a file.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;

use super::buffer::AlignedBuf;
use super::bytes;

/// The error a metered stream returns once it passes its size limit.
#[derive(Debug)]
pub struct SizeLimitPassed;

impl std::fmt::Display for SizeLimitPassed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("size limit passed")
    }
}

impl std::error::Error for SizeLimitPassed {}

/// Whether an I/O error is a metered stream's size limit.
pub fn is_size_limit(err: &io::Error) -> bool {
    err.get_ref().is_some_and(|e| e.is::<SizeLimitPassed>())
}

/// Counts, hashes and limits the bytes read through it.
pub struct Metered<R> {
    input: R,
    bytes: u64,
    hasher: Option<blake3::Hasher>,
    limit: Option<u64>,
}

impl<R: Read> Metered<R> {
    pub fn new(input: R, hash: bool, limit: Option<u64>) -> Metered<R> {
        Metered {
            input,
            bytes: 0,
            hasher: hash.then(blake3::Hasher::new),
            limit,
        }
    }

    pub fn bytes_read(&self) -> u64 {
        self.bytes
    }

    /// The hex BLAKE3 hash of every byte read, when hashing was asked for.
    pub fn hash(&self) -> Option<String> {
        self.hasher
            .as_ref()
            .map(|h| h.finalize().to_hex().to_string())
    }

    /// Reads the first `len` bytes, or fewer when the input ends before.
    pub fn read_head(&mut self, len: usize) -> io::Result<Vec<u8>> {
        let mut head = Vec::with_capacity(len);
        self.by_ref().take(len as u64).read_to_end(&mut head)?;
        Ok(head)
    }
}

impl<R: Read> Read for Metered<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.input.read(buf)?;
        self.bytes += n as u64;
        if self.limit.is_some_and(|limit| self.bytes > limit) {
            return Err(io::Error::other(SizeLimitPassed));
        }
        if let Some(hasher) = &mut self.hasher {
            hasher.update(&buf[..n]);
        }
        Ok(n)
    }
}

/// The byte offset where the last `n` lines of `file` begin, reading backwards from its
/// end (`size`) and never before `start` (the end of a byte order mark).
pub fn tail_offset(file: &File, start: u64, size: u64, n: u64) -> io::Result<u64> {
    const CHUNK: u64 = 64 * 1024;
    let mut buf = AlignedBuf::new(CHUNK as usize);
    let mut end = size;
    // The final newline ends the last line; it does not begin another.
    if end > start {
        let mut last = [0u8; 1];
        file.read_exact_at(&mut last, end - 1)?;
        if last[0] == b'\n' {
            end -= 1;
        }
    }
    let mut needed = n;
    while end > start {
        let from = end.saturating_sub(CHUNK).max(start);
        let chunk = &mut buf[..(end - from) as usize];
        file.read_exact_at(chunk, from)?;
        for at in bytes::positions(b'\n', chunk).rev() {
            needed -= 1;
            if needed == 0 {
                return Ok(from + at as u64 + 1);
            }
        }
        end = from;
    }
    Ok(start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn offset(data: &[u8], start: u64, n: u64) -> u64 {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(data).unwrap();
        tail_offset(&file, start, data.len() as u64, n).unwrap()
    }

    #[test]
    fn finds_the_start_of_the_last_lines() {
        assert_eq!(offset(b"a\nb\nc\n", 0, 1), 4);
        assert_eq!(offset(b"a\nb\nc\n", 0, 2), 2);
        assert_eq!(offset(b"a\nb\nc", 0, 2), 2);
        assert_eq!(offset(b"a\nb\nc\n", 0, 9), 0);
        assert_eq!(offset(b"\xEF\xBB\xBFa\nb\n", 3, 5), 3);
        assert_eq!(offset(b"", 0, 3), 0);
        assert_eq!(offset(b"\n\n", 0, 1), 1);
    }

    #[test]
    fn a_stream_stops_once_past_its_limit() {
        let mut metered = Metered::new(&[1u8; 100][..], false, Some(50));
        let err = std::io::copy(&mut metered, &mut std::io::sink()).unwrap_err();
        assert!(is_size_limit(&err));
    }

    #[test]
    fn hashes_everything_read() {
        let mut metered = Metered::new(&b"hello"[..], true, None);
        std::io::copy(&mut metered, &mut std::io::sink()).unwrap();
        assert_eq!(
            metered.hash().unwrap(),
            blake3::hash(b"hello").to_hex().to_string()
        );
        assert_eq!(metered.bytes_read(), 5);
    }
}
