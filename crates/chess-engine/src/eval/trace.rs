//! The tracers that record an evaluation: [`Trace`] keeps the per-term table of `ply-chess eval`;
//! [`Coefficients`] keeps the coefficients that the evaluation tests check against the weights
//! and that the tuner fits. (The [`Tracer`] interface and the search's [`NoTrace`] are below the
//! terms, in `tracer`.)

use super::layout::{self, Term, COMPLEXITY_LEN, KING_DANGER_LEN};
use super::nonlinear;
use super::params::{MAX_PHASE, SCALE_NORMAL};
use super::tracer::Tracer;
use super::weights::WEIGHTS;
use super::{evaluate_with, PawnTable};
use crate::Score;
use ply_chess::{Color, Position};

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
