//! Abandoning a search: the abort flag shared by every thread of a search, the deadline
//! each search thread watches itself (the timer thread may be starved of CPU), and the cut
//! flags of the split nodes a thread works under (a cut in one of them makes the rest of the
//! thread's work there useless: Edax's `node_stop_slaves`).

use crate::platform::Instant;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

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
    /// Cut flags of the split nodes this thread is searching under, outermost first: once one
    /// is raised, the thread's results below that node are meaningless.
    splits: Vec<Arc<AtomicBool>>,
}

impl Watch {
    /// A watch on `abort` with no deadline.
    pub fn new(abort: Arc<AtomicBool>) -> Watch {
        Watch {
            abort,
            deadline: None,
            countdown: POLL_NODES,
            splits: Vec::new(),
        }
    }

    /// The same flag, deadline and split nodes for another thread, with its own countdown.
    pub fn share(&self) -> Watch {
        Watch {
            deadline: self.deadline,
            splits: self.splits.clone(),
            ..Watch::new(Arc::clone(&self.abort))
        }
    }

    /// True once the search must be abandoned: the whole search, or this thread's work under
    /// a split node that another move has cut.
    #[inline(always)]
    pub fn aborted(&self) -> bool {
        self.abort.load(Relaxed) || self.splits.iter().any(|c| c.load(Relaxed))
    }

    /// Enters a split node whose cut flag is `cut`.
    pub(crate) fn enter_split(&mut self, cut: &Arc<AtomicBool>) {
        self.splits.push(Arc::clone(cut));
    }

    /// Leaves the innermost split node.
    pub(crate) fn leave_split(&mut self) {
        self.splits.pop();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_split_node_stops_the_threads_under_it_only() {
        let mut w = Watch::new(Arc::new(AtomicBool::new(false)));
        let outer = Arc::new(AtomicBool::new(false));
        let inner = Arc::new(AtomicBool::new(false));
        w.enter_split(&outer);
        let mut helper = w.share();
        helper.enter_split(&inner);
        assert!(!w.aborted() && !helper.aborted());
        inner.store(true, Relaxed);
        assert!(helper.aborted(), "the helper works under the cut node");
        assert!(!w.aborted(), "the owner of the outer node does not");
        helper.leave_split();
        assert!(!helper.aborted());
        outer.store(true, Relaxed);
        assert!(w.poll() && helper.aborted());
        w.leave_split();
        assert!(!w.aborted() && !w.abort.load(Relaxed));
    }
}
