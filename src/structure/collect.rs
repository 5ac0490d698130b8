//! The growing list of a file's symbols, kept within bounds: however many definitions a
//! file packs into its 8 MiB, the outline never holds more than [`MAX_SYMBOLS`]
//! symbols or [`MAX_TEXT_BYTES`] of names, so its memory stays well under SPEC §15's
//! 256 MiB.

use super::symbol::{OutlineError, Symbol};

/// More symbols than this make the outline too large: real files stay far below (one
/// symbol for every 20 bytes of an 8 MiB file).
pub(super) const MAX_SYMBOLS: usize = 400_000;

/// More bytes of names and qualified names than this make the outline too large.
pub(super) const MAX_TEXT_BYTES: usize = 64 << 20;

/// Symbols collected so far, in order.
#[derive(Default)]
pub(super) struct Collected {
    pub symbols: Vec<Symbol>,
    text_bytes: usize,
    /// The last symbol is an overload signature (TypeScript), which a definition of the
    /// same name right after it takes in.
    pub last_is_overload: bool,
}

impl Collected {
    /// Appends `symbol`, returning its index, or `TooLarge` past the bounds.
    pub fn push(&mut self, symbol: Symbol) -> Result<usize, OutlineError> {
        self.text_bytes += symbol.name.len() + symbol.qualified_name.len();
        if self.symbols.len() >= MAX_SYMBOLS || self.text_bytes > MAX_TEXT_BYTES {
            return Err(OutlineError::TooLarge);
        }
        self.symbols.push(symbol);
        self.last_is_overload = false;
        Ok(self.symbols.len() - 1)
    }

    /// Takes back the last symbol when it is an overload signature that `is_next`
    /// continues.
    pub fn take_overload(&mut self, is_next: impl Fn(&Symbol) -> bool) -> Option<Symbol> {
        if !self.last_is_overload || !self.symbols.last().is_some_and(is_next) {
            return None;
        }
        self.last_is_overload = false;
        let symbol = self.symbols.pop()?;
        self.text_bytes -= symbol.name.len() + symbol.qualified_name.len();
        Some(symbol)
    }
}
