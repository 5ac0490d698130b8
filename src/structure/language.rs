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

impl Language {
    /// How many languages there are (`language as usize` is below it).
    pub const COUNT: usize = Language::Markdown as usize + 1;
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
    ///
    /// A `.h` file is C++ when its first 64 KiB hold C++ (see [`looks_like_cpp`]); a
    /// caller that knows only the name gets C.
    pub fn detect(file_name: &str, first_bytes: &[u8]) -> Option<Language> {
        let base = file_name.rsplit('/').next().unwrap_or(file_name);
        // A leading dot starts a hidden name, not an extension (`.bashrc`).
        match base.rfind('.').filter(|&dot| dot > 0) {
            Some(dot) => {
                let ext = &base[dot + 1..];
                let language = EXTENSIONS
                    .iter()
                    .find(|(known, _)| known.eq_ignore_ascii_case(ext))
                    .map(|&(_, language)| language);
                match language {
                    Some(Language::C)
                        if ext.eq_ignore_ascii_case("h") && looks_like_cpp(first_bytes) =>
                    {
                        Some(Language::Cpp)
                    }
                    _ => language,
                }
            }
            None => by_shebang(first_bytes),
        }
    }

    /// The language `data.language` names (TypeScript for `typescript`, whose two
    /// grammars share the name).
    pub fn named(name: &str) -> Option<Language> {
        [
            Language::Rust,
            Language::Python,
            Language::JavaScript,
            Language::TypeScript,
            Language::Go,
            Language::Java,
            Language::C,
            Language::Cpp,
            Language::Markdown,
        ]
        .into_iter()
        .find(|language| language.name() == name)
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

/// How much of a `.h` file is looked at to tell C++ from C.
pub const HEADER_SNIFF: usize = 64 << 10;

/// Whether the first [`HEADER_SNIFF`] bytes of a header hold C++ (SPEC §15 "C and
/// C++"): `namespace`, `template <`, `class NAME {`, `public:` or `::` outside comments
/// and strings.
pub fn looks_like_cpp(head: &[u8]) -> bool {
    let head = &head[..head.len().min(HEADER_SNIFF)];
    let word_at = |at: usize| -> &[u8] {
        let end = head[at..]
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
            .map_or(head.len(), |n| at + n);
        &head[at..end]
    };
    let skip_space = |mut at: usize| {
        while at < head.len() && head[at].is_ascii_whitespace() {
            at += 1;
        }
        at
    };
    let mut at = 0;
    while at < head.len() {
        let b = head[at];
        match b {
            b'/' if head.get(at + 1) == Some(&b'/') => {
                at = memchr_from(head, b'\n', at).map_or(head.len(), |n| n + 1);
            }
            b'/' if head.get(at + 1) == Some(&b'*') => {
                at = head[at + 2..]
                    .windows(2)
                    .position(|w| w == b"*/")
                    .map_or(head.len(), |n| at + 2 + n + 2);
            }
            b'"' | b'\'' => {
                // To the closing quote or the line's end, escapes skipped.
                at += 1;
                while at < head.len() && head[at] != b && head[at] != b'\n' {
                    at += if head[at] == b'\\' { 2 } else { 1 };
                }
                at += 1;
            }
            b':' if head.get(at + 1) == Some(&b':') => return true,
            _ if b.is_ascii_alphabetic() || b == b'_' => {
                let word = word_at(at);
                let after = skip_space(at + word.len());
                let next = head.get(after).copied();
                let starts_word =
                    at == 0 || !(head[at - 1].is_ascii_alphanumeric() || head[at - 1] == b'_');
                if starts_word {
                    match word {
                        b"namespace" => return true,
                        b"template" if next == Some(b'<') => return true,
                        b"public" if next == Some(b':') && head.get(after + 1) != Some(&b':') => {
                            return true;
                        }
                        b"class" if next.is_some_and(|c| c.is_ascii_alphabetic() || c == b'_') => {
                            let name = word_at(after);
                            if head.get(skip_space(after + name.len())) == Some(&b'{') {
                                return true;
                            }
                        }
                        _ => {}
                    }
                }
                at += word.len();
            }
            _ => at += 1,
        }
    }
    false
}

/// The first `byte` at or after `from`.
fn memchr_from(head: &[u8], byte: u8, from: usize) -> Option<usize> {
    head[from..]
        .iter()
        .position(|&b| b == byte)
        .map(|n| from + n)
}
