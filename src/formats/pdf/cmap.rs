//! CMaps read tolerantly (PDF 32000-1 §9.7.5, §9.10.3): what a ToUnicode map (or an
//! embedded encoding CMap) says about code spaces and the text of codes, and nothing else.
//!
//! Real maps are PostScript written by many hands: LuaTeX splits `/CMapType 2 def` over
//! lines, some writers drop the slash of `/CIDSystemInfo` or write `/CMapName //usr/…`.
//! A strict parser drops the whole map on one such token; this one reads tokens, acts on
//! the `codespacerange`, `bfchar`, `bfrange`, `cidchar` and `cidrange` sections and skips
//! whatever else it meets.

use std::collections::HashMap;

/// The most codes one map gives text to: a two-byte map has at most 65 536, and a crafted
/// `bfrange` of four-byte codes must not expand to billions.
const MAX_ENTRIES: usize = 1 << 17;

/// The most UTF-16 units one code's text may have (a ligature is two or three).
const MAX_TEXT_UNITS: usize = 64;

/// A range of codes of one byte length, each byte between the bounds' bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CodeRange {
    pub(super) len: usize,
    pub(super) low: [u8; 4],
    pub(super) high: [u8; 4],
}

impl CodeRange {
    pub(super) fn contains(&self, bytes: &[u8]) -> bool {
        bytes.len() == self.len
            && bytes
                .iter()
                .enumerate()
                .all(|(i, b)| (self.low[i]..=self.high[i]).contains(b))
    }
}

/// Codes from `low` to `high` that select the CIDs from `cid` on (an encoding CMap's
/// `cidrange`; a `cidchar` is a range of one code).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct CidRange {
    pub(super) low: u32,
    pub(super) high: u32,
    pub(super) cid: u32,
}

/// The most `cidrange` and `cidchar` entries kept: Adobe's largest CMaps have a few
/// thousand.
const MAX_CID_RANGES: usize = 1 << 16;

/// What a CMap says: its code spaces, the text of the codes it maps, and (an encoding
/// CMap) the CIDs its codes select.
#[derive(Debug, Default)]
pub(super) struct CMap {
    pub(super) code_ranges: Vec<CodeRange>,
    pub(super) cid_ranges: Vec<CidRange>,
    /// Code → the span of its text in `text`.
    map: HashMap<u32, (u32, u32)>,
    text: String,
}

impl CMap {
    /// The text of a code, if the map gives one.
    pub(super) fn get(&self, code: u32) -> Option<&str> {
        let &(start, len) = self.map.get(&code)?;
        self.text.get(start as usize..(start + len) as usize)
    }

    /// Whether the map gives text to no code.
    pub(super) fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Reads what it can of a CMap's source; never fails.
    pub(super) fn parse(source: &[u8]) -> CMap {
        let mut cmap = CMap::default();
        let mut tokens = Tokens { source, pos: 0 };
        while let Some(token) = tokens.next() {
            match token {
                Token::Word(b"begincodespacerange") => cmap.code_spaces(&mut tokens),
                Token::Word(b"beginbfchar") => cmap.bf_chars(&mut tokens),
                Token::Word(b"beginbfrange") => cmap.bf_ranges(&mut tokens),
                Token::Word(b"begincidrange") => cmap.cids(&mut tokens, true),
                Token::Word(b"begincidchar") => cmap.cids(&mut tokens, false),
                _ => {}
            }
        }
        cmap.cid_ranges.sort_by_key(|range| range.low);
        cmap
    }

    fn code_spaces(&mut self, tokens: &mut Tokens) {
        while let Some(Token::Hex(low)) = tokens.next() {
            let Some(Token::Hex(high)) = tokens.next() else {
                return;
            };
            if low.len() == high.len()
                && (1..=4).contains(&low.len())
                && self.code_ranges.len() < 256
            {
                let mut range = CodeRange {
                    len: low.len(),
                    low: [0; 4],
                    high: [0; 4],
                };
                range.low[..low.len()].copy_from_slice(&low);
                range.high[..high.len()].copy_from_slice(&high);
                self.code_ranges.push(range);
            }
        }
    }

    /// The entries of a `cidrange` section (`<low> <high> cid`) or a `cidchar` one
    /// (`<code> cid`).
    fn cids(&mut self, tokens: &mut Tokens, ranges: bool) {
        loop {
            let Some(Token::Hex(low)) = tokens.next() else {
                return;
            };
            let high = if ranges {
                let Some(Token::Hex(high)) = tokens.next() else {
                    return;
                };
                high
            } else {
                low.clone()
            };
            let Some(Token::Word(cid)) = tokens.next() else {
                return;
            };
            let cid = std::str::from_utf8(cid).ok().and_then(|c| c.parse().ok());
            if let (Some(low), Some(high), Some(cid)) = (code_value(&low), code_value(&high), cid)
                && low <= high
                && self.cid_ranges.len() < MAX_CID_RANGES
            {
                self.cid_ranges.push(CidRange { low, high, cid });
            }
        }
    }

    /// The CID a code selects, if a `cidrange` or `cidchar` names it. The ranges are
    /// sorted by their first code (see [`CMap::parse`]): real CMaps' ranges don't overlap.
    pub(super) fn cid(&self, code: u32) -> Option<u32> {
        let after = self.cid_ranges.partition_point(|r| r.low <= code);
        let range = self.cid_ranges.get(after.checked_sub(1)?)?;
        (code <= range.high).then(|| range.cid.saturating_add(code - range.low))
    }

    fn bf_chars(&mut self, tokens: &mut Tokens) {
        loop {
            let Some(Token::Hex(code)) = tokens.next() else {
                return;
            };
            let Some(target) = tokens.next() else {
                return;
            };
            let Some(code) = code_value(&code) else {
                continue;
            };
            match target {
                Token::Hex(units) => self.insert(code, &utf16_units(&units)),
                // A glyph name as the target (§9.10.3 allows it); rare, and only names
                // of one character are kept.
                Token::Name(name) => {
                    if let Some(c) = super::glyph::glyph_char(name) {
                        let mut units = [0; 2];
                        self.insert(code, c.encode_utf16(&mut units));
                    }
                }
                _ => return,
            }
        }
    }

    fn bf_ranges(&mut self, tokens: &mut Tokens) {
        loop {
            let Some(Token::Hex(low)) = tokens.next() else {
                return;
            };
            let Some(Token::Hex(high)) = tokens.next() else {
                return;
            };
            let (Some(low), Some(high)) = (code_value(&low), code_value(&high)) else {
                return;
            };
            match tokens.next() {
                Some(Token::Hex(start)) => {
                    let mut units = utf16_units(&start);
                    for code in low..=high {
                        if self.map.len() >= MAX_ENTRIES {
                            break;
                        }
                        self.insert(code, &units);
                        // The last unit counts up through the range.
                        match units.last_mut() {
                            Some(last) => *last = last.wrapping_add(1),
                            None => break,
                        }
                    }
                }
                Some(Token::ArrayOpen) => {
                    let mut code = low;
                    for token in tokens.by_ref() {
                        match token {
                            Token::Hex(units) => {
                                if code <= high {
                                    self.insert(code, &utf16_units(&units));
                                }
                                code = code.saturating_add(1);
                            }
                            Token::ArrayClose => break,
                            _ => {}
                        }
                    }
                }
                _ => return,
            }
        }
    }

    fn insert(&mut self, code: u32, units: &[u16]) {
        if self.map.len() >= MAX_ENTRIES && !self.map.contains_key(&code) {
            return;
        }
        let units = &units[..units.len().min(MAX_TEXT_UNITS)];
        let text: String = char::decode_utf16(units.iter().copied())
            .map(|c| c.map_or(char::REPLACEMENT_CHARACTER, super::glyph::shown))
            .collect();
        // A map to nothing, or to NUL, says nothing: the font's encoding decides.
        if text.is_empty() || text == "\0" {
            return;
        }
        let (Ok(start), Ok(len)) = (u32::try_from(self.text.len()), u32::try_from(text.len()))
        else {
            return;
        };
        self.text.push_str(&text);
        self.map.insert(code, (start, len));
    }
}

/// The built-in encoding of a Type 1 font program (its clear-text part): the
/// `dup CODE /name put` entries of its `/Encoding` array. `None` when it has no such
/// array (`/Encoding StandardEncoding def`, or not a Type 1 program).
pub(super) fn type1_encoding(program: &[u8]) -> Option<Vec<(u8, &[u8])>> {
    // The encrypted part starts after `eexec`; the encoding comes before it.
    let clear = program
        .windows(5)
        .position(|w| w == b"eexec")
        .map_or(program, |end| &program[..end]);
    let mut tokens = Tokens {
        source: clear,
        pos: 0,
    };
    for token in tokens.by_ref() {
        if token == Token::Name(b"Encoding") {
            break;
        }
    }
    let mut entries = Vec::new();
    // The window of the last four tokens: `dup 58 /period put`.
    let mut window: [Option<Token>; 4] = [None, None, None, None];
    for token in tokens {
        if matches!(token, Token::Word(b"def" | b"readonly")) {
            break;
        }
        window.rotate_left(1);
        window[3] = Some(token);
        if let [
            Some(Token::Word(b"dup")),
            Some(Token::Word(code)),
            Some(Token::Name(name)),
            Some(Token::Word(b"put")),
        ] = &window
            && let Some(code) = std::str::from_utf8(code).ok().and_then(|c| c.parse().ok())
        {
            entries.push((code, *name));
        }
    }
    (!entries.is_empty()).then_some(entries)
}

/// A code of one to four bytes as a number.
fn code_value(bytes: &[u8]) -> Option<u32> {
    (1..=4)
        .contains(&bytes.len())
        .then(|| bytes.iter().fold(0u32, |acc, &b| (acc << 8) | u32::from(b)))
}

/// A hex string's bytes read as UTF-16BE units; an odd last byte is a unit of its own.
fn utf16_units(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks(2)
        .take(MAX_TEXT_UNITS)
        .map(|pair| match *pair {
            [high, low] => u16::from_be_bytes([high, low]),
            [single] => u16::from(single),
            _ => 0,
        })
        .collect()
}

/// The PostScript tokens a CMap is made of, as far as this reader tells them apart.
#[derive(Debug, PartialEq)]
enum Token<'s> {
    Hex(Vec<u8>),
    Name(&'s [u8]),
    /// A number or a keyword.
    Word(&'s [u8]),
    ArrayOpen,
    ArrayClose,
    /// `<<`, `>>`, a literal string, `{`, `}`: skipped by every section.
    Other,
}

struct Tokens<'s> {
    source: &'s [u8],
    pos: usize,
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    ) || b.is_ascii_whitespace()
        || b == 0
}

impl<'s> Iterator for Tokens<'s> {
    type Item = Token<'s>;

    fn next(&mut self) -> Option<Token<'s>> {
        let source = self.source;
        loop {
            let &b = source.get(self.pos)?;
            if b.is_ascii_whitespace() || b == 0 {
                self.pos += 1;
            } else if b == b'%' {
                while self
                    .source
                    .get(self.pos)
                    .is_some_and(|&c| c != b'\n' && c != b'\r')
                {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
        let start = self.pos;
        let b = source[start];
        self.pos += 1;
        Some(match b {
            b'[' => Token::ArrayOpen,
            b']' => Token::ArrayClose,
            b'{' | b'}' | b')' => Token::Other,
            b'<' if source.get(self.pos) == Some(&b'<') => {
                self.pos += 1;
                Token::Other
            }
            b'>' => {
                if source.get(self.pos) == Some(&b'>') {
                    self.pos += 1;
                }
                Token::Other
            }
            b'<' => {
                let mut digits = Vec::new();
                while let Some(&c) = source.get(self.pos) {
                    self.pos += 1;
                    if c == b'>' {
                        break;
                    }
                    if let Some(d) = char::from(c).to_digit(16) {
                        digits.push(d as u8);
                    }
                }
                if digits.len() % 2 == 1 {
                    digits.push(0);
                }
                Token::Hex(digits.chunks(2).map(|p| p[0] << 4 | p[1]).collect())
            }
            b'(' => {
                let mut depth = 1usize;
                while let Some(&c) = source.get(self.pos) {
                    self.pos += 1;
                    match c {
                        b'\\' => self.pos += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                Token::Other
            }
            b'/' => {
                let begin = self.pos;
                while source.get(self.pos).is_some_and(|&c| !is_delimiter(c)) {
                    self.pos += 1;
                }
                Token::Name(&source[begin..self.pos])
            }
            _ => {
                while source.get(self.pos).is_some_and(|&c| !is_delimiter(c)) {
                    self.pos += 1;
                }
                Token::Word(&source[start..self.pos])
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luatex_tokens_split_over_lines_and_odd_names_are_skipped() {
        let source = b"%!PS\n/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
            CIDSystemInfo\n<< /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
            /CMapName //usr/local/x.otf,000-UTF16 def\n/CMapType\n2\ndef\n\
            1 begincodespacerange <0000> <FFFF> endcodespacerange\n\
            2 beginbfchar <0001> <0054> <0002> <00660069> endbfchar\n\
            2 beginbfrange <0003> <0005> <0061> <0010> <0011> [<0041> <0042>] endbfrange\n\
            endcmap";
        let cmap = CMap::parse(source);
        assert_eq!(cmap.code_ranges.len(), 1);
        assert_eq!(cmap.get(1), Some("T"));
        assert_eq!(cmap.get(2), Some("fi"));
        assert_eq!(cmap.get(5), Some("c"));
        assert_eq!(cmap.get(0x11), Some("B"));
        assert_eq!(cmap.get(6), None);
        // A glyph mapped to U+FFFF (as xdvipdfmx maps glyphs it has no text for) is shown
        // as U+FFFD, as poppler shows it.
        let cmap = CMap::parse(b"1 beginbfchar <0001> <FFFF> endbfchar");
        assert_eq!(cmap.get(1), Some("\u{FFFD}"));
    }

    #[test]
    fn empty_and_hostile_maps_cost_little() {
        assert!(CMap::parse(b"begincmap endcmap").map.is_empty());
        assert!(
            CMap::parse(b"beginbfchar <01> <> <02> <0000> endbfchar")
                .map
                .is_empty()
        );
        let huge = CMap::parse(b"beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange");
        assert_eq!(huge.map.len(), MAX_ENTRIES);
        // Unterminated strings, hex and names end at the end of the input.
        for source in [&b"(abc"[..], b"<00", b"/", b"beginbfchar <01", b"%"] {
            let _ = CMap::parse(source);
        }
    }

    #[test]
    fn type1_programs_give_their_builtin_encoding() {
        let program = b"%!PS-AdobeFont-1.0: CMMI10\n/Encoding 256 array\n\
            0 1 255 {1 index exch /.notdef put} for\n\
            dup 58 /period put\ndup 59 /comma put\nreadonly def\ncurrentfile eexec\x80dup 1 /x put";
        assert_eq!(
            type1_encoding(program),
            Some(vec![(58, &b"period"[..]), (59, &b"comma"[..])])
        );
        assert_eq!(type1_encoding(b"/Encoding StandardEncoding def"), None);
        assert_eq!(type1_encoding(b"dup 1 /x put"), None);
    }

    #[test]
    fn code_ranges_check_every_byte() {
        let cmap = CMap::parse(b"2 begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange");
        assert!(cmap.code_ranges[0].contains(&[0x41]));
        assert!(!cmap.code_ranges[0].contains(&[0x81]));
        assert!(cmap.code_ranges[1].contains(&[0x81, 0x40]));
        assert!(!cmap.code_ranges[1].contains(&[0x81, 0xFD]));
    }
}
