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
};

fn classify(node: Node, cx: &Context) -> Option<Def> {
    let kind = match node.kind() {
        "function_definition" => "function",
        "class_definition" => "class",
        _ => return None,
    };
    // Decorators sit in a `decorated_definition` around the definition.
    Some(named(kind, node, "name", cx)?.up(cx.wrapped_by(0, &["decorated_definition"])))
}
