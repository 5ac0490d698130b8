//! The README's examples are exact: every `$ agentread …` line of a `console` block is
//! run in the repository and its output compared byte for byte, and the MCP host
//! configurations are valid JSON or TOML that start the server.

use std::path::Path;
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The fenced blocks of one language, in order.
fn blocks<'a>(text: &'a str, language: &str) -> Vec<&'a str> {
    let fence = format!("```{language}\n");
    text.split(&fence)
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap())
        .collect()
}

#[test]
fn console_examples_print_what_the_readme_shows() {
    let readme = readme();
    let consoles = blocks(&readme, "console");
    assert!(!consoles.is_empty());
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_agentread")).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    for block in consoles {
        for example in block.split("$ ").skip(1) {
            let (command, expected) = example.split_once('\n').unwrap();
            assert!(command.starts_with("agentread "), "{command}");
            let out = Command::new("sh")
                .arg("-c")
                .arg(command)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .env("PATH", &path)
                .env_remove("AGENTREAD_ROOT")
                .env_remove("AGENTREAD_DENY")
                .output()
                .unwrap();
            let printed = String::from_utf8(out.stdout).unwrap();
            assert_eq!(printed, expected, "README example `{command}` is not exact");
        }
    }
}

#[test]
fn mcp_host_configurations_start_the_server() {
    let readme = readme();
    let jsons = blocks(&readme, "json");
    let mut servers = 0;
    for block in jsons.iter().filter(|b| b.contains("\"agentread\"")) {
        let v: serde_json::Value = serde_json::from_str(block).expect("valid JSON");
        let hosts = v.get("servers").or_else(|| v.get("mcpServers")).unwrap();
        let server = &hosts["agentread"];
        assert_eq!(server["command"], "agentread");
        let args: Vec<&str> = server["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert_eq!(args[0], "--mcp");
        assert!(args.contains(&"--root") && args.contains(&"--deny-secrets"));
        servers += 1;
    }
    assert_eq!(servers, 2, "VS Code and gemini-cli");
    let toml = blocks(&readme, "toml");
    assert!(toml.iter().any(|b| b.contains("[mcp_servers.agentread]")
        && b.contains("command = \"agentread\"")
        && b.contains("args = [\"--mcp\", \"--root\", \"/path/to/project\", \"--deny-secrets\"]")));
    assert!(readme.contains(
        "claude mcp add agentread -- agentread --mcp --root /path/to/project --deny-secrets"
    ));
}

/// The command line of an example: a README `sh` line without its `# comment`, or a
/// `--help` example without its description (two spaces or more after the command).
fn command_of(line: &str, help: bool) -> &str {
    let line = line.trim();
    let end = match help {
        true => line.find("  "),
        false => line.find(" #"),
    };
    end.map_or(line, |end| &line[..end]).trim_end()
}

/// Runs one example in the repository, as a user would after `cargo install`: an example
/// that starts with agentread up to its first pipe or redirection (what follows is
/// another tool's), one that pipes into agentread whole. Returns None for a line that does
/// not run agentread (`cargo install`, `claude mcp add …`, `mkdir …`).
fn run_example(command: &str) -> Option<std::process::Output> {
    let runnable = if command.starts_with("agentread ") {
        let end = [" | ", " > "]
            .iter()
            .filter_map(|cut| command.find(cut))
            .min()
            .unwrap_or(command.len());
        &command[..end]
    } else if command.contains("| agentread ") || command.contains("xargs agentread ") {
        command
    } else {
        return None;
    };
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_agentread")).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    let out = Command::new("sh")
        .arg("-c")
        .arg(runnable)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", &path)
        .env_remove("AGENTREAD_ROOT")
        .env_remove("AGENTREAD_DENY")
        .env_remove("NO_COLOR")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    Some(out)
}

/// Every example of the README and of `--help` runs against the repository
/// itself. A file that does not exist here (`src/window.rs`, `docs/guide.md`) made a
/// newcomer's first try NOT_FOUND. Each example exits 0, but those that show a refusal
/// (`refused: ACCESS_DENIED …`), which exit 4.
#[test]
fn every_example_runs_in_the_repository() {
    let readme = readme();
    let help = Command::new(env!("CARGO_BIN_EXE_agentread"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let examples = help
        .split_once("\nExamples")
        .expect("--help has examples")
        .1
        .split("\nExit status")
        .next()
        .unwrap();
    let mut lines: Vec<(&str, &str, bool)> = Vec::new();
    for block in blocks(&readme, "sh") {
        lines.extend(block.lines().map(|line| ("README", line, false)));
    }
    lines.extend(examples.lines().skip(1).map(|line| ("--help", line, true)));
    let mut ran = 0;
    for (source, line, help) in lines {
        let command = command_of(line, help);
        let Some(out) = run_example(command) else {
            continue;
        };
        ran += 1;
        let expected = match line.contains("refused") {
            true => 4,
            false => 0,
        };
        assert_eq!(
            out.status.code(),
            Some(expected),
            "{source} example `{command}` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(ran >= 50, "only {ran} examples found");
}
