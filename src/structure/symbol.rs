//! What an outline is made of: one [`Symbol`] per definition, and why an outline
//! could not be made.

use std::fmt;

/// One definition in a file (SPEC §15 "Symbols"). Lines are 1-based and inclusive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The symbol's own name: `render`, `impl fmt::Display for Window`, a heading's text.
    pub name: String,
    /// The enclosing symbols' names, then its own, joined with the language's separator.
    pub qualified_name: String,
    /// `module`, `namespace`, `class`, `struct`, `enum`, `interface`, `function`,
    /// `method`, `impl`, `section` or `constructor`.
    pub kind: &'static str,
    /// The first of the comment, doc-comment, attribute or decorator lines directly
    /// above the definition, or the definition's own first line.
    pub start_line: u64,
    /// The byte column (0-based) where the symbol starts on `start_line`: where pages
    /// of an outline continue when one line holds many symbols (minified code).
    pub start_col: u64,
    /// The line of the definition's name, below its comments and attributes: the line
    /// a text outline prints.
    pub def_line: u64,
    /// The definition's last line.
    pub end_line: u64,
    /// How many symbols of the file enclose this one: 0 at the top level.
    pub depth: u32,
    /// The index of the enclosing symbol in the same list.
    pub parent: Option<usize>,
    /// A function's or method's body (SPEC §18 `--signatures`); None for other symbols
    /// and for declarations without one.
    pub body: Option<Body>,
}

/// Where a function's body lies. Lines are 1-based and inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Body {
    /// The line that opens it: its `{`, or the `:` of a Python definition.
    pub open: u64,
    /// Its lines between the opening and the closing line (none when `last < first`).
    pub first: u64,
    pub last: u64,
    /// The line that closes it on its own (`}`); None where the language has none.
    pub close: Option<u64>,
}

/// Every `kind` a symbol may have: LSP's SymbolKind in lower case, and agentread's own.
const KINDS: &[&str] = &[
    "module",
    "namespace",
    "package",
    "class",
    "method",
    "property",
    "field",
    "constructor",
    "enum",
    "interface",
    "function",
    "variable",
    "constant",
    "struct",
    "event",
    "operator",
    "type",
    "impl",
    "section",
    "macro",
    "enum_member",
    "type_parameter",
    "object",
    "key",
];

/// The kind named `name`, as the `&'static str` a [`Symbol`] holds (for outlines read
/// back from a cache); None for a name that is no kind.
pub fn kind_named(name: &str) -> Option<&'static str> {
    KINDS.iter().copied().find(|kind| *kind == name)
}

/// Why a file has no outline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutlineError {
    /// Parsing took longer than its time budget and was given up.
    Timeout,
    /// The tree would hold more memory than a parse may take (see `memory`): dense
    /// code, as a rule minified, whose lines can still be read.
    Memory,
    /// The file defines more symbols than an outline holds (see `collect.rs`): a
    /// generated file, as a rule, whose lines can still be read.
    TooLarge,
    /// The parser refused the input or the grammar (it never does for a grammar that
    /// loaded, but the library's API allows it).
    Unparsable,
}

impl fmt::Display for OutlineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutlineError::Timeout => "parsing took too long and was given up",
            OutlineError::Memory => {
                "its syntax tree would take more than 112 MiB, and parsing was given up"
            }
            OutlineError::TooLarge => "the file defines too many symbols to list",
            OutlineError::Unparsable => "the file could not be parsed",
        })
    }
}

impl std::error::Error for OutlineError {}
