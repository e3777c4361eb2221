//! The library half of the `ply-chess` program: its UCI front end ([`protocol::uci`]), which
//! parses protocol lines, keeps the game and options, and runs the engine library's search on a
//! background thread, writing every reply through a caller-supplied sink. The binary
//! (`src/main.rs`, subcommands in `src/cli/`) feeds it standard input; tests and the fuzz targets
//! drive the same session directly. [`evalfile`] turns an `EvalFile` / `--eval-file` value
//! into the evaluation the search uses.
//!
//! ```
//! use ply_chess_cli::protocol::UciSession;
//! use std::sync::{Arc, Mutex};
//!
//! let lines = Arc::new(Mutex::new(Vec::<String>::new()));
//! let sink = Arc::clone(&lines);
//! let mut uci = UciSession::new(Arc::new(move |l: &str| sink.lock().unwrap().push(l.into())));
//! uci.handle("position startpos moves e2e4");
//! uci.handle("go nodes 500");
//! uci.wait();
//! assert!(lines.lock().unwrap().last().unwrap().starts_with("bestmove "));
//! ```
#![deny(missing_docs)]

/// The program's version (package version and commit; see [`ply_cli_support::VERSION`]).
pub use ply_cli_support::VERSION;

pub mod evalfile;
pub mod protocol;
