//! Rust: modules, structs, unions, enums, traits (as interfaces), impl blocks named by
//! their header, functions (foreign ones in `extern` blocks too), the methods of
//! impls and traits, and `macro_rules!` macros.

use tree_sitter::Node;

use super::super::def::{Def, squash, type_name};
use super::Context;
use super::{Spec, named};

pub(super) const SPEC: Spec = Spec {
    classify,
    defining: &[
        "mod_item",
        "struct_item",
        "union_item",
        "enum_item",
        "trait_item",
        "impl_item",
        "function_item",
        "function_signature_item",
        "macro_definition",
    ],
    leading: &["line_comment", "block_comment", "attribute_item"],
    braced: true,
    in_braces: &[],
    nowhere: &[],
    in_braces_or_arrows: &[],
    anywhere: &[],
};

fn classify(node: Node, cx: &Context) -> Option<Def> {
    match node.kind() {
        "mod_item" => named("module", node, "name", cx),
        // LSP has no union; a union is a struct whose fields share their storage.
        "struct_item" | "union_item" => named("struct", node, "name", cx),
        "enum_item" => named("enum", node, "name", cx),
        "trait_item" => named("interface", node, "name", cx),
        "function_item" => named("function", node, "name", cx),
        // A bodiless `fn`: a trait's required method, or a foreign function in an
        // `extern` block (the item Rust code calls, so worth finding by name).
        "function_signature_item" => named("function", node, "name", cx),
        "impl_item" => impl_block(node, cx),
        // `macro_rules! name`: called by name like a function, so worth finding.
        "macro_definition" => named("macro", node, "name", cx),
        _ => None,
    }
}

/// An impl block, named by its header as written up to `where` or `{`, whose methods are
/// qualified by its type without generic arguments.
fn impl_block(node: Node, cx: &Context) -> Option<Def> {
    let self_type = node.child_by_field_name("type")?;
    let mut header_end = node.end_byte();
    let mut cursor = node.walk();
    if cursor.goto_first_child() {
        loop {
            let child = cursor.node();
            if child.kind() == "where_clause" || cursor.field_name() == Some("body") {
                header_end = child.start_byte();
                break;
            }
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    let header = squash(
        cx.src
            .get(node.start_byte()..header_end)
            .unwrap_or_default(),
    );
    let scope = type_name(super::super::def::text(self_type, cx.src), false);
    if header.is_empty() || scope.is_empty() {
        return None;
    }
    Some(Def {
        kind: "impl",
        name: header,
        name_row: node.start_position().row,
        outer_up: 0,
        qualifier: None,
        scope: Some(scope),
        overload: false,
        start_row: None,
    })
}
