//! Python outlines: classes, methods, nested functions, decorators and comments above.

use super::super::Language;
use super::support::check;

/// Classes, methods, nested functions, decorators and comments.
pub(super) const SOURCE: &str = r#"
import os

# About f.
@decorator(
    arg=1,
)
def f(x):
    def inner():
        lam = lambda y: y
        pass
    return x
    # still f's


class C(Base):  # trailing
    """Doc."""

    def m(self):
        pass

    # About n.
    @property
    def n(self):
        return 1

    class Nested:
        async def run(self):
            pass
# Above g, at the top level.
async def g():
    pass
if True:
    def conditional():
        pass
"#;

#[test]
fn classes_methods_nested_functions_and_decorators() {
    check(
        Language::Python,
        SOURCE,
        &[
            ("f", "function", 3, 7, 12, 0),
            ("f.inner", "function", 8, 8, 10, 1),
            ("C", "class", 15, 15, 28, 0),
            ("C.m", "method", 18, 18, 19, 1),
            ("C.n", "method", 21, 23, 24, 1),
            ("C.Nested", "class", 26, 26, 28, 1),
            ("C.Nested.run", "method", 27, 27, 28, 2),
            ("g", "function", 29, 30, 31, 0),
            ("conditional", "function", 33, 33, 34, 0),
        ],
    );
}

#[test]
fn a_comment_in_the_previous_block_is_not_the_next_definitions() {
    check(
        Language::Python,
        "def f():\n    if x:\n        pass\n    # in f\ndef g():\n    pass\n",
        &[("f", "function", 1, 1, 4, 0), ("g", "function", 5, 5, 6, 0)],
    );
}
