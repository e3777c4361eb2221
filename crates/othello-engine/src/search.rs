//! Primitives shared by the endgame solver and the midgame search: score bounds, final scores,
//! the pass code and principal-variation lines, the stability-cutoff thresholds. (The other
//! shared layers are modules of their own: `tt` the transposition tables, `moveorder` move
//! ordering, `stability`, `split` the threads' splitting, `watch` the abort flag, `bits`.)

/// Square code of a pass in a principal variation: the rules crate's [`ply_othello::PASS`] in
/// the engine's one-byte square type.
pub const PASS: u8 = ply_othello::PASS as u8;
const _: () = assert!(PASS as usize == ply_othello::PASS, "PASS fits a byte");

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

/// Makes `pv` the line `x` then `rest`: a move and its child's principal variation.
#[inline]
pub(crate) fn set_pv(pv: &mut Vec<u8>, x: u8, rest: &[u8]) {
    pv.clear();
    pv.push(x);
    pv.extend_from_slice(rest);
}
