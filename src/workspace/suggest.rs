//! "Did you mean": up to three existing paths near a missing one (same folder, a case
//! difference, another extension, a small edit distance, the same name elsewhere), found
//! inside the root with bounded work.

use std::ffi::OsStr;

use crate::workspace::deny::DenyPolicy;
use crate::workspace::dir;
use crate::workspace::sandbox::{Opened, Root};

/// At most this many candidates are given.
const MAX_SUGGESTIONS: usize = 3;
/// Directory entries looked at in all, so that a huge tree costs little.
const MAX_ENTRIES: usize = 20_000;
/// Directories listed in all (the missing name's own and the search elsewhere): each
/// costs a walk from the root, so a tree of many small directories costs little too.
const MAX_DIRS: usize = 500;
/// Components of the asked path walked to find where it stops existing: each step
/// resolves from the root again, so a path thousands of directories deep is not walked.
const MAX_COMPONENTS: usize = 64;
/// Close names whose fixed path is checked to exist (each check walks the path again).
const MAX_CHECKED: usize = 16;
/// How deep the search for the same name elsewhere goes.
const MAX_DEPTH: usize = 6;
/// The most edits between a name and a candidate (fewer for short names).
const MAX_EDITS: usize = 3;
/// Directories never searched for the same name elsewhere.
const SKIPPED_DIRS: &[&str] = &[
    ".git",
    "node_modules",
    "target",
    ".hg",
    ".svn",
    "__pycache__",
    ".venv",
];

/// Candidates for the missing path `display` (relative to the root, cleaned).
/// Files the deny policy refuses are never offered.
///
/// The work is bounded whatever the name or the tree: at most `MAX_ENTRIES` names
/// compared and `MAX_DIRS` directories listed, a name compared only with names of about
/// its length, by an edit distance that stops at `MAX_EDITS`.
pub fn suggestions(root: &Root, display: &str, deny: &DenyPolicy) -> Vec<String> {
    if display == "." || display.starts_with("../") || display == ".." {
        return Vec::new();
    }
    let mut budget = Budget {
        entries: MAX_ENTRIES,
        dirs: MAX_DIRS,
    };
    let mut found: Vec<(u32, String)> = Vec::new();
    let parts: Vec<&str> = display.split('/').collect();
    near_in_parent(root, &parts, &mut budget, &mut found);
    if let Some(name) = parts.last() {
        same_name_elsewhere(root, &Asked::new(name), &mut budget, &mut found);
    }
    found.sort();
    let mut out: Vec<String> = Vec::new();
    for (_, path) in found {
        let denied = !path.ends_with('/') && deny.denying(std::path::Path::new(&path)).is_some();
        if path != display && !out.contains(&path) && !denied {
            out.push(path);
        }
        if out.len() == MAX_SUGGESTIONS {
            break;
        }
    }
    out
}

/// What is left of the search's work.
struct Budget {
    entries: usize,
    dirs: usize,
}

/// The name asked for, with what every comparison needs computed once.
struct Asked<'a> {
    name: &'a str,
    lower: String,
    lower_chars: Vec<char>,
    stem: &'a str,
    /// The most edits a candidate may be away.
    allowed: usize,
}

impl<'a> Asked<'a> {
    fn new(name: &'a str) -> Asked<'a> {
        let lower = name.to_lowercase();
        let lower_chars: Vec<char> = lower.chars().collect();
        let allowed = (name.chars().count() / 4).clamp(1, MAX_EDITS);
        Asked {
            name,
            lower,
            lower_chars,
            stem: stem(name),
            allowed,
        }
    }

    /// The distance of `candidate` from the name asked for, or None when it is not close.
    fn closeness(&self, candidate: &str) -> Option<u32> {
        let candidate = candidate.strip_suffix('/').unwrap_or(candidate);
        if candidate == self.name {
            return Some(0);
        }
        let lower = candidate.to_lowercase();
        if lower == self.lower {
            return Some(1);
        }
        if !self.stem.is_empty() && self.stem == stem(candidate) {
            return Some(2);
        }
        // Each test so far is linear; the edit distance is too, within its band, and
        // names whose lengths differ by more than the edits allowed are not compared at
        // all (a name asked for can be 4096 bytes long).
        let lower: Vec<char> = lower.chars().collect();
        let distance = edit_distance_within(&self.lower_chars, &lower, self.allowed)?;
        Some(2 + distance as u32)
    }
}

/// A name without its last extension.
fn stem(name: &str) -> &str {
    name.rsplit_once('.').map_or(name, |(stem, _)| stem)
}

/// The distance of `a` from `b` in edits (insertions, deletions, substitutions and
/// swaps of two neighbours: the optimal string alignment distance), when it is at most
/// `max`; None otherwise. Only the band of `2 * max + 1` diagonals is computed, and the
/// computation stops as soon as a row exceeds `max`: O(len × max), whatever the lengths.
fn edit_distance_within(a: &[char], b: &[char], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    // What both begin and end with takes no edit: only the middle is compared.
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
    let far = max + 1;
    let width = b.len() + 1;
    // Three rows: two back (for swaps), the previous one, the current one. Only each
    // row's band is written, and the cell on either side of it set to `far`: the bands
    // move by one a row, so those are the only cells outside a band that the next rows
    // read.
    let mut before = vec![far; width];
    let mut previous: Vec<usize> = (0..width).map(|j| j.min(far)).collect();
    let mut current = vec![far; width];
    for i in 1..=a.len() {
        let from = i.saturating_sub(max).max(1);
        let to = (i + max).min(b.len());
        current[0] = i.min(far);
        if from > 1 {
            current[from - 1] = far;
        }
        let mut best = match from {
            1 => current[0],
            _ => far,
        };
        for j in from..=to {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (previous[j - 1] + cost)
                .min(previous[j] + 1)
                .min(current[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            current[j] = d.min(far);
            best = best.min(current[j]);
        }
        if to < b.len() {
            current[to + 1] = far;
        }
        if best > max {
            return None;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    let distance = previous[b.len()];
    (distance <= max).then_some(distance)
}

/// Walks the path; at the first component that does not exist, tries the close names of
/// that directory, and keeps those with which the rest of the path exists.
fn near_in_parent(
    root: &Root,
    parts: &[&str],
    budget: &mut Budget,
    found: &mut Vec<(u32, String)>,
) {
    if parts.len() > MAX_COMPONENTS {
        return;
    }
    let mut dir_path = String::new();
    for (i, part) in parts.iter().enumerate() {
        let here = join(&dir_path, part);
        let exists = root.kind_of(OsStr::new(&here)).is_some();
        if exists && i + 1 < parts.len() {
            dir_path = here;
            continue;
        }
        let rest = &parts[i + 1..];
        let asked = Asked::new(part);
        let mut close: Vec<(u32, String)> = list(root, &dir_path, budget)
            .into_iter()
            .filter_map(|entry| Some((asked.closeness(&entry)?, entry)))
            .collect();
        close.sort();
        for (score, entry) in close.into_iter().take(MAX_CHECKED) {
            let fixed = join(&dir_path, entry.strip_suffix('/').unwrap_or(&entry));
            let candidate = rest.iter().fold(fixed, |path, p| join(&path, p));
            if rest.is_empty() || root.kind_of(OsStr::new(&candidate)).is_some() {
                found.push((score, candidate));
            }
        }
        return;
    }
}

/// A bounded breadth-first search of the tree for entries named like `name`.
fn same_name_elsewhere(
    root: &Root,
    name: &Asked<'_>,
    budget: &mut Budget,
    found: &mut Vec<(u32, String)>,
) {
    let mut level = vec![String::new()];
    for depth in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for dir_path in &level {
            for entry in list(root, dir_path, budget) {
                let path = join(dir_path, entry.strip_suffix('/').unwrap_or(&entry));
                if let Some(score) = name.closeness(&entry).filter(|s| *s <= 2) {
                    // Nearer places first; a small penalty puts these after fixes in place.
                    found.push((score * 10 + 5 + depth as u32, path.clone()));
                }
                if entry.ends_with('/') && !SKIPPED_DIRS.contains(&entry.trim_end_matches('/')) {
                    next.push(path);
                }
            }
            if budget.entries == 0 || budget.dirs == 0 {
                return;
            }
        }
        level = next;
    }
}

/// The entries of a directory inside the root, charged to the budget.
fn list(root: &Root, dir_path: &str, budget: &mut Budget) -> Vec<String> {
    if budget.entries == 0 || budget.dirs == 0 {
        return Vec::new();
    }
    budget.dirs -= 1;
    let path = if dir_path.is_empty() { "." } else { dir_path };
    let Ok(resolved) = root.resolve(OsStr::new(path)) else {
        return Vec::new();
    };
    let Opened::Directory { fd } = resolved.opened else {
        return Vec::new();
    };
    let mut names = dir::names(&fd, budget.entries);
    budget.entries = budget.entries.saturating_sub(names.len().max(1));
    names.sort();
    names
}

fn join(dir: &str, name: &str) -> String {
    match dir.is_empty() {
        true => name.to_string(),
        false => format!("{dir}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn closeness(asked: &str, candidate: &str) -> Option<u32> {
        Asked::new(asked).closeness(candidate)
    }

    #[test]
    fn closeness_ranks_case_extension_and_typos() {
        assert_eq!(closeness("main.rs", "main.rs"), Some(0));
        assert_eq!(closeness("Main.rs", "main.rs"), Some(1));
        assert_eq!(closeness("main.py", "main.rs"), Some(2));
        assert_eq!(closeness("mian.rs", "main.rs"), Some(3));
        assert_eq!(closeness("main.rs", "lib.rs"), None);
        assert_eq!(closeness("src", "src/"), Some(0));
    }

    #[test]
    fn names_of_very_different_lengths_are_not_compared() {
        let long = "a".repeat(4000);
        assert_eq!(closeness(&long, "a"), None);
        assert_eq!(closeness(&long, &"a".repeat(255)), None);
        assert_eq!(closeness("a", &long), None);
        // Only a case difference, however long: still found.
        assert_eq!(closeness(&long.to_uppercase(), &long), Some(1));
    }

    /// The whole optimal-string-alignment table, for reference.
    fn osa(a: &[char], b: &[char]) -> usize {
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                d[i][j] = (d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[a.len()][b.len()]
    }

    proptest! {
        #[test]
        fn the_banded_distance_is_the_full_one_when_within_the_bound(
            a in "[abc]{0,12}",
            b in "[abc]{0,12}",
            max in 0usize..5,
        ) {
            let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let full = osa(&a, &b);
            let banded = edit_distance_within(&a, &b, max);
            prop_assert_eq!(banded, (full <= max).then_some(full));
        }
    }
}
