//! Where the evaluation comes from: the value of the UCI option `EvalFile` and of the
//! `--eval-file` argument of `eval` and `bench`. Empty (or `<empty>`) means the hand-made
//! evaluation; a path names a network file (format in `ply_chess_engine::nnue`), read here and
//! handed to the engine library as bytes; `<embedded>` names the network built into the program.
//!
//! No network is built in yet ([`EMBEDDED`] is `None`). Shipping one is a small change here:
//! `EMBEDDED = Some(include_bytes!(...))` and [`DEFAULT`] = `<embedded>`.

use ply_chess_engine::{Network, NnueError};
use std::path::PathBuf;
use std::sync::Arc;

/// The network built into the program, if any.
pub const EMBEDDED: Option<&[u8]> = None;
/// The `EvalFile` value that names [`EMBEDDED`].
pub const EMBEDDED_NAME: &str = "<embedded>";
/// The default `EvalFile` value: the hand-made evaluation.
pub const DEFAULT: &str = "<empty>";

/// Why an `EvalFile` value gives no network.
#[derive(Debug, thiserror::Error)]
pub enum EvalFileError {
    /// The file could not be read.
    #[error("cannot read '{path}': {source}")]
    Io {
        /// The path as given.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The file is not a valid network.
    #[error("'{path}': {source}")]
    Format {
        /// The path as given.
        path: PathBuf,
        /// What is wrong with it.
        source: NnueError,
    },
    /// `<embedded>` in a program built without a network.
    #[error("this program has no embedded network")]
    NoEmbedded,
}

/// The evaluation an `EvalFile` value names: `None` for the hand-made one (empty or `<empty>`),
/// the built-in network for `<embedded>`, else the network read from the file at that path.
///
/// # Errors
/// An [`EvalFileError`] when the file cannot be read or is not a network, or when `<embedded>`
/// is asked of a program without one.
pub fn load(value: &str) -> Result<Option<Arc<Network>>, EvalFileError> {
    let value = value.trim();
    if value.is_empty() || value == DEFAULT {
        return Ok(None);
    }
    if value == EMBEDDED_NAME {
        let bytes = EMBEDDED.ok_or(EvalFileError::NoEmbedded)?;
        return Network::from_bytes(bytes)
            .map(|net| Some(Arc::new(net)))
            .map_err(|source| EvalFileError::Format {
                path: PathBuf::from(EMBEDDED_NAME),
                source,
            });
    }
    let path = PathBuf::from(value);
    let bytes = std::fs::read(&path).map_err(|source| EvalFileError::Io {
        path: path.clone(),
        source,
    })?;
    let net =
        Network::from_bytes(&bytes).map_err(|source| EvalFileError::Format { path, source })?;
    Ok(Some(Arc::new(net)))
}

/// A short description for reports: `network H=256 N=8` or `hand-made evaluation`.
pub fn describe(network: Option<&Network>) -> String {
    match network {
        Some(net) => format!("network H={} N={}", net.hidden(), net.buckets()),
        None => "hand-made evaluation".to_string(),
    }
}
