//! What the evaluation tells a [`Tracer`]: each weight it uses with its count, the feature
//! counts of the two non-linear terms, the values they add up to, and the phase blend. The
//! search uses [`NoTrace`] (every call compiles away); [`Trace`] keeps the per-term table of
//! `ply-chess eval`; [`Coefficients`] keeps the coefficients that the evaluation tests check
//! against the weights and that the tuner fits.

use super::layout::{self, COMPLEXITY_LEN, KING_DANGER_LEN};
use super::nonlinear;
use super::params::{MAX_PHASE, SCALE_NORMAL};
use super::weights::WEIGHTS;
use super::{evaluate_with, PawnTable};
use crate::Score;
use ply_chess::{Color, Position};

/// One named group of evaluation terms (rows of the trace table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Term {
    /// Piece values.
    Material,
    /// Piece-square tables.
    Psqt,
    /// Reachable squares per piece.
    Mobility,
    /// Doubled, isolated, backward, connected pawns and the base passed-pawn bonus (pawn hash).
    Pawns,
    /// Passed pawns: king distances, free path, blockade.
    Passed,
    /// Attacks on the king zone, safe checks and the pawn shield.
    KingSafety,
    /// Attacked and hanging pieces.
    Threats,
    /// Bishop pair and rooks on open or semi-open files.
    Pieces,
    /// Side-to-move bonus.
    Tempo,
    /// How much the endgame half is pushed away from a draw, or toward it, by how much play is
    /// left (pawns, pawns on both wings, a pure pawn ending); counted for the side it favours.
    Complexity,
}

impl Term {
    /// Every term, in trace order.
    pub const ALL: [Term; 10] = [
        Term::Material,
        Term::Psqt,
        Term::Mobility,
        Term::Pawns,
        Term::Passed,
        Term::KingSafety,
        Term::Threats,
        Term::Pieces,
        Term::Tempo,
        Term::Complexity,
    ];

    /// Display name.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Psqt => "PSQT",
            Term::Mobility => "Mobility",
            Term::Pawns => "Pawns",
            Term::Passed => "Passed",
            Term::KingSafety => "King safety",
            Term::Threats => "Threats",
            Term::Pieces => "Pieces",
            Term::Tempo => "Tempo",
            Term::Complexity => "Complexity",
        }
    }
}

/// Sees what the evaluation adds up, feature by feature.
pub trait Tracer {
    /// Whether this tracer records anything. An active tracer makes the evaluation recompute the
    /// pawn structure instead of reading the pawn cache, so that it sees every feature.
    const ACTIVE: bool;
    /// Weight `index` ([`layout`]) counts `count` times for `color` (from `color`'s side).
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
    /// The blend of the finished sum: `phase` of [`MAX_PHASE`] and the endgame `scale` of
    /// [`SCALE_NORMAL`] (`value = (mg × phase + eg × (MAX_PHASE − phase) × scale / SCALE_NORMAL)
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

/// A full breakdown of one evaluation (for `ply-chess eval`).
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Per term (in [`Term::ALL`] order) and color (White, Black): the packed value for that side.
    pub terms: [[Score; 2]; 10],
    /// Game phase, `0..=MAX_PHASE` (`MAX_PHASE` = full middlegame).
    pub phase: i32,
    /// Endgame scale factor in 64ths (`params::SCALE_NORMAL` = 64 leaves the endgame half as is).
    pub scale: i32,
    /// Sum of all terms, White minus Black.
    pub total: Score,
    /// Final value in centipawns from White's point of view.
    pub white_value: i32,
}

impl Tracer for Trace {
    const ACTIVE: bool = true;
    fn weight(&mut self, index: usize, color: Color, count: i32) {
        self.terms[layout::term(index) as usize][color.index()] += WEIGHTS[index] * count;
    }
    fn value(&mut self, term: Term, color: Color, s: Score) {
        self.terms[term as usize][color.index()] += s;
    }
    fn taper(&mut self, phase: i32, scale: i32) {
        self.phase = phase;
        self.scale = scale;
    }
}

/// Evaluates with a fresh pawn table and returns the full per-term breakdown.
pub fn trace(pos: &Position) -> Trace {
    let mut t = Trace::default();
    t.white_value = evaluate_with(pos, &mut PawnTable::new(), &mut t);
    t.total = t.terms.iter().map(|[w, b]| *w - *b).sum();
    t
}

/// The coefficients of one evaluation: with them the evaluation is a function of the weights
/// alone ([`value`](Coefficients::value)), linear but for the king danger and the complexity.
/// What the tuner fits, and what the evaluation tests check the weights against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coefficients {
    /// Per weight ([`layout::COUNT`] of them): White's count minus Black's. The king-danger and
    /// complexity weights count here only through [`danger`](Self::danger) and
    /// [`complexity`](Self::complexity).
    pub counts: Vec<i32>,
    /// Per king (White's, Black's): the count of each king-danger feature against it; all 0
    /// when the king is not attacked (no danger).
    pub danger: [[i32; KING_DANGER_LEN]; 2],
    /// The count of each complexity feature.
    pub complexity: [i32; COMPLEXITY_LEN],
    /// The values of the non-linear terms as the evaluation reported them, White minus Black
    /// (the king danger and the complexity adjustment).
    pub reported: Score,
    /// Game phase, `0..=MAX_PHASE`.
    pub phase: i32,
    /// Endgame scale, of [`SCALE_NORMAL`].
    pub scale: i32,
}

impl Default for Coefficients {
    fn default() -> Coefficients {
        Coefficients {
            counts: vec![0; layout::COUNT],
            danger: [[0; KING_DANGER_LEN]; 2],
            complexity: [0; COMPLEXITY_LEN],
            reported: Score::ZERO,
            phase: 0,
            scale: SCALE_NORMAL,
        }
    }
}

impl Coefficients {
    /// The coefficients of `pos` and its evaluation (White's side; a fresh pawn table).
    pub fn of(pos: &Position) -> (Coefficients, i32) {
        let mut c = Coefficients::default();
        let v = evaluate_with(pos, &mut PawnTable::new(), &mut c);
        (c, v)
    }

    /// The evaluation (White's side) these coefficients give with the weights `weights`: the
    /// evaluation's own value when `weights` are the compiled [`WEIGHTS`].
    pub fn value(&self, weights: &[Score; layout::COUNT]) -> i32 {
        let mut total: Score = (self.counts.iter().zip(weights))
            .map(|(&n, &w)| w * n)
            .sum();
        for (king, counts) in self.danger.iter().enumerate() {
            if counts.iter().any(|&n| n != 0) {
                let d = nonlinear::king_danger(counts, weights);
                total += if king == 0 { d } else { -d };
            }
        }
        let adjust = nonlinear::complexity(&self.complexity, total.eg() as i32, weights);
        total += Score::new(0, adjust as i16);
        total.taper_scaled(self.phase, MAX_PHASE, self.scale, SCALE_NORMAL)
    }
}

impl Tracer for Coefficients {
    const ACTIVE: bool = true;
    fn weight(&mut self, index: usize, color: Color, count: i32) {
        self.counts[index] += match color {
            Color::White => count,
            Color::Black => -count,
        };
    }
    fn value(&mut self, _: Term, color: Color, s: Score) {
        self.reported += match color {
            Color::White => s,
            Color::Black => -s,
        };
    }
    fn danger(&mut self, color: Color, counts: &[i32; KING_DANGER_LEN]) {
        self.danger[color.index()] = *counts;
    }
    fn complexity(&mut self, counts: &[i32; COMPLEXITY_LEN]) {
        self.complexity = *counts;
    }
    fn taper(&mut self, phase: i32, scale: i32) {
        self.phase = phase;
        self.scale = scale;
    }
}
