//! C and C++: functions, structs, unions, classes, enums and namespaces; functions
//! defined inside a class are methods, out-of-line `Foo::bar` definitions methods
//! qualified by `Foo`. Declarations without a body (prototypes, forward declarations,
//! in-class method declarations) are not definitions.

use tree_sitter::Node;

use super::super::def::{Def, squash, text, type_name};
use super::Context;
use super::{Spec, named};

pub(super) const SPEC: Spec = Spec {
    classify,
    defining: &[
        "function_definition",
        "struct_specifier",
        "union_specifier",
        "class_specifier",
        "enum_specifier",
        "namespace_definition",
    ],
    leading: &["comment"],
    braced: false,
    // A lambda's body or a local class is in braces; a function without them
    // (`f() = default;`) is never in a statement.
    in_braces: &[
        "expression_statement",
        "return_statement",
        "declaration",
        "throw_statement",
        "co_return_statement",
        "co_yield_statement",
    ],
    nowhere: &[],
    in_braces_or_arrows: &[],
    anywhere: &[],
};

/// How many declarator wrappers (`*`, `&`, parentheses, attributes) are looked through
/// to find a function's name: far more than any real declaration has.
const MAX_DECLARATOR_HOPS: usize = 32;

/// Words that never name a function: statements, operators and specifiers that error
/// recovery can leave where a declarator's name goes.
const KEYWORDS: &[&str] = &[
    "if",
    "else",
    "switch",
    "case",
    "default",
    "while",
    "for",
    "do",
    "return",
    "goto",
    "break",
    "continue",
    "sizeof",
    "alignof",
    "_Alignof",
    "decltype",
    "typeof",
    "__typeof__",
    "noexcept",
    "throw",
    "try",
    "catch",
    "new",
    "delete",
    "static_assert",
    "_Static_assert",
    "defined",
    "asm",
    "__asm__",
    "__attribute__",
    "__declspec",
    "co_return",
    "co_await",
    "co_yield",
    "requires",
];

fn classify(node: Node, cx: &Context) -> Option<Def> {
    match node.kind() {
        "function_definition" => function(node, cx),
        "struct_specifier" | "union_specifier" => aggregate("struct", node, cx),
        "class_specifier" => aggregate("class", node, cx),
        "enum_specifier" => aggregate("enum", node, cx),
        // An anonymous namespace lists nothing itself; its contents are top-level.
        "namespace_definition" => Some(
            named("namespace", node, "name", cx)?.up(cx.wrapped_by(0, &["template_declaration"])),
        ),
        _ => None,
    }
}

/// A struct, union, class or enum with a body; an anonymous one in a `typedef` is
/// named by the typedef (`typedef struct { … } Point;`).
fn aggregate(kind: &'static str, node: Node, cx: &Context) -> Option<Def> {
    node.child_by_field_name("body")?;
    let in_typedef = cx
        .ancestor(1)
        .filter(|parent| parent.kind() == "type_definition");
    let mut def = match node.child_by_field_name("name") {
        Some(name) => {
            let mut def = Def::named(kind, name, cx.src)?;
            // `template<> class Foo<int>` is listed as `Foo`.
            def.name = type_name(text(name, cx.src), false);
            def
        }
        None => {
            let declarator = in_typedef?.child_by_field_name("declarator")?;
            if declarator.kind() != "type_identifier" {
                return None;
            }
            Def::named(kind, declarator, cx.src)?
        }
    };
    if def.name.is_empty() {
        return None;
    }
    def.outer_up = match in_typedef {
        Some(_) => 1,
        None => cx.wrapped_by(0, &["template_declaration"]),
    };
    Some(def)
}

/// A function definition: its name found through the declarator, qualified and made a
/// method when written `Foo::bar`, a constructor when named as its class.
fn function(node: Node, cx: &Context) -> Option<Def> {
    // The name is the innermost declarator, through every function declarator (a
    // function returning a function pointer has two) and `*`, `&`, `(…)` wrappers.
    let declarator = node.child_by_field_name("declarator")?;
    if let Some(def) = macro_made(node, declarator, cx) {
        return Some(def);
    }
    let mut name = past_macro(node, declarator, cx.src);
    let mut is_function = false;
    for _ in 0..MAX_DECLARATOR_HOPS {
        match name.kind() {
            "function_declarator" => is_function = true,
            "pointer_declarator"
            | "reference_declarator"
            | "parenthesized_declarator"
            | "attributed_declarator" => {}
            _ => break,
        }
        name = name
            .child_by_field_name("declarator")
            .or_else(|| name.named_child(0))?;
    }
    let mut scope: Vec<String> = Vec::new();
    for _ in 0..MAX_DECLARATOR_HOPS {
        if name.kind() != "qualified_identifier" {
            break;
        }
        if let Some(part) = name.child_by_field_name("scope") {
            scope.push(type_name(text(part, cx.src), false));
        }
        name = name.child_by_field_name("name")?;
    }
    if name.kind() == "template_function" {
        name = name.child_by_field_name("name")?;
    }
    let text_name = if name.kind() == "operator_cast" {
        // A conversion operator is named by its type: `operator bool`.
        is_function = true;
        format!(
            "operator {}",
            squash(text(name.child_by_field_name("type")?, cx.src))
        )
    } else {
        squash(text(name, cx.src))
    };
    // Error recovery can take a statement for a definition (`if (y) { … }` after a
    // macro call without `;`): no function is named after a keyword.
    if !is_function || KEYWORDS.contains(&text_name.as_str()) {
        return None;
    }
    let up = cx.wrapped_by(0, &["template_declaration"]);
    let (kind, qualifier) = if scope.is_empty() {
        let in_class =
            matches!(cx.enclosing, Some(("class" | "struct", class)) if class == text_name);
        (if in_class { "constructor" } else { "function" }, None)
    } else {
        let constructor = scope.last().is_some_and(|class| *class == text_name);
        (
            if constructor { "constructor" } else { "method" },
            Some(scope.join("::")),
        )
    };
    let mut def = Def::named(kind, name, cx.src)?.up(up);
    def.name = text_name;
    def.qualifier = qualifier.filter(|q| !q.is_empty());
    def.start_row = below_macro_line(node, declarator);
    Some(def)
}

/// A function a macro makes, `TEST_BEGIN(test_a) {` (jemalloc's tests, C): C's grammar
/// reads the macro as the type and `(test_a)` as a declarator that is no function's,
/// which no C definition has. Named after the macro, as ctags names it (and as C++'s
/// `TEST(Suite, Name) {` is).
fn macro_made(node: Node, declarator: Node, cx: &Context) -> Option<Def> {
    let macro_name = node.child_by_field_name("type")?;
    let shaped = macro_name.kind() == "type_identifier"
        && declarator.kind() == "parenthesized_declarator"
        && macro_name.end_byte() == declarator.start_byte()
        && macro_like(text(macro_name, cx.src));
    if !shaped {
        return None;
    }
    Def::named("function", macro_name, cx.src)
}

/// Whether a name is written as macros are: upper case, digits and `_`, a letter first.
fn macro_like(name: &[u8]) -> bool {
    name.first().is_some_and(u8::is_ascii_uppercase)
        && name
            .iter()
            .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// The declarator that names a function whose declarator error recovery took from a
/// macro after it (`void S::Bar() LOCKS_EXCLUDED(mu) {`: `S::Bar()` lands in an ERROR
/// node, `LOCKS_EXCLUDED(mu)` in the declarator); else `declarator` itself.
fn past_macro<'t>(node: Node<'t>, declarator: Node<'t>, src: &[u8]) -> Node<'t> {
    let macro_call = declarator.kind() == "function_declarator"
        && declarator
            .child_by_field_name("declarator")
            .is_some_and(|n| n.kind() == "identifier" && macro_like(text(n, src)));
    if !macro_call {
        return declarator;
    }
    let mut cursor = node.walk();
    let mut found = None;
    for child in node.children(&mut cursor) {
        if child.id() == declarator.id() {
            break;
        }
        if child.is_error() {
            let mut inner = child.walk();
            for part in child.named_children(&mut inner) {
                if part.kind() == "function_declarator" {
                    found = Some(part);
                }
            }
        }
    }
    found.unwrap_or(declarator)
}

/// The row a definition's lines start on when its first line is a macro that error
/// recovery took for its type (`TEST_END` alone on a line, then `static void` and the
/// name): the first row after that line. None when the definition starts as written.
fn below_macro_line(node: Node, declarator: Node) -> Option<usize> {
    let first = node.child(0)?;
    if !matches!(first.kind(), "type_identifier" | "macro_type_specifier") {
        return None;
    }
    let mut cursor = node.walk();
    let next = node.children(&mut cursor).nth(1)?;
    // Alone on its line, and followed by more of a type than a name: a storage class, a
    // qualifier, a type of its own or what recovery could not place.
    let more_type = matches!(
        next.kind(),
        "storage_class_specifier" | "type_qualifier" | "primitive_type" | "ERROR"
    ) || next.is_error();
    (next.id() != declarator.id()
        && more_type
        && next.start_position().row > first.end_position().row)
        .then(|| next.start_position().row)
}
