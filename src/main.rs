//! The agentread process: runs the library, turns a panic into an INTERNAL answer, and
//! exits with the status of the first failure.
//!
//! `main` is the C entry point, without std's runtime start-up: that start-up finds the
//! main thread's stack guard by parsing `/proc/self/maps`, an eighth of all the work of
//! reading a small file. What it does that agentread needs is done here: closed standard
//! streams are reopened on `/dev/null`, SIGPIPE is ignored (a closed stdout is then an
//! error agentread answers quietly), stdout is flushed at the end, and the arguments are
//! taken from `argc`/`argv` (std fills `args_os()` through a glibc hook, which musl and
//! the BSDs do not have).
// The test harness brings its own main.
#![cfg_attr(not(test), no_main)]

#[cfg(not(test))]
mod process {
    use std::ffi::{c_char, c_int};
    use std::io::Write;

    #[unsafe(no_mangle)]
    extern "C" fn main(argc: c_int, argv: *const *const c_char) -> c_int {
        #[cfg(target_os = "linux")]
        no_fault_around();
        reopen_closed_standard_streams();
        // SAFETY: setting a signal's disposition to SIG_IGN has no preconditions.
        unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
        // SAFETY: the C runtime passes `argc` valid, NUL-terminated strings in `argv`.
        let args = unsafe { arguments(argc, argv) };
        // The answer says what failed; the default hook's report would only add noise on
        // stderr. RUST_BACKTRACE keeps it for whoever debugs.
        if std::env::var_os("RUST_BACKTRACE").is_none() {
            std::panic::set_hook(Box::new(|_| {}));
        }
        let failure = std::panic::catch_unwind(|| agentread::run(args.clone()))
            .unwrap_or_else(|_| agentread::internal_failure(&args));
        let _ = std::io::stdout().flush();
        c_int::from(agentread::exit_status(failure))
    }

    #[cfg(target_os = "linux")]
    unsafe extern "C" {
        /// The first and past-the-last bytes of the executable's image, from the linker.
        static __executable_start: u8;
        static _end: u8;
    }

    /// Asks the kernel to map the executable's pages one at a time as they are used,
    /// rather than with their neighbours ("fault-around", 64 KiB at a time): the grammars
    /// and codecs spread the few functions a small read runs over 20 MB of code and data,
    /// so the neighbours are mostly never used. Measured on a 300-line file: 0.7 MiB less
    /// peak memory and 5 % less time (see docs/performance.md).
    #[cfg(target_os = "linux")]
    fn no_fault_around() {
        // Only the addresses of the linker's symbols are taken, never their contents.
        let (start, end) = (
            std::ptr::addr_of!(__executable_start) as usize,
            std::ptr::addr_of!(_end) as usize,
        );
        let start = start & !4095;
        // SAFETY: advice on the executable's own mapping changes no memory contents.
        unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_RANDOM) };
    }

    /// The program's arguments, as the C runtime passed them.
    ///
    /// # Safety
    /// `argv` must hold `argc` pointers to NUL-terminated strings.
    unsafe fn arguments(argc: c_int, argv: *const *const c_char) -> Vec<std::ffi::OsString> {
        use std::os::unix::ffi::OsStrExt;
        (0..usize::try_from(argc).unwrap_or(0))
            .map(|i| {
                // SAFETY: i < argc, and each entry is a NUL-terminated string.
                let arg = unsafe { std::ffi::CStr::from_ptr(*argv.add(i)) };
                std::ffi::OsStr::from_bytes(arg.to_bytes()).to_os_string()
            })
            .collect()
    }

    /// A standard stream that was closed gets `/dev/null`, so that no file agentread opens
    /// takes its place.
    fn reopen_closed_standard_streams() {
        use std::os::fd::{AsRawFd, IntoRawFd};
        for fd in 0..=2 {
            // SAFETY: fd is only probed; nothing is closed or taken over.
            let open = unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1;
            if !open
                && let Ok(null) = std::fs::File::options()
                    .read(true)
                    .write(true)
                    .open("/dev/null")
            {
                // Opened on the lowest free descriptor, which is `fd` itself.
                if null.as_raw_fd() == fd {
                    let _ = null.into_raw_fd();
                }
            }
        }
    }
}
