//! SPEC §8 directories, several PATHs, standard input, and "did you mean".

use crate::common;

use std::os::unix::fs::symlink;

use common::{Workspace, code, json_lines, stderr, stdout};
use serde_json::json;

fn tree() -> Workspace {
    let ws = Workspace::new();
    for name in ["b.txt", "A.txt", "a.txt", ".hidden", "foo.txt", "foo-bar"] {
        ws.file(&format!("d/{name}"), "x\n");
    }
    for name in ["alpha", "Zeta", "foo"] {
        ws.mkdir(&format!("d/{name}"));
    }
    ws
}

#[test]
fn a_directory_lists_its_entries_sorted_and_marked() {
    let ws = tree();
    let out = ws.run(&["d"]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        "   1 | .hidden\n   2 | A.txt\n   3 | a.txt\n   4 | alpha/\n   5 | b.txt\n   6 | foo/\n   7 | foo-bar\n   8 | foo.txt\n   9 | Zeta/\n"
    );
}

#[test]
fn directory_pages_have_type_entries_and_paging() {
    let ws = tree();
    let v = ws.json(&["d", "-s", "3", "-n", "2"]);
    assert_eq!(v["status"], "partial");
    assert_eq!(v["data"]["type"], "directory");
    assert_eq!(v["data"]["path"], "d");
    assert_eq!(v["data"]["entries"], json!(["a.txt", "alpha/"]));
    assert_eq!(v["data"]["content"], "   3 | a.txt\n   4 | alpha/\n");
    assert_eq!(v["data"]["next_start_line"], 5);
    assert_eq!(v["stats"]["total_lines"], 9);
    assert_eq!(v["context"]["path_resolved"], "d");
    let out = ws.run(&["d", "-n", "2"]);
    assert!(
        stdout(&out).ends_with(
            "\n[Truncated: showing entries 1-2 of 9. Use --start-line 3 to continue.]\n"
        )
    );
    let out = ws.run(&["d", "-s", "10"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "agentread: INVALID_PARAM: start_line 10 is past the end of 'd' (9 entries; valid: 1-9).\n"
    );
}

#[test]
fn an_empty_directory_says_so() {
    let ws = Workspace::new();
    ws.mkdir("empty");
    let out = ws.run(&["empty"]);
    assert_eq!(
        (code(&out), stdout(&out)),
        (0, "(directory is empty)\n".to_string())
    );
    let v = ws.json(&["empty"]);
    assert_eq!(v["data"]["entries"], json!([]));
    assert_eq!(v["status"], "success");
}

#[test]
fn the_root_itself_and_dot_paths_list_the_root() {
    let ws = Workspace::new();
    ws.file("one.txt", "1\n");
    for path in [".", "./", "sub/..", ws.path().to_str().unwrap()] {
        ws.mkdir("sub");
        let v = ws.json(&[path]);
        assert_eq!(v["data"]["type"], "directory", "{path}");
        assert_eq!(v["data"]["entries"], json!(["one.txt", "sub/"]), "{path}");
        assert_eq!(v["data"]["path"], ".", "{path}");
    }
}

#[test]
fn links_in_a_listing_are_followed_only_inside_the_root() {
    let ws = Workspace::new();
    ws.mkdir("root/sub");
    ws.mkdir("outside");
    symlink("sub", ws.path().join("root/inlink")).unwrap();
    symlink("../outside", ws.path().join("root/outlink")).unwrap();
    symlink("nowhere", ws.path().join("root/dangling")).unwrap();
    let out = ws
        .cmd()
        .current_dir(ws.path().join("root"))
        .args([".", "-f", "json"])
        .output()
        .unwrap();
    let v = &json_lines(&out)[0];
    assert_eq!(
        v["data"]["entries"],
        json!(["dangling", "inlink/", "outlink", "sub/"])
    );
}

#[test]
fn xml_lists_entries_too() {
    let ws = tree();
    let xml = stdout(&ws.run(&["d", "-n", "2", "-f", "xml"]));
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "directory");
    let child = |name: &str| root.children().find(|n| n.has_tag_name(name)).unwrap();
    assert_eq!(child("type").text(), Some("directory"));
    let entries: Vec<&str> = child("entries")
        .children()
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(entries, [".hidden", "A.txt"]);
    assert_eq!(child("stats").attribute("total_lines"), Some("9"));
}

#[test]
fn several_paths_in_text_get_head_style_headers() {
    let ws = Workspace::new();
    ws.file("a.txt", "alpha\n");
    ws.file("b.txt", "beta\n");
    let out = ws.run(&["a.txt", "b.txt"]);
    assert_eq!(
        stdout(&out),
        "==> a.txt <==\n   1 | alpha\n\n==> b.txt <==\n   1 | beta\n"
    );
}

#[test]
fn several_paths_exit_with_the_first_failure_and_answer_the_rest() {
    let ws = Workspace::new();
    ws.file("a.txt", "alpha\n");
    ws.file("c.txt", "gamma\n");
    ws.file("bin.dat", b"\0\0\0");
    let out = ws.run(&["a.txt", "missing.txt", "bin.dat", "c.txt"]);
    assert_eq!(code(&out), 3);
    assert_eq!(
        stdout(&out),
        "==> a.txt <==\n   1 | alpha\n\n==> c.txt <==\n   1 | gamma\n"
    );
    let err = stderr(&out);
    assert!(
        err.contains("agentread: NOT_FOUND: File 'missing.txt' does not exist.\n"),
        "{err}"
    );
    assert!(
        err.contains("agentread: BINARY_FILE: File 'bin.dat' appears to be binary"),
        "{err}"
    );

    let out = ws.run(&["a.txt", "bin.dat", "missing.txt", "-f", "json"]);
    assert_eq!(code(&out), 7);
    let objects = json_lines(&out);
    assert_eq!(objects.len(), 3);
    assert_eq!(objects[0]["status"], "success");
    assert_eq!(
        objects[0]["context"]["params_input"],
        json!({"path": "a.txt"})
    );
    assert_eq!(objects[1]["error"]["code"], "BINARY_FILE");
    assert_eq!(objects[2]["error"]["code"], "NOT_FOUND");
    assert_eq!(
        objects[2]["context"]["params_input"],
        json!({"path": "missing.txt"})
    );
}

#[test]
fn several_paths_in_xml_are_one_document_of_one_element_each() {
    let ws = Workspace::new();
    ws.file("a.txt", "alpha\n");
    ws.mkdir("d");
    let out = ws.run(&["a.txt", "d", "nope", "-f", "xml"]);
    let xml = stdout(&out);
    // One document as it is, no wrapping needed: `<files>` holds the answers.
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "files");
    assert!(
        xml.starts_with("<files>\n") && xml.ends_with("</files>\n"),
        "{xml}"
    );
    // One PATH stays one element, as before.
    let one = stdout(&ws.run(&["a.txt", "-f", "xml"]));
    let doc = roxmltree::Document::parse(&one).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "file");
    // `paths` of a tool call too.
    let call = stdout(&ws.run(&["--call", r#"{"paths":["a.txt","d"]}"#, "-f", "xml"]));
    let doc = roxmltree::Document::parse(&call).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "files");
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let names: Vec<&str> = doc
        .root_element()
        .children()
        .filter(|n| n.is_element())
        .map(|n| n.tag_name().name())
        .collect();
    assert_eq!(names, ["file", "directory", "error"]);
}

#[test]
fn standard_input_is_read_as_a_stream_with_the_same_windows() {
    let ws = Workspace::new();
    let input: String = (1..=2000).map(|i| format!("row {i}\r\n")).collect();
    let out = ws
        .cmd()
        .args(["-", "-s", "1000", "-n", "2"])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    assert_eq!(
        stdout(&out),
        "1000 | row 1000\n1001 | row 1001\n\n[Truncated: showing lines 1000-1001 of 2000. Use --start-line 1002 to continue.]\n"
    );
    let out = ws
        .cmd()
        .args(["-", "-f", "json", "--tail", "1"])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    let v = &json_lines(&out)[0];
    assert_eq!(v["data"]["path"], "<stdin>");
    assert_eq!(v["data"]["content"], "2000 | row 2000\n");
    assert_eq!(v["stats"]["file_size_bytes"], input.len());
    assert_eq!(v["stats"]["line_endings"], "crlf");
    assert_eq!(
        v["context"]["params_input"],
        json!({"path": "-", "tail": 1})
    );
    let out = ws
        .cmd()
        .args(["-"])
        .write_stdin(vec![0u8, 1, 2])
        .output()
        .unwrap();
    assert_eq!(code(&out), 7);
    assert_eq!(
        stderr(&out),
        "agentread: BINARY_FILE: File '<stdin>' appears to be binary (NUL byte at offset 0).\n"
    );
}

#[test]
fn standard_input_can_be_read_once() {
    let ws = Workspace::new();
    let out = ws.run(&["-", "-"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn not_found_suggests_up_to_three_paths_inside_the_root() {
    let ws = Workspace::new();
    ws.file("src/main.rs", "fn main() {}\n");
    ws.file("src/lib.rs", "\n");
    ws.file("README.md", "# r\n");
    ws.file("docs/guide/intro.md", "\n");
    let cases: [(&str, &[&str]); 6] = [
        ("src/mian.rs", &["src/main.rs"]),
        ("SRC/main.rs", &["src/main.rs"]),
        ("src/main.py", &["src/main.rs"]),
        ("main.rs", &["src/main.rs"]),
        ("readme.md", &["README.md"]),
        ("intro.md", &["docs/guide/intro.md"]),
    ];
    for (asked, expected) in cases {
        let v = ws.json(&[asked]);
        assert_eq!(v["error"]["code"], "NOT_FOUND", "{asked}");
        assert_eq!(v["error"]["suggestions"], json!(expected), "{asked}");
    }
    let out = ws.run(&["src/mian.rs"]);
    assert_eq!(
        stderr(&out),
        "agentread: NOT_FOUND: File 'src/mian.rs' does not exist.\nDid you mean one of these?\n  src/main.rs\n"
    );
    let v = ws.json(&["zzzzqqqq.txt"]);
    assert_eq!(v["error"]["suggestions"], json!([]));
    // Never more than three, never outside the root.
    for i in 0..6 {
        ws.file(&format!("many/config{i}.toml"), "\n");
    }
    let v = ws.json(&["many/config.toml"]);
    assert_eq!(v["error"]["suggestions"].as_array().unwrap().len(), 3);
    let v = ws.json(&["../main.rs"]);
    assert_eq!(v["error"]["code"], "ACCESS_DENIED");
}

#[test]
fn standard_input_follows_the_same_encoding_and_binary_rules() {
    let ws = Workspace::new();
    let stdin = |bytes: Vec<u8>, extra: &[&str]| {
        let out = ws
            .cmd()
            .args(["-", "-f", "json"])
            .args(extra)
            .write_stdin(bytes)
            .output()
            .unwrap();
        (code(&out), json_lines(&out).remove(0))
    };
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(
        "héllo\r\nwörld\r\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    let (exit, v) = stdin(utf16, &[]);
    assert_eq!(exit, 0);
    assert_eq!(v["data"]["content"], "   1 | héllo\n   2 | wörld\n");
    assert_eq!(
        (v["stats"]["encoding"].clone(), v["stats"]["bom"].clone()),
        (json!("utf-16le"), json!(true))
    );
    assert_eq!(v["stats"]["line_endings"], "crlf");

    let (_, v) = stdin(b"\xEF\xBB\xBFfirst\n".to_vec(), &[]);
    assert_eq!(v["data"]["content"], "   1 | first\n");
    assert_eq!(v["stats"]["bom"], true);

    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("日本語\n");
    let (_, v) = stdin(sjis.into_owned(), &["--encoding", "shift_jis"]);
    assert_eq!(v["data"]["content"], "   1 | 日本語\n");
    assert_eq!(v["stats"]["encoding"], "shift_jis");

    let (_, v) = stdin(b"caf\xe9\n".to_vec(), &[]);
    assert_eq!(v["data"]["fallback_encoding"], "replace");
    assert_eq!(v["status"], "partial");

    let mut controls = vec![b'x'; 50];
    controls.extend([0x02u8; 50]);
    let (exit, v) = stdin(controls, &[]);
    assert_eq!(exit, 7);
    assert_eq!(
        v["error"]["detail"],
        json!({"reason": "control_ratio", "ratio": 0.5})
    );
}

/// SPEC §17 "The root of a checkout": `cd src && agentread ../README.md` was
/// ACCESS_DENIED, the root being the current directory.
#[test]
fn without_a_chosen_root_the_git_work_tree_is_the_root() {
    let ws = Workspace::new();
    ws.mkdir(".git");
    ws.file("README.md", "top\n");
    ws.file("src/main.rs", "fn main() {}\n");
    let run_in = |dir: &str, args: &[&str], env: Option<&str>| {
        let mut cmd = ws.cmd();
        cmd.current_dir(ws.path().join(dir)).args(args);
        if let Some(root) = env {
            cmd.env("AGENTREAD_ROOT", root);
        }
        cmd.output().unwrap()
    };
    // A relative PATH is joined to the current directory, as cat does.
    let out = run_in("src", &["../README.md"], None);
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (0, "   1 | top\n"),
        "{}",
        stderr(&out)
    );
    // Paths print relative to the root, and context.cwd says where we stand.
    let v = &json_lines(&run_in("src", &["main.rs", "-f", "json"], None))[0];
    assert_eq!(v["data"]["path"], "src/main.rs");
    assert_eq!(v["context"]["cwd"], "src");
    assert_eq!(v["context"]["params_input"]["path"], "main.rs");
    // Leaving the work tree is refused, naming the root by what it is.
    let out = run_in("src", &["../../x"], None);
    assert_eq!(code(&out), 4);
    assert_eq!(
        stderr(&out),
        "agentread: ACCESS_DENIED: Access denied: '../x' is outside the workspace root (the git work tree holding the current directory).\n"
    );
    let out = run_in("src", &["/"], None);
    assert!(stderr(&out).contains("(the git work tree holding the current directory)"));
    assert!(!stderr(&out).contains(ws.path().to_str().unwrap()));
    // `--root` and AGENTREAD_ROOT still win, and a relative PATH is then joined to them.
    let out = run_in("src", &["../README.md", "--root", "."], None);
    assert_eq!(code(&out), 4);
    assert_eq!(
        stderr(&out),
        "agentread: ACCESS_DENIED: Access denied: '../README.md' is outside the workspace root.\n"
    );
    let top = ws.path().to_str().unwrap();
    let out = run_in("src", &["README.md"], Some(top));
    assert_eq!(stdout(&out), "   1 | top\n");
    let out = run_in("src", &["main.rs"], Some(top));
    assert_eq!(code(&out), 3);
    // A `.git` file (a linked work tree, a submodule) marks the nearest work tree.
    ws.file("sub/.git", "gitdir: ../.git/modules/sub\n");
    ws.file("sub/lib/a.txt", "a\n");
    let out = run_in("sub/lib", &["../../README.md"], None);
    assert_eq!(code(&out), 4, "{}", stdout(&out));
    let v = &json_lines(&run_in("sub/lib", &["a.txt", "-f", "json"], None))[0];
    assert_eq!(v["data"]["path"], "lib/a.txt");
}

/// Outside any git work tree the current directory stays the root, and says so.
#[test]
fn outside_a_checkout_the_current_directory_is_the_root() {
    let ws = Workspace::new();
    ws.file("d/a.txt", "a\n");
    let out = ws
        .cmd()
        .current_dir(ws.path().join("d"))
        .arg("../x")
        .output()
        .unwrap();
    assert_eq!(
        stderr(&out),
        "agentread: ACCESS_DENIED: Access denied: '../x' is outside the workspace root (the current directory).\n"
    );
}
