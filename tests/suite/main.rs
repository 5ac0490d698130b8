//! The integration tests: one binary, a module per area of SPEC.md, each running the
//! built `agentread` as a user or an agent would.

mod common;

mod agent;
mod beyond;
mod bounds;
mod cache;
mod content;
mod deny;
mod documents;
mod errors;
mod formats;
mod generated;
mod hostile;
mod internal;
mod mcp;
mod names;
mod parallel;
mod paths;
mod pdf_mutations;
mod pdf_text;
mod pipeline;
mod reach;
mod readme;
mod references;
mod regression;
mod sandbox;
mod structure;
mod structure_answers;
mod terminal;
mod tokens;
mod window;

/// The suite starts agentread about 1,700 times. A static test binary cannot use
/// `posix_spawn`, so each start forks this process, copying its page tables and
/// write-protecting its memory; glibc keeps the multi-MiB inputs that earlier tests freed
/// (its mmap threshold rises to the largest block freed), so every later fork paid for
/// them. A fixed threshold gives big blocks back when they are freed: the suite's system
/// time fell by a third.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[used]
#[unsafe(link_section = ".init_array")]
static GIVE_BACK_BIG_BLOCKS: extern "C" fn() = give_back_big_blocks;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
extern "C" fn give_back_big_blocks() {
    // SAFETY: mallopt only sets allocator parameters; it runs before any test thread.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 << 10);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 10);
    }
}
