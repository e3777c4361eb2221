//! Engine options shared by the playing front-ends (`gtp`, `nboard`, the text mode, `analyse`),
//! the loss allowance of the first three, and the opening book of all four ([`BookArgs`]).

use super::CliError;
use clap::builder::RangedU64ValueParser;
use clap::Args;
use ply_othello_cli::protocol::{SessionBook, MAX_BOOK_RANDOMNESS};
use ply_othello_engine::eval::parse_weights;
use ply_othello_engine::{strength, Strength, Weakness, MAX_LOSS, STRENGTHS};
use ply_othello_engine::{Engine, EngineOptions, DEFAULT_LEVEL, MAX_HASH_MIB};
use std::path::PathBuf;

/// The most search threads `--threads` accepts.
pub const MAX_THREADS: usize = 1024;

/// Level, tables, threads and weights of the engine.
#[derive(Args, Clone, Debug)]
pub struct EngineArgs {
    /// Search level 0..=60 (Edax-like: midgame depth, then exact solving near the end).
    #[arg(long, default_value_t = DEFAULT_LEVEL,
          value_parser = clap::value_parser!(u8).range(0..=60))]
    pub level: u8,
    /// Transposition tables in MiB, 1..=1048576 (1 TiB); a size above this machine's memory,
    /// or one the system cannot give, is refused with an error.
    #[arg(long, default_value_t = 64,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_HASH_MIB as u64))]
    pub hash: usize,
    /// Search threads, 1..=1024.
    #[arg(long, default_value_t = 1,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_THREADS as u64))]
    pub threads: usize,
    /// Evaluation weights to use instead of the built-in ones (ply or Edax `eval.dat` format);
    /// default: the built-in ones.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
}

impl EngineArgs {
    /// The engine these options describe.
    ///
    /// # Errors
    /// A weight file that cannot be read, tables that cannot be allocated.
    pub fn engine(&self) -> Result<Engine, CliError> {
        let weights = match &self.eval_file {
            Some(p) => Some(parse_weights(&super::read(p)?)?),
            None => None,
        };
        Ok(Engine::try_new(EngineOptions {
            hash_mib: self.hash.max(1),
            threads: self.threads.max(1),
            weights,
        })?)
    }

    /// The level, at most 60.
    pub fn level(&self) -> u8 {
        self.level.min(60)
    }
}

/// The loss allowance of the playing sessions (`gtp`, `nboard`, the text mode): a named
/// strength or an allowance in discs and a ratio, and the seed of its draws.
#[derive(Args, Clone, Debug)]
pub struct WeaknessArgs {
    /// A named strength level, weakest first: beginner, casual, club, strong, expert, full (or
    /// 1..6); sets the search level and the loss allowance (the Edax level each plays like:
    /// docs/othello.md).
    #[arg(long, value_parser = parse_strength, conflicts_with_all = ["level", "loss"])]
    pub strength: Option<&'static Strength>,
    /// Loss allowance: with probability RATIO (0..1), the engine plays any move within DISCS
    /// (0..64) of the best, drawn uniformly. Default: off.
    #[arg(long, num_args = 2, value_names = ["DISCS", "RATIO"], allow_negative_numbers = true)]
    pub loss: Option<Vec<String>>,
    /// Seed of the loss allowance's draws and of the book's (advanced after every engine move).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The opening book (here so that the text mode, whose options are these and
    /// [`EngineArgs`], has it too).
    #[command(flatten)]
    pub book: BookArgs,
}

/// A `--strength` value: a name of [`STRENGTHS`] or its number.
///
/// # Errors
/// Neither, with the names listed.
pub fn parse_strength(s: &str) -> Result<&'static Strength, String> {
    strength(s).ok_or_else(|| {
        let names: Vec<&str> = STRENGTHS.iter().map(|s| s.name).collect();
        format!(
            "not a strength level: {} or 1..{}",
            names.join(", "),
            names.len()
        )
    })
}

impl WeaknessArgs {
    /// The level of `--strength`, if given.
    pub fn level(&self) -> Option<u8> {
        self.strength.map(|s| s.level)
    }

    /// The session's opening book ([`BookArgs::session_book`]), except that a session started
    /// at a named strength or with a loss allowance plays without the built-in book (its
    /// levels are calibrated without one); a `--book FILE` is used at any strength.
    ///
    /// # Errors
    /// A file that cannot be read or is not a book, named in the message.
    pub fn session_book(&self) -> Result<SessionBook, CliError> {
        if self.book.book.is_none() && (self.strength.is_some() || self.loss.is_some()) {
            return Ok(SessionBook::default());
        }
        self.book.session_book()
    }

    /// The allowance these options describe (off without `--strength` or `--loss`).
    ///
    /// # Errors
    /// A `--loss` out of range (a usage error).
    pub fn weakness(&self) -> Result<Weakness, CliError> {
        weakness(self.strength, self.loss.as_deref(), self.seed)
    }
}

/// The loss allowance of a `--strength` or a `--loss DISCS RATIO` (off without either), with
/// the draws' `seed`: shared by the playing sessions and `match`.
///
/// # Errors
/// A `--loss` out of range (a usage error).
pub fn weakness(
    strength: Option<&Strength>,
    loss: Option<&[String]>,
    seed: u64,
) -> Result<Weakness, CliError> {
    if let Some(s) = strength {
        return Ok(s.weakness(seed));
    }
    let Some([d, r]) = loss else {
        return Ok(Weakness {
            seed,
            ..Weakness::default()
        });
    };
    d.parse::<i32>()
        .ok()
        .zip(r.parse::<f64>().ok())
        .and_then(|(d, r)| Weakness::new(d, r, seed))
        .ok_or_else(|| {
            CliError::Usage(format!(
                "--loss {d} {r}: DISCS must be 0..={MAX_LOSS} and RATIO 0..1"
            ))
        })
}

/// The opening book of the playing front-ends: `--book FILE`, `--no-book`,
/// `--book-randomness DISCS` (the seed of the draws is the session's `--seed`); the book
/// shipped with ply by default.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Opening book")]
pub struct BookArgs {
    /// Play from this opening book while it holds the position (no search): ply's own book
    /// file, Edax's book.dat or Edax's text form. Default: the book built into ply.
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    pub book: Option<PathBuf>,
    /// Play without an opening book (every move searched).
    #[arg(long)]
    pub no_book: bool,
    /// Play any book move within DISCS (0..=64) of the best book move, drawn with the seed
    /// (Edax's -book-randomness). Default 0: the best (ties drawn).
    #[arg(long, value_name = "DISCS", default_value_t = 0,
          value_parser = clap::value_parser!(u8).range(0..=MAX_BOOK_RANDOMNESS as i64))]
    pub book_randomness: u8,
}

impl BookArgs {
    /// The book these options name, with the file it came from and the randomness:
    /// `--book`'s file; no book with `--no-book`; else the book built into ply.
    ///
    /// # Errors
    /// A file that cannot be read or is not a book, named in the message.
    pub fn session_book(&self) -> Result<SessionBook, CliError> {
        if self.no_book {
            return Ok(SessionBook::default());
        }
        let mut book = match self.book.as_ref() {
            Some(path) => read_book(path)?,
            None => SessionBook::builtin().map_err(|e| CliError::Read {
                path: "the built-in book".into(),
                source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
            })?,
        };
        book.set_randomness(i32::from(self.book_randomness));
        Ok(book)
    }
}

/// The book of the file `path`, in any form ply reads.
fn read_book(path: &std::path::Path) -> Result<SessionBook, CliError> {
    let bytes = super::read(path)?;
    SessionBook::from_bytes(&bytes, path).map_err(|e| CliError::Read {
        path: path.display().to_string(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
    })
}
