//! The parse budget, counted in CPU time of the thread that parses (SPEC §15 "Bounds":
//! machine load never changes an answer), not in wall time.

use std::time::Duration;

use rustix::time::{ClockId, clock_gettime};

/// When a parse gives up: a point in the parsing thread's CPU time.
#[derive(Clone, Copy, Debug)]
pub(super) struct Deadline {
    at: Duration,
}

/// The CPU time the calling thread has used so far.
pub(super) fn thread_cpu_time() -> Duration {
    let now = clock_gettime(ClockId::ThreadCPUTime);
    Duration::new(
        u64::try_from(now.tv_sec).unwrap_or(0),
        u32::try_from(now.tv_nsec).unwrap_or(0),
    )
}

impl Deadline {
    /// `budget` of CPU time from now, on the calling thread (a budget too large to add
    /// is no limit at all).
    pub fn after(budget: Duration) -> Deadline {
        Deadline {
            at: thread_cpu_time().saturating_add(budget),
        }
    }

    /// The deadline `spent` earlier: CPU time used for the same parse on another thread.
    pub fn charged(self, spent: Duration) -> Deadline {
        Deadline {
            at: self.at.saturating_sub(spent),
        }
    }

    /// The budget the calling thread has left.
    pub fn left(&self) -> Duration {
        self.at.saturating_sub(thread_cpu_time())
    }

    /// Whether the calling thread has used up the budget.
    pub fn passed(&self) -> bool {
        thread_cpu_time() >= self.at
    }
}
