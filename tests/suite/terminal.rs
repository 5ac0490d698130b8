//! On a terminal, control characters show visibly and colour follows `--color` and
//! NO_COLOR; off a terminal the content is byte-faithful. Runs agentread on a real
//! pseudo-terminal.

use crate::common;

use std::fs::File;
use std::io::Read;
use std::process::{Command, Stdio};

use common::{Workspace, stdout};
use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
use rustix::termios::{OptionalActions, OutputModes, tcgetattr, tcsetattr};

/// Which standard stream of agentread is the pseudo-terminal.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stream {
    Stdout,
    Stderr,
}

/// Runs agentread with one stream on a pseudo-terminal (the other null); returns what
/// the terminal received.
fn terminal_run(ws: &Workspace, args: &[&str], env: &[(&str, &str)], stream: Stream) -> String {
    let (mut master, slave) = pty();
    // No output processing: see the bytes as written, without "\n" -> "\r\n".
    let mut modes = tcgetattr(&slave).unwrap();
    modes.output_modes.remove(OutputModes::OPOST);
    tcsetattr(&slave, OptionalActions::Now, &modes).unwrap();
    let (stdout, stderr) = match stream {
        Stream::Stdout => (Stdio::from(slave), Stdio::null()),
        Stream::Stderr => (Stdio::null(), Stdio::from(slave)),
    };
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin!("agentread"));
    cmd.current_dir(ws.path())
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("AGENTREAD_ROOT")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr);
    for (key, value) in env {
        cmd.env(key, value);
    }
    let mut child = cmd.spawn().unwrap();
    drop(cmd); // closes our copy of the terminal's slave side
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    // The master reads EIO once the child has closed the slave side.
    while let Ok(n) = master.read(&mut buf) {
        if n == 0 {
            break;
        }
        seen.extend_from_slice(&buf[..n]);
    }
    child.wait().unwrap();
    String::from_utf8(seen).unwrap()
}

/// Runs agentread with its stdout on a pseudo-terminal; returns what the terminal received.
fn on_terminal(ws: &Workspace, args: &[&str], env: &[(&str, &str)]) -> String {
    terminal_run(ws, args, env, Stream::Stdout)
}

/// Runs agentread with its stderr on a pseudo-terminal; returns what the terminal got.
fn stderr_on_terminal(ws: &Workspace, args: &[&str]) -> String {
    terminal_run(ws, args, &[], Stream::Stderr)
}

#[test]
fn control_characters_show_as_pictures_on_a_terminal() {
    let ws = Workspace::new();
    ws.file("evil.txt", "a\x1b[2Jb\rc\x07\x7f\u{9b}d\te\n");
    let seen = on_terminal(&ws, &["evil.txt", "--color", "never"], &[]);
    assert_eq!(
        seen,
        "   1 | a\u{241b}[2Jb\u{240d}c\u{2407}\u{2421}<U+009B>d\te\n"
    );
    // Off a terminal, the same bytes pass through unchanged.
    let piped = stdout(&ws.run(&["evil.txt", "--color", "never"]));
    assert_eq!(piped, "   1 | a\x1b[2Jb\rc\x07\x7f\u{9b}d\te\n");
}

/// A "Trojan Source" line shows on a terminal what the compiler sees (SPEC §14).
#[test]
fn bidirectional_controls_are_named_on_a_terminal_only() {
    let ws = Workspace::new();
    ws.file("trojan.rs", "if x\u{202e} {\u{2066}admin\u{2069}\u{200f}\n");
    let seen = on_terminal(&ws, &["trojan.rs", "--color", "never"], &[]);
    assert_eq!(seen, "   1 | if x<U+202E> {<U+2066>admin<U+2069><U+200F>\n");
    let piped = stdout(&ws.run(&["trojan.rs", "--color", "never"]));
    assert_eq!(
        piped,
        "   1 | if x\u{202e} {\u{2066}admin\u{2069}\u{200f}\n"
    );
}

#[test]
fn colour_on_a_terminal_dims_the_gutter_and_highlights_the_footer() {
    let ws = Workspace::new();
    ws.file("f.txt", "one\ntwo\n");
    let seen = on_terminal(&ws, &["f.txt", "-n", "1"], &[]);
    assert_eq!(
        seen,
        "\x1b[2m   1 | \x1b[0mone\n\n\x1b[33m[Truncated: showing lines 1-1 of 2. Use --start-line 2 to continue.]\x1b[39m\n"
    );
    // The file's own escape sequences are still pictures, never obeyed.
    ws.file("esc.txt", "\x1b[31mred\n");
    let seen = on_terminal(&ws, &["esc.txt"], &[]);
    assert_eq!(seen, "\x1b[2m   1 | \x1b[0m\u{241b}[31mred\n");
}

/// The line a `PATH:N` target names is marked for a person at a terminal; piped output,
/// even coloured, is as it always was.
#[test]
fn the_target_line_is_marked_on_a_terminal_only() {
    let ws = Workspace::new();
    ws.file("f.txt", "one\ntwo\nthree\nfour\n");
    let args = ["f.txt:3", "-C", "1", "--no-hint"];
    assert_eq!(
        on_terminal(&ws, &args, &[("NO_COLOR", "1")]),
        "   2 | two\n   3 > three\n   4 | four\n"
    );
    assert_eq!(
        on_terminal(&ws, &args, &[]),
        "\x1b[2m   2 | \x1b[0mtwo\n\x1b[1m   3 > \x1b[0mthree\n\x1b[2m   4 | \x1b[0mfour\n"
    );
    let tab = [&args[..], &["--numbers", "tab", "--color", "never"]].concat();
    assert_eq!(
        on_terminal(&ws, &tab, &[]),
        "     2\ttwo\n>    3\tthree\n     4\tfour\n"
    );
    let piped = stdout(&ws.run(&[&args[..], &["--color", "always"]].concat()));
    assert_eq!(
        piped,
        "\x1b[2m   2 | \x1b[0mtwo\n\x1b[2m   3 | \x1b[0mthree\n\x1b[2m   4 | \x1b[0mfour\n"
    );
    assert_eq!(
        stdout(&ws.run(&args)),
        "   2 | two\n   3 | three\n   4 | four\n"
    );
}

/// `--all` writes its lines as a window's are on a terminal: control characters as
/// pictures, the gutter dimmed.
#[test]
fn all_on_a_terminal_shows_control_characters_as_pictures() {
    let ws = Workspace::new();
    ws.file("evil.txt", "a\x1b[2Jb\n\u{202e}x\n");
    assert_eq!(
        on_terminal(&ws, &["--all", "evil.txt"], &[]),
        "\x1b[2m   1 | \x1b[0ma\u{241b}[2Jb\n\x1b[2m   2 | \x1b[0m<U+202E>x\n"
    );
    assert_eq!(
        stdout(&ws.run(&["--all", "evil.txt"])),
        "   1 | a\x1b[2Jb\n   2 | \u{202e}x\n"
    );
}

#[test]
fn no_color_and_never_turn_colour_off_but_always_wins() {
    let ws = Workspace::new();
    ws.file("f.txt", "one\n");
    assert_eq!(
        on_terminal(&ws, &["f.txt"], &[("NO_COLOR", "1")]),
        "   1 | one\n"
    );
    assert_eq!(
        on_terminal(&ws, &["f.txt", "--color", "never"], &[]),
        "   1 | one\n"
    );
    // An empty NO_COLOR does not count.
    assert!(on_terminal(&ws, &["f.txt"], &[("NO_COLOR", "")]).contains("\x1b[2m"));
    assert!(
        on_terminal(&ws, &["f.txt", "--color", "always"], &[("NO_COLOR", "1")]).contains("\x1b[2m")
    );
}

#[test]
fn colour_is_never_written_off_a_terminal_or_in_json_and_xml() {
    let ws = Workspace::new();
    ws.file("f.txt", "one\n");
    assert_eq!(stdout(&ws.run(&["f.txt"])), "   1 | one\n");
    let always = stdout(&ws.run(&["f.txt", "--color", "always"]));
    assert_eq!(always, "\x1b[2m   1 | \x1b[0mone\n");
    for format in ["json", "xml"] {
        let seen = on_terminal(&ws, &["f.txt", "-f", format, "--color", "always"], &[]);
        assert!(!seen.contains('\x1b'), "{format}: {seen}");
    }
}

/// A pseudo-terminal pair: the master side and a file for the slave side.
fn pty() -> (File, File) {
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
    grantpt(&master).unwrap();
    unlockpt(&master).unwrap();
    let name = ptsname(&master, Vec::new()).unwrap();
    let slave = File::options()
        .read(true)
        .write(true)
        .open(name.to_str().unwrap())
        .unwrap();
    (File::from(master), slave)
}

/// `agentread - --no-hint` in `ws`, its standard input `stdin`, its output piped.
fn reading_stdin(ws: &Workspace, stdin: Stdio) -> std::process::Child {
    Command::new(assert_cmd::cargo::cargo_bin!("agentread"))
        .current_dir(ws.path())
        .args(["-", "--no-hint"])
        .env_remove("AGENTREAD_ROOT")
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn one_ctrl_d_ends_standard_input_at_a_terminal() {
    // A line, then one end-of-file (VEOF, Ctrl-D, at the start of a line); a line, then
    // one after a partial line.
    for (typed, shown) in [
        ("typed line\n", "   1 | typed line\n"),
        ("typed line\nhalf", "   1 | typed line\n   2 | half\n"),
    ] {
        one_ctrl_d_after(typed, shown);
    }
}

fn one_ctrl_d_after(typed: &str, shown: &str) {
    use std::io::Write;
    let ws = Workspace::new();
    let (mut master, slave) = pty();
    let mut child = reading_stdin(&ws, Stdio::from(slave));
    master.write_all(typed.as_bytes()).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    master.write_all(b"\x04").unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("agentread still waits for input after one Ctrl-D ({typed:?})");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success());
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(out, shown);
}

#[test]
fn access_denied_tells_a_person_how_to_set_the_root() {
    let ws = Workspace::new();
    let seen = stderr_on_terminal(&ws, &["/etc/passwd"]);
    let lines: Vec<&str> = seen.lines().collect();
    assert_eq!(lines.len(), 2, "{seen}");
    assert!(lines[0].starts_with("agentread: ACCESS_DENIED: "), "{seen}");
    assert!(
        lines[1].contains("--root DIR") && lines[1].contains("AGENTREAD_ROOT"),
        "{seen}"
    );
    // An agent (stderr not a terminal) gets the one line only.
    let out = ws.run(&["/etc/passwd"]);
    assert_eq!(common::stderr(&out).lines().count(), 1);
    // A deny glob is not about the root: no such line.
    ws.file(".env", "x\n");
    let seen = stderr_on_terminal(&ws, &[".env", "--deny-secrets"]);
    assert_eq!(seen.lines().count(), 1, "{seen}");
}

/// Text with its colour escapes (`ESC [ … m`) taken out.
fn without_colour(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after.find('m').expect("an escape ends with m");
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// What a person sees is what a pipe gets (for content without control characters):
/// byte for byte without colour, and once its colour is taken out. Returns the output.
fn as_piped_on_a_terminal(ws: &Workspace, args: &[&str]) -> String {
    let piped = stdout(&ws.run(args));
    assert!(!piped.is_empty(), "{args:?}");
    let never = on_terminal(ws, &[args, &["--color", "never"]].concat(), &[]);
    assert_eq!(never, piped, "{args:?} without colour");
    let coloured = on_terminal(ws, args, &[]);
    assert_eq!(without_colour(&coloured), piped, "{args:?} with colour");
    piped
}

/// `--outline` on a terminal printed every symbol on one line joined by `␊`,
/// and lost the blank line before the footer (the whole outline went through the filter
/// meant for one name). Files, notebooks and PDFs, with colour and without.
#[test]
fn an_outline_on_a_terminal_is_one_symbol_a_line() {
    let ws = Workspace::new();
    ws.file(
        "lib.rs",
        "pub fn one() {}\n\npub struct Two;\n\nimpl Two {\n    pub fn three(&self) {}\n}\n",
    );
    let outline = as_piped_on_a_terminal(&ws, &["lib.rs", "--outline"]);
    assert!(outline.lines().count() >= 4, "{outline}");
    assert!(!outline.contains('\u{240a}'), "{outline}");
    // Paged: the footer after a blank line, on a terminal too.
    let paged = as_piped_on_a_terminal(&ws, &["lib.rs", "--outline", "-n", "2"]);
    assert!(paged.contains("\n\n[Truncated"), "{paged}");
    ws.file(
        "nb.ipynb",
        r##"{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "text"]},
            {"cell_type": "code", "metadata": {}, "execution_count": null, "outputs": [],
             "source": ["import os\n", "print(os.name)"]}]}"##,
    );
    let notebook = as_piped_on_a_terminal(&ws, &["nb.ipynb", "--outline"]);
    assert_eq!(
        notebook.lines().filter(|l| l.contains("cell-")).count(),
        2,
        "{notebook}"
    );
    let pdf = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pdf/fpdf2_two_pages.pdf"
    );
    ws.file("doc.pdf", std::fs::read(pdf).unwrap());
    let pages = as_piped_on_a_terminal(&ws, &["doc.pdf", "--outline"]);
    assert_eq!(
        pages.lines().filter(|l| l.contains("page")).count(),
        2,
        "{pages}"
    );
    // A control character in a symbol's line is still a picture, on its own line.
    ws.file("evil.rs", "pub fn a\x1b() {}\npub fn b() {}\n");
    let seen = on_terminal(&ws, &["evil.rs", "--outline", "--color", "never"], &[]);
    assert_eq!(seen.lines().count(), 2, "{seen}");
    assert!(
        seen.contains('\u{241b}') && !seen.contains('\x1b'),
        "{seen}"
    );
}

/// The other answers a person reads at a terminal, each as a pipe gets it: a directory
/// map, `PATH#SYMBOL`, several `-C` windows (the target line marked), and an error.
#[test]
fn maps_symbols_context_and_errors_on_a_terminal_read_as_piped() {
    let ws = Workspace::new();
    ws.file("src/a.rs", "pub fn one() {\n    1\n}\n\npub fn two() {}\n");
    ws.file(
        "src/b.py",
        "def three():\n    return 3\n\nclass Four:\n    pass\n",
    );
    let map = as_piped_on_a_terminal(&ws, &["src", "--outline"]);
    assert!(map.contains("a.rs") && map.contains("b.py"), "{map}");
    let symbol = as_piped_on_a_terminal(&ws, &["src/a.rs#one"]);
    assert!(
        symbol.starts_with("   1 | pub fn one() {\n   2 |     1\n   3 | }\n\n["),
        "{symbol}"
    );
    // `-C`: on a terminal the target line is marked `>`, else it is what a pipe gets.
    let args = ["src/a.rs:2", "src/b.py:4", "-C", "1"];
    let piped = stdout(&ws.run(&args));
    let marked = piped
        .replace("   2 |     1", "   2 >     1")
        .replace("   4 | class Four:", "   4 > class Four:");
    assert_ne!(marked, piped);
    let seen = on_terminal(&ws, &[&args[..], &["--color", "never"]].concat(), &[]);
    assert_eq!(seen, marked);
    assert_eq!(without_colour(&on_terminal(&ws, &args, &[])), marked);
    // An error: on a terminal's stderr as a pipe's.
    let piped = ws.run(&["src/a.r"]);
    assert_eq!(
        stderr_on_terminal(&ws, &["src/a.r"]),
        common::stderr(&piped)
    );
    assert!(common::stderr(&piped).contains("Did you mean"));
}

/// A pipe hands over any part of a line: a part without its end is no end of input there.
#[test]
fn a_pipe_that_pauses_inside_a_line_is_read_whole() {
    use std::io::Write;
    let ws = Workspace::new();
    let mut child = reading_stdin(&ws, Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"first\nhal").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    stdin.write_all(b"f line\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "   1 | first\n   2 | half line\n"
    );
}
