//! The workspace root and race-free path resolution (SPEC §2).
//!
//! A path is resolved one component at a time from a descriptor of the root, opening each
//! directory with `O_NOFOLLOW` and reading symlinks ourselves. The kernel never follows a
//! link on our behalf, so a link swapped between a check and an open cannot lead out: what
//! is opened is always reached through directories already held open inside the root.

use std::collections::VecDeque;
use std::ffi::OsStr;
use std::fs::File;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, Stat};
use rustix::io::Errno;

use crate::error::{Error, ErrorCode};
use crate::names;

/// Links followed in one resolution before it is called a loop (Linux's own limit).
const MAX_LINK_HOPS: usize = 40;
/// Times one walk looks again at a component that changed under it (a link swapped for
/// a file between its stat and its readlink) before the walk starts over.
const MAX_CHANGES: usize = 40;
/// The longest PATH accepted (Linux's PATH_MAX): a longer one is INVALID_PARAM before any
/// lookup, so that no later stage (suggestions, references) works on a hostile length.
pub const MAX_PATH_BYTES: usize = 4096;

#[cfg(target_os = "linux")]
const DIR_HANDLE: OFlags = OFlags::PATH;
#[cfg(not(target_os = "linux"))]
const DIR_HANDLE: OFlags = OFlags::RDONLY;

/// The workspace root: canonicalised once, held open as a directory descriptor.
#[derive(Debug)]
pub struct Root {
    fd: OwnedFd,
    canonical: PathBuf,
    /// The root as given, made absolute (absolute paths may be spelt either way).
    given: PathBuf,
    /// Nobody chose it: what it was taken to be (refusals say so).
    taken: Option<Taken>,
    /// When nobody chose the root, the current directory relative to it (empty when they
    /// are one): a relative PATH is joined to it, as `cat` would (SPEC §2).
    cwd: Vec<u8>,
}

/// What the root is when neither `--root` nor `$AGENTREAD_ROOT` chose it (SPEC §17).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taken {
    /// The top of the git work tree that holds the current directory.
    WorkTree,
    /// The current directory, outside any git work tree.
    CurrentDirectory,
}

impl Taken {
    /// How messages name it: by what it is, never by its absolute path.
    pub fn words(self) -> &'static str {
        match self {
            Taken::WorkTree => "the git work tree holding the current directory",
            Taken::CurrentDirectory => "the current directory",
        }
    }
}

/// What a resolved path opened to.
#[derive(Debug)]
pub enum Opened {
    File { file: File, stat: Stat },
    Directory { fd: OwnedFd },
}

/// A path resolved inside the root.
#[derive(Debug)]
pub struct Resolved {
    /// The path as asked, relative to the root, cleaned (`./`, `//`, inner `..`).
    pub display: String,
    /// The path of what was opened, relative to the root, links resolved.
    pub real: String,
    pub opened: Opened,
    /// The root-relative paths of the path as asked (cleaned), of every link followed on
    /// the way and of what was opened (for the deny policy), as bytes.
    pub passed: Vec<Vec<u8>>,
}

/// A path checked and split, ready to walk.
struct Prepared {
    display: String,
    /// Root-relative, `.`, `//` and inner `..` removed.
    cleaned: Vec<u8>,
    parts: Vec<Vec<u8>>,
}

/// Where a walk ended.
#[derive(Debug)]
enum Leaf {
    Opened(Opened),
    EntryKind(EntryKind),
}

/// Why a walk did not end.
#[derive(Debug)]
enum WalkError {
    Failed(Error),
    /// The tree kept changing under the walk (a rename race): it may succeed if run again.
    Changed,
}

impl From<Error> for WalkError {
    fn from(error: Error) -> WalkError {
        WalkError::Failed(error)
    }
}

/// The kind of thing a path leads to, found without opening it (for listings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Directory,
    Other,
}

impl Root {
    /// Opens `dir` (relative to the current directory) as the root.
    /// `source` names where it came from in an error (`--root`, `$AGENTREAD_ROOT`).
    pub fn open(dir: &Path, source: &str) -> Result<Root, Error> {
        // An absolute root is not echoed: no absolute path of the machine is printed.
        let not_a_dir = || match dir.is_absolute() {
            true => Error::invalid_param(format!("{source} is not an existing directory.")),
            false => Error::invalid_param(format!(
                "{source} '{}' is not an existing directory.",
                dir.display()
            )),
        };
        let canonical = std::fs::canonicalize(dir).map_err(|_| not_a_dir())?;
        let fd = rustix::fs::open(
            &canonical,
            DIR_HANDLE | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|_| not_a_dir())?;
        let given = if dir.is_absolute() {
            dir.to_path_buf()
        } else {
            std::env::current_dir()
                .map(|cwd| lexical_clean(&cwd.join(dir)))
                .unwrap_or_else(|_| canonical.clone())
        };
        Ok(Root {
            fd,
            canonical,
            given,
            taken: None,
            cwd: Vec::new(),
        })
    }

    /// The root when none was chosen: the top of the git work tree that holds the current
    /// directory (its nearest ancestor, itself included, with a `.git` entry: a directory,
    /// or the file of a linked work tree or submodule), else the current directory. Relative
    /// paths are joined to the current directory; refusals say which root was taken.
    pub fn by_default() -> Result<Root, Error> {
        let unusable =
            || Error::invalid_param("The current directory is not an existing directory.");
        let cwd = std::env::current_dir().map_err(|_| unusable())?;
        let top = cwd
            .ancestors()
            .find(|dir| std::fs::symlink_metadata(dir.join(".git")).is_ok());
        let (dir, taken) = match top {
            Some(top) => (top, Taken::WorkTree),
            None => (cwd.as_path(), Taken::CurrentDirectory),
        };
        let root = Root::open(dir, "The current directory")?;
        // The physical current directory below the root's canonical path: no link in it.
        let inside = std::fs::canonicalize(&cwd)
            .ok()
            .and_then(|cwd| Some(cwd.strip_prefix(&root.canonical).ok()?.to_path_buf()))
            .unwrap_or_default();
        Ok(Root {
            taken: Some(taken),
            cwd: inside.into_os_string().into_vec(),
            ..root
        })
    }

    /// What the root was taken to be, when nobody chose it.
    pub fn taken(&self) -> Option<Taken> {
        self.taken
    }

    /// A PATH as the caller wrote it, made relative to the root: when nobody chose the
    /// root, a relative PATH is joined to the current directory (`cd src && agentread
    /// ../README.md` reads the work tree's README.md). Paths agentread builds itself
    /// (listings, suggestions) are already relative to the root and never pass here.
    pub fn asked<'a>(&self, input: &'a OsStr) -> std::borrow::Cow<'a, OsStr> {
        let bytes = input.as_bytes();
        if self.cwd.is_empty() || bytes.is_empty() || bytes.starts_with(b"/") {
            return input.into();
        }
        let mut joined = self.cwd.clone();
        joined.push(b'/');
        joined.extend_from_slice(bytes);
        std::ffi::OsString::from_vec(joined).into()
    }

    /// A directory relative to the root, or None when it lies outside (for `context.cwd`).
    pub fn relative(&self, dir: &Path) -> Option<String> {
        let canonical = std::fs::canonicalize(dir).ok()?;
        let rest = canonical.strip_prefix(&self.canonical).ok()?;
        Some(match rest.as_os_str().is_empty() {
            true => ".".to_string(),
            false => rest.to_string_lossy().into_owned(),
        })
    }

    /// Resolves and opens `input`: a file for reading, or a directory for listing.
    pub fn resolve(&self, input: &OsStr) -> Result<Resolved, Error> {
        let Prepared {
            display,
            cleaned,
            parts,
        } = self.prepare(input)?;
        let mut passed = vec![cleaned];
        let walked = self
            .walk_again_if_changed(parts, &display, true, &mut passed)
            .map_err(|err| {
                // `nonexist/../x.txt` does not exist because `nonexist` does not: the
                // message names the path as asked, not `x.txt`, which may exist.
                let bytes = input.as_bytes();
                let climbs = bytes.split(|&b| b == b'/').any(|part| part == b"..");
                let asked = match !bytes.starts_with(b"/") && climbs {
                    true => names::text_of(bytes),
                    false => display.clone(),
                };
                if err.code == ErrorCode::NotFound
                    && asked != display
                    && err.message == Error::not_found(&display).message
                {
                    Error::not_found(&asked)
                } else {
                    err
                }
            })?;
        match walked {
            // A trailing slash asks for a directory, as it does in the shell.
            (_, Leaf::Opened(Opened::File { .. })) if input.as_bytes().ends_with(b"/") => {
                Err(Error::new(
                    ErrorCode::NotFound,
                    format!("'{display}/' is not a directory."),
                ))
            }
            (real, Leaf::Opened(opened)) => Ok(Resolved {
                display,
                real,
                opened,
                passed,
            }),
            (_, Leaf::EntryKind(_)) => Err(Error::internal("resolution ended without opening")),
        }
    }

    /// The kind of thing `input` leads to without opening it, or None when it cannot be
    /// followed inside the root.
    pub fn kind_of(&self, input: &OsStr) -> Option<EntryKind> {
        let Prepared { display, parts, .. } = self.prepare(input).ok()?;
        match self
            .walk_again_if_changed(parts, &display, false, &mut Vec::new())
            .ok()?
        {
            (_, Leaf::EntryKind(kind)) => Some(kind),
            (_, Leaf::Opened(_)) => None,
        }
    }

    /// Where `real` (a path relative to the root, links resolved) lies on disk.
    pub fn path_of(&self, real: &str) -> PathBuf {
        match real {
            "" | "." => self.canonical.clone(),
            _ => self.canonical.join(real),
        }
    }

    /// Whether the absolute path `absolute` lies inside the root (as written).
    pub fn holds(&self, absolute: &[u8]) -> bool {
        self.strip_root(absolute).is_some()
    }

    /// How `input` prints: relative to the root, cleaned; never an absolute path.
    pub fn display_of(&self, input: &OsStr) -> String {
        let bytes = input.as_bytes();
        if !bytes.starts_with(b"/") {
            return display_path(bytes);
        }
        match self.strip_root(bytes) {
            Some(rest) => display_path(&rest),
            None => self.relative_spelling(input),
        }
    }

    /// Checks the input and turns it into the components to walk from the root.
    /// Returns how it prints, its cleaned root-relative bytes, and its components.
    fn prepare(&self, input: &OsStr) -> Result<Prepared, Error> {
        let bytes = input.as_bytes();
        if bytes.is_empty() {
            return Err(Error::invalid_param("The path is empty."));
        }
        if bytes.len() > MAX_PATH_BYTES {
            return Err(Error::invalid_param(format!(
                "The path is {} bytes long; at most {MAX_PATH_BYTES} bytes are accepted.",
                bytes.len()
            )));
        }
        if bytes.contains(&0) {
            return Err(Error::invalid_param("The path contains a NUL byte."));
        }
        let relative: Vec<u8> = if bytes.starts_with(b"/") {
            match self.strip_root(bytes) {
                Some(rest) => rest,
                None => {
                    return Err(Error::outside_root(
                        &self.relative_spelling(input),
                        self.taken.map(Taken::words),
                    ));
                }
            }
        } else {
            bytes.to_vec()
        };
        let cleaned = clean_path(&relative);
        Ok(Prepared {
            display: names::text_of(&cleaned),
            parts: components(&relative),
            cleaned,
        })
    }

    /// An absolute path inside the root, as components relative to it.
    fn strip_root(&self, absolute: &[u8]) -> Option<Vec<u8>> {
        for root in [&self.canonical, &self.given] {
            let root = root.as_os_str().as_bytes();
            let root = root.strip_suffix(b"/").unwrap_or(root);
            if let Some(rest) = absolute.strip_prefix(root)
                && (rest.is_empty() || rest.starts_with(b"/"))
            {
                return Some(rest.to_vec());
            }
        }
        // The path may reach the root through a link of its own (e.g. /tmp -> /private/tmp).
        let path = Path::new(OsStr::from_bytes(absolute));
        let (parent, name) = (path.parent()?, path.file_name());
        let parent = std::fs::canonicalize(parent).ok()?;
        let rest = parent.strip_prefix(&self.canonical).ok()?;
        let mut joined = rest.as_os_str().as_bytes().to_vec();
        if let Some(name) = name {
            joined.push(b'/');
            joined.extend_from_slice(name.as_bytes());
        }
        Some(joined)
    }

    /// An absolute path outside the root, spelt relative to it (`../../etc/passwd`), so that
    /// no absolute path of the machine is printed.
    fn relative_spelling(&self, input: &OsStr) -> String {
        let target = lexical_clean(Path::new(input));
        let root: Vec<Component> = self.canonical.components().collect();
        let target: Vec<Component> = target.components().collect();
        let common = root.iter().zip(&target).take_while(|(a, b)| a == b).count();
        let mut parts: Vec<String> = vec!["..".to_string(); root.len() - common];
        parts.extend(
            target[common..]
                .iter()
                .map(|c| names::text_of(c.as_os_str().as_bytes())),
        );
        parts.join("/")
    }

    /// [`Root::walk`], run a second time when the tree changed under the first (a rename
    /// race); when it changed under both, the answer says so.
    fn walk_again_if_changed(
        &self,
        parts: Vec<Vec<u8>>,
        display: &str,
        open: bool,
        passed: &mut Vec<Vec<u8>>,
    ) -> Result<(String, Leaf), Error> {
        let before = passed.len();
        match self.walk(parts.clone(), display, open, passed) {
            Ok(walked) => return Ok(walked),
            Err(WalkError::Failed(error)) => return Err(error),
            Err(WalkError::Changed) => passed.truncate(before),
        }
        match self.walk(parts, display, open, passed) {
            Ok(walked) => Ok(walked),
            Err(WalkError::Failed(error)) => Err(error),
            Err(WalkError::Changed) => Err(Error::new(
                ErrorCode::IoError,
                format!("'{display}' changed while it was being opened; try again."),
            )),
        }
    }

    /// Walks `parts` from the root. With `open`, opens the leaf; otherwise stops at its name.
    /// Returns the real relative path and what was opened; `passed` collects the paths of
    /// the links followed and of the leaf.
    fn walk(
        &self,
        parts: Vec<Vec<u8>>,
        display: &str,
        open: bool,
        passed: &mut Vec<Vec<u8>>,
    ) -> Result<(String, Leaf), WalkError> {
        let mut pending: VecDeque<Vec<u8>> = parts.into();
        // The directories entered below the root, each held open, with its name.
        let mut stack: Vec<(OwnedFd, Vec<u8>)> = Vec::new();
        let mut hops = 0;
        let mut changes = 0;
        // The last link followed: a refusal names it.
        let mut via_link: Option<String> = None;
        // The root's own names, from the top (it is canonical): a walk that goes above it
        // by `..` may come back in by them (`../ws/a.txt` from a root named `ws`).
        let root_names: Vec<&[u8]> = self
            .canonical
            .components()
            .filter_map(|c| match c {
                Component::Normal(name) => Some(name.as_bytes()),
                _ => None,
            })
            .collect();
        // How many directories above the root the walk is: nothing there is looked at,
        // only whether the names that follow lead back into the root.
        let mut above = 0usize;
        let outside = |via_link: &Option<String>| -> WalkError {
            match via_link {
                Some(link) => Error::link_outside_root(link, self.taken.map(Taken::words)),
                None => Error::outside_root(display, self.taken.map(Taken::words)),
            }
            .into()
        };
        while let Some(part) = pending.pop_front() {
            if part == b".." {
                if above > 0 || stack.pop().is_none() {
                    // `/..` is `/`.
                    above = (above + 1).min(root_names.len());
                }
                continue;
            }
            if above > 0 {
                // Back down towards the root only by its own names; the root is then the
                // descriptor held, never a lookup of its name.
                if root_names.get(root_names.len() - above) != Some(&part.as_slice()) {
                    return Err(outside(&via_link));
                }
                above -= 1;
                continue;
            }
            let dir = stack.last().map_or(self.fd.as_fd(), |(fd, _)| fd.as_fd());
            let stat = rustix::fs::statat(dir, part.as_slice(), AtFlags::SYMLINK_NOFOLLOW)
                .map_err(|e| self.fs_error(e, display))?;
            let is_leaf = pending.is_empty();
            let here_bytes = joined_bytes(&stack, &part);
            let here = names::text_of(&here_bytes);
            match FileType::from_raw_mode(stat.st_mode) {
                FileType::Symlink => {
                    hops += 1;
                    if hops > MAX_LINK_HOPS {
                        return Err(Error::new(
                            ErrorCode::NotFound,
                            format!(
                                "Path '{display}' cannot be resolved: too many levels of symbolic links (a loop through '{here}')."
                            ),
                        )
                        .into());
                    }
                    let target = match rustix::fs::readlinkat(dir, part.as_slice(), Vec::new()) {
                        Ok(target) => target.into_bytes(),
                        // No longer a link since the stat (EINVAL): look at it again.
                        Err(Errno::INVAL) => {
                            hops -= 1;
                            look_again(&mut pending, part, &mut changes)?;
                            continue;
                        }
                        Err(e) => return Err(self.fs_error(e, display).into()),
                    };
                    let target = if target.starts_with(b"/") {
                        let Some(rest) = self.strip_root(&target) else {
                            return Err(Error::link_outside_root(
                                &here,
                                self.taken.map(Taken::words),
                            )
                            .into());
                        };
                        stack.clear();
                        rest
                    } else {
                        target
                    };
                    for c in components(&target).into_iter().rev() {
                        pending.push_front(c);
                    }
                    passed.push(here_bytes);
                    via_link = Some(here);
                }
                FileType::Directory if !is_leaf => {
                    let fd = rustix::fs::openat(
                        dir,
                        part.as_slice(),
                        DIR_HANDLE | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                        Mode::empty(),
                    );
                    match fd {
                        Ok(fd) => stack.push((fd, part)),
                        // Replaced by a link since the stat: look at it again.
                        Err(Errno::LOOP | Errno::NOTDIR) => {
                            look_again(&mut pending, part, &mut changes)?
                        }
                        Err(e) => return Err(self.fs_error(e, display).into()),
                    }
                }
                // Only directories and links to them can have components after them.
                _ if !is_leaf => return Err(Error::not_found(display).into()),
                file_type if !open => {
                    let kind = match file_type {
                        FileType::RegularFile => EntryKind::File,
                        FileType::Directory => EntryKind::Directory,
                        _ => EntryKind::Other,
                    };
                    return Ok((here, Leaf::EntryKind(kind)));
                }
                file_type @ (FileType::Directory | FileType::RegularFile) => {
                    let extra = match file_type {
                        FileType::Directory => OFlags::DIRECTORY,
                        _ => OFlags::empty(),
                    };
                    match self.open_leaf(dir, &part, extra, display)? {
                        Some(opened) => {
                            passed.push(here_bytes);
                            return Ok((here, Leaf::Opened(opened)));
                        }
                        None => look_again(&mut pending, part, &mut changes)?,
                    }
                }
                _ => return Err(not_a_file(display, stat.st_mode).into()),
            }
        }
        if above > 0 {
            return Err(outside(&via_link));
        }
        // The path ended on a directory already entered (".", "a/..", or the root itself).
        let real = match stack.is_empty() {
            true => ".".to_string(),
            false => names::text_of(&stack_path(&stack)),
        };
        if !open {
            return Ok((real, Leaf::EntryKind(EntryKind::Directory)));
        }
        let dir = stack.last().map_or(self.fd.as_fd(), |(fd, _)| fd.as_fd());
        let fd = rustix::fs::openat(
            dir,
            ".",
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| self.fs_error(e, display))?;
        Ok((real, Leaf::Opened(Opened::Directory { fd })))
    }

    /// Opens the leaf without following a link and without blocking (a FIFO swapped in
    /// since the stat must not hang us), then trusts only the descriptor's own stat.
    /// None when the leaf changed in the meantime: it became a link (ELOOP), a directory
    /// became a file (ENOTDIR), a file became a socket (ENXIO).
    fn open_leaf(
        &self,
        dir: BorrowedFd<'_>,
        name: &[u8],
        extra: OFlags,
        display: &str,
    ) -> Result<Option<Opened>, Error> {
        let flags = OFlags::RDONLY
            | OFlags::NOFOLLOW
            | OFlags::NONBLOCK
            | OFlags::NOCTTY
            | OFlags::CLOEXEC
            | extra;
        let fd = match rustix::fs::openat(dir, name, flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(Errno::LOOP | Errno::NXIO) => return Ok(None),
            Err(Errno::NOTDIR) if extra.contains(OFlags::DIRECTORY) => return Ok(None),
            Err(e) => return Err(self.fs_error(e, display)),
        };
        let stat = rustix::fs::fstat(&fd).map_err(|e| self.fs_error(e, display))?;
        match FileType::from_raw_mode(stat.st_mode) {
            FileType::RegularFile => {
                // O_NONBLOCK stays: files on disk ignore it, and a file that only stat
                // calls regular (`/proc/kmsg`, a tracing pipe) then answers EAGAIN instead
                // of blocking the call; the reader turns that into NOT_FILE.
                Ok(Some(Opened::File {
                    file: File::from(fd),
                    stat,
                }))
            }
            FileType::Directory => Ok(Some(Opened::Directory { fd })),
            _ => Err(not_a_file(display, stat.st_mode)),
        }
    }

    fn fs_error(&self, errno: Errno, display: &str) -> Error {
        match errno {
            Errno::NOENT | Errno::NOTDIR | Errno::NAMETOOLONG => Error::not_found(display),
            Errno::ACCESS | Errno::PERM => Error::permission_denied(display),
            other => Error::new(
                ErrorCode::IoError,
                format!(
                    "Opening '{display}' failed: {}.",
                    crate::error::os_reason(&std::io::Error::from(other))
                ),
            ),
        }
    }
}

/// Puts back a component that changed between its stat and its opening, to be looked at
/// again; after `MAX_CHANGES` of them the walk gives up as changed.
fn look_again(
    pending: &mut VecDeque<Vec<u8>>,
    part: Vec<u8>,
    changes: &mut usize,
) -> Result<(), WalkError> {
    *changes += 1;
    if *changes > MAX_CHANGES {
        return Err(WalkError::Changed);
    }
    pending.push_front(part);
    Ok(())
}

fn not_a_file(display: &str, mode: u32) -> Error {
    let what = match FileType::from_raw_mode(mode) {
        FileType::Fifo => "a FIFO (named pipe)",
        FileType::Socket => "a socket",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        _ => "not a regular file",
    };
    Error::new(
        ErrorCode::NotFile,
        format!("'{display}' is {what}, not a regular file; it was not read."),
    )
}

/// The real relative path of `name` inside the directories of `stack`.
fn joined_bytes(stack: &[(OwnedFd, Vec<u8>)], name: &[u8]) -> Vec<u8> {
    let mut parts: Vec<&[u8]> = stack.iter().map(|(_, n)| n.as_slice()).collect();
    parts.push(name);
    parts.join(&b'/')
}

fn stack_path(stack: &[(OwnedFd, Vec<u8>)]) -> Vec<u8> {
    let parts: Vec<&[u8]> = stack.iter().map(|(_, n)| n.as_slice()).collect();
    parts.join(&b'/')
}

/// The path components to walk: empty and `.` components dropped.
fn components(path: &[u8]) -> Vec<Vec<u8>> {
    path.split(|&b| b == b'/')
        .filter(|c| !c.is_empty() && *c != b".")
        .map(<[u8]>::to_vec)
        .collect()
}

/// The path as the user asked for it, relative to the root, with `.`, empty components and
/// `..` after a name removed. Leading `..` stay: they say the path leaves the root.
pub fn display_path(relative: &[u8]) -> String {
    names::text_of(&clean_path(relative))
}

/// [`display_path`]'s cleaning, on bytes.
fn clean_path(relative: &[u8]) -> Vec<u8> {
    let mut out: Vec<&[u8]> = Vec::new();
    for part in relative.split(|&b| b == b'/') {
        match part {
            b"" | b"." => {}
            b".." if out.last().is_some_and(|last| *last != b"..") => {
                out.pop();
            }
            _ => out.push(part),
        }
    }
    if out.is_empty() {
        return b".".to_vec();
    }
    out.join(&b'/')
}

fn lexical_clean(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_paths_are_cleaned_lexically() {
        assert_eq!(display_path(b"./src//main.rs"), "src/main.rs");
        assert_eq!(display_path(b"a/../b.txt"), "b.txt");
        assert_eq!(display_path(b"../etc/passwd"), "../etc/passwd");
        assert_eq!(display_path(b"a/../../x"), "../x");
        assert_eq!(display_path(b"."), ".");
        assert_eq!(display_path(b""), ".");
    }
}
