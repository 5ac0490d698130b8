//! What a language's rules say about one syntax node that defines a symbol, and the
//! small text helpers the rules share.

use tree_sitter::Node;

/// A name longer than this many bytes is cut (at a character boundary, marked with
/// `…`), so that generated code cannot make every qualified name huge.
const MAX_NAME_BYTES: usize = 200;

/// One definition as a language's rules see it; the walker turns it into a `Symbol`.
pub(super) struct Def {
    /// `function` for any function: the walker makes it `method` inside a class, struct,
    /// interface, impl or enum.
    pub kind: &'static str,
    pub name: String,
    /// The 0-based row of the name: the symbol's `def_line`.
    pub name_row: usize,
    /// How many ancestors up the node is whose lines are the symbol's (a decorator's
    /// `decorated_definition`, an `export` statement, a `template<…>`): 0 for the node itself.
    pub outer_up: usize,
    /// What stands between the enclosing symbols and the name: a Go method's receiver
    /// type, the `Foo` of C++'s out-of-line `Foo::bar`.
    pub qualifier: Option<String>,
    /// What the symbols inside are qualified by, when not `name`: a Rust impl's type.
    pub scope: Option<String>,
    /// A declaration that a definition of the same name right after it continues (a
    /// TypeScript overload signature): that definition's lines then start at its.
    pub overload: bool,
    /// The row its lines start on when that is not where its node starts: below a
    /// macro line that error recovery took into a C definition.
    pub start_row: Option<usize>,
}

impl Def {
    /// A definition named by `name_node`, whose lines are the node's own.
    pub fn named(kind: &'static str, name_node: Node, src: &[u8]) -> Option<Def> {
        let name = squash(text(name_node, src));
        if name.is_empty() {
            // A name the parser invented to recover from an error.
            return None;
        }
        Some(Def {
            kind,
            name,
            name_row: name_node.start_position().row,
            outer_up: 0,
            qualifier: None,
            scope: None,
            overload: false,
            start_row: None,
        })
    }

    /// The same definition, its lines starting `up` ancestors higher.
    pub fn up(mut self, up: usize) -> Def {
        self.outer_up = up;
        self
    }
}

/// The source bytes of a node.
pub(super) fn text<'s>(node: Node, src: &'s [u8]) -> &'s [u8] {
    src.get(node.byte_range()).unwrap_or_default()
}

/// Text as one line: runs of whitespace become one space, the ends trimmed, invalid
/// UTF-8 replaced, and cut to [`MAX_NAME_BYTES`].
pub(super) fn squash(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len().min(MAX_NAME_BYTES + 3));
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
        if out.len() > MAX_NAME_BYTES {
            break;
        }
    }
    cut(out)
}

/// `name` cut to [`MAX_NAME_BYTES`] at a character boundary, with `…` if cut.
fn cut(mut name: String) -> String {
    if name.len() > MAX_NAME_BYTES {
        let mut end = MAX_NAME_BYTES;
        while !name.is_char_boundary(end) {
            end -= 1;
        }
        name.truncate(end);
        name.push('…');
    }
    name
}

/// A type as it qualifies its members: generic arguments (`<…>`, Go's `[…]`) dropped,
/// references, pointers and lifetimes (`&'a mut`, `*`) and whitespace removed:
/// `Window<T>` → `Window`, `&'a mut fmt::Formatter<'b>` → `fmt::Formatter`.
pub(super) fn type_name(bytes: &[u8], go_generics: bool) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut kept = String::with_capacity(text.len().min(MAX_NAME_BYTES));
    let mut nesting = 0usize;
    for c in text.chars() {
        match c {
            '<' => nesting += 1,
            '>' => nesting = nesting.saturating_sub(1),
            '[' if go_generics => nesting += 1,
            ']' if go_generics => nesting = nesting.saturating_sub(1),
            _ if nesting > 0 => {}
            _ => kept.push(c),
        }
    }
    let mut rest = kept.trim();
    loop {
        let before = rest.len();
        rest = rest.trim_start_matches(['&', '*']).trim_start();
        if let Some(after) = rest.strip_prefix('\'') {
            // A lifetime: `'a` up to the type that follows it.
            let end = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            rest = after[end..].trim_start();
        }
        for word in ["mut", "const", "dyn"] {
            if let Some(after) = rest.strip_prefix(word)
                && after.starts_with(char::is_whitespace)
            {
                rest = after.trim_start();
            }
        }
        if rest.len() == before {
            break;
        }
    }
    cut(rest.chars().filter(|c| !c.is_whitespace()).collect())
}

/// The node's last row (0-based): a node that ends just after a line end (a `//`
/// comment with its `\n`) ends on the row before.
pub(super) fn last_row(node: Node) -> usize {
    let end = node.end_position();
    if end.column == 0 && end.row > node.start_position().row {
        end.row - 1
    } else {
        end.row
    }
}
