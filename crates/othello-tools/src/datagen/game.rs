//! One self-play game: random opening moves, then the engine against itself, perfectly from
//! [`Config::exact_from`] empties; the positions after the opening, labelled.

use super::record::{Kind, Label};
use super::{Config, Labels};
use ply_batch::rng::XorShift64Star;
use ply_othello::Board;
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
    engine.new_game();
    let stop = AtomicBool::new(false);
    // position, Black to move, what the search said (score, solved)
    let mut kept: Vec<(Board, bool, i32, bool)> = Vec::new();
    while !board.is_game_over() {
        if board.moves() == 0 {
            board.pass();
            black_to_move = !black_to_move;
            continue;
        }
        let exact = board.empty_count() <= config.exact_from;
        let level = if exact { 60 } else { config.level };
        let limits = Limits {
            level: Some(level),
            ..Limits::default()
        };
        let out = engine.think(&board, &limits, &stop, &mut |_| {});
        kept.push((board, black_to_move, out.score, out.exact));
        board.play(out.best.index());
        black_to_move = !black_to_move;
    }
    let black_score = if black_to_move {
        board.final_score()
    } else {
        -board.final_score()
    };
    let labels = kept
        .into_iter()
        .map(|(b, black, searched, solved)| {
            let (black_discs, white_discs) = if black {
                (b.player(), b.opponent())
            } else {
                (b.opponent(), b.player())
            };
            let result = if black { black_score } else { -black_score };
            let perfect = b.empty_count() <= config.exact_from;
            let (score, kind) = match config.labels {
                Labels::Result if perfect => (result, Kind::Exact),
                Labels::Result => (result, Kind::Played),
                Labels::Search if solved => (searched, Kind::Exact),
                Labels::Search => (searched.clamp(-64, 64), Kind::Searched),
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
        random_moves,
    }
}
