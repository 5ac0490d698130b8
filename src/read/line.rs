//! One line's text, fed in pieces: skip to `--start-char`, keep `--max-line-chars`
//! characters, count the rest; invalid UTF-8 becomes U+FFFD as `from_utf8_lossy` would.
//!
//! The cutter never holds more of a line than the part it shows, and the part it shows
//! is bounded twice: by characters (`--max-line-chars`, at most [`MAX_LINE_CHARS`]) and by
//! bytes (what is left of `--max-bytes`). A 1 GiB line costs a character count, not 1 GiB
//! of memory, whatever the options.

use super::bytes;

/// The most characters of one line ever kept, whatever `--max-line-chars` says.
pub const MAX_LINE_CHARS: u64 = 1_000_000;

/// What a line turned out to be once all its pieces were fed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LineFacts {
    /// Characters before the shown part (`--start-char` - 1, or fewer if the line is short).
    pub skipped: u64,
    /// Characters shown.
    pub shown: u64,
    /// Characters after the cut (the cut marker's count).
    pub dropped: u64,
    /// A U+FFFD was written into the shown part.
    pub replaced: bool,
}

impl LineFacts {
    /// The line's length in characters (a CRLF's `\r` excluded, as the reader strips it).
    pub fn total(&self) -> u64 {
        self.skipped + self.shown + self.dropped
    }

    pub fn is_cut(&self) -> bool {
        self.dropped > 0
    }
}

/// Streams one line's bytes into `out`, cutting and counting on the way.
#[derive(Debug)]
pub struct LineCutter {
    to_skip: u64,
    to_keep: u64,
    /// Bytes of text that may still be kept (the window's byte budget).
    bytes_left: usize,
    facts: LineFacts,
    /// The start of a multi-byte character split across two pieces.
    carry: [u8; 4],
    carry_len: usize,
}

const REPLACEMENT: &str = "\u{FFFD}";

impl LineCutter {
    /// `skip` characters are passed over, then at most `keep` are written.
    pub fn new(skip: u64, keep: u64) -> LineCutter {
        LineCutter::within(skip, keep, usize::MAX)
    }

    /// A cutter that keeps the whole line (`--all`): its writer must take the pieces as
    /// they come, or the line would be held whole.
    pub fn whole() -> LineCutter {
        LineCutter {
            to_keep: u64::MAX,
            ..LineCutter::new(0, 0)
        }
    }

    /// As [`LineCutter::new`], keeping at most `bytes` bytes of text too (but at least
    /// one character, so that paging with `--start-char` always moves on). A line cut by
    /// bytes is cut as one cut by characters is: marked, its rest counted.
    pub fn within(skip: u64, keep: u64, bytes: usize) -> LineCutter {
        LineCutter {
            to_skip: skip,
            to_keep: keep.min(MAX_LINE_CHARS),
            bytes_left: bytes,
            facts: LineFacts::default(),
            carry: [0; 4],
            carry_len: 0,
        }
    }

    /// Feeds the next piece of the line (no line terminator in it).
    pub fn feed(&mut self, mut bytes: &[u8], out: &mut Vec<u8>) {
        if self.carry_len > 0 {
            bytes = self.complete_carry(bytes, out);
        }
        if bytes.is_empty() {
            return;
        }
        // Most lines of code are short and ASCII, where a character is a byte.
        if bytes.len() <= 4096 && bytes.is_ascii() {
            self.emit_ascii(bytes, out);
            return;
        }
        // Most text is valid: validate at SIMD speed and take the piece whole; only pieces
        // with invalid bytes go through exact lossy decoding.
        let (body, tail) = split_incomplete_tail(bytes);
        if let Some(text) = bytes::utf8(body) {
            match self.is_counting() {
                true => self.facts.dropped += bytes::chars(text) as u64,
                false => self.emit_str(text, out),
            }
            self.stash(tail);
            return;
        }
        let mut chunks = bytes.utf8_chunks().peekable();
        while let Some(chunk) = chunks.next() {
            self.emit_str(chunk.valid(), out);
            let invalid = chunk.invalid();
            if invalid.is_empty() {
                continue;
            }
            if chunks.peek().is_none() && is_incomplete(invalid) {
                self.stash(invalid);
            } else {
                self.emit_replacement(out);
            }
        }
    }

    /// Past the shown part, with nothing left to skip or keep: only counting remains.
    pub fn is_counting(&self) -> bool {
        self.to_skip == 0 && self.to_keep == 0
    }

    /// The start of a character that the next piece would complete.
    pub fn carry(&self) -> &[u8] {
        &self.carry[..self.carry_len]
    }

    /// Counts `chars` more characters after the cut, measured elsewhere; they include the
    /// carried start of a character, which is dropped here.
    pub fn add_dropped(&mut self, chars: u64) {
        self.facts.dropped += chars;
        self.carry_len = 0;
    }

    /// Ends the line: a character left incomplete is invalid.
    pub fn finish(mut self, out: &mut Vec<u8>) -> LineFacts {
        if self.carry_len > 0 {
            let carry = self.carry;
            let len = self.carry_len;
            self.carry_len = 0;
            for chunk in carry[..len].utf8_chunks() {
                self.emit_str(chunk.valid(), out);
                if !chunk.invalid().is_empty() {
                    self.emit_replacement(out);
                }
            }
        }
        self.facts
    }

    fn stash(&mut self, bytes: &[u8]) {
        self.carry[..bytes.len()].copy_from_slice(bytes);
        self.carry_len = bytes.len();
    }

    /// Joins the carried bytes with the start of `bytes`; returns what is left of `bytes`.
    fn complete_carry<'a>(&mut self, mut bytes: &'a [u8], out: &mut Vec<u8>) -> &'a [u8] {
        while self.carry_len > 0 && !bytes.is_empty() {
            let held = self.carry_len;
            let take = (4 - held).min(bytes.len());
            let joined = Joined::of(&self.carry[..held], &bytes[..take]);
            let joined = joined.as_slice();
            match first_unit(joined) {
                Unit::Char(len) => {
                    let text = std::str::from_utf8(&joined[..len]).unwrap_or(REPLACEMENT);
                    self.emit_str(text, out);
                    self.carry_len = 0;
                    bytes = &bytes[len - held..];
                }
                Unit::Invalid(len) => {
                    self.emit_replacement(out);
                    if len >= held {
                        self.carry_len = 0;
                        bytes = &bytes[len - held..];
                    } else {
                        self.carry.copy_within(len..held, 0);
                        self.carry_len = held - len;
                    }
                }
                Unit::Incomplete => {
                    self.stash(joined);
                    bytes = &bytes[take..];
                }
            }
        }
        bytes
    }

    fn emit_str(&mut self, mut text: &str, out: &mut Vec<u8>) {
        if text.is_empty() {
            return;
        }
        if self.to_skip > 0 {
            match nth_char_offset(text, self.to_skip) {
                Some(at) => {
                    self.facts.skipped += self.to_skip;
                    self.to_skip = 0;
                    text = &text[at..];
                }
                None => {
                    let n = char_count(text);
                    self.facts.skipped += n;
                    self.to_skip -= n;
                    return;
                }
            }
        }
        if self.to_keep > 0 {
            let by_chars = nth_char_offset(text, self.to_keep);
            let mut at = by_chars.unwrap_or(text.len());
            let by_bytes = at > self.bytes_left;
            if by_bytes {
                at = text.floor_char_boundary(self.bytes_left);
                if at == 0 && self.facts.shown == 0 {
                    at = text.chars().next().map_or(0, char::len_utf8);
                }
            }
            let n = match (by_chars, by_bytes) {
                (Some(_), false) => self.to_keep,
                _ => char_count(&text[..at]),
            };
            out.extend_from_slice(&text.as_bytes()[..at]);
            self.facts.shown += n;
            self.to_keep -= n;
            self.bytes_left = self.bytes_left.saturating_sub(at);
            if by_bytes {
                self.to_keep = 0;
            }
            text = &text[at..];
            if self.to_keep > 0 {
                return;
            }
        }
        self.facts.dropped += char_count(text);
    }

    /// [`LineCutter::emit_str`] for ASCII, where counting characters is taking lengths.
    fn emit_ascii(&mut self, mut text: &[u8], out: &mut Vec<u8>) {
        let skip = self.to_skip.min(text.len() as u64);
        self.to_skip -= skip;
        self.facts.skipped += skip;
        text = &text[skip as usize..];
        let by_chars = self.to_keep.min(text.len() as u64) as usize;
        let mut keep = by_chars.min(self.bytes_left);
        if keep == 0 && by_chars > 0 && self.facts.shown == 0 {
            keep = 1;
        }
        out.extend_from_slice(&text[..keep]);
        self.to_keep -= keep as u64;
        self.facts.shown += keep as u64;
        self.bytes_left = self.bytes_left.saturating_sub(keep);
        if keep < by_chars {
            self.to_keep = 0;
        }
        self.facts.dropped += (text.len() - keep) as u64;
    }

    fn emit_replacement(&mut self, out: &mut Vec<u8>) {
        let shown = self.facts.shown;
        self.emit_str(REPLACEMENT, out);
        if self.facts.shown > shown {
            self.facts.replaced = true;
        }
    }
}

fn char_count(text: &str) -> u64 {
    bytes::chars(text) as u64
}

/// The byte offset of character `n` (0-based), or None when `text` has at most `n` characters.
fn nth_char_offset(text: &str, n: u64) -> Option<usize> {
    if (text.len() as u64) <= n {
        // Every character takes at least a byte: no n-th character here.
        return None;
    }
    text.char_indices().nth(n as usize).map(|(at, _)| at)
}

/// Splits off a trailing character that the next piece may complete (at most 3 bytes).
/// The bytes of a character split between two reads, side by side: what was held from
/// the first read, then the bytes of the next one that belong to it (at most 8 in all).
/// The one place such a character is put back together.
pub(crate) struct Joined {
    bytes: [u8; 8],
    len: usize,
}

impl Joined {
    pub(crate) fn of(held: &[u8], next: &[u8]) -> Joined {
        let mut bytes = [0u8; 8];
        let len = (held.len() + next.len()).min(8);
        let from_next = len - held.len().min(len);
        bytes[..held.len().min(len)].copy_from_slice(&held[..held.len().min(len)]);
        bytes[held.len().min(len)..len].copy_from_slice(&next[..from_next]);
        Joined { bytes, len }
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

pub(crate) fn split_incomplete_tail(bytes: &[u8]) -> (&[u8], &[u8]) {
    let from = bytes.len().saturating_sub(3);
    for at in (from..bytes.len()).rev() {
        let b = bytes[at];
        if b & 0xC0 == 0x80 {
            continue; // a continuation byte: keep looking for its lead
        }
        if bytes.len() - at < utf8_width(b) {
            return bytes.split_at(at);
        }
        break;
    }
    (bytes, &[])
}

/// How many bytes the UTF-8 character that begins with `lead` takes (1 for a byte that
/// cannot begin one).
pub(crate) fn utf8_width(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// Whether `invalid` (as reported by `utf8_chunks` at the end of a piece) is the valid
/// beginning of a character that the next piece may complete.
fn is_incomplete(invalid: &[u8]) -> bool {
    matches!(std::str::from_utf8(invalid), Err(e) if e.error_len().is_none())
}

enum Unit {
    /// A whole character of this many bytes.
    Char(usize),
    /// An invalid sequence of this many bytes: one U+FFFD.
    Invalid(usize),
    /// The valid start of a character; more bytes are needed.
    Incomplete,
}

fn first_unit(bytes: &[u8]) -> Unit {
    let valid = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) if e.valid_up_to() > 0 => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(e) => {
            return match e.error_len() {
                Some(len) => Unit::Invalid(len),
                None => Unit::Incomplete,
            };
        }
    };
    match valid.chars().next() {
        Some(c) => Unit::Char(c.len_utf8()),
        None => Unit::Invalid(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Feeds `line` in pieces of the given sizes and returns the shown text and facts.
    fn cut(line: &[u8], skip: u64, keep: u64, pieces: &[usize]) -> (String, LineFacts) {
        let mut cutter = LineCutter::new(skip, keep);
        let mut out = Vec::new();
        let mut rest = line;
        for &size in pieces {
            let size = size.min(rest.len());
            cutter.feed(&rest[..size], &mut out);
            rest = &rest[size..];
        }
        cutter.feed(rest, &mut out);
        let facts = cutter.finish(&mut out);
        (
            String::from_utf8(out).expect("cutter output is UTF-8"),
            facts,
        )
    }

    /// The reference: decode the whole line, then slice characters.
    fn naive(line: &[u8], skip: u64, keep: u64) -> (String, u64, u64, bool) {
        let text = String::from_utf8_lossy(line);
        let chars: Vec<char> = text.chars().collect();
        let from = (skip as usize).min(chars.len());
        let to = (from + keep as usize).min(chars.len());
        let shown: String = chars[from..to].iter().collect();
        let replaced = shown.contains('\u{FFFD}') && !line_has_literal_fffd(line);
        (
            shown,
            chars.len() as u64,
            (chars.len() - to) as u64,
            replaced,
        )
    }

    fn line_has_literal_fffd(line: &[u8]) -> bool {
        line.windows(3).any(|w| w == "\u{FFFD}".as_bytes())
    }

    #[test]
    fn keeps_exactly_n_characters_and_counts_the_rest() {
        let (shown, facts) = cut("héllo wörld".as_bytes(), 0, 5, &[]);
        assert_eq!(shown, "héllo");
        assert_eq!((facts.shown, facts.dropped, facts.total()), (5, 6, 11));
        assert!(facts.is_cut());
    }

    #[test]
    fn a_character_split_across_pieces_is_whole() {
        let line = "a€b".as_bytes(); // € is 3 bytes
        for split in 1..line.len() {
            let (shown, facts) = cut(line, 0, 10, &[split]);
            assert_eq!(shown, "a€b", "split at {split}");
            assert!(!facts.replaced);
        }
    }

    #[test]
    fn invalid_bytes_become_one_replacement_each_maximal_subpart() {
        let line = b"a\xE2\x82b\xFFc\xF0\x9F";
        let (shown, facts) = cut(line, 0, 100, &[2]);
        assert_eq!(shown, String::from_utf8_lossy(line));
        assert!(facts.replaced);
    }

    #[test]
    fn invalid_bytes_after_the_cut_do_not_count_as_shown() {
        let (shown, facts) = cut(b"abc\xFF\xFEdef", 0, 3, &[]);
        assert_eq!(shown, "abc");
        assert!(!facts.replaced);
        assert_eq!(facts.dropped, 5);
    }

    #[test]
    fn skip_passes_over_characters_before_the_shown_part() {
        let (shown, facts) = cut("0123456789".as_bytes(), 4, 3, &[2, 3]);
        assert_eq!(shown, "456");
        assert_eq!((facts.skipped, facts.shown, facts.dropped), (4, 3, 3));
    }

    #[test]
    fn the_byte_budget_cuts_too_and_keeps_one_character_at_least() {
        let mut out = Vec::new();
        let mut cutter = LineCutter::within(0, 100, 5);
        cutter.feed("héllo wörld".as_bytes(), &mut out);
        let facts = cutter.finish(&mut out);
        assert_eq!(String::from_utf8(out).unwrap(), "héll");
        assert_eq!((facts.shown, facts.dropped), (4, 7));
        let mut out = Vec::new();
        let mut cutter = LineCutter::within(0, 100, 1);
        cutter.feed("€uro".as_bytes(), &mut out);
        let facts = cutter.finish(&mut out);
        assert_eq!(String::from_utf8(out).unwrap(), "€");
        assert_eq!((facts.shown, facts.dropped), (1, 3));
    }

    #[test]
    fn no_line_keeps_more_than_a_million_characters() {
        let mut out = Vec::new();
        let mut cutter = LineCutter::new(0, u64::MAX);
        for _ in 0..3 {
            cutter.feed(&[b'x'; 1 << 20], &mut out);
        }
        let facts = cutter.finish(&mut out);
        assert_eq!(out.len() as u64, MAX_LINE_CHARS);
        assert_eq!(facts.dropped, 3 * (1 << 20) - MAX_LINE_CHARS);
    }

    proptest! {
        #[test]
        fn a_byte_budget_keeps_the_characters_that_fit(
            line in proptest::collection::vec(
                prop_oneof![Just(b'a'), Just(0xC3u8), Just(0xA9u8), Just(0xE2u8), Just(0x82u8),
                    Just(0xACu8), Just(0xF0u8), Just(0x9Fu8), Just(0x98u8), Just(0x80u8)],
                0..48,
            ),
            skip in 0u64..6,
            keep in 0u64..30,
            bytes in 0usize..24,
            pieces in proptest::collection::vec(0usize..8, 0..10),
        ) {
            let mut cutter = LineCutter::within(skip, keep, bytes);
            let mut out = Vec::new();
            let mut rest = &line[..];
            for &size in &pieces {
                let size = size.min(rest.len());
                cutter.feed(&rest[..size], &mut out);
                rest = &rest[size..];
            }
            cutter.feed(rest, &mut out);
            let facts = cutter.finish(&mut out);
            let text = String::from_utf8_lossy(&line);
            let chars: Vec<char> = text.chars().skip(skip as usize).collect();
            let mut want = String::new();
            for c in chars.iter().take(keep as usize) {
                if !want.is_empty() && want.len() + c.len_utf8() > bytes {
                    break;
                }
                want.push(*c);
            }
            prop_assert_eq!(String::from_utf8(out).unwrap(), want.clone());
            prop_assert_eq!(facts.shown, want.chars().count() as u64);
            prop_assert_eq!(facts.total(), text.chars().count() as u64);
        }

        #[test]
        fn matches_lossy_decoding_of_the_whole_line(
            line in proptest::collection::vec(
                prop_oneof![
                    Just(b'a'), Just(0xC3u8), Just(0xA9u8), Just(0xE2u8), Just(0x82u8),
                    Just(0xACu8), Just(0xF0u8), Just(0x9Fu8), Just(0x98u8), Just(0x80u8),
                    Just(0xFFu8), any::<u8>()
                ],
                0..64,
            ),
            skip in 0u64..20,
            keep in 0u64..40,
            pieces in proptest::collection::vec(0usize..8, 0..10),
        ) {
            let (shown, facts) = cut(&line, skip, keep, &pieces);
            let (want, total, dropped, replaced) = naive(&line, skip, keep);
            prop_assert_eq!(shown, want);
            prop_assert_eq!(facts.total(), total);
            prop_assert_eq!(facts.dropped, dropped);
            if !line_has_literal_fffd(&line) {
                prop_assert_eq!(facts.replaced, replaced);
            }
        }
    }
}
