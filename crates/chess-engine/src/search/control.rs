//! [`Control`]: the stop and ponder-hit signals a front end shares with a running search, and
//! the clock of the search.

use crate::platform::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Signals shared between the protocol thread and a running search.
pub struct Control {
    pub(super) stop: AtomicBool,
    pondering: AtomicBool,
    start: Mutex<Instant>,
}

impl Default for Control {
    fn default() -> Self {
        Control::new()
    }
}

impl Control {
    /// Idle control.
    pub fn new() -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            start: Mutex::new(Instant::now()),
        }
    }

    /// Asks the search to finish as soon as possible (UCI `stop`).
    pub fn stop(&self) {
        self.pondering.store(false, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was requested.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move (UCI `ponderhit`): the clock starts now.
    pub fn ponderhit(&self) {
        if let Ok(mut s) = self.start.lock() {
            *s = Instant::now();
        }
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Prepares for a new search (called before starting it).
    pub fn reset(&self, ponder: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
        if let Ok(mut s) = self.start.lock() {
            *s = Instant::now();
        }
    }

    pub(super) fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    pub(super) fn elapsed(&self) -> Duration {
        self.start.lock().map(|s| s.elapsed()).unwrap_or_default()
    }
}
