//! Directory listings (SPEC §8): entries sorted case-insensitively, directories marked
//! with `/`, links followed only when they stay inside the root.
//!
//! A page holds its own entries only: the directory is read keeping in a bounded heap
//! the names that sort before the page's end (or, for a tail, after its start), and
//! counting the rest without keeping them. A page deep in a large directory is found in
//! several reads of it, each of which passes over at most `CHUNK` more names, so that
//! memory stays bounded by the page and one chunk: a page of a directory of 500,000
//! entries takes no more memory than a page of a small one.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::ffi::OsStr;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;

use rustix::fs::{AtFlags, Dir, FileType};

use crate::error::{self, Error};
use crate::names;
use crate::read::{self, Start, Window, WindowSpec};
use crate::workspace::sandbox::{EntryKind, Root};

/// The most names held while the entries before a page are passed over.
#[cfg(not(test))]
const CHUNK: usize = 32 * 1024;
/// Small in tests, so that a page is found in several reads of a small directory.
#[cfg(test)]
const CHUNK: usize = 3;

/// One page of a directory's listing: its window and the labels of its entries.
#[derive(Debug)]
pub struct Page {
    pub window: Window,
    /// The entries shown, in order, directories suffixed with `/`.
    pub entries: Vec<String>,
}

/// The page `spec` asks for of the directory `fd`, whose path relative to the root is
/// `real` (`display` names it in errors).
// answer.rs lists directories with `entries` until it calls this (a change of its own).
pub fn page(
    root: &Root,
    fd: &OwnedFd,
    real: &str,
    display: &str,
    spec: &WindowSpec,
) -> Result<Page, Error> {
    let failed = |e: rustix::io::Errno| Error::read_failed(display, &std::io::Error::from(e));
    let (first, kept, total) = match spec.start {
        Start::Line(start) => {
            let before = usize::try_from(start - 1).unwrap_or(usize::MAX);
            let limit = usize::try_from(spec.limit).unwrap_or(usize::MAX);
            select(fd, before, limit).map_err(failed)?
        }
        Start::Tail(n) => {
            let (largest, total) = scan(
                fd,
                Side::Last,
                usize::try_from(n).unwrap_or(usize::MAX),
                None,
            )
            .map_err(failed)?;
            (total - largest.len(), largest, total)
        }
    };
    let entries: Vec<String> = kept
        .into_iter()
        .map(|entry| {
            let is_dir = is_directory(root, fd, real, &entry);
            label(&entry.name, is_dir)
        })
        .collect();
    // A name with a control character could break the one-entry-a-line listing or drive
    // the terminal that shows it (SPEC §14).
    let shown: Vec<String> = entries.iter().map(|e| names::visible(e, false)).collect();
    let window = read::entries_page(&shown, first as u64, total as u64, spec)
        .map_err(|err| error::past_the_end(&err, display, "entry", "entries"))?;
    let from = (window.start_line - 1) as usize - first.min((window.start_line - 1) as usize);
    let entries = entries
        .into_iter()
        .skip(from)
        .take(window.lines.len())
        .collect();
    Ok(Page { window, entries })
}

#[cfg(test)]
/// The entries of the directory `fd`, whose path relative to the root is `real`, sorted,
/// directories suffixed with `/`: every one of them (see [`page`] for a bounded listing).
pub fn entries(root: &Root, fd: &OwnedFd, real: &str, display: &str) -> Result<Vec<String>, Error> {
    let failed = |e: rustix::io::Errno| Error::read_failed(display, &std::io::Error::from(e));
    let (all, _) = scan(fd, Side::First, usize::MAX, None).map_err(failed)?;
    Ok(all
        .into_iter()
        .map(|entry| {
            let is_dir = is_directory(root, fd, real, &entry);
            label(&entry.name, is_dir)
        })
        .collect())
}

/// Up to `cap` entry names, unsorted, directories (not links to them) suffixed with `/`:
/// a cheap look for "did you mean".
pub fn names(fd: &OwnedFd, cap: usize) -> Vec<String> {
    let mut found = Vec::new();
    let _ = each_entry(fd, |name, file_type| {
        if found.len() >= cap {
            return false;
        }
        let file_type = match file_type {
            FileType::Unknown => type_of(fd, name),
            known => known,
        };
        found.push(label(name, file_type == FileType::Directory));
        true
    });
    found
}

/// A directory entry in listing order: case-insensitively by name, ties by exact bytes.
#[derive(Debug, PartialEq, Eq)]
struct Entry {
    key: String,
    name: Vec<u8>,
    file_type: FileType,
}

impl Entry {
    fn new(name: &[u8], file_type: FileType) -> Entry {
        Entry {
            key: sort_key(name),
            name: name.to_vec(),
            file_type,
        }
    }

    /// How this entry sorts against the one named `name`. An ASCII name is compared
    /// without building its key.
    fn cmp_name(&self, name: &[u8]) -> Ordering {
        let by_key = match name.is_ascii() {
            true => self
                .key
                .bytes()
                .cmp(name.iter().map(u8::to_ascii_lowercase)),
            false => self.key.as_str().cmp(sort_key(name).as_str()),
        };
        by_key.then_with(|| self.name.as_slice().cmp(name))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Entry) -> Ordering {
        (&self.key, &self.name).cmp(&(&other.key, &other.name))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Entry) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn sort_key(name: &[u8]) -> String {
    String::from_utf8_lossy(name).to_lowercase()
}

/// The `limit` entries after the first `before` in listing order, sorted; how many
/// entries come before them (`before`, or all when there are fewer); and the count of
/// all entries.
///
/// When the page's end lies within `CHUNK` names, one read of the directory finds it.
/// Otherwise the names on the page's nearer side are passed over `CHUNK` at a time, one
/// read each, every read keeping only the names beyond the last one passed: memory stays
/// bounded whatever the page. (An entry added or removed between two reads may shift the
/// page by one, as it would between two calls.)
fn select(
    fd: &OwnedFd,
    before: usize,
    limit: usize,
) -> Result<(usize, Vec<Entry>, usize), rustix::io::Errno> {
    let end = before.saturating_add(limit);
    if end <= CHUNK {
        let (mut kept, total) = scan(fd, Side::First, end, None)?;
        kept.drain(..before.min(kept.len()));
        return Ok((before.min(total), kept, total));
    }
    // The first read passes over the first chunk and counts the entries.
    let (mut kept, total) = scan(fd, Side::First, CHUNK.min(before), None)?;
    if before >= total {
        return Ok((total, Vec::new(), total));
    }
    let mut passed = kept.len();
    let mut bound = kept.pop();
    let after = total.saturating_sub(end);
    let side = match after < before - passed {
        // Nearer the end: pass over the entries after the page instead.
        true => {
            passed = 0;
            bound = None;
            Side::Last
        }
        false => Side::First,
    };
    let to_pass = match side {
        Side::First => before,
        Side::Last => after,
    };
    while passed < to_pass {
        let step = CHUNK.min(to_pass - passed);
        let (mut kept, _) = scan(fd, side, step, bound.as_ref())?;
        if kept.len() < step {
            // Fewer entries than counted: the directory shrank in between.
            break;
        }
        passed += step;
        bound = match side {
            Side::First => kept.pop(),
            Side::Last => Some(kept.remove(0)),
        };
    }
    let keep = match side {
        Side::First => limit,
        Side::Last => limit.min(total - before),
    };
    let (kept, all) = scan(fd, side, keep, bound.as_ref())?;
    let first = match side {
        Side::First => passed,
        Side::Last => all.saturating_sub(passed + kept.len()),
    };
    Ok((first.min(all), kept, all))
}

/// Which end of the listing a scan keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    First,
    Last,
}

/// The `keep` first (or last) entries in listing order beyond `bound` (after it for the
/// first, before it for the last; every entry without it), sorted, and the count of all
/// entries. A heap holds at most `keep` of them while the directory is read.
fn scan(
    fd: &OwnedFd,
    side: Side,
    keep: usize,
    bound: Option<&Entry>,
) -> Result<(Vec<Entry>, usize), rustix::io::Errno> {
    // The first entries are kept in a max-heap (its top is the one to drop), the last in
    // a min-heap.
    let mut first: BinaryHeap<Entry> = BinaryHeap::new();
    let mut last: BinaryHeap<Reverse<Entry>> = BinaryHeap::new();
    // How the bound, or the held entry to drop first, compares with a name that is
    // to be kept instead: before it for the first entries, after it for the last.
    let keeps = match side {
        Side::First => Ordering::Less,
        Side::Last => Ordering::Greater,
    };
    let mut total = 0;
    each_entry(fd, |name, file_type| {
        total += 1;
        if keep == 0 || bound.is_some_and(|bound| bound.cmp_name(name) != keeps) {
            return true;
        }
        let held = first.len() + last.len();
        let worst = match side {
            Side::First => first.peek(),
            Side::Last => last.peek().map(|Reverse(entry)| entry),
        };
        match worst {
            _ if held < keep => {}
            Some(worst) if worst.cmp_name(name) == keeps.reverse() => {
                first.pop();
                last.pop();
            }
            _ => return true,
        }
        let entry = Entry::new(name, file_type);
        match side {
            Side::First => first.push(entry),
            Side::Last => last.push(Reverse(entry)),
        }
        true
    })?;
    let mut kept = match side {
        Side::First => first.into_vec(),
        Side::Last => last.into_iter().map(|Reverse(entry)| entry).collect(),
    };
    kept.sort();
    Ok((kept, total))
}

/// Whether an entry is listed as a directory: a directory, or a link that leads to one
/// inside the root.
fn is_directory(root: &Root, fd: &OwnedFd, real: &str, entry: &Entry) -> bool {
    let file_type = match entry.file_type {
        FileType::Unknown => type_of(fd, &entry.name),
        known => known,
    };
    match file_type {
        FileType::Directory => true,
        FileType::Symlink => {
            let mut path = if real == "." {
                Vec::new()
            } else {
                [real.as_bytes(), b"/"].concat()
            };
            path.extend_from_slice(&entry.name);
            root.kind_of(OsStr::from_bytes(&path)) == Some(EntryKind::Directory)
        }
        _ => false,
    }
}

/// The type of an entry the directory does not record, asked of the file itself without
/// following links.
fn type_of(fd: &OwnedFd, name: &[u8]) -> FileType {
    rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW)
        .map(|st| FileType::from_raw_mode(st.st_mode))
        .unwrap_or(FileType::Unknown)
}

fn label(name: &[u8], is_dir: bool) -> String {
    let mut label = crate::names::text_of(name);
    if is_dir {
        label.push('/');
    }
    label
}

/// Calls `each` with every entry's name and recorded type (`.` and `..` left out) until
/// it returns false.
fn each_entry(
    fd: &OwnedFd,
    mut each: impl FnMut(&[u8], FileType) -> bool,
) -> Result<(), rustix::io::Errno> {
    for entry in Dir::read_from(fd)? {
        let entry = entry?;
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        if !each(name, entry.file_type()) {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::numbers::NumberStyle;

    fn spec(start: Start, limit: u64) -> WindowSpec {
        WindowSpec {
            start,
            limit,
            start_char: 1,
            max_line_chars: 2000,
            max_bytes: 51200,
            max_tokens: None,
            numbers: NumberStyle::Pipe,
            line_endings: false,
        }
    }

    /// A directory of the given names (a trailing `/` makes a directory) and its root.
    fn tree(names: &[&str]) -> (tempfile::TempDir, Root, OwnedFd) {
        let dir = tempfile::tempdir().unwrap();
        for name in names {
            match name.strip_suffix('/') {
                Some(name) => std::fs::create_dir(dir.path().join(name)).unwrap(),
                None => std::fs::write(dir.path().join(name), "x").unwrap(),
            }
        }
        let root = Root::open(dir.path(), "root").unwrap();
        let fd = match root.resolve(OsStr::new(".")).unwrap().opened {
            crate::workspace::sandbox::Opened::Directory { fd } => fd,
            other => panic!("{other:?}"),
        };
        (dir, root, fd)
    }

    const NAMES: &[&str] = &[
        "b.txt", "A.txt", "a.txt", "src/", "Zeta", "_x", "café", "CAFÉ",
    ];

    #[test]
    fn every_page_is_the_slice_of_the_full_listing() {
        let (_dir, root, fd) = tree(NAMES);
        let all = entries(&root, &fd, ".", ".").unwrap();
        assert_eq!(
            all,
            [
                "_x", "A.txt", "a.txt", "b.txt", "CAFÉ", "café", "src/", "Zeta"
            ]
        );
        for start in 1..=all.len() as u64 {
            for limit in 1..=all.len() as u64 + 1 {
                let page = page(&root, &fd, ".", ".", &spec(Start::Line(start), limit)).unwrap();
                let from = start as usize - 1;
                let to = (from + limit as usize).min(all.len());
                assert_eq!(page.entries, all[from..to], "start {start} limit {limit}");
                assert_eq!(page.window.total_lines, all.len() as u64);
                assert_eq!(page.window.lines_read(), (to - from) as u64);
                assert_eq!(page.window.truncated(), to < all.len());
                let shown: Vec<String> = all[from..to]
                    .iter()
                    .enumerate()
                    .map(|(i, n)| format!("{:>4} | {n}\n", from + i + 1))
                    .collect();
                assert_eq!(
                    String::from_utf8_lossy(&page.window.content),
                    shown.concat()
                );
            }
        }
        for n in 1..=all.len() as u64 + 2 {
            let page = page(&root, &fd, ".", ".", &spec(Start::Tail(n), n)).unwrap();
            let from = all.len().saturating_sub(n as usize);
            assert_eq!(page.entries, all[from..], "tail {n}");
            assert_eq!(page.window.start_line, from as u64 + 1);
        }
    }

    #[test]
    fn a_page_past_the_end_says_how_many_entries_there_are() {
        let (_dir, root, fd) = tree(NAMES);
        let err = page(&root, &fd, ".", "d", &spec(Start::Line(10), 5)).unwrap_err();
        assert_eq!(
            err.message,
            "start_line 10 is past the end of 'd' (8 entries; valid: 1-8)."
        );
        let (_dir, root, fd) = tree(&[]);
        let page = page(&root, &fd, ".", "d", &spec(Start::Line(1), 5)).unwrap();
        assert_eq!((page.window.total_lines, page.entries.len()), (0, 0));
    }

    #[test]
    fn a_deep_page_is_found_in_reads_that_each_hold_one_chunk() {
        let names: Vec<String> = (0..40).map(|i| format!("e{:02}", (i * 7) % 40)).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let (_dir, _root, fd) = tree(&refs);
        let (all, _) = scan(&fd, Side::First, usize::MAX, None).unwrap();
        let all: Vec<Vec<u8>> = all.into_iter().map(|e| e.name).collect();
        for before in 0..45 {
            for limit in [1, 2, 5] {
                let (first, kept, total) = select(&fd, before, limit).unwrap();
                assert_eq!(total, 40);
                assert_eq!(first, before.min(40), "before {before}");
                let kept: Vec<Vec<u8>> = kept.into_iter().map(|e| e.name).collect();
                let want = &all[before.min(40)..(before + limit).min(40)];
                assert_eq!(kept, want, "before {before} limit {limit}");
            }
        }
    }

    #[test]
    fn the_heap_keeps_no_more_than_the_page_needs() {
        let names: Vec<String> = (0..300).map(|i| format!("n{:03}", (i * 7) % 300)).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let (_dir, _root, fd) = tree(&refs);
        let (kept, total) = scan(&fd, Side::First, 3, None).unwrap();
        assert_eq!(total, 300);
        let kept: Vec<&[u8]> = kept.iter().map(|e| e.name.as_slice()).collect();
        assert_eq!(kept, [&b"n000"[..], b"n001", b"n002"]);
        let (kept, _) = scan(&fd, Side::Last, 2, None).unwrap();
        let kept: Vec<&[u8]> = kept.iter().map(|e| e.name.as_slice()).collect();
        assert_eq!(kept, [&b"n298"[..], b"n299"]);
    }
}
