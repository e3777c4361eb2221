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
//! shards of a seed together are exactly the run without shards. The output is the text
//! format of [`record`]; a run on an existing file resumes after the games it holds.

mod game;
pub mod record;

pub use game::{
    play_game, Ending, Game, DRAW_FROM_MOVE, DRAW_PLIES, DRAW_SCORE, RESIGN_PLIES, RESIGN_SCORE,
    SAMPLE_SCORE_LIMIT,
};
pub use record::{RecordError, Sample};

use ply_chess::Position;
use ply_syzygy::Tablebase;
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
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

/// The games of a run: those whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, below `count`.
    pub index: u64,
    /// N, at least 1.
    pub count: u64,
}

impl Shard {
    /// The whole run (0/1).
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether game `game` belongs to this shard.
    pub fn owns(self, game: u64) -> bool {
        game % self.count == self.index
    }
}

impl std::str::FromStr for Shard {
    type Err = DatagenError;

    /// `K/N` with K < N.
    fn from_str(s: &str) -> Result<Shard, DatagenError> {
        let bad = || DatagenError::Shard(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index = k.trim().parse().map_err(|_| bad())?;
        let count = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// A shard that is not `K/N` with K < N.
    #[error("bad shard {0:?}: expected K/N with 0 <= K < N")]
    Shard(String),
    /// The output file could not be read, written or truncated.
    #[error("{path}: {source}")]
    Io {
        /// The output file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The existing output is not a data file.
    #[error("{path} is not a datagen file, not resuming it: {source}")]
    NotData {
        /// The output file.
        path: PathBuf,
        /// The first bad line.
        source: RecordError,
    },
    /// The existing output holds a game of another shard.
    #[error("{path} holds game {game}, which is not in shard {shard}/{count}")]
    OtherShard {
        /// The output file.
        path: PathBuf,
        /// The game found.
        game: u64,
        /// This run's K.
        shard: u64,
        /// This run's N.
        count: u64,
    },
    /// An empty opening book.
    #[error("the opening book is empty")]
    EmptyBook,
}

/// Progress of a run, after each game.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Games of the shard done, those of an earlier run included.
    pub done: u64,
    /// Games of the shard in all.
    pub total: u64,
    /// Positions written by this run.
    pub samples: u64,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games played by this run.
    pub games: u64,
    /// Games of the shard found already done in the output file.
    pub resumed: u64,
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
    let io = |source| DatagenError::Io {
        path: out.to_path_buf(),
        source,
    };
    let first = resume(out, shard)?;
    let mut file = OpenOptions::new()
        .append(true)
        .create(true)
        .open(out)
        .map_err(io)?;
    let total = (0..games).filter(|&g| shard.owns(g)).count() as u64;
    let mut state = Progress {
        done: (0..first.min(games)).filter(|&g| shard.owns(g)).count() as u64,
        total,
        samples: 0,
    };
    let mut summary = Summary {
        resumed: state.done,
        ..Summary::default()
    };
    progress(&state);
    for g in (first..games).filter(|&g| shard.owns(g)) {
        let game = play_game(config, book, tablebase, g);
        let text: String = game.samples.iter().map(|s| format!("{s}\n")).collect();
        file.write_all(text.as_bytes()).map_err(io)?;
        file.flush().map_err(io)?;
        summary.add(&game);
        state.done += 1;
        state.samples += game.samples.len() as u64;
        progress(&state);
    }
    Ok(summary)
}

/// The first game to play for `out`: 0 for a new file, else the last game the file holds (its
/// lines are cut off, as they may be incomplete).
fn resume(out: &Path, shard: Shard) -> Result<u64, DatagenError> {
    let io = |source| DatagenError::Io {
        path: out.to_path_buf(),
        source,
    };
    let text = match std::fs::read_to_string(out) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(io(e)),
    };
    let point = record::resume_point(&text).map_err(|source| DatagenError::NotData {
        path: out.to_path_buf(),
        source,
    })?;
    let (keep, first) = point.unwrap_or((0, 0));
    if !shard.owns(first) {
        return Err(DatagenError::OtherShard {
            path: out.to_path_buf(),
            game: first,
            shard: shard.index,
            count: shard.count,
        });
    }
    let file = OpenOptions::new().write(true).open(out).map_err(io)?;
    file.set_len(keep as u64).map_err(io)?;
    Ok(first)
}

#[cfg(test)]
mod tests;
