//! Subcommands of the `ply-othello` program; each only translates arguments and text into
//! library calls and prints results.

pub mod analyse;
pub mod bench;
pub mod book;
pub mod completions;
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod fit_mpc;
pub mod gtp;
pub mod r#match;
pub mod nboard;
pub mod perft;
pub mod review;
pub mod solve;
pub mod testset;
pub mod text;
pub mod train;
pub mod weights;

use std::io::Write;
use thiserror::Error;

/// The most search threads the batch subcommands (`solve`, `bench`) accept, as the engine
/// options do ([`engine::MAX_THREADS`]).
pub const MAX_THREADS: u64 = engine::MAX_THREADS as u64;

/// The largest transposition table the batch subcommands (`solve`, `datagen`) accept, in MiB
/// (the engine's [`MAX_HASH_MIB`](ply_othello_engine::MAX_HASH_MIB), 1 TiB); a size above this
/// machine's memory ([`hash_limit_mib`](ply_othello_engine::hash_limit_mib)) or one the system
/// cannot give is refused when the tables are allocated.
pub const MAX_HASH_MIB: u64 = ply_othello_engine::MAX_HASH_MIB as u64;

/// Hands each input line to `handle` and prints the reply lines it writes, flushed one by
/// one, until `handle` returns false (the session quit), the input ends or stdout closes.
/// A line is text or, for one that is not UTF-8, the error to report
/// ([`ByteLines`](ply_cli_support::ByteLines)).
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

/// Lets a write to an external engine that has exited fail with an error instead of killing
/// ply: `main` restores the default `SIGPIPE` action (so that `| head` ends the program
/// quietly), which would kill the program the moment it writes to a dead engine.
pub fn ignore_sigpipe() {
    // SAFETY: SIG_IGN is a valid disposition; changing it only turns the signal into an EPIPE
    // error on the failing write, which every writer of the subcommands that call this handles.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
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
    /// A board given on the command line is malformed (a usage error, exit status 2).
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
    /// The external engine whose games `testset --engine` records could not be started, or
    /// failed during a game (exited, hung, refused a command or played an illegal move).
    #[error("external engine: {0}")]
    ExternalEngine(String),
    /// The transposition tables (`--hash`) could not be allocated.
    #[error("--hash: {0}")]
    Hash(#[from] ply_othello_engine::TableError),
    /// Data generation failed (options, output file).
    #[error("datagen: {0}")]
    Datagen(String),
    /// Options that are individually valid but cannot be used together or on this input
    /// (e.g. `--random-min` above `--random-max`): a usage error, exit status 2.
    #[error("{0}")]
    Usage(String),
    /// A result could not be written as JSON.
    #[error("cannot write JSON: {0}")]
    Json(String),
    /// An input file holds no position to work on.
    #[error("no positions in {0}")]
    NoPositions(String),
    /// A batch input holds data the command refuses (e.g. too many empties to solve).
    #[error("{0}")]
    Refused(String),
}

impl CliError {
    /// The exit status of the program for this error: 2 for a usage error, 1 for any other
    /// (runtime) error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) | CliError::Board(_) => 2,
            _ => 1,
        }
    }
}
