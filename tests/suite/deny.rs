//! SPEC §14, the deny policy: `--deny`, `AGENTREAD_DENY` and `--deny-secrets`, matched
//! against the file finally opened and every symlink on the way to it.

use crate::common;

use std::os::unix::fs::symlink;
use std::path::Path;

use common::{Workspace, code, json_lines, stderr, stdout};
use serde_json::{Value, json};

fn workspace() -> Workspace {
    let ws = Workspace::new();
    ws.file(".env", "TOKEN=s3cr3t\n");
    ws.file(".env.local", "TOKEN=s3cr3t\n");
    ws.file(".env.example", "TOKEN=\n");
    ws.file("config/app.env.sample", "x\n");
    ws.file("certs/server.pem", "s3cr3t pem\n");
    ws.file("secrets/deep/token.txt", "s3cr3t token\n");
    ws.file("src/main.rs", "fn main() {}\n");
    ws.file("home/.aws/credentials", "s3cr3t aws\n");
    ws.file(".aws/credentials", "s3cr3t aws\n");
    ws
}

fn denied(ws: &Workspace, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = ws.run(&all);
    assert_eq!(code(&out), 4, "{args:?}: {}", stdout(&out));
    assert!(!stdout(&out).contains("s3cr3t"), "{args:?}");
    let v = json_lines(&out).remove(0);
    assert_eq!(v["error"]["code"], "ACCESS_DENIED");
    assert_eq!(v["error"]["exit_code"], 4);
    assert_eq!(v["error"]["detail"]["reason"], "denied");
    v
}

#[test]
fn the_built_in_secrets_list() {
    let ws = workspace();
    for (path, pattern) in [
        (".env", ".env"),
        (".env.local", ".env.*"),
        ("certs/server.pem", "*.pem"),
        (".aws/credentials", ".aws/credentials"),
    ] {
        let v = denied(&ws, &[path, "--deny-secrets"]);
        assert_eq!(
            v["error"]["detail"],
            json!({"reason": "denied", "pattern": pattern})
        );
        assert_eq!(
            v["error"]["message"],
            format!("Access denied: '{path}' matches the deny glob '{pattern}'.")
        );
    }
    for allowed in [".env.example", "src/main.rs", "config/app.env.sample"] {
        let out = ws.run(&[allowed, "--deny-secrets"]);
        assert_eq!(code(&out), 0, "{allowed}");
    }
    // Without the flag nothing is denied.
    assert_eq!(code(&ws.run(&[".env"])), 0);
    for name in [
        "a.key",
        "a.p12",
        "a.pfx",
        "a.kdbx",
        "id_rsa",
        "id_dsa",
        "id_ecdsa",
        "id_ed25519",
        ".netrc",
        ".pgpass",
        ".git-credentials",
        ".npmrc",
        ".pypirc",
        ".env.production",
    ] {
        ws.file(&format!("more/{name}"), "s3cr3t\n");
        denied(&ws, &[&format!("more/{name}"), "--deny-secrets"]);
    }
    ws.file(".docker/config.json", "s3cr3t\n");
    denied(&ws, &[".docker/config.json", "--deny-secrets"]);
    for kept in [".env.sample", ".env.template"] {
        ws.file(kept, "x\n");
        assert_eq!(code(&ws.run(&[kept, "--deny-secrets"])), 0, "{kept}");
    }
}

#[test]
fn text_mode_names_the_path_and_the_glob() {
    let ws = workspace();
    let out = ws.run(&["certs/server.pem", "--deny", "*.pem"]);
    assert_eq!(code(&out), 4);
    assert_eq!(
        stderr(&out),
        "agentread: ACCESS_DENIED: Access denied: 'certs/server.pem' matches the deny glob '*.pem'.\n"
    );
    let out = ws.run(&["certs/server.pem", "--deny", "*.pem", "-f", "xml"]);
    let xml = stdout(&out);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let detail = doc
        .descendants()
        .find(|n| n.has_tag_name("detail"))
        .unwrap();
    assert_eq!(detail.attribute("reason"), Some("denied"));
    assert_eq!(detail.attribute("pattern"), Some("*.pem"));
}

#[test]
fn globs_follow_gitignore_rules() {
    let ws = workspace();
    // A glob without '/' matches the name in any directory.
    denied(&ws, &["secrets/deep/token.txt", "--deny", "token.txt"]);
    // A glob with '/' is anchored at the root.
    denied(
        &ws,
        &["home/.aws/credentials", "--deny", "home/.aws/credentials"],
    );
    assert_eq!(
        code(&ws.run(&["home/.aws/credentials", "--deny", "/.aws/credentials"])),
        0
    );
    // A glob on a parent directory denies what is inside.
    denied(&ws, &["secrets/deep/token.txt", "--deny", "secrets/**"]);
    denied(&ws, &["secrets/deep/token.txt", "--deny", "secrets/"]);
    // Negation, in order.
    denied(
        &ws,
        &[".env.local", "--deny", ".env*", "--deny", "!.env.example"],
    );
    assert_eq!(
        code(&ws.run(&[".env.example", "--deny", ".env*", "--deny", "!.env.example"])),
        0
    );
    // Absolute paths inside the root are matched by their root-relative path.
    let abs = ws.path().join("certs/server.pem");
    denied(&ws, &[abs.to_str().unwrap(), "--deny", "certs/*.pem"]);
}

#[test]
fn the_environment_and_the_flags_add_up_and_a_flag_cannot_re_allow() {
    let ws = workspace();
    let run = |args: &[&str], env: &str| {
        ws.cmd()
            .args(args)
            .env("AGENTREAD_DENY", env)
            .output()
            .unwrap()
    };
    assert_eq!(code(&run(&["certs/server.pem"], "*.pem:secrets/**")), 4);
    assert_eq!(
        code(&run(&["secrets/deep/token.txt"], "*.pem:secrets/**")),
        4
    );
    assert_eq!(code(&run(&["src/main.rs", "--deny", "*.rs"], "*.pem")), 4);
    assert_eq!(
        code(&run(&["certs/server.pem", "--deny", "!*.pem"], "*.pem")),
        4
    );
    assert_eq!(code(&run(&["src/main.rs"], "*.pem")), 0);
    // In --call too: the policy comes from the command line or environment only.
    let out = run(&["--call", r#"{"path":"certs/server.pem"}"#], "*.pem");
    assert_eq!(code(&out), 4);
    let v = json_lines(&out).remove(0);
    assert_eq!(
        v["error"]["detail"],
        json!({"reason": "denied", "pattern": "*.pem"})
    );
    let out = ws.run(&[
        "--call",
        r#"{"path":".env","deny_secrets":false}"#,
        "--deny-secrets",
    ]);
    assert_eq!(code(&out), 2, "a call cannot set the policy");
}

#[test]
fn links_to_and_through_denied_files_are_denied() {
    let ws = workspace();
    symlink(".env", ws.path().join("innocent.txt")).unwrap();
    symlink("innocent.txt", ws.path().join("chain1")).unwrap();
    symlink("chain1", ws.path().join("chain2")).unwrap();
    symlink("secrets", ws.path().join("public")).unwrap();
    std::fs::create_dir(ws.path().join("d")).unwrap();
    symlink("../certs/server.pem", ws.path().join("d/cert")).unwrap();
    for path in ["innocent.txt", "chain1", "chain2"] {
        let v = denied(&ws, &[path, "--deny-secrets"]);
        assert_eq!(v["error"]["detail"]["pattern"], ".env");
        assert!(v["error"]["message"].as_str().unwrap().contains("'.env'"));
    }
    denied(&ws, &["public/deep/token.txt", "--deny", "secrets/**"]);
    denied(&ws, &["d/cert", "--deny", "*.pem"]);
    // A link that is itself denied, to an allowed file.
    symlink("src/main.rs", ws.path().join("id_rsa")).unwrap();
    let v = denied(&ws, &["id_rsa", "--deny-secrets"]);
    assert_eq!(v["error"]["detail"]["pattern"], "id_rsa");
}

#[test]
fn denied_files_stay_in_listings_but_are_never_suggested_and_hashes_reveal_nothing() {
    let ws = workspace();
    let out = ws.run(&["certs", "--deny-secrets"]);
    assert_eq!(stdout(&out), "   1 | server.pem\n");
    let out = ws.run(&["certs/server.pen", "--deny-secrets"]);
    assert_eq!(code(&out), 3);
    assert!(!stderr(&out).contains("server.pem"), "{}", stderr(&out));
    let out = ws.run(&["certs/server.pen"]);
    assert!(stderr(&out).contains("server.pem"));
    // --hash and --if-changed: the same refusal, no hash, no "unchanged".
    let hash = blake3::hash(b"s3cr3t pem\n").to_hex().to_string();
    let v = denied(&ws, &["certs/server.pem", "--deny-secrets", "--hash"]);
    assert!(v["stats"].get("content_hash").is_none());
    assert!(!v.to_string().contains(&hash));
    let v = denied(
        &ws,
        &["certs/server.pem", "--deny-secrets", "--if-changed", &hash],
    );
    assert_eq!(v["status"], "error");
    let other = "0".repeat(64);
    let v2 = denied(
        &ws,
        &["certs/server.pem", "--deny-secrets", "--if-changed", &other],
    );
    assert_eq!(
        v["error"], v2["error"],
        "the answer must not depend on the hash"
    );
}

#[test]
fn an_invalid_glob_is_invalid_param() {
    let ws = workspace();
    let out = ws.run(&["src/main.rs", "--deny", "{a,b"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("{a,b"), "{}", stderr(&out));
}

#[test]
fn a_link_swapped_between_a_denied_and_an_allowed_file_never_shows_the_denied_one() {
    let ws = workspace();
    let root = ws.path().to_path_buf();
    symlink("src/main.rs", root.join("race")).unwrap();
    common::a_swapped_link_never_shows(
        &root,
        (Path::new(".env"), Path::new("src/main.rs")),
        || ws.run(&["race", "--deny-secrets", "--format", "json"]),
        &["--root", ".", "--deny-secrets"],
        "s3cr3t",
    );
}
