//! Finding a symbol by a caller's query (SPEC §15 `PATH#SYMBOL`): its qualified name or
//! its last parts, `.`, `::` and `/` alike; for Markdown also a heading's text or GitHub
//! anchor, case ignored. An exact qualified name wins over a match by last parts.

use super::distance;
use super::language::Language;
use super::symbol::Symbol;

/// At most this many suggestions are given when nothing matches.
const MAX_SUGGESTIONS: usize = 3;
/// Names are compared for suggestions up to this many characters.
const MAX_COMPARED_CHARS: usize = 64;
/// Edit-distance table cells computed for one query's suggestions, at most.
const MAX_CELLS: usize = 20_000_000;

/// What a query found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The index of the one symbol that matches.
    Found(usize),
    /// Nothing matches; up to three near symbols, nearest first.
    NotFound { suggestions: Vec<usize> },
    /// Several symbols match equally well, in file order.
    Ambiguous(Vec<usize>),
}

/// The symbol of `symbols` (an outline of a `language` file) that `query` names.
pub fn find(symbols: &[Symbol], language: Language, query: &str) -> Lookup {
    let query = query.trim();
    if language == Language::Markdown {
        return find_section(symbols, query);
    }
    let wanted = parts(query, &["::", ".", "/"]);
    if wanted.is_empty() {
        return Lookup::NotFound {
            suggestions: Vec::new(),
        };
    }
    // A name as written wins (`operator/=`, `@vue/reactivity`); else names and query
    // are cut at every separator alike, so that a `/` or `.` inside a name still
    // matches when written as such.
    let as_written: Vec<usize> = (0..symbols.len())
        .filter(|&i| symbols[i].qualified_name == query)
        .collect();
    match as_written.len() {
        0 => {}
        1 => return Lookup::Found(as_written[0]),
        _ => return Lookup::Ambiguous(as_written),
    }
    let names: Vec<String> = symbols
        .iter()
        .map(|symbol| parts(&symbol.qualified_name, &["::", ".", "/"]))
        .collect();
    pick(
        names.iter().map(|name| name == &wanted),
        names.iter().map(|name| ends_with_parts(name, &wanted)),
    )
    .unwrap_or_else(|| Lookup::NotFound {
        suggestions: suggest(
            symbols
                .iter()
                .map(|symbol| [symbol.name.clone(), symbol.qualified_name.clone()]),
            &wanted,
        ),
    })
}

/// Markdown: by qualified name first, then by last headings, heading text or anchor.
fn find_section(symbols: &[Symbol], query: &str) -> Lookup {
    let query = query
        .strip_prefix('#')
        .unwrap_or(query)
        .trim()
        .to_lowercase();
    let anchors = anchors(symbols);
    let qualified: Vec<String> = symbols
        .iter()
        .map(|symbol| symbol.qualified_name.to_lowercase())
        .collect();
    // The query as written, then with `/`, `::` and `.` read as ` > `, since headings
    // themselves often hold dots and slashes.
    let as_path = parts(&query, &["::", ".", "/", ">"]).replace('\u{1f}', " > ");
    for query in [query.clone(), as_path] {
        let suffix = |index: usize| {
            let name = &qualified[index];
            name.strip_suffix(query.as_str())
                .is_some_and(|head| head.is_empty() || head.ends_with(" > "))
                || anchors[index] == query
        };
        if let Some(found) = pick(
            qualified.iter().map(|name| *name == query),
            (0..symbols.len()).map(suffix),
        ) {
            return found;
        }
    }
    Lookup::NotFound {
        suggestions: suggest(
            symbols
                .iter()
                .zip(&anchors)
                .map(|(symbol, anchor)| [symbol.name.to_lowercase(), anchor.clone()]),
            &query,
        ),
    }
}

/// The answer from which symbols match exactly and which by their last parts.
fn pick(exact: impl Iterator<Item = bool>, suffix: impl Iterator<Item = bool>) -> Option<Lookup> {
    for matches in [exact.collect::<Vec<_>>(), suffix.collect()] {
        let found: Vec<usize> = (0..matches.len()).filter(|&i| matches[i]).collect();
        match found.len() {
            0 => {}
            1 => return Some(Lookup::Found(found[0])),
            _ => return Some(Lookup::Ambiguous(found)),
        }
    }
    None
}

/// A name cut at any of `separators`, empty parts dropped, joined by one separator so
/// that names written with different separators compare equal.
fn parts(name: &str, separators: &[&str]) -> String {
    let mut text = name.to_string();
    for separator in separators {
        text = text.replace(separator, "\u{1f}");
    }
    text.split('\u{1f}')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(tight_operator)
        .collect::<Vec<_>>()
        .join("\u{1f}")
}

/// A C++ operator's name without the spaces its source may hold next to a symbol
/// (`operator ()` as re2 writes it is `operator()`); `operator new` keeps its space.
fn tight_operator(part: &str) -> std::borrow::Cow<'_, str> {
    if !part.contains("operator") || !part.contains(char::is_whitespace) {
        return part.into();
    }
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(part.len());
    let mut chars = part.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_whitespace() {
            out.push(c);
            continue;
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if out.chars().last().is_some_and(word) && chars.peek().is_some_and(|&c| word(c)) {
            out.push(' ');
        }
    }
    out.into()
}

/// Whether the joined parts `name` end with the joined parts `wanted`, at a part boundary.
fn ends_with_parts(name: &str, wanted: &str) -> bool {
    name.strip_suffix(wanted)
        .is_some_and(|head| head.ends_with('\u{1f}'))
}

/// GitHub's anchors for the headings: lower case, punctuation dropped, spaces made
/// `-`, and `-1`, `-2`, … added to repeats.
fn anchors(symbols: &[Symbol]) -> Vec<String> {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    symbols
        .iter()
        .map(|symbol| {
            let slug: String = symbol
                .name
                .to_lowercase()
                .chars()
                .filter_map(|c| match c {
                    ' ' => Some('-'),
                    '-' | '_' => Some(c),
                    _ if c.is_alphanumeric() => Some(c),
                    _ => None,
                })
                .collect();
            let count = seen.entry(slug.clone()).or_insert(0);
            let anchor = match *count {
                0 => slug,
                n => format!("{slug}-{n}"),
            };
            *count += 1;
            anchor
        })
        .collect()
}

/// Up to [`MAX_SUGGESTIONS`] candidates nearest to `query` by edit distance (case
/// ignored), each compared by its forms (name, qualified name, anchor) and at its best;
/// only those near enough to be a likely slip, or containing the query, are offered.
fn suggest<const N: usize>(
    candidates: impl Iterator<Item = [String; N]>,
    query: &str,
) -> Vec<usize> {
    let query: Vec<char> = comparable(query);
    let limit = (query.len() / 3).max(2);
    let mut cells = 0;
    let mut near: Vec<(usize, usize)> = Vec::new();
    for (index, forms) in candidates.enumerate() {
        if cells > MAX_CELLS {
            break;
        }
        let mut best: Option<usize> = None;
        for form in forms {
            let form = comparable(&form);
            let (distance, used) = distance::within(&query, &form, limit);
            cells += used;
            let contains =
                query.len() >= 3 && form.windows(query.len()).any(|w| w == query.as_slice());
            let score = distance.or(contains.then_some(limit + 1));
            best = match (best, score) {
                (Some(b), Some(s)) => Some(b.min(s)),
                (b, s) => b.or(s),
            };
        }
        if let Some(score) = best {
            near.push((score, index));
        }
    }
    near.sort_unstable();
    near.into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, index)| index)
        .collect()
}

/// A name as suggestions compare it: lower case, separators alike, cut to
/// [`MAX_COMPARED_CHARS`].
fn comparable(name: &str) -> Vec<char> {
    name.to_lowercase()
        .replace("::", ".")
        .replace(['/', '\u{1f}'], ".")
        .chars()
        .take(MAX_COMPARED_CHARS)
        .collect()
}
