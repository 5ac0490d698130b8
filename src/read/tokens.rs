//! Tokens as the unit (SPEC §18): exact `o200k_base` counts of rendered content, with
//! `bpe-openai` (see ARCHITECTURE.md for the choice). The encoding's tables are loaded
//! on the first count only (tens of milliseconds), so a read that counts nothing, such
//! as a plain text window, never pays for them.

/// The exact `o200k_base` token count of `text` (invalid UTF-8 counted as U+FFFD).
pub fn count(text: &[u8]) -> u64 {
    if text.is_empty() {
        return 0;
    }
    let text = String::from_utf8_lossy(text);
    bpe_openai::o200k_base().count(text.as_ref()) as u64
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
    let tokenizer = bpe_openai::o200k_base();
    // (start of each piece, tokens before it).
    let mut pieces: Vec<(usize, u64)> = Vec::new();
    let mut before = 0u64;
    for piece in tokenizer.split(text) {
        let start = piece.as_ptr() as usize - text.as_ptr() as usize;
        pieces.push((start, before));
        before += tokenizer.bpe.count(piece.as_bytes()) as u64;
    }
    ends.iter()
        .map(|&end| {
            let end = end.min(text.len());
            // The piece that holds the byte before `end`, and one more before it.
            let holding = pieces.partition_point(|&(start, _)| start < end);
            let (start, tokens) = match holding.saturating_sub(2) {
                0 => (0, 0),
                i => pieces[i],
            };
            tokens + count(&text.as_bytes()[start..end])
        })
        .collect()
}

/// Whether `text` takes at most `max` tokens; counts no further than `max` (a token is
/// at least a byte, so text of at most `max` bytes is not counted at all).
pub fn within(text: &[u8], max: u64) -> bool {
    if text.len() as u64 <= max {
        return true;
    }
    let text = String::from_utf8_lossy(text);
    let tokenizer = bpe_openai::o200k_base();
    let normalized = tokenizer.normalize(text.as_ref());
    let limit = usize::try_from(max).unwrap_or(usize::MAX).saturating_add(1);
    tokenizer
        .count_till_limit(&normalized, limit)
        .is_some_and(|n| n as u64 <= max)
}

/// How many of `text`'s first lines, ending at `ends`, fit `max` tokens together: the
/// lines before the first whose end takes the prefix past `max`.
pub fn lines_within(text: &[u8], ends: &[usize], max: u64) -> usize {
    let counts = prefix_counts(text, ends);
    let mut keep = counts.iter().take_while(|&&c| c <= max).count();
    // The counts are exact; the kept text is counted once more all the same, so that no
    // answer passes its budget whatever the encoder's pieces do.
    while keep > 0 && count(&text[..ends[keep - 1]]) > max {
        keep -= 1;
    }
    keep
}

/// The byte offset after the first `chars` characters of `text` (its length when it
/// has fewer).
pub fn char_end(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(at, _)| at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_exact_and_lazy_for_nothing() {
        assert_eq!(count(b""), 0);
        assert_eq!(count(b"hello world"), 2);
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
