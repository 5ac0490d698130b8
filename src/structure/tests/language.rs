//! Choosing a language by extension or `#!` line, and what each is called.

use super::super::{KNOWN_LANGUAGES, Language};

#[test]
fn by_extension() {
    let cases = [
        ("lib.rs", Language::Rust),
        ("a.py", Language::Python),
        ("stubs.pyi", Language::Python),
        ("a.js", Language::JavaScript),
        ("a.mjs", Language::JavaScript),
        ("a.cjs", Language::JavaScript),
        ("App.jsx", Language::JavaScript),
        ("a.ts", Language::TypeScript),
        ("a.mts", Language::TypeScript),
        ("a.cts", Language::TypeScript),
        ("App.tsx", Language::Tsx),
        ("main.go", Language::Go),
        ("A.java", Language::Java),
        ("a.c", Language::C),
        ("a.h", Language::C),
        ("a.cc", Language::Cpp),
        ("a.cpp", Language::Cpp),
        ("a.cxx", Language::Cpp),
        ("a.hpp", Language::Cpp),
        ("a.hh", Language::Cpp),
        ("a.hxx", Language::Cpp),
        ("README.md", Language::Markdown),
        ("notes.markdown", Language::Markdown),
        ("src/dir.v2/Lib.RS", Language::Rust),
    ];
    for (name, language) in cases {
        assert_eq!(
            Language::detect(name, b"#!/usr/bin/env node\n"),
            Some(language),
            "{name}"
        );
    }
    // An unknown extension is not overridden by the `#!` line.
    for name in ["a.txt", "Makefile.am", "a.rs.bak", "a."] {
        assert_eq!(
            Language::detect(name, b"#!/usr/bin/python3\n"),
            None,
            "{name}"
        );
    }
    // A leading dot starts a hidden name, not an extension.
    assert_eq!(Language::detect(".py", b""), None);
    assert_eq!(
        Language::detect("dir/.tool", b"#!/usr/bin/env python\n"),
        Some(Language::Python)
    );
}

#[test]
fn by_interpreter_line_when_there_is_no_extension() {
    let cases: [(&[u8], Option<Language>); 12] = [
        (b"#!/usr/bin/python3\nprint(1)\n", Some(Language::Python)),
        (b"#!/usr/bin/python\n", Some(Language::Python)),
        (b"#!/usr/local/bin/python3.12 -u\n", Some(Language::Python)),
        (b"#!/usr/bin/env python3\n", Some(Language::Python)),
        (b"#! /usr/bin/env  python\r\n", Some(Language::Python)),
        (b"#!/usr/bin/env node\n", Some(Language::JavaScript)),
        (
            b"#!/usr/bin/env -S node --experimental-vm-modules\n",
            Some(Language::JavaScript),
        ),
        (
            b"#!/usr/bin/env -u HOME NODE_ENV=x nodejs\n",
            Some(Language::JavaScript),
        ),
        (b"#!/bin/sh\n", None),
        (b"#!/usr/bin/env pythonista\n", None),
        (b"print(1)\n", None),
        (b"#!/usr/bin/env", None),
    ];
    for (first, language) in cases {
        assert_eq!(
            Language::detect("bin/tool", first),
            language,
            "{}",
            String::from_utf8_lossy(first)
        );
    }
}

#[test]
fn names_and_separators() {
    assert_eq!(Language::Tsx.name(), "typescript");
    assert_eq!(Language::Cpp.name(), "cpp");
    assert_eq!(Language::Rust.separator(), "::");
    assert_eq!(Language::Cpp.separator(), "::");
    assert_eq!(Language::Markdown.separator(), " > ");
    assert_eq!(Language::Go.separator(), ".");
    assert!(KNOWN_LANGUAGES.contains("C++"));
}
