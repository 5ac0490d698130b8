//! The `o200k_base` pre-tokenizer: splits text into the pieces each encoded on its own,
//! with OpenAI's pattern compiled ahead of time into a DFA kept in the binary
//! (`o200k_base.dfa`), so that nothing is compiled at run time. The DFA is dense (2.1 MB,
//! read in place, a page at a time as text needs it): a transition is one table
//! look-up, where a sparse DFA (116 KB) searches each state's byte ranges, which made
//! finding the pieces most of a count's time.

use std::sync::OnceLock;

use regex_automata::Anchored;
use regex_automata::dfa::{Automaton, dense};

/// OpenAI's `o200k_base` pattern, in three parts because a DFA has no look-ahead:
/// `\s+(?!\S)` is the second part, `\s+\s`, whose last character is given back.
pub const PATTERNS: [&str; 3] = [
    concat!(
        r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"|\p{N}{1,3}",
        r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
        r"|\s*[\r\n]+",
        r"|\s+$",
    ),
    r"\s+\s",
    r"\s+",
];

/// The part of [`PATTERNS`] whose match ends with a character that is not its own.
const LOOK_AHEAD: usize = 1;

#[repr(C, align(4))]
struct Aligned<T: ?Sized>(T);

static DFA_BYTES: &Aligned<[u8]> = &Aligned(*include_bytes!("o200k_base.dfa"));

type Dfa = dense::DFA<&'static [u32]>;

fn dfa() -> &'static Dfa {
    static DFA: OnceLock<Dfa> = OnceLock::new();
    DFA.get_or_init(|| {
        // Checking the table's every state costs about a millisecond, as much as the
        // counting of a small answer; it is skipped outside tests (on a little-endian
        // machine, the table's byte order).
        #[cfg(all(not(test), target_endian = "little"))]
        // SAFETY: the bytes are what `to_bytes_little_endian` wrote for this DFA (the
        // test `committed_tables_are_built_from_o200k_base` builds them anew and compares),
        // and they are aligned as the DFA's states need.
        let dfa = unsafe { dense::DFA::from_bytes_unchecked(&DFA_BYTES.0) };
        #[cfg(any(test, not(target_endian = "little")))]
        let dfa = dense::DFA::from_bytes(&DFA_BYTES.0);
        dfa.expect("the committed o200k_base DFA is valid").0
    })
}

/// The pieces of `text`, in order; together they are `text`.
pub fn split(text: &str) -> Pieces<'_> {
    Pieces {
        dfa: dfa(),
        text,
        at: 0,
    }
}

/// The iterator [`split`] returns.
pub struct Pieces<'a> {
    dfa: &'static Dfa,
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for Pieces<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.at >= self.text.len() {
            return None;
        }
        let start = self.at;
        // Every character matches one of the parts (the last is `\s+`, and anything else
        // is a letter, a number or neither), so there is always a match; should the DFA
        // ever give up, the rest is one piece rather than a loop or a panic.
        let end = match run(self.dfa, self.text.as_bytes(), start) {
            Some((pattern, end)) if pattern == LOOK_AHEAD => {
                let last = self.text[start..end]
                    .chars()
                    .next_back()
                    .map_or(0, char::len_utf8);
                end - last
            }
            Some((_, end)) => end,
            None => self.text.len(),
        };
        let end = if end <= start { self.text.len() } else { end };
        self.at = end;
        Some(&self.text[start..end])
    }
}

/// The leftmost-first match of the pattern anchored at `start`: its part and its end.
/// The DFA is run by hand, a byte at a time, as `try_search_fwd` runs it: that search
/// costs more to set up than a piece of a few bytes costs to find (it was half of a
/// count's time).
fn run(dfa: &Dfa, text: &[u8], start: usize) -> Option<(usize, usize)> {
    if let Some((part, end)) = ascii_piece(&text[start..]) {
        return Some((part, start + end));
    }
    let config = regex_automata::util::start::Config::new()
        .anchored(Anchored::Yes)
        .look_behind(start.checked_sub(1).map(|i| text[i]));
    let mut state = dfa.start_state(&config).ok()?;
    let mut found = None;
    // A DFA tells a match one byte late: the state after byte `at` says whether a match
    // ends before it.
    for (at, &byte) in text.iter().enumerate().skip(start) {
        state = dfa.next_state(state, byte);
        if dfa.is_special_state(state) {
            if dfa.is_match_state(state) {
                found = Some((dfa.match_pattern(state, 0).as_usize(), at));
            } else if dfa.is_dead_state(state) {
                return found;
            } else if dfa.is_quit_state(state) {
                return None;
            }
        }
    }
    state = dfa.next_eoi_state(state);
    if dfa.is_match_state(state) {
        found = Some((dfa.match_pattern(state, 0).as_usize(), text.len()));
    }
    found
}

/// The part of [`PATTERNS`] that matches at the start of `rest` and where its match
/// ends, as the DFA finds them, when the piece is one of the commonest kinds, told
/// without the DFA from ASCII alone; None when a byte beyond ASCII, an
/// apostrophe (a contraction such as `'s`) or a line end could change it, and the DFA
/// decides. The pattern's parts are tried in their order:
/// - up to three digits (`\p{N}{1,3}`);
/// - an optional character that is neither a letter, a number nor a line end, then
///   capitals, then small letters (the first two parts);
/// - an optional space, signs, then line ends and slashes (` ?[^\s\p{L}\p{N}]+[\r\n/]*`);
/// - blanks before a sign, a letter or a digit: all but the last (`\s+(?!\S)`), or
///   one blank alone (`\s+`); blanks at the end of the text, all of them.
fn ascii_piece(rest: &[u8]) -> Option<(usize, usize)> {
    let first = *rest.first()?;
    let sign = |b: u8| b.is_ascii_graphic() && !b.is_ascii_alphanumeric();
    let blank = |b: u8| b == b' ' || b == b'\t';
    // What ends a piece here, when the DFA is not needed to say.
    let decided = |end: usize| match rest.get(end) {
        Some(&b) if !b.is_ascii() || b == b'\'' => None,
        _ => Some((0, end)),
    };
    if first.is_ascii_digit() {
        return decided(
            rest.iter()
                .take(3)
                .take_while(|b| b.is_ascii_digit())
                .count(),
        );
    }
    let at = usize::from(
        first.is_ascii() && !first.is_ascii_alphanumeric() && !matches!(first, b'\r' | b'\n'),
    );
    let capitals = rest[at..]
        .iter()
        .take_while(|b| b.is_ascii_uppercase())
        .count();
    let small = rest[at + capitals..]
        .iter()
        .take_while(|b| b.is_ascii_lowercase())
        .count();
    if capitals + small > 0 {
        return decided(at + capitals + small);
    }
    // Not a word: the next byte (after `first`) is no letter.
    let space = usize::from(first == b' ');
    if rest.get(space).copied().is_some_and(sign) {
        let signs = rest[space..].iter().take_while(|&&b| sign(b)).count();
        let ends = rest[space + signs..]
            .iter()
            .take_while(|&&b| matches!(b, b'\r' | b'\n' | b'/'))
            .count();
        return match rest.get(space + signs + ends) {
            Some(&b) if !b.is_ascii() => None,
            _ => Some((0, space + signs + ends)),
        };
    }
    if blank(first) {
        let blanks = rest.iter().take_while(|&&b| blank(b)).count();
        return match rest.get(blanks) {
            None => Some((0, blanks)),
            // `\s+\s`, whose last blank the caller gives back.
            Some(&b) if b.is_ascii_graphic() && blanks > 1 => Some((LOOK_AHEAD, blanks)),
            // One blank before a digit, or a tab before a sign (` ?` is a space only).
            Some(&b) if b.is_ascii_graphic() => Some((LOOK_AHEAD + 1, 1)),
            _ => None,
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_automata::Input;

    /// The same match through the DFA's own search.
    fn searched(dfa: &Dfa, text: &str, start: usize) -> Option<(usize, usize)> {
        let input = Input::new(text).range(start..).anchored(Anchored::Yes);
        match dfa.try_search_fwd(&input) {
            Ok(Some(found)) => Some((found.pattern().as_usize(), found.offset())),
            _ => None,
        }
    }

    #[test]
    fn running_the_dfa_by_hand_finds_what_its_search_finds() {
        let mut texts: Vec<String> = vec![
            "it's  \n\n  x\t\ty \r\n 123456 été→ 😀x a'b 'S  ".into(),
            "   \n".into(),
            " \u{a0}\u{2003}a".into(),
        ];
        // Random text of the bytes the shortcut for ASCII words looks at, and of some it
        // leaves to the DFA.
        let alphabet = [
            "a", "z", "A", "Z", "0", "9", "'", " ", " ", "\t", "\r", "\n", ".", "_", "(", "|", "/",
            "é", "É", "\u{301}", "²", "\u{a0}", "\u{b}", "\u{c}", "→", "s", "S", "t", "re", "LL",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for len in 0..3000 {
            let text: String = super::super::picks(&mut seed, &alphabet, len % 24).collect();
            texts.push(text);
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/read");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                texts.push(std::fs::read_to_string(path).unwrap());
            }
        }
        for text in &texts {
            for start in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
                assert_eq!(
                    run(dfa(), text.as_bytes(), start),
                    searched(dfa(), text, start),
                    "{start} in {:?}",
                    &text[start..text.len().min(start + 20)]
                );
            }
        }
    }
}
