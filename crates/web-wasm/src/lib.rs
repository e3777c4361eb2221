//! ply's web pages without a server: both engines compiled to WebAssembly, answering in the
//! browser the requests `ply serve` answers over HTTP ([`ply_web_api`]'s, routed by the same
//! paths, [`route()`]).
//!
//! `tools/site/build.sh OUT_DIR` builds this crate for `wasm32-unknown-unknown`, writes its glue
//! with `wasm-bindgen`, and puts it beside the pages, whose `backend.js` is then this crate's
//! (`js/backend.js`): requests that need no search are answered on the page's thread, searches
//! run in module workers (`js/engine-worker.js`), one request at a time each, so the page never
//! waits on them; a stream that is closed before its end is stopped by ending its worker.
//!
//! In the browser the engines run on one thread each, with the page's clock (see the engines'
//! `platform` modules), the built-in weights, network and opening book, and no Syzygy tables.
//!
//! # Modules
//! ```text
//! bindings (wasm32 only: the exports the scripts call) ─> worker (engines, requests)
//!   ─> route (paths to ply_web_api's requests);  bench (the engines' benchmarks)
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bench;
#[cfg(target_arch = "wasm32")]
mod bindings;
pub mod route;
pub mod worker;

pub use route::{route, Context, Routed};
pub use worker::{answer, Worker};
