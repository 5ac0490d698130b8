//! Java outlines: classes, interfaces, enums, records, methods and constructors, with
//! Javadoc and annotations in their lines.

use super::super::Language;
use super::support::{check, symbols};

/// Types, methods and constructors.
pub(super) const SOURCE: &str = r#"
package p;

/** A class. */
@Deprecated
public class A<T> extends B implements C {
    private int x;

    /** Makes one. */
    public A() {}

    @Override
    public String toString() { return ""; }

    interface I { void run(); }

    enum E { X, Y; void m() {} }

    record R(int a) { R { } }

    void anon() {
        Runnable r = new Runnable() { public void run() {} };
        Runnable l = () -> {};
    }
}
@interface Marker { String value() default ""; }
"#;

#[test]
fn types_methods_and_constructors() {
    check(
        Language::Java,
        SOURCE,
        &[
            ("A", "class", 3, 5, 24, 0),
            ("A.A", "constructor", 8, 9, 9, 1),
            ("A.toString", "method", 11, 12, 12, 1),
            ("A.I", "interface", 14, 14, 14, 1),
            ("A.I.run", "method", 14, 14, 14, 2),
            ("A.E", "enum", 16, 16, 16, 1),
            ("A.E.m", "method", 16, 16, 16, 2),
            ("A.R", "class", 18, 18, 18, 1),
            ("A.R.R", "constructor", 18, 18, 18, 2),
            ("A.anon", "method", 20, 20, 23, 1),
            ("A.anon.run", "method", 21, 21, 21, 2),
            ("Marker", "interface", 25, 25, 25, 0),
            ("Marker.value", "method", 25, 25, 25, 1),
        ],
    );
}

/// The walk passes over a declaration without a `{` whole (`Rules::braced`): a class in
/// a lambda's block and a method of an anonymous class are still found.
#[test]
fn classes_and_methods_inside_expressions_are_found_past_fields_without_braces() {
    let source = "class A {\n  Runnable r = () -> { class Local {} };\n  Object o = new Object() { public String toString() { return \"\"; } };\n  int x = 1;\n  void m() { int y = 2; }\n}\n";
    let names: Vec<String> = symbols(Language::Java, source)
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, ["A", "Local", "toString", "m"]);
}

/// An abstract method after an enum's constants, where no brace follows (the walk steps
/// over nodes without one), is found, last member or not.
#[test]
fn an_enums_abstract_method_is_found() {
    check(
        Language::Java,
        "package p;\nenum E {\n  X;\n  abstract void b();\n}\n",
        &[("E", "enum", 2, 2, 5, 0), ("E.b", "method", 4, 4, 4, 1)],
    );
}
