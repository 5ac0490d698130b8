//! C and C++ macros that tree-sitter cannot know: a grammar without a preprocessor
//! reads `_GLIBCXX_BEGIN_NAMESPACE_VERSION` alone on a line, `namespace std
//! _GLIBCXX_VISIBILITY(default) {`, `void S::Bar() LOCKS_EXCLUDED(mu) {` or `class
//! Q_CORE_EXPORT QObject` as broken code, and its recovery loses the definitions around
//! them. Before parsing, such macro uses are replaced by spaces (as ctags ignores them),
//! so that every byte and line keeps its place and names are read as written.
//!
//! Only uses written as macros are (upper case, digits and `_`) and placed where no C or
//! C++ code could be are blanked:
//! - a line that holds only `NAME` or `NAME(…)`, after a line that ends a statement, a
//!   block or a label, or a template's head (or a preprocessor line or nothing), and
//!   before a line that starts a declaration;
//! - `NAME(…)` or `NAME` after a parameter list's `)` (and `const`, `override`, `final`,
//!   `noexcept`) or after `namespace name`, with nothing but `{`, `;`, a comment, a
//!   constructor's `: initializers` or `= 0` / `= default` / `= delete` after;
//! - `NAME` between `class`, `struct` or `union` and the type's own name;
//! - an `#if` whose first branch leaves a brace or parenthesis open: its other
//!   branches (read the first, as ctags does);
//! - `NAME` at the start of a declaration (after `static`, `inline`, …) when a type
//!   word follows that is not the declared name (`_GLIBCXX_ALWAYS_INLINE void`).
//!
//! One kind is not blanked but read as the keyword it stands for (padded to its length):
//! a `…_TRY` before `{` or a `…_CATCH` before `(`, first on its line or after a `}`
//! (fmt's `FMT_TRY`/`FMT_CATCH`, nlohmann's `JSON_TRY`, Qt's `QT_CATCH`).

/// Whether `word` is written as a macro: upper case, digits and `_`, with a letter, and
/// not a lone letter (`T`).
fn macro_like(word: &[u8]) -> bool {
    word.len() >= 2
        && word.iter().any(u8::is_ascii_uppercase)
        && word
            .iter()
            .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && !word[0].is_ascii_digit()
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The end of the word that starts at `at`.
fn word_end(line: &[u8], at: usize) -> usize {
    line[at..]
        .iter()
        .position(|&b| !is_word_byte(b))
        .map_or(line.len(), |n| at + n)
}

/// A macro's arguments are looked for this far, at most: a use is short, and a long
/// line of open parentheses must not cost a scan to its end for each.
const MAX_ARGUMENT_BYTES: usize = 1024;

/// The end (after the `)`) of the balanced parentheses that open at `at` in `line` (or
/// in a whole source, for a use over lines).
/// Braces may stand inside, paired (abseil's `ABSL_FLAG(bool, f, {}, "");`).
fn parens_end(line: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut braces = 0usize;
    let stop = line.len().min(at.saturating_add(MAX_ARGUMENT_BYTES));
    let mut i = at;
    while i < stop {
        match line[i] {
            b'(' => depth += 1,
            b')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return (braces == 0).then_some(i + 1);
                }
            }
            // A string argument (`_GLIBCXX14_DEPRECATED_SUGGEST("std::shuffle")`).
            b'"' => {
                i += 1;
                while i < stop && line[i] != b'"' {
                    i += if line[i] == b'\\' { 2 } else { 1 };
                }
            }
            // A character (`'\0'`), not a digit separator (`1'000`).
            b'\'' if i == 0 || !is_word_byte(line[i - 1]) => {
                i += 1;
                while i < stop && line[i] != b'\'' {
                    i += if line[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => braces += 1,
            b'}' => braces = braces.checked_sub(1)?,
            b'\'' | b';' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

fn skip_space(line: &[u8], mut at: usize) -> usize {
    while at < line.len() && line[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

/// The source with its C and C++ macro uses blanked, or None when it has none.
pub(super) fn blanked(source: &[u8]) -> Option<Vec<u8>> {
    let mut lines: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for i in memchr::memchr_iter(b'\n', source) {
        lines.push((start, i));
        start = i + 1;
    }
    if start < source.len() {
        lines.push((start, source.len()));
    }
    let text = |index: usize| {
        let (s, e) = lines[index];
        source[s..e].trim_ascii()
    };
    // Comment and blank lines say nothing of what a macro line stands between.
    let significant = |index: usize| {
        let t = text(index);
        !(t.is_empty() || t.starts_with(b"//") || t.starts_with(b"/*") || t.starts_with(b"*"))
    };
    let mut out: Option<Vec<u8>> = None;
    let blank = |from: usize, to: usize, out: &mut Option<Vec<u8>>| {
        let buffer = out.get_or_insert_with(|| source.to_vec());
        // Line ends stay, so that every line keeps its number.
        for byte in &mut buffer[from..to] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    };
    for (from, to) in split_branches(source, &lines) {
        blank(from, to, &mut out);
    }
    // `NAME` made the keyword it stands for, padded with spaces to its length.
    let rewrite = |from: usize, to: usize, keyword: &[u8], out: &mut Option<Vec<u8>>| {
        let buffer = out.get_or_insert_with(|| source.to_vec());
        // Not inside a branch blanked already.
        if buffer[from..to] != source[from..to] {
            return;
        }
        for (i, byte) in buffer[from..to].iter_mut().enumerate() {
            *byte = keyword.get(i).copied().unwrap_or(b' ');
        }
    };
    // The last significant line before the current one, kept as the loop goes (a
    // search back from each line would be quadratic over a run of comment lines).
    let mut last_significant: Option<usize> = None;
    // The last line of the directive whose comments were blanked last.
    let mut directive_to: Option<usize> = None;
    let mut skip_to: Option<usize> = None;
    for index in 0..lines.len() {
        let (line_start, line_end) = lines[index];
        // The lines of a generator call blanked already: no line to the next one.
        if skip_to.is_some_and(|end| line_start < end) {
            continue;
        }
        let previous = last_significant;
        if significant(index) {
            last_significant = Some(index);
        }
        let line = &source[line_start..line_end];
        let trimmed = line.trim_ascii();
        // A directive's own continued lines are not directives again (each would scan
        // the rest of it: quadratic over a run of `# … \` lines).
        if trimmed.first() == Some(&b'#') && directive_to.is_none_or(|to| index > to) {
            let (comments, last) = directive_comments(source, &lines, index);
            for (from, to) in comments {
                blank(from, to, &mut out);
            }
            directive_to = Some(last);
        }
        if trimmed.is_empty() || trimmed[0] == b'#' {
            continue;
        }
        let offset = line_start + (trimmed.as_ptr() as usize - line.as_ptr() as usize);
        // An exception macro where `try` or `catch` stands, first on its line or after
        // the `}` of the block before (fmt's `FMT_TRY {` and `FMT_CATCH(...) {}`, Qt's
        // `} QT_CATCH(...) {`, nlohmann's `JSON_TRY` over `{`): read as the keyword, so
        // that the block is a try statement, not a function named after the macro.
        let word_at = match trimmed.first() {
            Some(b'}') => offset + skip_space(trimmed, 1),
            _ => offset,
        };
        if let Some((keyword, end)) = exception_macro(source, word_at) {
            rewrite(word_at, end, keyword, &mut out);
            continue;
        }
        // A macro that opens the line after a parameter list (`swap(a, b)` then
        // `_GLIBCXX_NOEXCEPT_IF(…)` on lines of its own, then `{`).
        // Not after a directive (`#if A && !defined(B)` ends with its `)` too).
        let after_parameters = previous.is_some_and(|i| {
            let t = code_part(text(i));
            directive_to.is_none_or(|to| i > to)
                && (t.ends_with(b")")
                    || AFTER_PARAMETERS.iter().any(|w| {
                        t.ends_with(w)
                            && t.len() > w.len()
                            && !is_word_byte(t[t.len() - w.len() - 1])
                    }))
        });
        if after_parameters && let Some(end) = trailing_macro(source, offset) {
            blank(offset, end, &mut out);
            continue;
        }
        // A code generator's call at the file's top level, without `;` (jemalloc's
        // `rb_gen(static UNUSED, tree_, …)` over two lines): its arguments hold a
        // storage class or type keyword, which no call and no K&R parameter list has.
        // Or any upper-case macro's use over lines there, nothing after its `)`
        // (jemalloc's `CTL_RO_NL_CGEN(config_prof, opt_prof_accum,` and the rest of its
        // arguments below), as a lone macro line is below.
        if offset == line_start
            && previous.is_none_or(|i| ends_item(code_part(text(i))))
            && let Some(end) = generator_call(source, offset)
                .or_else(|| macro_use_over_lines(source, offset))
                .or_else(|| macro_statement(source, offset))
            && next_code(source, end).is_none_or(|b| is_word_byte(b) || b == b'#')
        {
            blank(offset, end, &mut out);
            last_significant = previous;
            skip_to = Some(end);
            continue;
        }
        // A macro around a whole declarator, first on its line, a body after it (libuv's
        // `UV_UNUSED(static void uv__update_time(uv_loop_t* loop)) {`): its name, its
        // `(` and its `)` are blanked, the declaration inside is read.
        if offset == line_start
            && let Some((open, close)) = wrapping_macro(source, line_start)
            && next_code(source, close) == Some(b'{')
        {
            blank(line_start, open + 1, &mut out);
            blank(close - 1, close, &mut out);
        }
        // A line that is a macro use and nothing else.
        if let Some(extent) = lone_macro(trimmed) {
            let continues = previous.is_some_and(|i| {
                let t = code_part(text(i));
                t.ends_with(b"\\")
                    || !(ends_item(t) || matches!(t.last(), Some(b'{' | b':')) || template_head(t))
            });
            let next_ok = (index + 1..lines.len())
                .find(|&i| significant(i))
                .is_none_or(|i| {
                    text(i)
                        .first()
                        .is_some_and(|&b| is_word_byte(b) || matches!(b, b'#' | b'}' | b'~' | b'['))
                });
            if !continues && next_ok {
                blank(offset, offset + extent, &mut out);
                // A macro line blanked is no line to the next one: a run of them
                // (`FMT_BEGIN_NAMESPACE` then `FMT_BEGIN_EXPORT`) is blanked whole.
                last_significant = previous;
                continue;
            }
        }
        for (from, to) in inline_macros(line) {
            blank(line_start + from, line_start + to, &mut out);
        }
    }
    out
}

/// The block comments of a preprocessor line continued over the next lines (`\` at
/// their ends), without the `\` that ends a line: tree-sitter reads a directive's text
/// as one token, which a comment ends, so that `#define M(x) do { \` over `/* b */ \`
/// left the macro's `} while (0)` to be read as code, and the function after it was
/// lost in the recovery. With the directive's last line.
fn directive_comments(
    source: &[u8],
    lines: &[(usize, usize)],
    first: usize,
) -> (Vec<(usize, usize)>, usize) {
    let continued = |index: usize| {
        let (s, e) = lines[index];
        source[s..e].trim_ascii_end().ends_with(b"\\")
    };
    let mut last = first;
    while last + 1 < lines.len() && continued(last) {
        last += 1;
    }
    if last == first {
        return (Vec::new(), last);
    }
    let (from, to) = (lines[first].0, lines[last].1);
    let text = &source[from..to];
    let mut comments = Vec::new();
    let mut at = 0;
    while let Some(open) = memchr::memmem::find(&text[at..], b"/*") {
        let open = at + open;
        let Some(close) = memchr::memmem::find(&text[open + 2..], b"*/") else {
            break;
        };
        let close = open + 2 + close + 2;
        // A `\` that ends a line inside the comment keeps the directive going.
        let mut start = open;
        for newline in memchr::memchr_iter(b'\n', &text[open..close]) {
            let end = open + newline;
            let line = text[start..end].trim_ascii_end();
            comments.push((
                from + start,
                from + start
                    + line
                        .len()
                        .saturating_sub(usize::from(line.ends_with(b"\\"))),
            ));
            start = end + 1;
        }
        comments.push((from + start, from + close));
        at = close;
    }
    (comments, last)
}

/// The keyword an exception macro at `at` stands for, and where it ends: a name written
/// as a macro ending in `_TRY` before a `{`, or in `_CATCH` before `(…) {`.
fn exception_macro(source: &[u8], at: usize) -> Option<(&'static [u8], usize)> {
    if !source.get(at).is_some_and(|&b| is_word_byte(b)) {
        return None;
    }
    let end = word_end(source, at);
    let word = &source[at..end];
    if !macro_like(word) {
        return None;
    }
    let next = skip_space(source, end);
    match source.get(next) {
        Some(b'{') if word.ends_with(b"_TRY") => Some((b"try", end)),
        // `catch (…) {`, not a statement (PostgreSQL's `PG_CATCH();`).
        Some(b'(') if word.ends_with(b"_CATCH") => {
            let close = parens_end(source, next)?;
            (source.get(skip_space(source, close)) == Some(&b'{')).then_some((&b"catch"[..], end))
        }
        _ => None,
    }
}

/// Whether `line` ends a template's head (`template<…>`, or the last line of one that
/// runs over lines), which a declaration follows.
fn template_head(line: &[u8]) -> bool {
    line.ends_with(b">") && !line.ends_with(b"->")
}

/// The end of `NAME` or `NAME(…)` (its arguments may run over lines) that starts at
/// `at` in `source`, when what follows it begins a body or ends a declaration (`{`, `;`,
/// `:`, `=`, `->`).
fn trailing_macro(source: &[u8], at: usize) -> Option<usize> {
    let end = word_end(source, at);
    if !macro_like(&source[at..end]) {
        return None;
    }
    let mut close = end;
    let open = skip_space(source, end);
    if source.get(open) == Some(&b'(') {
        let mut depth = 0usize;
        let stop = source.len().min(open.saturating_add(MAX_ARGUMENT_BYTES));
        close = 0;
        for (i, &b) in source[..stop].iter().enumerate().skip(open) {
            match b {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = i + 1;
                        break;
                    }
                }
                b';' | b'{' | b'}' | b'"' => return None,
                _ => {}
            }
        }
        if close == 0 {
            return None;
        }
    }
    let next = skip_space(source, close);
    match source.get(next) {
        Some(b'{' | b';' | b':' | b'=') => Some(close),
        Some(b'-') if source.get(next + 1) == Some(&b'>') => Some(close),
        _ => None,
    }
}

/// Whether a line ends a top-level item: a block, a statement, a directive or a comment.
fn ends_item(line: &[u8]) -> bool {
    line.starts_with(b"#") || line.ends_with(b"*/") || matches!(line.last(), Some(b'}' | b';'))
}

/// Words that no call's argument and no K&R parameter name can be.
const DECLARING: [&[u8]; 6] = [
    b"static", b"extern", b"inline", b"struct", b"union", b"enum",
];

/// The end (after its `)`) of `name(…)` at `at` when it is a generator's call: its
/// arguments, over at most a few lines, hold a [`DECLARING`] word, and nothing follows
/// them on their last line.
fn generator_call(source: &[u8], at: usize) -> Option<usize> {
    let name_end = word_end(source, at);
    let name = &source[at..name_end];
    if name.is_empty() || name[0].is_ascii_digit() || source.get(name_end) != Some(&b'(') {
        return None;
    }
    let close = parens_end(source, name_end)?;
    let arguments = &source[name_end..close];
    let declaring = arguments
        .split(|&b| !is_word_byte(b))
        .any(|word| DECLARING.contains(&word));
    let line_end = source[close..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(source.len(), |n| close + n);
    (declaring && source[close..line_end].trim_ascii().is_empty()).then_some(close)
}

/// The end (after its `)`, or its `;`) of `NAME(…)` at `at` when it is a macro's use
/// over more than one line with nothing after its `)` on the last but a `;` or a `//`
/// comment (re2's `DEFINE_FLAG(int, limit,` / `"…");`, which C++ read as a function
/// whose body took the definitions below).
fn macro_use_over_lines(source: &[u8], at: usize) -> Option<usize> {
    let (name_end, close) = macro_call(source, at)?;
    // Over more than one line.
    memchr::memchr(b'\n', &source[name_end..close])?;
    let line_end = memchr::memchr(b'\n', &source[close..]).map_or(source.len(), |n| close + n);
    let rest = source[close..line_end].trim_ascii_start();
    let end = close + (line_end - close - rest.len());
    match rest.strip_prefix(b";") {
        _ if rest.is_empty() => Some(close),
        Some(after) => {
            let after = after.trim_ascii_start();
            (after.is_empty() || after.starts_with(b"//")).then_some(end + 1)
        }
        None => None,
    }
}

/// Where `NAME(…)`'s name ends and its `)` ends (after it), for a macro's name (upper
/// case) at `at` followed at once by its arguments, on one line or more.
fn macro_call(source: &[u8], at: usize) -> Option<(usize, usize)> {
    let name_end = word_end(source, at);
    if !macro_like(&source[at..name_end]) || source.get(name_end) != Some(&b'(') {
        return None;
    }
    Some((name_end, parens_end(source, name_end)?))
}

/// How far a macro's statement is looked through for its `;`.
const MAX_STATEMENT_BYTES: usize = 16 * 1024;

/// The end (after its `;`) of a statement that calls a member of `NAME(…)`'s value at
/// `at` (abseil's `ABSL_FLAG(int, f, 200, "").OnUpdate([]() {` … `});`), which no
/// namespace's level can hold: the grammar read it as broken code, and its recovery
/// lost every definition below it.
fn macro_statement(source: &[u8], at: usize) -> Option<usize> {
    let (_, close) = macro_call(source, at)?;
    let next = skip_space(source, close);
    if !(source.get(next) == Some(&b'.') || source[next..].starts_with(b"->")) {
        return None;
    }
    let stop = source.len().min(next.saturating_add(MAX_STATEMENT_BYTES));
    let mut depth = 0i64;
    let mut i = next;
    while i < stop {
        match source[i] {
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            b';' if depth == 0 => return Some(i + 1),
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < stop && source[i] != quote && source[i] != b'\n' {
                    i += if source[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if source.get(i + 1) == Some(&b'/') => {
                i += memchr::memchr(b'\n', &source[i..stop])?;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The first byte of code at or after `at`, past white space and comments (jemalloc's
/// `/****/` rule under a generator's call).
fn next_code(source: &[u8], mut at: usize) -> Option<u8> {
    loop {
        at += source
            .get(at..)?
            .iter()
            .position(|b| !b.is_ascii_whitespace())?;
        let rest = &source[at..];
        if rest.starts_with(b"//") {
            at += memchr::memchr(b'\n', rest)?;
        } else if rest.starts_with(b"/*") {
            at += 2 + memchr::memmem::find(&rest[2..], b"*/")? + 2;
        } else {
            return Some(rest[0]);
        }
    }
}

/// The length of `NAME` or `NAME(…)` when that is all of `trimmed`, or of `NAME(…);`
/// when only a `//` comment follows (gmock's `GMOCK_DEFINE_…(void, );  // NOLINT` at a
/// namespace's level, whose empty argument recovery joined to the classes below).
fn lone_macro(trimmed: &[u8]) -> Option<usize> {
    let end = word_end(trimmed, 0);
    if !macro_like(&trimmed[..end]) {
        return None;
    }
    let end = match trimmed.get(end) {
        None => end,
        Some(b'(') => parens_end(trimmed, end)?,
        Some(_) => return None,
    };
    if end == trimmed.len() {
        return Some(end);
    }
    let rest = trimmed[end..].trim_ascii_start();
    let comment = rest.strip_prefix(b";")?.trim_ascii_start();
    (comment.is_empty() || comment.starts_with(b"//")).then_some(trimmed.len() - rest.len() + 1)
}

/// Where `NAME(` at `at` opens and its `)` ends (after it) when the macro's argument,
/// on one line or more, is a whole function's head: words (a type and a name, at
/// least, no comma) before its own parameters' `(`, and their `)` last.
fn wrapping_macro(source: &[u8], at: usize) -> Option<(usize, usize)> {
    let (name_end, close) = macro_call(source, at)?;
    let inner = source[name_end + 1..close - 1].trim_ascii();
    let head = &inner[..inner.iter().position(|&b| b == b'(')?];
    let words: Vec<&[u8]> = head
        .split(|&b| !is_word_byte(b))
        .filter(|w| !w.is_empty())
        .collect();
    // No list of arguments (gmock's `ACTION_TEMPLATE(Name, HAS_1_TEMPLATE_PARAMS(int,
    // k),` …`) {`), and a name that is no macro's.
    (words.len() >= 2
        && !head.contains(&b',')
        && words.last().is_some_and(|name| !macro_like(name))
        && inner.ends_with(b")"))
    .then_some((name_end, close))
}

/// The end (after `]]`) of the attribute `[[…]]` that opens at `at`, on the line.
fn attribute_end(line: &[u8], at: usize) -> Option<usize> {
    if !line[at..].starts_with(b"[[") {
        return None;
    }
    let stop = line.len().min(at.saturating_add(MAX_ARGUMENT_BYTES));
    memchr::memmem::find(&line[at + 2..stop], b"]]").map(|close| at + 2 + close + 2)
}

/// Words that may stand between a parameter list's `)` and a trailing macro.
const AFTER_PARAMETERS: &[&[u8]] = &[b"const", b"override", b"final", b"noexcept", b"volatile"];

/// Words that may come before a macro at the start of a declaration.
const SPECIFIERS: &[&[u8]] = &[
    b"static",
    b"inline",
    b"constexpr",
    b"extern",
    b"virtual",
    b"explicit",
    b"friend",
];

/// The byte ranges of the line's macro uses in a declarator or a type's head.
fn inline_macros(line: &[u8]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut at = 0;
    // The words and the last punctuation seen before `at`, for context.
    let mut previous_words: Vec<&[u8]> = Vec::new();
    let mut last_punct: Option<u8> = None;
    while at < line.len() {
        let b = line[at];
        if b == b'/' && matches!(line.get(at + 1), Some(b'/' | b'*')) {
            break;
        }
        if b == b'"' || b == b'\'' {
            break;
        }
        // An attribute (`[[nodiscard]]`) says nothing of where a macro stands: passed
        // over, as if it were not there.
        if let Some(end) = attribute_end(line, at) {
            at = end;
            continue;
        }
        if !is_word_byte(b) {
            if !b.is_ascii_whitespace() {
                last_punct = Some(b);
                previous_words.clear();
            }
            at += 1;
            continue;
        }
        let end = word_end(line, at);
        let word = &line[at..end];
        // A pointer's or reference's qualifier macro in lower case (abseil's
        // `StatusRep* absl_nonnull StatusRep::Clone(`, `Flag<T>* absl_nullable flag`).
        if matches!(last_punct, Some(b'*' | b'&'))
            && previous_words.is_empty()
            && !b.is_ascii_digit()
            && qualifier_macro(line, word, end)
        {
            found.push((at, end));
            at = end;
            continue;
        }
        if macro_like(word) && !b.is_ascii_digit() {
            let after = skip_space(line, end);
            // `) [const …] NAME(…) {` or `namespace name NAME(…) {`.
            let after_parameters = last_punct == Some(b')')
                && previous_words.iter().all(|w| AFTER_PARAMETERS.contains(w));
            let after_namespace = previous_words.len() == 2 && previous_words[0] == b"namespace";
            if after_parameters || after_namespace {
                // With its arguments or without.
                let close = match line.get(after) {
                    Some(b'(') => parens_end(line, after),
                    _ => Some(end),
                };
                if let Some(close) = close {
                    let rest = line[close..].trim_ascii();
                    // A body, an end, a comment, a constructor's initializers (`: mu_(mu)`,
                    // not `::`) or `= 0`, `= default`, `= delete`.
                    let initializers = rest.starts_with(b":") && !rest.starts_with(b"::");
                    if rest.is_empty()
                        || rest.starts_with(b"{")
                        || rest.starts_with(b";")
                        || rest.starts_with(b"//")
                        || rest.starts_with(b"/*")
                        || initializers
                        || (after_parameters && rest.starts_with(b"="))
                    {
                        found.push((at, close));
                        at = close;
                        continue;
                    }
                }
            }
            // `NAME void` at the start of a declaration (`_GLIBCXX_ALWAYS_INLINE void`,
            // `static EXPORT int f()`): a type word follows that is not itself the name.
            // Or a destructor's `~` follows (re2's `ATTRIBUTE_NORETURN ~LogMessageFatal()`).
            if last_punct.is_none()
                && previous_words.iter().all(|w| SPECIFIERS.contains(w))
                && line.get(after) == Some(&b'~')
                && line.get(after + 1).is_some_and(|&c| is_word_byte(c))
            {
                found.push((at, end));
                at = end;
                continue;
            }
            if last_punct.is_none()
                && previous_words.iter().all(|w| SPECIFIERS.contains(w))
                && line.get(after).is_some_and(|&c| is_word_byte(c))
            {
                let next_end = word_end(line, after);
                let beyond = skip_space(line, next_end);
                let followed = line.get(beyond).is_none_or(|&c| is_word_byte(c))
                    && !matches!(line.get(next_end), Some(b'('));
                if followed && next_end > after {
                    found.push((at, end));
                    at = end;
                    continue;
                }
            }
            // `class NAME Type`: the type's own name follows (after attributes, if any:
            // `class API [[nodiscard]] Result`).
            let mut named = after;
            while let Some(end) = attribute_end(line, named) {
                named = skip_space(line, end);
            }
            if previous_words.len() == 1
                && matches!(previous_words[0], b"class" | b"struct" | b"union")
                && line.get(named).is_some_and(|&c| is_word_byte(c))
            {
                found.push((at, end));
                at = end;
                continue;
            }
        }
        previous_words.push(word);
        at = end;
    }
    found
}

/// Words that stand after `*` or `&` before a name in C and C++ (qualifiers, and the
/// operators spelled as words), which are no macros.
const AFTER_POINTER: &[&[u8]] = &[
    b"const",
    b"volatile",
    b"restrict",
    b"operator",
    b"and",
    b"or",
    b"not",
    b"xor",
    b"bitand",
    b"bitor",
    b"and_eq",
    b"or_eq",
    b"xor_eq",
    b"not_eq",
];

/// Whether `word`, after a `*` or `&`, is a macro that qualifies the pointer: another
/// name follows it (a declared name, or a qualified one's first part), which no C or
/// C++ declaration or expression has after a name. Not when that name is a macro or an
/// extension keyword of its own (`int *p __attribute__((unused))`, `T* p GUARDED_BY(m)`).
fn qualifier_macro(line: &[u8], word: &[u8], end: usize) -> bool {
    let next = skip_space(line, end);
    if next == end || AFTER_POINTER.contains(&word) || word.starts_with(b"__") {
        return false;
    }
    let next_end = word_end(line, next);
    let name = &line[next..next_end];
    let starts_name = line
        .get(next)
        .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_');
    let after = line.get(skip_space(line, next_end));
    starts_name
        && !macro_like(name)
        && !name.starts_with(b"__")
        && !AFTER_POINTER.contains(&name)
        && after.is_none_or(|c| b"(,);=[{:<".contains(c))
}

/// The directive of a preprocessor line (`if`, `ifdef`, `else`, `endif`, …), if it is one.
fn directive(line: &[u8]) -> Option<&[u8]> {
    let rest = line
        .trim_ascii_start()
        .strip_prefix(b"#")?
        .trim_ascii_start();
    Some(&rest[..word_end(rest, 0)])
}

/// How much a branch leaves open: `{` less `}` and `(` less `)`, strings, characters
/// and comments skipped (a comment is taken to end on its line).
fn balance(text: &[u8]) -> (i64, i64) {
    let (mut braces, mut parens) = (0i64, 0i64);
    let mut at = 0;
    while at < text.len() {
        match text[at] {
            b'/' if text.get(at + 1) == Some(&b'/') => {
                at = text[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(text.len(), |n| at + n);
            }
            // A block comment ends at its `*/`, not at the line's end: `void A(int /*a*/)
            // {}` leaves nothing open.
            b'/' if text.get(at + 1) == Some(&b'*') => {
                at = memchr::memmem::find(&text[at + 2..], b"*/")
                    .map_or(text.len(), |n| at + 2 + n + 1);
            }
            quote @ (b'"' | b'\'') => {
                at += 1;
                while at < text.len() && text[at] != quote && text[at] != b'\n' {
                    at += if text[at] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => braces += 1,
            b'}' => braces -= 1,
            b'(' => parens += 1,
            b')' => parens -= 1,
            _ => {}
        }
        at += 1;
    }
    (braces, parens)
}

/// An `#if` whose first branch leaves a brace or parenthesis open (it splits an
/// expression or a definition's head between branches) is read by its first branch, as
/// ctags reads it: the byte ranges of its other branches, their directives included.
/// So is one whose first branch ends inside a definition's head ([`inside_head`]).
/// So is an `#if` that stands inside an expression (after a line that ends in `,`, `(`,
/// `&&`, `||` or a constructor's `:`) or a definition's head, where a grammar without a
/// preprocessor sees no directive: then its own `#if` line goes too, and its `#endif`.
/// Any other directive inside an expression goes whole. An `#if` without `#else` whose
/// lines leave a brace unpaired loses its `#if` and `#endif` lines: it is read as if its
/// condition held.
fn split_branches(source: &[u8], lines: &[(usize, usize)]) -> Vec<(usize, usize)> {
    /// One open `#if`: where its directive starts, where its first branch starts, where
    /// it ends (its first `#else`/`#elif`), if it has ended, and whether it stands inside
    /// an expression.
    struct Open {
        start: usize,
        body_start: usize,
        first_end: Option<usize>,
        inside_expression: bool,
        /// Lines of code before its first branch.
        code_before: usize,
        /// Whether its first branch ends inside a definition's head (curl's `int
        /// wmain(…)` `#else` `int main(…)` `#endif` `{`).
        first_ends_in_head: bool,
    }
    let mut stack: Vec<Open> = Vec::new();
    let mut found = Vec::new();
    // The last line of code (no directive, comment or blank line) before this one,
    // without its comments.
    let mut last_code: Vec<u8> = Vec::new();
    let mut code = Vec::new();
    let mut in_comment = false;
    // Parentheses the code since the last statement's or block's end left open (a
    // parameter list that runs over lines).
    let mut open_parens = 0i64;
    let mut code_lines = 0usize;
    let mut index = 0;
    while index < lines.len() {
        let (start, mut end) = lines[index];
        index += 1;
        let was_in_comment = in_comment;
        strip_comments(&source[start..end], &mut in_comment, &mut code);
        let word = match was_in_comment {
            true => None,
            false => directive(&source[start..end]),
        };
        let Some(word) = word else {
            let code = code.trim_ascii();
            if !code.is_empty() {
                open_parens = match code.last() {
                    Some(b';' | b'{' | b'}') => 0,
                    _ => (open_parens + balance(code).1).max(0),
                };
                last_code.clear();
                last_code.extend_from_slice(code);
                code_lines += 1;
            }
            continue;
        };
        // A directive continued over lines (`\` at the end) ends on its last line.
        while source[start..end].trim_ascii_end().ends_with(b"\\") && index < lines.len() {
            end = lines[index].1;
            index += 1;
        }
        match word {
            b"if" | b"ifdef" | b"ifndef" => stack.push(Open {
                start,
                body_start: end,
                first_end: None,
                inside_expression: inside_expression(&last_code)
                    || inside_head(&last_code, open_parens),
                code_before: code_lines,
                first_ends_in_head: false,
            }),
            b"else" | b"elif" | b"elifdef" | b"elifndef" => {
                if let Some(open) = stack.last_mut()
                    && open.first_end.is_none()
                {
                    open.first_end = Some(start);
                    open.first_ends_in_head =
                        code_lines > open.code_before && inside_head(&last_code, open_parens);
                }
            }
            b"endif" => {
                let Some(open) = stack.pop() else { continue };
                if open.inside_expression {
                    found.push((open.start, open.body_start));
                    found.push((open.first_end.unwrap_or(start), end));
                    continue;
                }
                let Some(first_end) = open.first_end else {
                    // An `#if` without `#else` whose lines open a brace they do not close
                    // or close one they did not open (`if (L > 0) {` under one `#ifndef`,
                    // its `}` under another, in David Gay's dtoa.c): read as if its
                    // condition held, its two directives blanked, so that the braces
                    // pair again (the grammar cannot pair them across directives).
                    if balance(&source[open.body_start..start]).0 != 0 {
                        found.push((open.start, open.body_start));
                        found.push((start, end));
                    }
                    continue;
                };
                // Nested groups inside are ignored: only an outermost split is cut (or
                // one whose first branch ends in a definition's head, wherever it is).
                if open.first_ends_in_head
                    || stack.is_empty()
                        && open.body_start <= first_end
                        && balance(&source[open.body_start..first_end]) != (0, 0)
                {
                    found.push((first_end, end));
                }
            }
            // Any other directive inside a list (`#define BINOP(name) …` after an entry
            // of jq's `function_list[] = {`): the grammar has no place for it there, and
            // its recovery took the functions below into the list. No directive but a
            // conditional changes what an outline lists. (Right after a list's `{`, the
            // grammars recover well enough, and abseil's X-macro lists need the
            // directives between their uses: `PRIM_TYPES(A)` lines have no commas.)
            _ if inside_expression(&last_code) => found.push((start, end)),
            _ => {}
        }
    }
    found
}

/// `line`'s code into `code`: its comments left out (each block comment a space),
/// `in_comment` carried from line to line, so that the lines of a block comment, which
/// need not start with `*`, hold no code. Strings are kept whole.
fn strip_comments(line: &[u8], in_comment: &mut bool, code: &mut Vec<u8>) {
    code.clear();
    let mut at = 0;
    while at < line.len() {
        if *in_comment {
            let Some(n) = memchr::memmem::find(&line[at..], b"*/") else {
                return;
            };
            at += n + 2;
            *in_comment = false;
            code.push(b' ');
            continue;
        }
        match line[at] {
            b'/' if line.get(at + 1) == Some(&b'/') => return,
            b'/' if line.get(at + 1) == Some(&b'*') => {
                *in_comment = true;
                at += 2;
            }
            quote @ (b'"' | b'\'') => {
                let from = at;
                at += 1;
                while at < line.len() && line[at] != quote {
                    at += if line[at] == b'\\' { 2 } else { 1 };
                }
                at = (at + 1).min(line.len());
                code.extend_from_slice(&line[from..at]);
            }
            b => {
                code.push(b);
                at += 1;
            }
        }
    }
}

/// A line's code: trimmed, without a comment line or a trailing `//` comment.
fn code_part(line: &[u8]) -> &[u8] {
    let line = line.trim_ascii();
    if line.starts_with(b"/*") || line.starts_with(b"*") {
        return b"";
    }
    let code = line
        .windows(2)
        .position(|pair| pair == b"//")
        .map_or(line, |at| &line[..at]);
    code.trim_ascii()
}

/// Whether an `#if` after code that ends with `last` stands inside a definition's head:
/// in a parameter list (`open_parens`: curl's `Curl_conncontrol(…, int ctrl` then `#if
/// DEBUGBUILD` `, const char *reason` `#endif` `)`), after a parameter list (curl's
/// `int wmain(…)` `#else` `int main(…)` `#endif` `{`, or a constructor's initializers
/// under `#ifdef`), or after a declaration's type (`static int` then a name in each
/// branch). A grammar without a preprocessor cannot join what the branches split.
/// Not after a lone macro use (`G_BEGIN_DECLS`, `FOO(x)`): that ends an item.
fn inside_head(last: &[u8], open_parens: i64) -> bool {
    if open_parens > 0 {
        return true;
    }
    let Some(&end) = last.last() else {
        return false;
    };
    (end == b')' || end == b'*' || is_word_byte(end)) && lone_macro(last).is_none()
}

/// Whether code that ends with `last` goes on past its line: a list or a condition
/// left open, or a constructor's initializer list (`:` alone, or after its `)`).
fn inside_expression(last: &[u8]) -> bool {
    if last.ends_with(b",")
        || last.ends_with(b"(")
        || last.ends_with(b"&&")
        || last.ends_with(b"||")
    {
        return true;
    }
    match last.strip_suffix(b":") {
        Some(before) if !before.ends_with(b":") => {
            let before = before.trim_ascii_end();
            before.is_empty() || before.ends_with(b")")
        }
        _ => false,
    }
}
