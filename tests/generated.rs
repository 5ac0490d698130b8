//! The completions in `completions/` and the man page `man/agentread.1` are generated from
//! the clap definition and committed. This test fails when they differ from what the
//! current command line generates; `AGENTREAD_REGENERATE=1 cargo test --test generated`
//! rewrites them.

use std::path::{Path, PathBuf};

use agentread::cli::Cli;
use clap::CommandFactory;
use clap_complete::{Generator, Shell};

fn generated() -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::PowerShell,
        Shell::Elvish,
    ] {
        let mut command = Cli::command();
        let mut bytes = Vec::new();
        clap_complete::generate(shell, &mut command, "agentread", &mut bytes);
        files.push((
            root.join("completions").join(shell.file_name("agentread")),
            bytes,
        ));
    }
    files.push((root.join("man/agentread.1"), man_page()));
    files
}

/// clap_mangen's sections, with the examples kept as written (roff no-fill) and the exit
/// status and environment spelt out.
fn man_page() -> Vec<u8> {
    let man = clap_mangen::Man::new(Cli::command());
    let mut page = Vec::new();
    man.render_title(&mut page).unwrap();
    man.render_name_section(&mut page).unwrap();
    man.render_synopsis_section(&mut page).unwrap();
    man.render_description_section(&mut page).unwrap();
    man.render_options_section(&mut page).unwrap();
    let (examples, exit_status) = agentread::cli::EXAMPLES
        .strip_prefix("Examples:\n")
        .and_then(|rest| rest.split_once("\n\nExit status: "))
        .unwrap();
    let roff = |text: &str| text.replace('\\', "\\e").replace('-', "\\-");
    for (title, text) in agentread::cli::MAN_SECTIONS {
        page.extend_from_slice(format!(".SH \"{title}\"\n{}\n", roff(text)).as_bytes());
    }
    page.extend_from_slice(format!(".SH EXAMPLES\n.nf\n{}\n.fi\n", roff(examples)).as_bytes());
    page.extend_from_slice(format!(".SH \"EXIT STATUS\"\n{}\n", roff(exit_status)).as_bytes());
    page.extend_from_slice(
        b".SH ENVIRONMENT\n.TP\n\\fBAGENTREAD_ROOT\\fR\nThe workspace root when \\fB\\-\\-root\\fR is not given.\n.TP\n\\fBAGENTREAD_DENY\\fR\nDeny globs, separated by ':', added to those of \\fB\\-\\-deny\\fR.\n.TP\n\\fBNO_COLOR\\fR\nWhen set and not empty, \\fB\\-\\-color auto\\fR does not colour.\n",
    );
    man.render_version_section(&mut page).unwrap();
    page
}

#[test]
fn committed_completions_and_man_page_match_the_cli() {
    let regenerate = std::env::var_os("AGENTREAD_REGENERATE").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for (path, bytes) in generated() {
        if regenerate {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        } else if std::fs::read(&path).ok().as_deref() != Some(bytes.as_slice()) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "out of date with the CLI: {stale:?}; run AGENTREAD_REGENERATE=1 cargo test --test generated"
    );
}

#[test]
fn completions_offer_every_long_option() {
    let bash = generated()
        .into_iter()
        .find(|(p, _)| p.ends_with("agentread.bash"))
        .unwrap()
        .1;
    let bash = String::from_utf8(bash).unwrap();
    for option in Cli::command().get_arguments().filter_map(|a| a.get_long()) {
        assert!(
            bash.contains(&format!("--{option}")),
            "--{option} missing from bash completions"
        );
    }
}
