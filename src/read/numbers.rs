//! The line-number styles of SPEC §1 (`compact`: §18), written without allocating.

use clap::ValueEnum;

/// How each shown line is numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum NumberStyle {
    /// `%4d | ` (widens past 9999)
    #[default]
    Pipe,
    /// `%6d<TAB>`, as `cat -n` does
    Tab,
    /// `N: ` (no padding)
    Colon,
    /// `N|` (no padding, no space): the leanest numbering in tokens
    Compact,
    /// no numbers: the lines as they are
    None,
}

impl NumberStyle {
    /// Appends the prefix of line `number` to `out`.
    pub fn write_prefix(self, out: &mut Vec<u8>, number: u64) {
        let mut digits = itoa::Buffer::new();
        self.write_prefix_digits(out, digits.format(number).as_bytes());
    }

    /// Appends the prefix of the line whose number is written `digits`.
    pub fn write_prefix_digits(self, out: &mut Vec<u8>, digits: &[u8]) {
        let (width, suffix): (usize, &[u8]) = match self {
            NumberStyle::Pipe => (4, b" | "),
            NumberStyle::Tab => (6, b"\t"),
            NumberStyle::Colon => (0, b": "),
            NumberStyle::Compact => (0, b"|"),
            NumberStyle::None => return,
        };
        // Assembled on the stack and appended once: this runs for every line.
        let pad = width.saturating_sub(digits.len());
        let mut prefix = [b' '; 32];
        let len = pad + digits.len() + suffix.len();
        prefix[pad..pad + digits.len()].copy_from_slice(digits);
        prefix[pad + digits.len()..len].copy_from_slice(suffix);
        out.extend_from_slice(&prefix[..len]);
    }

    /// [`NumberStyle::write_prefix_digits`] for `number`; the usual widths (at most 9,999
    /// lines with `|`, 999,999 with a tab) are written as one fixed-size piece.
    pub fn write_prefix_of(self, out: &mut Vec<u8>, number: &LineNumber) {
        match self {
            NumberStyle::Pipe => {
                if let Some(&[a, b, c, d]) = number.padded::<4>() {
                    return out.extend_from_slice(&[a, b, c, d, b' ', b'|', b' ']);
                }
            }
            NumberStyle::Tab => {
                if let Some(&[a, b, c, d, e, f]) = number.padded::<6>() {
                    return out.extend_from_slice(&[a, b, c, d, e, f, b'\t']);
                }
            }
            _ => {}
        }
        self.write_prefix_digits(out, number.digits());
    }
}

/// A line number kept as ASCII digits and incremented in place, as uutils `cat` does:
/// consecutive lines cost no formatting.
#[derive(Debug, Clone)]
pub struct LineNumber {
    /// The digits, right-aligned: `digits[start..]`, spaces before them.
    digits: [u8; 20],
    start: usize,
    value: Option<u64>,
}

impl Default for LineNumber {
    fn default() -> LineNumber {
        LineNumber {
            digits: [b' '; 20],
            start: 20,
            value: None,
        }
    }
}

impl LineNumber {
    /// Makes this `n`: one increment when `n` follows the current value, else formatted.
    pub fn set(&mut self, n: u64) {
        match self.value {
            Some(current) if current.checked_add(1) == Some(n) => self.increment(),
            Some(current) if current == n => {}
            _ => {
                let mut buffer = itoa::Buffer::new();
                let text = buffer.format(n).as_bytes();
                self.start = self.digits.len() - text.len();
                self.digits[..self.start].fill(b' ');
                self.digits[self.start..].copy_from_slice(text);
            }
        }
        self.value = Some(n);
    }

    fn increment(&mut self) {
        for at in (self.start..self.digits.len()).rev() {
            if self.digits[at] == b'9' {
                self.digits[at] = b'0';
            } else {
                self.digits[at] += 1;
                return;
            }
        }
        // All nines: one more digit (u64 has at most 20, which `set` never exceeds).
        self.start -= 1;
        self.digits[self.start] = b'1';
    }

    pub fn digits(&self) -> &[u8] {
        &self.digits[self.start..]
    }

    /// The number right-aligned in `W` columns, when it has at most `W` digits.
    pub fn padded<const W: usize>(&self) -> Option<&[u8; W]> {
        let columns = self.digits.last_chunk::<W>()?;
        (self.digits.len() - self.start <= W).then_some(columns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefix(style: NumberStyle, n: u64) -> String {
        let mut out = Vec::new();
        style.write_prefix(&mut out, n);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_counter_matches_formatting_across_carries() {
        let mut counter = LineNumber::default();
        for n in (1..=12_000)
            .chain(99_990..=100_010)
            .chain([5, 999_999, 1_000_000, u64::MAX])
        {
            counter.set(n);
            assert_eq!(counter.digits(), n.to_string().as_bytes());
        }
    }

    #[test]
    fn prefixes_of_the_counter_match_formatting() {
        let mut counter = LineNumber::default();
        // Up across widths, then down to fewer digits, which must not leave old ones.
        for n in (1..=11_000)
            .chain(999_998..=1_000_001)
            .chain([12, 3, 100_000])
        {
            counter.set(n);
            for style in [
                NumberStyle::Pipe,
                NumberStyle::Tab,
                NumberStyle::Colon,
                NumberStyle::Compact,
            ] {
                let mut out = Vec::new();
                style.write_prefix_of(&mut out, &counter);
                assert_eq!(String::from_utf8(out).unwrap(), prefix(style, n), "{n}");
            }
        }
    }

    #[test]
    fn styles_match_their_printf_formats() {
        assert_eq!(prefix(NumberStyle::Pipe, 7), "   7 | ");
        assert_eq!(prefix(NumberStyle::Pipe, 9999), "9999 | ");
        assert_eq!(prefix(NumberStyle::Pipe, 10000), "10000 | ");
        assert_eq!(prefix(NumberStyle::Tab, 42), "    42\t");
        assert_eq!(prefix(NumberStyle::Tab, 1234567), "1234567\t");
        assert_eq!(prefix(NumberStyle::Colon, 12), "12: ");
        assert_eq!(prefix(NumberStyle::Compact, 12), "12|");
        assert_eq!(prefix(NumberStyle::Compact, 123456), "123456|");
        assert_eq!(prefix(NumberStyle::None, 12), "");
    }
}
