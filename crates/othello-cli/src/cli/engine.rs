//! Engine options shared by the playing front-ends (`gtp`, `nboard`, the text mode, `analyse`).

use super::CliError;
use clap::Args;
use ply_othello_engine::eval::parse_weights;
use ply_othello_engine::{Engine, EngineOptions, DEFAULT_LEVEL};
use std::path::PathBuf;

/// Level, tables, threads and weights of the engine.
#[derive(Args, Clone, Debug)]
pub struct EngineArgs {
    /// Search level 0..60 (Edax-like: midgame depth, then exact solving near the end).
    #[arg(long, default_value_t = DEFAULT_LEVEL)]
    pub level: u8,
    /// Transposition tables in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Evaluation weights to use instead of the built-in ones (ply or Edax `eval.dat` format).
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
}

impl EngineArgs {
    /// The engine these options describe.
    ///
    /// # Errors
    /// A weight file that cannot be read.
    pub fn engine(&self) -> Result<Engine, CliError> {
        let weights = match &self.eval_file {
            Some(p) => Some(parse_weights(&super::read(p)?)?),
            None => None,
        };
        Ok(Engine::new(EngineOptions {
            hash_mib: self.hash.max(1),
            threads: self.threads.max(1),
            weights,
        }))
    }

    /// The level, at most 60.
    pub fn level(&self) -> u8 {
        self.level.min(60)
    }
}
