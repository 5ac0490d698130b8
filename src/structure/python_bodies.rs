//! Python's function bodies found before parsing, by indentation: the counterpart of
//! `bodies` for a language without braces. A `def`'s body that holds no `def` or
//! `class` is passed over after its first logical line: the parser reads
//! `def f():\n    first_statement\n` and nothing of the rest, which halves the time
//! of a module's parse. The tree then ends the function on that first line, so the
//! walk moves the end of a definition that stops right before a passed-over tail to
//! the tail's last line ([`Tail`]). Outside functions, the insides of brackets that
//! span lines are passed over too (no definition stands in brackets); they move no end.
//!
//! The scan reads logical lines as Python's tokenizer does: strings (with their
//! prefixes, triple quotes and escapes), comments, brackets that join lines, and `\`
//! continuations. Blank and comment lines count for no block.

use std::ops::Range;

/// A passed-over tail of a body, as rows, for the walk: a definition whose lines end on
/// the row before `first_row` ends on `last_row`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tail {
    pub first_row: usize,
    pub last_row: usize,
}

/// Nesting deeper than this leaves the file whole (the scan's memory stays small).
const MAX_DEPTH: usize = 1024;

/// One logical line: its indentation, its end (the offset of the line end that ends it,
/// or the file's length), what it is.
struct Logical {
    indent: usize,
    end: usize,
    /// It starts with `def`, `async def` or `class`.
    defines: bool,
    /// It starts with `def` or `async def`.
    function: bool,
    /// Its last token (comments aside) is `:`: it opens a block.
    opens: bool,
    /// The insides of its outermost brackets that span lines (no definition can stand
    /// in brackets).
    bracketed: Vec<Range<usize>>,
}

/// A block open at one indentation.
struct Block {
    indent: usize,
    function: bool,
    /// It holds a definition (nested at any depth).
    defines: bool,
    /// The end of its first logical line, once seen.
    first_end: Option<usize>,
    /// Its first logical line opens a block (which cannot be left empty).
    first_opens: bool,
}

/// The tails of the function bodies of `src` to pass over, sorted and apart, with
/// their rows; nothing when a line cannot be read (an unclosed string or bracket).
pub(super) fn tails(src: &[u8]) -> Option<(Vec<Range<usize>>, Vec<Tail>)> {
    let mut holes = Vec::new();
    // The insides of brackets over lines in statements outside any function (a module
    // that is one literal, such as pydoc's `topics.py`, or a table of constants): left
    // out as the tails are, but no definition's end moves to theirs.
    let mut literals: Vec<Range<usize>> = Vec::new();
    let mut stack: Vec<Block> = Vec::new();
    // The end of the last logical line read.
    let mut last_end = 0;
    let mut at = 0;
    while at < src.len() {
        let Some(line) = logical(src, at)? else {
            // A blank or comment line.
            at = next_line(src, at);
            continue;
        };
        at = next_line(src, line.end);
        while stack.last().is_some_and(|b| line.indent <= b.indent) {
            close(stack.pop()?, last_end, &mut stack, &mut holes);
        }
        if !line.defines && stack.iter().all(|b| !b.function) {
            literals.extend(line.bracketed.iter().cloned());
        }
        if let Some(block) = stack.last_mut() {
            if block.first_end.is_none() {
                block.first_end = Some(line.end);
                block.first_opens = line.opens;
            }
            block.defines |= line.defines;
        }
        if line.opens {
            if stack.len() >= MAX_DEPTH {
                return None;
            }
            stack.push(Block {
                indent: line.indent,
                function: line.function,
                defines: false,
                first_end: None,
                first_opens: false,
            });
        }
        last_end = line.end;
    }
    while let Some(block) = stack.pop() {
        close(block, last_end, &mut stack, &mut holes);
    }
    holes.sort_unstable_by_key(|h: &Range<usize>| h.start);
    let rows = rows(src, &holes);
    holes.extend(literals);
    holes.sort_unstable_by_key(|h: &Range<usize>| h.start);
    Some((holes, rows))
}

/// What a Python line that holds no code but a comment or a string is, for
/// [`quiet_lines`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Quiet {
    /// Lines of `#` comments, consecutive ones as one.
    Comment,
    /// A statement that is a string alone: a docstring (of the module, a class or a
    /// function) or an attribute's.
    Docstring,
}

/// The comment lines (consecutive ones as one range, from the first `#` to the last
/// line's end) and the string statements of `src`, in order; None when a line cannot
/// be read (an unclosed string or bracket).
pub(super) fn quiet_lines(src: &[u8]) -> Option<Vec<(Range<usize>, Quiet)>> {
    let mut out: Vec<(Range<usize>, Quiet)> = Vec::new();
    let mut at = 0;
    while at < src.len() {
        let text = at
            + src[at..]
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'\x0c'))
                .count();
        let Some(line) = logical(src, at)? else {
            let end = super::line_end(src, at);
            if src.get(text) == Some(&b'#') {
                let end = if src[..end].ends_with(b"\r") {
                    end - 1
                } else {
                    end
                };
                match out.last_mut() {
                    Some((last, Quiet::Comment))
                        if memchr::memchr_iter(b'\n', &src[last.end..text]).count() == 1
                            && src[last.end..text].iter().all(u8::is_ascii_whitespace) =>
                    {
                        last.end = end;
                    }
                    _ => out.push((text..end, Quiet::Comment)),
                }
            }
            at = next_line(src, at);
            continue;
        };
        // A string alone: an optional prefix (`r`, `b`, `u`, `f` and pairs), its quotes,
        // then nothing but space or a comment.
        let prefix = src[text..]
            .iter()
            .take(3)
            .take_while(|b| b"rRbBuUfF".contains(b))
            .count();
        if prefix < 3 && matches!(src.get(text + prefix), Some(b'"' | b'\'')) {
            let end = string_end(src, text + prefix)?;
            let rest = &src[end.min(line.end)..line.end];
            let rest = rest
                .iter()
                .position(|&b| b == b'#')
                .map_or(rest, |hash| &rest[..hash]);
            if end <= line.end && rest.iter().all(u8::is_ascii_whitespace) {
                out.push((text..end, Quiet::Docstring));
            }
        }
        at = next_line(src, line.end);
    }
    Some(out)
}

/// A block ends, its last logical line ending at `last_end`: a function's body that
/// holds no definition leaves its lines after the first to pass over.
fn close(block: Block, last_end: usize, stack: &mut [Block], holes: &mut Vec<Range<usize>>) {
    if let Some(around) = stack.last_mut() {
        around.defines |= block.defines;
    }
    if !block.function || block.defines || block.first_opens {
        return;
    }
    // From the line after the first logical line to the end of the last.
    match block.first_end {
        Some(first_end) if last_end > first_end => holes.push(first_end + 1..last_end),
        _ => {}
    }
}

/// The start of the line after the one that holds `at`.
fn next_line(src: &[u8], at: usize) -> usize {
    memchr::memchr(b'\n', &src[at..]).map_or(src.len(), |n| at + n + 1)
}

/// The logical line that starts on the line at `start`; `Some(None)` for a blank or
/// comment line; None when a string or bracket is still open at the file's end.
fn logical(src: &[u8], start: usize) -> Option<Option<Logical>> {
    let mut at = start;
    let mut indent = 0;
    while let Some(&b) = src.get(at) {
        match b {
            b' ' => indent += 1,
            b'\t' => indent = (indent / 8 + 1) * 8,
            b'\x0c' => indent = 0,
            _ => break,
        }
        at += 1;
    }
    match src.get(at) {
        None | Some(b'\n' | b'#') => return Some(None),
        Some(b'\r') if src.get(at + 1) == Some(&b'\n') => return Some(None),
        _ => {}
    }
    let word = |from: usize| {
        let len = src[from..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        &src[from..from + len]
    };
    let first = word(at);
    let function = first == b"def"
        || (first == b"async" && {
            let after = at + 5;
            let gap = src[after..]
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
            gap > 0 && word(after + gap) == b"def"
        });
    let defines = function || first == b"class";
    let mut depth = 0usize;
    let mut last = 0u8;
    let mut bracketed = Vec::new();
    // Where the outermost bracket open opened, and whether a line ended inside it.
    let mut opened = 0;
    let mut spans = false;
    loop {
        let Some(&b) = src.get(at) else {
            return (depth == 0).then_some(Some(Logical {
                indent,
                end: src.len(),
                defines,
                function,
                opens: last == b':',
                bracketed,
            }));
        };
        match b {
            b'\n' if depth == 0 => {
                return Some(Some(Logical {
                    indent,
                    end: at,
                    defines,
                    function,
                    opens: last == b':',
                    bracketed,
                }));
            }
            b'\n' => {
                spans = true;
                at += 1;
                continue;
            }
            b'#' => {
                at = memchr::memchr(b'\n', &src[at..]).map_or(src.len(), |n| at + n);
                continue;
            }
            b'\\' => {
                // A continuation joins the next line; elsewhere a stray backslash.
                at += 2;
                continue;
            }
            b'(' | b'[' | b'{' => {
                if depth == 0 {
                    opened = at + 1;
                    spans = false;
                }
                depth += 1;
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 && spans {
                    bracketed.push(opened..at);
                }
            }
            b'"' | b'\'' => {
                at = string_end(src, at)?;
                last = b'"';
                continue;
            }
            b if b.is_ascii_whitespace() => {
                at += 1;
                continue;
            }
            _ => {}
        }
        last = b;
        at += 1;
    }
}

/// Past the string whose opening quote is at `at` (its prefix, if any, was read as a
/// word before it: `r`, `b`, `f` …); None when it never closes.
fn string_end(src: &[u8], at: usize) -> Option<usize> {
    let quote = src[at];
    let triple = src.get(at..at + 3) == Some(&[quote; 3][..]);
    let mut i = at + if triple { 3 } else { 1 };
    // Most of a module of strings is their insides: jumped over to the next byte that
    // matters.
    loop {
        i += match triple {
            true => memchr::memchr2(quote, b'\\', src.get(i..)?)?,
            false => memchr::memchr3(quote, b'\\', b'\n', src.get(i..)?)?,
        };
        match src[i] {
            b'\\' => i += 2,
            b'\n' => return Some(i),
            _ if !triple => return Some(i + 1),
            _ if src.get(i..i + 3) == Some(&[quote; 3][..]) => return Some(i + 3),
            _ => i += 1,
        }
    }
}

/// The rows of `holes` (sorted): for each, the row after its first logical line's and
/// the row of its last line.
fn rows(src: &[u8], holes: &[Range<usize>]) -> Vec<Tail> {
    super::rows(src, holes)
        .into_iter()
        .map(|(first_row, last_row)| Tail {
            first_row,
            last_row,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn left_out(src: &str) -> Vec<&str> {
        tails(src.as_bytes())
            .unwrap()
            .0
            .into_iter()
            .map(|h| &src[h])
            .collect()
    }

    #[test]
    fn a_function_body_is_passed_over_after_its_first_logical_line() {
        let src = "def f(a):\n    \"\"\"Doc,\n    two lines.\"\"\"\n    x = (1,\n  2)\n    # c\n    return x\n\nclass C:\n    def m(self): pass\n";
        assert_eq!(left_out(src), ["    x = (1,\n  2)\n    # c\n    return x"]);
        let (_, rows) = tails(src.as_bytes()).unwrap();
        assert_eq!(
            rows,
            [Tail {
                first_row: 3,
                last_row: 6
            }]
        );
    }

    #[test]
    fn a_body_that_holds_a_definition_is_parsed_and_its_own_bodies_are_not() {
        let src = "def f():\n    if x:\n        def g():\n            a = 1\n            b = 2\n    return g\n";
        assert_eq!(left_out(src), ["            b = 2"]);
        let src = "async def f():\n    a = 1\n    class C: pass\n";
        assert!(left_out(src).is_empty());
    }

    #[test]
    fn strings_and_comments_hold_no_lines_or_definitions() {
        let src =
            "def f():\n    s = '''\ndef g():\n'''\n    t = \"# not\" # def h():\n    return s\n";
        assert_eq!(
            left_out(src),
            ["    t = \"# not\" # def h():\n    return s"]
        );
    }

    #[test]
    fn brackets_over_lines_outside_functions_are_passed_over() {
        let src = "topics = {'a': 'x'\n          'y',\n 'b': ['z',\n  'w']}\n@deco(\n  1)\nclass C(\n    Base):\n    T = (1,\n         2)\n    def m(self):\n        u = [1,\n             2]\n        return u\n";
        assert_eq!(
            left_out(src),
            [
                "'a': 'x'\n          'y',\n 'b': ['z',\n  'w']",
                "\n  1",
                "1,\n         2",
                "        return u"
            ]
        );
        // No definition's end moves to a literal's: only the tails have rows.
        let (_, rows) = tails(src.as_bytes()).unwrap();
        assert_eq!(
            rows,
            [Tail {
                first_row: 13,
                last_row: 13
            }]
        );
    }

    #[test]
    fn an_unclosed_string_or_bracket_gives_nothing() {
        assert!(tails(b"def f():\n    s = '''\n    x = 1\n").is_none());
        assert!(tails(b"def f():\n    s = (\n    x = 1\n").is_none());
    }
}
