//! Parsed outlines kept by the BLAKE3 of the file's bytes, with agentread's build and
//! the language (SPEC §15 "A map costs one parse per file, ever"): in the MCP server's
//! memory (least recently used first out, at most 64 MiB), and for the command line in
//! `$XDG_CACHE_HOME/agentread/` (else `~/.cache/agentread/`; created 0700; at most
//! 256 MiB, oldest dropped first; written atomically; an unreadable or foreign entry is
//! ignored and replaced). A cached outline is the same answer as a fresh one: only
//! outlines that parsed are written, and their symbols are written whole. The server's
//! memory also keeps a parse that gave up, under its budget: the budget is CPU time, so
//! the same bytes give up again within it, and the next call answers so at once instead
//! of parsing for the whole budget again.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde_json::Value;

use crate::args::request::{Mode, Request};
use crate::structure::{self, Body, CommentRun, Cores, Language, OutlineError, Symbol};

/// The MCP server's outlines, at most this many bytes (as [`weight`] counts them).
const MEMORY_BYTES: u64 = 64 << 20;
/// The command line's cache directory, at most this many bytes of entries.
const DISK_BYTES: u64 = 256 << 20;
/// What the first line of an entry says: the format, which a change of it renews.
const MAGIC: &str = "agentread-outline 2";

/// What a parse of a file keeps: its symbols, and its comment runs for the signatures
/// view (a lexical scan's, made with the parse so that a kept outline answers the view
/// without one; None where nothing asked for them: a directory's map).
#[derive(Debug)]
pub struct Outline {
    pub symbols: Vec<Symbol>,
    pub comments: Option<Vec<CommentRun>>,
}

impl Outline {
    /// The outline of `bytes`, a `language` file, parsed within `budget`, with its
    /// comment runs.
    fn parse(language: Language, bytes: &[u8], budget: Duration) -> Result<Self, OutlineError> {
        let symbols = structure::outline(language, bytes, budget, Cores::Spare)?;
        // A lexical pass of its own, not the parse's bodies scan: that one is skipped for
        // a file parsed in pieces, reads C++ with its macros blanked, and reads Rust's
        // comment lines as holes; this one costs a small part of a parse, once per file.
        Ok(Outline {
            symbols,
            comments: Some(structure::comment_runs(language, bytes)),
        })
    }
}

/// The outline of `bytes`, a `language` file, parsed within `budget`, or as kept.
pub fn outline(
    request: &Request,
    language: Language,
    bytes: &[u8],
    budget: Duration,
) -> Result<Arc<Outline>, OutlineError> {
    if !request.settings.cache {
        return Outline::parse(language, bytes, budget).map(Arc::new);
    }
    let key = key(language, bytes);
    match request.mode {
        Mode::Mcp => remembered(key, budget, || Outline::parse(language, bytes, budget)),
        Mode::CommandLine { .. } | Mode::Call => {
            let Some(dir) = directory() else {
                return Outline::parse(language, bytes, budget).map(Arc::new);
            };
            let file = dir.join(&key);
            if let Some(outline) = read_entry(&file, &key) {
                return Ok(Arc::new(outline));
            }
            let outline = Outline::parse(language, bytes, budget)?;
            // A cache that cannot be written is no cache: the answer stands.
            let _ = write_entry(&dir, &key, &outline);
            Ok(Arc::new(outline))
        }
    }
}

/// [`outline`], taken from the kept outlines when there, but not kept when parsed: a
/// directory's map keeps what it parsed with the map (`maps`), and needs no comment
/// runs.
pub fn outline_unkept(
    request: &Request,
    language: Language,
    bytes: &[u8],
    budget: Duration,
) -> Result<Arc<Outline>, OutlineError> {
    if request.settings.cache {
        let key = key(language, bytes);
        let kept = match request.mode {
            Mode::Mcp => match kept(&key, budget) {
                Some(Err(gave_up)) => return Err(gave_up),
                kept => kept.and_then(Result::ok),
            },
            Mode::CommandLine { .. } | Mode::Call => {
                directory().and_then(|dir| read_entry(&dir.join(&key), &key).map(Arc::new))
            }
        };
        if let Some(outline) = kept {
            return Ok(outline);
        }
    }
    let symbols = structure::outline(language, bytes, budget, Cores::Busy)?;
    Ok(Arc::new(Outline {
        symbols,
        comments: None,
    }))
}

/// What the server's memory holds for `key`: its outline, or how a parse within `budget`
/// gave up.
fn kept(key: &str, budget: Duration) -> Option<Kept> {
    let mut memory = memory();
    memory
        .get(key)
        .or_else(|| memory.get(&gave_up_key(key, budget)))
}

/// The outline the server's memory holds for `key`, else `parse`'s, kept either way: an
/// outline for every budget, a parse that gave up for its own budget only.
fn remembered(
    key: String,
    budget: Duration,
    parse: impl FnOnce() -> Result<Outline, OutlineError>,
) -> Kept {
    if let Some(kept) = kept(&key, budget) {
        return kept;
    }
    match parse() {
        Ok(outline) => {
            let outline = Arc::new(outline);
            memory().put(key, Ok(Arc::clone(&outline)));
            Ok(outline)
        }
        Err(why) => {
            memory().put(gave_up_key(&key, budget), Err(why));
            Err(why)
        }
    }
}

/// The key under which a parse of `key`'s bytes within `budget` that gave up is kept.
fn gave_up_key(key: &str, budget: Duration) -> String {
    format!("{key} {}", budget.as_nanos())
}

/// The entry's name: the BLAKE3 of this build, the language and the file's bytes.
fn key(language: Language, bytes: &[u8]) -> String {
    let mut hasher = blake3::Hasher::new();
    hasher.update(build().as_bytes());
    hasher.update(format!("\0{language:?}\0").as_bytes());
    hasher.update(bytes);
    hasher.finalize().to_hex().to_string()
}

/// What tells this build from another: the version, and the executable's size and time
/// (a rebuild with other rules is another build).
pub(super) fn build() -> &'static str {
    static BUILD: OnceLock<String> = OnceLock::new();
    BUILD.get_or_init(|| {
        // `/proc/self/exe` is the running executable itself (even one replaced since),
        // and stating it costs no `readlink`.
        let exe = fs::metadata("/proc/self/exe")
            .or_else(|_| std::env::current_exe().and_then(fs::metadata))
            .map(|m| {
                use std::os::unix::fs::MetadataExt;
                format!("{}.{}.{}", m.len(), m.mtime(), m.mtime_nsec())
            })
            .unwrap_or_default();
        format!("{MAGIC} {} {exe}", env!("CARGO_PKG_VERSION"))
    })
}

/// What the memory cache keeps of one parse: its outline, or why it gave up.
type Kept = Result<Arc<Outline>, OutlineError>;

/// The memory cache: entries by key, each with its weight and when it was last used.
#[derive(Default)]
struct Memory {
    entries: HashMap<String, (Kept, u64, u64)>,
    bytes: u64,
    clock: u64,
}

/// The process's memory cache, locked.
fn memory() -> std::sync::MutexGuard<'static, Memory> {
    static MEMORY: OnceLock<Mutex<Memory>> = OnceLock::new();
    let lock = MEMORY.get_or_init(Mutex::default);
    // A thread that panicked holding it left whole entries: the map is still sound.
    lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Memory {
    fn get(&mut self, key: &str) -> Option<Kept> {
        self.clock += 1;
        let clock = self.clock;
        let entry = self.entries.get_mut(key)?;
        entry.2 = clock;
        Some(entry.0.clone())
    }

    fn put(&mut self, key: String, kept: Kept) {
        let weight = match &kept {
            Ok(outline) => weight(outline),
            Err(_) => key.len() as u64 + 64,
        };
        if weight > MEMORY_BYTES {
            return;
        }
        self.clock += 1;
        self.bytes += weight;
        if let Some((_, old, _)) = self.entries.insert(key, (kept, weight, self.clock)) {
            self.bytes -= old;
        }
        while self.bytes > MEMORY_BYTES {
            let Some(oldest) = self
                .entries
                .iter()
                .min_by_key(|(_, (_, _, used))| *used)
                .map(|(key, _)| key.clone())
            else {
                break;
            };
            if let Some((_, weight, _)) = self.entries.remove(&oldest) {
                self.bytes -= weight;
            }
        }
    }
}

/// The bytes an outline holds in memory, about.
fn weight(outline: &Outline) -> u64 {
    let comments = outline.comments.as_ref().map_or(0, Vec::len);
    outline
        .symbols
        .iter()
        .map(|s| (std::mem::size_of::<Symbol>() + s.name.len() + s.qualified_name.len()) as u64)
        .sum::<u64>()
        + (comments * std::mem::size_of::<CommentRun>()) as u64
        + 64
}

/// The cache directory, created 0700 if need be; None when there is no home for it.
pub(super) fn directory() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .map(|home| home.join(".cache"))
        })?;
    let dir = base.join("agentread");
    if !dir.is_dir() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)
            .ok()?;
    }
    Some(dir)
}

/// An entry opened to be read: a regular file no bigger than the whole cache may be, not
/// reached through a symlink, never waited for. What else stands under an entry's name (a
/// FIFO, a link to `/dev/zero`, a huge file) is foreign: ignored, as SPEC §15 says.
pub(super) fn open_entry(path: &Path) -> Option<fs::File> {
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    let meta = file.metadata().ok()?;
    (meta.is_file() && meta.len() <= DISK_BYTES).then_some(file)
}

/// The outline an entry holds, when it is whole and this build's for `key`.
fn read_entry(file: &Path, key: &str) -> Option<Outline> {
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut std::io::Read::take(open_entry(file)?, DISK_BYTES),
        &mut text,
    )
    .ok()?;
    let mut lines = text.splitn(4, '\n');
    if lines.next()? != build() || lines.next()? != key {
        return None;
    }
    // Read as typed rows, not as a JSON tree: a warm outline spent a third of its own
    // work building and dropping the tree's values.
    let rows: Vec<Row> = serde_json::from_str(lines.next()?).ok()?;
    let comments: Vec<(u64, u64, u64, bool)> = serde_json::from_str(lines.next()?).ok()?;
    let mut symbols = Vec::with_capacity(rows.len());
    for (name, qualified_name, kind, start, col, def, end, depth, parent, body) in rows {
        let parent = match parent {
            None => None,
            Some(p) => Some(usize::try_from(p).ok().filter(|&p| p < symbols.len())?),
        };
        symbols.push(Symbol {
            name,
            qualified_name,
            kind: structure::kind_named(&kind)?,
            start_line: start,
            start_col: col,
            def_line: def,
            end_line: end,
            depth: u32::try_from(depth).ok()?,
            parent,
            // A function's body, for signature views: [open, first, last, close or null].
            body: body.map(|(open, first, last, close)| Body {
                open,
                first,
                last,
                close,
            }),
        });
    }
    let comments = comments
        .into_iter()
        .map(|(first, last, paragraph_end, docstring)| CommentRun {
            first,
            last,
            paragraph_end,
            docstring,
        })
        .collect();
    Some(Outline {
        symbols,
        comments: Some(comments),
    })
}

/// An entry's row: name, qualified name, kind, start line and column, definition line,
/// end line, depth, parent's index, body.
type Row = (
    String,
    String,
    String,
    u64,
    u64,
    u64,
    u64,
    u64,
    Option<u64>,
    Option<(u64, u64, u64, Option<u64>)>,
);

/// Writes an outline's entry: the build, the key, the symbols' rows, the comment runs.
fn write_entry(dir: &Path, key: &str, outline: &Outline) -> std::io::Result<()> {
    let rows: Vec<Value> = outline
        .symbols
        .iter()
        .map(|s| {
            serde_json::json!([
                s.name,
                s.qualified_name,
                s.kind,
                s.start_line,
                s.start_col,
                s.def_line,
                s.end_line,
                s.depth,
                s.parent,
                s.body
                    .map(|b| serde_json::json!([b.open, b.first, b.last, b.close]))
            ])
        })
        .collect();
    let comments: Vec<Value> = outline
        .comments
        .iter()
        .flatten()
        .map(|c| serde_json::json!([c.first, c.last, c.paragraph_end, c.docstring]))
        .collect();
    let body = format!(
        "{}\n{key}\n{}\n{}",
        build(),
        Value::Array(rows),
        Value::Array(comments)
    );
    write_atomically(dir, key, body.as_bytes())
}

/// Writes the entry `name` through a temporary file renamed into place, then keeps the
/// directory within its bound.
pub(super) fn write_atomically(dir: &Path, name: &str, body: &[u8]) -> std::io::Result<()> {
    let temporary = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let mut out = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&temporary)?;
    let written = out
        .write_all(body)
        .and_then(|()| fs::rename(&temporary, dir.join(name)));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written?;
    keep_within(dir, body.len() as u64);
    Ok(())
}

/// Drops the oldest entries while the directory holds more than [`DISK_BYTES`]. The
/// directory is measured once per process; later writes add to that.
fn keep_within(dir: &Path, added: u64) {
    static MEASURED: AtomicU64 = AtomicU64::new(u64::MAX);
    let known = MEASURED.load(Ordering::Relaxed);
    let total = match known {
        u64::MAX => size_of_dir(dir),
        known => known + added,
    };
    if total <= DISK_BYTES {
        MEASURED.store(total, Ordering::Relaxed);
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            if !meta.is_file() {
                return None;
            }
            Some((meta.modified().ok()?, meta.len(), e.path()))
        })
        .collect();
    files.sort();
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    for (_, len, path) in files {
        if total <= DISK_BYTES {
            break;
        }
        if fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
    MEASURED.store(total, Ordering::Relaxed);
}

/// The bytes of the directory's files.
fn size_of_dir(dir: &Path) -> u64 {
    fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    /// A parse that gave up is answered from memory the next time, within the same budget
    /// only; an outline, once parsed, for any budget.
    #[test]
    fn a_parse_that_gave_up_is_not_tried_again_within_its_budget() {
        let key = key(Language::Rust, b"fn a_parse_that_gave_up() {}\n");
        let budget = Duration::from_secs(2);
        let parses = Cell::new(0);
        let parse = |result: Result<Vec<Symbol>, OutlineError>| {
            parses.set(parses.get() + 1);
            result.map(|symbols| Outline {
                symbols,
                comments: None,
            })
        };
        let first = remembered(key.clone(), budget, || parse(Err(OutlineError::Timeout)));
        assert_eq!(first.err(), Some(OutlineError::Timeout));
        let again = remembered(key.clone(), budget, || parse(Ok(Vec::new())));
        assert_eq!(again.err(), Some(OutlineError::Timeout));
        assert_eq!(parses.get(), 1, "the second call parsed again");
        // Another budget is another parse; what it parsed is then kept for every budget.
        let longer = remembered(key.clone(), budget * 2, || parse(Ok(Vec::new())));
        assert!(longer.is_ok_and(|outline| outline.symbols.is_empty()));
        assert_eq!(parses.get(), 2);
        let kept = remembered(key, budget, || parse(Err(OutlineError::Unparsable)));
        assert!(kept.is_ok());
        assert_eq!(parses.get(), 2);
    }
}
