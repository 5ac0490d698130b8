//! Go outlines: functions, methods qualified by receiver at depth 0, struct and
//! interface types and interface methods.

use super::super::Language;
use super::support::check;

/// Functions, methods, struct and interface types.
pub(super) const SOURCE: &str = r#"
package main

// Window is a window.
type Window struct {
	w int
}

type (
	// Reader reads.
	Reader interface {
		Read(p []byte) (int, error)
	}
	ID int
)

// Render draws.
// Second line.
func (w *Window) Render() {}

func (g Grid[T]) At() T { var t T; return t }

func main() {
	f := func() {}
	f()
}
"#;

#[test]
fn functions_methods_and_types() {
    check(
        Language::Go,
        SOURCE,
        &[
            ("Window", "struct", 3, 4, 6, 0),
            ("Reader", "interface", 9, 10, 12, 0),
            ("Reader.Read", "method", 11, 11, 11, 1),
            ("Window.Render", "method", 16, 18, 18, 0),
            ("Grid.At", "method", 20, 20, 20, 0),
            ("main", "function", 22, 22, 25, 0),
        ],
    );
}

/// The walk passes over a statement without a `{` whole ([`Inside::InBraces`](super::super::rules)):
/// a type declared in a function literal's body is still found.
#[test]
fn types_in_function_literals_are_found_past_statements_without_braces() {
    let names = super::support::names(
        Language::Go,
        "package a\n\nfunc F() {\n\tn := 1\n\tdefer func() {\n\t\ttype Deferred struct{}\n\t}()\n\tn++\n}\n",
    );
    assert_eq!(names, ["F", "F.Deferred"]);
}
