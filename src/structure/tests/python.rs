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

/// The walk passes over expression statements, decorators and other simple statements
/// whole ([`Inside::Nowhere`](super::super::rules)): the definitions around them are
/// all found, with their decorators' lines, and so are those of a tree with an error in
/// an expression, whose insides are walked.
#[test]
fn definitions_are_found_past_statements_passed_over_whole() {
    let names = |source: &str| super::support::names(Language::Python, source);
    let source = "@decorate(lambda x: x, {\"a\": 1})\ndef f():\n    x = {\"k\": [1, 2, 3]}\n    return [y for y in x]\n\nclass C:\n    z = 1\n    def m(self):\n        pass\n\nif True:\n    def g():\n        pass\n";
    assert_eq!(names(source), ["f", "C", "C.m", "g"]);
    let rows = super::support::rows(Language::Python, source);
    assert_eq!((rows[0].2, rows[0].4), (1, 4), "{rows:?}");
    let broken = "x = [\ndef f():\n    pass\n\nclass D:\n    def m(self):\n        pass\n";
    assert_eq!(names(broken), ["f", "D", "D.m"]);
}

/// Bodies past their first logical line are passed over by the parser: a function, the
/// class around it and a decorated one still end on their last line, and a body that
/// holds a definition is parsed with it.
#[test]
fn definitions_end_on_their_last_line_though_their_bodies_are_passed_over() {
    check(
        Language::Python,
        "
class C:
    @property
    def m(self):
        \"\"\"Doc.\"\"\"
        x = [1,
             2]
        return x

def outer():
    a = 1
    def inner():
        return a
    return inner
",
        &[
            ("C", "class", 1, 1, 7, 0),
            ("C.m", "method", 2, 3, 7, 1),
            ("outer", "function", 9, 9, 13, 0),
            ("outer.inner", "function", 11, 11, 12, 1),
        ],
    );
}

/// A comment on the first line of a block (which the tree hangs on the statement that
/// opens the block, not in it) is a leading line of the definition below it, decorators
/// too (SPEC §15 "Lines of a symbol").
#[test]
fn a_comment_that_opens_a_block_is_the_next_definitions() {
    check(
        Language::Python,
        "
class A:
    # About m.
    def m(self): pass

def f():
    # About g.
    @dec
    def g(): pass
    return g
",
        &[
            ("A", "class", 1, 1, 3, 0),
            ("A.m", "method", 2, 3, 3, 1),
            ("f", "function", 5, 5, 9, 0),
            ("f.g", "function", 6, 8, 8, 1),
        ],
    );
}

/// A protocol is an interface (SPEC §15 "Symbols": "interface (traits and protocols
/// too)"), however its base is written.
#[test]
fn protocols_are_interfaces() {
    check(
        Language::Python,
        "
class P(Protocol):
    def m(self) -> int: ...
class G(typing.Protocol[T]):
    pass
class N(Base):
    pass
",
        &[
            ("P", "interface", 1, 1, 2, 0),
            ("P.m", "method", 2, 2, 2, 1),
            ("G", "interface", 3, 3, 4, 0),
            ("N", "class", 5, 5, 6, 0),
        ],
    );
}
