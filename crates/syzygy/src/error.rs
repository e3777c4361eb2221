//! Error values of the prober: every malformed table byte and every unprobeable position ends here.

use std::path::PathBuf;

/// Why a table file could not be used. Produced by the checked readers of the `bytes` module so that a
/// truncated or malicious file never panics (the approach of shakmaty-syzygy's `CorruptedTable`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The file could not be opened or mapped.
    #[error("cannot open {path}: {message}")]
    Io {
        /// Path of the table file.
        path: PathBuf,
        /// The operating system's message.
        message: String,
    },
    /// The file does not start with the WDL or DTZ magic number.
    #[error("bad magic number")]
    BadMagic,
    /// A read went past the end of the file or a field holds an impossible value.
    #[error("corrupted table: {0}")]
    Corrupted(&'static str),
}

/// Why a position could not be probed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// Positions with castling rights are never stored in Syzygy tables.
    #[error("position has castling rights (not in tablebases)")]
    CastlingRights,
    /// More pieces than the largest table supports.
    #[error("too many pieces ({0}, at most 7)")]
    TooManyPieces(usize),
    /// No table file for this material was found in the search path.
    #[error("missing table {0}")]
    MissingTable(String),
    /// The table exists but is unusable.
    #[error("table {name}: {error}")]
    BadTable {
        /// Table name, e.g. `KRvK.rtbw`.
        name: String,
        /// What is wrong with it.
        error: TableError,
    },
    /// The piece placement handed to the raw table layer is not a valid position.
    #[error("invalid position: {0}")]
    InvalidPosition(&'static str),
}
