//! What the crate takes from the platform it runs on: the clock every deadline and timing
//! reads. Native builds use `std::time::Instant`; in a browser (`wasm32-unknown-unknown`, where
//! `std`'s clock panics) the page's monotonic clock (`performance.now()`) through the `web-time`
//! crate, with the same API. Helper threads that cannot start there leave the search on the
//! caller's thread alone (see `search::threads`).

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub use web_time::Instant;
