//! Python nested past what tree-sitter's Python scanner can keep. The scanner saves its
//! stack of indentation widths in tree-sitter's 1 KiB of state (two bytes a level), so
//! past about 510 levels the innermost ones are lost whenever the parser restores it,
//! and error recovery then breaks up the definitions around them: the outline lost its
//! outer `def` and `class`.
//!
//! Before parsing, a line nested deeper than [`MAX_LEVELS`] levels (by the indentation
//! of the lines that are not blank, not comments, and not inside brackets or a string)
//! becomes the statement `0` at the first level past that, followed by spaces: every
//! byte and line keeps its place, the blocks around still end where they end, and only
//! what is nested that deep (never real code) is not read.

/// The deepest level of indentation that is parsed as written.
const MAX_LEVELS: usize = 256;

/// Where each line starts: inside brackets or a string (its indentation does not
/// count), or at a statement.
struct LineStart {
    at: usize,
    counts: bool,
}

/// The source with lines nested too deep replaced, or None when none is.
pub(super) fn flattened(source: &[u8]) -> Option<Vec<u8>> {
    // Cheap first: a line MAX_LEVELS levels deep starts with at least that many blanks.
    if !source
        .split(|&b| b == b'\n')
        .any(|line| indent_width(line) > MAX_LEVELS)
    {
        return None;
    }
    let mut out: Option<Vec<u8>> = None;
    // Indentation widths (in bytes) of the open levels, the top level's 0 first.
    let mut stack: Vec<usize> = vec![0];
    for start in line_starts(source) {
        if !start.counts {
            continue;
        }
        let end = memchr::memchr(b'\n', &source[start.at..]).map_or(source.len(), |n| start.at + n);
        let line = &source[start.at..end];
        let width = indent_width(line);
        let rest = line[width..].strip_suffix(b"\r").unwrap_or(&line[width..]);
        if rest.is_empty() || rest[0] == b'#' || rest[0] == b'\\' {
            continue;
        }
        while stack.last().is_some_and(|&top| top > width) {
            stack.pop();
        }
        if stack.last().is_some_and(|&top| top < width) {
            stack.push(width);
        }
        if stack.len() - 1 > MAX_LEVELS {
            // Keep the indentation of the first level too deep, then `0`.
            let keep = stack[MAX_LEVELS + 1];
            let out = out.get_or_insert_with(|| source.to_vec());
            let line_end = start.at + width + rest.len();
            out[start.at + keep] = b'0';
            out[start.at + keep + 1..line_end].fill(b' ');
        }
    }
    out
}

/// The leading spaces and tabs of a line.
fn indent_width(line: &[u8]) -> usize {
    line.iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count()
}

/// The start of every line, with whether its indentation counts: not inside brackets,
/// a string or a continued line. A rough lexer: strings (single, triple, any prefix),
/// comments, brackets and backslashes; enough to find statements' lines.
fn line_starts(source: &[u8]) -> Vec<LineStart> {
    let mut starts = vec![LineStart {
        at: 0,
        counts: true,
    }];
    let mut depth = 0usize;
    // The open string's quote and whether it is triple.
    let mut string: Option<(u8, bool)> = None;
    let mut i = 0;
    while i < source.len() {
        let b = source[i];
        match string {
            Some((quote, triple)) => match b {
                b'\\' => i += 1,
                b'\n' if !triple => string = None,
                _ if b == quote => {
                    if !triple {
                        string = None;
                    } else if source[i..].starts_with(&[quote; 3]) {
                        string = None;
                        i += 2;
                    }
                }
                _ => {}
            },
            None => match b {
                b'#' => {
                    i = memchr::memchr(b'\n', &source[i..]).map_or(source.len(), |n| i + n);
                    continue;
                }
                b'\'' | b'"' => {
                    let triple = source[i..].starts_with(&[b; 3]);
                    string = Some((b, triple));
                    if triple {
                        i += 2;
                    }
                }
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b'\\' if source.get(i + 1) == Some(&b'\n') => {
                    // A continued line: the next line's indentation does not count.
                    i += 2;
                    starts.push(LineStart {
                        at: i,
                        counts: false,
                    });
                    continue;
                }
                _ => {}
            },
        }
        if source.get(i) == Some(&b'\n') {
            starts.push(LineStart {
                at: i + 1,
                counts: depth == 0 && string.is_none(),
            });
        }
        i += 1;
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(levels: usize) -> Vec<u8> {
        let mut source = b"class C:\n    def f(self):\n".to_vec();
        for level in 0..levels {
            source.extend(b" ".repeat(8 + level));
            source.extend(b"if True:\n");
        }
        source.extend(b" ".repeat(8 + levels));
        source.extend(b"x = 1\n");
        source.extend(b"def g():\n    pass\n");
        source
    }

    #[test]
    fn shallow_code_is_left_alone() {
        assert!(flattened(&nested(100)).is_none());
        assert!(flattened(b"def f():\n    return 1\n").is_none());
    }

    #[test]
    fn deep_lines_become_statements_at_one_level() {
        let source = nested(600);
        let out = flattened(&source).expect("flattened");
        assert_eq!(out.len(), source.len());
        let lines: Vec<&[u8]> = out.split(|&b| b == b'\n').collect();
        let original: Vec<&[u8]> = source.split(|&b| b == b'\n').collect();
        assert_eq!(lines.len(), original.len());
        // Levels 1 (the method) to 256 stay; every deeper line is `0` at level 257.
        assert_eq!(lines[200], original[200]);
        let deep = lines[400];
        assert_eq!(indent_width(deep), 8 + 255);
        assert_eq!(deep[8 + 255], b'0');
        assert!(deep[8 + 256..].iter().all(|&b| b == b' '));
        assert_eq!(lines[lines.len() - 3], original[original.len() - 3]);
    }

    #[test]
    fn strings_and_brackets_do_not_count() {
        let mut source = b"x = (\n".to_vec();
        for level in 0..300 {
            source.extend(b" ".repeat(level + 1));
            source.extend(b"1,\n");
        }
        source.extend(b")\ns = '''\n");
        for level in 0..300 {
            source.extend(b" ".repeat(level + 1));
            source.extend(b"text\n");
        }
        source.extend(b"'''\n");
        assert!(flattened(&source).is_none());
    }
}
