//! Which language a file is written in (SPEC §15 "Languages"): by its extension, or for
//! a file without one by its `#!` line, and the few facts about a language that the
//! answers carry (its name, the separator of qualified names).

/// A language whose structure agentread knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    /// TypeScript with JSX: a grammar of its own, reported as `typescript`.
    Tsx,
    Go,
    Java,
    C,
    Cpp,
    Markdown,
}

/// The known languages, as the `INVALID_PARAM` message for an unknown one names them.
pub const KNOWN_LANGUAGES: &str =
    "Rust, Python, JavaScript, TypeScript, Go, Java, C, C++ and Markdown";

/// Extensions (lower case, without the dot) and their languages, as SPEC §15 lists them.
const EXTENSIONS: &[(&str, Language)] = &[
    ("rs", Language::Rust),
    ("py", Language::Python),
    ("pyi", Language::Python),
    ("js", Language::JavaScript),
    ("mjs", Language::JavaScript),
    ("cjs", Language::JavaScript),
    ("jsx", Language::JavaScript),
    ("ts", Language::TypeScript),
    ("mts", Language::TypeScript),
    ("cts", Language::TypeScript),
    ("tsx", Language::Tsx),
    ("go", Language::Go),
    ("java", Language::Java),
    ("c", Language::C),
    ("h", Language::C),
    ("cc", Language::Cpp),
    ("cpp", Language::Cpp),
    ("cxx", Language::Cpp),
    ("hpp", Language::Cpp),
    ("hh", Language::Cpp),
    ("hxx", Language::Cpp),
    ("md", Language::Markdown),
    ("markdown", Language::Markdown),
];

/// How far into the file a `#!` line is looked for: a longer first line is no
/// interpreter line worth reading.
const SHEBANG_LIMIT: usize = 256;

impl Language {
    /// The language of a file named `file_name` (a bare name or a path; only the part
    /// after the last `/` counts) whose first bytes are `first_bytes`: by extension
    /// (ASCII case ignored), else, for a name without an extension, by the interpreter
    /// its `#!` line names (`python…` or `node`, also through `env`).
    pub fn detect(file_name: &str, first_bytes: &[u8]) -> Option<Language> {
        let base = file_name.rsplit('/').next().unwrap_or(file_name);
        // A leading dot starts a hidden name, not an extension (`.bashrc`).
        match base.rfind('.').filter(|&dot| dot > 0) {
            Some(dot) => {
                let ext = &base[dot + 1..];
                EXTENSIONS
                    .iter()
                    .find(|(known, _)| known.eq_ignore_ascii_case(ext))
                    .map(|&(_, language)| language)
            }
            None => by_shebang(first_bytes),
        }
    }

    /// The name `data.language` gives.
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::TypeScript | Language::Tsx => "typescript",
            Language::Go => "go",
            Language::Java => "java",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Markdown => "markdown",
        }
    }

    /// What joins the parts of a qualified name (SPEC §15 "Qualified names").
    pub fn separator(self) -> &'static str {
        match self {
            Language::Rust | Language::Cpp => "::",
            Language::Markdown => " > ",
            _ => ".",
        }
    }
}

/// The language an interpreter line names: `#!/usr/bin/python3`, `#!/usr/bin/env node`,
/// `#!/usr/bin/env -S node --flag`, `#!/usr/bin/env -u VAR python`.
fn by_shebang(first_bytes: &[u8]) -> Option<Language> {
    let rest = first_bytes.strip_prefix(b"#!")?;
    let head = &rest[..rest.len().min(SHEBANG_LIMIT)];
    let line = head.split(|&b| b == b'\n').next().unwrap_or(head);
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_ascii_whitespace();
    let mut program = basename(words.next()?);
    if program == "env" {
        program = loop {
            let word = words.next()?;
            match word {
                // Options of env that take a value in the next word.
                "-u" | "--unset" | "-C" | "--chdir" => {
                    words.next()?;
                }
                // `-S` splits the rest into words, which splitting on spaces already did;
                // other options and `NAME=value` settings come before the program.
                _ if word.starts_with('-') || word.contains('=') => {}
                _ => break basename(word),
            }
        };
    }
    interpreter_language(program)
}

/// The last part of a path.
fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `python`, `python3`, `python3.12` are Python; `node` and `nodejs` JavaScript.
fn interpreter_language(program: &str) -> Option<Language> {
    if let Some(version) = program.strip_prefix("python") {
        return version
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.')
            .then_some(Language::Python);
    }
    matches!(program, "node" | "nodejs").then_some(Language::JavaScript)
}
