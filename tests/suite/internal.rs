//! SPEC §9: a panic is an INTERNAL answer (exit 1) in the chosen format. The tests' debug
//! binary carries the fault switch (`AGENTREAD_FAULT=panic`); the binary users install
//! catches a panic the same way, since its profile unwinds (checked below).

use crate::common;

use std::process::Command;

use common::Workspace;

fn faulty_binary() -> &'static std::path::Path {
    common::fault_binary()
}

fn run_faulty(ws: &Workspace, args: &[&str]) -> std::process::Output {
    Command::new(faulty_binary())
        .args(args)
        .current_dir(ws.path())
        .env_remove("RUST_BACKTRACE")
        .env("AGENTREAD_FAULT", "panic")
        .output()
        .unwrap()
}

/// A release profile that aborts on panic would print no INTERNAL answer at all.
#[test]
fn the_installed_profile_unwinds_on_panic() {
    let manifest = include_str!("../../Cargo.toml");
    let release = manifest
        .split("[profile.release]")
        .nth(1)
        .expect("a release profile");
    let release = release.split("\n[").next().unwrap_or_default();
    let sets_panic = release
        .lines()
        .any(|line| line.split('#').next().unwrap_or("").contains("panic"));
    assert!(!sets_panic, "{release}");
}

#[test]
fn a_panic_is_internal_in_every_format() {
    let ws = Workspace::new();
    ws.file("a.txt", "one\n");

    let text = run_faulty(&ws, &["a.txt"]);
    assert_eq!(text.status.code(), Some(1));
    assert!(text.stdout.is_empty());
    let stderr = String::from_utf8(text.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr:?}");
    assert!(stderr.starts_with("agentread: INTERNAL: "), "{stderr}");

    let json = run_faulty(&ws, &["a.txt", "--format", "json"]);
    assert_eq!(json.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["status"], "error");
    assert_eq!(v["error"]["code"], "INTERNAL");
    assert_eq!(v["error"]["exit_code"], 1);
    for key in ["data", "text", "stats", "context"] {
        assert!(v.get(key).is_some(), "{key} missing: {v}");
    }
    assert!(json.stderr.is_empty(), "nothing on stderr in json mode");

    let xml = run_faulty(&ws, &["a.txt", "--format", "xml"]);
    assert_eq!(xml.status.code(), Some(1));
    let xml = String::from_utf8(xml.stdout).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("code"), Some("INTERNAL"));

    let call = run_faulty(&ws, &["--call", r#"{"path":"a.txt"}"#]);
    assert_eq!(call.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&call.stdout).unwrap();
    assert_eq!(v["error"]["code"], "INTERNAL");
}

#[test]
fn without_the_switch_the_same_binary_answers_normally() {
    let ws = Workspace::new();
    ws.file("a.txt", "one\n");
    let out = Command::new(faulty_binary())
        .arg("a.txt")
        .current_dir(ws.path())
        .env_remove("AGENTREAD_FAULT")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"   1 | one\n");
}
