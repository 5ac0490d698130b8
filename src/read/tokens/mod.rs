//! Tokens as the unit (SPEC §18): exact `o200k_base` counts of rendered content. The
//! pattern's DFA and the vocabulary are tables in the binary, read in place, so the
//! first count costs what any other does (see ARCHITECTURE.md for the choice).

use std::ops::Range;

mod merge;
pub mod pieces;
pub mod vocabulary;

/// The exact `o200k_base` token count of `text` (invalid UTF-8 counted as U+FFFD).
pub fn count(text: &[u8]) -> u64 {
    if text.is_empty() {
        return 0;
    }
    counted(&String::from_utf8_lossy(text))
        .map(|(_, tokens)| tokens)
        .sum()
}

/// Each piece of `text`, as its byte range, with the tokens it encodes to.
fn counted(text: &str) -> impl Iterator<Item = (Range<usize>, u64)> {
    let vocab = vocabulary::o200k_base();
    let mut scratch = Vec::new();
    pieces::split(text).map(move |piece| {
        let start = piece.as_ptr() as usize - text.as_ptr() as usize;
        let bytes = piece.as_bytes();
        let tokens = memo::get(bytes).unwrap_or_else(|| {
            let tokens = merge::count(&vocab, bytes, &mut scratch);
            memo::put(bytes, tokens);
            tokens
        }) as u64;
        (start..start + piece.len(), tokens)
    })
}

/// The token counts of the short pieces counted lately on this thread, by their bytes.
/// Code repeats its pieces (` =`, `(`, ` self`, indentation), and each look-up in the
/// vocabulary is a few reads far apart in 6.7 MB, which made them most of a count's
/// time; a piece's count depends on its bytes alone, so a remembered one is exact.
mod memo {
    use std::cell::RefCell;

    /// Pieces of at most this many bytes are remembered.
    const LONGEST: usize = 16;
    /// 96 KiB a thread that counts (the MCP server has at most 33: its own and 32
    /// blocking ones); a thousand slots held too few of a file's pieces.
    const SLOTS: usize = 1 << 12;
    /// The slots a thread starts with (12 KiB). Each page of the table costs a page
    /// fault when first written, and the slots are spread at random: a command line that
    /// counts a page of 2,000 tokens wrote to all 24 pages of the whole table. The table
    /// grows to [`SLOTS`] (empty again: it only remembers) once it has taken as many
    /// pieces as it has slots.
    const FIRST_SLOTS: usize = 1 << 9;

    /// A piece's bytes as two words (see [`key`]), and its length and count as one; one
    /// piece a slot, the last whose bytes hash to it.
    type Slot = (u64, u64, u32);

    thread_local! {
        /// The slots, and how many pieces they have taken since they were made.
        static SLOTS_SEEN: RefCell<(Vec<Slot>, usize)> = const { RefCell::new((Vec::new(), 0)) };
    }

    /// The word of `bytes`' first `N` (at most 8) bytes.
    fn word<const N: usize>(bytes: &[u8]) -> u64 {
        let mut word = [0u8; 8];
        word[..N].copy_from_slice(&bytes[..N]);
        u64::from_le_bytes(word)
    }

    /// `piece` as two words and its length, which together tell it from any other, and
    /// the hash its slot is taken from: its first and last eight bytes (overlapping when
    /// shorter than 16), or four, or each byte. Read as whole words, not copied into a buffer a byte at a
    /// time, which stalled the load that followed.
    fn key(piece: &[u8]) -> Option<(u64, u64, u64)> {
        let len = piece.len();
        let (first, last) = match len {
            0 => (0, 0),
            1..=3 => (
                u64::from(piece[0])
                    | u64::from(piece[len / 2]) << 8
                    | u64::from(piece[len - 1]) << 16,
                0,
            ),
            4..=7 => (word::<4>(piece), word::<4>(&piece[len - 4..])),
            8..=LONGEST => (word::<8>(piece), word::<8>(&piece[len - 8..])),
            _ => return None,
        };
        let mixed = (first ^ last.rotate_left(29) ^ len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Some((first, last, mixed))
    }

    /// The slot of a piece whose hash is `mixed` in a table of `slots` slots (a power of
    /// two), from the hash's top bits.
    fn slot(mixed: u64, slots: usize) -> usize {
        (mixed >> (64 - slots.trailing_zeros())) as usize
    }

    /// The count remembered for `piece`, if it is.
    pub fn get(piece: &[u8]) -> Option<usize> {
        let (first, last, mixed) = key(piece)?;
        SLOTS_SEEN.with(|slots| {
            let (slots, _) = &*slots.borrow();
            // An empty table (none yet) has no slot 0: `get` finds nothing.
            let &(f, l, meta) = slots.get(slot(mixed, slots.len()))?;
            let tokens = (meta >> 8) as usize;
            (f == first && l == last && (meta & 0xff) as usize == piece.len() && tokens > 0)
                .then_some(tokens)
        })
    }

    /// How many slots this thread's table has (0 before its first piece).
    #[cfg(test)]
    pub fn size() -> usize {
        SLOTS_SEEN.with(|slots| slots.borrow().0.len())
    }

    /// Remembers `piece`'s count.
    pub fn put(piece: &[u8], tokens: usize) {
        let (Some((first, last, mixed)), Ok(tokens)) = (key(piece), u32::try_from(tokens)) else {
            return;
        };
        SLOTS_SEEN.with(|slots| {
            let (slots, taken) = &mut *slots.borrow_mut();
            if slots.is_empty() || (*taken == slots.len() && slots.len() < SLOTS) {
                let size = if slots.is_empty() { FIRST_SLOTS } else { SLOTS };
                *slots = vec![(0, 0, 0); size];
                *taken = 0;
            }
            *taken += 1;
            let at = slot(mixed, slots.len());
            slots[at] = (first, last, tokens << 8 | piece.len() as u32);
        });
    }
}

/// The token counts of `text`'s prefixes ending at each of `ends` (ascending byte
/// offsets on character boundaries), each exact: the encoder's pieces before the last
/// piece that reaches an end are counted once, in one pass over `text`, and only the
/// text from there to the end is counted again. A piece of the whole text may differ
/// from the same prefix's last pieces (a run of blank lines, a look-ahead), never from
/// the ones before, since the pattern looks behind nothing.
pub fn prefix_counts(text: &[u8], ends: &[usize]) -> Vec<u64> {
    let text = String::from_utf8_lossy(text);
    let text = text.as_ref();
    // (start of each piece, tokens before it).
    let mut pieces: Vec<(usize, u64)> = Vec::new();
    let mut before = 0u64;
    for (piece, tokens) in counted(text) {
        pieces.push((piece.start, before));
        before += tokens;
    }
    ends.iter()
        .map(|&end| prefix_count(text, &pieces, end))
        .collect()
}

/// The count of `text[..end]`, given the pieces of a text that starts with it (each
/// piece's start and the tokens before it, at least every piece that starts before
/// `end`): the pieces before the last two that reach `end`, and the rest counted anew.
fn prefix_count(text: &str, pieces: &[(usize, u64)], end: usize) -> u64 {
    let end = end.min(text.len());
    // The piece that holds the byte before `end`, and one more before it.
    let holding = pieces.partition_point(|&(start, _)| start < end);
    let (start, tokens) = match holding.saturating_sub(2) {
        0 => (0, 0),
        i => pieces[i],
    };
    tokens + count(&text.as_bytes()[start..end])
}

/// Whether `text` takes at most `max` tokens; counts no further than `max` (a token is
/// at least a byte, so text of at most `max` bytes is not counted at all).
pub fn within(text: &[u8], max: u64) -> bool {
    if text.len() as u64 <= max {
        return true;
    }
    if fewest(text) > max {
        return false;
    }
    let mut total = 0u64;
    counted(&String::from_utf8_lossy(text)).all(|(_, tokens)| {
        total += tokens;
        total <= max
    })
}

/// A bound below `text`'s token count, found without the encoder, from the pieces the
/// pattern must make: between two ASCII bytes that are neither letters, digits nor
/// apostrophes lies a stretch no letter or number piece leaves (letters come in one run
/// after at most one other character and before at most a contraction such as `'s`;
/// numbers are pieces of their own). A stretch of ASCII holds a piece for each run of
/// letters (apostrophes go with them: `it's` is one piece) and one for each three digits
/// of a run of digits; a stretch with non-ASCII bytes (invalid UTF-8 among them, U+FFFD
/// as counted) holds at least one piece when it has an ASCII letter or digit. Every
/// piece is at least a token.
pub fn fewest(text: &[u8]) -> u64 {
    // One pass, a byte at a time (a call per line is common), without a branch on the
    // byte's kind: a `match` on it was a jump through a table at every byte, mispredicted
    // whenever the kind changed, and made this bound a tenth of a `--fit --max-tokens`
    // read. A letter run counts where it starts, a digit run at every third digit; a
    // separator closes the stretch and adds what it holds.
    let mut pieces = 0u64;
    // The stretch so far: its ASCII pieces, whether it has a non-ASCII byte and whether
    // it has a letter or digit; inside a letter run (1) or not; digits of the open run,
    // modulo 3.
    let (mut ascii, mut wide, mut alnum, mut letters, mut phase) = (0u64, 0u64, 0u64, 0u64, 0u64);
    for &b in text {
        let kind = KINDS[usize::from(b)];
        let digit = u64::from(kind & DIGIT != 0);
        let letter = u64::from(kind & LETTER != 0);
        let separator = u64::from(kind & SEPARATOR != 0);
        ascii += digit & u64::from(phase == 0);
        ascii += letter & (letters ^ 1);
        phase = digit * NEXT_PHASE[phase as usize];
        letters = (letters | letter) & ((digit | separator) ^ 1);
        wide |= u64::from(kind & WIDE != 0);
        alnum |= digit | letter;
        // A separator adds the stretch's pieces and starts the next one empty.
        pieces += separator * stretch(ascii, wide, alnum);
        let keep = separator ^ 1;
        ascii *= keep;
        wide &= keep;
        alnum &= keep;
    }
    // The end closes the last stretch, as a separator does.
    pieces + stretch(ascii, wide, alnum)
}

/// The pieces a stretch between separators holds (see [`fewest`]): its ASCII pieces, or,
/// with a non-ASCII byte (`wide` 1), one if it has a letter or digit (`alnum` 1).
fn stretch(ascii: u64, wide: u64, alnum: u64) -> u64 {
    ascii * (wide ^ 1) + alnum * wide
}

/// The digits of a run modulo 3 after one more.
const NEXT_PHASE: [u64; 3] = [1, 2, 0];

/// What a byte is to [`fewest`]: one of these bits (an apostrophe has none: it neither
/// starts nor ends a letter run, and it ends a digit run as any non-digit does).
const DIGIT: u8 = 1;
const LETTER: u8 = 2;
/// A byte of a non-ASCII character (or of invalid UTF-8).
const WIDE: u8 = 4;
const SEPARATOR: u8 = 8;

/// Each byte's kind bit.
static KINDS: [u8; 256] = {
    let mut kinds = [SEPARATOR; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        kinds[b] = if byte.is_ascii_digit() {
            DIGIT
        } else if byte.is_ascii_alphabetic() {
            LETTER
        } else if byte == b'\'' {
            0
        } else if byte >= 0x80 {
            WIDE
        } else {
            SEPARATOR
        };
        b += 1;
    }
    kinds
};

/// How many of `text`'s first lines, ending at `ends`, fit `max` tokens together: the
/// lines before the first whose end takes the prefix past `max`.
pub fn lines_within(text: &[u8], ends: &[usize], max: u64) -> usize {
    lines_within_counted(text, ends, max).0
}

/// [`lines_within`], with the exact token count of the lines kept when at least one is
/// (the count the answer reports, found on the way: it need not be counted again).
pub fn lines_within_counted(text: &[u8], ends: &[usize], max: u64) -> (usize, Option<u64>) {
    let Ok(whole) = std::str::from_utf8(text) else {
        // Not UTF-8: its offsets would not be the pieces' (U+FFFD is counted): every
        // prefix counted.
        let text = &text[..ends.last().map_or(0, |&end| end.min(text.len()))];
        let counts = prefix_counts(text, ends);
        let keep = counts.iter().take_while(|&&c| c <= max).count();
        return verified(text, ends, keep, max);
    };
    // One pass over the whole text's pieces, up to where they pass `max`: a prefix holds
    // every piece of the whole text before the two that reach its end (see
    // [`prefix_counts`]), so once the pieces before piece `k` take more than `max`, no
    // prefix that ends past piece `k`'s end fits. A big window cut to a small budget
    // costs the budget, not the window.
    let mut pieces: Vec<(usize, u64)> = Vec::new();
    let mut before = 0u64;
    let mut reach = None;
    for (piece, tokens) in counted(whole) {
        pieces.push((piece.start, before));
        if before > max {
            reach = Some(piece.end);
            break;
        }
        before += tokens;
    }
    let within_reach = ends.partition_point(|&end| end <= reach.unwrap_or(whole.len()));
    // Each prefix's count is exact (see [`prefix_count`]): the last one kept is the
    // answer's count, and the kept text is not counted again. (A prefix may take more
    // tokens than a longer one, so each is asked.)
    let (mut keep, mut kept) = (0usize, None);
    for &end in &ends[..within_reach] {
        let tokens = prefix_count(whole, &pieces, end);
        if tokens > max {
            break;
        }
        (keep, kept) = (keep + 1, Some(tokens));
    }
    debug_assert_eq!(
        kept,
        keep.checked_sub(1).map(|last| count(&text[..ends[last]])),
        "a prefix's count is its own"
    );
    (keep, kept)
}

/// `keep` lines, fewer while their text passes `max`, and their exact count.
fn verified(text: &[u8], ends: &[usize], mut keep: usize, max: u64) -> (usize, Option<u64>) {
    while keep > 0 {
        let tokens = count(&text[..ends[keep - 1]]);
        if tokens <= max {
            return (keep, Some(tokens));
        }
        keep -= 1;
    }
    (0, None)
}

/// The byte offset after the first `chars` characters of `text` (its length when it
/// has fewer).
pub fn char_end(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(at, _)| at)
}

/// `len` picks from `alphabet` by a xorshift generator kept in `seed`: random test text
/// that is the same on every run.
#[cfg(test)]
fn picks<'a, T: Copy>(
    seed: &'a mut u64,
    alphabet: &'a [T],
    len: usize,
) -> impl Iterator<Item = T> + 'a {
    std::iter::repeat_with(move || {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        alphabet[(*seed % alphabet.len() as u64) as usize]
    })
    .take(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed tables are exactly what this builds from an independent
    /// `o200k_base` (tiktoken-rs's vocabulary) and OpenAI's pattern; with
    /// `AGENTREAD_WRITE_TABLES=1` it writes them instead.
    #[test]
    fn committed_tables_are_built_from_o200k_base() {
        use regex_automata::MatchKind;
        use regex_automata::dfa::{StartKind, dense};

        let reference = tiktoken_rs::o200k_base_singleton();
        // Ranks 0..199,998 are the ordinary tokens; the special ones come after.
        let tokens: Vec<Vec<u8>> = (0..199_998)
            .map(|rank| reference.decode_bytes(&[rank]).expect("an ordinary rank"))
            .collect();
        let vocab = vocabulary::build(&tokens, 19);
        let dfa = dense::Builder::new()
            .configure(
                dense::Config::new()
                    .start_kind(StartKind::Anchored)
                    .match_kind(MatchKind::LeftmostFirst)
                    .minimize(true),
            )
            .build_many(&pieces::PATTERNS)
            .expect("the pattern compiles");
        // Written from its first aligned byte: the binary keeps it aligned (`pieces`).
        let (bytes, pad) = dfa.to_bytes_little_endian();
        let dfa = bytes[pad..].to_vec();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/read/tokens");
        if std::env::var_os("AGENTREAD_WRITE_TABLES").is_some() {
            std::fs::write(dir.join("o200k_base.vocab"), &vocab).unwrap();
            std::fs::write(dir.join("o200k_base.dfa"), &dfa).unwrap();
        }
        assert!(std::fs::read(dir.join("o200k_base.vocab")).unwrap() == vocab);
        assert!(std::fs::read(dir.join("o200k_base.dfa")).unwrap() == dfa);
    }

    /// Long pieces (one word, one run of spaces or punctuation) are counted by
    /// backtracking, not tiktoken's own merge: the counts still agree with tiktoken-rs.
    #[test]
    fn long_pieces_count_as_tiktoken_does() {
        let reference = tiktoken_rs::o200k_base_singleton();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut random =
            |alphabet: &[&str], len: usize| -> String { picks(&mut seed, alphabet, len).collect() };
        let mut texts = vec![
            "é".repeat(3000),
            " ".repeat(5000) + "x",
            "a".repeat(4001),
            "=".repeat(999) + "\n",
            "ab".repeat(1500),
            "\n".repeat(700),
        ];
        for len in [129, 300, 1000, 2500] {
            texts.push(random(
                &["a", "b", "e", "r", "s", "t", "ing", "tion", "é", "ß"],
                len,
            ));
            texts.push(random(&["=", "-", "*", "/", "{", "}", "(", ")", "»"], len));
            texts.push(random(&["Q", "x", "Zz", "aB", "\u{301}"], len));
        }
        for text in texts {
            assert_eq!(
                count(text.as_bytes()) as usize,
                reference.encode_ordinary(&text).len(),
                "{text:?}"
            );
        }
    }

    /// [`fewest`] as its documentation says it, a stretch at a time.
    fn fewest_by_stretches(text: &[u8]) -> u64 {
        let mut pieces = 0;
        let stretches = text.split(|&b| !(b.is_ascii_alphanumeric() || b == b'\'' || b >= 0x80));
        for stretch in stretches {
            if !stretch.is_ascii() {
                pieces += u64::from(stretch.iter().any(u8::is_ascii_alphanumeric));
                continue;
            }
            let letters = stretch
                .split(u8::is_ascii_digit)
                .filter(|run| run.iter().any(u8::is_ascii_alphabetic))
                .count() as u64;
            let numbers: u64 = stretch
                .split(|b| !b.is_ascii_digit())
                .map(|run| (run.len() as u64).div_ceil(3))
                .sum();
            pieces += letters + numbers;
        }
        pieces
    }

    /// A remembered count is the piece's own: thousands of pieces (many sharing a slot,
    /// some of them prefixes of others or padded with NUL) counted twice each agree with
    /// the encoder.
    #[test]
    fn remembered_counts_are_each_pieces_own() {
        let vocab = vocabulary::o200k_base();
        let mut scratch = Vec::new();
        let mut pieces: Vec<Vec<u8>> = vec![b"a".to_vec(), b"a\0".to_vec(), b"\0".to_vec()];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..20_000u32 {
            pieces.push(format!(" x{}", i * 7919).into_bytes());
            pieces.push("ab".repeat((i % 9) as usize).into_bytes());
            // Every length up to past the longest remembered, of few letters: pieces that
            // differ in one byte only.
            pieces.push(picks(&mut seed, b"ab ", (i % 17) as usize + 1).collect());
        }
        for _ in 0..2 {
            for piece in &pieces {
                let expected = merge::count(&vocab, piece, &mut scratch);
                let got = memo::get(piece).unwrap_or_else(|| {
                    memo::put(piece, expected);
                    expected
                });
                assert_eq!(got, expected, "{piece:?}");
            }
        }
        assert_eq!(memo::get(b""), None);
    }

    /// A thread's table starts small, so that a short count writes to few pages, and
    /// grows once it has taken as many pieces as it has slots; a piece put after that is
    /// remembered.
    #[test]
    fn remembered_pieces_start_in_a_small_table_that_grows_once() {
        std::thread::spawn(|| {
            assert_eq!(memo::size(), 0);
            let small = (0..)
                .map(|i| format!(" y{i}"))
                .take(1 << 9)
                .collect::<Vec<_>>();
            for piece in &small {
                memo::put(piece.as_bytes(), 2);
                assert_eq!(memo::size(), 1 << 9);
            }
            memo::put(b" grown", 1);
            assert_eq!(memo::size(), 1 << 12);
            assert_eq!(memo::get(b" grown"), Some(1));
            for piece in &small {
                memo::put(piece.as_bytes(), 2);
            }
            assert_eq!(memo::size(), 1 << 12);
        })
        .join()
        .unwrap();
    }

    proptest::proptest! {
        /// The one-pass bound is the bound its documentation states, on any bytes
        /// (drawn from the kinds it tells apart, so that runs and stretches are common).
        #[test]
        fn fewest_is_the_stated_bound_on_any_bytes(
            text in proptest::collection::vec(
                proptest::sample::select(b"ab1234' .\n\xc3\xa9\xff_Z9".to_vec()),
                0..64,
            )
        ) {
            proptest::prop_assert_eq!(fewest(&text), fewest_by_stretches(&text));
        }
    }

    /// The bound `within` rejects with is never above the count.
    #[test]
    fn fewest_is_a_bound_below_the_count() {
        let texts = [
            "it's isn't we'll O'Neil's 'quoted' ''x'' don'T x1'.'2 a'1b",
            "1234567 12-34 | fn f(a: u8) 0x1F 3.14159 1\u{b2}3 \u{2192}.\u{2192} \u{2192}a.b\u{2192}",
            "fooBar HTTPServer x1y2z3 a.b.c a_b-c",
            "été → naïve ß\u{301}e \u{a0}a\u{a0}b 日本語 emoji 😀x",
            "   1 | fn main() {\n   2 |     let s = \"a b\";\n}\n\n",
            "a\tb\r\nc\n\n  d  e\u{2003}f",
        ];
        for text in texts {
            assert!(
                fewest(text.as_bytes()) <= count(text.as_bytes()),
                "{text:?}"
            );
            assert_eq!(
                fewest(text.as_bytes()),
                fewest_by_stretches(text.as_bytes())
            );
            for max in 0..count(text.as_bytes()) + 2 {
                assert_eq!(
                    within(text.as_bytes(), max),
                    count(text.as_bytes()) <= max,
                    "{text:?} {max}"
                );
            }
        }
        // Random strings of the bytes that matter, each way.
        let alphabet = [b'a', b'Z', b'1', b'9', b'\'', b' ', b'.', b'\n', 0xC3, 0xA9];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for len in 0..2000 {
            let text: Vec<u8> = picks(&mut seed, &alphabet, len % 40).collect();
            assert_eq!(fewest(&text), fewest_by_stretches(&text), "{text:?}");
        }
        // Real code, line by line and whole: this crate's own.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/read");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if !path.is_file() {
                continue;
            }
            let text = std::fs::read(path).unwrap();
            assert!(fewest(&text) <= count(&text));
            assert_eq!(fewest(&text), fewest_by_stretches(&text));
            for line in text.split(|&b| b == b'\n') {
                assert!(
                    fewest(line) <= count(line),
                    "{}",
                    String::from_utf8_lossy(line)
                );
            }
        }
        let mut bytes = b"abc \xff\xfe def".to_vec();
        bytes.extend_from_slice(b" x\x80y");
        assert!(fewest(&bytes) <= count(&bytes));
    }

    #[test]
    fn counts_are_exact_and_lazy_for_nothing() {
        assert_eq!(count(b""), 0);
        assert_eq!(count(b"hello world"), 2);
    }

    /// Counting only up to where the budget is passed keeps the same lines as counting
    /// every prefix of the window.
    #[test]
    fn lines_within_keeps_what_counting_every_prefix_keeps() {
        let text =
            "   1 | fn main() {\n   2 |     let s = \"a b\";\n\n\n   5 |   \n\t\tx\n    y  \n"
                .repeat(12);
        let ends: Vec<usize> = text.match_indices('\n').map(|(at, _)| at + 1).collect();
        let whole = count(text.as_bytes());
        for max in 0..=whole + 3 {
            let naive = ends
                .iter()
                .take_while(|&&end| count(&text.as_bytes()[..end]) <= max)
                .count();
            let (keep, tokens) = lines_within_counted(text.as_bytes(), &ends, max);
            assert_eq!(keep, naive, "max {max}");
            // The count given is the kept lines' own.
            let kept = naive
                .checked_sub(1)
                .map(|last| count(&text.as_bytes()[..ends[last]]));
            assert_eq!(tokens, kept, "max {max}");
        }
    }

    #[test]
    fn prefix_counts_agree_with_counting_each_prefix() {
        let text = "   1 | fn main() {\n   2 | \n\n\n   3 |     let x = 1;   \n   4 | }\n\
                    x\n\n  \n// comment\n\t\tfoo(bar)\n";
        let ends: Vec<usize> = text.match_indices('\n').map(|(at, _)| at + 1).collect();
        let counts = prefix_counts(text.as_bytes(), &ends);
        for (end, got) in ends.iter().zip(counts) {
            assert_eq!(got, count(&text.as_bytes()[..*end]), "prefix up to {end}");
        }
    }
}
