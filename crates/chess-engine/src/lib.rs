//! The ply chess engine: a handcrafted tapered evaluation whose middlegame/endgame pair is one
//! packed integer ([`Score`], seed 000), interior-node recognizers indexed by material signatures
//! (seed 001), an alpha-beta search (PVS, Lazy SMP) and the UCI protocol behind the `ply-chess`
//! binary.
//!
//! - [`eval`]: evaluation terms, weights (`eval::params`), trace for `ply-chess eval`.
//! - [`recognizer`]: the 64-entry recognizer table and 1024 availability flags.
//! - [`search()`]: iterative deepening search reporting through a [`Reporter`].
//! - [`uci`]: the protocol front end; [`bench()`]: the fixed node-count benchmark.
#![deny(missing_docs)]

pub mod bench;
mod captures;
mod correction;
pub mod eval;
mod history;
mod kpk;
mod ordering;
pub mod recognizer;
mod score;
pub mod search;
mod see;
pub mod time;
pub mod tt;
pub mod uci;
pub mod value;

pub use bench::bench;
pub use kpk::is_win as kpk_is_win;
pub use score::Score;
pub use search::{search, Control, Info, Options, Reporter, SearchResult, Silent};
pub use see::see_ge;
pub use time::Limits;
pub use tt::TranspositionTable;
