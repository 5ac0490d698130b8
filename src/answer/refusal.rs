//! The words of a refusal of binary input: what its first bytes say it is, and the step
//! that reads it (`gzip data; try 'zcat a.gz | agentread -'`), worded as flags or as
//! tool parameters.

use crate::args::params::{Wording, name};
use crate::names::{Quoting, shell_word};
use crate::read::sniff::Recognised;

/// What a binary input is and the step that reads it, for [`Error::binary_as`]:
/// `gzip data; try 'zcat a.gz | agentread -'`. `path` is None for standard input. Images
/// and UTF-16 text have agentread's own next step, worded as flags or as tool parameters.
pub fn recognised(found: &Recognised, path: Option<&str>, wording: Wording) -> String {
    let step = match found {
        Recognised::Image { .. } => Some(match wording {
            Wording::Cli => "agentread --mcp sends images to models".to_string(),
            Wording::Tool => "agentread's MCP server sends images to models".to_string(),
        }),
        // A PDF, a file's or standard input's, reaches here only with `--raw`: its text
        // view is the next step.
        Recognised::Pdf => Some(format!(
            "without {} agentread reads its text",
            wording.flag(name::RAW)
        )),
        Recognised::Utf16(encoding) => {
            let label = encoding.name().to_ascii_lowercase();
            Some(format!("use {}", wording.set(&[(name::ENCODING, &label)])))
        }
        other => other.step(path),
    };
    match step {
        Some(step) => format!("{}; {step}", found.name()),
        None => found.name(),
    }
}

impl Recognised {
    /// What it is, as a refusal names it: `gzip data`, `PNG image, 1241x357`.
    pub fn name(&self) -> String {
        match self {
            Recognised::Image {
                kind,
                size: Some((width, height)),
            } => format!("{} image, {width}x{height}", kind.name()),
            Recognised::Image { kind, size: None } => format!("{} image", kind.name()),
            Recognised::Gzip => "gzip data".into(),
            Recognised::Bzip2 => "bzip2 data".into(),
            Recognised::Xz => "xz data".into(),
            Recognised::Zstd => "zstd data".into(),
            Recognised::Zip => "zip archive".into(),
            Recognised::SevenZip => "7-Zip archive".into(),
            Recognised::Tar => "tar archive".into(),
            Recognised::Pdf => "PDF document".into(),
            Recognised::Elf => "ELF executable or library".into(),
            Recognised::MachO => "Mach-O executable or library".into(),
            Recognised::Pe => "Windows executable (PE)".into(),
            Recognised::JavaClass => "Java class file".into(),
            Recognised::Sqlite => "SQLite database".into(),
            Recognised::Utf16(encoding) => {
                format!("{} text without a byte order mark", encoding.name())
            }
        }
    }

    /// The shell commands that read it, as a refusal suggests them: for the file at
    /// `path` (root-relative), or for standard input when `path` is None. None when there
    /// is no such command, and for images, PDFs and UTF-16, whose next step is agentread's
    /// own.
    pub fn step(&self, path: Option<&str>) -> Option<String> {
        let decompress = |tool: &str| match path {
            Some(path) if is_compressed_tar(path) => Some(format!(
                "list it with 'tar -tf {0}', read a member with 'tar -xOf {0} MEMBER | agentread -'",
                shell_word(path, Quoting::Double)
            )),
            Some(path) => Some(format!(
                "try '{tool} {} | agentread -'",
                shell_word(path, Quoting::Double)
            )),
            None => Some(format!("try '… | {tool} | agentread -'")),
        };
        let path = path.map(|p| shell_word(p, Quoting::Double));
        let with_path = |text: &str| path.as_ref().map(|p| text.replace("{}", p));
        match self {
            Recognised::Gzip => decompress("zcat"),
            Recognised::Bzip2 => decompress("bzcat"),
            Recognised::Xz => decompress("xzcat"),
            Recognised::Zstd => decompress("zstdcat"),
            Recognised::Zip => with_path(
                "list it with 'unzip -l {}', read a member with 'unzip -p {} MEMBER | agentread -'",
            ),
            Recognised::SevenZip => with_path(
                "list it with '7z l {}', read a member with '7z x -so {} MEMBER | agentread -'",
            ),
            Recognised::Tar => with_path(
                "list it with 'tar -tf {}', read a member with 'tar -xOf {} MEMBER | agentread -'",
            ),
            // agentread reads a PDF's text itself: see [`recognised`].
            Recognised::Pdf => None,
            Recognised::Elf | Recognised::MachO | Recognised::Pe => {
                with_path("try 'strings {} | agentread -' for its text")
            }
            Recognised::JavaClass => with_path("try 'javap -c -p {} | agentread -'"),
            Recognised::Sqlite => with_path("try 'sqlite3 {} .schema'"),
            Recognised::Image { .. } | Recognised::Utf16(_) => None,
        }
    }
}

/// A tar archive compressed as a whole, by its name (`tar -tf` finds the compression).
fn is_compressed_tar(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    [
        ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".tar.zst", ".tzst",
    ]
    .iter()
    .any(|ext| name.ends_with(ext))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::sniff::ImageKind;

    #[test]
    fn steps_name_the_command_with_the_path_as_one_shell_word() {
        assert_eq!(
            Recognised::Gzip.step(Some("logs/a.gz")).unwrap(),
            "try 'zcat logs/a.gz | agentread -'"
        );
        assert_eq!(
            Recognised::Gzip.step(Some("my \"a\" $x.gz")).unwrap(),
            "try 'zcat \"my \\\"a\\\" \\$x.gz\" | agentread -'"
        );
        assert_eq!(
            Recognised::Gzip.step(Some("-v.gz")).unwrap(),
            "try 'zcat ./-v.gz | agentread -'"
        );
        assert_eq!(
            Recognised::Xz.step(Some("src.tar.xz")).unwrap(),
            "list it with 'tar -tf src.tar.xz', read a member with 'tar -xOf src.tar.xz MEMBER | agentread -'"
        );
        assert_eq!(
            Recognised::Zstd.step(None).unwrap(),
            "try '… | zstdcat | agentread -'"
        );
        assert_eq!(Recognised::Sqlite.step(None), None);
        // A PDF on standard input with --raw: agentread's own step, not pdftotext.
        let pdf = recognised(&Recognised::Pdf, None, Wording::Cli);
        assert_eq!(pdf, "PDF document; without --raw agentread reads its text");
        let pdf = recognised(&Recognised::Pdf, None, Wording::Tool);
        assert_eq!(
            pdf,
            "PDF document; without raw=true agentread reads its text"
        );
        assert_eq!(
            Recognised::Sqlite.step(Some("app.db")).unwrap(),
            "try 'sqlite3 app.db .schema'"
        );
        let image = Recognised::Image {
            kind: ImageKind::Jpeg,
            size: None,
        };
        assert_eq!(
            (image.name(), image.step(Some("a.jpg"))),
            ("JPEG image".into(), None)
        );
    }
}
