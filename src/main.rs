//! The agentread command: runs the library and turns its answer into an exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let code = std::panic::catch_unwind(|| agentread::run(args.clone()))
        .unwrap_or_else(|_| agentread::internal_failure(&args));
    ExitCode::from(code)
}
