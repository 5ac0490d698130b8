//! A byte stream seen as lines, read through one fixed buffer: skip lines by counting
//! them, feed one line's text to a cutter, count what is left.
//!
//! A regular file is read at explicit offsets. That lets the two long jobs, skipping to a
//! deep line and counting the lines after the window, run on every core (see `tally`):
//! one parallel pass counts the rest of the file, a skip then reads at most one chunk
//! again, and the final count reuses the pass instead of reading on.

use std::fs::File;
use std::io::{self, Read};

use super::buffer::AlignedBuf;
use super::bytes;
use super::endings::{EndingsScan, LineEndings};
use super::line::LineCutter;
use super::tally::{self, Parallel, Tally};

/// Size of the read buffer: large enough that a read() costs little per byte, small
/// enough to stay in L2 cache while it is counted.
pub const BUFFER_SIZE: usize = 256 * 1024;

/// Where the bytes come from.
pub enum Input<'f, R> {
    /// Any reader, read once from start to end.
    Stream(R),
    /// The bytes `start..end` of a regular file.
    File {
        file: &'f File,
        start: u64,
        end: u64,
    },
}

enum Feed<'f, R> {
    Stream(R),
    File {
        file: &'f File,
        /// The file offset of the input's first byte.
        base: u64,
        /// The next file offset to read into the buffer.
        next: u64,
        end: u64,
        /// A count of the file from some offset on, once one was made.
        tally: Option<Tally>,
    },
}

pub struct LineSource<'f, R> {
    feed: Feed<'f, R>,
    buf: AlignedBuf,
    pos: usize,
    filled: usize,
    /// Bytes of the input passed so far (read, skipped or counted).
    consumed: u64,
    last_byte: Option<u8>,
    /// None when the line endings are not looked for (see [`LineSource::find_line_endings`]).
    endings: Option<EndingsScan>,
    /// A tally has already seen every byte after the ones scanned: stop scanning.
    endings_done: bool,
    parallel: Parallel,
}

impl<'f, R: Read> LineSource<'f, R> {
    pub fn new(input: Input<'f, R>) -> LineSource<'f, R> {
        // A small file needs no more buffer than its size (one more byte sees its end).
        let buffer = match &input {
            Input::File { start, end, .. } => {
                (end.saturating_sub(*start) + 1).min(BUFFER_SIZE as u64) as usize
            }
            Input::Stream(_) => BUFFER_SIZE,
        };
        LineSource::tuned(input, Parallel::default(), buffer)
    }

    /// With chosen parallel counting and buffer size (tests use tiny ones to reach every
    /// boundary with small inputs).
    pub fn tuned(input: Input<'f, R>, parallel: Parallel, buffer: usize) -> LineSource<'f, R> {
        let feed = match input {
            Input::Stream(reader) => Feed::Stream(reader),
            Input::File { file, start, end } => Feed::File {
                file,
                base: start,
                next: start,
                end: end.max(start),
                tally: None,
            },
        };
        LineSource {
            feed,
            buf: AlignedBuf::new(buffer),
            pos: 0,
            filled: 0,
            consumed: 0,
            last_byte: None,
            endings: Some(EndingsScan::default()),
            endings_done: false,
            parallel,
        }
    }

    /// Whether to find the input's line endings (on by default). They cost a pass over
    /// every byte that only `stats.line_endings` needs: text output leaves them out. Set
    /// before the first read.
    pub fn find_line_endings(&mut self, find: bool) {
        if !find {
            self.endings = None;
        }
    }

    /// The input's line endings so far; None when they are not looked for.
    pub fn line_endings(&self) -> Option<LineEndings> {
        self.endings.map(|scan| scan.result())
    }

    /// Makes sure unread bytes are buffered; false at the end of the input.
    fn fill(&mut self) -> io::Result<bool> {
        if self.pos < self.filled {
            return Ok(true);
        }
        self.pos = 0;
        self.filled = 0;
        let n = match &mut self.feed {
            Feed::Stream(reader) => loop {
                match reader.read(&mut self.buf) {
                    Ok(n) => break n,
                    Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                    Err(err) => return Err(err),
                }
            },
            Feed::File {
                file, next, end, ..
            } => {
                let want = (*end - *next).min(self.buf.len() as u64) as usize;
                if want == 0 {
                    return Ok(false);
                }
                let n = tally::read_at(file, &mut self.buf[..want], *next)?;
                if n == 0 {
                    *end = *next; // the file shrank since its size was read
                }
                *next += n as u64;
                n
            }
        };
        self.filled = n;
        // Line endings are looked at once per read, not once per line.
        if let Some(scan) = &mut self.endings
            && !self.endings_done
        {
            scan.scan(&self.buf[..n]);
        }
        Ok(n > 0)
    }

    /// Marks the first `n` buffered bytes as read.
    pub fn consume(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        self.last_byte = Some(self.buf[self.pos + n - 1]);
        self.pos += n;
        self.consumed += n as u64;
    }

    /// Whether another line begins here.
    pub fn has_more(&mut self) -> io::Result<bool> {
        self.fill()
    }

    /// At the end of the input: whether its last line has no final `\n`.
    pub fn ends_inside_a_line(&self) -> bool {
        self.last_byte.is_some_and(|b| b != b'\n')
    }

    /// Passes over `n` lines without decoding them; returns how many newlines it passed.
    pub fn skip_lines(&mut self, n: u64) -> io::Result<u64> {
        let mut left = n;
        while left > 0 {
            if self.pos == self.filled {
                if let Some(skipped) = self.skip_lines_by_tally(left)? {
                    return Ok(n - left + skipped);
                }
                if !self.fill()? {
                    break;
                }
            }
            let avail = &self.buf[self.pos..self.filled];
            let count = bytes::count(b'\n', avail) as u64;
            if count < left {
                left -= count;
                self.consume(avail.len());
            } else {
                let at = bytes::positions(b'\n', avail)
                    .nth((left - 1) as usize)
                    .unwrap_or(avail.len() - 1);
                left = 0;
                self.consume(at + 1);
            }
        }
        Ok(n - left)
    }

    /// Passes over the bytes up to `offset` (counted from the input's start); returns how
    /// many newlines it passed.
    pub fn skip_to(&mut self, offset: u64) -> io::Result<u64> {
        let mut newlines = 0;
        while self.consumed < offset {
            if self.pos == self.filled {
                if let Some(counted) = self.skip_to_by_tally(offset)? {
                    return Ok(newlines + counted);
                }
                if !self.fill()? {
                    break;
                }
            }
            let want = (offset - self.consumed).min((self.filled - self.pos) as u64) as usize;
            newlines += bytes::count(b'\n', &self.buf[self.pos..self.pos + want]) as u64;
            self.consume(want);
        }
        Ok(newlines)
    }

    /// Counts the lines from here to the end (a last line without `\n` included).
    pub fn count_rest(&mut self) -> io::Result<u64> {
        let mut newlines = 0;
        let mut any = false;
        loop {
            if self.pos == self.filled {
                if let Some((counted, more)) = self.count_rest_by_tally()? {
                    newlines += counted;
                    any |= more;
                    break;
                }
                if !self.fill()? {
                    break;
                }
            }
            any = true;
            let avail = self.filled - self.pos;
            newlines += bytes::count(b'\n', &self.buf[self.pos..self.filled]) as u64;
            self.consume(avail);
        }
        Ok(newlines + u64::from(any && self.ends_inside_a_line()))
    }

    /// The bytes read and not yet consumed: where the next line begins.
    pub fn buffered(&self) -> &[u8] {
        &self.buf[self.pos..self.filled]
    }

    /// Feeds the next line's text to `cutter`, without its `\n` or CRLF.
    /// A lone `\r` is text, also at the end of the input.
    pub fn next_line(&mut self, cutter: &mut LineCutter, out: &mut Vec<u8>) -> io::Result<()> {
        self.next_line_with(cutter, out, |_| Ok(()))
    }

    /// [`LineSource::next_line`], handing `out` to `each` after every piece fed, so that
    /// a line longer than the buffer can be written as it is read and not held whole.
    pub fn next_line_with(
        &mut self,
        cutter: &mut LineCutter,
        out: &mut Vec<u8>,
        mut each: impl FnMut(&mut Vec<u8>) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut pending_cr = false;
        loop {
            // Past the cut of a long line, with much of a file left: measure the rest of
            // the line with every core instead of reading it through the buffer.
            if self.pos == self.filled
                && !pending_cr
                && cutter.is_counting()
                && self.measure_line_by_tally(cutter)?
            {
                return Ok(());
            }
            if !self.fill()? {
                break;
            }
            let avail = &self.buf[self.pos..self.filled];
            match bytes::find(b'\n', avail) {
                Some(at) => {
                    let mut text = &avail[..at];
                    if at > 0 {
                        if pending_cr {
                            cutter.feed(b"\r", out);
                        }
                        if text[at - 1] == b'\r' {
                            text = &text[..at - 1];
                        }
                    }
                    cutter.feed(text, out);
                    self.consume(at + 1);
                    return Ok(());
                }
                None => {
                    if pending_cr {
                        cutter.feed(b"\r", out);
                    }
                    let mut text = avail;
                    pending_cr = text.last() == Some(&b'\r');
                    if pending_cr {
                        text = &text[..text.len() - 1];
                    }
                    cutter.feed(text, out);
                    let n = avail.len();
                    self.consume(n);
                    each(out)?;
                }
            }
        }
        if pending_cr {
            cutter.feed(b"\r", out);
        }
        Ok(())
    }

    /// Counts the rest of the current line, which began before here, from a fresh tally.
    /// False (nothing consumed) when there is no large file ahead, or when the line is not
    /// valid UTF-8 throughout, whose lossy count the cutter must then make itself.
    fn measure_line_by_tally(&mut self, cutter: &mut LineCutter) -> io::Result<bool> {
        if !self.fresh_tally()? {
            return Ok(false);
        }
        let Some((_, _, _, counted)) = self.file_tally() else {
            return Ok(false);
        };
        let Some((line_end, chars)) = tally::measure_line(counted, cutter.carry()) else {
            return Ok(false);
        };
        let (last, end) = (counted.last_byte(), counted.end());
        cutter.add_dropped(chars);
        match line_end {
            Some(at) => self.jump(at + 1, Some(b'\n')),
            None => self.jump(end, last),
        }
        Ok(true)
    }

    /// With the buffer empty and a large rest of a file ahead, counts that rest on every
    /// core, once. True when a tally starting exactly here was made.
    fn fresh_tally(&mut self) -> io::Result<bool> {
        let parallel = self.parallel;
        let Feed::File {
            file,
            next,
            end,
            tally,
            ..
        } = &mut self.feed
        else {
            return Ok(false);
        };
        if tally.is_some() || *end - *next < parallel.min || *next == *end {
            return Ok(false);
        }
        let endings = self.endings.is_some();
        let counted = tally::tally(file, *next, *end, parallel, endings, &mut self.buf)?;
        // Everything before `next` was scanned already: the tally completes the file.
        if let Some(scan) = &mut self.endings {
            counted.join_endings(scan);
        }
        self.endings_done = true;
        *tally = Some(counted);
        Ok(true)
    }

    /// The file, the offset of the input's start, and the tally, when there is one.
    fn file_tally(&self) -> Option<(&'f File, u64, u64, &Tally)> {
        match &self.feed {
            Feed::File {
                file,
                base,
                next,
                tally: Some(counted),
                ..
            } => Some((*file, *base, *next, counted)),
            _ => None,
        }
    }

    /// Moves the reading position to file offset `to` with the buffer empty.
    fn jump(&mut self, to: u64, byte_before: Option<u8>) {
        if let Feed::File { base, next, .. } = &mut self.feed {
            self.consumed = to - *base;
            *next = to;
        }
        self.pos = 0;
        self.filled = 0;
        if byte_before.is_some() {
            self.last_byte = byte_before;
        }
    }

    fn skip_lines_by_tally(&mut self, n: u64) -> io::Result<Option<u64>> {
        if !self.fresh_tally()? {
            return Ok(None);
        }
        let Some((file, _, _, counted)) = self.file_tally() else {
            return Ok(None);
        };
        let found = counted
            .find_newline(n)
            .map(|(c, before)| (c.start, c.end, before));
        let (total, last, end) = (counted.newlines(), counted.last_byte(), counted.end());
        match found {
            Some((start, chunk_end, before)) => {
                let after = tally::nth_newline(file, start, chunk_end, n - before, &mut self.buf)?
                    .ok_or_else(|| io::Error::other("the file changed while it was read"))?;
                self.jump(after, Some(b'\n'));
                Ok(Some(n))
            }
            None => {
                self.jump(end, last);
                Ok(Some(total))
            }
        }
    }

    fn skip_to_by_tally(&mut self, offset: u64) -> io::Result<Option<u64>> {
        if !self.fresh_tally()? {
            return Ok(None);
        }
        let Some((file, base, _, counted)) = self.file_tally() else {
            return Ok(None);
        };
        let target = base + offset;
        let found = counted
            .find_offset(target)
            .map(|(c, before)| (c.start, before));
        let (all, end) = (counted.newlines(), counted.end());
        let (newlines, to) = match found {
            Some((start, before)) => (
                before + tally::count_newlines(file, start, target, &mut self.buf)?,
                target,
            ),
            None => (all, end),
        };
        let mut byte = [0u8; 1];
        let before = match to > base && tally::read_at(file, &mut byte, to - 1)? == 1 {
            true => Some(byte[0]),
            false => None,
        };
        self.jump(to, before);
        Ok(Some(newlines))
    }

    /// Counts the rest of a file from its tally (made now, or earlier from an offset before
    /// here); None when the input is not a large file. Also says whether any byte was left.
    fn count_rest_by_tally(&mut self) -> io::Result<Option<(u64, bool)>> {
        self.fresh_tally()?;
        let Some((file, _, next, counted)) = self.file_tally() else {
            return Ok(None);
        };
        let Some((chunk, _)) = counted.find_offset(next) else {
            return Ok(Some((0, false)));
        };
        let (chunk_start, chunk_end, chunk_newlines) = (chunk.start, chunk.end, chunk.newlines);
        let later: u64 = counted
            .chunks
            .iter()
            .filter(|c| c.start > chunk_start)
            .map(|c| c.newlines)
            .sum();
        let (last, end) = (counted.last_byte(), counted.end());
        // A chunk begun here was counted whole; one begun earlier is counted again from here.
        let here = match next == chunk_start {
            true => chunk_newlines,
            false => tally::count_newlines(file, next, chunk_end, &mut self.buf)?,
        };
        self.jump(end, last);
        Ok(Some((here + later, true)))
    }
}
