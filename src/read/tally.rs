//! Counting the newlines of a file range on every core. Reading a large file is bound by
//! copying it out of the page cache, which one core cannot do faster than `wc -l`; several
//! threads, each reading its own chunks with `pread`, can. Per-chunk counts are kept so a
//! later lookup ("where does line N start?") reads at most one chunk again.

use std::fs::File;
use std::io;
use std::ops::ControlFlow;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicUsize, Ordering};

use memchr::{memchr, memchr_iter};

use super::buffer::AlignedBuf;
use super::endings::EndingsScan;
use super::line::{Joined, split_incomplete_tail, utf8_width};

/// When and how to count in parallel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parallel {
    /// Ranges shorter than this are counted by one thread: it is as fast, and starts sooner.
    pub min: u64,
    /// Bytes a thread takes at a time; also the most a lookup reads again.
    pub chunk: u64,
}

impl Default for Parallel {
    fn default() -> Parallel {
        Parallel {
            min: 8 << 20,
            chunk: 1 << 20,
        }
    }
}

const READ: usize = 256 * 1024;

/// Up to three bytes at a chunk's edge: part of a character split between two chunks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Edge {
    bytes: [u8; 3],
    len: u8,
}

impl Edge {
    pub fn of(bytes: &[u8]) -> Edge {
        let mut edge = Edge::default();
        let len = bytes.len().min(3);
        edge.bytes[..len].copy_from_slice(&bytes[..len]);
        edge.len = len as u8;
        edge
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
}

/// What one chunk holds.
#[derive(Debug, Clone, Copy)]
pub struct Chunk {
    pub start: u64,
    pub end: u64,
    pub newlines: u64,
    pub first: u8,
    pub last: u8,
    /// Line endings of the chunk after its first byte, which depends on the chunk before.
    endings: EndingsScan,
    /// The offset of the chunk's first `\n`, and whether a `\r` comes just before it inside
    /// the chunk.
    pub line_end: Option<(u64, bool)>,
    /// The characters before the first `\n` (or in the whole chunk): its bytes that are not
    /// UTF-8 continuation bytes.
    pub chars: u64,
    /// Those bytes are valid UTF-8, but for a character split at either edge.
    pub valid: bool,
    /// The continuation bytes the chunk begins with: the end of a character begun before.
    pub head: Edge,
    /// Without a `\n`: the start of a character that the next chunk completes.
    pub tail: Edge,
}

/// The chunks of a range, in order.
#[derive(Debug, Clone)]
pub struct Tally {
    pub chunks: Vec<Chunk>,
}

impl Tally {
    pub fn newlines(&self) -> u64 {
        self.chunks.iter().map(|c| c.newlines).sum()
    }

    /// Where the counted bytes end.
    pub fn end(&self) -> u64 {
        self.chunks.last().map_or(0, |c| c.end)
    }

    pub fn last_byte(&self) -> Option<u8> {
        self.chunks.last().map(|c| c.last)
    }

    /// Adds the range's line endings to `scan`, which has seen the bytes before it.
    pub fn join_endings(&self, scan: &mut EndingsScan) {
        for chunk in &self.chunks {
            scan.join(chunk.first, &chunk.endings);
        }
    }

    /// The chunk holding the `n`-th newline (1-based) and the newlines before that chunk.
    pub fn find_newline(&self, n: u64) -> Option<(&Chunk, u64)> {
        let mut before = 0;
        for chunk in &self.chunks {
            if before + chunk.newlines >= n {
                return Some((chunk, before));
            }
            before += chunk.newlines;
        }
        None
    }

    /// The chunk holding byte `offset`, and the newlines before that chunk.
    pub fn find_offset(&self, offset: u64) -> Option<(&Chunk, u64)> {
        let mut before = 0;
        for chunk in &self.chunks {
            if offset < chunk.end {
                return Some((chunk, before));
            }
            before += chunk.newlines;
        }
        None
    }
}

/// Tallies `[from, to)` of `file` on up to as many threads as there are cores, with the
/// line endings of each chunk when `endings` is set (a vectorised pass either way, but
/// a slower one). The calling thread reads through `buf` (its caller's idle read buffer);
/// each helper has its own.
pub fn tally(
    file: &File,
    from: u64,
    to: u64,
    parallel: Parallel,
    endings: bool,
    buf: &mut [u8],
) -> io::Result<Tally> {
    let size = to.saturating_sub(from);
    let count = size.div_ceil(parallel.chunk.max(1)) as usize;
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8)
        .min(count.max(1));
    let next = AtomicUsize::new(0);
    let work = |buf: &mut [u8]| -> io::Result<Vec<Chunk>> {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= count {
                return Ok(done);
            }
            let start = from + i as u64 * parallel.chunk;
            let end = (start + parallel.chunk).min(to);
            if let Some(chunk) = scan_chunk(file, start, end, endings, buf)? {
                done.push(chunk);
            }
        }
    };
    let mut chunks = std::thread::scope(|scope| -> io::Result<Vec<Chunk>> {
        // A thread the system refuses is no error: the others take its chunks.
        let helpers: Vec<_> = (1..threads)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, || work(&mut AlignedBuf::new(READ)))
                    .ok()
            })
            .collect();
        let mut chunks = work(buf);
        for helper in helpers {
            let theirs = helper
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("a counting thread failed")));
            chunks = chunks.and_then(|mut mine| {
                mine.extend(theirs?);
                Ok(mine)
            });
        }
        chunks
    })?;
    chunks.sort_unstable_by_key(|c| c.start);
    Ok(Tally { chunks })
}

/// Counts one chunk; None when the file ended before it (it shrank since its size was read).
fn scan_chunk(
    file: &File,
    start: u64,
    end: u64,
    endings: bool,
    buf: &mut [u8],
) -> io::Result<Option<Chunk>> {
    let newlines = |scan: &mut EndingsScan, bytes: &[u8]| match endings {
        true => scan.scan_counting(bytes) as u64,
        false => bytecount::count(bytes, b'\n') as u64,
    };
    let mut chunk: Option<Chunk> = None;
    let mut meter = Meter::default();
    let mut prev: Option<u8> = None;
    read_pieces(file, start, end, buf, |pos, bytes| {
        let c = chunk.get_or_insert_with(|| Chunk {
            start,
            end,
            newlines: 0,
            first: bytes[0],
            last: bytes[0],
            endings: EndingsScan::after(bytes[0]),
            line_end: None,
            chars: 0,
            valid: true,
            head: Edge::default(),
            tail: Edge::default(),
        });
        // The chunk's first byte is left to the scan of the chunk before (see `join`).
        let (ending_scan, first_newline) = match pos == start {
            true => (&bytes[1..], u64::from(bytes[0] == b'\n')),
            false => (bytes, 0),
        };
        if c.line_end.is_none() {
            // Still inside the line the chunk begins in: measure it up to its end.
            match memchr(b'\n', bytes) {
                Some(at) => {
                    meter.feed(&bytes[..at]);
                    let cr = match at {
                        0 => prev == Some(b'\r'),
                        _ => bytes[at - 1] == b'\r',
                    };
                    c.line_end = Some((pos + at as u64, cr));
                    c.newlines += newlines(&mut c.endings, ending_scan) + first_newline;
                }
                None => {
                    meter.feed(bytes);
                    c.endings.pass_without_newline(ending_scan);
                }
            }
        } else {
            c.newlines += newlines(&mut c.endings, ending_scan) + first_newline;
        }
        c.last = bytes[bytes.len() - 1];
        prev = Some(c.last);
        c.end = pos + bytes.len() as u64;
        ControlFlow::<()>::Continue(())
    })?;
    if let Some(c) = &mut chunk {
        (c.chars, c.valid, c.head, c.tail) = meter.finish(c.line_end.is_some());
    }
    Ok(chunk)
}

/// Counts the characters of consecutive pieces and checks that they are valid UTF-8,
/// leaving a character split at either edge to be checked with the neighbouring chunk.
#[derive(Debug)]
struct Meter {
    chars: u64,
    valid: bool,
    started: bool,
    head: Edge,
    carry: Edge,
}

impl Default for Meter {
    fn default() -> Meter {
        Meter {
            chars: 0,
            valid: true,
            started: false,
            head: Edge::default(),
            carry: Edge::default(),
        }
    }
}

impl Meter {
    fn feed(&mut self, mut bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        // Every character has exactly one byte that is not a continuation byte.
        self.chars += bytecount::num_chars(bytes) as u64;
        if !self.started {
            self.started = true;
            let n = bytes
                .iter()
                .take(3)
                .take_while(|&&b| b & 0xC0 == 0x80)
                .count();
            self.head = Edge::of(&bytes[..n]);
            bytes = &bytes[n..];
        }
        if self.carry.len > 0 {
            let held = self.carry.as_slice();
            let width = utf8_width(held[0]);
            let take = width.saturating_sub(held.len()).min(bytes.len());
            let joined = Joined::of(held, &bytes[..take]);
            let joined = joined.as_slice();
            bytes = &bytes[take..];
            if joined.len() < width {
                self.carry = Edge::of(joined);
                return;
            }
            self.valid &= std::str::from_utf8(joined).is_ok();
            self.carry = Edge::default();
        }
        let (body, tail) = split_incomplete_tail(bytes);
        self.valid &= simdutf8::basic::from_utf8(body).is_ok();
        self.carry = Edge::of(tail);
    }

    /// The count, the validity, the head, and the tail a following chunk must complete.
    /// Before a line end, a character left incomplete is invalid.
    fn finish(self, line_ends: bool) -> (u64, bool, Edge, Edge) {
        match line_ends {
            true => (
                self.chars,
                self.valid && self.carry.len == 0,
                self.head,
                Edge::default(),
            ),
            false => (self.chars, self.valid, self.head, self.carry),
        }
    }
}

/// The rest of the line that begins at a tally's start, measured from its chunks: the
/// offset of its `\n` (None when it runs to the end) and its characters, a CRLF's `\r`
/// excluded. None when it is not valid UTF-8 throughout: its lossy count must be made
/// byte by byte. `carry` is the start of a character begun before the tally.
pub fn measure_line(tally: &Tally, carry: &[u8]) -> Option<(Option<u64>, u64)> {
    let mut chars = u64::from(!carry.is_empty());
    let mut pending = Edge::of(carry);
    let mut before_last: Option<u8> = None;
    for chunk in &tally.chunks {
        // A character split between two chunks must be whole once joined.
        let joined = Joined::of(pending.as_slice(), chunk.head.as_slice());
        if std::str::from_utf8(joined.as_slice()).is_err() {
            return None;
        }
        if !chunk.valid {
            return None;
        }
        chars += chunk.chars;
        if let Some((at, cr_inside)) = chunk.line_end {
            let cr = cr_inside || (at == chunk.start && before_last == Some(b'\r'));
            return Some((Some(at), chars - u64::from(cr && chars > 0)));
        }
        pending = chunk.tail;
        before_last = Some(chunk.last);
    }
    pending.len.eq(&0).then_some((None, chars))
}

/// The offset just after the `n`-th newline (1-based) of `[from, to)`, read by one thread.
pub fn nth_newline(
    file: &File,
    from: u64,
    to: u64,
    n: u64,
    buf: &mut [u8],
) -> io::Result<Option<u64>> {
    let mut left = n;
    if left == 0 {
        return Ok(None);
    }
    read_pieces(file, from, to, buf, |pos, bytes| {
        let count = bytecount::count(bytes, b'\n') as u64;
        if count >= left {
            let at = memchr_iter(b'\n', bytes).nth((left - 1) as usize);
            return ControlFlow::Break(at.map(|at| pos + at as u64 + 1));
        }
        left -= count;
        ControlFlow::Continue(())
    })
    .map(Option::flatten)
}

/// The newlines of `[from, to)`, read by one thread.
pub fn count_newlines(file: &File, from: u64, to: u64, buf: &mut [u8]) -> io::Result<u64> {
    let mut count = 0;
    read_pieces(file, from, to, buf, |_, bytes| {
        count += bytecount::count(bytes, b'\n') as u64;
        ControlFlow::<()>::Continue(())
    })?;
    Ok(count)
}

/// Reads `[from, to)` of `file` through `buf`, one piece at a time, handing each piece and
/// its offset to `each` until it breaks (its value is returned) or the range or the file
/// ends (None).
fn read_pieces<B>(
    file: &File,
    from: u64,
    to: u64,
    buf: &mut [u8],
    mut each: impl FnMut(u64, &[u8]) -> ControlFlow<B>,
) -> io::Result<Option<B>> {
    let mut pos = from;
    while pos < to {
        let want = ((to - pos) as usize).min(buf.len());
        let got = read_at(file, &mut buf[..want], pos)?;
        if got == 0 {
            break;
        }
        if let ControlFlow::Break(value) = each(pos, &buf[..got]) {
            return Ok(Some(value));
        }
        pos += got as u64;
    }
    Ok(None)
}

/// `pread`, retried when interrupted.
pub fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    loop {
        match file.read_at(buf, offset) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::endings::LineEndings;
    use super::*;
    use std::io::Write;

    fn file_of(bytes: &[u8]) -> File {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(bytes).unwrap();
        file
    }

    #[test]
    fn counts_and_endings_match_a_single_pass_for_any_chunk_size() {
        let data = b"a\r\nb\nc\r\r\n\nlast".repeat(7);
        let file = file_of(&data);
        let mut whole = EndingsScan::default();
        whole.scan(&data);
        for chunk in 1..12 {
            let t = tally(
                &file,
                0,
                data.len() as u64,
                Parallel { min: 0, chunk },
                true,
                &mut [0; 5],
            )
            .unwrap();
            assert_eq!(
                t.newlines(),
                bytecount::count(&data, b'\n') as u64,
                "chunk {chunk}"
            );
            let mut joined = EndingsScan::default();
            t.join_endings(&mut joined);
            assert_eq!(joined.result(), whole.result(), "chunk {chunk}");
            assert_eq!(joined.result(), LineEndings::Mixed);
            assert_eq!(t.last_byte(), Some(b't'));
        }
    }

    #[test]
    fn finds_newlines_by_number_and_offset() {
        let data = b"0\n12\n345\n6789\n";
        let file = file_of(data);
        let t = tally(
            &file,
            0,
            data.len() as u64,
            Parallel { min: 0, chunk: 3 },
            false,
            &mut [0; 64],
        )
        .unwrap();
        let (chunk, before) = t.find_newline(3).unwrap();
        let mut buf = [0u8; 4];
        let after = nth_newline(&file, chunk.start, chunk.end, 3 - before, &mut buf).unwrap();
        assert_eq!(after, Some(9));
        assert!(t.find_newline(5).is_none());
        let (chunk, before) = t.find_offset(10).unwrap();
        assert_eq!(
            before + count_newlines(&file, chunk.start, 10, &mut buf).unwrap(),
            3
        );
    }
}
