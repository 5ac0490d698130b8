//! The parse budget, counted in CPU time of the threads that parse (SPEC §15 "Bounds":
//! machine load never changes an answer), not in wall time. A file parsed in two halves
//! on two threads shares one budget: each thread publishes the CPU time it has spent and
//! counts the other's with its own.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rustix::time::{ClockId, clock_gettime};

/// When a parse gives up: once the CPU time spent since `from` on this thread (and on
/// the thread it shares the budget with) reaches `budget`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Deadline<'s> {
    from: Duration,
    budget: Duration,
    /// Where this thread publishes what it spent, and where the other thread does.
    shared: Option<(&'s AtomicU64, &'s AtomicU64)>,
}

/// The CPU time the calling thread has used so far.
fn thread_cpu_time() -> Duration {
    let now = clock_gettime(ClockId::ThreadCPUTime);
    Duration::new(
        u64::try_from(now.tv_sec).unwrap_or(0),
        u32::try_from(now.tv_nsec).unwrap_or(0),
    )
}

impl<'s> Deadline<'s> {
    /// `budget` of CPU time from now, on the calling thread (a budget too large to add
    /// is no limit at all).
    pub fn after(budget: Duration) -> Deadline<'static> {
        Deadline {
            from: thread_cpu_time(),
            budget,
            shared: None,
        }
    }

    /// This deadline's budget, shared, for a thread that starts parsing now (called on
    /// that thread): `mine` is where it says what it spent, `theirs` where the other
    /// thread does.
    pub fn on_other_thread<'t>(&self, mine: &'t AtomicU64, theirs: &'t AtomicU64) -> Deadline<'t> {
        Deadline {
            from: thread_cpu_time(),
            budget: self.budget,
            shared: Some((mine, theirs)),
        }
    }

    /// This deadline, its budget now shared with another thread (see [`Deadline::shared`]).
    pub fn share<'t>(&self, mine: &'t AtomicU64, theirs: &'t AtomicU64) -> Deadline<'t> {
        Deadline {
            from: self.from,
            budget: self.budget,
            shared: Some((mine, theirs)),
        }
    }

    /// The CPU time the calling thread spent since the deadline was set.
    fn spent(&self) -> Duration {
        thread_cpu_time().saturating_sub(self.from)
    }

    /// Whether the calling thread (with the one it shares with) used up the budget.
    pub fn passed(&self) -> bool {
        let spent = self.spent();
        match self.shared {
            None => spent >= self.budget,
            Some((mine, theirs)) => {
                let nanos = u64::try_from(spent.as_nanos()).unwrap_or(u64::MAX);
                mine.store(nanos, Ordering::Relaxed);
                let theirs = Duration::from_nanos(theirs.load(Ordering::Relaxed));
                spent.saturating_add(theirs) >= self.budget
            }
        }
    }
}
