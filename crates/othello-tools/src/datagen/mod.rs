//! Self-play training data for the pattern evaluation (`ply-othello datagen`).
//!
//! Game `i` of a seed opens with a number of uniformly random moves drawn between
//! [`Config::random_min`] and [`Config::random_max`] (those positions are not kept), from a
//! random stream that depends only on the seed and `i`; then the engine plays both sides with
//! one thread and tables cleared for the game: at [`Config::level`] while more than
//! [`Config::exact_from`] squares are empty, and perfectly (an exact solve) from there on. Every
//! position met after the opening in which the mover has a move is kept, labelled with the
//! game's final disc difference from the mover's side; from `exact_from` empties on, play is
//! perfect, so that label is the position's exact minimax score.
//!
//! The games of another player, an external engine's ([`crate::engine_games`]), are labelled
//! the same way by [`run_engine_games`]: its recorded moves until `exact_from` empties, then
//! ply's perfect play.
//!
//! Shards and resuming are [`ply_batch`]'s: `--shard K/N` plays the games whose index is K
//! modulo N, and an existing output file is resumed. The output format is [`record`]'s.

mod engine_games;
mod game;
pub mod record;

pub use engine_games::{label_engine_game, run_engine_games};
pub use game::{play_game, Game};
pub use ply_batch::{BatchError, Progress, Resumed, RunBar, RunParams, Shard};
pub use record::{Kind, Label, RecordError};

use ply_batch::{run_records, Record};
use ply_othello_engine::eval::PackedWeights;
use ply_othello_engine::{Engine, EngineOptions};
use std::path::Path;

/// What every game of a run shares.
#[derive(Clone, Debug)]
pub struct Config {
    /// Seed of the games' random streams.
    pub seed: u64,
    /// Fewest random opening moves.
    pub random_min: u32,
    /// Most random opening moves.
    pub random_max: u32,
    /// Engine level of the midgame moves (Edax-like, 1..=60).
    pub level: u8,
    /// From this many empty squares on, moves are played by an exact solve.
    pub exact_from: u32,
    /// Transposition tables of the engine, MiB.
    pub hash_mib: usize,
    /// What labels the positions.
    pub labels: Labels,
    /// The player's evaluation; `None` for the built-in weights.
    pub weights: Option<PlayerWeights>,
}

/// Evaluation weights for the self-play other than the built-in ones (e.g. an earlier
/// generation's, for positions of another player), and the name that records them in the run's
/// parameters so that a resume with other weights is refused.
#[derive(Clone, Debug)]
pub struct PlayerWeights {
    /// The weights.
    pub weights: PackedWeights,
    /// What identifies them, e.g. a checksum of their file.
    pub id: String,
}

/// What labels a kept position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Labels {
    /// The game's final disc difference ([`Kind::Played`], [`Kind::Exact`] in the perfect-play
    /// part).
    #[default]
    Result,
    /// The score of the search that chose the move at the position ([`Kind::Searched`], or
    /// [`Kind::Exact`] when that search solved the position).
    Search,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            seed: 1,
            random_min: 8,
            random_max: 40,
            level: 10,
            exact_from: 20,
            hash_mib: 16,
            labels: Labels::Result,
            weights: None,
        }
    }
}

impl Config {
    /// The options that decide the games of a run, as recorded beside its output: a resume
    /// must give the same.
    pub fn params(&self) -> RunParams {
        let params = RunParams::new()
            .with("generator", "ply-othello datagen 1")
            .with("seed", self.seed)
            .with("random-min", self.random_min)
            .with("random-max", self.random_max)
            .with("level", self.level)
            .with("exact", self.exact_from)
            .with("hash", self.hash_mib);
        // named only when not the default, so that the runs made before the options resume
        let params = match self.labels {
            Labels::Result => params,
            Labels::Search => params.with("labels", "search"),
        };
        match &self.weights {
            None => params,
            Some(w) => params.with("weights", &w.id),
        }
    }
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// A bad shard, or an output file that cannot be written or resumed.
    #[error(transparent)]
    Batch(#[from] BatchError),
    /// Options that cannot make a game.
    #[error("{0}")]
    Config(String),
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games played by this run.
    pub games: u64,
    /// How the output file was found: games of the shard already done, lines removed.
    pub resumed: Resumed,
    /// Positions written by this run.
    pub positions: u64,
    /// Of them, positions labelled with an exact (perfect-play) score.
    pub exact: u64,
    /// Of them, positions labelled by their own selective search.
    pub searched: u64,
    /// Results from Black's side: wins, draws, losses.
    pub black: [u64; 3],
    /// Sum of the final disc differences from Black's side.
    pub disc_sum: i64,
}

impl Summary {
    fn add(&mut self, g: &Game) {
        self.games += 1;
        self.positions += g.labels.len() as u64;
        let count = |kind| g.labels.iter().filter(|l| l.kind == kind).count() as u64;
        self.exact += count(Kind::Exact);
        self.searched += count(Kind::Searched);
        self.black[match g.black_score.signum() {
            1 => 0,
            0 => 1,
            _ => 2,
        }] += 1;
        self.disc_sum += i64::from(g.black_score);
    }
}

/// Plays the games `0..games` of `shard` and appends their positions to `out`, resuming after
/// the games already there; calls `progress` after each game.
///
/// # Errors
/// Options that cannot make a game, I/O errors on `out`, and an existing `out` that is not a
/// data file or holds another shard's games.
pub fn run(
    config: &Config,
    shard: Shard,
    games: u64,
    out: &Path,
    progress: impl FnMut(&Progress),
) -> Result<Summary, DatagenError> {
    if config.random_min > config.random_max || config.random_max > 59 {
        return Err(DatagenError::Config(format!(
            "random opening moves {}..{}: expected min <= max <= 59",
            config.random_min, config.random_max
        )));
    }
    if !(1..=60).contains(&config.level) {
        return Err(DatagenError::Config(format!(
            "level {}: expected 1..=60",
            config.level
        )));
    }
    let weights = config.weights.as_ref().map(|w| w.weights.clone());
    let mut engine = player(config.hash_mib, weights)?;
    let play = |g| play_game(config, &mut engine, g);
    record_games(shard, games, out, &config.params(), play, progress)
}

/// The engine that plays the games of a run: one thread, `hash_mib` of tables, `weights` (the
/// built-in ones for `None`).
fn player(hash_mib: usize, weights: Option<PackedWeights>) -> Result<Engine, DatagenError> {
    Engine::try_new(EngineOptions {
        hash_mib,
        threads: 1,
        weights,
    })
    .map_err(|e| DatagenError::Config(format!("--hash: {e}")))
}

/// Plays (with `play`) the games `0..games` of `shard` that `out` does not hold yet, appends
/// their positions to it and sums them up; calls `progress` after each game.
fn record_games(
    shard: Shard,
    games: u64,
    out: &Path,
    params: &RunParams,
    play: impl FnMut(u64) -> Game,
    mut progress: impl FnMut(&Progress),
) -> Result<Summary, DatagenError> {
    let mut summary = Summary::default();
    summary.resumed = run_records(
        shard,
        games,
        out,
        params,
        play,
        |game: &Game| &game.labels,
        |game, state| {
            if let Some(game) = game {
                summary.add(game);
            }
            progress(state);
        },
    )?;
    Ok(summary)
}

impl Record for Label {
    fn game(&self) -> u64 {
        self.game
    }
}

#[cfg(test)]
mod tests;
