//! Links libgcc's unwinder statically (`libgcc_eh.a`, as `gcc -static-libgcc` does) on
//! native Linux/glibc builds whose C toolchain has it: the binary then loads one shared
//! object fewer (no libgcc_s.so), which is most of a small file's cost. Anywhere this does
//! not apply, nothing changes.

use std::env;
use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CC");
    static_unwinder();
    fixed_address();
}

/// Links the binary at a fixed address (`-no-pie`) on Linux: a position-independent
/// executable is relocated by the loader at every start, and the grammars' tables of
/// pointers make that 20,000 relocations, which touch about 0.8 MiB of the file
/// (`.rela.dyn` read, `.data.rel.ro` written) before `main`. Shared libraries and the
/// heap are still placed at random.
fn fixed_address() {
    // A static build (`crt-static`, musl's default) is linked `-static-pie` by rustc,
    // which `-no-pie` would contradict.
    let static_build = var("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "crt-static");
    if var("CARGO_CFG_TARGET_OS") == "linux" && !static_build {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}

fn var(name: &str) -> String {
    env::var(name).unwrap_or_default()
}

fn static_unwinder() {
    let native = var("TARGET") == var("HOST");
    let glibc = var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    let already_static = var("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "crt-static");
    if !native || !glibc || already_static {
        return;
    }
    let cc = env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let Ok(out) = Command::new(cc)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
    else {
        return;
    };
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let archive = Path::new(&path);
    // Without the archive, cc prints the bare name back.
    if out.status.success()
        && archive.is_absolute()
        && archive.is_file()
        && let Some(dir) = archive.parent()
    {
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=static:-bundle=gcc_eh");
    }
}
