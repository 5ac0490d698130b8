//! Each language's rules: which syntax nodes define symbols and of what kind, and which
//! nodes above a definition belong to its lines (comments, attributes, decorators).

mod clike;
mod ecmascript;
mod go;
mod java;
mod python;
mod rust;

use std::sync::OnceLock;

use tree_sitter::Node;

use super::def::Def;
use super::language::Language;

/// What a language's rules may look at besides the node itself.
pub struct Context<'a, 't> {
    pub src: &'a [u8],
    /// The node's ancestors, the root first.
    pub ancestors: &'a [Node<'t>],
    /// The kind and name of the innermost symbol that encloses the node.
    pub enclosing: Option<(&'static str, &'a str)>,
}

impl<'t> Context<'_, 't> {
    /// The ancestor `up` levels above the node: 1 is its parent.
    pub fn ancestor(&self, up: usize) -> Option<Node<'t>> {
        let index = self.ancestors.len().checked_sub(up)?;
        Some(self.ancestors[index])
    }

    /// How many levels up the lines of a definition start: past each ancestor, nearest
    /// first, whose kind is one of `wrappers`.
    pub fn wrapped_by(&self, mut up: usize, wrappers: &[&str]) -> usize {
        while let Some(node) = self.ancestor(up + 1)
            && wrappers.contains(&node.kind())
        {
            up += 1;
        }
        up
    }
}

/// Names a definition, or says that a node is none.
type Classify = fn(Node, &Context) -> Option<Def>;

/// One language's rules, with its node kinds looked up once in the grammar so that the
/// walk tests a number, not a string, at each node.
pub(super) struct Rules {
    pub classify: Classify,
    /// By kind id: whether a node of that kind may define a symbol.
    defining: Vec<bool>,
    /// By kind id: whether a node of that kind belongs to the definition below it.
    leading: Vec<bool>,
    /// By kind id: where, below a node of that kind, a definition can be.
    inside: Vec<Inside>,
}

/// Where, below a node that defines nothing, a definition can be: what lets the walk step
/// over the node instead of into it (a statement of a long function, a long literal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Inside {
    Anywhere,
    /// Only inside braces the node holds.
    InBraces,
    /// Only inside braces or an arrow function (`=>`) the node holds.
    InBracesOrArrows,
    /// Nowhere.
    Nowhere,
}

/// What one language's rules module provides.
struct Spec {
    classify: Classify,
    /// The node kinds `classify` may answer for; it is asked about no other.
    defining: &'static [&'static str],
    /// Comment, attribute and decorator kinds.
    leading: &'static [&'static str],
    /// Whether every definition below a node of a kind outside `defining` lies inside
    /// braces that node holds (Rust: an item in an expression is in a block; Java: a
    /// class or method in an expression is in a block or a class body). The walk then
    /// steps over a node without a `{` instead of into it. Not so where a definition
    /// needs no braces: Go's `type A int` inside `type_declaration`, an arrow function,
    /// C++'s `f() = default;` inside a template, Python.
    braced: bool,
    /// Kinds below which definitions are only inside braces, where `braced` is false: the
    /// statements of a function body whose insides are expressions.
    in_braces: &'static [&'static str],
    /// Kinds below which no definition can be (the grammar puts none there): Python's
    /// expression statements, which hold its longest literals.
    nowhere: &'static [&'static str],
    /// Kinds below which definitions are only inside braces or arrow functions.
    in_braces_or_arrows: &'static [&'static str],
    /// Kinds below which a definition may be without braces where `braced` is true:
    /// Java's enum members after the constants' `;` (an abstract method).
    anywhere: &'static [&'static str],
}

impl Rules {
    /// The rules of `language`, whose tree-sitter grammar is `grammar`: made once a
    /// process. Looking up every kind of a grammar by name took 7 % of the CPU time of a
    /// map of tokio when it was done for each file.
    pub fn of(language: Language, grammar: &tree_sitter::Language) -> &'static Rules {
        static RULES: [OnceLock<Rules>; Language::COUNT] = [const { OnceLock::new() }; _];
        RULES[language as usize].get_or_init(|| Rules::new(language, grammar))
    }

    /// The rules of `language`, whose tree-sitter grammar is `grammar`.
    fn new(language: Language, grammar: &tree_sitter::Language) -> Rules {
        let spec = match language {
            Language::Rust => rust::SPEC,
            Language::Python => python::SPEC,
            Language::JavaScript | Language::TypeScript | Language::Tsx => ecmascript::SPEC,
            Language::Go => go::SPEC,
            Language::Java => java::SPEC,
            Language::C | Language::Cpp => clike::SPEC,
            // Markdown has no grammar here; an empty table defines nothing.
            Language::Markdown => Spec {
                classify: |_, _| None,
                defining: &[],
                leading: &[],
                braced: false,
                in_braces: &[],
                nowhere: &[],
                in_braces_or_arrows: &[],
                anywhere: &[],
            },
        };
        let in_braces = table(grammar, spec.in_braces);
        let nowhere = table(grammar, spec.nowhere);
        let or_arrows = table(grammar, spec.in_braces_or_arrows);
        let anywhere = table(grammar, spec.anywhere);
        let inside = (0..in_braces.len())
            .map(|id| {
                if nowhere[id] {
                    Inside::Nowhere
                } else if anywhere[id] {
                    Inside::Anywhere
                } else if spec.braced || in_braces[id] {
                    Inside::InBraces
                } else if or_arrows[id] {
                    Inside::InBracesOrArrows
                } else {
                    Inside::Anywhere
                }
            })
            .collect();
        Rules {
            classify: spec.classify,
            defining: table(grammar, spec.defining),
            leading: table(grammar, spec.leading),
            inside,
        }
    }

    /// Where, below `node` (which defines nothing), a definition can be.
    pub fn inside(&self, node: Node) -> Inside {
        self.inside
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(Inside::Anywhere)
    }

    /// Whether `node` is of a kind that may define a symbol.
    pub fn may_define(&self, node: Node) -> bool {
        self.defining
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(false)
    }

    /// Whether `node` belongs to the lines of a definition right below it.
    pub fn is_leading(&self, node: Node) -> bool {
        self.leading
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(false)
    }
}

/// A table by kind id that is true for the named kinds in `kinds`. Every id is looked
/// at, because a grammar may give one name to several ids (aliases).
fn table(grammar: &tree_sitter::Language, kinds: &[&str]) -> Vec<bool> {
    let count = grammar.node_kind_count();
    (0..count)
        .map(|id| {
            let id = u16::try_from(id).unwrap_or(u16::MAX);
            grammar.node_kind_is_named(id)
                && grammar
                    .node_kind_for_id(id)
                    .is_some_and(|kind| kinds.contains(&kind))
        })
        .collect()
}

/// The child in field `field`, as the name of a definition of `kind`.
fn named(kind: &'static str, node: Node, field: &str, cx: &Context) -> Option<Def> {
    Def::named(kind, node.child_by_field_name(field)?, cx.src)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind a language's rules name is a kind of one of its grammars: a name
    /// misspelt would be matched by no node, and its rule lost without a word.
    #[test]
    fn every_kind_named_is_a_grammar_kind() {
        let specs = [
            (rust::SPEC, &[Language::Rust][..]),
            (python::SPEC, &[Language::Python]),
            (
                ecmascript::SPEC,
                &[Language::JavaScript, Language::TypeScript, Language::Tsx],
            ),
            (go::SPEC, &[Language::Go]),
            (java::SPEC, &[Language::Java]),
            (clike::SPEC, &[Language::C, Language::Cpp]),
        ];
        for (spec, languages) in specs {
            let grammars: Vec<tree_sitter::Language> = languages
                .iter()
                .map(|&language| super::super::parse::grammar(language).expect("a grammar"))
                .collect();
            let lists = [
                spec.defining,
                spec.leading,
                spec.in_braces,
                spec.nowhere,
                spec.in_braces_or_arrows,
            ];
            for kind in lists.into_iter().flatten() {
                let known = grammars
                    .iter()
                    .any(|grammar| table(grammar, &[kind]).contains(&true));
                assert!(known, "{kind} in the rules of {languages:?}");
            }
        }
    }
}
