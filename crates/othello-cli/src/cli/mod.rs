//! Subcommands of the `ply-othello` program; each only translates arguments and text into
//! library calls and prints results.

pub mod analyse;
pub mod bench;
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod fit_mpc;
pub mod gtp;
pub mod r#match;
pub mod nboard;
pub mod perft;
pub mod solve;
pub mod testset;
pub mod text;
pub mod train;
pub mod weights;

use std::io::Write;
use thiserror::Error;

/// Hands each input line to `handle` and prints the reply lines it writes, flushed one by
/// one, until `handle` returns false (the session quit), the input ends or stdout closes.
/// A line is text or, for one that is not UTF-8, the error to report
/// ([`ByteLines`](ply_othello_cli::protocol::lines::ByteLines)).
pub fn serve<L>(
    lines: impl IntoIterator<Item = L>,
    mut handle: impl FnMut(L, &mut dyn FnMut(&str)) -> bool,
) {
    let mut out = std::io::stdout().lock();
    for line in lines {
        let mut failed = false;
        let go_on = handle(line, &mut |reply| {
            failed |= writeln!(out, "{reply}").and_then(|_| out.flush()).is_err();
        });
        if failed || !go_on {
            break;
        }
    }
}

/// Reads a whole input file.
///
/// # Errors
/// [`CliError::Read`] naming the file.
pub fn read(path: &std::path::Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|source| CliError::Read {
        path: path.display().to_string(),
        source,
    })
}

/// Reads a whole input text file.
///
/// # Errors
/// [`CliError::Read`] naming the file (also for text that is not UTF-8).
pub fn read_text(path: &std::path::Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|source| CliError::Read {
        path: path.display().to_string(),
        source,
    })
}

/// Writes a whole output file.
///
/// # Errors
/// [`CliError::Write`] naming the file.
pub fn write(path: &std::path::Path, bytes: impl AsRef<[u8]>) -> Result<(), CliError> {
    std::fs::write(path, bytes).map_err(|source| CliError::Write {
        path: path.display().to_string(),
        source,
    })
}

/// Errors that stop a subcommand.
#[derive(Debug, Error)]
pub enum CliError {
    /// An input file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An output file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A board given on the command line is malformed.
    #[error("bad board: {0}")]
    Board(#[from] ply_othello::ParseError),
    /// The training pipeline failed.
    #[error(transparent)]
    Train(#[from] ply_othello_tools::train::pipeline::PipelineError),
    /// An evaluation file given with `--eval-file` could not be loaded.
    #[error(transparent)]
    Eval(#[from] ply_othello_engine::eval::LoadError),
    /// The WTHOR games could not be read.
    #[error(transparent)]
    Wthor(#[from] ply_othello::WthorError),
    /// A match could not be set up (openings, times, opponent).
    #[error("match: {0}")]
    Match(String),
    /// The transposition tables (`--hash`) could not be allocated.
    #[error("--hash: {0}")]
    Hash(#[from] ply_othello_engine::TableError),
    /// Data generation failed (options, output file).
    #[error("datagen: {0}")]
    Datagen(String),
}
