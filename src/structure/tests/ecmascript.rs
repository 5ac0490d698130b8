//! JavaScript and TypeScript outlines: declarations, functions assigned to a declared
//! name, classes and their methods, TypeScript's interfaces, enums and namespaces.

use super::super::Language;
use super::support::check;

/// JavaScript with JSX, generators, private methods.
pub(super) const JAVASCRIPT: &str = r#"
'use strict';
/**
 * A component.
 */
export function App({ items }) {
  const handleClick = () => setOpen(true);
  items.map((item) => <li key={item}>{item}</li>);
  return <div onClick={handleClick} />;
}
var legacy = function named() {};
let gen = function* () {};
function* numbers() { yield 1; }
class Counter extends Base {
  #count = 0;
  static create() { return new Counter(); }
  #increment() { this.#count++; }
}
module.exports = { App };
"#;

pub(super) const TYPESCRIPT: &str = r#"
// Greets.
export function greet(name: string): string {
  return name;
}
/** Adds. */
export const add = (a: number, b: number) => a + b;
const x = 1, mul = function (a, b) { return a * b; };
export default class Shape {
  @Input() size = 1;
  /** Area. */
  area(): number { return 0; }
  handle = () => { function inner() {} };
  private static get id() { return 1; }
}
interface Point {
  x: number;
  dist(other: Point): number;
}
enum Color { Red, Green }
namespace A.B {
  export function f() {}
}
declare module "foo" {
  export function g(): void;
}
const C = class { m() {} };
const o = { method() {} };
abstract class Base { abstract run(): void; }
function overloaded(a: string): void;
function overloaded(a: any) {}
"#;

#[test]
fn typescript() {
    let expected = [
        ("greet", "function", 1, 2, 4, 0),
        ("add", "function", 5, 6, 6, 0),
        ("mul", "function", 7, 7, 7, 0),
        ("Shape", "class", 8, 8, 14, 0),
        ("Shape.area", "method", 10, 11, 11, 1),
        ("Shape.handle", "method", 12, 12, 12, 1),
        ("Shape.handle.inner", "function", 12, 12, 12, 2),
        ("Shape.id", "method", 13, 13, 13, 1),
        ("Point", "interface", 15, 15, 18, 0),
        ("Point.dist", "method", 17, 17, 17, 1),
        ("Color", "enum", 19, 19, 19, 0),
        ("A.B", "namespace", 20, 20, 22, 0),
        ("A.B.f", "function", 21, 21, 21, 1),
        ("foo", "module", 23, 23, 25, 0),
        ("foo.g", "function", 24, 24, 24, 1),
        ("C", "class", 26, 26, 26, 0),
        ("C.m", "method", 26, 26, 26, 1),
        ("o.method", "method", 27, 27, 27, 0),
        ("Base", "class", 28, 28, 28, 0),
        ("Base.run", "method", 28, 28, 28, 1),
        // An overload signature belongs to the implementation after it, and the
        // definition starts with it.
        ("overloaded", "function", 29, 29, 30, 0),
    ];
    check(Language::TypeScript, TYPESCRIPT, &expected);
    // TSX is TypeScript's grammar with JSX: the same file gives the same outline.
    check(Language::Tsx, TYPESCRIPT, &expected);
}

/// A class method's overload signatures belong to it, as a function's do (SPEC §15 "More
/// symbols"): `K.go` runs from the first overload's leading comment.
#[test]
fn class_method_overloads_belong_to_the_method() {
    check(
        Language::TypeScript,
        "class K {\n  /** over */\n  go(a: string): void;\n  go(a: number): void;\n  go(a: any): void {\n    return;\n  }\n  abstract only(): void;\n}\n",
        &[
            ("K", "class", 1, 1, 9, 0),
            ("K.go", "method", 2, 3, 7, 1),
            ("K.only", "method", 8, 8, 8, 1),
        ],
    );
}

/// An interface's overloads are one method, as a class's are: `#I.on` reads them whole
/// (two symbols of one name made it ambiguous).
#[test]
fn interface_method_overloads_are_one_method() {
    check(
        Language::TypeScript,
        "interface I {\n  /** on */\n  on(e: \"a\"): this;\n  on(e: \"b\"): this;\n  off(): void;\n  on2(): void;\n}\n",
        &[
            ("I", "interface", 1, 1, 7, 0),
            ("I.on", "method", 2, 3, 4, 1),
            ("I.off", "method", 5, 5, 5, 1),
            ("I.on2", "method", 6, 6, 6, 1),
        ],
    );
}

/// A class assigned to a property is a class, as a function is a function; what is
/// assigned to `module.exports` is named by its own name when it has one (ctags lists
/// that name too), and its methods are its members.
#[test]
fn classes_and_functions_assigned_to_exports() {
    check(
        Language::JavaScript,
        "module.exports = class Router {\n  get(p) {\n    return p;\n  }\n};\nexports.Layer = class Layer {\n  run() {}\n};\nmodule.exports = function route(a) {};\nmodule.exports = class {\n  m() {}\n};\n",
        &[
            ("Router", "class", 1, 1, 5, 0),
            ("Router.get", "method", 2, 2, 4, 1),
            ("exports.Layer", "class", 6, 6, 8, 0),
            ("exports.Layer.run", "method", 7, 7, 7, 1),
            ("route", "function", 9, 9, 9, 0),
            ("module.exports", "class", 10, 10, 12, 0),
            ("module.exports.m", "method", 11, 11, 11, 1),
        ],
    );
}

#[test]
fn javascript_with_jsx_and_old_style_code() {
    check(
        Language::JavaScript,
        JAVASCRIPT,
        &[
            ("App", "function", 2, 5, 9, 0),
            ("legacy", "function", 10, 10, 10, 0),
            ("gen", "function", 11, 11, 11, 0),
            ("numbers", "function", 12, 12, 12, 0),
            ("Counter", "class", 13, 13, 17, 0),
            ("Counter.create", "method", 15, 15, 15, 1),
            ("Counter.#increment", "method", 16, 16, 16, 1),
        ],
    );
}

/// The walk passes over a statement without a `{` or `=>` whole
/// ([`Inside::InBracesOrArrows`](super::super::rules)): functions assigned in
/// statements, arrow functions without braces included, are still found.
#[test]
fn definitions_in_statements_are_found_past_statements_without_braces_or_arrows() {
    let names = super::support::names(
        Language::JavaScript,
        "const x = 5;\nfoo(x);\nexports.one = () => 1;\nres.send = function send(b) {\n  return b;\n};\nconst api = { get() {} };\nthrow new Error(String(x));\n",
    );
    assert_eq!(names, ["exports.one", "res.send", "api.get"]);
}

/// Local variables and closures are not symbols (SPEC §15 "Symbols"): an arrow function
/// kept in a function's local or on a local object is not listed, as ctags reads
/// JavaScript; a function expression there, a nested declaration, a method set on `this`
/// and the names of an anonymous wrapper still are.
#[test]
fn closures_in_a_function_are_not_symbols() {
    check(
        Language::JavaScript,
        "function outer() {\n  const local = () => 0;\n  let later = async () => 1;\n  handle.onStop = () => {};\n  var app = function(req) {};\n  function inner() {}\n  this.m = function() {};\n}\n(function () {\n  const h = () => 1;\n}());\nconst top = () => 0;\n",
        &[
            ("outer", "function", 1, 1, 8, 0),
            ("outer.app", "function", 5, 5, 5, 1),
            ("outer.inner", "function", 6, 6, 6, 1),
            ("outer.m", "method", 7, 7, 7, 1),
            ("h", "function", 10, 10, 10, 0),
            ("top", "function", 12, 12, 12, 0),
        ],
    );
}

/// The members of `declare module` and `declare namespace` are symbols (SPEC §15 "More
/// symbols"), their constants and variables too; a constant outside one is not.
#[test]
fn constants_of_an_ambient_module_are_symbols() {
    check(
        Language::TypeScript,
        "declare module \"mod\" {\n  export function inMod(): void;\n  export const c: number;\n  export let v: string;\n}\ndeclare namespace NS {\n  export const k: number;\n}\nexport const plain: number = 1;\n",
        &[
            ("mod", "module", 1, 1, 5, 0),
            ("mod.inMod", "function", 2, 2, 2, 1),
            ("mod.c", "constant", 3, 3, 3, 1),
            ("mod.v", "variable", 4, 4, 4, 1),
            ("NS", "namespace", 6, 6, 8, 0),
            ("NS.k", "constant", 7, 7, 7, 1),
        ],
    );
}
