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

/// The program's version: the package version, with `+<short commit>` appended when built from
/// a git checkout (`0.1.0+1a2b3c4`; see `build.rs`). `--version`, and the UCI `id name` line all report it.
pub const VERSION: &str = env!("PLY_VERSION");

pub mod evalfile;
pub mod protocol;

#[cfg(test)]
mod tests {
    #[test]
    fn version_is_the_package_version_with_an_optional_commit() {
        let v = super::VERSION;
        assert!(
            ply_buildinfo::is_version_of(v, env!("CARGO_PKG_VERSION")),
            "{v}"
        );
    }
}
