//! The quiet position behind a position, for evaluation training: a plain quiescence search
//! on a static evaluation (captures and queen promotions that do not lose material by SEE,
//! every evasion in check; no table, no pruning beyond stand-pat) that also returns the last
//! position of its principal line. A position whose quiescence leaf is itself is quiet: its
//! static evaluation is its quiescence score. The evaluation is the hand-made one
//! ([`quiescence`]) or any other, a network's for one ([`quiescence_with`]).

use crate::captures::tactical_moves;
use crate::eval::{evaluate, PawnTable};
use crate::see::see_ge;
use crate::value::{INFINITE, MATE};
use ply_chess::{Position, Role};

/// Plies the quiescence line may grow to (deeper lines stand pat).
const MAX_QUIET_PLY: usize = 24;

/// The quiescence score of `pos` on the hand-made evaluation (centipawns, side to move) and the
/// position its principal line ends in (`pos` itself when standing pat is best). Mated
/// positions score `-MATE`.
pub fn quiescence(pos: &Position, pawns: &mut PawnTable) -> (i32, Position) {
    quiescence_with(pos, &mut |p: &Position| evaluate(p, pawns))
}

/// [`quiescence`] on the static evaluation `eval` (centipawns, side to move of the position it
/// is given), for instance [`Network::evaluate`](crate::Network::evaluate).
pub fn quiescence_with<E: FnMut(&Position) -> i32>(
    pos: &Position,
    eval: &mut E,
) -> (i32, Position) {
    search(pos, -INFINITE, INFINITE, 0, eval)
}

fn search<E: FnMut(&Position) -> i32>(
    pos: &Position,
    mut alpha: i32,
    beta: i32,
    ply: usize,
    eval: &mut E,
) -> (i32, Position) {
    let in_check = pos.is_check();
    let moves = if in_check {
        pos.legal_moves()
    } else {
        tactical_moves(pos)
    };
    if in_check && moves.is_empty() {
        return (-MATE + ply as i32, *pos);
    }
    let mut best = (-INFINITE, *pos);
    if !in_check || ply >= MAX_QUIET_PLY {
        let stand = eval(pos);
        if stand >= beta || ply >= MAX_QUIET_PLY {
            return (stand, *pos);
        }
        alpha = alpha.max(stand);
        best.0 = stand;
    }
    for &m in moves.iter() {
        if !in_check && (m.promotion().is_some_and(|r| r != Role::Queen) || !see_ge(pos, m, 0)) {
            continue;
        }
        let (s, leaf) = search(&pos.play(m), -beta, -alpha, ply + 1, eval);
        let s = -s;
        if s > best.0 {
            best = (s, leaf);
            if s > alpha {
                alpha = s;
                if s >= beta {
                    break;
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(fen: &str) -> (i32, Position, Position) {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let (s, leaf) = quiescence(&pos, &mut PawnTable::new());
        (s, leaf, pos)
    }

    #[test]
    fn a_quiet_position_is_its_own_leaf() {
        let (s, leaf, pos) = quiet("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(leaf, pos);
        assert_eq!(s, evaluate(&pos, &mut PawnTable::new()));
    }

    #[test]
    fn a_hanging_queen_is_taken_first() {
        // White's rook takes the undefended queen on d8: the leaf has no black queen
        let (s, leaf, pos) = quiet("3q2k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        assert_ne!(leaf, pos);
        assert_eq!(leaf.count(ply_chess::Color::Black, Role::Queen), 0);
        assert!(s > evaluate(&pos, &mut PawnTable::new()) + 500, "score {s}");
    }

    #[test]
    fn a_mated_side_scores_minus_mate() {
        let (s, leaf, pos) = quiet("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1");
        assert_eq!((s, leaf), (-MATE, pos));
    }

    #[test]
    fn the_hand_made_quiescence_is_quiescence_with_the_hand_made_evaluation() {
        for fen in [
            "3q2k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ] {
            let pos = Position::from_fen(fen).expect("valid FEN");
            let mut pawns = PawnTable::new();
            let mut calls = 0;
            let with = quiescence_with(&pos, &mut |p: &Position| {
                calls += 1;
                evaluate(p, &mut PawnTable::new())
            });
            assert_eq!(with, quiescence(&pos, &mut pawns), "{fen}");
            assert!(calls >= 1, "{fen}: the evaluation given is the one used");
        }
    }

    #[test]
    fn another_evaluation_decides_what_is_quiet() {
        // an evaluation that sees only White's rooks: taking Black's hanging queen gains nothing
        // by it, so standing pat holds and the position is quiet, which by the hand-made
        // evaluation it is not
        let pos = Position::from_fen("3k4/8/8/3q4/8/8/5PPP/3R2K1 w - - 0 1").expect("valid FEN");
        let white_only = |p: &Position| {
            let v = p.count(ply_chess::Color::White, Role::Rook) as i32 * 500;
            if p.side_to_move() == ply_chess::Color::White {
                v
            } else {
                -v
            }
        };
        let (s, leaf) = quiescence_with(&pos, &mut { white_only });
        assert_eq!(
            (s, leaf),
            (500, pos),
            "an equal capture does not beat standing pat"
        );
        // the hand-made evaluation takes the queen
        assert_ne!(quiescence(&pos, &mut PawnTable::new()).1, pos);
    }
}
