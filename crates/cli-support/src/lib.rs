//! What ply's command-line programs (`ply-chess`, `ply-othello`) share, so each is written once:
//!
//! - [`lines`]: protocol input read as lines of bytes ([`ByteLines`]): a line that is not UTF-8 is
//!   handed on as an error ([`NotUtf8`]) for the session to answer in its protocol's own form,
//!   instead of ending the input as `BufRead::lines` does; a read error ends the lines and is kept
//!   for the session to report ([`ByteLines::take_error`]).
//! - [`program`]: the exit statuses of both programs ([`RUNTIME_ERROR`], [`USAGE_ERROR`]), clap's
//!   usage errors under the program's own prefix ([`usage_error`]), and the default handling of a
//!   closed standard output ([`quiet_on_closed_pipe`]).
//! - [`VERSION`]: the programs' version string, made once by this crate's build script.
#![deny(missing_docs)]

/// The programs' version: the package version, with `+<short commit>` appended when built from
/// a git checkout (`0.1.0+1a2b3c4`; see `ply_buildinfo`). `--version`, the UCI `id name` line,
/// GTP `version` and NBoard's `set myname` report it.
pub const VERSION: &str = env!("PLY_VERSION");

pub mod lines;
pub mod program;

pub use lines::{decode, ByteLines, NotUtf8};
pub use program::{quiet_on_closed_pipe, usage_error, RUNTIME_ERROR, USAGE_ERROR};

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
