//! Go: functions, methods qualified by their receiver's type, struct and interface
//! types, and the methods an interface lists.

use tree_sitter::Node;

use super::super::def::{Def, text, type_name};
use super::Context;
use super::{Spec, named};

pub(super) const SPEC: Spec = Spec {
    classify,
    defining: &[
        "function_declaration",
        "method_declaration",
        "type_spec",
        "method_elem",
    ],
    leading: &["comment"],
    braced: false,
    // A function literal's body and an interface's methods are in braces.
    in_braces: &[
        "expression_statement",
        "return_statement",
        "assignment_statement",
        "short_var_declaration",
        "inc_statement",
        "dec_statement",
        "send_statement",
        "go_statement",
        "defer_statement",
        "var_declaration",
        "const_declaration",
    ],
    nowhere: &[],
    in_braces_or_arrows: &[],
    anywhere: &[],
};

fn classify(node: Node, cx: &Context) -> Option<Def> {
    match node.kind() {
        "function_declaration" => named("function", node, "name", cx),
        "method_declaration" => {
            let mut def = named("method", node, "name", cx)?;
            def.qualifier = receiver_type(node, cx.src);
            Some(def)
        }
        "type_spec" => {
            let kind = match node.child_by_field_name("type")?.kind() {
                "struct_type" => "struct",
                "interface_type" => "interface",
                _ => return None,
            };
            let def = named(kind, node, "name", cx)?;
            // `type X struct {…}` alone: the lines (and doc comment) are the whole
            // `type` declaration's; in a `type ( … )` group, the spec's own.
            let alone = cx.ancestor(1).is_some_and(|parent| {
                parent.kind() == "type_declaration" && parent.named_child_count() == 1
            });
            Some(def.up(usize::from(alone)))
        }
        // Promoted to `method` by the interface around it.
        "method_elem" => named("function", node, "name", cx),
        _ => None,
    }
}

/// The receiver's type without pointer or type arguments: `(w *Window[T])` → `Window`.
fn receiver_type(node: Node, src: &[u8]) -> Option<String> {
    let receiver = node.child_by_field_name("receiver")?;
    let mut cursor = receiver.walk();
    let parameter = receiver
        .named_children(&mut cursor)
        .find(|child| child.kind() == "parameter_declaration")?;
    let name = type_name(text(parameter.child_by_field_name("type")?, src), true);
    (!name.is_empty()).then_some(name)
}
