//! One self-play game: random opening moves, then the engine against itself, perfectly from
//! [`Config::exact_from`] empties; the positions after the opening, labelled.

use super::record::{Kind, Label};
use super::{Config, Labels};
use ply_batch::rng::XorShift64Star;
use ply_othello::{Board, Square};
use ply_othello_engine::{Engine, Limits};
use std::sync::atomic::AtomicBool;

/// One played game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The kept positions, in the order of the game.
    pub labels: Vec<Label>,
    /// Final disc difference from Black's side (empties to the winner).
    pub black_score: i32,
    /// Random opening moves played.
    pub random_moves: u32,
}

/// The random stream of one game: xorshift64* ([`XorShift64Star`]) seeded from the seed and the
/// game index.
fn stream(seed: u64, game: u64) -> XorShift64Star {
    XorShift64Star::new(ply_batch::game_seed(seed, game) | 1)
}

/// Plays game `game` of `config.seed` with `engine` (its tables are cleared first; it plays
/// with its own weights, which [`run`](super::run) takes from [`Config::weights`]). The same
/// arguments always give the same game.
pub fn play_game(config: &Config, engine: &mut Engine, game: u64) -> Game {
    let mut rng = stream(config.seed, game);
    let span = u64::from(config.random_max - config.random_min) + 1;
    let random = config.random_min + rng.below(span) as u32;
    let mut board = Board::start();
    let mut black_to_move = true;
    let mut random_moves = 0;
    while random_moves < random && !board.is_game_over() {
        let moves = board.moves();
        if moves == 0 {
            board.pass();
        } else {
            let sq = rng.pick_bit(moves);
            board.play(sq);
            random_moves += 1;
        }
        black_to_move = !black_to_move;
    }
    let mut game = play_out(config, engine, board, black_to_move, game, || None);
    game.random_moves = random_moves;
    game
}

/// A position of the game: the board, whether Black is to move, and what its search said
/// (score, whether it solved the position) if a search chose its move.
type Kept = (Board, bool, Option<(i32, bool)>);

/// Plays the game on from `board` (after its opening; `black_to_move` says whose turn it is)
/// to the end and labels every position in which the mover has a move. While more than
/// [`Config::exact_from`] squares are empty, a move comes from `recorded` (the next move of a
/// game played before, which must be legal there) or, when it gives none, from `engine`'s
/// search at [`Config::level`]; from `exact_from` empties on, from `engine`'s exact solve. A
/// position whose move was recorded has no search value: it is labelled with the game's result
/// even with [`Labels::Search`]. [`Game::random_moves`] is left 0 for the caller.
pub(super) fn play_out(
    config: &Config,
    engine: &mut Engine,
    mut board: Board,
    mut black_to_move: bool,
    game: u64,
    mut recorded: impl FnMut() -> Option<Square>,
) -> Game {
    engine.new_game();
    let stop = AtomicBool::new(false);
    let mut kept: Vec<Kept> = Vec::new();
    while !board.is_game_over() {
        if board.moves() == 0 {
            board.pass();
            black_to_move = !black_to_move;
            continue;
        }
        let exact = board.empty_count() <= config.exact_from;
        let given = if exact { None } else { recorded() };
        match given.filter(|m| board.moves() & m.bit() != 0) {
            Some(mv) => {
                kept.push((board, black_to_move, None));
                board.play(mv.index());
            }
            None => {
                let level = if exact { 60 } else { config.level };
                let limits = Limits {
                    level: Some(level),
                    ..Limits::default()
                };
                let out = engine.think(&board, &limits, &stop, &mut |_| {});
                kept.push((board, black_to_move, Some((out.score, out.exact))));
                board.play(out.best.index());
            }
        }
        black_to_move = !black_to_move;
    }
    let black_score = if black_to_move {
        board.final_score()
    } else {
        -board.final_score()
    };
    let labels = kept
        .into_iter()
        .map(|(b, black, searched)| {
            let (black_discs, white_discs) = if black {
                (b.player(), b.opponent())
            } else {
                (b.opponent(), b.player())
            };
            let result = if black { black_score } else { -black_score };
            let perfect = b.empty_count() <= config.exact_from;
            let (score, kind) = match (config.labels, searched) {
                (Labels::Search, Some((score, true))) => (score, Kind::Exact),
                (Labels::Search, Some((score, false))) => (score.clamp(-64, 64), Kind::Searched),
                _ if perfect => (result, Kind::Exact),
                _ => (result, Kind::Played),
            };
            Label {
                black: black_discs,
                white: white_discs,
                black_to_move: black,
                score: score as i8,
                game,
                kind,
            }
        })
        .collect();
    Game {
        labels,
        black_score,
        random_moves: 0,
    }
}
