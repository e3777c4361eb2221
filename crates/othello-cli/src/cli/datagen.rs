//! `ply-othello datagen`: self-play training positions labelled with the game's final score or
//! their own search's value (`ply_othello_tools::datagen`), or with `--games-file` the
//! positions of an external engine's recorded games labelled by their result under ply's
//! perfect play from `--exact` empties; with a progress bar and a summary on standard error.

use super::CliError;
use clap::builder::RangedU64ValueParser;
use clap::{Args, ValueEnum};
use ply_othello::Square;
use ply_othello_tools::datagen::{self, Config, Labels, PlayerWeights, RunBar, Shard};
use ply_othello_tools::engine_games::{parse_games, GamesHeader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The most empties `--exact` accepts (as `solve`'s default `--max-empties`).
pub const MAX_EXACT: u32 = 36;

/// Arguments of `datagen`.
#[derive(Args)]
pub struct DatagenArgs {
    /// Number of games of the seed (game indices 0..G); with --games-file, the first G games
    /// of the file (default: all).
    #[arg(long, required_unless_present = "games_file")]
    games: Option<u64>,
    /// Instead of self-play: label the games an external engine played, as
    /// `ply-othello testset --engine CMD --games-file F` keeps them (the file's header names
    /// the seed and the number of random opening moves, whose positions are left out). Each
    /// game's moves are kept until --exact empties, then ply plays it out perfectly.
    #[arg(long, conflicts_with_all = ["seed", "level", "random_min", "random_max", "labels", "eval_file"])]
    games_file: Option<PathBuf>,
    /// Seed: the same seed gives the same games.
    #[arg(long, default_value_t = Config::default().seed)]
    seed: u64,
    /// Play only the games whose index is K modulo N (`K/N`); the shards of a seed together
    /// are the unsharded run.
    #[arg(long, default_value = "0/1")]
    shard: Shard,
    /// Output file (`<squares> <side> <score> <game> <exact|played|searched>` a line); an
    /// existing one is resumed.
    #[arg(long)]
    out: PathBuf,
    /// Engine level of the midgame moves, 1..=60.
    #[arg(long, default_value_t = Config::default().level,
          value_parser = clap::value_parser!(u8).range(1..=60))]
    level: u8,
    /// Empty squares from which moves are played by an exact solve, 0..=36 (each game solves
    /// a position with this many empties: deeper would not end in useful time).
    #[arg(long, default_value_t = Config::default().exact_from,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_EXACT)))]
    exact: u32,
    /// Fewest random opening moves (their positions are not kept), 0..=59.
    #[arg(long, default_value_t = Config::default().random_min,
          value_parser = clap::value_parser!(u32).range(0..=59))]
    random_min: u32,
    /// Most random opening moves, 0..=59, at least `--random-min`.
    #[arg(long, default_value_t = Config::default().random_max,
          value_parser = clap::value_parser!(u32).range(0..=59))]
    random_max: u32,
    /// Transposition tables, MiB, 1..=1048576.
    #[arg(long, default_value_t = Config::default().hash_mib,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=super::MAX_HASH_MIB))]
    hash: usize,
    /// What labels a position: `result`, the game's final disc difference; `search`, the score
    /// of the search that chose the move there (at `--level`; exact where it solved).
    #[arg(long, value_enum, default_value_t = LabelArg::Result)]
    labels: LabelArg,
    /// The players' evaluation weights instead of the built-in ones (ply or Edax `eval.dat`
    /// format), e.g. an earlier generation's for positions of another style of play; the
    /// file's checksum is recorded beside the output, so a resume must give the same file.
    #[arg(long)]
    eval_file: Option<PathBuf>,
}

/// FNV-1a, 64 bits: names a weight file in a run's parameters.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `--labels`.
#[derive(Clone, Copy, ValueEnum)]
enum LabelArg {
    Result,
    Search,
}

/// The header and the games of a games file of `testset --engine`.
fn read_games_file(path: &Path) -> Result<(GamesHeader, Vec<Vec<Square>>), CliError> {
    let text = super::read_text(path)?;
    let first = text.lines().next().unwrap_or("");
    let header = GamesHeader::parse(first).ok_or_else(|| {
        CliError::Datagen(format!(
            "{}: not a games file of `ply-othello testset --engine --games-file` (its first \
             line is {first:?})",
            path.display()
        ))
    })?;
    let games =
        parse_games(&text).map_err(|e| CliError::Datagen(format!("{}: {e}", path.display())))?;
    Ok((header, games))
}

/// Runs `datagen`.
pub fn run(a: &DatagenArgs) -> Result<ExitCode, CliError> {
    if a.random_min > a.random_max {
        return Err(CliError::Usage(format!(
            "--random-min {} is above --random-max {}",
            a.random_min, a.random_max
        )));
    }
    let weights = match &a.eval_file {
        Some(p) => {
            let bytes = super::read(p)?;
            Some(PlayerWeights {
                weights: ply_othello_engine::eval::parse_weights(&bytes)?,
                id: format!("fnv1a64:{:016x}", fnv1a(&bytes)),
            })
        }
        None => None,
    };
    let config = Config {
        seed: a.seed,
        random_min: a.random_min,
        random_max: a.random_max,
        level: a.level,
        exact_from: a.exact,
        hash_mib: a.hash,
        labels: match a.labels {
            LabelArg::Result => Labels::Result,
            LabelArg::Search => Labels::Search,
        },
        weights,
    };
    let bar = RunBar::new("positions");
    let start = Instant::now();
    let s = match &a.games_file {
        Some(path) => {
            let (header, mut games) = read_games_file(path)?;
            games.truncate(a.games.map_or(usize::MAX, |g| g as usize));
            datagen::run_engine_games(&config, &header, &games, a.shard, &a.out, |p| bar.show(p))
        }
        None => datagen::run(&config, a.shard, a.games.unwrap_or(0), &a.out, |p| {
            bar.show(p)
        }),
    }
    .map_err(|e| CliError::Datagen(e.to_string()))?;
    bar.finish();
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    eprintln!(
        "shard {}/{} of {}: {} games played ({} already in {}), {} positions ({} exact, {} searched), \
         {:.1} s ({:.1} positions/s); Black +{} ={} -{}, mean disc difference {:+.2}",
        a.shard.index,
        a.shard.count,
        match &a.games_file {
            Some(path) => path.display().to_string(),
            None => format!("seed {}", a.seed),
        },
        s.games,
        s.resumed.games,
        a.out.display(),
        s.positions,
        s.exact,
        s.searched,
        secs,
        s.positions as f64 / secs,
        s.black[0],
        s.black[1],
        s.black[2],
        s.disc_sum as f64 / s.games.max(1) as f64,
    );
    Ok(ExitCode::SUCCESS)
}
