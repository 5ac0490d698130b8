//! `--generate WHAT` (SPEC §17): the completion scripts and the man page, generated from
//! the one clap definition (what `completions/` and `man/` hold, checked by a test).

use std::fmt::Write as _;

use clap::CommandFactory;
use clap_complete::Shell;

pub use crate::args::cli::Generated;
use crate::args::cli::{Cli, EXAMPLES, MAN_SECTIONS};

/// The bytes of a completion script or of the man page.
pub fn generate(what: Generated) -> Vec<u8> {
    let shell = match what {
        Generated::Bash => Shell::Bash,
        Generated::Zsh => Shell::Zsh,
        Generated::Fish => Shell::Fish,
        Generated::Powershell => Shell::PowerShell,
        Generated::Elvish => Shell::Elvish,
        Generated::Man => return man_page(),
    };
    let mut command = Cli::command();
    let mut bytes = Vec::new();
    clap_complete::generate(shell, &mut command, "agentread", &mut bytes);
    if shell == Shell::Bash {
        return bash_for_files(&String::from_utf8_lossy(&bytes)).into_bytes();
    }
    bytes
}

/// clap_complete's bash script offers the options for an empty word and for the first
/// word of a command without subcommands; agentread's words are mostly files. Options
/// are offered for a word that starts with `-`; any other word falls through to bash's
/// file completion (`-o default`), and an option's free-text value (a number, a glob,
/// JSON) completes to nothing rather than to file names.
fn bash_for_files(script: &str) -> String {
    script
        .replace(
            "if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then",
            "if [[ ${cur} == -* ]] ; then",
        )
        .replace(
            "                compopt -o nospace\n",
            "                compopt -o nospace +o default +o bashdefault\n",
        )
        .replace(
            "            esac\n            COMPREPLY=( $(compgen -W \"${opts}\" -- \"${cur}\") )\n",
            "            esac\n            COMPREPLY=()\n",
        )
}

/// clap_mangen's sections, with the examples kept as written (roff no-fill) and the exit
/// status and environment spelt out, in ASCII (`ascii_roff`).
fn man_page() -> Vec<u8> {
    let man = clap_mangen::Man::new(Cli::command());
    let mut page = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = man.render_title(&mut page);
    let _ = man.render_name_section(&mut page);
    let _ = man.render_synopsis_section(&mut page);
    let _ = man.render_description_section(&mut page);
    let _ = man.render_options_section(&mut page);
    let (examples, exit_status) = EXAMPLES
        .strip_prefix("Examples:\n")
        .and_then(|rest| rest.split_once("\n\nExit status: "))
        .unwrap_or((EXAMPLES, ""));
    let roff = |text: &str| text.replace('\\', "\\e").replace('-', "\\-");
    for (title, text) in MAN_SECTIONS {
        page.extend_from_slice(format!(".SH \"{title}\"\n{}\n", roff(text)).as_bytes());
    }
    page.extend_from_slice(format!(".SH EXAMPLES\n.nf\n{}\n.fi\n", roff(examples)).as_bytes());
    page.extend_from_slice(format!(".SH \"EXIT STATUS\"\n{}\n", roff(exit_status)).as_bytes());
    page.extend_from_slice(
        b".SH ENVIRONMENT\n.TP\n\\fBAGENTREAD_ROOT\\fR\nThe workspace root when \\fB\\-\\-root\\fR is not given.\n.TP\n\\fBAGENTREAD_DENY\\fR\nDeny globs, separated by ':', added to those of \\fB\\-\\-deny\\fR.\n.TP\n\\fBNO_COLOR\\fR\nWhen set and not empty, \\fB\\-\\-color auto\\fR does not colour.\n.TP\n\\fBAGENTREAD_NO_CACHE\\fR\nWhen set to anything but an empty value or 0 (such as 1), no parsed outlines are kept, as with \\fB\\-\\-no\\-cache\\fR.\n.TP\n\\fBXDG_CACHE_HOME\\fR\nWhere the command line and \\fB\\-\\-call\\fR keep parsed outlines: $XDG_CACHE_HOME/agentread/ when it is an absolute path, else ~/.cache/agentread/ (created 0700; at most 256 MiB, oldest dropped first). The MCP server keeps them in memory.\n",
    );
    let _ = man.render_version_section(&mut page);
    ascii_roff(&String::from_utf8_lossy(&page))
}

/// The roff text in ASCII, so that the page renders in any locale: groff reads a page
/// as Latin-1 unless told otherwise (and warns at a UTF-8 byte), and under LANG=C draws
/// no glyph for a `\[u…]` escape (a code point in hex) it has no ASCII form of. The `…` of
/// `--max-line-chars`'s help (shared with `--help`) becomes `...` (after `\&`, so that it
/// cannot start a control line); any other character beyond ASCII becomes such an escape.
fn ascii_roff(page: &str) -> Vec<u8> {
    let mut ascii = String::with_capacity(page.len());
    for c in page.chars() {
        if c.is_ascii() {
            ascii.push(c);
        } else if c == '…' {
            ascii.push_str("\\&...");
        } else {
            // Writing into a String cannot fail.
            let _ = write!(ascii, "\\[u{:04X}]", u32::from(c));
        }
    }
    ascii.into_bytes()
}
