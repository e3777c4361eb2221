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

/// The program's version: the package version, with `+<short commit>` appended when built from
/// a git checkout (`0.1.0+1a2b3c4`; see `build.rs`). `--version`, GTP `version`, NBoard `set myname` and the text mode's banner all report it.
pub const VERSION: &str = env!("PLY_VERSION");

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
