//! The deny policy (SPEC §14): gitignore-style globs that refuse files by their
//! root-relative path, matched (with ripgrep's `ignore` crate) against the file finally
//! opened and every link on the way to it.

use std::path::{Component, Path, PathBuf};

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};

use crate::error::Error;

/// The files `--deny-secrets` refuses.
pub const SECRETS: &[&str] = &[
    ".env",
    ".env.*",
    "!.env.example",
    "!.env.sample",
    "!.env.template",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.kdbx",
    "id_rsa",
    "id_dsa",
    "id_ecdsa",
    "id_ed25519",
    ".netrc",
    ".pgpass",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    ".aws/credentials",
    ".docker/config.json",
];

/// Lists of globs, each read in order on its own: a path is denied when any list denies
/// it, so a `!` in one list cannot re-allow what another denies.
#[derive(Debug, Default)]
pub struct DenyPolicy {
    lists: Vec<Gitignore>,
}

impl DenyPolicy {
    /// `environment`: `AGENTREAD_DENY`'s globs; `flags`: `--deny`'s; `secrets`: whether
    /// `--deny-secrets` adds the built-in list.
    pub fn new(environment: &[String], flags: &[String], secrets: bool) -> Result<Self, Error> {
        let mut lists = Vec::new();
        let builtin: Vec<String> = SECRETS.iter().map(|s| s.to_string()).collect();
        let sources: [(&[String], &str); 3] = [
            (environment, "AGENTREAD_DENY"),
            (flags, "--deny"),
            (if secrets { &builtin } else { &[] }, "--deny-secrets"),
        ];
        for (globs, source) in sources {
            if globs.is_empty() {
                continue;
            }
            // Globs are matched against root-relative paths: the builder's root is "".
            let mut builder = GitignoreBuilder::new("");
            for glob in globs {
                builder.add_line(None, glob).map_err(|e| {
                    Error::invalid_param(format!("Invalid glob '{glob}' in {source}: {e}."))
                })?;
            }
            let list = builder
                .build()
                .map_err(|e| Error::invalid_param(format!("Invalid globs in {source}: {e}.")))?;
            lists.push(list);
        }
        Ok(DenyPolicy { lists })
    }

    /// The glob that denies the file at `relative` (a root-relative path; a glob on one
    /// of its parent directories counts), if any.
    pub fn denying(&self, relative: &Path) -> Option<String> {
        if self.lists.is_empty() {
            return None;
        }
        // Only the names: the matcher panics on a path with a root (found by fuzzing,
        // `//`), and the sandbox's paths have no `.` or `..` left.
        let relative: PathBuf = relative
            .components()
            .filter(|c| matches!(c, Component::Normal(_)))
            .collect();
        if relative.as_os_str().is_empty() {
            return None;
        }
        self.lists.iter().find_map(|list| {
            match list.matched_path_or_any_parents(&relative, false) {
                Match::Ignore(glob) => Some(glob.original().to_string()),
                Match::Whitelist(_) | Match::None => None,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(env: &[&str], flags: &[&str], secrets: bool) -> DenyPolicy {
        let own = |g: &[&str]| g.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        DenyPolicy::new(&own(env), &own(flags), secrets).unwrap()
    }

    #[test]
    fn globs_follow_gitignore_rules() {
        let p = policy(
            &[],
            &["*.pem", "secrets/**", ".env*", "!.env.example", "/top.txt"],
            false,
        );
        assert_eq!(
            p.denying(Path::new("a/b/key.pem")).as_deref(),
            Some("*.pem")
        );
        assert_eq!(
            p.denying(Path::new("secrets/x/y")).as_deref(),
            Some("secrets/**")
        );
        assert_eq!(
            p.denying(Path::new("sub/.env.local")).as_deref(),
            Some(".env*")
        );
        assert_eq!(p.denying(Path::new(".env.example")), None);
        assert_eq!(p.denying(Path::new("top.txt")).as_deref(), Some("/top.txt"));
        assert_eq!(p.denying(Path::new("sub/top.txt")), None);
        assert_eq!(p.denying(Path::new("src/main.rs")), None);
        // Whatever the spelling, no panic (fuzzing found `//`).
        for odd in ["//", "/", "/a.pem", "./a.pem", "a/../b.pem", ""] {
            let _ = p.denying(Path::new(odd));
        }
        assert_eq!(p.denying(Path::new("/x/key.pem")).as_deref(), Some("*.pem"));
    }

    #[test]
    fn a_negation_in_one_list_cannot_allow_what_another_denies() {
        let p = policy(&["*.key"], &["!a.key"], false);
        assert_eq!(p.denying(Path::new("a.key")).as_deref(), Some("*.key"));
    }

    #[test]
    fn the_secrets_list_spares_examples() {
        let p = policy(&[], &[], true);
        for denied in [
            ".env",
            "app/.env.local",
            "id_rsa",
            "x/server.key",
            ".aws/credentials",
        ] {
            assert!(p.denying(Path::new(denied)).is_some(), "{denied}");
        }
        for allowed in [
            ".env.example",
            ".env.sample",
            ".env.template",
            "README.md",
            "sub/.aws/credentials",
        ] {
            assert_eq!(p.denying(Path::new(allowed)), None, "{allowed}");
        }
    }
}
