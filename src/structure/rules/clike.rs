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
};

/// How many declarator wrappers (`*`, `&`, parentheses, attributes) are looked through
/// to find a function's name: far more than any real declaration has.
const MAX_DECLARATOR_HOPS: usize = 32;

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
    let mut name = node.child_by_field_name("declarator")?;
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
    if !is_function {
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
    Some(def)
}
