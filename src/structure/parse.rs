//! Running a tree-sitter grammar over parts of a file within a time budget.

use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicBool, Ordering};

use tree_sitter::{ParseOptions, Point, Tree};

use super::deadline::{Deadline, thread_cpu_time};
use super::language::Language;
use super::memory;
use super::symbol::OutlineError;

/// The tree-sitter grammar of a language; `None` for Markdown, which is read by
/// pulldown-cmark instead.
pub(super) fn grammar(language: Language) -> Option<tree_sitter::Language> {
    Some(match language {
        Language::Rust => tree_sitter_rust::LANGUAGE.into(),
        Language::Python => tree_sitter_python::LANGUAGE.into(),
        Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        Language::Go => tree_sitter_go::LANGUAGE.into(),
        Language::Java => tree_sitter_java::LANGUAGE.into(),
        Language::C => tree_sitter_c::LANGUAGE.into(),
        Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
        Language::Markdown => return None,
    })
}

/// A tree-sitter parser, and the language it reads.
pub(super) struct Parser {
    parser: tree_sitter::Parser,
    language: Language,
}

/// A parser for `language` (its `grammar`), made once for all the pieces of a file.
pub(super) fn parser(
    language: Language,
    grammar: &tree_sitter::Language,
) -> Result<Parser, OutlineError> {
    memory::install();
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(grammar)
        .map_err(|_| OutlineError::Unparsable)?;
    Ok(Parser { parser, language })
}

#[cfg(test)]
thread_local! {
    /// How many parses this thread has run, for the tests that count them.
    pub(super) static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Parses the bytes of `source` that `ranges` hold (sorted, apart; offsets and lines stay
/// the file's), then `closers` as if they followed the file's end, giving up at
/// `deadline`.
pub(super) fn parse(
    parser: &mut Parser,
    source: &[u8],
    ranges: &[Range<usize>],
    closers: &[u8],
    deadline: Deadline,
) -> Result<Tree, OutlineError> {
    parse_until(parser, source, ranges, closers, deadline, Until::End)?
        .ok_or(OutlineError::Unparsable)
}

/// [`parse`], given up (None) as soon as the parser meets a syntax error: for a tree that
/// would be thrown away if it held one, so that error recovery is not paid for.
pub(super) fn parse_clean(
    parser: &mut Parser,
    source: &[u8],
    ranges: &[Range<usize>],
    closers: &[u8],
    deadline: Deadline,
) -> Result<Option<Tree>, OutlineError> {
    parse_until(parser, source, ranges, closers, deadline, Until::Error)
}

/// The tree of `source` without what `without` leaves out when `keep` takes it (true),
/// else its whole tree (`whole`'s ranges; false), parsed in turn: the whole only when
/// the other is not kept. With `clean`, the tree without is given up at its first syntax
/// error (for a language whose trees an error makes untrusted).
pub(super) fn in_turn(
    parser: &mut Parser,
    source: &[u8],
    (without, whole): (&[Range<usize>], &[Range<usize>]),
    closers: &[u8],
    deadline: Deadline,
    (clean, keep): (bool, impl Fn(&Tree) -> bool),
) -> Result<(Tree, bool), OutlineError> {
    match trial(parser, source, without, closers, deadline, (clean, keep))? {
        Some(tree) => Ok((tree, true)),
        None => Ok((parse(parser, source, whole, closers, deadline)?, false)),
    }
}

/// The tree without what `without` leaves out, if `keep` takes it (see [`in_turn`]).
pub(super) fn trial(
    parser: &mut Parser,
    source: &[u8],
    without: &[Range<usize>],
    closers: &[u8],
    deadline: Deadline,
    (clean, keep): (bool, impl Fn(&Tree) -> bool),
) -> Result<Option<Tree>, OutlineError> {
    let tree = match clean {
        true => parse_clean(parser, source, without, closers, deadline)?,
        false => Some(parse(parser, source, without, closers, deadline)?),
    };
    Ok(tree.filter(keep))
}

/// [`in_turn`]'s answer with both parses at once: the whole on a thread of its own,
/// given up as soon as the other is kept. For a file whose tree without its bodies is
/// often not kept, read while a core is spare: the answer takes the shorter of the two
/// parses instead of their sum.
///
/// The answer is the one the two parses give in turn: the whole tree's CPU time is
/// charged to `deadline`, and the budget is passed if both parses together passed it.
pub(super) fn either(
    parser: &mut Parser,
    source: &[u8],
    (without, whole): (&[Range<usize>], &[Range<usize>]),
    closers: &[u8],
    deadline: &mut Deadline,
    kept_if: (bool, impl Fn(&Tree) -> bool),
) -> Result<(Tree, bool), OutlineError> {
    let Some(grammar) = parser.parser.language().map(|language| language.to_owned()) else {
        return Err(OutlineError::Unparsable);
    };
    let language = parser.language;
    let given_up = AtomicBool::new(false);
    // The other thread may take what is left of this one's budget; what it took is
    // charged to this one's after.
    let left = deadline.left();
    let at = *deadline;
    std::thread::scope(|scope| {
        let other = std::thread::Builder::new()
            .name("parse".into())
            .spawn_scoped(scope, || {
                let started = thread_cpu_time();
                let mut parser = self::parser(language, &grammar)?;
                let tree = parse_until(
                    &mut parser,
                    source,
                    whole,
                    closers,
                    Deadline::after(left),
                    Until::Told(&given_up),
                );
                Ok::<_, OutlineError>((tree?, thread_cpu_time().saturating_sub(started)))
            });
        // Told to stop however this thread leaves, a panic too, unless its tree is
        // waited for below.
        let tell = Tell(&given_up);
        let kept = trial(parser, source, without, closers, at, kept_if);
        match (kept, other) {
            (Ok(Some(tree)), other) => {
                drop(tell);
                // Whatever came of it, the other thread's work is not needed.
                if let Ok(other) = other {
                    let _ = other.join();
                }
                Ok((tree, true))
            }
            (Ok(None), Ok(other)) => {
                let joined = other.join();
                drop(tell);
                let (whole, spent) = match joined {
                    Ok(whole) => whole?,
                    Err(panic) => std::panic::resume_unwind(panic),
                };
                *deadline = deadline.charged(spent);
                if deadline.passed() {
                    return Err(OutlineError::Timeout);
                }
                Ok((whole.ok_or(OutlineError::Unparsable)?, false))
            }
            // No thread to be had: the whole parse here.
            (Ok(None), Err(_)) => Ok((parse(parser, source, whole, closers, at)?, false)),
            (Err(gave_up), _) => Err(gave_up),
        }
    })
}

/// Raises its flag when dropped.
struct Tell<'a>(&'a AtomicBool);

impl Drop for Tell<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Where a parse may stop before the end of its input.
#[derive(Clone, Copy)]
enum Until<'a> {
    /// Only at the end (or at the deadline).
    End,
    /// At the first syntax error.
    Error,
    /// When the flag is raised.
    Told(&'a AtomicBool),
}

fn parse_until(
    parser: &mut Parser,
    source: &[u8],
    ranges: &[Range<usize>],
    closers: &[u8],
    deadline: Deadline,
    until: Until,
) -> Result<Option<Tree>, OutlineError> {
    let stop_at_error = matches!(until, Until::Error);
    #[cfg(test)]
    PARSES.set(PARSES.get() + 1);
    // Python's holes are whole lines of a body, whose indentation its scanner reads:
    // they stay out of the included ranges.
    let (text, ranges) = match parser.language {
        Language::Python => (Text::whole(source), ranges.to_vec()),
        _ => blanked(source, ranges),
    };
    let mut included = included(source, &ranges);
    if !closers.is_empty() {
        let after = included.last().map_or(Point::new(0, 0), |r| r.end_point);
        let rows = memchr::memchr_iter(b'\n', closers).count();
        included.push(tree_sitter::Range {
            start_byte: source.len(),
            start_point: after,
            end_byte: source.len() + closers.len(),
            end_point: Point::new(after.row + rows, 0),
        });
    }
    let parser = &mut parser.parser;
    parser
        .set_included_ranges(&included)
        .map_err(|_| OutlineError::Unparsable)?;
    let mut timed_out = false;
    let mut too_big = false;
    let held = memory::held();
    let mut erred = false;
    let mut told = false;
    let mut calls = 0u32;
    // tree-sitter calls this every hundred steps; breaking makes it return None. The
    // clock is a system call, so it is read at every 16th call only. Where an error is
    // met is the input's alone, so giving up there answers the same on every run.
    let mut check = |state: &tree_sitter::ParseState| {
        calls = calls.wrapping_add(1);
        if stop_at_error && state.has_error() {
            erred = true;
            ControlFlow::Break(())
        } else if let Until::Told(flag) = until
            && flag.load(Ordering::Relaxed)
        {
            told = true;
            ControlFlow::Break(())
        } else if calls.is_multiple_of(16) && deadline.passed() {
            timed_out = true;
            ControlFlow::Break(())
        } else if memory::held() - held > memory::MOST {
            too_big = true;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = ParseOptions::new().progress_callback(&mut check);
    let len = source.len();
    // The callback form hands tree-sitter the whole rest of the file at each offset,
    // as `Parser::parse` does for a slice.
    let tree = parser.parse_with_options(
        &mut |offset, _| match offset < len {
            true => text.from(offset),
            false => &closers[(offset - len).min(closers.len())..],
        },
        None,
        Some(options),
    );
    // A parse stopped early would be resumed by the parser's next one, whatever its
    // input or ranges: it starts afresh instead.
    if tree.is_none() {
        parser.reset();
    }
    match tree {
        // An error met in the last hundred steps has not called back yet.
        Some(tree) if stop_at_error && tree.root_node().has_error() => Ok(None),
        Some(tree) => Ok(Some(tree)),
        None if timed_out => Err(OutlineError::Timeout),
        None if too_big => Err(OutlineError::Memory),
        None if erred || told => Ok(None),
        None => Err(OutlineError::Unparsable),
    }
}

/// A gap between included ranges is read as blanks when it is at most this many times
/// shorter than what is parsed after it (see [`blanked`]).
const BLANK_RATIO: usize = 200;

/// `source` as the parser reads it: its bytes, but in the spans whose gaps are blanked,
/// where a copy is read.
struct Text<'a> {
    source: &'a [u8],
    /// The spans of the file read from `copy`, sorted, with where each starts in it.
    spans: Vec<(Range<usize>, usize)>,
    copy: Vec<u8>,
}

impl<'a> Text<'a> {
    fn whole(source: &'a [u8]) -> Self {
        Text {
            source,
            spans: Vec::new(),
            copy: Vec::new(),
        }
    }

    /// What follows `offset`, up to the end of the span it lies in (or the next span).
    fn from(&self, offset: usize) -> &[u8] {
        let next = self.spans.partition_point(|(span, _)| span.end <= offset);
        match self.spans.get(next) {
            Some((span, at)) if span.start <= offset => {
                &self.copy[at + offset - span.start..at + span.len()]
            }
            Some((span, _)) => &self.source[offset..span.start],
            None => &self.source[offset.min(self.source.len())..],
        }
    }
}

/// `ranges` with their short gaps closed, and the text that reads those gaps as blanks:
/// each byte a space but line ends, so that rows and offsets stay the file's.
///
/// tree-sitter looks for the included range that holds a position from the first range
/// on, at every token, so each range costs every token after it a step (a file's
/// hundreds of passed-over bodies made that search 8 % of serde's map); a blank costs
/// the lexer a few steps of its own. A gap is closed when it is short against what is
/// parsed after it ([`BLANK_RATIO`]): the gaps early in a big file, not a long doc
/// comment near its end.
fn blanked<'a>(source: &'a [u8], ranges: &[Range<usize>]) -> (Text<'a>, Vec<Range<usize>>) {
    let mut text = Text::whole(source);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    let kept = ranges.iter().filter(|range| range.start < range.end);
    // What is parsed from each range on.
    let mut after: usize = kept.clone().map(ExactSizeIterator::len).sum();
    // Whether the last of `merged` closed a gap, and so is read from the copy.
    let mut copied = false;
    for range in kept {
        let here = after;
        after -= range.len();
        match merged.last_mut() {
            Some(last) if (range.start - last.end) * BLANK_RATIO <= here => {
                if !copied {
                    text.spans.push((last.clone(), text.copy.len()));
                    text.copy.extend_from_slice(&source[last.clone()]);
                    copied = true;
                }
                let gap = source[last.end..range.start].iter();
                text.copy
                    .extend(gap.map(|&b| if b == b'\n' { b'\n' } else { b' ' }));
                text.copy.extend_from_slice(&source[range.clone()]);
                last.end = range.end;
                if let Some((span, _)) = text.spans.last_mut() {
                    span.end = range.end;
                }
            }
            _ => {
                merged.push(range.clone());
                copied = false;
            }
        }
    }
    (text, merged)
}

/// tree-sitter's ranges for byte ranges of `source`, with their points: rows counted in
/// one pass over the file up to the last range.
fn included(source: &[u8], ranges: &[Range<usize>]) -> Vec<tree_sitter::Range> {
    let mut row = 0;
    let mut line_start = 0;
    let mut counted = 0;
    let mut point = |at: usize| {
        for newline in memchr::memchr_iter(b'\n', &source[counted..at]) {
            row += 1;
            line_start = counted + newline + 1;
        }
        counted = at;
        Point::new(row, at - line_start)
    };
    ranges
        .iter()
        .filter(|range| range.start < range.end)
        .map(|range| tree_sitter::Range {
            start_byte: range.start,
            start_point: point(range.start),
            end_byte: range.end,
            end_point: point(range.end),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parser for `language`, and a budget no test runs out of.
    fn set_up(language: Language) -> (tree_sitter::Language, Parser, Deadline) {
        let grammar = grammar(language).unwrap();
        let parser = parser(language, &grammar).unwrap();
        (
            grammar,
            parser,
            Deadline::after(std::time::Duration::from_secs(10)),
        )
    }

    /// All of `text`, as ranges.
    fn all(text: &str) -> Vec<Range<usize>> {
        std::slice::from_ref(&(0..text.len())).to_vec()
    }

    #[test]
    fn a_clean_parse_gives_up_at_an_error_and_answers_the_same_every_time() {
        let (_, mut parser, deadline) = set_up(Language::Cpp);
        let clean = "int f() { return 1; }\n".repeat(200);
        let broken = format!("{clean}int g( {{ @@ }}\n{clean}");
        for _ in 0..3 {
            let ok = parse_clean(&mut parser, clean.as_bytes(), &all(&clean), &[], deadline);
            assert!(ok.unwrap().is_some_and(|t| !t.root_node().has_error()));
            let erred = parse_clean(&mut parser, broken.as_bytes(), &all(&broken), &[], deadline);
            assert!(erred.unwrap().is_none());
        }
        assert!(
            parse(&mut parser, broken.as_bytes(), &all(&broken), &[], deadline)
                .is_ok_and(|t| t.root_node().has_error())
        );
    }

    #[test]
    fn a_parse_after_one_given_up_starts_afresh() {
        for language in [Language::Cpp, Language::Python] {
            let (grammar, mut reused, deadline) = set_up(language);
            let (first, second) = match language {
                Language::Python => ("def f():\n    return 1\n", "x = [1, 2]\n"),
                _ => ("int f() { return 1; }\n", "int x[] = {1, 2};\n"),
            };
            let (first, second) = (first.repeat(500), second.repeat(500));
            // Told to stop before it starts: it stops at its first call back.
            let told = AtomicBool::new(true);
            let until = Until::Told(&told);
            let stopped = parse_until(
                &mut reused,
                first.as_bytes(),
                &all(&first),
                &[],
                deadline,
                until,
            );
            assert!(stopped.unwrap().is_none(), "{language:?}");
            let after = parse(&mut reused, second.as_bytes(), &all(&second), &[], deadline);
            let mut fresh = parser(language, &grammar).unwrap();
            let expected = parse(&mut fresh, second.as_bytes(), &all(&second), &[], deadline);
            assert_eq!(
                after.unwrap().root_node().to_sexp(),
                expected.unwrap().root_node().to_sexp(),
                "{language:?}"
            );
        }
    }

    #[test]
    fn the_tree_without_is_kept_or_else_the_whole_one_in_turn_or_at_once() {
        let (_, mut parser, deadline) = set_up(Language::Cpp);
        let source = "int f() { return 1; }\nint g() { return 2; }\n".repeat(100);
        let body = source.find("return 1").unwrap();
        let without = [0..body, body + 8..source.len()];
        let whole = all(&source);
        let ranges = (&without[..], whole.as_slice());
        let expected = parse(&mut parser, source.as_bytes(), &whole, &[], deadline).unwrap();
        let blanked = source.replacen("return 1", "        ", 1);
        let blank = parse(&mut parser, blanked.as_bytes(), &whole, &[], deadline).unwrap();
        let src = source.as_bytes();
        let mut budget = deadline;
        for clean in [true, false] {
            let in_turn = |parser: &mut Parser, keep: bool| {
                in_turn(parser, src, ranges, &[], deadline, (clean, |_: &Tree| keep)).unwrap()
            };
            let mut at_once = |parser: &mut Parser, keep: bool| {
                either(
                    parser,
                    src,
                    ranges,
                    &[],
                    &mut budget,
                    (clean, |_: &Tree| keep),
                )
                .unwrap()
            };
            // The 8 bytes passed over are read as blanks, in one range.
            for (tree, kept) in [in_turn(&mut parser, true), at_once(&mut parser, true)] {
                assert!(kept);
                assert_eq!(tree.included_ranges().len(), 1);
                assert_eq!(tree.root_node().to_sexp(), blank.root_node().to_sexp());
            }
            for (tree, kept) in [in_turn(&mut parser, false), at_once(&mut parser, false)] {
                assert!(!kept);
                assert_eq!(tree.root_node().to_sexp(), expected.root_node().to_sexp());
                assert_eq!(tree.included_ranges().len(), 1);
            }
        }
        // The whole parse's time on the other thread is charged to the caller's budget.
        assert!(budget.left() < deadline.left());
        // A budget used up gives up both parses.
        let mut spent = Deadline::after(std::time::Duration::ZERO);
        let gave_up = either(
            &mut parser,
            src,
            ranges,
            &[],
            &mut spent,
            (true, |_: &Tree| false),
        );
        assert!(matches!(gave_up, Err(OutlineError::Timeout)));
    }

    #[test]
    fn short_gaps_are_read_as_blanks_and_long_ones_left_out() {
        let source = format!("ab\ncd{}fghij", "e".repeat(1000));
        // "b\nc" is closed: 3 bytes against the 1,004 parsed after it. "fg" is not:
        // 2 bytes against 3.
        let ranges = [0..1, 4..1005, 1007..1010];
        let (text, merged) = blanked(source.as_bytes(), &ranges);
        assert_eq!(merged, [0..1005, 1007..1010]);
        assert_eq!(
            text.from(0),
            format!("a \n d{}", "e".repeat(1000)).as_bytes()
        );
        assert_eq!(text.from(2)[..3], *b"\n d");
        // Past the copy, the file itself.
        assert_eq!(text.from(1005), b"fghij");
        assert_eq!(text.from(source.len()), b"");
        // Nothing to close: no copy.
        let (text, merged) = blanked(source.as_bytes(), &[0..1, 1007..1010]);
        assert!(text.copy.is_empty());
        assert_eq!(text.from(3), &source.as_bytes()[3..]);
        assert_eq!(merged, [0..1, 1007..1010]);
    }

    #[test]
    fn python_holes_stay_out_of_the_ranges() {
        let (_, mut parser, deadline) = set_up(Language::Python);
        let source = "def f():\n    x = 1\n    return x\n\ndef g():\n    pass\n";
        let hole = source.find("    return").unwrap()..source.find("\ndef g").unwrap();
        let ranges = [0..hole.start, hole.end..source.len()];
        let tree = parse(&mut parser, source.as_bytes(), &ranges, &[], deadline).unwrap();
        assert_eq!(tree.included_ranges().len(), 2);
        let (_, mut rust, _) = set_up(Language::Rust);
        let source = format!("fn f() {{ let x = 1; x }}\n{}", "fn g() {}\n".repeat(300));
        let ranges = [0..9, source.find(" }").unwrap()..source.len()];
        let tree = parse(&mut rust, source.as_bytes(), &ranges, &[], deadline).unwrap();
        assert_eq!(tree.included_ranges().len(), 1);
        assert!(!tree.root_node().has_error());
    }
}
