//! JavaScript and TypeScript (and their JSX forms): functions, classes and their
//! methods, functions and classes assigned to a declared name (`const f = () => …`),
//! functions assigned to a property (`res.send = function …`, `Foo.prototype.bar = …`,
//! `exports.x = …`, `this.bar = …` in a constructor function), the methods of an object literal assigned to a declared name, and
//! TypeScript's interfaces, enums, namespaces, ambient (`declare`) declarations and
//! overload signatures (which belong to the implementation that follows them).

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
        "function_signature",
        "assignment_expression",
        "pair",
        "export_statement",
    ],
    leading: &["comment", "decorator"],
    braced: false,
    in_braces: &[],
    nowhere: &["import_statement"],
    // A definition in a statement is a function, class, object literal or arrow
    // function (`exports.x = () => 1`); an `export` may wrap an overload signature, and
    // is walked.
    in_braces_or_arrows: &[
        "expression_statement",
        "return_statement",
        "throw_statement",
        "lexical_declaration",
        "variable_declaration",
    ],
    anywhere: &[],
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
        "method_definition" | "pair" => return object_member(node, cx),
        // `declare function f(…): T;`, or an overload: the definition of the same name
        // right after it takes its lines in.
        "function_signature" => {
            let mut def = named("function", node, "name", cx)?;
            def.overload = true;
            def
        }
        "assignment_expression" => return property_function(node, cx),
        "abstract_method_signature" => named("method", node, "name", cx)?,
        // An interface's methods, and in a class a method's overloads: the method of the
        // same name right after a signature takes its lines in (an interface's overloads
        // are one method, read whole by `#I.on`); left alone, it is a method.
        "method_signature" if parent_is(cx, "interface_body") || parent_is(cx, "class_body") => {
            let mut def = named("method", node, "name", cx)?;
            def.overload = true;
            def
        }
        "field_definition" | "public_field_definition" => return class_field(node, cx),
        "variable_declarator" => return declarator(node, cx),
        "export_statement" => return ambient_member(node, cx),
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
        overload: false,
        start_row: None,
    })
}

/// How many member expressions deep an object path may be (`a.b.c.d`).
const MAX_PATH_PARTS: usize = 16;

/// An object path as written (`res`, `Foo.prototype`, `module.exports`): identifiers
/// joined by `.`, nothing computed; None otherwise.
fn object_path(node: Node, src: &[u8]) -> Option<String> {
    let mut parts = Vec::new();
    let mut at = node;
    for _ in 0..MAX_PATH_PARTS {
        match at.kind() {
            "identifier" => {
                parts.push(squash(text(at, src)));
                parts.reverse();
                return Some(parts.join("."));
            }
            "member_expression" => {
                let property = at.child_by_field_name("property")?;
                if property.kind() != "property_identifier" {
                    return None;
                }
                parts.push(squash(text(property, src)));
                at = at.child_by_field_name("object")?;
            }
            _ => return None,
        }
    }
    None
}

/// `res.send = function send(…) {…}`, `Foo.prototype.bar = () => …`, `exports.x = …`:
/// a function named by the property, qualified by the object path; `this.bar = …`: a
/// method of the symbol around it. `exports.Layer = class Layer {…}`: a class, named
/// and qualified alike. `module.exports = class Router {…}` or `= function route(…)`:
/// named by its own name (`module.exports` is where it is exported, not what it is
/// called; ctags lists both names), or `exports` when it has none.
fn property_function(node: Node, cx: &Context) -> Option<Def> {
    let left = node.child_by_field_name("left")?;
    let right = node.child_by_field_name("right")?;
    let kind = match right.kind() {
        _ if is_function_value(right) => "function",
        "class" => "class",
        _ => return None,
    };
    if left.kind() != "member_expression" {
        return None;
    }
    let property = left.child_by_field_name("property")?;
    if property.kind() != "property_identifier" {
        return None;
    }
    let object = left.child_by_field_name("object")?;
    if object.kind() != "this" && is_closure(right, cx) {
        return None;
    }
    let mut def = if object.kind() == "this" {
        if kind == "class" {
            return None;
        }
        // `this.bar = function …` in a constructor function or a method: a method of
        // what it builds, under the symbol that encloses it (as ctags lists it).
        let kind = if cx.enclosing.is_some() {
            "method"
        } else {
            "function"
        };
        Def::named(kind, property, cx.src)?
    } else {
        let qualifier = object_path(object, cx.src)?;
        let own_name = right.child_by_field_name("name");
        match own_name {
            Some(name) if qualifier == "module" && text(property, cx.src) == b"exports" => {
                Def::named(kind, name, cx.src)?
            }
            _ => {
                let mut def = Def::named(kind, property, cx.src)?;
                def.qualifier = Some(qualifier);
                def
            }
        }
    };
    // The statement's lines, with the comments above it.
    if parent_is(cx, "expression_statement") {
        def = def.up(1);
    }
    Some(def)
}

/// A method of an object literal assigned to a declared name (`const api = { get() {},
/// post: function () {} }`), qualified by the name and the keys of the objects around it.
fn object_member(node: Node, cx: &Context) -> Option<Def> {
    // Locals of a function are not symbols.
    if matches!(cx.enclosing, Some(("function" | "method", _))) {
        return None;
    }
    let (name, kind) = match node.kind() {
        "pair" if is_function_value(node.child_by_field_name("value")?) => {
            (node.child_by_field_name("key")?, "method")
        }
        "method_definition" => (node.child_by_field_name("name")?, "method"),
        _ => return None,
    };
    if !matches!(name.kind(), "property_identifier" | "identifier" | "string") {
        return None;
    }
    let mut path = Vec::new();
    let mut up = 1;
    loop {
        if cx.ancestor(up)?.kind() != "object" || path.len() >= MAX_PATH_PARTS {
            return None;
        }
        let holder = cx.ancestor(up + 1)?;
        match holder.kind() {
            "pair" => {
                let key = holder.child_by_field_name("key")?;
                path.push(
                    squash(text(key, cx.src))
                        .trim_matches(['"', '\''])
                        .to_string(),
                );
                up += 2;
            }
            "variable_declarator" => {
                let declared = holder.child_by_field_name("name")?;
                if declared.kind() != "identifier" {
                    return None;
                }
                path.push(squash(text(declared, cx.src)));
                break;
            }
            _ => return None,
        }
    }
    path.reverse();
    let mut def = Def::named(kind, name, cx.src)?;
    def.name = def.name.trim_matches(['"', '\'']).to_string();
    if def.name.is_empty() {
        return None;
    }
    def.qualifier = Some(path.join("."));
    Some(def)
}

/// Whether a value node defines a function (as opposed to calling one or being data).
fn is_function_value(value: Node) -> bool {
    matches!(
        value.kind(),
        "arrow_function" | "function_expression" | "function" | "generator_function"
    )
}

/// `export const c: number;` in a `declare module` or `declare namespace`: a member of
/// the ambient module, a constant (`const`) or a variable. (Its functions and classes are
/// the declarations' own symbols.)
fn ambient_member(node: Node, cx: &Context) -> Option<Def> {
    if !matches!(cx.enclosing, Some(("module" | "namespace", _)))
        || !cx
            .ancestors
            .iter()
            .any(|a| a.kind() == "ambient_declaration")
    {
        return None;
    }
    let declaration = node.child_by_field_name("declaration")?;
    if !matches!(
        declaration.kind(),
        "lexical_declaration" | "variable_declaration"
    ) || declaration.named_child_count() != 1
    {
        return None;
    }
    let declarator = declaration.named_child(0)?;
    let name = declarator.child_by_field_name("name")?;
    if declarator.kind() != "variable_declarator"
        || name.kind() != "identifier"
        || declarator
            .child_by_field_name("value")
            .is_some_and(|value| is_function_value(value) || value.kind() == "class")
    {
        return None;
    }
    let constant = declaration
        .child(0)
        .is_some_and(|keyword| keyword.kind() == "const");
    Def::named(if constant { "constant" } else { "variable" }, name, cx.src)
}

/// Whether a value is an arrow function inside a function or method: a closure kept in
/// a local or on a local object (`const done = () => …`, `effect.onStop = () => …`), not
/// a symbol (as ctags reads JavaScript). Inside an anonymous wrapper (`(function () {
/// … })()`), which is no symbol, a module's names are still listed.
fn is_closure(value: Node, cx: &Context) -> bool {
    value.kind() == "arrow_function"
        && matches!(
            cx.enclosing,
            Some(("function" | "method" | "constructor", _))
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
    if is_closure(value, cx) {
        return None;
    }
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
