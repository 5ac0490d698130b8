//! Bodies found before parsing, for the parser to pass over. Most of a source file is
//! the insides of its functions, and an outline needs only where each body starts and
//! ends. A scan of brackets, strings and comments finds the blocks that hold no
//! definition; their insides are left out of tree-sitter's included ranges, so the
//! grammar reads `fn f() {}` and its nodes keep their places in the file (parsing takes
//! 0.02-0.5x the time: docs/performance.md, "Bodies passed over").
//!
//! The scan knows each language's strings, characters, comments and, in C and C++, its
//! preprocessor lines (only an `#if`'s first branch counts, as ctags reads it). A `{`
//! whose head (what precedes it in its statement) holds a
//! parenthesised list, or is an arrow, or starts with a control word (`if`, `for` …),
//! opens a body that may be passed over; a head with a type's word (`struct`, `class`,
//! `impl` …) or an `=` opens something that is always parsed. A body is kept whole when
//! it holds a definition: a type, or a word or nested function the language's outline
//! lists. Brackets that do not pair up leave the file whole. The caller checks that
//! every body's braces came back as one node's ([`trusted`]); if one did not, it parses
//! the file again whole.
//!
//! In Rust, whole lines of `//` comments outside those bodies are left out too (the
//! doc comments that make half of a crate such as tokio); the walk counts them as a
//! definition's leading lines all the same (see [`CommentLines`]). The scan also notes
//! the macro invocations that open a brace block at item
//! level (`cfg_rt! {` in a file, a `mod`, an `impl` or a `trait`): `rust_macros` may read
//! the items in them where they stand.

use std::ops::Range;

use tree_sitter::Tree;

use super::language::Language;
use super::python_bodies::{self, Tail};

/// A shorter inside is parsed: leaving it out would save less than the range costs.
const MIN_INSIDE: usize = 32;

/// Brackets open at once past which the scan gives up.
const MAX_DEPTH: usize = 1024;

/// What one language's scan must know.
struct Lexis {
    /// Words that start a control statement; a `{` after one opens a block to pass over.
    control: &'static [&'static str],
    /// Words in a head that make its `{` open a type (or namespace): parsed, and a
    /// definition in the block around it.
    types: &'static [&'static str],
    /// Words that, anywhere in a block, mean it holds a definition.
    defining: &'static [&'static str],
    /// The lexical family: what strings, comments and other literals look like.
    family: Family,
}

/// The languages that share a scan, by their literals.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    /// Raw strings `r#"…"#`, lifetimes, nested block comments, strings that span lines.
    Rust,
    /// C and C++: preprocessor lines, raw strings `R"d(…)d"`, digit separators `1'000`.
    C,
    /// JavaScript and TypeScript: template literals and regular expressions; a nested
    /// function can be a definition (named, assigned, a key's value or a member of an
    /// object or class).
    Ecmascript,
    /// Raw strings in backquotes.
    Go,
    /// Text blocks `"""…"""`.
    Java,
}

impl Lexis {
    fn rust(&self) -> bool {
        self.family == Family::Rust
    }
    fn c(&self) -> bool {
        self.family == Family::C
    }
    fn ecmascript(&self) -> bool {
        self.family == Family::Ecmascript
    }
    fn go(&self) -> bool {
        self.family == Family::Go
    }
    fn java(&self) -> bool {
        self.family == Family::Java
    }
}

const RUST: Lexis = Lexis {
    control: &["if", "else", "for", "while", "loop", "match", "unsafe"],
    types: &[
        "struct",
        "enum",
        "union",
        "trait",
        "impl",
        "mod",
        "macro_rules",
    ],
    defining: &[
        "fn",
        "struct",
        "enum",
        "union",
        "trait",
        "impl",
        "mod",
        "macro_rules",
    ],
    family: Family::Rust,
};

const C: Lexis = Lexis {
    control: &[
        "if", "else", "for", "while", "do", "switch", "try", "catch", "case", "default",
    ],
    types: &["struct", "union", "enum", "class", "namespace", "typedef"],
    defining: &[],
    family: Family::C,
};

const ECMASCRIPT: Lexis = Lexis {
    control: &[
        "if", "else", "for", "while", "do", "switch", "try", "catch", "finally", "with",
    ],
    types: &[
        "class",
        "interface",
        "enum",
        "namespace",
        "module",
        "declare",
    ],
    defining: &["class"],
    family: Family::Ecmascript,
};

const GO: Lexis = Lexis {
    control: &["if", "else", "for", "switch", "select", "case", "default"],
    types: &["struct", "interface"],
    defining: &["type"],
    family: Family::Go,
};

const JAVA: Lexis = Lexis {
    control: &[
        "if",
        "else",
        "for",
        "while",
        "do",
        "switch",
        "try",
        "catch",
        "finally",
        "synchronized",
        "case",
        "default",
    ],
    types: &["class", "interface", "enum", "record", "new"],
    defining: &["class", "interface", "enum", "record"],
    family: Family::Java,
};

fn lexis(language: Language) -> Option<&'static Lexis> {
    match language {
        Language::Rust => Some(&RUST),
        Language::C | Language::Cpp => Some(&C),
        // TSX is left whole: JSX text is not code ("don't" is no string).
        Language::JavaScript | Language::TypeScript => Some(&ECMASCRIPT),
        Language::Go => Some(&GO),
        Language::Java => Some(&JAVA),
        Language::Python | Language::Tsx | Language::Markdown => None,
    }
}

/// C and C++: words that may follow a function's parameters before its body (the
/// macro blanking's own list, `macros::AFTER_PARAMETERS`, is of the words a trailing
/// macro may follow, fewer).
const AFTER_PARAMETERS: &[&str] = &[
    "const",
    "volatile",
    "noexcept",
    "override",
    "final",
    "throw",
    "mutable",
    "requires",
    "try",
    "__attribute__",
];

/// Words that may precede a Rust item's keyword (`pub unsafe impl`, `const fn`).
const RUST_MODIFIERS: &[&str] = &[
    "pub", "unsafe", "default", "auto", "extern", "async", "const",
];

/// What a statement's head held so far, at one bracket level.
#[derive(Clone, Copy, Default)]
struct Head {
    /// The head's first word has been read.
    started: bool,
    /// It starts with a control word.
    control: bool,
    /// It holds a type's word.
    types: bool,
    /// It holds a parenthesised list.
    parens: bool,
    /// Since the list's `)`, no `=` (nor, in JavaScript and TypeScript, `|`, `&`, `?`,
    /// `,`, `!` or `+`), which would make the `{` an operand: only a return type, `->`,
    /// or words (`const`, `throws X`).
    after_parens: bool,
    /// C and C++: a type's head names its type after a parenthesised list
    /// (`class alignas(64) Entry {`, `struct __attribute__((packed)) S {`), where a
    /// function returning a type ends with its parameters (`struct stat *get(int fd) {`)
    /// and words that qualify them.
    named_after_parens: bool,
    /// It holds `=` (an assignment or initializer, not `==`, `<=`, `=>` …).
    assign: bool,
    /// It holds a `:` (a key, a label, a type).
    colon: bool,
    /// Where its last `=>` ends (0: none).
    arrow_end: usize,
    /// It holds `function NAME`.
    named_function: bool,
    /// The last word was `function`.
    after_function: bool,
    /// It holds `enum`.
    enumeration: bool,
    /// Rust: a word that is no modifier has been read, so an item's keyword can no
    /// longer come (`impl` in `fn f() -> impl Trait` is a type, not an item).
    past_modifiers: bool,
    /// Rust: it is a `mod`, `impl` or `trait`, whose block holds items.
    items: bool,
    /// Rust: it is a function's (`fn`), where an `=` binds a type (`Item = u8`) and
    /// does not make the `{` an operand.
    function_item: bool,
    /// Rust: it is `macro_rules! name`, whose rules are token trees, not items.
    macro_rules: bool,
}

/// What a `{` opened.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    /// A function's or closure's body, or a control statement's block: passed over
    /// when it holds no definition.
    Body,
    /// A type, namespace, initializer or object: always parsed.
    Kept,
}

struct Open {
    byte: u8,
    at: usize,
    block: Block,
    /// It is a definition itself, so the block around it holds one.
    defining: bool,
    /// It holds a definition.
    defines: bool,
    /// The head of the statement that holds this bracket.
    head: Head,
    /// A Java enum's body, before the `;` that ends its constants: a constant's `{`
    /// opens a class body.
    constants: bool,
    /// Rust: the block holds items (a file's top level does too).
    items: bool,
    /// Rust: the index of the macro block it opens, in [`Scanned::macro_blocks`].
    macro_block: Option<usize>,
    /// Rust: a `macro_rules!` body, passed over whatever its rules hold (the grammar
    /// reads them as token trees, which define nothing).
    rules: bool,
}

/// A Rust macro invocation whose brace block stands at item level: `name! {` right
/// after an item, an attribute or a block's `{`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct MacroBlock {
    /// The offset of its `{`.
    pub open: usize,
    /// The offset of its `}`.
    pub close: usize,
    /// The macro block it stands in, if any: an index in the same list.
    pub parent: Option<usize>,
}

/// Consecutive lines that hold a `//` comment and nothing else (but indentation), left
/// out of the parse: the rows they span, for the walk, which counts them as a
/// definition's leading lines as it counts the comments it sees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CommentLines {
    /// From the first `//` to the end of the last line (its line end excluded).
    pub bytes: Range<usize>,
    pub first_row: usize,
    /// The byte column of the first `//`.
    pub first_col: usize,
    pub last_row: usize,
}

/// What the scan found.
#[derive(Default)]
pub(super) struct Scanned {
    /// The insides of the bodies to pass over, sorted and apart.
    pub holes: Vec<Range<usize>>,
    /// Rust: whole comment lines outside the holes, sorted and apart.
    pub comments: Vec<CommentLines>,
    /// Python: the rows of the holes that are the tails of bodies (not of those that
    /// are brackets' insides, which move no definition's end).
    pub tails: Vec<Tail>,
    /// Rust's item-level macro blocks, outermost first.
    pub macro_blocks: Vec<MacroBlock>,
    /// The lines that hold only comments, when asked for ([`whole_comments`]).
    pub whole_comments: Vec<Range<usize>>,
}

/// The insides of the bodies of `source` to pass over and its item-level macro blocks;
/// nothing when the language has no scan or the file's brackets do not pair up.
pub(super) fn scan(language: Language, source: &[u8]) -> Scanned {
    if language == Language::Python {
        let (holes, tails) = python_bodies::tails(source).unwrap_or_default();
        return Scanned {
            holes,
            tails,
            ..Scanned::default()
        };
    }
    match lexis(language) {
        Some(lexis) => Scan::new(lexis, source).run().unwrap_or_default(),
        None => Scanned::default(),
    }
}

impl Scanned {
    /// Passes over `insides` too, those of more than [`MIN_INSIDE`] bytes that no hole
    /// holds already (in a `macro_rules!` body): the holes and comment lines within one
    /// go with it.
    pub(super) fn pass_over(&mut self, insides: &[Range<usize>]) {
        // Each lookup is a binary search: both lists are sorted, and a file may hold
        // hundreds of thousands of either.
        let holds = |outer: &[Range<usize>], inner: &Range<usize>| {
            let at = outer.partition_point(|range| range.start <= inner.start);
            at > 0 && inner.end <= outer[at - 1].end
        };
        let mut kept: Vec<Range<usize>> = Vec::new();
        // In the order they open: one within the last kept goes with it.
        for inside in insides.iter().filter(|inside| inside.len() > MIN_INSIDE) {
            let nested = kept.last().is_some_and(|last| inside.end <= last.end);
            if !nested && !holds(&self.holes, inside) {
                kept.push(inside.clone());
            }
        }
        if kept.is_empty() {
            return;
        }
        self.holes.retain(|hole| !holds(&kept, hole));
        self.comments.retain(|lines| !holds(&kept, &lines.bytes));
        self.holes.extend(kept);
        self.holes.sort_unstable_by_key(|hole| hole.start);
    }

    /// What the parser passes over: the holes and the comment lines, sorted and apart.
    pub(super) fn left_out(&self) -> Vec<Range<usize>> {
        let mut out: Vec<Range<usize>> = self
            .holes
            .iter()
            .cloned()
            .chain(self.comments.iter().map(|c| c.bytes.clone()))
            .collect();
        out.sort_unstable_by_key(|range| range.start);
        out
    }
}

/// The lines of `source` that hold only comments, consecutive ones as one range (from
/// the first comment's start to the last one's end), for a language the scan knows;
/// None for another or when the scan cannot read the file (brackets that do not pair).
pub(super) fn whole_comments(language: Language, source: &[u8]) -> Option<Vec<Range<usize>>> {
    let mut scan = Scan::new(lexis(language)?, source);
    scan.whole_comments = Some(Vec::new());
    scan.run().map(|scanned| scanned.whole_comments)
}

/// `range` without the holes (sorted and apart) that lie in it.
pub(super) fn around(range: Range<usize>, holes: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(holes.len() + 1);
    let mut from = range.start;
    for hole in holes
        .iter()
        .filter(|h| h.start >= range.start && h.end <= range.end)
    {
        out.push(from..hole.start);
        from = hole.end;
    }
    out.push(from..range.end);
    out
}

/// Whether a tree parsed without the holes is thrown away when it holds a syntax error
/// (so its parse may stop at the first one): in C++, whose error recovery reads a file
/// without its bodies differently from the whole, and in Python, whose holes have no
/// braces to check (a misread one leaves a block empty, an error).
pub(super) fn errors_untrusted(language: Language) -> bool {
    matches!(language, Language::Cpp | Language::Python)
}

/// Whether the tree parsed without the holes can stand for the whole file's: every
/// hole's braces came back from the parser as one node's first and last child (if the
/// scan misread the file, they would not), and, in C++ and Python, the tree has no
/// error. C++'s
/// error recovery (templates and macros the grammar cannot know) reads a file with its
/// bodies left out differently from the whole: agreement with ctags fell from 98.9 to
/// 98.1 % when such trees were kept, while C's rose from 98.5 to 98.8 %.
pub(super) fn trusted(language: Language, tree: &Tree, holes: &[Range<usize>]) -> bool {
    if errors_untrusted(language) && tree.root_node().has_error() {
        return false;
    }
    language == Language::Python || braces_kept(tree, holes)
}

/// Whether every hole's braces came back from the parser as one node's first and last
/// child (see [`trusted`]), whatever errors the tree has elsewhere.
pub(super) fn braces_kept(tree: &Tree, holes: &[Range<usize>]) -> bool {
    let root = tree.root_node();
    holes.iter().all(|hole| {
        // Most often the braces are the first and last children of the smallest node that
        // spans them, found by one search from the root; `parent`, which the general check
        // below calls twice, searches from the root each time.
        if let Some(node) = root.descendant_for_byte_range(hole.start - 1, hole.end + 1)
            && node.start_byte() == hole.start - 1
            && node.end_byte() == hole.end + 1
            && let (Some(open), Some(close)) = (
                node.child(0),
                node.child(node.child_count().saturating_sub(1)),
            )
            && open.kind() == "{"
            && close.kind() == "}"
            && !open.is_missing()
            && !close.is_missing()
            && open.start_byte() == hole.start - 1
            && close.start_byte() == hole.end
        {
            return true;
        }
        let open = root.descendant_for_byte_range(hole.start - 1, hole.start);
        let close = root.descendant_for_byte_range(hole.end, hole.end + 1);
        match (open, close) {
            (Some(open), Some(close)) => {
                open.kind() == "{"
                    && close.kind() == "}"
                    && !open.is_missing()
                    && !close.is_missing()
                    && open.start_byte() == hole.start - 1
                    && close.start_byte() == hole.end
                    && open.parent().is_some_and(|p| close.parent() == Some(p))
            }
            _ => false,
        }
    })
}

struct Scan<'a> {
    lexis: &'static Lexis,
    src: &'a [u8],
    at: usize,
    stack: Vec<Open>,
    /// The head at the top level (the file, outside every bracket).
    top: Head,
    holes: Vec<Range<usize>>,
    /// Whole comment lines (bytes), consecutive ones merged.
    comments: Vec<Range<usize>>,
    /// Every family's lines that hold only comments (bytes, consecutive ones merged),
    /// when they are asked for ([`whole_comments`]); None when they are not.
    whole_comments: Option<Vec<Range<usize>>>,
    macro_blocks: Vec<MacroBlock>,
    /// Where the last word read ends, and the last byte of code before it.
    word_end: usize,
    before_word: u8,
    /// The last byte of code read (not space, not a comment), for telling a regular
    /// expression's `/` from a division.
    last: u8,
    /// The last word read ended at `last` and allows a regular expression after it.
    last_word_allows_regex: bool,
    /// Template literals open, each as the stack depth its `${` pushed at.
    templates: Vec<usize>,
}

/// Words after which a `/` starts a regular expression.
const REGEX_AFTER: &[&str] = &[
    "return",
    "typeof",
    "case",
    "do",
    "else",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "instanceof",
    "yield",
    "await",
];

impl<'a> Scan<'a> {
    fn new(lexis: &'static Lexis, src: &'a [u8]) -> Self {
        Scan {
            lexis,
            src,
            at: 0,
            stack: Vec::new(),
            top: Head::default(),
            holes: Vec::new(),
            comments: Vec::new(),
            whole_comments: None,
            macro_blocks: Vec::new(),
            word_end: 0,
            before_word: 0,
            last: 0,
            last_word_allows_regex: false,
            templates: Vec::new(),
        }
    }

    fn peek(&self, ahead: usize) -> u8 {
        self.src.get(self.at + ahead).copied().unwrap_or(0)
    }

    fn head(&mut self) -> &mut Head {
        match self.stack.last_mut() {
            Some(open) => &mut open.head,
            None => &mut self.top,
        }
    }

    /// Marks the innermost block as holding a definition.
    fn defines(&mut self) {
        if let Some(open) = self.stack.iter_mut().rev().find(|o| o.byte == b'{') {
            open.defines = true;
        }
    }

    fn run(mut self) -> Option<Scanned> {
        let mut line_start = true;
        while self.at < self.src.len() {
            let b = self.src[self.at];
            if b == b'\n' {
                line_start = true;
                self.at += 1;
                if self.lexis.ecmascript() && self.statement_may_end() {
                    *self.head() = Head::default();
                }
                continue;
            }
            if b == b' ' || b == b'\t' || b == b'\r' || b == 0x0C {
                self.at += 1;
                continue;
            }
            let first_on_line = std::mem::replace(&mut line_start, false);
            if self.whole_comments.is_some()
                && first_on_line
                && b == b'/'
                && matches!(self.peek(1), b'/' | b'*')
            {
                let start = self.at;
                self.token(b)?;
                self.note_whole_comment(start);
                continue;
            }
            if self.lexis.rust() && first_on_line && b == b'/' && self.peek(1) == b'/' {
                self.comment_line();
                continue;
            }
            if self.lexis.c() && first_on_line && b == b'#' {
                self.preprocessor_line();
                line_start = true;
                continue;
            }
            self.token(b)?;
        }
        if !(self.stack.is_empty() && self.templates.is_empty()) {
            return None;
        }
        let comments = comment_rows(self.src, &self.comments, &self.holes);
        Some(Scanned {
            holes: self.holes,
            comments,
            tails: Vec::new(),
            macro_blocks: self.macro_blocks,
            whole_comments: self.whole_comments.unwrap_or_default(),
        })
    }

    fn token(&mut self, b: u8) -> Option<()> {
        match b {
            b'/' if self.peek(1) == b'/' => self.skip_line(),
            b'/' if self.peek(1) == b'*' => self.block_comment(),
            b'/' if self.lexis.ecmascript() && self.regex_allowed() => {
                self.regex();
                self.literal();
            }
            b'"' if self.lexis.java() && self.src[self.at..].starts_with(b"\"\"\"") => {
                self.delimited(b"\"\"\"", 3);
                self.literal();
            }
            b'"' | b'\'' if b == b'"' || !self.lexis.rust() => {
                self.quoted(b, self.lexis.rust());
                self.literal();
            }
            b'\'' => self.rust_quote(),
            b'`' if self.lexis.go() => {
                self.delimited(b"`", 1);
                self.literal();
            }
            b'`' if self.lexis.ecmascript() => {
                self.at += 1;
                self.template()?;
            }
            // Deeper than real code nests, the file is left whole: the scan's memory
            // stays small whatever the input.
            b'{' | b'(' | b'[' if self.stack.len() >= MAX_DEPTH => return None,
            b'{' | b'(' | b'[' => self.open(b),
            b'}' | b')' | b']' => self.close(b)?,
            b';' => {
                if let Some(open) = self.stack.last_mut() {
                    open.constants = false;
                }
                *self.head() = Head::default();
                self.code(b);
            }
            b'=' => {
                let next = self.peek(1);
                let previous = self.last;
                if next == b'>' {
                    self.at += 2;
                    self.arrow();
                    self.last = b'>';
                    return Some(());
                }
                let head = self.head();
                // `fn f() -> impl Iterator<Item = u8> {` still opens a body.
                if !head.function_item {
                    head.after_parens = false;
                    if next != b'=' && !matches!(previous, b'=' | b'!' | b'<' | b'>') {
                        head.assign = true;
                    }
                }
                self.code(b'=');
            }
            // In JavaScript and TypeScript, `f(x) || {…}` is an object; elsewhere these
            // are parts of a return type (`-> Result<T, E>`, `-> &str`).
            b'|' | b'&' | b'?' | b',' | b'!' | b'+' if self.lexis.ecmascript() => {
                self.head().after_parens = false;
                self.code(b);
            }
            b':' => {
                self.head().colon = true;
                self.code(b);
            }
            b if b.is_ascii_digit() => self.number(),
            b if b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80 => self.word()?,
            _ => self.code(b),
        }
        Some(())
    }

    /// One byte of code that is nothing else: remembered for the next `/`.
    fn code(&mut self, b: u8) {
        self.at += 1;
        self.last = b;
        self.last_word_allows_regex = false;
    }

    /// A string, character or regular expression has just been passed: a `/` after it
    /// divides.
    fn literal(&mut self) {
        self.last = b'"';
        self.last_word_allows_regex = false;
    }

    /// At a line's end in JavaScript or TypeScript: whether the statement ends here
    /// without a `;`. It does when the line ends with a word, a literal or a closing
    /// bracket and the next line starts with a word (`return x` then `function g() {`).
    fn statement_may_end(&self) -> bool {
        let ends = matches!(self.last, b')' | b']' | b'}' | b'"' | b'`')
            || self.last.is_ascii_alphanumeric()
            || matches!(self.last, b'_' | b'$');
        let next = self.src[self.at..]
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .copied()
            .unwrap_or(0);
        ends && (next.is_ascii_alphabetic() || matches!(next, b'_' | b'$'))
    }

    fn regex_allowed(&self) -> bool {
        match self.last {
            0 => true,
            b')' | b']' | b'}' | b'"' | b'\'' | b'`' => false,
            b if b.is_ascii_alphanumeric() || b == b'_' || b == b'$' => self.last_word_allows_regex,
            _ => true,
        }
    }

    fn arrow(&mut self) {
        let end = self.at;
        let head = self.head();
        head.arrow_end = end;
        // `const f = x => x + 1` and `{ key: x => x }` define, with no braces to see.
        if (head.assign || head.colon) && self.lexis.ecmascript() {
            self.defines();
        }
    }

    fn word(&mut self) -> Option<()> {
        let start = self.at;
        while self.at < self.src.len() {
            let b = self.src[self.at];
            if !(b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80) {
                break;
            }
            self.at += 1;
        }
        let word = &self.src[start..self.at];
        // Rust's raw and byte strings: `r"…"`, `r#"…"#`, `b"…"`, `br#"…"#`.
        if self.lexis.rust() && matches!(word, b"r" | b"br" | b"b" | b"cr" | b"c") {
            match self.peek(0) {
                b'"' | b'#' if word != b"b" && word != b"c" => return self.rust_raw_string(),
                b'"' => {
                    self.quoted(b'"', true);
                    self.literal();
                    return Some(());
                }
                b'\'' if word == b"b" => {
                    self.quoted(b'\'', false);
                    self.literal();
                    return Some(());
                }
                _ => {}
            }
        }
        // C++'s raw strings: `R"d(…)d"`, with an encoding prefix or not.
        if self.lexis.c()
            && self.peek(0) == b'"'
            && matches!(word, b"R" | b"LR" | b"uR" | b"UR" | b"u8R")
        {
            self.cpp_raw_string();
            self.literal();
            return Some(());
        }
        if self.lexis.c() && self.peek(0) == b'\'' && matches!(word, b"L" | b"u" | b"U" | b"u8") {
            self.quoted(b'\'', false);
            self.literal();
            return Some(());
        }
        let lexis = self.lexis;
        // A member's name (`x.class`, `s.union(…)`) is no keyword; nor, in C++, is the
        // `class` of a template's parameter (`template <class T>`).
        let keyword = self.last != b'.' && !(lexis.c() && matches!(self.last, b'<' | b','));
        let is = |list: &[&str]| keyword && list.iter().any(|w| w.as_bytes() == word);
        let head = self.head();
        if !head.started {
            head.started = true;
            head.control = is(lexis.control);
        }
        // A Rust item's keyword comes first but for modifiers; later it is a type's word
        // (`-> impl Trait`) or a name (`fn union(`).
        let item_keyword = !lexis.rust() || !head.past_modifiers;
        if lexis.rust() && item_keyword {
            head.items |= is(&["mod", "impl", "trait"]);
            head.function_item |= is(&["fn"]);
            head.macro_rules |= is(&["macro_rules"]);
            head.past_modifiers = !is(RUST_MODIFIERS);
        }
        if is(lexis.types) && item_keyword {
            head.types = true;
            head.enumeration |= word == b"enum";
        }
        if lexis.c()
            && head.types
            && head.parens
            && head.after_parens
            && !AFTER_PARAMETERS.iter().any(|w| w.as_bytes() == word)
        {
            head.named_after_parens = true;
        }
        head.named_function = head.named_function || head.after_function;
        head.after_function = word == b"function";
        if is(lexis.defining) {
            self.defines();
        }
        self.before_word = self.last;
        self.word_end = self.at;
        self.last = *word.last()?;
        self.last_word_allows_regex = REGEX_AFTER.iter().any(|w| w.as_bytes() == word);
        Some(())
    }

    fn number(&mut self) {
        while self.at < self.src.len() {
            let b = self.src[self.at];
            let separator = b == b'\'' && self.lexis.c();
            if !(b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || separator) {
                break;
            }
            // An exponent's sign: `1e-5`.
            if matches!(b, b'e' | b'E' | b'p' | b'P') && matches!(self.peek(1), b'+' | b'-') {
                self.at += 1;
            }
            self.at += 1;
        }
        self.last = b'0';
        self.last_word_allows_regex = false;
    }

    fn open(&mut self, b: u8) {
        let head = *self.head();
        // In C and C++ a type's word may be a variable's type (`struct point p = {`) or a
        // function's (`struct stat *get(int fd) {`); elsewhere it always opens a type
        // (`new Runnable() {`, `const A = class {`).
        let type_head = head.types
            && !(self.lexis.c() && (head.assign || head.parens && !head.named_after_parens));
        let in_constants = self.stack.last().is_some_and(|open| open.constants);
        // A function's body follows its parameters (and a return type, `const`, `throws
        // …`), or an arrow right before it.
        let arrow = head.arrow_end > 0
            && self.src[head.arrow_end..self.at]
                .iter()
                .all(u8::is_ascii_whitespace);
        let function = (head.parens && head.after_parens) || arrow;
        // In JavaScript and TypeScript a function defines when it is named, assigned,
        // a key's value or a member of an object or class (the walk lists those); a
        // callback's body is passed over.
        let ecmascript = self.lexis.ecmascript();
        let in_object = self
            .stack
            .last()
            .is_some_and(|open| open.byte == b'{' && open.block == Block::Kept);
        let nested = ecmascript && (head.assign || head.colon || in_object);
        let macro_block = b == b'{' && self.item_level_macro();
        let rules = b == b'{' && head.macro_rules;
        let (block, defining) = match b {
            b'{' if rules => (Block::Body, true),
            b'{' if type_head || in_constants => (Block::Kept, true),
            // `catch() {…}` in an object is a method.
            b'{' if head.control && !(ecmascript && in_object) => (Block::Body, false),
            b'{' if function || head.control => {
                (Block::Body, nested || ecmascript && head.named_function)
            }
            _ => (Block::Kept, ecmascript && head.named_function),
        };
        self.stack.push(Open {
            byte: b,
            at: self.at,
            block,
            defining,
            defines: false,
            head: Head::default(),
            constants: self.lexis.java() && b == b'{' && head.enumeration,
            items: b == b'{' && (head.items || macro_block),
            macro_block: macro_block.then_some(self.macro_blocks.len()),
            rules,
        });
        if macro_block {
            let parent = self.stack.iter().rev().skip(1).find_map(|o| o.macro_block);
            self.macro_blocks.push(MacroBlock {
                open: self.at,
                close: self.at,
                parent,
            });
        }
        self.code(b);
    }

    /// Rust, at a `{`: whether it follows `name!` that starts an item at item level.
    fn item_level_macro(&self) -> bool {
        let at_item_level = self.stack.last().is_none_or(|open| open.items);
        let bang = self.last == b'!'
            && self.src.get(self.word_end) == Some(&b'!')
            && self.src[self.word_end + 1..self.at]
                .iter()
                .all(u8::is_ascii_whitespace);
        // What came before the name ends an item, an attribute or opens the block.
        let starts = matches!(self.before_word, 0 | b';' | b'}' | b'{' | b']');
        self.lexis.rust() && at_item_level && bang && starts
    }

    fn close(&mut self, b: u8) -> Option<()> {
        let want = match b {
            b'}' => b'{',
            b')' => b'(',
            _ => b'[',
        };
        // The `}` that ends a template literal's `${…}`.
        if b == b'}' && self.templates.last() == Some(&self.stack.len()) {
            self.templates.pop();
            self.at += 1;
            return self.template();
        }
        let open = self.stack.pop()?;
        if open.byte != want {
            return None;
        }
        self.code(b);
        match b {
            b')' => {
                let head = self.head();
                head.parens = true;
                head.after_parens = true;
            }
            b']' => {}
            _ => {
                self.close_block(open);
                *self.head() = Head::default();
            }
        }
        Some(())
    }

    fn close_block(&mut self, open: Open) {
        let end = self.at - 1;
        if let Some(index) = open.macro_block {
            self.macro_blocks[index].close = end;
        }
        let marks_parent = open.defining || open.defines;
        let passed_over = open.block == Block::Body && (!open.defines || open.rules);
        // In C and C++, `void b(int c) {…};` without its inside reads as a declaration
        // with an initializer (`{}`), not a function: a body followed by `;` is parsed.
        let before_semicolon = self.lexis.c()
            && self.src[self.at..]
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|&b| b == b';');
        if passed_over && !before_semicolon && end - open.at > MIN_INSIDE {
            let start = open.at + 1;
            while self.holes.last().is_some_and(|h| h.start >= start) {
                self.holes.pop();
            }
            self.holes.push(start..end);
        }
        if marks_parent {
            self.defines();
        }
    }

    /// The comment that starts a line at `start` and ends at `self.at`: noted, with the
    /// lines of comments right above it, if nothing follows it on its last line.
    fn note_whole_comment(&mut self, start: usize) {
        let end = super::line_end(self.src, self.at);
        if !self.src[self.at..end].iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let end = self.at;
        let src = self.src;
        let Some(whole) = self.whole_comments.as_mut() else {
            return;
        };
        match whole.last_mut() {
            Some(last)
                if src[last.end..start].iter().all(u8::is_ascii_whitespace)
                    && memchr::memchr_iter(b'\n', &src[last.end..start]).count() == 1 =>
            {
                last.end = end;
            }
            _ => whole.push(start..end),
        }
    }

    /// A line that holds only a `//` comment: noted, merged with the line above if that
    /// was one too.
    fn comment_line(&mut self) {
        let start = self.at;
        self.skip_line();
        let end = self.src[start..self.at]
            .strip_suffix(b"\r")
            .map_or(self.at, |line| start + line.len());
        match self.comments.last_mut() {
            Some(last)
                if self.src[last.end..start]
                    .iter()
                    .all(u8::is_ascii_whitespace)
                    && memchr::memchr_iter(b'\n', &self.src[last.end..start]).count() == 1 =>
            {
                last.end = end;
            }
            _ => self.comments.push(start..end),
        }
    }

    fn skip_line(&mut self) {
        self.at =
            memchr::memchr(b'\n', &self.src[self.at..]).map_or(self.src.len(), |n| self.at + n);
    }

    /// A preprocessor line, and after `#else` or `#elif` the rest of its `#if` up to
    /// `#endif`: only an `#if`'s first branch is read, as ctags reads it, so that
    /// branches that each close a bracket count it once.
    fn preprocessor_line(&mut self) {
        let word = directive(&self.src[self.at..]);
        self.directive_line();
        if word != b"else" && word != b"elif" && word != b"elifdef" && word != b"elifndef" {
            return;
        }
        let mut depth = 0;
        while self.at < self.src.len() {
            self.at += 1;
            let line_start = self.at;
            let text = &self.src[line_start..];
            let indent = text
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
            if text.get(indent) == Some(&b'#') {
                self.at += indent;
                match directive(&self.src[self.at..]) {
                    b"if" | b"ifdef" | b"ifndef" => depth += 1,
                    b"endif" if depth == 0 => return self.directive_line(),
                    b"endif" => depth -= 1,
                    _ => {}
                }
                self.directive_line();
            } else {
                self.skip_line();
            }
        }
    }

    /// To the end of a preprocessor line, over its `\` continuations.
    fn directive_line(&mut self) {
        loop {
            self.skip_line();
            let line = &self.src[..self.at];
            let continued = line.ends_with(b"\\") || line.ends_with(b"\\\r");
            if !continued || self.at >= self.src.len() {
                return;
            }
            self.at += 1;
        }
    }

    fn block_comment(&mut self) {
        self.at += 2;
        let mut depth = 1;
        while self.at < self.src.len() {
            match (self.src[self.at], self.peek(1)) {
                (b'*', b'/') => {
                    self.at += 2;
                    depth -= 1;
                    if depth == 0 || !self.lexis.rust() {
                        return;
                    }
                }
                (b'/', b'*') if self.lexis.rust() => {
                    self.at += 2;
                    depth += 1;
                }
                _ => self.at += 1,
            }
        }
    }

    /// A string or character in `quote`s, with `\` escapes; it ends at a line's end
    /// unless `multiline` (a newline cannot be in one unescaped).
    fn quoted(&mut self, quote: u8, multiline: bool) {
        self.at += 1;
        while self.at < self.src.len() {
            match self.src[self.at] {
                b'\\' => self.at += 2,
                b'\n' if !multiline => return,
                b if b == quote => {
                    self.at += 1;
                    return;
                }
                _ => self.at += 1,
            }
        }
    }

    /// Up to and past `close`, from `skip` bytes on, with no escapes.
    fn delimited(&mut self, close: &[u8], skip: usize) {
        self.at += skip;
        while self.at < self.src.len() {
            if self.src[self.at..].starts_with(close) {
                self.at += close.len();
                return;
            }
            self.at += 1;
        }
    }

    /// `'`: a Rust character (`'a'`, `'\n'`, `'é'`) or a lifetime (`'a`).
    fn rust_quote(&mut self) {
        if self.peek(1) == b'\\' {
            self.quoted(b'\'', false);
            return;
        }
        let width = match self.peek(1) {
            b if b < 0x80 => 1,
            b if b >= 0xF0 => 4,
            b if b >= 0xE0 => 3,
            _ => 2,
        };
        if self.peek(1 + width) == b'\'' {
            self.at += 2 + width;
        } else {
            self.at += 1;
        }
        self.last = b'\'';
    }

    fn rust_raw_string(&mut self) -> Option<()> {
        let hashes = self.src[self.at..]
            .iter()
            .take_while(|&&b| b == b'#')
            .count();
        if self.peek(hashes) != b'"' {
            return Some(());
        }
        let mut close = vec![b'"'];
        close.extend(std::iter::repeat_n(b'#', hashes));
        self.delimited(&close, hashes + 1);
        self.last = b'"';
        Some(())
    }

    fn cpp_raw_string(&mut self) {
        let start = self.at + 1;
        let Some(paren) = self.src[start..].iter().take(17).position(|&b| b == b'(') else {
            self.quoted(b'"', false);
            return;
        };
        let mut close = vec![b')'];
        close.extend_from_slice(&self.src[start..start + paren]);
        close.push(b'"');
        self.delimited(&close, paren + 2);
        self.last = b'"';
    }

    /// The rest of a template literal, from inside it: to its closing backquote, or to a
    /// `${`, whose code is scanned as code until its `}`.
    fn template(&mut self) -> Option<()> {
        while self.at < self.src.len() {
            match self.src[self.at] {
                b'\\' => self.at += 2,
                b'`' => {
                    self.at += 1;
                    self.last = b'`';
                    return Some(());
                }
                b'$' if self.peek(1) == b'{' && self.templates.len() >= MAX_DEPTH => return None,
                b'$' if self.peek(1) == b'{' => {
                    self.at += 2;
                    self.templates.push(self.stack.len());
                    self.last = b'{';
                    return Some(());
                }
                _ => self.at += 1,
            }
        }
        Some(())
    }

    /// A regular expression literal, from its opening `/` to its closing one (a `/`
    /// inside a class `[…]` does not close it); it ends at a line's end at the latest.
    fn regex(&mut self) {
        self.at += 1;
        let mut class = false;
        while self.at < self.src.len() {
            match self.src[self.at] {
                b'\\' => self.at += 1,
                b'\n' => return,
                b'[' => class = true,
                b']' => class = false,
                b'/' if !class => break,
                _ => {}
            }
            self.at += 1;
        }
        // The flags are read as a word: harmless.
        self.at = self.at.min(self.src.len().saturating_sub(1));
    }
}

/// `comments` (sorted) outside `holes` (sorted), with their rows.
fn comment_rows(
    src: &[u8],
    comments: &[Range<usize>],
    holes: &[Range<usize>],
) -> Vec<CommentLines> {
    let mut hole = holes.iter().peekable();
    let outside: Vec<&Range<usize>> = comments
        .iter()
        .filter(|comment| {
            while hole.next_if(|h| h.end <= comment.start).is_some() {}
            hole.peek().is_none_or(|h| h.start > comment.start)
        })
        .collect();
    let rows = super::rows(src, outside.iter().copied());
    outside
        .into_iter()
        .zip(rows)
        .map(|(comment, (first_row, last_row))| CommentLines {
            bytes: comment.clone(),
            first_row,
            first_col: comment.start - super::line_start(src, comment.start),
            last_row,
        })
        .collect()
}

/// The directive's word of the preprocessor line `line` (which starts with `#`).
fn directive(line: &[u8]) -> &[u8] {
    let rest = &line[1..];
    let start = rest
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let len = rest[start..]
        .iter()
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    &rest[start..start + len]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holes(language: Language, src: &[u8]) -> Vec<Range<usize>> {
        scan(language, src).holes
    }

    fn insides(language: Language, src: &str) -> Vec<&str> {
        holes(language, src.as_bytes())
            .into_iter()
            .map(|hole| &src[hole])
            .collect()
    }

    const BODY: &str = "let a = 1; let b = 2; let c = a + b; c";

    /// Asserts that the one body passed over in `src` is [`BODY`].
    fn only_body(language: Language, src: &str) {
        assert_eq!(insides(language, src), [format!(" {BODY} ")], "{src}");
    }

    #[test]
    fn a_function_body_is_passed_over_and_a_type_is_not() {
        let src =
            format!("struct S {{ a: u32, b: u32, c: u32, d: u32, e: u32 }}\nfn f() {{ {BODY} }}\n");
        only_body(Language::Rust, &src);
    }

    #[test]
    fn a_body_that_holds_a_definition_is_parsed_and_its_own_bodies_are_not() {
        let src = format!("fn f() {{\n    fn g() {{ {BODY} }}\n    g()\n}}\n");
        only_body(Language::Rust, &src);
        let src = format!("fn f() {{\n    struct Local;\n    {BODY}\n}}\n");
        assert!(insides(Language::Rust, &src).is_empty());
    }

    #[test]
    fn braces_in_strings_comments_and_characters_do_not_count() {
        let src = format!(
            "fn f() {{ let s = \"}}\"; let r = r#\"}}\"#; let c = '}}'; /* }} /* }} */ */ // }}\n {BODY} }}\nfn g<'a>(x: &'a str) {{ {BODY} }}\n"
        );
        assert_eq!(insides(Language::Rust, &src).len(), 2);
        let src = format!(
            "#define OPEN {{\nint x = 1'000;\nconst char *s = R\"x()}}\")x\";\nvoid f(void) {{ char c = '}}'; {BODY} }}\n"
        );
        assert_eq!(insides(Language::C, &src).len(), 1);
        let src = format!(
            "function f(a) {{ const r = /}}[}}]/g; const t = `${{a}}}}`; {BODY} }}\nconst x = a / 2 / 3;\n"
        );
        assert_eq!(insides(Language::JavaScript, &src).len(), 1);
    }

    fn tree(language: Language, src: &str) -> Tree {
        let grammar = super::super::parse::grammar(language).unwrap();
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&grammar).unwrap();
        parser.parse(src, None).unwrap()
    }

    #[test]
    fn holes_are_trusted_only_when_their_braces_pair_in_the_tree() {
        let src = format!("fn f() {{ {BODY} }}\nfn g() {{ {BODY} }}\n");
        let found = holes(Language::Rust, src.as_bytes());
        assert_eq!(found.len(), 2);
        let parsed = tree(Language::Rust, &src);
        assert!(trusted(Language::Rust, &parsed, &found));
        // A hole one byte late has no `{` before it.
        let late: Vec<_> = found.iter().map(|h| h.start + 1..h.end).collect();
        assert!(!trusted(Language::Rust, &parsed, &late));
    }

    #[test]
    fn a_cpp_tree_with_an_error_is_not_trusted_and_a_c_tree_is() {
        let src = "int f(void) { int a = 1; int b = 2; int c = a + b; return c; }\n@@ ;\n";
        let found = holes(Language::C, src.as_bytes());
        assert_eq!(found.len(), 1);
        let c = tree(Language::C, src);
        let cpp = tree(Language::Cpp, src);
        assert!(c.root_node().has_error() && cpp.root_node().has_error());
        assert!(trusted(Language::C, &c, &found));
        assert!(!trusted(Language::Cpp, &cpp, &found));
    }

    #[test]
    fn only_the_first_branch_of_an_if_counts_its_brackets() {
        let src = format!(
            "void f(int a,\n#if X\n  int b)\n#elif Y\n#if Z\n  int c)\n#endif\n#else\n  long b)\n#endif\n{{ {BODY} }}\n"
        );
        only_body(Language::C, &src);
    }

    #[test]
    fn nesting_deeper_than_code_does_leaves_the_file_whole() {
        let deep = |n: usize| format!("fn f() {{ {}{BODY}{} }}", "(".repeat(n), ")".repeat(n));
        assert_eq!(insides(Language::Rust, &deep(MAX_DEPTH - 2)).len(), 1);
        assert!(insides(Language::Rust, &deep(MAX_DEPTH)).is_empty());
    }

    #[test]
    fn brackets_that_do_not_pair_leave_the_file_whole() {
        assert!(insides(Language::C, &format!("void f(void) {{ {BODY} {{ }}")).is_empty());
        assert!(insides(Language::Go, &format!("func f() {{ {BODY} )")).is_empty());
    }

    #[test]
    fn nested_functions_define_in_ecmascript_only_when_named_or_assigned() {
        let src = format!("function f() {{ items.forEach(function (x) {{ {BODY} }}); }}");
        assert_eq!(insides(Language::JavaScript, &src).len(), 1);
        assert!(insides(Language::JavaScript, &src)[0].starts_with(" items"));
        let src = format!("function f() {{ function g() {{ {BODY} }} }}");
        only_body(Language::JavaScript, &src);
        let src = format!("function f() {{ const g = x => x + 1; {BODY} }}");
        assert!(insides(Language::JavaScript, &src).is_empty());
    }

    #[test]
    fn ecmascript_statements_end_at_line_ends_without_semicolons() {
        let src = format!(
            "function f(a) {{\n  if (a)\n    a = 1\n  return g(a)\n  function g(b) {{ {BODY} }}\n}}\n"
        );
        only_body(Language::JavaScript, &src);
        // An object after an arrow function's line is no body.
        let src = format!("const f = (a) => a.b()\nconst o = {{\n  key: (x) => x,\n  {BODY}\n}}\n");
        assert!(insides(Language::JavaScript, &src).is_empty());
    }

    #[test]
    fn java_enum_constants_with_bodies_are_kept() {
        let src =
            format!("enum E {{ A() {{ void f() {{ {BODY} }} }}, B {{ }}; void g() {{ {BODY} }} }}");
        assert_eq!(
            insides(Language::Java, &src),
            [format!(" {BODY} "), format!(" {BODY} ")]
        );
    }

    #[test]
    fn java_anonymous_classes_are_kept() {
        let src = format!(
            "class A {{ void f() {{ Runnable r = new Runnable() {{ public void run() {{ {BODY} }} }}; }} }}"
        );
        only_body(Language::Java, &src);
    }

    #[test]
    fn a_rust_function_body_is_passed_over_whatever_its_return_type_holds() {
        only_body(
            Language::Rust,
            &format!("fn f() -> impl Iterator<Item = u8> {{ {BODY} }}\n"),
        );
        only_body(
            Language::Rust,
            &format!("pub(crate) const fn union(a: u8) -> u8 where u8: Into<u8> {{ {BODY} }}\n"),
        );
        // `impl` first opens items, however the head goes on.
        assert!(
            insides(
                Language::Rust,
                &format!("impl<T> Tr for fn(T) {{ {BODY} }}\n")
            )
            .is_empty()
        );
    }

    #[test]
    fn macro_invocations_that_are_no_wrappers_are_passed_over_once() {
        let src = "impl X {\n    fn a() {}\n    forward! {\n        bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char\n    }\n}\n\
                   macro_rules! m {\n    ($t:ty) => {\n        impl Y for $t {\n            inner! {\n                bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64\n            }\n        }\n    };\n}\n";
        let mut scanned = scan(Language::Rust, src.as_bytes());
        let (_, trees) = super::super::rust_macros::sorted(src.as_bytes(), &scanned.macro_blocks);
        scanned.pass_over(&trees);
        let open = src.find("forward! {").unwrap() + 9;
        let close = src.find("    }\n}\nmacro_rules").unwrap() + 4;
        assert!(
            scanned.holes.contains(&(open + 1..close)),
            "{:?}",
            scanned.holes
        );
        // The macro_rules! body was a hole already: what it holds is not added again.
        let rules = src.find("m {").unwrap() + 2;
        assert!(trees.iter().any(|tree| tree.start > rules));
        assert_eq!(scanned.holes.iter().filter(|h| h.start > rules).count(), 1);
        let left_out = scanned.left_out();
        assert!(
            left_out.windows(2).all(|w| w[0].end <= w[1].start),
            "{left_out:?}"
        );
    }

    #[test]
    fn rust_macro_blocks_are_noted_at_item_level_only() {
        let src = "a! {\n    mod m { b! { } }\n}\nfn f() { c! { } }\nstatic X: u8 = d! { };\n#[cfg(x)] e! { }\n";
        let found = scan(Language::Rust, src.as_bytes()).macro_blocks;
        let at = |s: &str| src.find(s).unwrap();
        assert_eq!(
            found,
            [
                MacroBlock {
                    open: at("a! {") + 3,
                    close: at("}\nfn"),
                    parent: None
                },
                MacroBlock {
                    open: at("b! {") + 3,
                    close: at("b! {") + 5,
                    parent: Some(0)
                },
                MacroBlock {
                    open: at("e! {") + 3,
                    close: at("e! {") + 5,
                    parent: None
                },
            ]
        );
    }

    #[test]
    fn rust_comment_lines_outside_bodies_are_noted_with_their_rows() {
        let src = format!(
            "//! Crate.\n\n/// One.\n  // Two.\nfn f() {{\n    // inside\n    {BODY}\n}}\nlet s = \"\n// in a string\";\nx(); // after code\n"
        );
        let found = scan(Language::Rust, src.as_bytes()).comments;
        let rows: Vec<_> = found
            .iter()
            .map(|c| (&src[c.bytes.clone()], c.first_row, c.first_col, c.last_row))
            .collect();
        assert_eq!(
            rows,
            [("//! Crate.", 0, 0, 0), ("/// One.\n  // Two.", 2, 0, 3)]
        );
    }

    #[test]
    fn a_macro_rules_body_is_passed_over_whatever_it_holds_and_defines_around_it() {
        let src = format!(
            "macro_rules! m {{\n    ($t:ty) => {{ impl X for $t {{ fn f() {{ {BODY} }} }} }};\n}}\nfn g() {{ macro_rules! n {{ () => {{ {BODY} }} }} }}\n"
        );
        let found = insides(Language::Rust, &src);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].starts_with("\n    ($t:ty)") && found[1].starts_with(" () => "),
            "{found:?}"
        );
    }
}
