//! Running a tree-sitter grammar over parts of a file within a time budget.

use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicBool, Ordering};

use tree_sitter::{ParseOptions, Parser, Point, Tree};

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

/// A parser for `grammar`, made once for all the pieces of a file.
pub(super) fn parser(grammar: &tree_sitter::Language) -> Result<Parser, OutlineError> {
    memory::install();
    let mut parser = Parser::new();
    parser
        .set_language(grammar)
        .map_err(|_| OutlineError::Unparsable)?;
    Ok(parser)
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
    let Some(grammar) = parser.language().map(|language| language.to_owned()) else {
        return Err(OutlineError::Unparsable);
    };
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
                let mut parser = self::parser(&grammar)?;
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
    let mut included = included(source, ranges);
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
            true => &source[offset..],
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
        let parser = parser(&grammar).unwrap();
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
            let mut fresh = parser(&grammar).unwrap();
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
            for (tree, kept) in [in_turn(&mut parser, true), at_once(&mut parser, true)] {
                assert!(kept);
                assert_eq!(tree.included_ranges().len(), 2);
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
}
