//! Which line endings a whole file uses (`stats.line_endings`), found while it streams by.

use super::bytes;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LineEndings {
    Lf,
    Crlf,
    Mixed,
    None,
}

/// The `\r\n` pairs inside `bytes`, counted in byte-wide lanes over blocks of 255 so that
/// the compiler vectorises it.
fn count_crlf(bytes: &[u8]) -> usize {
    let Some(len) = bytes.len().checked_sub(1) else {
        return 0;
    };
    let (cr, lf) = (&bytes[..len], &bytes[1..]);
    cr.chunks(255)
        .zip(lf.chunks(255))
        .map(|(a, b)| {
            a.iter()
                .zip(b)
                .fold(0u8, |n, (&x, &y)| n + u8::from((x == b'\r') & (y == b'\n')))
                as usize
        })
        .sum()
}

/// The newlines in `bytes`, and whether it holds a `\r`: one pass over the bytes where a
/// count and a search would make two (counting a large file is otherwise a third slower
/// in user time).
pub fn newlines_and_cr(bytes: &[u8]) -> (usize, bool) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU was just found to have AVX2.
        return unsafe { newlines_and_cr_avx2(bytes) };
    }
    newlines_and_cr_lanes(bytes)
}

/// [`newlines_and_cr_lanes`] compiled for AVX2, 32 lanes at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn newlines_and_cr_avx2(bytes: &[u8]) -> (usize, bool) {
    newlines_and_cr_lanes(bytes)
}

const LANES: usize = 32;

/// Whole blocks of 32 bytes, in groups of at most 255 so that byte-wide lane counters
/// cannot overflow, and the bytes after the last block.
#[inline(always)]
fn newlines_and_cr_lanes(bytes: &[u8]) -> (usize, bool) {
    let mut newlines = 0;
    let mut cr = [0u8; LANES];
    let mut groups = bytes.chunks_exact(LANES * 255);
    for group in groups.by_ref() {
        newlines += count_group(group, &mut cr);
    }
    let rest = groups.remainder();
    let (blocks, tail) = rest.split_at(rest.len() / LANES * LANES);
    newlines += count_group(blocks, &mut cr);
    newlines += tail.iter().filter(|&&b| b == b'\n').count();
    (newlines, cr.contains(&1) || tail.contains(&b'\r'))
}

/// A lane for each byte of a block: a shape the compiler turns into vector compares and
/// adds.
#[inline(always)]
fn count_group(group: &[u8], cr: &mut [u8; LANES]) -> usize {
    let mut counts = [0u8; LANES];
    for block in group.chunks_exact(LANES) {
        let block: &[u8; LANES] = block.try_into().expect("a block of LANES bytes");
        for i in 0..LANES {
            counts[i] += u8::from(block[i] == b'\n');
            cr[i] |= u8::from(block[i] == b'\r');
        }
    }
    counts.iter().map(|&n| usize::from(n)).sum()
}

impl LineEndings {
    pub fn name(self) -> &'static str {
        match self {
            LineEndings::Lf => "lf",
            LineEndings::Crlf => "crlf",
            LineEndings::Mixed => "mixed",
            LineEndings::None => "none",
        }
    }
}

/// Watches consecutive pieces of a stream. A lone `\r` is not a line end.
#[derive(Debug, Default, Clone, Copy)]
pub struct EndingsScan {
    crlf: bool,
    bare_lf: bool,
    prev_cr: bool,
}

impl EndingsScan {
    pub fn scan(&mut self, bytes: &[u8]) {
        let Some(&last) = bytes.last() else { return };
        if !(self.crlf && self.bare_lf) {
            // Most files have no '\r' at all: one fast search settles the piece. Otherwise
            // compare the count of CRLF pairs with the count of newlines.
            if self.crlf || self.prev_cr || bytes::find(b'\r', bytes).is_some() {
                let newlines = bytes::count(b'\n', bytes);
                let pairs = count_crlf(bytes) + usize::from(self.prev_cr && bytes[0] == b'\n');
                self.crlf |= pairs > 0;
                self.bare_lf |= newlines > pairs;
            } else if !self.bare_lf {
                self.bare_lf = bytes::find(b'\n', bytes).is_some();
            }
        }
        self.prev_cr = last == b'\r';
    }

    /// [`EndingsScan::scan`] that also counts the piece's newlines, for a caller that needs
    /// both: one pass over a piece with no `\r`.
    pub fn scan_counting(&mut self, bytes: &[u8]) -> usize {
        let Some(&last) = bytes.last() else { return 0 };
        if self.crlf && self.bare_lf {
            self.prev_cr = last == b'\r';
            return bytes::count(b'\n', bytes);
        }
        let newlines = match self.crlf || self.prev_cr {
            true => bytes::count(b'\n', bytes),
            false => match newlines_and_cr(bytes) {
                (newlines, false) => {
                    self.bare_lf |= newlines > 0;
                    self.prev_cr = false;
                    return newlines;
                }
                (newlines, true) => newlines,
            },
        };
        let pairs = count_crlf(bytes) + usize::from(self.prev_cr && bytes[0] == b'\n');
        self.crlf |= pairs > 0;
        self.bare_lf |= newlines > pairs;
        self.prev_cr = last == b'\r';
        newlines
    }

    /// Passes over a piece known to hold no `\n`: only its last byte matters (a `\r` there
    /// may begin a CRLF).
    pub fn pass_without_newline(&mut self, bytes: &[u8]) {
        if let Some(&last) = bytes.last() {
            self.prev_cr = last == b'\r';
        }
    }

    /// A scan that goes on after `byte` (for a piece whose first byte is scanned elsewhere).
    pub fn after(byte: u8) -> EndingsScan {
        EndingsScan {
            prev_cr: byte == b'\r',
            ..EndingsScan::default()
        }
    }

    /// Continues this scan with a following piece: its first byte `first`, and `rest`, the
    /// scan of the piece after that byte (started with [`EndingsScan::after`]).
    pub fn join(&mut self, first: u8, rest: &EndingsScan) {
        if first == b'\n' {
            match self.prev_cr {
                true => self.crlf = true,
                false => self.bare_lf = true,
            }
        }
        self.crlf |= rest.crlf;
        self.bare_lf |= rest.bare_lf;
        self.prev_cr = rest.prev_cr;
    }

    pub fn result(&self) -> LineEndings {
        match (self.crlf, self.bare_lf) {
            (true, true) => LineEndings::Mixed,
            (true, false) => LineEndings::Crlf,
            (false, true) => LineEndings::Lf,
            (false, false) => LineEndings::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive(bytes: &[u8]) -> LineEndings {
        let mut crlf = false;
        let mut lf = false;
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                if i > 0 && bytes[i - 1] == b'\r' {
                    crlf = true;
                } else {
                    lf = true;
                }
            }
        }
        EndingsScan {
            crlf,
            bare_lf: lf,
            prev_cr: false,
        }
        .result()
    }

    fn scan_in_pieces(bytes: &[u8], pieces: &[usize]) -> LineEndings {
        let mut scan = EndingsScan::default();
        let mut rest = bytes;
        for &p in pieces {
            let p = p.min(rest.len());
            scan.scan(&rest[..p]);
            rest = &rest[p..];
        }
        scan.scan(rest);
        scan.result()
    }

    #[test]
    fn crlf_pairs_are_counted_across_blocks() {
        let data = b"a\r\nb\r\r\n\n\r".repeat(100);
        let naive = data.windows(2).filter(|w| w == b"\r\n").count();
        assert_eq!(count_crlf(&data), naive);
        assert_eq!(count_crlf(b"\r"), 0);
        assert_eq!(count_crlf(b""), 0);
    }

    #[test]
    fn names_each_kind() {
        assert_eq!(scan_in_pieces(b"a\nb\n", &[]), LineEndings::Lf);
        assert_eq!(scan_in_pieces(b"a\r\nb\r\n", &[2]), LineEndings::Crlf);
        assert_eq!(scan_in_pieces(b"a\r\nb\n", &[]), LineEndings::Mixed);
        assert_eq!(scan_in_pieces(b"abc", &[]), LineEndings::None);
        assert_eq!(scan_in_pieces(b"a\rb\rc", &[]), LineEndings::None);
        assert_eq!(scan_in_pieces(b"a\rb\nc\n", &[]), LineEndings::Lf);
    }

    #[test]
    fn newlines_and_cr_are_found_in_every_lane_and_group() {
        // Past one group of 255 blocks of 32, so every path runs: groups, blocks, the tail.
        let len = LANES * 255 * 2 + LANES * 3 + 7;
        let zeros = vec![b'x'; len];
        assert_eq!(newlines_and_cr(&zeros), (0, false));
        assert_eq!(newlines_and_cr_lanes(&zeros), (0, false));
        let newlines = vec![b'\n'; len];
        assert_eq!(newlines_and_cr(&newlines), (len, false));
        for at in [0, 1, 31, 32, LANES * 255 - 1, LANES * 255, len - 8, len - 1] {
            let mut bytes = zeros.clone();
            bytes[at] = b'\r';
            assert_eq!(newlines_and_cr(&bytes), (0, true), "\\r at {at}");
            bytes[at] = b'\n';
            assert_eq!(newlines_and_cr(&bytes), (1, false), "\\n at {at}");
        }
    }

    proptest! {
        #[test]
        fn the_fused_count_agrees_with_a_count_and_a_search(
            bytes in proptest::collection::vec(any::<u8>(), 0..9_000),
        ) {
            let expected = (bytes::count(b'\n', &bytes), bytes.contains(&b'\r'));
            prop_assert_eq!(newlines_and_cr(&bytes), expected);
            prop_assert_eq!(newlines_and_cr_lanes(&bytes), expected);
        }

        #[test]
        fn scanning_while_counting_agrees_with_scanning(
            bytes in proptest::collection::vec(prop_oneof![Just(b'\r'), Just(b'\n'), Just(b'x')], 0..200),
            pieces in proptest::collection::vec(0usize..80, 0..8),
        ) {
            let mut scan = EndingsScan::default();
            let mut counting = EndingsScan::default();
            let mut newlines = 0;
            let mut rest = &bytes[..];
            for p in pieces.into_iter().chain([usize::MAX]) {
                let (piece, after) = rest.split_at(p.min(rest.len()));
                scan.scan(piece);
                newlines += counting.scan_counting(piece);
                prop_assert_eq!(counting.result(), scan.result());
                rest = after;
            }
            prop_assert_eq!(newlines, bytes::count(b'\n', &bytes));
            prop_assert_eq!(counting.result(), naive(&bytes));
        }

        #[test]
        fn agrees_with_a_byte_by_byte_scan(
            bytes in proptest::collection::vec(prop_oneof![Just(b'\r'), Just(b'\n'), Just(b'x')], 0..40),
            pieces in proptest::collection::vec(0usize..6, 0..8),
        ) {
            prop_assert_eq!(scan_in_pieces(&bytes, &pieces), naive(&bytes));
        }
    }
}
