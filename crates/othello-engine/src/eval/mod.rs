//! Pattern evaluation compatible with Edax (seed 003): 46 base-3 pattern features over 12
//! kinds, one `i16` weight table per ply from the mover's view, updated incrementally with AVX2
//! and evaluated with gathered lookups; Edax's `eval.dat` and ply's compressed format.
//!
//! Layout: [`pattern`] square lists and symmetry packing, [`features`] feature vector and its
//! update, [`weights`] packed model and runtime tables, [`edax`] `eval.dat` I/O, [`format`] ply's
//! own format.

pub mod edax;
pub mod features;
pub mod format;
pub mod pattern;
pub mod weights;

pub use edax::{EdaxError, EdaxFile, EdaxHeader};
pub use features::Features;
pub use format::FormatError;
pub use weights::{to_discs, PackedWeights, Weights};

use std::path::Path;

/// Errors loading an evaluation file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read evaluation file: {0}")]
    Io(#[from] std::io::Error),
    /// An Edax `eval.dat` that does not parse.
    #[error(transparent)]
    Edax(#[from] EdaxError),
    /// A ply weight file that does not parse.
    #[error(transparent)]
    Ply(#[from] FormatError),
}

/// Parses evaluation weights in either format: ply's (magic `PLYOEVAL`) or Edax's `eval.dat`.
///
/// # Errors
/// [`LoadError`] when the bytes are in neither format or are corrupted.
pub fn parse_weights(bytes: &[u8]) -> Result<PackedWeights, LoadError> {
    if bytes.starts_with(b"PLYOEVAL") {
        Ok(format::decode(bytes)?)
    } else {
        Ok(EdaxFile::parse(bytes)?.weights)
    }
}

/// Loads evaluation weights from a file in either format (the engine's `--eval-file`).
///
/// # Errors
/// [`LoadError`] on I/O errors or malformed files.
pub fn load_weights(path: &Path) -> Result<PackedWeights, LoadError> {
    parse_weights(&std::fs::read(path)?)
}
