//! Directory listings (SPEC §8): entries sorted case-insensitively, directories marked
//! with `/`, links followed only when they stay inside the root.

use std::ffi::OsStr;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;

use rustix::fs::{AtFlags, Dir, FileType};

use crate::error::Error;
use crate::sandbox::{Kind, Root};

/// The entries of the directory `fd`, whose path relative to the root is `real`, sorted,
/// directories suffixed with `/`.
pub fn entries(root: &Root, fd: &OwnedFd, real: &str, display: &str) -> Result<Vec<String>, Error> {
    let failed = |e: rustix::io::Errno| Error::read_failed(display, &std::io::Error::from(e));
    let mut found: Vec<(Vec<u8>, bool)> = Vec::new();
    for (name, file_type) in raw_entries(fd, usize::MAX).map_err(failed)? {
        let is_dir = match file_type {
            FileType::Directory => true,
            // A link is followed only when it stays inside the root.
            FileType::Symlink => {
                let mut path = if real == "." {
                    Vec::new()
                } else {
                    [real.as_bytes(), b"/"].concat()
                };
                path.extend_from_slice(&name);
                root.kind_of(OsStr::from_bytes(&path)) == Some(Kind::Directory)
            }
            _ => false,
        };
        found.push((name, is_dir));
    }
    found.sort_by_cached_key(|(name, _)| {
        (String::from_utf8_lossy(name).to_lowercase(), name.clone())
    });
    Ok(found
        .into_iter()
        .map(|(name, is_dir)| label(&name, is_dir))
        .collect())
}

/// Up to `cap` entry names, unsorted, directories (not links to them) suffixed with `/`:
/// a cheap look for "did you mean".
pub fn names(fd: &OwnedFd, cap: usize) -> Vec<String> {
    raw_entries(fd, cap)
        .unwrap_or_default()
        .into_iter()
        .map(|(name, file_type)| label(&name, file_type == FileType::Directory))
        .collect()
}

fn label(name: &[u8], is_dir: bool) -> String {
    let mut label = crate::names::text_of(name);
    if is_dir {
        label.push('/');
    }
    label
}

/// Up to `cap` entries with their types (`.` and `..` left out); a type the directory does
/// not record is asked of the file itself, without following links.
fn raw_entries(fd: &OwnedFd, cap: usize) -> Result<Vec<(Vec<u8>, FileType)>, rustix::io::Errno> {
    let mut found = Vec::new();
    for entry in Dir::read_from(fd)? {
        if found.len() >= cap {
            break;
        }
        let entry = entry?;
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        let file_type = match entry.file_type() {
            FileType::Unknown => {
                rustix::fs::statat(fd, entry.file_name(), AtFlags::SYMLINK_NOFOLLOW)
                    .map(|st| FileType::from_raw_mode(st.st_mode))
                    .unwrap_or(FileType::Unknown)
            }
            known => known,
        };
        found.push((name.to_vec(), file_type));
    }
    Ok(found)
}
