//! Self-play training data for the evaluation (`ply-chess datagen`).
//!
//! Game `i` of a seed starts from a book position and a few random plies drawn from a random
//! stream that depends only on the seed and `i`, then the engine plays itself at a fixed node
//! budget a move (a hard limit, [`Config::nodes`], and optionally a soft one,
//! [`Config::soft_nodes`]) with one search thread and a table cleared for each game, evaluating
//! with the hand-made evaluation or a network ([`Config::network`]), so a game is the same
//! whoever plays it and whichever worker thread ([`Config::threads`]) plays it. Games end by the
//! rules, at a tablebase position (with tables), or by adjudication: a side scored at least
//! [`RESIGN_SCORE`] for [`RESIGN_PLIES`] plies in a row wins; from move [`DRAW_FROM_MOVE`],
//! scores within [`DRAW_SCORE`] of zero for [`DRAW_PLIES`] plies are a draw. Every usable
//! position met is kept ([`is_usable`]: not in check, quiet best move, score below
//! [`Config::max_score`], past [`Config::skip_plies`], static evaluation equal to the quiescence
//! score on the evaluation the games are played with), or [`Config::per_game`] of them drawn at
//! random.
//!
//! A run plays the games of its [`Shard`] (`K/N`: those whose index is K modulo N), so the
//! shards of a seed together are exactly the run without shards ([`ply_batch`]). The output
//! is the text format of [`record`] or the 32-byte packed records of
//! [`packed`] ([`Format`]), written in game order; a run on an
//! existing file resumes after the games it holds.

mod game;
pub mod packed;
pub mod record;

pub use game::{
    is_usable, play_game, Ending, Game, DRAW_FROM_MOVE, DRAW_PLIES, DRAW_SCORE, RESIGN_PLIES,
    RESIGN_SCORE, SAMPLE_SCORE_LIMIT,
};
pub use record::{RecordError, Sample};

pub use ply_batch::{BatchError, Progress, Resumed, RunBar, RunParams, Shard};

use packed::{Outcome, PackedPosition, RECORD_BYTES};
use ply_batch::{run_framed, text_game_of, Framing, Output, Record};
use ply_chess::Position;
use ply_chess_engine::Network;
use ply_syzygy::Tablebase;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// The output format of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// `FEN;score;result;game` lines ([`record`]).
    #[default]
    Text,
    /// 32-byte packed records ([`packed`]), what `train-nnue` reads.
    Bin,
}

impl Format {
    /// The name given on the command line and recorded beside the output.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Bin => "bin",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Format {
    type Err = DatagenError;

    /// `text` or `bin`.
    fn from_str(s: &str) -> Result<Format, DatagenError> {
        match s {
            "text" => Ok(Format::Text),
            "bin" => Ok(Format::Bin),
            other => Err(DatagenError::Format(other.to_string())),
        }
    }
}

/// What every game of a run shares.
#[derive(Clone, Debug)]
pub struct Config {
    /// Seed of the games' random streams.
    pub seed: u64,
    /// Nodes searched a move: the hard limit, where a search is cut off.
    pub nodes: u64,
    /// The soft limit: no iteration of the search is started once this many nodes are
    /// searched (`None`: only the hard limit). At most [`Config::nodes`].
    pub soft_nodes: Option<u64>,
    /// At most this many random plies after the book position (the count is drawn uniformly
    /// from 0 to it).
    pub random_plies: u32,
    /// Positions kept a game, at most, drawn at random from its usable ones (`None`: all).
    pub per_game: Option<usize>,
    /// Positions fewer than this many plies after the book position (random plies included)
    /// are not kept.
    pub skip_plies: u32,
    /// Positions whose search score is this far from zero or further (centipawns) are not kept.
    pub max_score: i32,
    /// Transposition table of the games, MiB.
    pub hash_mib: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// The evaluation the games are played and scored with: a network, or `None` for the
    /// hand-made evaluation.
    pub network: Option<Arc<Network>>,
    /// The output format.
    pub format: Format,
    /// Games played at once, each on its own thread with one search thread. The output does
    /// not depend on it (games are written in index order), so it is not recorded.
    pub threads: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            seed: 1,
            nodes: 5000,
            soft_nodes: None,
            random_plies: 4,
            per_game: None,
            skip_plies: 0,
            max_score: SAMPLE_SCORE_LIMIT,
            hash_mib: 4,
            max_plies: 400,
            network: None,
            format: Format::Text,
            threads: 1,
        }
    }
}

impl Config {
    /// The options that decide the games of a run with `book` and tables of up to
    /// `tablebase_pieces` pieces, as recorded beside its output: a resume must give the same.
    /// The book enters as its size and a digest of its positions, the network as its shape,
    /// size and checksum.
    pub fn params(&self, book: &[Position], tablebase_pieces: Option<usize>) -> RunParams {
        let digest = book
            .iter()
            .fold(0u64, |acc, p| ply_batch::splitmix(acc ^ p.hash()));
        RunParams::new()
            .with("generator", "ply-chess datagen 4")
            .with("format", self.format)
            .with("seed", self.seed)
            .with("nodes", self.nodes)
            .with(
                "soft-nodes",
                self.soft_nodes
                    .map_or("none".to_string(), |n| n.to_string()),
            )
            .with("random-plies", self.random_plies)
            .with(
                "per-game",
                self.per_game.map_or("all".to_string(), |n| n.to_string()),
            )
            .with("skip-plies", self.skip_plies)
            .with("max-score", self.max_score)
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
            .with(
                "eval",
                self.network
                    .as_deref()
                    .map_or("hand-made".to_string(), network_id),
            )
    }
}

/// A network as recorded beside the output: its shape, its file size and the FNV-1a 64
/// checksum its file ends with.
fn network_id(net: &Network) -> String {
    let bytes = net.to_bytes();
    let mut sum = [0u8; 8];
    if let Some(tail) = bytes.len().checked_sub(8).and_then(|at| bytes.get(at..)) {
        sum.copy_from_slice(tail);
    }
    format!(
        "network H={} N={}, {} bytes, fnv1a {:016x}",
        net.hidden(),
        net.buckets(),
        bytes.len(),
        u64::from_le_bytes(sum)
    )
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
    /// An output format other than `text` or `bin`.
    #[error("unknown format {0:?} (text or bin)")]
    Format(String),
    /// Options that do not go together.
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
    pub samples: u64,
    /// Usable positions met (the samples were drawn from them).
    pub candidates: u64,
    /// Positions left out of a packed file because they do not fit its record (more than 32
    /// pieces, from an odd book).
    pub unpacked: u64,
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
/// the games already there; calls `progress` after each game (in game order, whatever
/// [`Config::threads`]).
///
/// # Errors
/// [`DatagenError::EmptyBook`], options that do not go together ([`DatagenError::Config`]),
/// I/O errors on `out`, and an existing `out` that is not a data file of the format or holds
/// another shard's games.
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
    check(config, games)?;
    let mut summary = Summary::default();
    let params = config.params(book, tablebase.map(|tb| tb.max_pieces()));
    let output = Output {
        path: out,
        framing: match config.format {
            Format::Text => Framing::Lines,
            Format::Bin => Framing::Fixed(RECORD_BYTES),
        },
        params: &params,
        threads: config.threads,
    };
    let play = |g: u64| {
        let game = play_game(config, book, tablebase, g);
        let (bytes, unpacked) = encode(config.format, &game);
        (bytes, (game, unpacked))
    };
    let each = |played: Option<&(Game, u64)>, state: &Progress| {
        if let Some((game, unpacked)) = played {
            summary.add(game);
            summary.samples -= unpacked;
            summary.unpacked += unpacked;
        }
        progress(state);
    };
    summary.resumed = match config.format {
        Format::Text => {
            let game_of = text_game_of(|line: &str| {
                line.parse::<Sample>()
                    .map(|s| s.game)
                    .map_err(|e| e.to_string())
            });
            run_framed(shard, games, &output, game_of, play, each)?
        }
        Format::Bin => run_framed(shard, games, &output, packed_game_of, play, each)?,
    };
    Ok(summary)
}

/// Refuses options that do not go together: a soft node limit above the hard one, a bound on
/// the score that a packed record cannot hold, more games than a packed record can number.
fn check(config: &Config, games: u64) -> Result<(), DatagenError> {
    if let Some(soft) = config.soft_nodes {
        if soft > config.nodes {
            return Err(DatagenError::Config(format!(
                "the soft node limit {soft} is above the hard one {} (--nodes): raise --nodes",
                config.nodes
            )));
        }
    }
    if config.format == Format::Bin {
        if config.max_score > i32::from(i16::MAX) + 1 {
            return Err(DatagenError::Config(format!(
                "max score {} does not fit the packed record's 16 bits (at most 32768)",
                config.max_score
            )));
        }
        if games > 1 << 32 {
            return Err(DatagenError::Config(format!(
                "{games} games: a packed record numbers at most 2^32 games"
            )));
        }
    }
    Ok(())
}

/// The game index of one packed record of an existing output, the record checked in full.
fn packed_game_of(bytes: &[u8]) -> Result<u64, String> {
    let record: &[u8; RECORD_BYTES] = bytes
        .try_into()
        .map_err(|_| format!("{} bytes, not {RECORD_BYTES}", bytes.len()))?;
    PackedPosition::decode(record)
        .map(|p| u64::from(p.game))
        .map_err(|e| e.to_string())
}

/// A game's positions in `format`, and how many were left out because they do not pack.
fn encode(format: Format, game: &Game) -> (Vec<u8>, u64) {
    match format {
        Format::Text => (
            game.samples
                .iter()
                .flat_map(|s| format!("{s}\n").into_bytes())
                .collect(),
            0,
        ),
        Format::Bin => {
            let mut bytes = Vec::with_capacity(game.samples.len() * RECORD_BYTES);
            let mut unpacked = 0;
            for s in &game.samples {
                match pack(s) {
                    Some(record) => bytes.extend_from_slice(&record),
                    None => unpacked += 1,
                }
            }
            (bytes, unpacked)
        }
    }
}

/// The packed record of a sample, as `nnue-data convert` makes it from the sample's line.
fn pack(s: &Sample) -> Option<[u8; RECORD_BYTES]> {
    let pos = Position::from_fen(&s.fen).ok()?;
    let outcome = Outcome::from_white_score(s.result).ok()?;
    PackedPosition::from_position(&pos, s.score, outcome, s.game)
        .ok()
        .map(|p| p.encode())
}

impl Record for Sample {
    fn game(&self) -> u64 {
        self.game
    }
}

#[cfg(test)]
mod tests;
