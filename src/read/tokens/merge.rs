//! Byte-pair merging of one piece, as tiktoken does it: start from single bytes and
//! merge the adjacent pair whose joined bytes have the lowest rank (the leftmost of
//! equals) until no joined pair is a token; the count is the parts left.

use super::vocabulary::{NONE, Vocabulary};

/// Pieces up to this length are merged by scanning for the lowest pair, as tiktoken does
/// (fastest for the short pieces of real text); longer ones by backtracking, in time and
/// memory linear in the piece, so that a hostile piece of megabytes costs no more than
/// its size.
const SCAN_UP_TO: usize = 128;

/// The number of tokens `piece` encodes to.
pub fn count(vocab: &Vocabulary, piece: &[u8], scratch: &mut Vec<(usize, u32)>) -> usize {
    match piece.len() {
        0 => 0,
        1 => 1,
        _ if vocab.rank(piece).is_some() => 1,
        n if n <= SCAN_UP_TO => by_scan(vocab, piece, scratch),
        _ => by_backtracking(vocab, piece),
    }
}

/// tiktoken's `byte_pair_merge`: `parts` holds each part's start and the rank of it
/// joined with the next part.
fn by_scan(vocab: &Vocabulary, piece: &[u8], parts: &mut Vec<(usize, u32)>) -> usize {
    let rank = |parts: &[(usize, u32)], i: usize| match parts.get(i + 3) {
        Some(&(end, _)) => vocab.rank(&piece[parts[i].0..end]).unwrap_or(NONE),
        None => NONE,
    };
    parts.clear();
    parts.extend((0..piece.len() - 1).map(|i| (i, vocab.rank(&piece[i..i + 2]).unwrap_or(NONE))));
    parts.push((piece.len() - 1, NONE));
    parts.push((piece.len(), NONE));
    loop {
        let (i, lowest) =
            parts[..parts.len() - 1]
                .iter()
                .enumerate()
                .fold(
                    (0, NONE),
                    |best, (i, &(_, r))| if r < best.1 { (i, r) } else { best },
                );
        if lowest == NONE {
            break;
        }
        if i > 0 {
            parts[i - 1].1 = rank(parts, i - 1);
        }
        parts[i].1 = rank(parts, i);
        parts.remove(i + 1);
    }
    parts.len() - 1
}

/// The same tokens found left to right, as the `bpe` crate's backtracking encoder does
/// (github/rust-gems): take the longest token that fits, shorter ones when it cannot sit
/// beside the one before, and step back when none can; a position that failed once is
/// marked so that it is never tried again, which keeps the walk linear.
fn by_backtracking(vocab: &Vocabulary, piece: &[u8]) -> usize {
    let mut tokens: Vec<u32> = Vec::with_capacity(piece.len() / 3);
    // One bit per position: cleared once no encoding of the piece can end there.
    let mut open = vec![u64::MAX; (piece.len() + 1).div_ceil(64)];
    let is_open = |open: &[u64], at: usize| open[at / 64] & (1 << (at % 64)) != 0;
    let mut at = 0;
    let mut next = vocab.longest_prefix(piece);
    while next != NONE {
        let mut token = next;
        let last = tokens.last().copied();
        loop {
            let end = at + vocab.token(token as usize).len();
            if is_open(&open, end) && last.is_none_or(|last| vocab.pair_is_valid(last, token)) {
                tokens.push(token);
                at = end;
                next = vocab.longest_prefix(&piece[end..]);
                break;
            } else if let Some(shorter) = vocab.next_prefix(token) {
                token = shorter;
            } else {
                open[at / 64] &= !(1 << (at % 64));
                tokens.pop();
                at -= last.map_or(0, |last| vocab.token(last as usize).len());
                next = last.unwrap_or(NONE);
                break;
            }
        }
    }
    tokens.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both ways of merging give the same count on pieces where either could be used.
    #[test]
    fn backtracking_counts_as_the_scan_does() {
        let vocab = super::super::vocabulary::o200k_base();
        let mut scratch = Vec::new();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let alphabet = b"aeinrst _-=/0123456789\xc3\xa9\xe2\x80\x94\n\t{}()";
        for len in [2, 3, 5, 8, 13, 40, 100, 128] {
            for _ in 0..50 {
                let piece: Vec<u8> = super::super::picks(&mut seed, alphabet, len).collect();
                assert_eq!(
                    by_scan(&vocab, &piece, &mut scratch),
                    by_backtracking(&vocab, &piece),
                    "{piece:?}"
                );
            }
        }
    }
}
