//! The clock every deadline and timing of the crate reads: `std::time::Instant` in native
//! builds; in a browser (`wasm32-unknown-unknown`, where `std`'s clock panics) the page's
//! monotonic clock (`performance.now()`) through the `web-time` crate, with the same API.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub use web_time::Instant;
