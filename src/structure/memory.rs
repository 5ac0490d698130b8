//! What tree-sitter holds, counted per thread, so that a parse whose tree would pass a
//! bound is given up as one that passes its time (SPEC §15 "Bounds": peak memory for
//! an 8 MiB file stays under 256 MiB).
//!
//! tree-sitter allocates through functions it can be given (`ts_set_allocator`); these
//! are libc's, and count the bytes each block really takes (`malloc_usable_size`) on
//! the thread that asks. A parse reads its thread's count at its start and at each
//! progress call, so what it measures is its own tree and stacks: the count is the
//! input's alone, not the machine's, and a tree freed on another thread later only
//! lowers that thread's count.

use std::cell::Cell;
use std::ffi::c_void;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most one parse may add to what tree-sitter holds on its thread. A tree takes
/// a few bytes for each byte of real code (8 MiB of Python: 22 MiB), but up to 70 for
/// dense minified JavaScript (1.5 MB: 105 MiB). Two parses of one file may run at once
/// (`parse::either`): with the file's 8 MiB and the rest, a process stays under 256 MiB
/// (138 MiB measured on the densest inputs tried).
pub(super) const MOST: isize = 112 << 20;

thread_local! {
    /// Bytes allocated less bytes freed by tree-sitter on this thread.
    static HELD: Cell<isize> = const { Cell::new(0) };
}

/// Whether the process serves many reads (the MCP server, which sets its own malloc
/// thresholds): see [`keep_freed`].
static LONG_LIVED: AtomicBool = AtomicBool::new(false);

/// Says that this process serves many reads: its parses leave glibc's malloc as it is.
pub fn long_lived() {
    LONG_LIVED.store(true, Ordering::Relaxed);
}

/// Has tree-sitter allocate with the counting functions, once, before any parser is
/// made (tree-sitter asks that no object of it be alive when they change).
pub(super) fn install() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        if !LONG_LIVED.load(Ordering::Relaxed) {
            keep_freed();
        }
        let counting = tree_sitter::Allocator {
            malloc,
            calloc,
            realloc,
            free,
        };
        // SAFETY: one allocator family (libc's); no null for a size above 0 (the
        // process aborts, as tree-sitter's own functions do); libc's alignment; set
        // once, before any tree-sitter object is made, behind the `Once`.
        unsafe { tree_sitter::set_allocator(Some(counting)) };
    });
}

/// Has glibc's malloc keep what a command that parses frees, until it exits. A parse
/// makes and frees its tree and stack versions a node at a time, on a thread's own
/// arena; past glibc's default thresholds (128 KiB) each free at the top of an arena
/// handed its pages back to the kernel, and the next node faulted them in again. The
/// process ends with its answer, so nothing is gained by handing them back. Blocks of
/// 8 MiB and more keep their own mappings (a file's bytes, a page of a huge map).
fn keep_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's thresholds, under its own lock.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
        libc::mallopt(libc::M_TOP_PAD, 8 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 8 << 20);
    }
}

/// What tree-sitter holds on this thread, to compare with the same count later.
pub(super) fn held() -> isize {
    HELD.with(Cell::get)
}

/// Counts the block at `ptr` (none for null) in or out of this thread's count.
fn count(ptr: *mut c_void, sign: isize) {
    if ptr.is_null() {
        return;
    }
    // SAFETY: `ptr` is a live block from libc's malloc family.
    let size = unsafe { libc::malloc_usable_size(ptr) } as isize;
    // A thread being torn down has no count left to change.
    let _ = HELD.try_with(|held| held.set(held.get() + sign * size));
}

/// A null block for a size above 0 would be written through: the process stops, as with
/// tree-sitter's own allocator.
fn surely(ptr: *mut c_void, size: usize) -> *mut c_void {
    if ptr.is_null() && size > 0 {
        std::process::abort();
    }
    ptr
}

unsafe extern "C" fn malloc(size: usize) -> *mut c_void {
    // SAFETY: libc's malloc, any size.
    let ptr = surely(unsafe { libc::malloc(size) }, size);
    count(ptr, 1);
    ptr
}

unsafe extern "C" fn calloc(items: usize, size: usize) -> *mut c_void {
    // SAFETY: libc's calloc, any sizes (it checks their product).
    let ptr = surely(
        unsafe { libc::calloc(items, size) },
        items.saturating_mul(size),
    );
    count(ptr, 1);
    ptr
}

unsafe extern "C" fn realloc(ptr: *mut c_void, size: usize) -> *mut c_void {
    count(ptr, -1);
    // SAFETY: `ptr` is null or a live block from these functions, as tree-sitter passes.
    let moved = surely(unsafe { libc::realloc(ptr, size) }, size);
    count(moved, 1);
    moved
}

unsafe extern "C" fn free(ptr: *mut c_void) {
    count(ptr, -1);
    // SAFETY: `ptr` is null or a live block from these functions.
    unsafe { libc::free(ptr) }
}
