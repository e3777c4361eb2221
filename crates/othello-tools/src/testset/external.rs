//! Test positions from the games of an external engine, a different player than ply, so that
//! the evaluation is also measured on positions its own self-play never makes. The games are
//! [`crate::engine_games`]' (the engine against itself over GTP after a few random opening
//! moves). From them, [`collect_positions`] takes the position at each chosen number of
//! empties (the side to move has a move there), once each up to the board's symmetries and
//! none of the training data; [`solve_position`] then gives each the exact score and a best
//! move of ply's solver.

use super::{admit, Dropped, TestPosition};
use ply_othello::{Color, Position, Square};
use ply_othello_engine::{Mode, Solver};
use std::collections::{BTreeMap, HashSet};

/// The positions of a game (its moves from the start position, passes explicit or implicit)
/// at the numbers of empties in `empties`: for each, the position where a move was played with
/// that many empties (after a pass, the side that plays). Stops at the first illegal move.
pub fn game_positions(moves: &[Square], empties: &[u32]) -> Vec<Position> {
    let mut pos = Position::start();
    let mut out = Vec::new();
    for &mv in moves {
        if mv.is_pass() {
            pos.pass();
            continue;
        }
        if pos.board.moves() == 0 {
            pos.pass();
        }
        let before = pos;
        if !pos.play(mv) {
            break;
        }
        if empties.contains(&before.board.empty_count()) {
            out.push(before);
        }
    }
    out
}

/// A position chosen for the test set, before it is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The position (a move is legal in it).
    pub position: Position,
    /// Index of its game.
    pub game: u64,
}

/// The positions of `games` (move lists, game `i` at index `i`) at the numbers of empties in
/// `empties` ([`game_positions`]), each kept once up to symmetry (the first game that reaches
/// it) and only if its key is not in `training`. Returns them by number of empties, in game
/// order, with what was dropped ([`Dropped::no_move`] stays 0: a kept position always has a
/// move).
pub fn collect_positions(
    games: &[Vec<Square>],
    empties: &[u32],
    training: &HashSet<(u64, u64)>,
) -> (BTreeMap<u32, Vec<Candidate>>, Dropped) {
    let mut out: BTreeMap<u32, Vec<Candidate>> = empties.iter().map(|&e| (e, vec![])).collect();
    let mut seen = HashSet::new();
    let mut dropped = Dropped::default();
    for (game, moves) in games.iter().enumerate() {
        for position in game_positions(moves, empties) {
            if admit(&position.board, training, &mut seen, &mut dropped) {
                out.entry(position.board.empty_count())
                    .or_default()
                    .push(Candidate {
                        position,
                        game: game as u64,
                    });
            }
        }
    }
    (out, dropped)
}

/// The test position of `candidate`: its exact score and the best move of `solver`'s exact
/// solve (if that solve names none, the best of every move's exact score).
pub fn solve_position(solver: &mut Solver, candidate: &Candidate) -> TestPosition {
    let board = candidate.position.board;
    let legal = board.moves();
    let solved = solver.solve(&board, Mode::Exact);
    let (best_move, score) = match solved.best.filter(|m| legal & m.bit() != 0) {
        Some(m) => (m, solved.score),
        None => {
            let all = solver.solve(&board, Mode::AllMoves);
            let first = all.moves.first().copied();
            first.unwrap_or((Square::first(legal).unwrap_or(Square::PASS), all.score))
        }
    };
    TestPosition {
        board,
        black_to_move: candidate.position.side == Color::Black,
        best_move,
        score: score.clamp(-64, 64) as i8,
        game: candidate.game,
    }
}

#[cfg(test)]
mod tests {
    use super::super::key;
    use super::*;
    use crate::engine_games::random_game;

    #[test]
    fn positions_have_the_asked_empties_a_move_and_no_repeats() {
        let games: Vec<Vec<Square>> = (0..40).map(random_game).collect();
        let empties = [10, 20, 30];
        for g in &games {
            let ps = game_positions(g, &empties);
            let counts: Vec<u32> = ps.iter().map(|p| p.board.empty_count()).collect();
            assert_eq!(
                counts,
                vec![30, 20, 10],
                "one position per number of empties"
            );
            assert!(ps.iter().all(|p| p.board.moves() != 0));
        }
        let (sets, dropped) = collect_positions(&games, &empties, &HashSet::new());
        assert_eq!(
            dropped,
            Dropped::default(),
            "random games do not meet again"
        );
        assert!(sets.values().all(|v| v.len() == 40));
        // the same games again, and their mirror images, add nothing
        let mirror = |g: &Vec<Square>| -> Vec<Square> {
            g.iter()
                .map(|&m| {
                    if m.is_pass() {
                        m
                    } else {
                        // the transpose (a1-h8 diagonal) keeps the start position
                        Square::new((m.index() % 8) * 8 + m.index() / 8).unwrap()
                    }
                })
                .collect()
        };
        let twice: Vec<Vec<Square>> = games
            .iter()
            .cloned()
            .chain(games.iter().map(mirror))
            .collect();
        let (again, d) = collect_positions(&twice, &empties, &HashSet::new());
        assert_eq!(again, sets);
        assert_eq!(d.duplicates, 120);
        // training keys are left out and counted
        let training: HashSet<_> = sets[&20].iter().map(|c| key(&c.position.board)).collect();
        let (without, d) = collect_positions(&games, &empties, &training);
        assert!(without[&20].is_empty());
        assert_eq!(without[&10], sets[&10]);
        assert_eq!(d.in_training, 40);
    }

    #[test]
    fn solved_positions_carry_the_exact_score_and_a_best_move() {
        let games: Vec<Vec<Square>> = (100..106).map(random_game).collect();
        let (sets, _) = collect_positions(&games, &[8, 12], &HashSet::new());
        let mut solver = Solver::new(4, false);
        for c in sets.values().flatten() {
            let p = solve_position(&mut solver, c);
            let all = solver.solve(&c.position.board, Mode::AllMoves);
            assert_eq!(i32::from(p.score), all.score);
            let of_move = all.moves.iter().find(|&&(m, _)| m == p.best_move);
            assert_eq!(of_move.map(|&(_, s)| s), Some(all.score), "a best move");
            assert_eq!(p.black_to_move, c.position.side == Color::Black);
        }
    }
}
