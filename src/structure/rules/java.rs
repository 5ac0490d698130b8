//! Java: classes and records, interfaces and annotation types, enums, methods and
//! constructors. Annotations are part of a declaration's node, so of its lines.

use tree_sitter::Node;

use super::super::def::Def;
use super::Context;
use super::{Spec, named};

pub(super) const SPEC: Spec = Spec {
    classify,
    defining: &[
        "class_declaration",
        "record_declaration",
        "interface_declaration",
        "annotation_type_declaration",
        "enum_declaration",
        "method_declaration",
        "annotation_type_element_declaration",
        "constructor_declaration",
        "compact_constructor_declaration",
    ],
    leading: &["line_comment", "block_comment"],
    braced: true,
    in_braces: &[],
    nowhere: &[],
    in_braces_or_arrows: &[],
    anywhere: &["enum_body_declarations"],
};

fn classify(node: Node, cx: &Context) -> Option<Def> {
    let kind = match node.kind() {
        // LSP has no record; a record is a class with its fields in its header.
        "class_declaration" | "record_declaration" => "class",
        "interface_declaration" | "annotation_type_declaration" => "interface",
        "enum_declaration" => "enum",
        // Every Java method is in a type, anonymous classes' too; an annotation type's
        // elements (`String value() default "";`) are its methods.
        "method_declaration" | "annotation_type_element_declaration" => "method",
        "constructor_declaration" | "compact_constructor_declaration" => "constructor",
        _ => return None,
    };
    named(kind, node, "name", cx)
}
