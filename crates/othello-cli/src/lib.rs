//! The library half of the `ply-othello` program: its text protocols (GTP, NBoard and the
//! Edax-style console), which turn input lines into replies without doing I/O themselves. The
//! binary (`src/main.rs`, subcommands in `src/cli/`) reads and writes the lines; tests and the
//! fuzz targets drive the same sessions directly.
//!
//! ```
//! use ply_othello_cli::protocol::GtpSession;
//! use ply_othello_engine::{Engine, EngineOptions};
//!
//! let engine = Engine::new(EngineOptions { hash_mib: 1, ..EngineOptions::default() });
//! let mut gtp = GtpSession::new(engine, 1);
//! assert_eq!(gtp.handle("protocol_version").as_deref(), Some("= 2\n\n"));
//! ```
#![deny(missing_docs)]

/// The program's version (package version and commit; see [`ply_cli_support::VERSION`]).
pub use ply_cli_support::VERSION;

pub mod protocol;
