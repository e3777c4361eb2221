//! Where the evaluation comes from: the value of the UCI option `EvalFile` and of the
//! `--eval-file` argument of `eval`, `bench` and `datagen`. `<embedded>` (the default) names the
//! network built into the program (`ply_chess_engine::nnue::EMBEDDED`); empty or `<empty>` means
//! the hand-made evaluation; a path names a network file (format in `ply_chess_engine::nnue`),
//! read here and handed to the engine library as bytes.

use ply_chess_engine::{Network, NnueError};
use std::path::PathBuf;
use std::sync::Arc;

/// The `EvalFile` value that names the built-in network.
pub const EMBEDDED_NAME: &str = "<embedded>";
/// The `EvalFile` value that names the hand-made evaluation (an empty value does too).
pub const HAND_MADE: &str = "<empty>";
/// The default `EvalFile` value: the built-in network.
pub const DEFAULT: &str = EMBEDDED_NAME;

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
}

/// The evaluation an `EvalFile` value names: `None` for the hand-made one (empty or `<empty>`),
/// the built-in network for `<embedded>`, else the network read from the file at that path.
///
/// # Errors
/// An [`EvalFileError`] when the file cannot be read or is not a network.
pub fn load(value: &str) -> Result<Option<Arc<Network>>, EvalFileError> {
    let value = value.trim();
    if value.is_empty() || value == HAND_MADE {
        return Ok(None);
    }
    if value == EMBEDDED_NAME {
        // read once per process and shared (every UCI session and `setoption` asks for it)
        if let Some(net) = ply_chess_engine::embedded_network() {
            return Ok(Some(net));
        }
        // only when its bytes do not read: the reader's error, for the message
        return Network::from_bytes(ply_chess_engine::nnue::EMBEDDED)
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

/// The evaluation of an optional `--eval-file` argument: the value given, else [`DEFAULT`].
///
/// # Errors
/// As [`load`].
pub fn load_or_default(value: Option<&str>) -> Result<Option<Arc<Network>>, EvalFileError> {
    load(value.unwrap_or(DEFAULT))
}

/// A short description for reports: `network H=256 N=8` or `hand-made evaluation`.
pub fn describe(network: Option<&Network>) -> String {
    match network {
        Some(net) => format!("network H={} N={}", net.hidden(), net.buckets()),
        None => "hand-made evaluation".to_string(),
    }
}
