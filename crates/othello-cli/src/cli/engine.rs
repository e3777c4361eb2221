//! Engine options shared by the playing front-ends (`gtp`, `nboard`, the text mode, `analyse`).

use super::CliError;
use clap::builder::RangedU64ValueParser;
use clap::Args;
use ply_othello_engine::eval::parse_weights;
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
