//! A content stream's operations, read one at a time and as tolerantly as poppler reads
//! them (PDF 32000-1 §7.8.2).
//!
//! lopdf's content parser stops, without a word, at the first token its grammar has no
//! place for (a `-` with no digits, an operator inside a `TJ` array), and a page loses
//! all the text after it. Here, as in poppler, a lone sign is the number 0, an operator
//! inside an array or dictionary is dropped from it, a dictionary key that is no name
//! is skipped, and a stray `]`, `>>` or `)` is passed over: nothing stops the stream
//! but its end.

use lopdf::{Dictionary, Object, StringFormat};

use super::bounds::{inline_image_end, is_delimiter, is_space};

/// Arrays and dictionaries nested deeper than this are read as if flat: real content
/// nests two or three deep (a `BDC` property list).
const MAX_NESTING: usize = 32;

/// One operation: its operator and its operands, in order.
pub(super) struct Operation<'a> {
    pub(super) operator: &'a str,
    pub(super) operands: Vec<Object>,
}

/// The operations of `content`, in order.
pub(super) fn operations(content: &[u8]) -> Operations<'_> {
    Operations {
        bytes: content,
        at: 0,
        stray: false,
        image: false,
    }
}

pub(super) struct Operations<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Whether something was passed over that has no place in a content stream: the
    /// stream is damaged (a page that gives no text then makes the file so).
    pub(super) stray: bool,
    /// Whether the last operator was `BI`: an inline image's data follows its `ID`.
    image: bool,
}

/// An array or dictionary being read: its elements so far.
struct Open {
    dictionary: bool,
    items: Vec<Object>,
}

enum Token<'a> {
    Object(Object),
    ArrayStart,
    ArrayEnd,
    DictionaryStart,
    DictionaryEnd,
    Word(&'a [u8]),
}

impl<'a> Iterator for Operations<'a> {
    type Item = Operation<'a>;

    fn next(&mut self) -> Option<Operation<'a>> {
        let mut operands = Vec::new();
        let mut open: Vec<Open> = Vec::new();
        // Openings past MAX_NESTING, not stored: their closings are dropped too.
        let mut unstored = 0usize;
        loop {
            let token = self.token()?;
            let object = match token {
                Token::Object(object) => object,
                Token::ArrayStart | Token::DictionaryStart if open.len() >= MAX_NESTING => {
                    unstored += 1;
                    continue;
                }
                Token::ArrayStart | Token::DictionaryStart => {
                    open.push(Open {
                        dictionary: matches!(token, Token::DictionaryStart),
                        items: Vec::new(),
                    });
                    continue;
                }
                Token::ArrayEnd | Token::DictionaryEnd if unstored > 0 => {
                    unstored -= 1;
                    continue;
                }
                Token::ArrayEnd | Token::DictionaryEnd => {
                    // A closing that matches nothing is passed over.
                    let Some(last) = open.pop() else {
                        self.stray = true;
                        continue;
                    };
                    if last.dictionary {
                        dictionary(last.items)
                    } else {
                        Object::Array(last.items)
                    }
                }
                Token::Word(word) => {
                    match word {
                        b"true" => Object::Boolean(true),
                        b"false" => Object::Boolean(false),
                        b"null" => Object::Null,
                        // An operator inside an array or dictionary is no element of it.
                        _ if !open.is_empty() => {
                            self.stray = true;
                            continue;
                        }
                        _ => {
                            // Inline image data, up to its `EI`; an `ID` without a `BI`
                            // before it is an unknown operator, as poppler reads it.
                            if word == b"ID" && self.image {
                                self.at = inline_image_end(self.bytes, self.at);
                            }
                            self.image = word == b"BI";
                            return Some(Operation {
                                operator: std::str::from_utf8(word).unwrap_or(""),
                                operands,
                            });
                        }
                    }
                }
            };
            match open.last_mut() {
                Some(container) => container.items.push(object),
                None => operands.push(object),
            }
        }
    }
}

impl<'a> Operations<'a> {
    /// The next token, or `None` at the end of the content.
    fn token(&mut self) -> Option<Token<'a>> {
        let bytes = self.bytes;
        loop {
            let &b = bytes.get(self.at)?;
            if is_space(b) {
                self.at += 1;
                continue;
            }
            if b == b'%' {
                self.at = memchr::memchr2(b'\n', b'\r', &bytes[self.at..])
                    .map_or(bytes.len(), |i| self.at + i);
                continue;
            }
            let next = bytes.get(self.at + 1).copied();
            return Some(match b {
                b'(' => Token::Object(Object::String(self.literal(), StringFormat::Literal)),
                b'<' if next == Some(b'<') => {
                    self.at += 2;
                    Token::DictionaryStart
                }
                b'>' if next == Some(b'>') => {
                    self.at += 2;
                    Token::DictionaryEnd
                }
                b'<' => Token::Object(Object::String(self.hex(), StringFormat::Hexadecimal)),
                b'[' => {
                    self.at += 1;
                    Token::ArrayStart
                }
                b']' => {
                    self.at += 1;
                    Token::ArrayEnd
                }
                b'/' => {
                    self.at += 1;
                    let word = self.word();
                    Token::Object(Object::Name(name(word)))
                }
                b'0'..=b'9' | b'+' | b'-' | b'.' => Token::Object(self.number()),
                // A stray `)`, `>`, `{` or `}`.
                _ if is_delimiter(b) || b == b')' || b == b'>' => {
                    self.stray = true;
                    self.at += 1;
                    continue;
                }
                _ => Token::Word(self.word()),
            });
        }
    }

    /// The regular characters from here on.
    fn word(&mut self) -> &'a [u8] {
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|&b| !is_space(b) && !is_delimiter(b) && b != b')' && b != b'>')
        {
            self.at += 1;
        }
        &self.bytes[start..self.at]
    }

    /// A number as poppler reads one: a sign alone is 0, a `-` within the fraction is
    /// ignored, and the number ends at the first character that can't continue it.
    fn number(&mut self) -> Object {
        let bytes = self.bytes;
        let mut negative = false;
        if matches!(bytes[self.at], b'+' | b'-') {
            negative = bytes[self.at] == b'-';
            self.at += 1;
        }
        let mut integer: i64 = 0;
        let mut real: f64 = 0.0;
        let mut overflow = false;
        while let Some(&digit @ b'0'..=b'9') = bytes.get(self.at) {
            let d = i64::from(digit - b'0');
            match integer.checked_mul(10).and_then(|i| i.checked_add(d)) {
                Some(i) if !overflow => integer = i,
                _ => overflow = true,
            }
            real = real * 10.0 + d as f64;
            self.at += 1;
        }
        if bytes.get(self.at) != Some(&b'.') {
            let sign = if negative { -1 } else { 1 };
            return if overflow {
                Object::Real((sign as f64 * real) as f32)
            } else {
                Object::Integer(sign * integer)
            };
        }
        self.at += 1;
        let mut scale = 0.1;
        loop {
            match bytes.get(self.at) {
                Some(b'-') => {}
                Some(&digit @ b'0'..=b'9') => {
                    real += f64::from(digit - b'0') * scale;
                    scale *= 0.1;
                }
                _ => break,
            }
            self.at += 1;
        }
        Object::Real((if negative { -real } else { real }) as f32)
    }

    /// A literal string `( … )`, its escapes read (§7.3.4.2); one left open runs to the
    /// end of the content.
    fn literal(&mut self) -> Vec<u8> {
        let bytes = self.bytes;
        let mut out = Vec::new();
        let mut depth = 0usize;
        self.at += 1;
        while let Some(&b) = bytes.get(self.at) {
            self.at += 1;
            match b {
                b'(' => {
                    depth += 1;
                    out.push(b);
                }
                b')' if depth == 0 => break,
                b')' => {
                    depth -= 1;
                    out.push(b);
                }
                b'\r' => {
                    // An end of line in a string is a line feed, whatever it was.
                    if bytes.get(self.at) == Some(&b'\n') {
                        self.at += 1;
                    }
                    out.push(b'\n');
                }
                b'\\' => {
                    let Some(&e) = bytes.get(self.at) else {
                        break;
                    };
                    self.at += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' => out.push(b'\x08'),
                        b'f' => out.push(b'\x0c'),
                        b'0'..=b'7' => {
                            let mut value = u32::from(e - b'0');
                            for _ in 0..2 {
                                match bytes.get(self.at) {
                                    Some(&o @ b'0'..=b'7') => {
                                        value = value * 8 + u32::from(o - b'0');
                                        self.at += 1;
                                    }
                                    _ => break,
                                }
                            }
                            out.push(value as u8);
                        }
                        // A backslash at the end of a line joins the lines.
                        b'\r' => {
                            if bytes.get(self.at) == Some(&b'\n') {
                                self.at += 1;
                            }
                        }
                        b'\n' => {}
                        other => out.push(other),
                    }
                }
                _ => out.push(b),
            }
        }
        out
    }

    /// A hexadecimal string `< … >`: white space and other bytes skipped, an odd last
    /// digit followed by 0.
    fn hex(&mut self) -> Vec<u8> {
        let bytes = self.bytes;
        self.at += 1;
        let mut out = Vec::new();
        let mut high: Option<u8> = None;
        while let Some(&b) = bytes.get(self.at) {
            self.at += 1;
            if b == b'>' {
                break;
            }
            let Some(value) = (b as char).to_digit(16) else {
                continue;
            };
            let value = value as u8;
            match high.take() {
                Some(h) => out.push(h << 4 | value),
                None => high = Some(value),
            }
        }
        if let Some(h) = high {
            out.push(h << 4);
        }
        out
    }
}

/// A name's bytes with its `#xx` escapes read.
fn name(word: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(word.len());
    let mut i = 0;
    while i < word.len() {
        let hex = |b: Option<&u8>| b.and_then(|&b| (b as char).to_digit(16));
        if word[i] == b'#'
            && let (Some(h), Some(l)) = (hex(word.get(i + 1)), hex(word.get(i + 2)))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(word[i]);
            i += 1;
        }
    }
    out
}

/// A dictionary of the items read between `<<` and `>>`: a key that is no name is
/// skipped, as poppler skips it.
fn dictionary(items: Vec<Object>) -> Object {
    let mut dict = Dictionary::new();
    let mut items = items.into_iter();
    while let Some(key) = items.next() {
        let Object::Name(key) = key else {
            continue;
        };
        let Some(value) = items.next() else {
            break;
        };
        dict.set(key, value);
    }
    Object::Dictionary(dict)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(content: &[u8]) -> Vec<(String, Vec<Object>)> {
        operations(content)
            .map(|op| (op.operator.to_string(), op.operands))
            .collect()
    }

    #[test]
    fn operations_are_read_with_their_operands() {
        let ops = read(b"BT /F1 12 Tf 1 0 0 1 72.5 -.5 Tm [(a\\051b) -250 <4142 4>] TJ ET");
        assert_eq!(ops.len(), 5);
        assert_eq!(ops[1].0, "Tf");
        assert_eq!(
            ops[1].1,
            [Object::Name(b"F1".to_vec()), Object::Integer(12)]
        );
        assert_eq!(ops[2].1[4], Object::Real(72.5));
        assert_eq!(ops[2].1[5], Object::Real(-0.5));
        assert_eq!(
            ops[3].1,
            [Object::Array(vec![
                Object::String(b"a)b".to_vec(), StringFormat::Literal),
                Object::Integer(-250),
                Object::String(b"AB@".to_vec(), StringFormat::Hexadecimal),
            ])]
        );
    }

    #[test]
    fn what_lopdf_stops_at_is_read_as_poppler_reads_it() {
        // A lone minus sign is 0; an operator inside an array is dropped from it.
        let content = b"[(v)-(e)] TJ [(a) 0.0 Tc -250 (b)] TJ ] >> ) (c) Tj";
        let mut operations = operations(content);
        assert!(operations.by_ref().count() == 3 && operations.stray);
        let mut clean = super::operations(b"(a) Tj");
        assert!(clean.by_ref().count() == 1 && !clean.stray);
        let ops = read(content);
        assert_eq!(
            ops[0].1,
            [Object::Array(vec![
                Object::String(b"v".to_vec(), StringFormat::Literal),
                Object::Integer(0),
                Object::String(b"e".to_vec(), StringFormat::Literal),
            ])]
        );
        assert_eq!(
            ops[1].1,
            [Object::Array(vec![
                Object::String(b"a".to_vec(), StringFormat::Literal),
                Object::Real(0.0),
                Object::Integer(-250),
                Object::String(b"b".to_vec(), StringFormat::Literal),
            ])]
        );
        assert_eq!(ops[2].0, "Tj");
        assert_eq!(
            ops[2].1,
            [Object::String(b"c".to_vec(), StringFormat::Literal)]
        );
    }

    #[test]
    fn property_lists_inline_images_and_comments() {
        let ops = read(
            b"/Span << /ActualText (x) 5 /Lang /A#42 >> BDC % note\nBI /W 1 /H 1 ID \xff EI\n(y) Tj",
        );
        let names: Vec<&str> = ops.iter().map(|op| op.0.as_str()).collect();
        assert_eq!(names, ["BDC", "BI", "ID", "Tj"]);
        let Object::Dictionary(dict) = &ops[0].1[1] else {
            panic!("no property list");
        };
        assert_eq!(dict.get(b"Lang").unwrap(), &Object::Name(b"AB".to_vec()));
        assert_eq!(
            dict.get(b"ActualText").unwrap(),
            &Object::String(b"x".to_vec(), StringFormat::Literal)
        );
        // Without a `BI`, `ID` is an operator like any other.
        assert_eq!(read(b"ID (a) Tj").len(), 2);
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "[".repeat(10_000) + "1" + &"]".repeat(10_000) + " Tj";
        let ops = read(deep.as_bytes());
        assert_eq!(ops.len(), 1);
        assert_eq!(ops[0].0, "Tj");
    }
}
