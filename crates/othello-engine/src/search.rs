//! Primitives shared by the endgame solver and the midgame search: score bounds, final scores,
//! principal-variation lines and the move bytes they are built from, the stability-cutoff thresholds. (The other
//! shared layers are modules of their own: `tt` the transposition tables, `moveorder` move
//! ordering, `stability`, `split` the threads' splitting, `watch` the abort flag, `bits`.)

use ply_othello::Square;

/// Larger than any score.
pub const SCORE_INF: i32 = 127;

/// Final score of a finished game for the side to move (the rules crate's one definition).
pub use ply_othello::final_score;

/// Stability cutoff is tried only when alpha is at least this (it rarely succeeds below).
pub const SC_THRESHOLD: [i32; 65] = {
    let mut t = [99i32; 65];
    let mut n = 4;
    while n <= 64 {
        let v = if n < 10 {
            2 * n as i32 - 2
        } else {
            2 * n as i32
        };
        t[n] = if v > 64 { 64 } else { v };
        n += 1;
    }
    t
};

/// The [`Square`] of a move byte `x` of the search's move lists (always a board square,
/// 0..=63): the move lists, tables and ordering arrays keep raw bytes, the principal variations
/// and every answer hold squares.
#[inline(always)]
pub(crate) fn square(x: u8) -> Square {
    Square::new(usize::from(x)).expect("a move-list byte is a board square")
}

/// Makes `pv` the line `x` then `rest`: a move and its child's principal variation.
#[inline]
pub(crate) fn set_pv(pv: &mut Vec<Square>, x: u8, rest: &[Square]) {
    pv.clear();
    pv.push(square(x));
    pv.extend_from_slice(rest);
}
