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
