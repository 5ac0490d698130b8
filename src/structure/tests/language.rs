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

#[test]
fn a_header_is_cpp_when_it_holds_cpp() {
    let h = |text: &str| Language::detect("x.h", text.as_bytes());
    for cpp in [
        "namespace n {}",
        "template <typename T> T f();",
        "template<class T> struct S;",
        "class C {\n};",
        "struct S {\npublic:\n int x;\n};",
        "int a = b::c;",
    ] {
        assert_eq!(h(cpp), Some(Language::Cpp), "{cpp}");
    }
    for c in [
        "int f(void);",
        "/* namespace n { class C { public: a::b */ int x;",
        "// template <typename T>\nint y;",
        "const char *s = \"a::b namespace\";",
        "char c = ':';",
        "class_t *p; int classy;",
        "label: x = 1;",
    ] {
        assert_eq!(h(c), Some(Language::C), "{c}");
    }
    // Only a `.h` file is looked into.
    assert_eq!(
        Language::detect("x.c", b"namespace n {}"),
        Some(Language::C)
    );
    // Past the first 64 KiB nothing counts.
    let mut late = " ".repeat(64 << 10);
    late.push_str("namespace n {}");
    assert_eq!(h(&late), Some(Language::C));
}
