//! Links an unoptimised (debug) build of the binary at a fixed address on Linux. Such a
//! build is for development and the test suite, which starts it thousands of times: as a
//! position-independent executable its 87,000 relocations were two thirds of the page
//! faults of every start, and most of the suite's system time. A release build is never
//! touched: it stays position-independent, so the loader places it at random (ASLR).

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |name: &str| env::var(name).unwrap_or_default();
    let static_build = var("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "crt-static");
    // `PROFILE` is `debug` for the dev and test profiles, `release` for release builds.
    if var("PROFILE") == "debug" && var("CARGO_CFG_TARGET_OS") == "linux" && !static_build {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
