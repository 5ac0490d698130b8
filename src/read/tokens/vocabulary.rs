//! The `o200k_base` vocabulary as a table in the binary: each token's bytes by rank and
//! an open-addressing hash from bytes to rank, read in place (nothing is loaded or
//! built at run time; see ARCHITECTURE.md, "Tokens").
//!
//! Layout of `o200k_base.vocab` (little-endian `u32`s, then bytes):
//! `[count][slot bits][longest token][ends; count][slots; 1 << slot bits]`
//! `[next prefix; count][split; 2 × count][longest after two bytes; 65,536 bytes][token bytes]`.
//! `ends[r]` is where token `r`'s bytes end (the previous end is where they start); a
//! slot holds `rank + 1` in its low [`RANK_BITS`] and, above them, 14 more bits of the
//! token's hash (its fingerprint), or 0 when empty. The next prefix of a token is the longest
//! token its bytes but the last start with, and its split the two tokens byte-pair
//! merging joins to make it ([`NONE`] and the token itself for a single byte): both are
//! what `merge.rs`'s backtracking walks. The last table bounds the longest token after
//! each two bytes. [`build`] writes the file, and the unit test in `mod.rs` checks that
//! the committed file is exactly what it writes.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// No token.
pub const NONE: u32 = u32::MAX;

/// The file, aligned so that it can be read as `u32`s.
#[repr(C, align(4))]
struct Aligned<T: ?Sized>(T);

static VOCAB: &Aligned<[u8]> = &Aligned(*include_bytes!("o200k_base.vocab"));

const HEADER: usize = 3;

/// The bits of a slot that hold `rank + 1`; the rest hold the token's fingerprint. A
/// look-up compares the bytes of a token only when their fingerprints agree: the tokens
/// a probe passes (most look-ups of byte pairs find none) are then not read at all,
/// which kept random pages of the tables out of a count's first look-ups.
const RANK_BITS: u32 = 18;

/// The fingerprint a slot holds for a token of hash `hash`.
fn fingerprint(hash: u64) -> u32 {
    (hash as u32) >> RANK_BITS
}

/// A vocabulary in the layout above.
#[derive(Clone, Copy)]
pub struct Vocabulary<'a> {
    ends: &'a [u8],
    slots: &'a [u8],
    next_prefix: &'a [u8],
    split: &'a [u8],
    after_two: &'a [u8],
    bytes: &'a [u8],
    slot_bits: u32,
    longest: usize,
}

/// The `o200k_base` vocabulary.
pub fn o200k_base() -> Vocabulary<'static> {
    Vocabulary::from_bytes(&VOCAB.0).expect("the committed o200k_base vocabulary is well formed")
}

/// The `u32` at index `at`. Indexed byte by byte rather than through `try_into`: the same
/// when optimised, and it halves the time a token count takes unoptimised (the debug
/// build the tests run), where each call through `try_into` and `expect` is a real call.
fn word(bytes: &[u8], at: usize) -> u32 {
    let i = at * 4;
    u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]])
}

/// The hash the table is laid out by: fast on the short strings looked up most, the same
/// on every machine (the table is built once, elsewhere).
pub fn hash(bytes: &[u8]) -> u64 {
    let mut h = bytes.len() as u64;
    // Indexed, as `word` is, for unoptimised builds.
    let mut at = 0;
    while at + 8 <= bytes.len() {
        let b = &bytes[at..at + 8];
        let w = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        h = mix(h, w);
        at += 8;
    }
    let rest = &bytes[at..];
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = mix(h, u64::from_le_bytes(w));
    }
    h ^ (h >> 29)
}

/// One step of [`hash`]: `word` folded into `h`.
fn mix(h: u64, word: u64) -> u64 {
    (h.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95)
}

impl<'a> Vocabulary<'a> {
    /// Reads a table in the layout above; `None` when its sizes do not add up.
    pub fn from_bytes(file: &'a [u8]) -> Option<Self> {
        if file.len() < HEADER * 4 {
            return None;
        }
        let count = word(file, 0) as usize;
        let slot_bits = word(file, 1);
        let longest = word(file, 2) as usize;
        if !(1..32).contains(&slot_bits) || count >= 1 << slot_bits || count >= 1 << RANK_BITS {
            return None;
        }
        let ends_at = HEADER * 4;
        let slots_at = ends_at + count * 4;
        let next_prefix_at = slots_at + (4 << slot_bits);
        let split_at = next_prefix_at + count * 4;
        let after_two_at = split_at + count * 8;
        let bytes_at = after_two_at + (1 << 16);
        let total = word(file, HEADER + count.checked_sub(1)?) as usize;
        if file.len() != bytes_at + total {
            return None;
        }
        Some(Vocabulary {
            ends: &file[ends_at..slots_at],
            slots: &file[slots_at..next_prefix_at],
            next_prefix: &file[next_prefix_at..split_at],
            split: &file[split_at..after_two_at],
            after_two: &file[after_two_at..bytes_at],
            bytes: &file[bytes_at..],
            slot_bits,
            longest,
        })
    }

    /// The bytes of the token of rank `rank`.
    pub fn token(&self, rank: usize) -> &'a [u8] {
        let start = match rank {
            0 => 0,
            _ => word(self.ends, rank - 1) as usize,
        };
        &self.bytes[start..word(self.ends, rank) as usize]
    }

    /// The rank of the token whose bytes are `bytes`, if there is one. A probe ends at an
    /// empty slot, so a lookup costs at most the table's longest run, whatever the input.
    pub fn rank(&self, bytes: &[u8]) -> Option<u32> {
        if bytes.len() > self.longest {
            return None;
        }
        let mask = (1usize << self.slot_bits) - 1;
        let hash = hash(bytes);
        let print = fingerprint(hash);
        let mut at = (hash >> (64 - self.slot_bits)) as usize;
        loop {
            let slot = word(self.slots, at);
            if slot == 0 {
                return None;
            }
            let rank = (slot & ((1 << RANK_BITS) - 1)) - 1;
            if slot >> RANK_BITS == print && self.token(rank as usize) == bytes {
                return Some(rank);
            }
            at = (at + 1) & mask;
        }
    }
}

impl Vocabulary<'_> {
    /// The longest token `text` starts with ([`NONE`] for empty text; every byte is a
    /// token).
    pub fn longest_prefix(&self, text: &[u8]) -> u32 {
        let most = match text {
            [] => return NONE,
            [_] => 1,
            [a, b, ..] => self.after_two[usize::from(*a) << 8 | usize::from(*b)] as usize,
        };
        (1..=most.min(text.len()))
            .rev()
            .find_map(|len| self.rank(&text[..len]))
            .unwrap_or(NONE)
    }

    /// The longest token that `token`'s bytes but the last start with, if any.
    pub fn next_prefix(&self, token: u32) -> Option<u32> {
        Some(word(self.next_prefix, token as usize)).filter(|&t| t != NONE)
    }

    /// Whether byte-pair merging can leave `left` and `right` side by side: no merge it
    /// makes while building either would rather cross the point between them.
    pub fn pair_is_valid(&self, left: u32, right: u32) -> bool {
        let split = |t: u32| {
            let at = 2 * t as usize;
            (word(self.split, at), word(self.split, at + 1))
        };
        let joined = |left: u32, right: u32| {
            let (l, r) = (self.token(left as usize), self.token(right as usize));
            let mut both = [0u8; 512];
            both[..l.len()].copy_from_slice(l);
            both[l.len()..l.len() + r.len()].copy_from_slice(r);
            self.rank(&both[..l.len() + r.len()])
                .filter(|&t| split(t) == (left, right))
        };
        pair_is_valid(left, right, joined, split)
    }
}

/// The check behind [`Vocabulary::pair_is_valid`], from the `bpe` crate's backtracking
/// encoder (github/rust-gems): undo the merges that built each side, the larger rank
/// first, and fail if a pair across the point would have merged before them. `joined`
/// is the token a merge makes of two, `split` the two a token was made of.
fn pair_is_valid(
    mut left: u32,
    mut right: u32,
    joined: impl Fn(u32, u32) -> Option<u32>,
    split: impl Fn(u32) -> (u32, u32),
) -> bool {
    // The largest rank a merge across the point may still have.
    let mut limit = u32::MAX;
    loop {
        if joined(left, right).is_some_and(|both| both < limit) {
            return false;
        }
        if left > right {
            limit = left;
            left = split(left).1;
            if left == limit {
                limit = right + 1;
                right = split(right).0;
                if right + 1 == limit {
                    return true;
                }
            }
        } else {
            limit = right + 1;
            right = split(right).0;
            if right + 1 == limit {
                limit = left;
                left = split(left).1;
                if left == limit {
                    return true;
                }
            }
        }
    }
}

/// [`hash`] as a `HashMap`'s hasher, for [`build`]'s maps of 200,000 tokens: the default
/// SipHash made the unit test that builds the table several times slower unoptimised.
#[derive(Default)]
struct TableHasher(u64);

impl Hasher for TableHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = mix(self.0, hash(bytes));
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = mix(self.0, u64::from(n));
    }
}

type TableMap<K, V> = HashMap<K, V, BuildHasherDefault<TableHasher>>;

/// The table for `tokens`, given in rank order, in the layout above. Only the generator
/// and the test that checks the committed file call this.
pub fn build(tokens: &[Vec<u8>], slot_bits: u32) -> Vec<u8> {
    let mask = (1usize << slot_bits) - 1;
    let mut slots = vec![0u32; 1 << slot_bits];
    assert!(tokens.len() < 1 << RANK_BITS, "a rank fits a slot");
    for (rank, token) in tokens.iter().enumerate() {
        let hash = hash(token);
        let mut at = (hash >> (64 - slot_bits)) as usize;
        while slots[at] != 0 {
            at = (at + 1) & mask;
        }
        slots[at] = fingerprint(hash) << RANK_BITS | (rank as u32 + 1);
    }
    let longest = tokens.iter().map(Vec::len).max().unwrap_or(0);
    assert!(longest <= 255, "a token's length fits the two-byte table");
    let ranks: TableMap<&[u8], u32> = tokens
        .iter()
        .enumerate()
        .map(|(rank, token)| (token.as_slice(), rank as u32))
        .collect();
    let longest_prefix = |bytes: &[u8]| {
        (1..=bytes.len().min(longest))
            .rev()
            .find_map(|len| ranks.get(&bytes[..len]).copied())
            .unwrap_or(NONE)
    };
    let next_prefix: Vec<u32> = tokens
        .iter()
        .map(|token| longest_prefix(&token[..token.len() - 1]))
        .collect();
    // Each token's split, in rank order, as the `bpe` crate finds it: the longest prefix
    // token whose rest is a token too, both older, and the pair valid.
    let mut split: Vec<(u32, u32)> = Vec::with_capacity(tokens.len());
    let mut made: TableMap<(u32, u32), u32> = TableMap::default();
    for (id, token) in tokens.iter().enumerate() {
        let id = id as u32;
        let mut left = next_prefix[id as usize];
        while left != NONE {
            let rest = &token[tokens[left as usize].len()..];
            if let Some(&right) = ranks.get(rest)
                && left < id
                && right < id
                && pair_is_valid(
                    left,
                    right,
                    |l, r| made.get(&(l, r)).copied(),
                    |t| split[t as usize],
                )
            {
                {
                    made.insert((left, right), id);
                    split.push((left, right));
                    break;
                }
            }
            left = next_prefix[left as usize];
        }
        if left == NONE {
            split.push((id, id));
        }
    }
    let mut after_two = vec![1u8; 1 << 16];
    for token in tokens.iter().filter(|t| t.len() >= 2) {
        let at = usize::from(token[0]) << 8 | usize::from(token[1]);
        after_two[at] = after_two[at].max(token.len() as u8);
    }
    let mut file = Vec::new();
    for w in [tokens.len(), slot_bits as usize, longest] {
        file.extend_from_slice(&(w as u32).to_le_bytes());
    }
    let mut end = 0u32;
    for token in tokens {
        end += token.len() as u32;
        file.extend_from_slice(&end.to_le_bytes());
    }
    for slot in slots {
        file.extend_from_slice(&slot.to_le_bytes());
    }
    for w in next_prefix
        .iter()
        .chain(split.iter().flat_map(|(l, r)| [l, r]))
    {
        file.extend_from_slice(&w.to_le_bytes());
    }
    file.extend_from_slice(&after_two);
    for token in tokens {
        file.extend_from_slice(token);
    }
    file
}
