//! Byte searches, counts and UTF-8 checks that ask the CPU what it has only once a
//! buffer is big enough to gain from it.
//!
//! `memchr`, `bytecount` and `simdutf8` pick AVX2 at run time, and their first call runs
//! the standard library's CPU detection: a dozen `cpuid` instructions. Each one traps to
//! the hypervisor in a virtual machine, so the detection costs about 100 µs there, a
//! tenth of a whole small read (docs/performance.md, "No CPU detection for a small
//! read"). SSE2 is part of every x86-64 CPU and needs no detection, and below a few
//! hundred KiB it loses less than the detection costs. So every call here runs SSE2 (or
//! the standard library's portable code) until one buffer of [`WIDE_FROM`] bytes or more
//! is seen; from then on, for the rest of the process, the crates' own dispatch runs.
//! Elsewhere than on x86-64 the crates' own choice is always taken.

use std::sync::atomic::{AtomicBool, Ordering};

/// The size of one buffer from which the CPU's widest instructions are worth detecting.
/// The readers fill 256 KiB buffers, so any input bigger than one buffer turns them on.
pub const WIDE_FROM: usize = 128 * 1024;

static WIDE: AtomicBool = AtomicBool::new(false);

/// Whether a call over `len` bytes uses the crates' detected instructions.
#[inline]
fn wide(len: usize) -> bool {
    if !cfg!(target_arch = "x86_64") || WIDE.load(Ordering::Relaxed) {
        return true;
    }
    if len >= WIDE_FROM {
        WIDE.store(true, Ordering::Relaxed);
        return true;
    }
    false
}

#[cfg(target_arch = "x86_64")]
mod narrow {
    //! SSE2 searches: present on every x86-64 CPU, chosen at compile time.
    use memchr::arch::x86_64::sse2::memchr::{One, Three};

    fn one(needle: u8) -> One {
        One::new(needle).expect("SSE2 is part of x86-64")
    }
    pub fn find(needle: u8, haystack: &[u8]) -> Option<usize> {
        one(needle).find(haystack)
    }
    pub fn rfind(needle: u8, haystack: &[u8]) -> Option<usize> {
        one(needle).rfind(haystack)
    }
    pub fn count(needle: u8, haystack: &[u8]) -> usize {
        one(needle).count(haystack)
    }
    pub fn find3(a: u8, b: u8, c: u8, haystack: &[u8]) -> Option<usize> {
        Three::new(a, b, c)
            .expect("SSE2 is part of x86-64")
            .find(haystack)
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod narrow {
    //! Never called: elsewhere than on x86-64 every call is wide.
    pub fn find(needle: u8, haystack: &[u8]) -> Option<usize> {
        memchr::memchr(needle, haystack)
    }
    pub fn rfind(needle: u8, haystack: &[u8]) -> Option<usize> {
        memchr::memrchr(needle, haystack)
    }
    pub fn count(needle: u8, haystack: &[u8]) -> usize {
        bytecount::count(haystack, needle)
    }
    pub fn find3(a: u8, b: u8, c: u8, haystack: &[u8]) -> Option<usize> {
        memchr::memchr3(a, b, c, haystack)
    }
}

/// The first `needle` in `haystack`.
#[inline]
pub fn find(needle: u8, haystack: &[u8]) -> Option<usize> {
    match wide(haystack.len()) {
        true => memchr::memchr(needle, haystack),
        false => narrow::find(needle, haystack),
    }
}

/// The last `needle` in `haystack`.
#[inline]
pub fn rfind(needle: u8, haystack: &[u8]) -> Option<usize> {
    match wide(haystack.len()) {
        true => memchr::memrchr(needle, haystack),
        false => narrow::rfind(needle, haystack),
    }
}

/// The first of `a`, `b` or `c` in `haystack`.
#[inline]
pub fn find3(a: u8, b: u8, c: u8, haystack: &[u8]) -> Option<usize> {
    match wide(haystack.len()) {
        true => memchr::memchr3(a, b, c, haystack),
        false => narrow::find3(a, b, c, haystack),
    }
}

/// How many `needle`s `haystack` holds.
#[inline]
pub fn count(needle: u8, haystack: &[u8]) -> usize {
    match wide(haystack.len()) {
        true => bytecount::count(haystack, needle),
        false => narrow::count(needle, haystack),
    }
}

/// The characters of valid UTF-8 `text`.
#[inline]
pub fn chars(text: &str) -> usize {
    match wide(text.len()) {
        true => bytecount::num_chars(text.as_bytes()),
        false => text.chars().count(),
    }
}

/// `bytes` as text, if they are valid UTF-8.
#[inline]
pub fn utf8(bytes: &[u8]) -> Option<&str> {
    match wide(bytes.len()) {
        true => simdutf8::basic::from_utf8(bytes).ok(),
        false => std::str::from_utf8(bytes).ok(),
    }
}

/// Where `needle` first occurs in `haystack`.
pub fn find_str(needle: &[u8], haystack: &[u8]) -> Option<usize> {
    let Some((&first, _)) = needle.split_first() else {
        return Some(0);
    };
    if wide(haystack.len()) {
        return memchr::memmem::find(haystack, needle);
    }
    positions(first, haystack).find(|&at| haystack[at..].starts_with(needle))
}

/// Every `needle` in `haystack`, first to last (or last to first, from the back).
pub fn positions(needle: u8, haystack: &[u8]) -> Positions<'_> {
    match wide(haystack.len()) {
        true => Positions::Wide(memchr::memchr_iter(needle, haystack)),
        false => Positions::Narrow(Narrow {
            needle,
            haystack,
            front: 0,
            back: haystack.len(),
        }),
    }
}

/// The iterator of [`positions`].
pub enum Positions<'h> {
    Wide(memchr::Memchr<'h>),
    Narrow(Narrow<'h>),
}

/// [`positions`] on SSE2: the part `front..back` of `haystack` is still to be searched.
pub struct Narrow<'h> {
    needle: u8,
    haystack: &'h [u8],
    front: usize,
    back: usize,
}

impl Narrow<'_> {
    fn rest(&self) -> &[u8] {
        &self.haystack[self.front..self.back]
    }
}

impl Iterator for Positions<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        match self {
            Positions::Wide(inner) => inner.next(),
            Positions::Narrow(n) => {
                let at = n.front + narrow::find(n.needle, n.rest())?;
                n.front = at + 1;
                Some(at)
            }
        }
    }
}

impl DoubleEndedIterator for Positions<'_> {
    fn next_back(&mut self) -> Option<usize> {
        match self {
            Positions::Wide(inner) => inner.next_back(),
            Positions::Narrow(n) => {
                let at = n.front + narrow::rfind(n.needle, n.rest())?;
                n.back = at;
                Some(at)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each narrow answer is the crates' own, over lengths around the SIMD block sizes.
    /// (The first wide-sized buffer turns the narrow path off for the process, so the
    /// buffers here stay small.)
    #[test]
    fn narrow_answers_are_the_crates_answers() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for len in (0..200).chain([255, 256, 257, 1000, 4095, 4096, 4097]) {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    [b'a', b'\n', b'\r', 0xC3, 0xA9, b'/'][(seed % 6) as usize]
                })
                .collect();
            assert_eq!(narrow::find(b'\n', &bytes), memchr::memchr(b'\n', &bytes));
            assert_eq!(narrow::rfind(b'/', &bytes), memchr::memrchr(b'/', &bytes));
            assert_eq!(
                narrow::count(b'\n', &bytes),
                bytecount::count(&bytes, b'\n')
            );
            let three = narrow::find3(b'\r', b'/', 0xA9, &bytes);
            assert_eq!(three, memchr::memchr3(b'\r', b'/', 0xA9, &bytes));
            let forward: Vec<usize> = positions(b'\n', &bytes).collect();
            assert_eq!(
                forward,
                memchr::memchr_iter(b'\n', &bytes).collect::<Vec<_>>()
            );
            let backward: Vec<usize> = positions(b'/', &bytes).rev().collect();
            assert_eq!(
                backward,
                memchr::memrchr_iter(b'/', &bytes).collect::<Vec<_>>()
            );
            assert_eq!(
                find_str(b"\r/", &bytes),
                memchr::memmem::find(&bytes, b"\r/")
            );
            assert_eq!(utf8(&bytes).is_some(), std::str::from_utf8(&bytes).is_ok());
            if let Some(text) = utf8(&bytes) {
                assert_eq!(chars(text), bytecount::num_chars(text.as_bytes()));
            }
        }
    }

    /// Taken from both ends at once, positions meet without losing or repeating one.
    #[test]
    fn positions_from_both_ends_meet() {
        let bytes = b"a\nb\nc\nd\n";
        let mut it = positions(b'\n', bytes);
        assert_eq!(it.next(), Some(1));
        assert_eq!(it.next_back(), Some(7));
        assert_eq!(it.next(), Some(3));
        assert_eq!(it.next_back(), Some(5));
        assert_eq!(it.next(), None);
        assert_eq!(it.next_back(), None);
    }
}
