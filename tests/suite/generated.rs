//! The completions in `completions/` and the man page `man/agentread.1` are generated from
//! the clap definition and committed. This test fails when they differ from what the
//! current command line generates; `AGENTREAD_REGENERATE=1 cargo test --test suite generated`
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
        if shell == Shell::Bash {
            bytes = bash_for_files(&String::from_utf8(bytes).unwrap()).into_bytes();
        }
        files.push((
            root.join("completions").join(shell.file_name("agentread")),
            bytes,
        ));
    }
    files.push((root.join("man/agentread.1"), man_page()));
    files
}

/// clap_complete's bash script offers the options for an empty word and for the first
/// word of a command without subcommands; agentread's words are mostly files. Options
/// are offered for a word that starts with `-`; any other word falls through to bash's
/// file completion (`-o default`), and an option's free-text value (a number, a glob,
/// JSON) completes to nothing rather than to file names.
fn bash_for_files(script: &str) -> String {
    let fixed = script
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
        );
    assert_ne!(fixed, script, "clap_complete's bash script changed shape");
    fixed
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
        "out of date with the CLI: {stale:?}; run AGENTREAD_REGENERATE=1 cargo test --test suite generated"
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

/// Runs the committed bash completion for the words typed (the last one is being
/// completed) and returns what it offers.
fn bash_completes(words: &[&str], dir: &Path) -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("completions/agentread.bash");
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cword = words.len() - 1;
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={cword}\n_agentread agentread '{}' '{}' 2>/dev/null\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        quoted.join(" "),
        words[cword],
        words[cword - 1],
    );
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(program)
        .current_dir(dir)
        .output()
        .expect("bash runs");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completes_options_only_for_a_dash_and_leaves_the_rest_to_files() {
    let dir = tempfile::tempdir().unwrap();
    // An empty first word: no options, so bash falls back to file names.
    assert_eq!(
        bash_completes(&["agentread", ""], dir.path()),
        Vec::<String>::new()
    );
    assert_eq!(
        bash_completes(&["agentread", "src"], dir.path()),
        Vec::<String>::new()
    );
    let dashed = bash_completes(&["agentread", "--li"], dir.path());
    assert_eq!(dashed, vec!["--limit"]);
    // A numeric value: nothing to complete, and no file names (default is switched off).
    for option in [
        "--limit",
        "--start-line",
        "--tail",
        "-C",
        "--max-bytes",
        "--deny",
    ] {
        let offered = bash_completes(&["agentread", option, ""], dir.path());
        assert_eq!(offered, Vec::<String>::new(), "{option}");
    }
    let script = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("completions/agentread.bash"),
    )
    .unwrap();
    let limit = script.split("--limit)").nth(1).unwrap();
    let branch = limit.split(";;").next().unwrap();
    assert!(branch.contains("+o default"), "{branch}");
}

#[test]
fn zsh_and_fish_complete_no_file_names_for_numbers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let zsh = std::fs::read_to_string(root.join("completions/_agentread")).unwrap();
    let fish = std::fs::read_to_string(root.join("completions/agentread.fish")).unwrap();
    for option in [
        "start-line",
        "limit",
        "tail",
        "start-char",
        "context",
        "max-bytes",
    ] {
        let line = zsh
            .lines()
            .find(|l| l.starts_with(&format!("'--{option}=")))
            .unwrap();
        let value = [":N:'", ":C:'", ":K:'"];
        assert!(
            value.iter().any(|v| line.contains(v)) && !line.contains("_default"),
            "{line}"
        );
        let line = fish
            .lines()
            .find(|l| l.contains(&format!("-l {option} ")))
            .unwrap();
        assert!(line.ends_with(" -r -f"), "{line}");
    }
    // PATH completes files and directories.
    assert!(zsh.contains("_files"), "zsh PATH completion");
}
