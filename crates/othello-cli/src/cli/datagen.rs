//! `ply-othello datagen`: self-play training positions labelled with the game's final score
//! (`ply_othello_tools::datagen`), with a progress bar and a summary on standard error.

use super::CliError;
use clap::Args;
use ply_othello_tools::datagen::{self, Config, RunBar, Shard};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `datagen`.
#[derive(Args)]
pub struct DatagenArgs {
    /// Number of games of the seed (game indices 0..G).
    #[arg(long)]
    games: u64,
    /// Seed: the same seed gives the same games.
    #[arg(long, default_value_t = Config::default().seed)]
    seed: u64,
    /// Play only the games whose index is K modulo N (`K/N`); the shards of a seed together
    /// are the unsharded run.
    #[arg(long, default_value = "0/1")]
    shard: Shard,
    /// Output file (`<squares> <side> <score> <game> <exact|played>` a line); an existing one is
    /// resumed.
    #[arg(long)]
    out: PathBuf,
    /// Engine level of the midgame moves.
    #[arg(long, default_value_t = Config::default().level)]
    level: u8,
    /// Empty squares from which moves are played by an exact solve.
    #[arg(long, default_value_t = Config::default().exact_from)]
    exact: u32,
    /// Fewest random opening moves (their positions are not kept).
    #[arg(long, default_value_t = Config::default().random_min)]
    random_min: u32,
    /// Most random opening moves.
    #[arg(long, default_value_t = Config::default().random_max)]
    random_max: u32,
    /// Transposition tables, MiB.
    #[arg(long, default_value_t = Config::default().hash_mib)]
    hash: usize,
}

/// Runs `datagen`.
pub fn run(a: &DatagenArgs) -> Result<ExitCode, CliError> {
    let config = Config {
        seed: a.seed,
        random_min: a.random_min,
        random_max: a.random_max,
        level: a.level,
        exact_from: a.exact,
        hash_mib: a.hash.max(1),
    };
    let bar = RunBar::new("positions");
    let start = Instant::now();
    let s = datagen::run(&config, a.shard, a.games, &a.out, |p| bar.show(p))
        .map_err(|e| CliError::Datagen(e.to_string()))?;
    bar.finish();
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    eprintln!(
        "shard {}/{} of seed {}: {} games played ({} already in {}), {} positions ({} exact), \
         {:.1} s ({:.1} positions/s); Black +{} ={} -{}, mean disc difference {:+.2}",
        a.shard.index,
        a.shard.count,
        a.seed,
        s.games,
        s.resumed.games,
        a.out.display(),
        s.positions,
        s.exact,
        secs,
        s.positions as f64 / secs,
        s.black[0],
        s.black[1],
        s.black[2],
        s.disc_sum as f64 / s.games.max(1) as f64,
    );
    Ok(ExitCode::SUCCESS)
}
