//! Abandoning a search: the abort flag shared by every thread of a search, and the deadline
//! each search thread watches itself (the timer thread may be starved of CPU).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

/// Calls to [`Watch::poll`] between two looks at the clock.
pub const POLL_NODES: u32 = 64;

/// One search thread's view of the abort flag and the deadline.
#[derive(Debug)]
pub struct Watch {
    /// Raised by another thread (timer, caller's stop) or by the search itself: every result
    /// since is meaningless.
    pub abort: Arc<AtomicBool>,
    /// Time at which [`poll`](Self::poll) raises `abort` (looked at every [`POLL_NODES`] calls).
    pub deadline: Option<Instant>,
    /// Calls left before the next look at the clock.
    countdown: u32,
}

impl Watch {
    /// A watch on `abort` with no deadline.
    pub fn new(abort: Arc<AtomicBool>) -> Watch {
        Watch {
            abort,
            deadline: None,
            countdown: POLL_NODES,
        }
    }

    /// The same flag and deadline for another thread, with its own countdown.
    pub fn share(&self) -> Watch {
        Watch {
            deadline: self.deadline,
            ..Watch::new(Arc::clone(&self.abort))
        }
    }

    /// True once the search must be abandoned.
    #[inline(always)]
    pub fn aborted(&self) -> bool {
        self.abort.load(Relaxed)
    }

    /// Abandons the search (every thread sharing the flag).
    #[inline(always)]
    pub fn raise(&self) {
        self.abort.store(true, Relaxed);
    }

    /// Called once per node: looks at the clock every [`POLL_NODES`] calls and raises the flag
    /// past the deadline; true when the search must stop.
    #[inline(always)]
    pub fn poll(&mut self) -> bool {
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = POLL_NODES;
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.raise();
            }
        }
        self.aborted()
    }
}
