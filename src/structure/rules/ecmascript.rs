//! JavaScript and TypeScript (and their JSX forms): functions, classes and their
//! methods, functions and classes assigned to a declared name (`const f = () => …`),
//! and TypeScript's interfaces, enums and namespaces.

use tree_sitter::Node;

use super::super::def::{Def, squash, text};
use super::Context;
use super::{Spec, named};

pub(super) const SPEC: Spec = Spec {
    classify,
    defining: &[
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "abstract_class_declaration",
        "method_definition",
        "field_definition",
        "public_field_definition",
        "variable_declarator",
        "interface_declaration",
        "enum_declaration",
        "internal_module",
        "module",
        "method_signature",
        "abstract_method_signature",
    ],
    leading: &["comment", "decorator"],
};

/// Statements around a declaration whose lines are the declaration's.
const WRAPPERS: &[&str] = &["export_statement", "ambient_declaration"];

fn classify(node: Node, cx: &Context) -> Option<Def> {
    let def = match node.kind() {
        "function_declaration" | "generator_function_declaration" => {
            named("function", node, "name", cx)?
        }
        "class_declaration" | "abstract_class_declaration" => named("class", node, "name", cx)?,
        "interface_declaration" => named("interface", node, "name", cx)?,
        "enum_declaration" => named("enum", node, "name", cx)?,
        "internal_module" => module_name("namespace", node, cx)?,
        "module" => module_name("module", node, cx)?,
        "method_definition" if parent_is(cx, "class_body") => named("method", node, "name", cx)?,
        "abstract_method_signature" => named("method", node, "name", cx)?,
        // An interface's methods; in a class a signature is an overload, no definition.
        "method_signature" if parent_is(cx, "interface_body") => named("method", node, "name", cx)?,
        "field_definition" | "public_field_definition" => return class_field(node, cx),
        "variable_declarator" => return declarator(node, cx),
        _ => return None,
    };
    Some(def.up(cx.wrapped_by(0, WRAPPERS)))
}

/// Whether the node's parent is of kind `kind`.
fn parent_is(cx: &Context, kind: &str) -> bool {
    cx.ancestor(1).is_some_and(|parent| parent.kind() == kind)
}

/// A namespace or module, named as written (`A.B.C`), a quoted name without quotes.
fn module_name(kind: &'static str, node: Node, cx: &Context) -> Option<Def> {
    let name_node = node.child_by_field_name("name")?;
    let name = squash(text(name_node, cx.src));
    let name = name.trim_matches(['"', '\'', '`']).to_string();
    if name.is_empty() {
        return None;
    }
    Some(Def {
        kind,
        name,
        name_row: name_node.start_position().row,
        outer_up: 0,
        qualifier: None,
        scope: None,
    })
}

/// Whether a value node defines a function (as opposed to calling one or being data).
fn is_function_value(value: Node) -> bool {
    matches!(
        value.kind(),
        "arrow_function" | "function_expression" | "function" | "generator_function"
    )
}

/// A class field holding a function (`handle = () => …`): a method.
fn class_field(node: Node, cx: &Context) -> Option<Def> {
    if !is_function_value(node.child_by_field_name("value")?) {
        return None;
    }
    let name = node
        .child_by_field_name("name")
        .or_else(|| node.child_by_field_name("property"))?;
    Def::named("method", name, cx.src)
}

/// `const f = () => …`, `let g = function …`, `const C = class …`: a function or
/// class named by the declared name. Its lines are the whole declaration's when it
/// declares only that name.
fn declarator(node: Node, cx: &Context) -> Option<Def> {
    let name = node.child_by_field_name("name")?;
    if name.kind() != "identifier" {
        return None;
    }
    let value = node.child_by_field_name("value")?;
    let kind = if is_function_value(value) {
        "function"
    } else if value.kind() == "class" {
        "class"
    } else {
        return None;
    };
    let def = Def::named(kind, name, cx.src)?;
    let alone = cx.ancestor(1).is_some_and(|declaration| {
        matches!(
            declaration.kind(),
            "lexical_declaration" | "variable_declaration"
        ) && declaration.named_child_count() == 1
    });
    Some(match alone {
        true => def.up(cx.wrapped_by(1, WRAPPERS)),
        false => def,
    })
}
