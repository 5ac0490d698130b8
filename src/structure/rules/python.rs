//! Python: classes and functions (methods inside classes), nested ones included, their
//! decorators part of their lines.

use tree_sitter::Node;

use super::super::def::Def;
use super::Context;
use super::{Spec, named};

pub(super) const SPEC: Spec = Spec {
    classify,
    defining: &["function_definition", "class_definition"],
    leading: &["comment"],
    braced: false,
    in_braces: &[],
    nowhere: &[
        "expression_statement",
        "return_statement",
        "import_statement",
        "import_from_statement",
        "future_import_statement",
        "assert_statement",
        "delete_statement",
        "raise_statement",
        "pass_statement",
        "break_statement",
        "continue_statement",
        "global_statement",
        "nonlocal_statement",
        "print_statement",
        "exec_statement",
        "type_alias_statement",
        "decorator",
    ],
    in_braces_or_arrows: &[],
    anywhere: &[],
};

fn classify(node: Node, cx: &Context) -> Option<Def> {
    let kind = match node.kind() {
        "function_definition" => "function",
        "class_definition" if is_protocol(node, cx.src) => "interface",
        "class_definition" => "class",
        _ => return None,
    };
    // Decorators sit in a `decorated_definition` around the definition.
    Some(named(kind, node, "name", cx)?.up(cx.wrapped_by(0, &["decorated_definition"])))
}

/// Whether a class is a protocol (`class P(Protocol)`, `typing.Protocol[T]`,
/// `typing_extensions.Protocol`): an interface, as SPEC §15 counts protocols.
fn is_protocol(node: Node, src: &[u8]) -> bool {
    let Some(bases) = node.child_by_field_name("superclasses") else {
        return false;
    };
    let mut cursor = bases.walk();
    bases.named_children(&mut cursor).any(|base| {
        // `Protocol[T]` is a subscript of the name.
        let name = match base.kind() {
            "subscript" => base.child_by_field_name("value"),
            _ => Some(base),
        };
        name.and_then(|name| name.utf8_text(src).ok())
            .is_some_and(|text| text == "Protocol" || text.ends_with(".Protocol"))
    })
}
