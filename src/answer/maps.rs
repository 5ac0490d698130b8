//! Whole directory maps kept between pages (SPEC §15 "A map costs one parse per file,
//! ever"): a map's every page needs the whole map (its total line count), so the first
//! page read of a tree keeps the map it made, with what it was made from, and a later
//! page reuses it when nothing it was made from has changed.
//!
//! What a map is made from is told by `stat`, not by reading: each directory the walk
//! entered (an added, removed or renamed entry changes its time), the ignore files that
//! steer the walk, and each file listed or looked at for its `#!` line, by device,
//! inode, size, modification and change time (a write changes the change time, which no
//! one can set back). A map made while any of these times was within [`SETTLE`] of the
//! clock is not kept: a write in the same clock tick as the read it follows could leave
//! them as they were.
//!
//! An entry: its build line and key, the sizes of its parts (so that a page reads only
//! the parts it needs), the `stat` lines, the files' lines (where each
//! file's path line is in the map, how many symbols it shows, and its `data.files` JSON),
//! and the map's text. Kept as the outlines are: in the MCP server's memory, and for the
//! command line in the cache directory, written atomically.

use std::collections::{HashMap, VecDeque};
use std::ffi::OsStr;
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use rustix::fs::{AtFlags, Mode as FileMode, OFlags};

use crate::args::request::{Mode, Request};
use crate::outcome::{MapFile, SymbolInfo};
use crate::read::bytes;
use crate::structure::{Language, OutlineError, kind_named};

/// Why a file of the map is listed without its symbols.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotParsed {
    /// Larger than the most that is parsed.
    TooLarge,
    /// Reading it failed.
    Unreadable,
    /// Its bytes are not text.
    Binary,
    /// The parse's time budget ran out.
    Timeout,
    /// The parse's tree would pass the memory it may take.
    Memory,
    /// It defines more symbols than an outline holds.
    TooManySymbols,
    /// The parser refused it.
    Unparsable,
}

impl NotParsed {
    const ALL: [NotParsed; 7] = [
        NotParsed::TooLarge,
        NotParsed::Unreadable,
        NotParsed::Binary,
        NotParsed::Timeout,
        NotParsed::Memory,
        NotParsed::TooManySymbols,
        NotParsed::Unparsable,
    ];

    /// `data.files[].not_parsed`.
    pub fn name(self) -> &'static str {
        match self {
            NotParsed::TooLarge => "too_large",
            NotParsed::Unreadable => "unreadable",
            NotParsed::Binary => "binary",
            NotParsed::Timeout => "timeout",
            NotParsed::Memory => "memory",
            NotParsed::TooManySymbols => "too_many_symbols",
            NotParsed::Unparsable => "unparsable",
        }
    }

    /// The reason whose [`NotParsed::name`] is `name`.
    pub fn named(name: &str) -> Option<NotParsed> {
        NotParsed::ALL.into_iter().find(|why| why.name() == name)
    }

    /// The map's line under the file's path.
    pub fn words(self) -> &'static str {
        match self {
            NotParsed::TooLarge => "larger than 8 MiB",
            NotParsed::Unreadable => "it could not be read",
            NotParsed::Binary => "it is not text",
            NotParsed::Timeout => "parsing took more than 2 s",
            NotParsed::Memory => "its syntax tree would take more than 112 MiB",
            NotParsed::TooManySymbols => "it defines too many symbols to list",
            NotParsed::Unparsable => "the parser refused it",
        }
    }
}

impl From<OutlineError> for NotParsed {
    fn from(error: OutlineError) -> NotParsed {
        match error {
            OutlineError::Timeout => NotParsed::Timeout,
            OutlineError::Memory => NotParsed::Memory,
            OutlineError::TooLarge => NotParsed::TooManySymbols,
            OutlineError::Unparsable => NotParsed::Unparsable,
        }
    }
}

/// What the first line of an entry starts with: the format, which a change of it renews.
const MAGIC: &str = "agentread-map 2";
/// A map larger than this (its text and files) is not kept.
const MAX_BYTES: usize = 16 << 20;
/// The MCP server keeps maps of at most this many bytes in all.
const MEMORY_BYTES: usize = 64 << 20;
/// How long after the last change to what a map is made from it may be kept.
const SETTLE: Duration = Duration::from_secs(2);

/// The files beside a directory's entries that steer the walk, and the directories that
/// hold one. Only those there are kept: one added changes the `stat` of the directory
/// that holds it.
const IGNORE_FILES: [&str; 5] = [
    ".gitignore",
    ".ignore",
    ".git",
    ".git/info",
    ".git/info/exclude",
];

/// A map being made, as the walk and the map's lines come.
pub struct Recorder {
    stats: Vec<u8>,
    files: Vec<u8>,
    text: Vec<u8>,
    /// How many listed files show no symbols.
    not_parsed: u64,
    stater: Stater,
    /// What was changed at or after this time (in seconds) is kept as changed.
    settled: i64,
    /// Whether the map can still be kept (not too large, no path it cannot write).
    whole: bool,
}

impl Recorder {
    pub fn new() -> Recorder {
        let now = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Recorder {
            stats: Vec::new(),
            files: Vec::new(),
            text: Vec::new(),
            not_parsed: 0,
            stater: Stater::default(),
            settled: i64::try_from(now.saturating_sub(SETTLE.as_secs())).unwrap_or(0),
            whole: true,
        }
    }

    /// A directory the walk enters (`relative` to the root), before it reads it.
    pub fn directory(&mut self, base: &Path, relative: &[u8]) {
        self.stat(base, relative);
        for name in IGNORE_FILES {
            let mut path = relative.to_vec();
            if !path.is_empty() {
                path.push(b'/');
            }
            path.extend_from_slice(name.as_bytes());
            let (line, newest) = self.stater.stat(base, &path);
            if line != b"-" {
                self.record(&path, line, newest);
            }
        }
    }

    /// A file the map lists or looks into (`relative` to the root), before it is read:
    /// its `stat` now.
    pub fn file(&mut self, base: &Path, relative: &[u8]) -> Vec<u8> {
        self.stat(base, relative)
    }

    fn stat(&mut self, base: &Path, relative: &[u8]) -> Vec<u8> {
        let (line, newest) = self.stater.stat(base, relative);
        self.record(relative, line, newest)
    }

    /// Keeps `relative`'s `stat` words `line`, whose latest time is `newest`; returns
    /// them.
    fn record(&mut self, relative: &[u8], line: Vec<u8>, newest: i64) -> Vec<u8> {
        if !self.whole {
            return line;
        }
        if relative.contains(&b'\n') {
            self.whole = false;
            return line;
        }
        // Changed too lately to be told from a change to come in the same clock tick:
        // kept as a `stat` no file has, so that it is looked at again.
        match newest >= self.settled {
            true => self.stats.push(b'?'),
            false => self.stats.extend_from_slice(&line),
        }
        self.stats.push(b' ');
        self.stats.extend_from_slice(relative);
        self.stats.push(b'\n');
        line
    }

    /// A line of the map, as the reader gives it (with its newline).
    pub fn line(&mut self, line: &[u8]) {
        if self.whole {
            self.text.extend_from_slice(line);
            self.check_size();
        }
    }

    /// A listed file whose path is the map's line `first`, with the BLAKE3 of the bytes
    /// it was outlined from (none when it was not read).
    pub fn listed(&mut self, first: u64, file: &MapFile, hash: Option<&str>) {
        if !self.whole {
            return;
        }
        // Written as they are serialized, without a tree of values to build and drop.
        let symbols: Vec<_> = file
            .symbols
            .iter()
            .map(|s| {
                (
                    &s.name,
                    &s.qualified_name,
                    s.kind,
                    s.start_line,
                    s.end_line,
                    s.depth,
                )
            })
            .collect();
        let hash = hash.unwrap_or("-");
        self.not_parsed += u64::from(file.not_parsed.is_some());
        // The lines the file takes after its path: its symbols', or the reason's.
        let lines = file.symbols.len() + usize::from(file.not_parsed.is_some());
        let json = (&file.path, file.language, &symbols, file.not_parsed);
        // Writing to a vector cannot fail.
        let _ = write!(self.files, "{first} {lines} {hash} ");
        let _ = serde_json::to_writer(&mut self.files, &json);
        self.files.push(b'\n');
        self.check_size();
    }

    fn check_size(&mut self) {
        if self.stats.len() + self.files.len() + self.text.len() > MAX_BYTES {
            self.whole = false;
            self.stats = Vec::new();
            self.files = Vec::new();
            self.text = Vec::new();
        }
    }

    /// Keeps the map made under `key`, unless it cannot be kept.
    pub fn keep(self, request: &Request, key: &str) {
        if !self.whole {
            return;
        }
        let mut entry = format!("{MAGIC} {}\n{key}\n", super::outlines::build()).into_bytes();
        let sizes = format!(
            "{} {} {} {} {}\n",
            self.stats.len(),
            self.files.len(),
            self.text.len(),
            count_lines(&self.files),
            self.not_parsed
        );
        entry.extend_from_slice(sizes.as_bytes());
        entry.extend_from_slice(index_line(&self.text).as_bytes());
        entry.extend_from_slice(&self.stats);
        entry.extend_from_slice(&self.files);
        entry.extend_from_slice(&self.text);
        match request.mode {
            Mode::Mcp => memory_put(key, Arc::new(entry)),
            Mode::CommandLine { .. } | Mode::Call => {
                if let Some(dir) = super::outlines::directory() {
                    let _ = super::outlines::write_atomically(&dir, &entry_name(key), &entry);
                }
            }
        }
    }
}

fn count_lines(bytes: &[u8]) -> usize {
    bytes::count(b'\n', bytes)
}

/// A kept map's text is indexed by the offset of every this many lines.
const INDEX_EVERY: u64 = 256;

/// The index line: how many lines `text` has, then where lines 1, 1 + [`INDEX_EVERY`],
/// 1 + 2 × [`INDEX_EVERY`] … start.
fn index_line(text: &[u8]) -> String {
    let mut line = count_lines(text).to_string();
    line.push_str(" 0");
    let ends = bytes::positions(b'\n', text).skip(INDEX_EVERY as usize - 1);
    for end in ends.step_by(INDEX_EVERY as usize) {
        if end + 1 < text.len() {
            line.push_str(&format!(" {}", end + 1));
        }
    }
    line.push('\n');
    line
}

/// `stat` from the root: the root opened once, each path looked up from it. (A
/// descriptor for each directory, opened from its parent, cost two more system calls a
/// directory than the few path steps it saved.)
#[derive(Default)]
struct Stater {
    /// The root's descriptor, once opened (`None` inside: it could not be).
    root: Option<Option<OwnedFd>>,
}

impl Stater {
    /// `relative`'s `stat` as a line's first words (`-` when there is none), and its
    /// latest time in seconds.
    fn stat(&mut self, base: &Path, relative: &[u8]) -> (Vec<u8>, i64) {
        let mut line = Vec::new();
        let newest = self.stat_into(base, relative, &mut line);
        (line, newest)
    }

    /// [`Stater::stat`], its words written to `line` (cleared first): a map's every page
    /// checks every file, so no string is made for each.
    fn stat_into(&mut self, base: &Path, relative: &[u8], line: &mut Vec<u8>) -> i64 {
        let stat = match relative {
            b"" => rustix::fs::stat(base),
            _ => {
                let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
                let root = self
                    .root
                    .get_or_insert_with(|| rustix::fs::open(base, flags, FileMode::empty()).ok());
                match root {
                    Some(fd) => rustix::fs::statat(
                        fd.as_fd(),
                        OsStr::from_bytes(relative),
                        AtFlags::empty(),
                    ),
                    None => Err(rustix::io::Errno::NOENT),
                }
            }
        };
        line.clear();
        let Ok(m) = stat else {
            line.push(b'-');
            return i64::MIN;
        };
        // `DEV INO SIZE MTIME.NSEC CTIME.NSEC`, as `format!` writes the numbers.
        let mut number = itoa::Buffer::new();
        let mut word = |n: &str, after: u8| {
            line.extend_from_slice(n.as_bytes());
            line.push(after);
        };
        word(number.format(m.st_dev), b' ');
        word(number.format(m.st_ino), b' ');
        word(number.format(m.st_size), b' ');
        word(number.format(m.st_mtime), b'.');
        word(number.format(m.st_mtime_nsec), b' ');
        word(number.format(m.st_ctime), b'.');
        line.extend_from_slice(number.format(m.st_ctime_nsec).as_bytes());
        m.st_mtime.max(m.st_ctime)
    }
}

/// The key of the map of `real` (relative to the root) under this request's settings:
/// all that names the map, written out on one line (`Debug` escapes line breaks), which
/// the entry's second line must equal.
pub fn key(request: &Request, real: &str) -> String {
    format!(
        "{:?} {:?} {} {:?} {:?}",
        request.root.path_of("").as_os_str(),
        real,
        request.settings.max_line_chars,
        request.encoding,
        request.settings.deny
    )
}

/// The entry's file name: 128 bits of hash of this build and the key. SipHash, not BLAKE3: a page of a
/// kept map hashes nothing else, and BLAKE3's first use asks the CPU what it can do,
/// which costs more in a virtual machine than the rest of the hashing. The names are
/// not trusted: the entry holds the key whole.
fn entry_name(key: &str) -> String {
    use std::hash::{Hash, Hasher};
    let half = |seed: u8| {
        let mut hasher = std::hash::DefaultHasher::new();
        seed.hash(&mut hasher);
        super::outlines::build().hash(&mut hasher);
        key.hash(&mut hasher);
        hasher.finish()
    };
    format!("map-{:016x}{:016x}", half(1), half(2))
}

/// Where a kept map's parts are: in the MCP server's memory, or in the cache directory,
/// read a part at a time.
enum Store {
    Memory(Arc<Vec<u8>>),
    Disk(std::fs::File),
}

impl Store {
    /// The bytes at `range`.
    fn bytes(&self, range: std::ops::Range<usize>) -> Option<std::borrow::Cow<'_, [u8]>> {
        match self {
            Store::Memory(entry) => entry.get(range).map(std::borrow::Cow::Borrowed),
            Store::Disk(file) => {
                let mut bytes = vec![0; range.len()];
                file.read_exact_at(&mut bytes, range.start as u64).ok()?;
                Some(std::borrow::Cow::Owned(bytes))
            }
        }
    }

    /// The bytes from `at` to the end, as they are read.
    fn reader(&self, at: usize) -> Box<dyn std::io::Read + '_> {
        match self {
            Store::Memory(entry) => {
                Box::new(std::io::Cursor::new(entry.get(at..).unwrap_or_default()))
            }
            Store::Disk(file) => Box::new(ReadAt {
                file,
                at: at as u64,
            }),
        }
    }
}

/// A file read from an offset on, without moving its position.
struct ReadAt<'f> {
    file: &'f std::fs::File,
    at: u64,
}

impl std::io::Read for ReadAt<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read_at(buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

/// This many empty lines, as they are read.
struct Newlines(u64);

impl std::io::Read for Newlines {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(usize::try_from(self.0).unwrap_or(usize::MAX));
        buf[..n].fill(b'\n');
        self.0 -= n as u64;
        Ok(n)
    }
}

/// A kept map, whether or not its tree has changed since. Only what a page needs is
/// read: its `stat` lines to check, then the text from the page on, and the files' lines
/// for JSON (a tree of 600 files keeps 2 MB, which a page read whole spent a third of
/// its time on).
pub struct Kept {
    store: Store,
    /// The `stat` lines are `holding[stats]`: the entry's first bytes, read with its
    /// header, or in a tree of many files, read apart.
    holding: Arc<Vec<u8>>,
    stats: std::ops::Range<usize>,
    /// Where lines 1, 1 + [`INDEX_EVERY`] … start in the text.
    index: Vec<usize>,
    total_lines: u64,
    text_len: usize,
    /// Where the files' lines and the text start in the entry.
    files: std::ops::Range<usize>,
    file_count: usize,
    not_parsed: u64,
}

/// How many bytes of an entry are read first: its header and, in most trees, all of its
/// `stat` lines.
const HEAD_BYTES: usize = 64 << 10;

impl Kept {
    /// The map kept under `key`, if there is one, whether or not its tree has changed.
    pub fn load(request: &Request, key: &str) -> Option<Kept> {
        let (store, head) = match request.mode {
            Mode::Mcp => {
                let entry = memory_get(key)?;
                (Store::Memory(Arc::clone(&entry)), entry)
            }
            Mode::CommandLine { .. } | Mode::Call => {
                let dir = super::outlines::directory()?;
                let mut file = super::outlines::open_entry(&dir.join(entry_name(key)))?;
                let mut head = Vec::with_capacity(HEAD_BYTES);
                std::io::Read::by_ref(&mut file)
                    .take(HEAD_BYTES as u64)
                    .read_to_end(&mut head)
                    .ok()?;
                (Store::Disk(file), Arc::new(head))
            }
        };
        let mut at = 0;
        let header = format!("{MAGIC} {}", super::outlines::build());
        if next_line(&head, &mut at)? != header.as_bytes()
            || next_line(&head, &mut at)? != key.as_bytes()
        {
            return None;
        }
        // `STATS FILES TEXT FILE_COUNT NOT_PARSED`: the first three in bytes.
        let sizes = std::str::from_utf8(next_line(&head, &mut at)?).ok()?;
        let mut numbers = sizes.split(' ').map(|n| n.parse::<usize>().ok());
        let mut number = || numbers.next().flatten();
        let (stats_len, files_len, text_len, file_count, not_parsed) =
            (number()?, number()?, number()?, number()?, number()?);
        // `LINES OFFSET…`: the text's line count and where every 256th line starts.
        let index = std::str::from_utf8(next_line(&head, &mut at)?).ok()?;
        let mut index = index.split(' ').map(|n| n.parse::<usize>().ok());
        let total_lines = index.next().flatten()? as u64;
        let index = index.collect::<Option<Vec<usize>>>()?;
        if index.first() != Some(&0) || index.windows(2).any(|w| w[0] >= w[1]) {
            return None;
        }
        let stats = at..at.checked_add(stats_len)?;
        let files = stats.end..stats.end.checked_add(files_len)?;
        // An entry cut short or grown is not this map.
        let whole = files.end.checked_add(text_len)? as u64;
        let len = match &store {
            Store::Memory(entry) => entry.len() as u64,
            Store::Disk(file) => file.metadata().ok()?.len(),
        };
        // The index must be the text's: a line count no greater than its bytes (a page
        // stands empty lines for the others, so a count out of bounds would have it read
        // without end), and one offset for each 256 lines, each inside the text.
        let blocks = usize::try_from(total_lines.div_ceil(INDEX_EVERY))
            .ok()?
            .max(1);
        if len != whole
            || total_lines > text_len as u64
            || index.len() != blocks
            || index.last().is_some_and(|&last| last >= text_len.max(1))
        {
            return None;
        }
        let (holding, stats) = match head.get(stats.clone()) {
            Some(_) => (head, stats),
            None => (Arc::new(store.bytes(stats)?.into_owned()), 0..stats_len),
        };
        Some(Kept {
            store,
            holding,
            stats,
            index,
            total_lines,
            text_len,
            files,
            file_count,
            not_parsed: not_parsed as u64,
        })
    }

    /// The `stat` lines: each as it was recorded, and its path.
    fn stats(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        crate::read::split_lines(&self.holding[self.stats.clone()])
            .filter(|line| !line.is_empty())
            .filter_map(|line| {
                // The signature is five words (or `-` or `?`), then the path.
                let split = match line.first() {
                    Some(b'-' | b'?') => 1,
                    _ => nth_space(line, 5)?,
                };
                Some((&line[..split], line.get(split + 1..)?))
            })
    }

    /// Whether nothing the map was made from has changed since. One thread checks: a
    /// second, started for a tree of hundreds of files, cost more than it saved (its stack
    /// and heap arena are fresh pages, and two threads looking names up in one tree
    /// contend for it).
    pub fn holds(&self, request: &Request) -> bool {
        let base = request.root.path_of("");
        let mut stater = Stater::default();
        let mut line = Vec::new();
        self.stats().all(|(recorded, path)| {
            stater.stat_into(&base, path, &mut line);
            line == recorded
        })
    }

    /// What the map knew of each file, for a map made again.
    pub fn previous(&self) -> Previous {
        let stats = self
            .stats()
            .map(|(recorded, path)| (path.to_vec(), recorded.to_vec()))
            .collect();
        let mut text = Vec::new();
        let _ = self
            .store
            .reader(self.files.end)
            .take(self.text_len as u64)
            .read_to_end(&mut text);
        let lines: Vec<&[u8]> = crate::read::split_lines(&text).collect();
        let mut listed = HashMap::new();
        for (first, hash, file) in self.all_files() {
            // Symbol i is the map's line first + 1 + i, the index first + i.
            let texts = (0..file.symbols.len())
                .map(|i| {
                    // `  START-END | TEXT`: the text after the first ` | `.
                    let line = lines.get(first as usize + i).copied().unwrap_or_default();
                    let at = bytes::find_str(b" | ", line).map_or(line.len(), |at| at + 3);
                    line[at.min(line.len())..].to_vec()
                })
                .collect();
            listed.insert(file.path.clone(), PreviousFile { hash, file, texts });
        }
        Previous { stats, listed }
    }

    /// Each file's line, split: where its path line is in the map, how many lines follow
    /// it, the hash of its bytes (`-`: not read) and its `data.files` JSON. `each` is
    /// given them in the map's order; the block is read once.
    fn each_file(&self, mut each: impl FnMut(u64, u64, &[u8], &[u8])) {
        let Some(block) = self.store.bytes(self.files.clone()) else {
            return;
        };
        for line in crate::read::split_lines(&block).take(self.file_count) {
            let mut words = line.splitn(4, |&b| b == b' ');
            let number = |w: Option<&[u8]>| std::str::from_utf8(w?).ok()?.parse::<u64>().ok();
            if let (Some(first), Some(count), Some(hash), Some(json)) = (
                number(words.next()),
                number(words.next()),
                words.next(),
                words.next(),
            ) {
                each(first, count, hash, json);
            }
        }
    }

    /// Every file with its path line and hash.
    fn all_files(&self) -> Vec<(u64, Option<String>, MapFile)> {
        let mut out = Vec::new();
        self.each_file(|first, _, hash, json| {
            let hash = (hash != b"-").then(|| String::from_utf8_lossy(hash).into_owned());
            if let Some(file) = map_file(json) {
                out.push((first, hash, file));
            }
        });
        out
    }

    /// The map's text for a window over `lines`: those lines as they are, every other
    /// line as an empty one. The window reader numbers, pages and counts lines by their
    /// newlines alone, and shows only `lines`, so its answer is the whole text's; a page
    /// deep in the map of a large tree then reads a few KiB of it, not megabytes.
    pub fn page(&self, lines: std::ops::RangeInclusive<u64>) -> impl std::io::Read + '_ {
        // Block b of the index holds lines b × EVERY + 1 ..= (b + 1) × EVERY.
        let first = (lines.start().saturating_sub(1) / INDEX_EVERY) as usize;
        let last = (lines.end().saturating_sub(1) / INDEX_EVERY) as usize;
        let (from, before) = match self.index.get(first) {
            Some(&at) => (at, first as u64 * INDEX_EVERY),
            None => (self.text_len, self.total_lines),
        };
        let (to, through) = match self.index.get(last + 1) {
            Some(&at) => (at, (last as u64 + 1) * INDEX_EVERY),
            None => (self.text_len, self.total_lines),
        };
        let to = to.max(from);
        let start = self.files.end;
        Newlines(before)
            .chain(self.store.reader(start + from).take((to - from) as u64))
            .chain(Newlines(
                self.total_lines.saturating_sub(through.max(before)),
            ))
    }

    /// How many files of the whole map are listed without their symbols.
    pub fn not_parsed(&self) -> u64 {
        self.not_parsed
    }

    /// The files with a path or symbol line in `lines`, each with its path line.
    pub fn files(&self, lines: std::ops::RangeInclusive<u64>) -> Vec<(u64, MapFile)> {
        let mut out = Vec::new();
        self.each_file(|first, count, _, json| {
            if first <= *lines.end()
                && first + count >= *lines.start()
                && let Some(file) = map_file(json)
            {
                out.push((first, file));
            }
        });
        out
    }
}

/// The line of `entry` that starts at `at`, without its newline; `at` moves past it.
fn next_line<'e>(entry: &'e [u8], at: &mut usize) -> Option<&'e [u8]> {
    let rest = entry.get(*at..)?;
    let end = bytes::find(b'\n', rest)?;
    *at += end + 1;
    Some(&rest[..end])
}

/// What a map kept knew of its files, when it is made again: a file whose `stat` is as
/// it was, or whose bytes are, is listed as it was, without reading or parsing it.
pub struct Previous {
    /// Each path's `stat` as recorded.
    stats: HashMap<Vec<u8>, Vec<u8>>,
    listed: HashMap<String, PreviousFile>,
}

/// A file as a map listed it.
pub struct PreviousFile {
    /// The BLAKE3 of the bytes its symbols come from, if it was read.
    pub hash: Option<String>,
    pub file: MapFile,
    /// The text each symbol's line showed.
    pub texts: Vec<Vec<u8>>,
}

/// What a kept map says of a file now: listed as it was, not listed, or unknown.
pub enum Known<'p> {
    Listed(&'p PreviousFile),
    Unlisted,
    Unknown,
}

impl Previous {
    /// What is known of `relative` (display path `path`) when its `stat` is now `stat`.
    pub fn by_stat(&self, relative: &[u8], path: &str, stat: &[u8]) -> Known<'_> {
        match self.stats.get(relative) {
            Some(recorded) if recorded == stat && stat != b"-" => match self.listed.get(path) {
                Some(file) => Known::Listed(file),
                None => Known::Unlisted,
            },
            _ => Known::Unknown,
        }
    }

    /// The file `path` as it was listed, if it was read from bytes whose hash is `hash`.
    pub fn by_hash(&self, path: &str, hash: &str) -> Option<&PreviousFile> {
        self.listed
            .get(path)
            .filter(|file| file.hash.as_deref() == Some(hash))
    }
}

/// The byte where the `n`th space of `line` is.
fn nth_space(line: &[u8], n: usize) -> Option<usize> {
    bytes::positions(b' ', line).nth(n - 1)
}

/// A file's `data.files` entry, from its JSON.
fn map_file(json: &[u8]) -> Option<MapFile> {
    let serde_json::Value::Array(parts) = serde_json::from_slice(json).ok()? else {
        return None;
    };
    let [path, language, symbols, not_parsed] = &parts[..] else {
        return None;
    };
    let not_parsed = match not_parsed.as_str() {
        Some(name) => Some(NotParsed::named(name)?.name()),
        None => None,
    };
    let language = Language::named(language.as_str()?)?.name();
    let mut out = Vec::new();
    for symbol in symbols.as_array()? {
        let [name, qualified_name, kind, start, end, depth] = &symbol.as_array()?[..] else {
            return None;
        };
        out.push(SymbolInfo {
            name: name.as_str().map(str::to_string),
            qualified_name: qualified_name.as_str().map(str::to_string),
            kind: kind_named(kind.as_str()?)?,
            start_line: start.as_u64()?,
            end_line: end.as_u64()?,
            depth: depth.as_u64().and_then(|d| u32::try_from(d).ok()),
        });
    }
    Some(MapFile {
        path: path.as_str()?.to_string(),
        language,
        not_parsed,
        symbols: out,
    })
}

/// The MCP server's maps by key, oldest first.
type Memory = VecDeque<(String, Arc<Vec<u8>>)>;

fn memory() -> std::sync::MutexGuard<'static, Memory> {
    static MEMORY: OnceLock<Mutex<Memory>> = OnceLock::new();
    let lock = MEMORY.get_or_init(Mutex::default);
    lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn memory_get(key: &str) -> Option<Arc<Vec<u8>>> {
    let memory = memory();
    memory
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, entry)| Arc::clone(entry))
}

fn memory_put(key: &str, entry: Arc<Vec<u8>>) {
    let mut memory = memory();
    memory.retain(|(k, _)| k != key);
    memory.push_back((key.to_string(), entry));
    while memory.iter().map(|(_, e)| e.len()).sum::<usize>() > MEMORY_BYTES {
        memory.pop_front();
    }
}
