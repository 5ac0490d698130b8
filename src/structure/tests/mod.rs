//! Tests of the structure engine: per language on small hand-checked files, finding,
//! indentation blocks, and robustness (arbitrary bytes, deep nesting, size).

mod clike;
mod ecmascript;
mod find;
mod go;
mod indent;
mod java;
mod language;
mod markdown;
mod pieces;
mod python;
mod robust;
mod rust;
mod support;
