//! Training positions of another player: the games an external engine played against itself
//! ([`crate::engine_games`], kept in a games file), labelled like ply's own self-play. The
//! positions of a game's random opening are left out; every later position in which the mover
//! has a move is kept while more than [`Config::exact_from`] squares are empty, with the
//! engine's recorded move; from there on ply's exact solver plays the game to its end, so each
//! label is the final disc difference of the engine's play followed by perfect play (exact in
//! the perfect-play part).

use super::game::{play_out, Game};
use super::{player, record_games, Config, DatagenError, Labels, Summary};
use crate::engine_games::GamesHeader;
use ply_batch::{Progress, RunParams, Shard};
use ply_othello::{play_moves, Color, Position, Square};
use ply_othello_engine::Engine;
use std::path::Path;

/// Labels game `game` of an engine's games, `moves` (legal and finished, from the start
/// position, as [`parse_games`](crate::engine_games::parse_games) gives them), whose random
/// opening is `opening`. `engine` plays the perfect-play part; `config`'s seed, random moves,
/// weights and labels are not used (the labels are results).
///
/// # Errors
/// [`DatagenError::Config`] when the moves do not begin with the opening.
pub fn label_engine_game(
    config: &Config,
    engine: &mut Engine,
    opening: &[Square],
    moves: &[Square],
    game: u64,
) -> Result<Game, DatagenError> {
    let start = after_opening(opening, moves, game)?;
    Ok(replay(config, engine, start, opening, moves, game))
}

/// The position after `opening`, the first moves of game `game`, `moves`.
///
/// # Errors
/// [`DatagenError::Config`] when the moves do not begin with the opening or it is not legal.
fn after_opening(
    opening: &[Square],
    moves: &[Square],
    game: u64,
) -> Result<Position, DatagenError> {
    let wrong = |why: String| {
        DatagenError::Config(format!(
            "game {game} does not begin with the random opening its header names ({why}; the \
             games file was made with another seed or number of random moves)"
        ))
    };
    if !moves.starts_with(opening) {
        return Err(wrong("other moves".into()));
    }
    play_moves(Position::start(), opening).map_err(|e| wrong(e.to_string()))
}

/// Labels game `game`, `moves`, from `start`, the position after its `opening`.
fn replay(
    config: &Config,
    engine: &mut Engine,
    start: Position,
    opening: &[Square],
    moves: &[Square],
    game: u64,
) -> Game {
    let config = Config {
        labels: Labels::Result,
        ..config.clone()
    };
    let after = moves.get(opening.len()..).unwrap_or_default();
    let mut recorded = after.iter().filter(|m| !m.is_pass());
    let black_to_move = start.side == Color::Black;
    let mut out = play_out(&config, engine, start.board, black_to_move, game, || {
        recorded.next().copied()
    });
    out.random_moves = opening.iter().filter(|m| !m.is_pass()).count() as u32;
    out
}

/// The options that decide the labels of an engine's games, as recorded beside the output.
fn params(config: &Config, header: &GamesHeader) -> RunParams {
    RunParams::new()
        .with("generator", "ply-othello datagen 1")
        .with("engine-games", header)
        .with("exact", config.exact_from)
        .with("hash", config.hash_mib)
}

/// Labels the games of `shard` among `games` (game `i` at index `i`, made as `header` says) and
/// appends their positions to `out`, resuming after the games already there; calls `progress`
/// after each game. `config` gives [`Config::exact_from`] and [`Config::hash_mib`] (and the
/// level at which ply would finish a game whose recorded moves end early, which a finished
/// game's do not).
///
/// # Errors
/// A game that does not begin with its random opening (checked for every game first), a hash
/// size that cannot be allocated, I/O errors on `out`, and an existing `out` that is not a data
/// file or holds another run's or shard's games.
pub fn run_engine_games(
    config: &Config,
    header: &GamesHeader,
    games: &[Vec<Square>],
    shard: Shard,
    out: &Path,
    progress: impl FnMut(&Progress),
) -> Result<Summary, DatagenError> {
    let openings: Vec<Vec<Square>> = (0..games.len() as u64).map(|g| header.opening(g)).collect();
    let starts = (0..games.len())
        .map(|g| after_opening(&openings[g], &games[g], g as u64))
        .collect::<Result<Vec<Position>, _>>()?;
    let mut engine = player(config.hash_mib, None)?;
    let play = |g: u64| {
        let i = g as usize;
        replay(config, &mut engine, starts[i], &openings[i], &games[i], g)
    };
    record_games(
        shard,
        games.len() as u64,
        out,
        &params(config, header),
        play,
        progress,
    )
}
