//! Self-play training data for the evaluation (`ply-chess datagen`).
//!
//! Game `i` of a seed starts from a book position and a few random plies drawn from a random
//! stream that depends only on the seed and `i`, then the engine plays itself at a fixed node
//! budget a move with one thread and a table cleared for each game, so a game is the same
//! whoever plays it. Games end by the rules, at a tablebase position (with tables), or by
//! adjudication: a side scored at least [`RESIGN_SCORE`] for [`RESIGN_PLIES`] plies in a row
//! wins; from move [`DRAW_FROM_MOVE`], scores within [`DRAW_SCORE`] of zero for
//! [`DRAW_PLIES`] plies are a draw. Of the quiet positions met (not in check, quiet best move,
//! no mate or known-win score, static evaluation equal to the quiescence score), up to
//! [`Config::per_game`] are kept, drawn at random.
//!
//! A run plays the games of its [`Shard`] (`K/N`: those whose index is K modulo N), so the
//! shards of a seed together are exactly the run without shards ([`ply_batch`]). The output
//! is the text format of [`record`]; a run on an existing file resumes after the games it
//! holds.

mod game;
pub mod record;

pub use game::{
    play_game, Ending, Game, DRAW_FROM_MOVE, DRAW_PLIES, DRAW_SCORE, RESIGN_PLIES, RESIGN_SCORE,
    SAMPLE_SCORE_LIMIT,
};
pub use record::{RecordError, Sample};

pub use ply_batch::{BatchError, Progress, Resumed, RunBar, RunParams, Shard};

use ply_batch::{run_records, Record};
use ply_chess::Position;
use ply_syzygy::Tablebase;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// What every game of a run shares.
#[derive(Clone, Debug)]
pub struct Config {
    /// Seed of the games' random streams.
    pub seed: u64,
    /// Nodes searched a move.
    pub nodes: u64,
    /// At most this many random plies after the book position (the count is drawn uniformly
    /// from 0 to it).
    pub random_plies: u32,
    /// Positions kept a game, at most.
    pub per_game: usize,
    /// Transposition table of the games, MiB.
    pub hash_mib: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            seed: 1,
            nodes: 5000,
            random_plies: 4,
            per_game: 10,
            hash_mib: 4,
            max_plies: 400,
        }
    }
}

impl Config {
    /// The options that decide the games of a run with `book` and tables of up to
    /// `tablebase_pieces` pieces, as recorded beside its output: a resume must give the same.
    /// The book enters as its size and a digest of its positions.
    pub fn params(&self, book: &[Position], tablebase_pieces: Option<usize>) -> RunParams {
        let digest = book
            .iter()
            .fold(0u64, |acc, p| ply_batch::splitmix(acc ^ p.hash()));
        RunParams::new()
            .with("generator", "ply-chess datagen 1")
            .with("seed", self.seed)
            .with("nodes", self.nodes)
            .with("random-plies", self.random_plies)
            .with("per-game", self.per_game)
            .with("hash-mib", self.hash_mib)
            .with("max-plies", self.max_plies)
            .with(
                "book",
                format!("{} positions, digest {digest:016x}", book.len()),
            )
            .with(
                "syzygy",
                tablebase_pieces.map_or("none".to_string(), |n| format!("{n} pieces")),
            )
    }
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// A bad shard, or an output file that cannot be written or resumed.
    #[error(transparent)]
    Batch(#[from] BatchError),
    /// An empty opening book.
    #[error("the opening book is empty")]
    EmptyBook,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games played by this run.
    pub games: u64,
    /// How the output file was found: games of the shard already done, lines removed.
    pub resumed: Resumed,
    /// Positions written by this run.
    pub samples: u64,
    /// Quiet positions met (the samples were drawn from them).
    pub candidates: u64,
    /// Plies played.
    pub plies: u64,
    /// Results from White's side: wins, draws, losses.
    pub white: [u64; 3],
    /// Games by their ending.
    pub endings: BTreeMap<Ending, u64>,
}

impl Summary {
    fn add(&mut self, g: &Game) {
        self.games += 1;
        self.samples += g.samples.len() as u64;
        self.candidates += g.candidates as u64;
        self.plies += u64::from(g.plies);
        let r = if g.result == 1.0 {
            0
        } else if g.result == 0.5 {
            1
        } else {
            2
        };
        self.white[r] += 1;
        *self.endings.entry(g.ending).or_default() += 1;
    }
}

/// Plays the games `0..games` of `shard` and appends their positions to `out`, resuming after
/// the games already there; calls `progress` after each game.
///
/// # Errors
/// [`DatagenError::EmptyBook`], I/O errors on `out`, and an existing `out` that is not a data
/// file or holds another shard's games.
pub fn run(
    config: &Config,
    shard: Shard,
    games: u64,
    book: &[Position],
    tablebase: Option<&Arc<Tablebase>>,
    out: &Path,
    mut progress: impl FnMut(&Progress),
) -> Result<Summary, DatagenError> {
    if book.is_empty() {
        return Err(DatagenError::EmptyBook);
    }
    let mut summary = Summary::default();
    let params = config.params(book, tablebase.map(|tb| tb.max_pieces()));
    summary.resumed = run_records(
        shard,
        games,
        out,
        &params,
        |g| play_game(config, book, tablebase, g),
        |game: &Game| &game.samples,
        |game, state| {
            if let Some(game) = game {
                summary.add(game);
            }
            progress(state);
        },
    )?;
    Ok(summary)
}

impl Record for Sample {
    fn game(&self) -> u64 {
        self.game
    }
}

#[cfg(test)]
mod tests;
