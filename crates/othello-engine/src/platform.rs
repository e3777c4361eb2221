//! What the crate takes from the platform it runs on: the clock every deadline and timing
//! reads, and how many search threads it may start.
//!
//! Native builds use `std::time::Instant` and threads. In a browser (`wasm32-unknown-unknown`)
//! `std`'s clock and thread spawns panic: the clock is the page's monotonic one
//! (`performance.now()`, through the `web-time` crate, with the same API), and every search runs
//! on the caller's thread alone, watching its own deadline.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub use web_time::Instant;

/// The search threads an engine asking for `n` gets: at least 1, and 1 on `wasm32`.
pub fn usable_threads(n: usize) -> usize {
    if cfg!(target_arch = "wasm32") {
        1
    } else {
        n.max(1)
    }
}
