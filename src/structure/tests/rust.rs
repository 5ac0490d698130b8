//! Rust outlines: items, impl blocks named by header and their methods qualified by
//! type, trait methods, nesting, and the comment and attribute lines above.

use super::super::Language;
use super::support::{check, symbols};

pub(super) const SOURCE: &str = r#"
//! Crate doc.

use std::fmt;

/// A window.
#[derive(Debug)]
pub struct Window<T> {
    size: T,
}

// Not attached: a blank line follows.

impl<T> Window<T> {
    /// Makes one.
    pub fn new(size: T) -> Self {
        fn helper() {}
        Window { size }
    }
}

impl<T: fmt::Debug> fmt::Display
    for Window<T>
where
    T: Clone,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { // trailing
        Ok(())
    }
}

pub trait Draw {
    fn draw(&self);
    fn size(&self) -> usize { 0 }
}

mod inner {
    pub enum Kind { A, B }
    #[cfg(test)]
    mod tests {
        #[test]
        fn works() {
            let _c = || 1;
        }
    }
}
fn a() {} // about a
fn b() {}
/* block
   comment */
union U { a: u32 }
extern "C" {
    fn ext();
}
unsafe impl Send for &'static mut Window<u8> {}
#[cfg(any(
    unix,
    windows,
))]
fn multi_line_attribute() {}
macro_rules! square { () => {} }
"#;

#[test]
fn items_impls_traits_and_their_lines() {
    check(
        Language::Rust,
        SOURCE,
        &[
            ("Window", "struct", 5, 7, 9, 0),
            ("impl<T> Window<T>", "impl", 13, 13, 19, 0),
            ("Window::new", "method", 14, 15, 18, 1),
            ("Window::new::helper", "function", 16, 16, 16, 2),
            (
                "impl<T: fmt::Debug> fmt::Display for Window<T>",
                "impl",
                21,
                21,
                29,
                0,
            ),
            ("Window::fmt", "method", 26, 26, 28, 1),
            ("Draw", "interface", 31, 31, 34, 0),
            ("Draw::draw", "method", 32, 32, 32, 1),
            ("Draw::size", "method", 33, 33, 33, 1),
            ("inner", "module", 36, 36, 45, 0),
            ("inner::Kind", "enum", 37, 37, 37, 1),
            ("inner::tests", "module", 38, 39, 44, 1),
            ("inner::tests::works", "function", 40, 41, 43, 2),
            ("a", "function", 46, 46, 46, 0),
            ("b", "function", 47, 47, 47, 0),
            ("U", "struct", 48, 50, 50, 0),
            ("ext", "function", 52, 52, 52, 0),
            (
                "unsafe impl Send for &'static mut Window<u8>",
                "impl",
                54,
                54,
                54,
                0,
            ),
            ("multi_line_attribute", "function", 55, 59, 59, 0),
            ("square", "macro", 60, 60, 60, 0),
        ],
    );
}

#[test]
fn names_parents_and_depths() {
    let symbols = symbols(Language::Rust, SOURCE);
    let fmt = symbols
        .iter()
        .position(|s| s.qualified_name == "Window::fmt")
        .unwrap();
    assert_eq!(symbols[fmt].name, "fmt");
    let parent = symbols[fmt].parent.unwrap();
    assert_eq!(
        symbols[parent].name,
        "impl<T: fmt::Debug> fmt::Display for Window<T>"
    );
    assert_eq!(symbols[parent].parent, None);
    for symbol in &symbols {
        let depth = std::iter::successors(symbol.parent, |&p| symbols[p].parent).count();
        assert_eq!(symbol.depth as usize, depth, "{}", symbol.qualified_name);
    }
}

#[test]
fn impl_inside_a_module_qualifies_by_module_and_type() {
    check(
        Language::Rust,
        "mod m {\n    impl Foo<'a, T> {\n        fn go() {}\n    }\n}\n",
        &[
            ("m", "module", 1, 1, 5, 0),
            ("m::impl Foo<'a, T>", "impl", 2, 2, 4, 1),
            ("m::Foo::go", "method", 3, 3, 3, 2),
        ],
    );
}

#[test]
fn empty_and_broken_files() {
    assert!(symbols(Language::Rust, "").is_empty());
    // Error recovery still finds the function after the broken item.
    let broken = symbols(Language::Rust, "fn broken( {\n\nfn fine() {}\n");
    assert!(broken.iter().any(|s| s.name == "fine"), "{broken:?}");
}

#[test]
fn a_comment_after_an_attribute_or_a_comment_leads_too() {
    check(
        Language::Rust,
        "\n/// Doc.\n#[inline] // why\nfn f() {}\n\n/* a */ // b\nfn g() {}\n\nfn h() {} // trailing\nfn i() {}\n",
        &[
            ("f", "function", 1, 3, 3, 0),
            ("g", "function", 5, 6, 6, 0),
            ("h", "function", 8, 8, 8, 0),
            ("i", "function", 9, 9, 9, 0),
        ],
    );
}

/// The walk passes over a statement without a `{` whole (`Rules::braced`): items inside
/// a closure's or a block's braces are still found, and so are the items of a file whose
/// lines hold no brace at all.
#[test]
fn items_inside_expressions_are_found_past_statements_without_braces() {
    let names = |source: &str| -> Vec<String> {
        symbols(Language::Rust, source)
            .into_iter()
            .map(|s| s.name)
            .collect()
    };
    let source = "fn outer() {\n    let x = 1 + 2;\n    let f = || {\n        fn in_closure() {}\n    };\n    let y = { struct InBlock; 3 };\n    call(x, y);\n}\n";
    assert_eq!(names(source), ["outer", "in_closure", "InBlock"]);
    assert_eq!(names("mod a;\nmod b;\n"), ["a", "b"]);
}

/// Items in an item-level macro wrapper (`cfg_rt! { … }`) are read where they stand, in
/// a file, a module and an impl, and in a wrapper inside a wrapper; a macro's arguments
/// and a wrapper inside a function are not items.
#[test]
fn items_in_macro_wrappers_are_read_where_they_stand() {
    let source = "
cfg_rt! {
    pub fn spawn() {}
    cfg_net! {
        pub struct Tcp;
    }
}
mod m {
    cfg_io! {
        fn read() {}
    }
}
impl S {
    cfg_fs! {
        #[inline]
        fn open(&self) {}
    }
}
forward! {
    deserialize_bool()
}
fn run() {
    cfg_x! {
        fn inner_of_a_call() {}
    }
}
";
    assert_eq!(
        super::support::names(Language::Rust, source),
        ["spawn", "Tcp", "m", "m::read", "impl S", "S::open", "run"]
    );
}

/// When unwrapping every wrapper leaves a syntax error, each wrapper is checked alone:
/// a DSL's braces stay as written and the other wrappers' items are still found.
#[test]
fn a_wrapper_that_holds_no_items_stays_wrapped_and_the_others_do_not() {
    let source = "
bitflags! {
    pub struct Flags: u32 {
        const A = 1;
    }
}
cfg_rt! {
    pub fn spawn() {}
}
";
    assert_eq!(super::support::names(Language::Rust, source), ["spawn"]);
}

/// Whole comment lines are left out of the parse, and still lead the definition below
/// them: above an attribute, between attributes, in an impl, in a function that holds
/// items; not across a blank line.
#[test]
fn comment_lines_lead_though_the_tree_has_none() {
    check(
        Language::Rust,
        "
/// Doc.
#[derive(Debug)]
// between
#[repr(C)]
struct S;

// Not attached.

impl S {
    /// Method.
    fn m() {}
}
fn outer() {
    // nested
    fn inner() {}
}
",
        &[
            ("S", "struct", 1, 5, 5, 0),
            ("impl S", "impl", 9, 9, 12, 0),
            ("S::m", "method", 10, 11, 11, 1),
            ("outer", "function", 13, 13, 16, 0),
            ("outer::inner", "function", 14, 15, 15, 1),
        ],
    );
}
