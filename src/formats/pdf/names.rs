//! A list of names packed into one text, for the PDF tables.
//!
//! A `&str` in a static is a pointer, and every pointer in the binary's data is relocated
//! by the loader at every start, read or no read: thousands of glyph names as `&str` made
//! a fifth of all the relocations of a small read. Packed, a table is two pointers.

use std::cmp::Ordering;

/// Names in one text, each ending where `ends` says (the first starts at 0).
pub(super) struct Names {
    text: &'static str,
    ends: &'static [u16],
}

impl Names {
    pub(super) const fn new(text: &'static str, ends: &'static [u16]) -> Names {
        Names { text, ends }
    }

    /// The `i`-th name (empty past the end).
    pub(super) fn get(&self, i: usize) -> &'static str {
        let Some(&end) = self.ends.get(i) else {
            return "";
        };
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1],
        };
        &self.text[usize::from(start)..usize::from(end)]
    }

    /// Where `name` is, in a list sorted bytewise.
    pub(super) fn find(&self, name: &[u8]) -> Option<usize> {
        let (mut low, mut high) = (0, self.ends.len());
        while low < high {
            let middle = low + (high - low) / 2;
            match self.get(middle).as_bytes().cmp(name) {
                Ordering::Less => low = middle + 1,
                Ordering::Greater => high = middle,
                Ordering::Equal => return Some(middle),
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_back_as_packed() {
        let names = Names::new("abbccc", &[1, 3, 3, 6]);
        let all: Vec<&str> = (0..5).map(|i| names.get(i)).collect();
        assert_eq!(all, ["a", "bb", "", "ccc", ""]);
        assert_eq!(names.find(b"ccc"), Some(3));
        assert_eq!(names.find(b"b"), None);
    }
}
