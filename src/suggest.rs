//! "Did you mean": up to three existing paths near a missing one (same folder, a case
//! difference, another extension, a small edit distance, the same name elsewhere), found
//! inside the root with bounded work.

use std::ffi::OsStr;

use crate::deny::DenyPolicy;
use crate::dir;
use crate::sandbox::{Opened, Root};

/// At most this many candidates are given.
const MAX_SUGGESTIONS: usize = 3;
/// Directory entries looked at in all, so that a huge tree costs little.
const MAX_ENTRIES: usize = 20_000;
/// How deep the search for the same name elsewhere goes.
const MAX_DEPTH: usize = 6;
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
pub fn suggestions(root: &Root, display: &str, deny: &DenyPolicy) -> Vec<String> {
    if display == "." || display.starts_with("../") || display == ".." {
        return Vec::new();
    }
    let mut budget = MAX_ENTRIES;
    let mut found: Vec<(u32, String)> = Vec::new();
    let parts: Vec<&str> = display.split('/').collect();
    near_in_parent(root, &parts, &mut budget, &mut found);
    if let Some(name) = parts.last() {
        same_name_elsewhere(root, name, &mut budget, &mut found);
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

/// The distance of `candidate` from the name asked for, or None when it is not close.
fn closeness(asked: &str, candidate: &str) -> Option<u32> {
    let candidate = candidate.strip_suffix('/').unwrap_or(candidate);
    if candidate == asked {
        return Some(0);
    }
    if candidate.to_lowercase() == asked.to_lowercase() {
        return Some(1);
    }
    let stem = |s: &str| {
        s.rsplit_once('.')
            .map_or(s.to_string(), |(stem, _)| stem.to_string())
    };
    if !stem(asked).is_empty() && stem(asked) == stem(candidate) {
        return Some(2);
    }
    let distance = strsim::damerau_levenshtein(&asked.to_lowercase(), &candidate.to_lowercase());
    let allowed = (asked.chars().count() / 4).clamp(1, 3);
    (distance <= allowed).then_some(2 + distance as u32)
}

/// Walks the path; at the first component that does not exist, tries the close names of
/// that directory, and keeps those with which the rest of the path exists.
fn near_in_parent(root: &Root, parts: &[&str], budget: &mut usize, found: &mut Vec<(u32, String)>) {
    let mut dir_path = String::new();
    for (i, part) in parts.iter().enumerate() {
        let here = join(&dir_path, part);
        let exists = root.kind_of(OsStr::new(&here)).is_some();
        if exists && i + 1 < parts.len() {
            dir_path = here;
            continue;
        }
        let rest = &parts[i + 1..];
        for entry in list(root, &dir_path, budget) {
            let Some(score) = closeness(part, &entry) else {
                continue;
            };
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
    name: &str,
    budget: &mut usize,
    found: &mut Vec<(u32, String)>,
) {
    let mut level = vec![String::new()];
    for depth in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for dir_path in &level {
            for entry in list(root, dir_path, budget) {
                let path = join(dir_path, entry.strip_suffix('/').unwrap_or(&entry));
                if let Some(score) = closeness(name, &entry).filter(|s| *s <= 2) {
                    // Nearer places first; a small penalty puts these after fixes in place.
                    found.push((score * 10 + 5 + depth as u32, path.clone()));
                }
                if entry.ends_with('/') && !SKIPPED_DIRS.contains(&entry.trim_end_matches('/')) {
                    next.push(path);
                }
            }
            if *budget == 0 {
                return;
            }
        }
        level = next;
    }
}

/// The entries of a directory inside the root, charged to the budget.
fn list(root: &Root, dir_path: &str, budget: &mut usize) -> Vec<String> {
    if *budget == 0 {
        return Vec::new();
    }
    let path = if dir_path.is_empty() { "." } else { dir_path };
    let Ok(resolved) = root.resolve(OsStr::new(path)) else {
        return Vec::new();
    };
    let Opened::Directory { fd } = resolved.opened else {
        return Vec::new();
    };
    let mut names = dir::names(&fd, *budget);
    *budget = budget.saturating_sub(names.len().max(1));
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
    use super::closeness;

    #[test]
    fn closeness_ranks_case_extension_and_typos() {
        assert_eq!(closeness("main.rs", "main.rs"), Some(0));
        assert_eq!(closeness("Main.rs", "main.rs"), Some(1));
        assert_eq!(closeness("main.py", "main.rs"), Some(2));
        assert_eq!(closeness("mian.rs", "main.rs"), Some(3));
        assert_eq!(closeness("main.rs", "lib.rs"), None);
        assert_eq!(closeness("src", "src/"), Some(0));
    }
}
