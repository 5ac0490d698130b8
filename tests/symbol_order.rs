//! The release build places the functions of `link/symbol-order.txt` side by side, in the
//! file's order (build.rs), and the file still names functions this toolchain builds.

mod common;

use std::collections::HashMap;

use object::{Object, ObjectSymbol, SymbolKind};

#[test]
fn the_release_build_places_the_command_lines_functions_together() {
    let data = std::fs::read(common::release_binary()).expect("the binary reads");
    let file = object::File::parse(&*data).expect("the binary is an object file");
    if file.format() != object::BinaryFormat::Elf {
        return; // The ordering file is an ELF linker's option.
    }
    let address: HashMap<&str, u64> = file
        .symbols()
        .filter(|s| s.kind() == SymbolKind::Text)
        .filter_map(|s| Some((s.name().ok()?, s.address())))
        .collect();
    let order = include_str!("../link/symbol-order.txt");
    let names: Vec<&str> = order
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    let placed: Vec<u64> = names
        .iter()
        .filter_map(|n| address.get(n).copied())
        .collect();
    // This build adds a feature, which renames the crate's own functions and what it
    // instantiates (about half the list); the rest (std, clap, memchr...) are renamed only
    // by another toolchain or dependency versions, and then hardly any would be found.
    assert!(
        placed.len() * 3 >= names.len(),
        "only {} of the {} functions of link/symbol-order.txt are in the binary: \
         run scripts/symbol-order.sh",
        placed.len(),
        names.len()
    );
    assert!(
        placed.windows(2).all(|w| w[0] < w[1]),
        "the linker did not place link/symbol-order.txt's functions in its order"
    );
}
