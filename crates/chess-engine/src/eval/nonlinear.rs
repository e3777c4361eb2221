//! The two non-linear steps of the evaluation, written once over a number type: `i32` in the
//! engine, `f64` in the tuner (which needs them unrounded, to fit their inputs).
//!
//! - The king danger: the units `u` = Σ weight × count over the [`layout::KING_DANGER`]
//!   features (a middlegame and an endgame sum) become the penalty
//!   `(max(u_mg, 0)² / KING_DANGER_MG_DIV, max(u_eg, 0) / KING_DANGER_EG_DIV)`, each half at
//!   most [`KING_DANGER_MAX`].
//! - The complexity: the units `c` = Σ endgame weight × count over the [`layout::COMPLEXITY`]
//!   features move the endgame half `eg` away from 0 by `c`, or toward it by `−c` but never past
//!   it: `sign(eg) × max(c, −|eg|)`.

use super::layout;
use super::params::{KING_DANGER_EG_DIV, KING_DANGER_MAX, KING_DANGER_MG_DIV};
use crate::Score;
use core::ops::{Add, Div, Mul, Neg};

/// A number the non-linear formulas are computed in.
pub trait Units:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// The number `n`.
    fn of(n: i32) -> Self;
}

impl Units for i32 {
    #[inline(always)]
    fn of(n: i32) -> i32 {
        n
    }
}

impl Units for f64 {
    #[inline(always)]
    fn of(n: i32) -> f64 {
        n as f64
    }
}

#[inline(always)]
fn max<N: Units>(a: N, b: N) -> N {
    if a < b {
        b
    } else {
        a
    }
}

#[inline(always)]
fn min<N: Units>(a: N, b: N) -> N {
    if b < a {
        b
    } else {
        a
    }
}

/// The king-danger penalty (middlegame, endgame) of units `(mg, eg)`:
/// `(max(mg, 0)² / KING_DANGER_MG_DIV, max(eg, 0) / KING_DANGER_EG_DIV)`, each at most
/// [`KING_DANGER_MAX`] (the middlegame units first clamped to `4 × KING_DANGER_MAX`, which
/// keeps the square in range).
#[inline]
pub fn king_danger_penalty<N: Units>(mg: N, eg: N) -> (N, N) {
    let mg = min(max(mg, N::of(0)), N::of(4 * KING_DANGER_MAX));
    (
        min(mg * mg / N::of(KING_DANGER_MG_DIV), N::of(KING_DANGER_MAX)),
        min(
            max(eg, N::of(0)) / N::of(KING_DANGER_EG_DIV),
            N::of(KING_DANGER_MAX),
        ),
    )
}

/// The complexity adjustment of the endgame half `eg` by the complexity units `c`:
/// `sign(eg) × max(c, −|eg|)`.
#[inline]
pub fn complexity_adjustment<N: Units>(eg: N, c: N) -> N {
    let zero = N::of(0);
    let sign = if eg > zero {
        N::of(1)
    } else if eg < zero {
        N::of(-1)
    } else {
        zero
    };
    let abs = if eg < zero { -eg } else { eg };
    sign * max(c, -abs)
}

/// The king danger of a king against which the [`layout::KING_DANGER`] features count
/// `counts`, with the weights `weights` (all [`layout::COUNT`] of them): the
/// [penalty](king_danger_penalty) of their units, as a value for the king's side (negative).
#[inline]
pub fn king_danger(
    counts: &[i32; layout::KING_DANGER_LEN],
    weights: &[Score; layout::COUNT],
) -> Score {
    let (mut mg, mut eg) = (0i32, 0i32);
    for (i, &n) in counts.iter().enumerate() {
        let w = weights[layout::KING_DANGER + i];
        mg += w.mg() as i32 * n;
        eg += w.eg() as i32 * n;
    }
    let (mg, eg) = king_danger_penalty(mg, eg);
    -Score::new(mg as i16, eg as i16)
}

/// The complexity adjustment of the endgame half `eg` (White's side) when the
/// [`layout::COMPLEXITY`] features count `counts`, with the weights `weights`.
#[inline]
pub fn complexity(
    counts: &[i32; layout::COMPLEXITY_LEN],
    eg: i32,
    weights: &[Score; layout::COUNT],
) -> i32 {
    let c = counts
        .iter()
        .enumerate()
        .map(|(i, &n)| weights[layout::COMPLEXITY + i].eg() as i32 * n)
        .sum();
    complexity_adjustment(eg, c)
}
