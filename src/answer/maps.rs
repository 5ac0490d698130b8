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
//! An entry: its build line and key, the `stat` lines, the files' lines (where each
//! file's path line is in the map, how many symbols it shows, and its `data.files` JSON),
//! and the map's text. Kept as the outlines are: in the MCP server's memory, and for the
//! command line in the cache directory, written atomically.

use std::collections::VecDeque;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use crate::args::request::{Mode, Request};
use crate::outcome::{MapFile, SymbolInfo};
use crate::structure::kind_named;

/// What the first line of an entry starts with: the format, which a change of it renews.
const MAGIC: &str = "agentread-map 1";
/// A map larger than this (its text and files) is not kept.
const MAX_BYTES: usize = 16 << 20;
/// The MCP server keeps maps of at most this many bytes in all.
const MEMORY_BYTES: usize = 64 << 20;
/// How long after the last change to what a map is made from it may be kept.
const SETTLE: Duration = Duration::from_secs(2);

/// The names `data.language` gives (`Language::name`).
const LANGUAGE_NAMES: [&str; 9] = [
    "rust",
    "python",
    "javascript",
    "typescript",
    "go",
    "java",
    "c",
    "cpp",
    "markdown",
];

/// The names of the files beside a directory's entries that steer the walk.
const IGNORE_FILES: [&str; 3] = [".gitignore", ".ignore", ".git/info/exclude"];

/// A map being made, as the walk and the map's lines come.
pub struct Recorder {
    stats: Vec<u8>,
    files: Vec<u8>,
    text: Vec<u8>,
    /// The latest modification or change time seen, in seconds.
    newest: i64,
    /// Whether the map can still be kept (not too large, no path it cannot write).
    whole: bool,
}

impl Recorder {
    pub fn new() -> Recorder {
        Recorder {
            stats: Vec::new(),
            files: Vec::new(),
            text: Vec::new(),
            newest: i64::MIN,
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
            self.stat(base, &path);
        }
    }

    /// A file the map lists or looks into (`relative` to the root), before it is read.
    pub fn file(&mut self, base: &Path, relative: &[u8]) {
        self.stat(base, relative);
    }

    fn stat(&mut self, base: &Path, relative: &[u8]) {
        if !self.whole {
            return;
        }
        if relative.contains(&b'\n') {
            self.whole = false;
            return;
        }
        let (line, newest) = signature(base, relative);
        self.newest = self.newest.max(newest);
        self.stats.extend_from_slice(&line);
        self.stats.push(b' ');
        self.stats.extend_from_slice(relative);
        self.stats.push(b'\n');
    }

    /// A line of the map, as the reader gives it (with its newline).
    pub fn line(&mut self, line: &[u8]) {
        if self.whole {
            self.text.extend_from_slice(line);
            self.check_size();
        }
    }

    /// A listed file whose path is the map's line `first`.
    pub fn listed(&mut self, first: u64, file: &MapFile) {
        if !self.whole {
            return;
        }
        let symbols: Vec<serde_json::Value> = file
            .symbols
            .iter()
            .map(|s| {
                serde_json::json!([
                    s.name,
                    s.qualified_name,
                    s.kind,
                    s.start_line,
                    s.end_line,
                    s.depth
                ])
            })
            .collect();
        let json = serde_json::json!([file.path, file.language, symbols]);
        self.files
            .extend_from_slice(format!("{first} {} {json}\n", file.symbols.len()).as_bytes());
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
        let now = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        if self.newest >= i64::try_from(now.saturating_sub(SETTLE.as_secs())).unwrap_or(0) {
            return;
        }
        let mut entry = format!("{MAGIC} {}\n{key}\n", super::outlines::build()).into_bytes();
        entry.extend_from_slice(format!("{}\n", count_lines(&self.stats)).as_bytes());
        entry.extend_from_slice(&self.stats);
        entry.extend_from_slice(format!("{}\n", count_lines(&self.files)).as_bytes());
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
    memchr::memchr_iter(b'\n', bytes).count()
}

/// `relative`'s `stat` as a line's first words (`-` when there is none), and its latest
/// time in seconds.
fn signature(base: &Path, relative: &[u8]) -> (Vec<u8>, i64) {
    let path = base.join(OsStr::from_bytes(relative));
    match std::fs::metadata(&path) {
        Ok(m) => (
            format!(
                "{} {} {} {}.{} {}.{}",
                m.dev(),
                m.ino(),
                m.len(),
                m.mtime(),
                m.mtime_nsec(),
                m.ctime(),
                m.ctime_nsec()
            )
            .into_bytes(),
            m.mtime().max(m.ctime()),
        ),
        Err(_) => (b"-".to_vec(), i64::MIN),
    }
}

/// The key of the map of `real` (relative to the root) under this request's settings.
pub fn key(request: &Request, real: &str) -> String {
    let mut hasher = blake3::Hasher::new();
    hasher.update(MAGIC.as_bytes());
    hasher.update(super::outlines::build().as_bytes());
    hasher.update(b"\0");
    hasher.update(request.root.path_of("").as_os_str().as_bytes());
    hasher.update(b"\0");
    hasher.update(real.as_bytes());
    let settings = format!(
        "\0{}\0{:?}\0{:?}",
        request.settings.max_line_chars, request.encoding, request.settings.deny
    );
    hasher.update(settings.as_bytes());
    hasher.finalize().to_hex().to_string()
}

fn entry_name(key: &str) -> String {
    format!("map-{key}")
}

/// A kept map that is still the map of its tree.
pub struct Kept {
    entry: Arc<Vec<u8>>,
    /// Where the files' lines and the text start in `entry`.
    files: usize,
    file_count: usize,
    text: usize,
}

impl Kept {
    /// The map kept under `key`, if there is one and nothing it was made from changed.
    pub fn find(request: &Request, key: &str) -> Option<Kept> {
        let entry = match request.mode {
            Mode::Mcp => memory_get(key)?,
            Mode::CommandLine { .. } | Mode::Call => {
                let dir = super::outlines::directory()?;
                Arc::new(std::fs::read(dir.join(entry_name(key))).ok()?)
            }
        };
        let mut at = 0;
        let header = format!("{MAGIC} {}", super::outlines::build());
        if next_line(&entry, &mut at)? != header.as_bytes()
            || next_line(&entry, &mut at)? != key.as_bytes()
        {
            return None;
        }
        let count = |line: &[u8]| std::str::from_utf8(line).ok()?.parse::<usize>().ok();
        let stats = count(next_line(&entry, &mut at)?)?;
        let base = request.root.path_of("");
        for _ in 0..stats {
            let line = next_line(&entry, &mut at)?;
            // The signature is five words (or `-`), then the path.
            let split = if line.starts_with(b"- ") {
                1
            } else {
                nth_space(line, 5)?
            };
            let (recorded, path) = (&line[..split], &line[split + 1..]);
            if signature(&base, path).0 != recorded {
                return None;
            }
        }
        let file_count = count(next_line(&entry, &mut at)?)?;
        let files = at;
        for _ in 0..file_count {
            next_line(&entry, &mut at)?;
        }
        let text = at;
        Some(Kept {
            entry,
            files,
            file_count,
            text,
        })
    }

    /// The map's text.
    pub fn text(&self) -> &[u8] {
        &self.entry[self.text..]
    }

    /// The files with a path or symbol line in `lines`, each with its path line.
    pub fn files(&self, lines: std::ops::RangeInclusive<u64>) -> Vec<(u64, MapFile)> {
        let mut out = Vec::new();
        let block = &self.entry[self.files..self.text];
        for line in block.split(|&b| b == b'\n').take(self.file_count) {
            let mut words = line.splitn(3, |&b| b == b' ');
            let number = |w: Option<&[u8]>| std::str::from_utf8(w?).ok()?.parse::<u64>().ok();
            let (Some(first), Some(count), Some(json)) =
                (number(words.next()), number(words.next()), words.next())
            else {
                continue;
            };
            if first > *lines.end() || first + count < *lines.start() {
                continue;
            }
            if let Some(file) = map_file(json) {
                out.push((first, file));
            }
        }
        out
    }
}

/// The line of `entry` that starts at `at`, without its newline; `at` moves past it.
fn next_line<'e>(entry: &'e [u8], at: &mut usize) -> Option<&'e [u8]> {
    let rest = entry.get(*at..)?;
    let end = memchr::memchr(b'\n', rest)?;
    *at += end + 1;
    Some(&rest[..end])
}

/// The byte where the `n`th space of `line` is.
fn nth_space(line: &[u8], n: usize) -> Option<usize> {
    memchr::memchr_iter(b' ', line).nth(n - 1)
}

/// A file's `data.files` entry, from its JSON.
fn map_file(json: &[u8]) -> Option<MapFile> {
    let serde_json::Value::Array(parts) = serde_json::from_slice(json).ok()? else {
        return None;
    };
    let [path, language, symbols] = &parts[..] else {
        return None;
    };
    let language = LANGUAGE_NAMES
        .iter()
        .copied()
        .find(|l| Some(*l) == language.as_str())?;
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
