//! The agentread process: runs the library, turns a panic into an INTERNAL answer, and
//! exits with the status of the first failure.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // The answer says what failed; the default hook's report would only add noise on
    // stderr. RUST_BACKTRACE keeps it for whoever debugs.
    if std::env::var_os("RUST_BACKTRACE").is_none() {
        std::panic::set_hook(Box::new(|_| {}));
    }
    let failure = std::panic::catch_unwind(|| agentread::run(args.clone()))
        .unwrap_or_else(|_| agentread::internal_failure(&args));
    ExitCode::from(agentread::exit_status(failure))
}
