//! A strong-play test set for the evaluation, built the way Egaroucid's is: games after a few
//! random opening moves (0 to 12), then the engine's strongest play, and perfect play from the
//! first number of empties kept (`ply-othello datagen --random-min 0 --random-max 12 --exact 24`
//! makes such games). From those games [`extract`] keeps the positions at the chosen numbers of
//! empties, with the move perfect play made and the exact score, once per position up to the
//! board's 8 symmetries, and none that also occurs in the training data; [`to_obf`] writes them
//! in Edax's OBF format (`<board> <side>; <move>:<score>;`), which `ply-othello eval` and
//! `ply-othello solve` read.
//!
//! [`external`] builds a second, out-of-distribution set the same way from the games of another
//! engine played over GTP, each position scored by ply's exact solver.

pub mod external;

use crate::datagen::{Kind, Label};
use ply_othello::{Board, Color, Position, Square};
use std::collections::{BTreeMap, HashSet};

/// One test position: the board (side to move first), whose turn it is, the move perfect play
/// made and the exact score from the mover's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestPosition {
    /// The position, side to move first.
    pub board: Board,
    /// Whether Black is to move.
    pub black_to_move: bool,
    /// The move the perfect-play part of the game made.
    pub best_move: Square,
    /// Exact score (final disc difference under perfect play) from the mover's side.
    pub score: i8,
    /// Index of its game in the data.
    pub game: u64,
}

/// Canonical key of a position up to the board's symmetries.
pub fn key(board: &Board) -> (u64, u64) {
    let c = board.canonical().0;
    (c.player(), c.opponent())
}

/// What [`extract`] dropped, for the summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Positions seen before (another game reached them, up to symmetry).
    pub duplicates: usize,
    /// Positions also present in the training data.
    pub in_training: usize,
    /// Positions whose move could not be recovered (the game ended right after them).
    pub no_move: usize,
}

/// Whether `board` enters a test set: not in `training` and not in `seen` (up to symmetry),
/// where it is then added; a position left out is counted in `dropped`.
fn admit(
    board: &Board,
    training: &HashSet<(u64, u64)>,
    seen: &mut HashSet<(u64, u64)>,
    dropped: &mut Dropped,
) -> bool {
    let k = key(board);
    if training.contains(&k) {
        dropped.in_training += 1;
        false
    } else if !seen.insert(k) {
        dropped.duplicates += 1;
        false
    } else {
        true
    }
}

/// The positions of `labels` (the records of `ply-othello datagen`, each game's in order) with
/// a number of empties in `empties`, met in the perfect-play part of their game, each kept once
/// up to symmetry and only if its key is not in `training`. The move is the square the game's
/// next record has filled. Returns the positions by number of empties, in data order.
pub fn extract(
    labels: &[Label],
    empties: &[u32],
    training: &HashSet<(u64, u64)>,
) -> (BTreeMap<u32, Vec<TestPosition>>, Dropped) {
    let mut out: BTreeMap<u32, Vec<TestPosition>> = empties.iter().map(|&e| (e, vec![])).collect();
    let mut seen = HashSet::new();
    let mut dropped = Dropped::default();
    for (i, label) in labels.iter().enumerate() {
        let board = label.board();
        let n = board.empty_count();
        if label.kind != Kind::Exact || !out.contains_key(&n) {
            continue;
        }
        let occupied = label.black | label.white;
        let next = labels
            .get(i + 1)
            .filter(|next| next.game == label.game)
            .map(|next| (next.black | next.white) & !occupied)
            .filter(|added| added.count_ones() == 1)
            .and_then(Square::first)
            .filter(|mv| board.moves() & mv.bit() != 0);
        let Some(best_move) = next else {
            dropped.no_move += 1;
            continue;
        };
        if !admit(&board, training, &mut seen, &mut dropped) {
            continue;
        }
        out.entry(n).or_default().push(TestPosition {
            board,
            black_to_move: label.black_to_move,
            best_move,
            score: label.score,
            game: label.game,
        });
    }
    (out, dropped)
}

/// One OBF line: `<64 squares, X black, O white, - empty> <X|O>; <MOVE>:<+score>;`.
pub fn to_obf(p: &TestPosition) -> String {
    let side = if p.black_to_move {
        Color::Black
    } else {
        Color::White
    };
    let position = Position {
        board: p.board,
        side,
    };
    format!(
        "{} {}; {}:{:+};",
        position.board_string(),
        if p.black_to_move { 'X' } else { 'O' },
        p.best_move.name(),
        p.score
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::{play_game, Config};
    use ply_othello::parse_obf_line;
    use ply_othello_engine::{Engine, EngineOptions, Mode, Solver};

    #[test]
    fn positions_carry_the_exact_score_and_a_best_move() {
        let config = Config {
            seed: 5,
            random_min: 0,
            random_max: 12,
            level: 4,
            exact_from: 16,
            hash_mib: 4,
            labels: Default::default(),
            weights: None,
        };
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 4,
            threads: 1,
            weights: None,
        });
        let labels: Vec<Label> = (0..6)
            .flat_map(|g| play_game(&config, &mut engine, g).labels)
            .collect();
        let (sets, dropped) = extract(&labels, &[12, 16], &HashSet::new());
        let mut solver = Solver::new(4, false);
        let mut n = 0;
        for (&e, positions) in &sets {
            for p in positions {
                assert_eq!(p.board.empty_count(), e);
                let solved = solver.solve(&p.board, Mode::AllMoves);
                assert_eq!(i32::from(p.score), solved.score, "exact score");
                let &(_, best) = solved
                    .moves
                    .iter()
                    .find(|&&(sq, _)| sq == p.best_move)
                    .expect("the move is legal");
                assert_eq!(best, solved.score, "the kept move is a best move");
                // the OBF line reads back as the same position and annotation
                let obf = parse_obf_line(&to_obf(p)).unwrap().unwrap();
                assert_eq!(obf.position.board, p.board);
                assert_eq!(obf.moves, vec![(p.best_move, i32::from(p.score))]);
                n += 1;
            }
        }
        assert!(n >= 8, "{n} positions, {dropped:?}");

        // a second pass over the same games keeps nothing new; training keys are excluded
        let twice: Vec<Label> = labels.iter().chain(&labels).cloned().collect();
        let (again, d) = extract(&twice, &[12, 16], &HashSet::new());
        assert_eq!(again, sets);
        assert_eq!(d.duplicates, n + 2 * dropped.duplicates);
        let training: HashSet<_> = sets[&16].iter().map(|p| key(&p.board)).collect();
        let (without, d) = extract(&labels, &[12, 16], &training);
        assert!(without[&16].is_empty());
        assert_eq!(without[&12], sets[&12]);
        assert!(d.in_training >= sets[&16].len(), "repeats count each time");
    }
}
