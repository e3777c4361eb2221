//! Syzygy tablebase prober: exact WDL and DTZ from `.rtbw` / `.rtbz` files.
//!
//! Implements the Syzygy format (Ronald de Man) from its description in seed 004 and the public file
//! layout: table discovery in `:`-separated directories, lazily memory-mapped files, the index encoding
//! (462 king pairs, a1-d1-d4 triangle, binomial placement of like pieces, leading-pawn files) and the
//! pairs/Huffman decompression, with every table read bounds-checked so that a damaged file is an error
//! value, never a panic. On top of the raw tables, [`Tablebase::probe_wdl`] resolves captures and en
//! passant, [`Tablebase::probe_dtz`] adds the one-ply search for the side to move a DTZ table does not
//! store, and [`Tablebase::root_moves`] ranks root moves for an engine.
//!
//! ```
//! use ply_chess::Position;
//! use ply_syzygy::{Tablebase, Wdl};
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/syzygy/tables");
//! # if !std::path::Path::new(dir).exists() { return; }
//! let tb = Tablebase::open(dir).expect("readable directory");
//! // KQ v K, white to move: a win, the queen mates within 20 plies of no capture or pawn move.
//! let pos = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").unwrap();
//! assert_eq!(tb.probe_wdl(&pos).unwrap(), Wdl::Win);
//! assert!(tb.probe_dtz(&pos).unwrap().0 > 0);
//! // Castling rights are never in tables.
//! let castle = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
//! assert!(tb.probe_wdl(&castle).is_err());
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
