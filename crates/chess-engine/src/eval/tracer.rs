//! The interface between the evaluation and whoever watches it: a [`Tracer`] sees each weight
//! the evaluation uses with its count, the feature counts of the two non-linear terms, the values
//! they add up to, and the phase blend. The search uses [`NoTrace`] (every call compiles away);
//! the tracers that record live in the `trace` module above the terms.

use super::layout::{Term, COMPLEXITY_LEN, KING_DANGER_LEN};
use super::weights::WEIGHTS;
use crate::Score;
use ply_chess::Color;

/// Sees what the evaluation adds up, feature by feature.
pub trait Tracer {
    /// Whether this tracer records anything. An active tracer makes the evaluation recompute the
    /// pawn structure instead of reading the pawn cache, so that it sees every feature.
    const ACTIVE: bool;
    /// Weight `index` ([`layout`](super::layout)) counts `count` times for `color` (from
    /// `color`'s side).
    fn weight(&mut self, index: usize, color: Color, count: i32);
    /// A part of `color`'s value that is not a weight times a count (the king danger and the
    /// complexity, non-linear functions of the counts given to [`danger`](Tracer::danger) and
    /// [`complexity`](Tracer::complexity)), under `term`.
    fn value(&mut self, term: Term, color: Color, s: Score);
    /// The king-danger features (weights `layout::KING_DANGER + i`) count `counts[i]` against
    /// `color`'s king (called only for an attacked king); the danger they add up to is reported
    /// once by [`value`](Tracer::value).
    fn danger(&mut self, color: Color, counts: &[i32; KING_DANGER_LEN]) {
        let _ = (color, counts);
    }
    /// The complexity features (weights `layout::COMPLEXITY + i`) count `counts[i]`; the
    /// adjustment of the endgame half they add up to is reported by [`value`](Tracer::value)
    /// under [`Term::Complexity`] when it is not 0.
    fn complexity(&mut self, counts: &[i32; COMPLEXITY_LEN]) {
        let _ = counts;
    }
    /// The blend of the finished sum: `phase` of [`MAX_PHASE`](super::params::MAX_PHASE) and the endgame `scale` of
    /// [`SCALE_NORMAL`](super::params::SCALE_NORMAL) (`value = (mg × phase + eg × (MAX_PHASE − phase) × scale / SCALE_NORMAL)
    /// / MAX_PHASE`, White's side).
    fn taper(&mut self, phase: i32, scale: i32) {
        let _ = (phase, scale);
    }
}

/// The tracer used by the search: records nothing and compiles away.
pub struct NoTrace;

impl Tracer for NoTrace {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn weight(&mut self, _: usize, _: Color, _: i32) {}
    #[inline(always)]
    fn value(&mut self, _: Term, _: Color, _: Score) {}
}

/// Adds weight `index` × `count` to `color`'s side of `acc` and tells the tracer.
#[inline(always)]
pub(super) fn add<T: Tracer>(
    t: &mut T,
    acc: &mut [Score; 2],
    color: Color,
    index: usize,
    count: i32,
) {
    t.weight(index, color, count);
    acc[color.index()] += WEIGHTS[index] * count;
}
