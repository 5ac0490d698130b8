//! Two link-time choices that make every start of the command line cheaper; anywhere they
//! do not apply, nothing changes.
//! - Links libgcc's unwinder statically (`libgcc_eh.a`, as `gcc -static-libgcc` does) on
//!   native Linux/glibc builds whose C toolchain has it: the binary then loads one shared
//!   object fewer (no libgcc_s.so), which is most of a small file's cost.
//! - Places the functions the command line runs side by side (`link/symbol-order.txt`,
//!   from `scripts/symbol-order.sh`) when the linker takes an ordering file, as lld (Rust's
//!   default linker on x86_64 Linux) does. The kernel maps code 64 KiB around each page a
//!   program touches; spread over the whole binary, those functions kept about 0.9 MB more
//!   code resident.

use std::env;
use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CC");
    static_unwinder();
    order_symbols();
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

/// Passes the ordering file to the linker when linking an empty program with it, and with
/// this build's target, flags and linker, succeeds (other linkers refuse the option).
fn order_symbols() {
    let order = Path::new(&var("CARGO_MANIFEST_DIR")).join("link/symbol-order.txt");
    println!("cargo:rerun-if-changed={}", order.display());
    println!("cargo:rerun-if-env-changed=AGENTREAD_NO_SYMBOL_ORDER");
    if !order.is_file() || env::var_os("AGENTREAD_NO_SYMBOL_ORDER").is_some() {
        return;
    }
    // `-Xlinker` hands the next argument over whole, whatever characters the path holds.
    let args = [
        "-Xlinker".to_string(),
        format!("--symbol-ordering-file={}", order.display()),
        "-Xlinker".to_string(),
        // Names the binary does not define (another toolchain's) are skipped quietly.
        "--no-warn-symbol-ordering".to_string(),
    ];
    let out_dir = Path::new(&var("OUT_DIR")).to_path_buf();
    let probe = out_dir.join("order_probe.rs");
    if std::fs::write(&probe, "fn main() {}\n").is_err() {
        return;
    }
    let mut rustc = Command::new(env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string()));
    rustc
        .arg("--target")
        .arg(var("TARGET"))
        .arg("--crate-type=bin")
        .arg("-o")
        .arg(out_dir.join("order_probe"))
        .arg(&probe);
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    rustc.args(flags.split('\x1f').filter(|f| !f.is_empty()));
    if let Ok(linker) = env::var("RUSTC_LINKER") {
        rustc.arg(format!("-Clinker={linker}"));
    }
    for arg in &args {
        rustc.arg(format!("-Clink-arg={arg}"));
    }
    if rustc.output().is_ok_and(|out| out.status.success()) {
        for arg in &args {
            println!("cargo:rustc-link-arg-bins={arg}");
        }
    }
}
