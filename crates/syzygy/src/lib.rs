//! Syzygy tablebase prober: exact WDL and DTZ from `.rtbw` / `.rtbz` files.
//!
//! The Syzygy format (Ronald de Man) is implemented from his description in the talkchess thread
//! "Question to syzygy author" and the public file layout:
//!
//! - `tablebase`: discovery of table files in `:`-separated directories, a material-key registry,
//!   lazy opening with memory-mapped files (one `OnceLock` per file: no lock once a table is open).
//! - `table`: header and piece-order nibbles, pawnless tables and pawn tables split by the file of the
//!   leading pawn, the index encoding (`encoding`: 462 king pairs, the a1-d1-d4 triangle, diagonal
//!   and lower-triangle maps, binomial placement of like pieces, leading pawns), DTZ value maps
//!   (8- and 16-bit) and the WinPlies/LossPlies flags.
//! - `pairs`: canonical Huffman codes over "recursive pairing" symbols, the sparse index and block
//!   lengths; codes are skipped several at a time through a small decode window.
//! - `probe`: capture resolution (`probe_ab`), en passant, and the one-ply DTZ search for the side to
//!   move a DTZ table does not store; `root`: ranking of root moves for engines.
//!
//! Every read of table bytes is bounds-checked (`bytes`): a truncated, corrupted or malicious file is
//! a [`ProbeError::BadTable`] value, never a panic. [`Tablebase`] is `Send + Sync`; share one between
//! search threads.
//!
//! # Results
//! [`Tablebase::probe_wdl`] gives a [`Wdl`] in -2..=2 (loss, blessed loss, draw, cursed win, win) and
//! [`Tablebase::probe_dtz`] a [`Dtz`]: plies to the next capture or pawn move with best play, signed
//! like the WDL, ±1 when the best move zeroes the counter, beyond ±100 for cursed/blessed results.
//! Both ignore the position's 50-move counter; [`Tablebase::root_moves`] takes it into account.
//! Positions with castling rights are never in tables ([`ProbeError::CastlingRights`]).
//! [`Tablebase::probe_wdl_table`] and [`Tablebase::probe_dtz_table`] are the raw lookups on a plain
//! [`RawPosition`], before any capture resolution.
//!
//! # Examples
//!
//! Probing needs table files, so this example is compiled but not run; `tests/truth.rs` makes the
//! same calls on the shared tables (and fails under `PLY_STRICT=1` when they are absent).
//!
//! ```no_run
//! use ply_chess::Position;
//! use ply_syzygy::{Tablebase, Wdl};
//!
//! // One or more folders of `.rtbw` / `.rtbz` files, separated by `:`.
//! let tb = Tablebase::open("/path/to/syzygy").expect("readable directory");
//! // KQ v K, white to move: a win; the DTZ counts plies to the mate (a zeroing event).
//! let pos = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").unwrap();
//! assert_eq!(tb.probe_wdl(&pos).unwrap(), Wdl::Win);
//! assert!(tb.probe_dtz(&pos).unwrap().0 > 0);
//! // The engine's view: the moves that keep the win and convert it fastest.
//! let best = tb.best_root_moves(&pos).unwrap();
//! assert!(best.iter().all(|m| m.wdl == Wdl::Win));
//! ```
//!
//! Without a table for the material, or with castling rights, a probe is an error value:
//!
//! ```
//! use ply_chess::Position;
//! use ply_syzygy::{ProbeError, Tablebase};
//!
//! let tb = Tablebase::new();
//! assert_eq!(tb.max_pieces(), 0);
//! let pos = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").unwrap();
//! assert!(tb.probe_wdl(&pos).is_err());
//! // Castling rights are never in tables.
//! let castle = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
//! assert_eq!(tb.probe_wdl(&castle), Err(ProbeError::CastlingRights));
//! ```
#![deny(missing_docs)]

mod bytes;
mod encoding;
mod error;
mod material;
mod pairs;
mod probe;
mod root;
mod table;
mod tablebase;
mod wdl;

pub use error::{ProbeError, TableError};
pub use root::RootMove;
pub use tablebase::{RawPosition, Tablebase};
pub use wdl::{Dtz, Wdl};
