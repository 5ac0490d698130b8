//! The completions in `completions/` and the man page `man/agentread.1` are generated from
//! the clap definition and committed. This test fails when they differ from what the
//! current command line generates; `AGENTREAD_REGENERATE=1 cargo test --test suite generated`
//! rewrites them.

use std::path::{Path, PathBuf};

use agentread::args::cli::Cli;
use agentread::setup::generate::{Generated, generate};
use clap::CommandFactory;

/// What `agentread --generate` prints for each committed file.
fn generated() -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(PathBuf, Vec<u8>)> = Generated::SHELLS
        .iter()
        .map(|(what, name)| (root.join("completions").join(name), generate(*what)))
        .collect();
    files.push((root.join("man/agentread.1"), generate(Generated::Man)));
    files
}

/// `--generate` prints what the committed files hold.
#[test]
fn generate_prints_each_script_and_the_man_page() {
    for (what, file) in [
        ("bash", "completions/agentread.bash"),
        ("man", "man/agentread.1"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_agentread"))
            .args(["--generate", what])
            .output()
            .unwrap();
        assert!(out.status.success());
        let committed = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
        assert_eq!(out.stdout, committed, "{what}");
    }
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
