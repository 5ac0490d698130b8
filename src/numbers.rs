//! The four line-number styles of SPEC §1, written without allocating.

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
    /// no numbers: the lines as they are
    None,
}

impl NumberStyle {
    /// Appends the prefix of line `number` to `out`.
    pub fn write_prefix(self, out: &mut Vec<u8>, number: u64) {
        let (width, suffix): (usize, &[u8]) = match self {
            NumberStyle::Pipe => (4, b" | "),
            NumberStyle::Tab => (6, b"\t"),
            NumberStyle::Colon => (0, b": "),
            NumberStyle::None => return,
        };
        let mut digits = itoa::Buffer::new();
        let digits = digits.format(number).as_bytes();
        out.extend_from_slice(&b"      "[..width.saturating_sub(digits.len())]);
        out.extend_from_slice(digits);
        out.extend_from_slice(suffix);
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
    fn styles_match_their_printf_formats() {
        assert_eq!(prefix(NumberStyle::Pipe, 7), "   7 | ");
        assert_eq!(prefix(NumberStyle::Pipe, 9999), "9999 | ");
        assert_eq!(prefix(NumberStyle::Pipe, 10000), "10000 | ");
        assert_eq!(prefix(NumberStyle::Tab, 42), "    42\t");
        assert_eq!(prefix(NumberStyle::Tab, 1234567), "1234567\t");
        assert_eq!(prefix(NumberStyle::Colon, 12), "12: ");
        assert_eq!(prefix(NumberStyle::None, 12), "");
    }
}
