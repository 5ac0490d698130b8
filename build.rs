//! Packs the executable's relative relocations (`-z pack-relative-relocs`, DT_RELR) on
//! Linux with glibc: the binary stays position-independent (ASLR), and the loader reads a
//! few KiB of packed relocations at start instead of the ~480 KiB table that the
//! grammars' pointer tables make (20,000 entries). glibc 2.36 or newer runs such a
//! binary; a build for older systems sets `AGENTREAD_NO_RELR=1`. Nothing here probes the
//! build machine's C toolchain.

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=AGENTREAD_NO_RELR");
    let var = |name: &str| env::var(name).unwrap_or_default();
    let static_build = var("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "crt-static");
    let glibc = var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    if glibc && !static_build && env::var_os("AGENTREAD_NO_RELR").is_none() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}
