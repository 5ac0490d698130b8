//! A directory's outline (SPEC §15): the source files under it, each a line with its path
//! and then its top-level symbols and their children, paged as lines like any window.
//!
//! The walk (the `ignore` crate: what `.gitignore` files exclude and `.git` skipped, the
//! deny policy applied) runs lazily in listing order; files are parsed a batch at a time on every
//! core and their lines produced in order, as a stream the window reader pages. Memory
//! is one batch plus the page, however large the tree.

use std::collections::VecDeque;
use std::ffi::OsStr;
use std::io::Read;
use std::ops::RangeInclusive;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::answer::maps::{Known, NotParsed, Previous, PreviousFile, Recorder};
use crate::args::request::Request;
use crate::outcome::{MapFile, SymbolInfo};
use crate::structure::Language;
use crate::workspace::sandbox::Opened;

/// Files parsed together, one batch after another.
const BATCH: usize = 64;
/// A file over this size is listed without its symbols, as `--outline` would refuse it.
use crate::answer::structured::{MAX_PARSE_BYTES, PARSE_BUDGET};
use crate::read::bytes;

/// The map's lines as a stream, and the files whose lines fall in `keep`.
pub struct MapReader<'r> {
    request: &'r Request,
    walk: ignore::Walk,
    /// The directory's path on disk, and relative to the root.
    base: PathBuf,
    pending: VecDeque<u8>,
    /// The map's line the next produced line will be.
    line: u64,
    keep: RangeInclusive<u64>,
    /// Files with a line in `keep`, and the map line of each file's path line.
    pub files: Vec<(u64, MapFile)>,
    /// How many files of the whole map are listed without their symbols.
    pub not_parsed: u64,
    done: bool,
    /// The whole map as it is made, to be kept for the pages after this one.
    recorder: Option<Recorder>,
    /// What the map kept before knew of the files, if there is one.
    previous: Option<Previous>,
}

/// A source file to list: its path relative to the root as shown and as it is, its
/// language by name, and its `stat` when the map is kept.
struct Listed {
    path: String,
    raw: Vec<u8>,
    language: Language,
    stat: Option<Vec<u8>>,
}

impl Listed {
    /// The file's size as its `stat` words say (`DEV INO SIZE …`), 0 when not known.
    fn size(&self) -> u64 {
        let words = self.stat.as_deref().unwrap_or_default();
        let size = words.split(|&b| b == b' ').nth(2).unwrap_or_default();
        std::str::from_utf8(size)
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }
}

/// The directories where a version control keeps its own files, which a map skips.
const VCS_DIRECTORIES: [&[u8]; 4] = [b".git", b".hg", b".svn", b".jj"];

impl<'r> MapReader<'r> {
    /// The map of the directory `real` (relative to the root); the files whose lines lie
    /// in `keep` are kept for `data.files`.
    pub fn new(
        request: &'r Request,
        real: &str,
        keep: RangeInclusive<u64>,
        previous: Option<Previous>,
    ) -> MapReader<'r> {
        let base = request.root.path_of(real);
        let deny_root = request.root.path_of("");
        let settings = request.settings.clone();
        let walk = ignore::WalkBuilder::new(&base)
            // .gitignore files count in any tree, repository or not; only those inside
            // the walk do: not a parent directory's, nor the user's global ignore file, so
            // that the map does not depend on the machine.
            .require_git(false)
            .parents(false)
            .git_global(false)
            .follow_links(false)
            // Hidden files are sources like any other (SPEC §15 skips only what ignore
            // files and the deny policy exclude); a version control's own directory is
            // not the tree's.
            .hidden(false)
            .sort_by_file_path(listing_cmp)
            .filter_entry(move |entry| {
                if entry.depth() > 0
                    && entry.file_type().is_some_and(|t| t.is_dir())
                    && VCS_DIRECTORIES.contains(&entry.file_name().as_encoded_bytes())
                {
                    return false;
                }
                let relative = entry
                    .path()
                    .strip_prefix(&deny_root)
                    .unwrap_or(entry.path());
                settings.deny.denying(relative).is_none()
            })
            .build();
        MapReader {
            request,
            walk,
            base: request.root.path_of(""),
            pending: VecDeque::new(),
            line: 1,
            keep,
            files: Vec::new(),
            not_parsed: 0,
            done: false,
            recorder: request.settings.cache.then(Recorder::new),
            previous,
        }
    }

    /// Keeps the map under `key` if it was read whole.
    pub fn keep(self, key: &str) {
        if let Some(recorder) = self.recorder
            && self.done
            && self.pending.is_empty()
        {
            recorder.keep(self.request, key);
        }
    }

    /// The next batch of source files in listing order, relative to the root.
    fn next_batch(&mut self) -> Vec<Listed> {
        let mut batch = Vec::new();
        while batch.len() < BATCH {
            let Some(entry) = self.walk.next() else {
                self.done = true;
                break;
            };
            // Unreadable directories and broken entries are left out, as a listing would.
            let Ok(entry) = entry else { continue };
            let Some(kind) = entry.file_type() else {
                continue;
            };
            let raw = entry
                .path()
                .strip_prefix(&self.base)
                .unwrap_or(entry.path())
                .as_os_str()
                .as_bytes();
            if kind.is_dir() {
                if let Some(recorder) = &mut self.recorder {
                    recorder.directory(&self.base, raw);
                }
                continue;
            }
            if !(kind.is_file() || kind.is_symlink()) {
                continue;
            }
            let relative = crate::workspace::sandbox::display_path(raw);
            let name = relative.rsplit('/').next().unwrap_or(&relative);
            // By name; a regular file without an extension by its `#!` line.
            let by_name = name.rfind('.').is_some_and(|dot| dot > 0);
            let named = by_name.then(|| Language::detect(name, b"")).flatten();
            let by_first_line = !by_name && kind.is_file();
            // The `stat` of what the map reads, before it is read, is kept with the map.
            let stat = match &mut self.recorder {
                Some(recorder) if named.is_some() || by_first_line => {
                    Some(recorder.file(&self.base, raw))
                }
                _ => None,
            };
            let language = match by_first_line {
                true => Language::detect(name, &first_line(entry.path())),
                false => named,
            };
            if let Some(language) = language {
                batch.push(Listed {
                    path: relative,
                    raw: raw.to_vec(),
                    language,
                    stat,
                });
            }
        }
        batch
    }

    /// Parses a batch on every core and appends its lines in order.
    fn produce(&mut self) {
        let batch = self.next_batch();
        let outlines = parse_all(self.request, &batch, self.previous.as_ref());
        for (Listed { path, .. }, found) in batch.into_iter().zip(outlines) {
            // What cannot be opened inside the root, or is denied, is not listed.
            let Some((language, symbols, hash)) = found else {
                continue;
            };
            let (symbols, not_parsed) = match symbols {
                Ok(symbols) => (symbols, None),
                Err(why) => (Vec::new(), Some(why)),
            };
            let first = self.line;
            let shown: Vec<&Shown> = symbols.iter().filter(|s| s.depth <= 1).collect();
            let last = first + shown.len() as u64 + u64::from(not_parsed.is_some());
            let wanted = first <= *self.keep.end() && *self.keep.start() <= last;
            self.push_line(path.as_bytes());
            if let Some(why) = not_parsed {
                self.not_parsed += 1;
                self.push_line(format!("  (not parsed: {})", why.words()).as_bytes());
            }
            let width = shown
                .iter()
                .map(|s| digits(s.start_line) + 1 + digits(s.end_line))
                .max()
                .unwrap_or(0);
            for symbol in &shown {
                let range = format!("{}-{}", symbol.start_line, symbol.end_line);
                let mut line = format!("  {range:>width$} | ").into_bytes();
                line.extend_from_slice(&symbol.text);
                self.push_line(&line);
            }
            if wanted || self.recorder.is_some() {
                let symbols = shown
                    .iter()
                    .map(|s| SymbolInfo {
                        name: Some(s.name.clone()),
                        qualified_name: Some(s.qualified_name.clone()),
                        kind: s.kind,
                        start_line: s.start_line,
                        end_line: s.end_line,
                        depth: Some(s.depth),
                    })
                    .collect();
                let file = MapFile {
                    path,
                    language: language.name(),
                    not_parsed: not_parsed.map(NotParsed::name),
                    symbols,
                };
                if let Some(recorder) = &mut self.recorder {
                    recorder.listed(first, &file, hash.as_deref());
                }
                if wanted {
                    self.files.push((first, file));
                }
            }
        }
    }

    fn push_line(&mut self, text: &[u8]) {
        // A path or a definition with a newline of its own would split the line.
        self.pending
            .extend(text.iter().map(|&b| if b == b'\n' { b' ' } else { b }));
        self.pending.push_back(b'\n');
        self.line += 1;
        if let Some(recorder) = &mut self.recorder {
            let start = self.pending.len() - text.len() - 1;
            let line: Vec<u8> = self.pending.range(start..).copied().collect();
            recorder.line(&line);
        }
    }
}

impl Read for MapReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pending.is_empty() && !self.done {
            self.produce();
        }
        let n = self.pending.len().min(buf.len());
        for (slot, byte) in buf.iter_mut().zip(self.pending.drain(..n)) {
            *slot = byte;
        }
        Ok(n)
    }
}

/// A symbol as the map shows it: its names, lines and its definition's line, as text.
struct Shown {
    name: String,
    qualified_name: String,
    kind: &'static str,
    start_line: u64,
    end_line: u64,
    depth: u32,
    text: Vec<u8>,
}

/// The symbols of each file of `batch` (none for a file that cannot be read or parsed),
/// parsed on every core.
fn parse_all(
    request: &Request,
    batch: &[Listed],
    previous: Option<&Previous>,
) -> Vec<Option<Outlined>> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(batch.len());
    if workers <= 1 {
        return batch
            .iter()
            .map(|listed| symbols_of(request, listed, previous))
            .collect();
    }
    // Biggest first (by the size a kept map's `stat` gives; else in listing order): a batch
    // then ends on small files, and no core waits long for the other to finish a big one
    // (the files' lines are put back in order below).
    let mut order: Vec<usize> = (0..batch.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(batch[i].size()));
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            done.push((i, symbols_of(request, &batch[i], previous)));
        }
        done
    };
    // This thread is one of the workers: one thread (and malloc arena) fewer to start.
    let mut results: Vec<(usize, Option<Outlined>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..workers).map(|_| scope.spawn(work)).collect();
        let mut results = work();
        // A worker's panic is this thread's: the map is not answered short of its files.
        for handle in handles {
            match handle.join() {
                Ok(done) => results.extend(done),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        results
    });
    results.sort_by_key(|(i, _)| *i);
    let mut out: Vec<Option<Outlined>> = (0..batch.len()).map(|_| None).collect();
    for (i, symbols) in results {
        out[i] = symbols;
    }
    out
}

/// A file's language, known once its bytes are (a `.h` file may be C++), its symbols or
/// why it was not parsed, and the BLAKE3 of the bytes they come from (none when it was
/// not read).
type Outlined = (Language, Result<Vec<Shown>, NotParsed>, Option<String>);

/// The file as the map kept before listed it.
fn as_before(before: &PreviousFile, hash: Option<String>) -> Option<Outlined> {
    let language = Language::named(before.file.language)?;
    let hash = hash.or_else(|| before.hash.clone());
    if let Some(name) = before.file.not_parsed {
        return Some((language, Err(NotParsed::named(name)?), hash));
    }
    let shown = before
        .file
        .symbols
        .iter()
        .zip(&before.texts)
        .map(|(s, text)| Shown {
            name: s.name.clone().unwrap_or_default(),
            qualified_name: s.qualified_name.clone().unwrap_or_default(),
            kind: s.kind,
            start_line: s.start_line,
            end_line: s.end_line,
            depth: s.depth.unwrap_or(0),
            text: text.clone(),
        })
        .collect();
    Some((language, Ok(shown), hash))
}

/// One file's top-level symbols and their children, opened through the sandbox (so a
/// link cannot lead out, and the deny policy applies to what it leads to). None: the
/// file is not to be listed; else its symbols, or why it was not parsed. A file the map
/// kept before knew, by its `stat` or by its bytes, is listed as it was.
fn symbols_of(request: &Request, listed: &Listed, previous: Option<&Previous>) -> Option<Outlined> {
    let Listed {
        path,
        raw,
        language,
        stat,
    } = listed;
    let language = *language;
    if let (Some(previous), Some(stat)) = (previous, stat) {
        match previous.by_stat(raw, path, stat) {
            Known::Listed(before) => {
                if let Some(outlined) = as_before(before, None) {
                    return Some(outlined);
                }
            }
            Known::Unlisted => return None,
            Known::Unknown => {}
        }
    }
    let resolved = request.root.resolve(OsStr::new(path)).ok()?;
    let denied = resolved.passed.iter().any(|p| {
        request
            .settings
            .deny
            .denying(Path::new(OsStr::from_bytes(p)))
            .is_some()
    });
    let Opened::File { file, stat: opened } = resolved.opened else {
        return None;
    };
    if denied {
        return None;
    }
    let size = u64::try_from(opened.st_size).unwrap_or(0);
    let bytes = match crate::read::up_to(&file, MAX_PARSE_BYTES, size) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Some((language, Err(NotParsed::TooLarge), None)),
        Err(_) => return Some((language, Err(NotParsed::Unreadable), None)),
    };
    let hash = stat
        .is_some()
        .then(|| blake3::hash(&bytes).to_hex().to_string());
    if let (Some(previous), Some(hash)) = (previous, &hash)
        && let Some(before) = previous.by_hash(path, hash)
        && let Some(outlined) = as_before(before, Some(hash.clone()))
    {
        return Some(outlined);
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    let language = Language::detect(name, &bytes).unwrap_or(language);
    if crate::read::sniff::classify_whole(&bytes, name, request.encoding).is_err() {
        return Some((language, Err(NotParsed::Binary), hash));
    }
    // What the map parses is kept with the map, not one entry a file.
    let outline =
        match crate::answer::outlines::outline_unkept(request, language, &bytes, PARSE_BUDGET) {
            Ok(outline) => outline,
            Err(error) => return Some((language, Err(error.into()), hash)),
        };
    let lines: Vec<&[u8]> = crate::read::split_lines(&bytes).collect();
    let shown = outline
        .symbols
        .iter()
        .filter(|s| s.depth <= 1)
        .map(|symbol| {
            let raw = lines
                .get(symbol.def_line as usize - 1)
                .copied()
                .unwrap_or_default();
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let text = crate::answer::structured::cut(
                &String::from_utf8_lossy(raw),
                request.settings.max_line_chars,
            )
            .into_bytes();
            Shown {
                name: symbol.name.clone(),
                qualified_name: symbol.qualified_name.clone(),
                kind: symbol.kind,
                start_line: symbol.start_line,
                end_line: symbol.end_line,
                depth: symbol.depth,
                text,
            }
        })
        .collect();
    Some((language, Ok(shown), hash))
}

/// The first line of a regular file, up to 256 bytes (for its `#!`). Opened without
/// blocking, should it have become a FIFO since the walk saw it.
fn first_line(path: &Path) -> Vec<u8> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut head = vec![0u8; 256];
    let n = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    head.truncate(n);
    let end = bytes::find(b'\n', &head).unwrap_or(head.len());
    head.truncate(end);
    head
}

/// Entries sort as a listing sorts them: by name, case ignored.
/// [`listing_order`] without allocating for ASCII names: a directory of 500,000 entries
/// is sorted with 20 comparisons an entry.
fn listing_cmp(a: &Path, b: &Path) -> std::cmp::Ordering {
    let (x, y) = (
        a.file_name().unwrap_or(a.as_os_str()).as_bytes(),
        b.file_name().unwrap_or(b.as_os_str()).as_bytes(),
    );
    if x.is_ascii() && y.is_ascii() {
        x.iter()
            .map(u8::to_ascii_lowercase)
            .cmp(y.iter().map(u8::to_ascii_lowercase))
            .then_with(|| x.cmp(y))
    } else {
        listing_order(a).cmp(&listing_order(b))
    }
}

fn listing_order(path: &Path) -> (String, Vec<u8>) {
    let name = path.file_name().unwrap_or(path.as_os_str()).as_bytes();
    (String::from_utf8_lossy(name).to_lowercase(), name.to_vec())
}

fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_file_is_as_big_as_its_stat_words_say() {
        let listed = |stat: Option<&[u8]>| Listed {
            path: "a.rs".into(),
            raw: b"a.rs".to_vec(),
            language: Language::Rust,
            stat: stat.map(<[u8]>::to_vec),
        };
        let words: &[u8] = b"2049 1234 56789 1700000000.5 1700000000.5";
        assert_eq!(listed(Some(words)).size(), 56789);
        assert_eq!(listed(Some(b"-")).size(), 0);
        assert_eq!(listed(None).size(), 0);
    }
}
