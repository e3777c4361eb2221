//! Training positions turned into what the tuner needs, once: each position's sparse weight
//! coefficients (White's count minus Black's for every weight it uses), the counts of the
//! king-danger features against each king and of the complexity features (the non-linear
//! terms), its phase blend, its label; all read from the engine's [`Coefficients`] tracer.

use crate::datagen::record::{RecordError, Sample};
use ply_chess::Position;
use ply_chess_engine::{
    complexity_adjustment, king_danger_penalty, layout, Coefficients, KING_DANGER_EG_DIV,
    KING_DANGER_MAX, KING_DANGER_MG_DIV, MAX_PHASE, SCALE_NORMAL,
};

/// One training position, ready for the tuner.
#[derive(Clone, Debug)]
pub struct Entry {
    /// (weight index, White's count − Black's), for every weight whose difference is not 0.
    pub coefs: Box<[(u16, i16)]>,
    /// Per king (White's, Black's): (feature, count) of the king-danger features
    /// ([`layout::KING_DANGER`]) counted against it; empty when the king is not attacked.
    pub danger: [Box<[(u8, i16)]>; 2],
    /// The count of each complexity feature ([`layout::COMPLEXITY`]).
    pub complexity: [i16; layout::COMPLEXITY_LEN],
    /// How much of the middlegame half reaches the value: phase / `MAX_PHASE`.
    pub mg_share: f32,
    /// How much of the endgame half reaches the value: (1 − phase / `MAX_PHASE`) × scale.
    pub eg_share: f32,
    /// The game's result from White's side (1, 0.5, 0).
    pub result: f32,
    /// The search score from White's side, centipawns.
    pub score: f32,
    /// The engine's own evaluation (White's side) with the compiled weights.
    pub eval: i32,
    /// The index of the game the position came from.
    pub game: u64,
}

impl Entry {
    /// The entry of `pos` labelled with `result` and `score` (White's side).
    pub fn new(pos: &Position, result: f32, score: i32, game: u64) -> Entry {
        let (c, eval) = Coefficients::of(pos);
        let narrow = |n: i32| n.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let coefs = c
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &n)| n != 0)
            .map(|(i, &n)| (i as u16, narrow(n)))
            .collect();
        let danger = c.danger.map(|counts| {
            (counts.iter().enumerate())
                .filter(|(_, &n)| n != 0)
                .map(|(i, &n)| (i as u8, narrow(n)))
                .collect()
        });
        let mg_share = c.phase as f32 / MAX_PHASE as f32;
        Entry {
            coefs,
            danger,
            complexity: c.complexity.map(narrow),
            mg_share,
            eg_share: (1.0 - mg_share) * c.scale as f32 / SCALE_NORMAL as f32,
            result,
            score: score as f32,
            eval,
            game,
        }
    }

    /// The entry of a data line (`FEN;score;result;game`).
    ///
    /// # Errors
    /// The line is not a record.
    pub fn parse(line: &str) -> Result<Entry, RecordError> {
        let s: Sample = line.parse()?;
        let pos = Position::from_fen(&s.fen).map_err(|_| RecordError::Position(s.fen.clone()))?;
        Ok(Entry::new(&pos, s.result, s.score, s.game))
    }

    /// The evaluation (White's side, centipawns, unrounded) with the weights `w`
    /// (`[mg, eg]` per weight, [`layout::COUNT`] of them).
    #[inline]
    pub fn evaluate(&self, w: &[[f64; 2]]) -> f64 {
        self.forward(w).value
    }

    /// The evaluation with the weights `w` and what its gradient needs.
    #[inline]
    pub fn forward(&self, w: &[[f64; 2]]) -> Forward {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, n) in self.coefs.iter() {
            let [a, b] = w[i as usize];
            mg += a * n as f64;
            eg += b * n as f64;
        }
        let mut danger_slope = [[0.0; 2]; 2];
        for (king, sign) in [(0, -1.0), (1, 1.0)] {
            if let Some(units) = self.units(king, w) {
                let p = Danger::at(units);
                mg += sign * p.value[0];
                eg += sign * p.value[1];
                danger_slope[king] = p.slope;
            }
        }
        // complexity: eg + sign(eg) × max(c, −|eg|)
        let c: f64 = (0..layout::COMPLEXITY_LEN)
            .map(|i| w[layout::COMPLEXITY + i][1] * self.complexity[i] as f64)
            .sum();
        let sign = if eg > 0.0 {
            1.0
        } else if eg < 0.0 {
            -1.0
        } else {
            0.0
        };
        let open = c > -eg.abs();
        let eg = eg + complexity_adjustment(eg, c);
        Forward {
            value: mg * self.mg_share as f64 + eg * self.eg_share as f64,
            eg_slope: if open { 1.0 } else { 0.0 },
            complexity_slope: if open { sign } else { 0.0 },
            danger_slope,
        }
    }

    /// The king-danger units (middlegame, endgame) against king `king` (0 White, 1 Black) with
    /// the weights `w`; `None` when the king is not attacked.
    #[inline]
    pub fn units(&self, king: usize, w: &[[f64; 2]]) -> Option<[f64; 2]> {
        let d = &self.danger[king];
        (!d.is_empty()).then(|| {
            let mut u = [0.0; 2];
            for &(i, n) in d.iter() {
                let [a, b] = w[layout::KING_DANGER + i as usize];
                u[0] += a * n as f64;
                u[1] += b * n as f64;
            }
            u
        })
    }
}

/// An evaluation and the slopes of its non-linear steps.
#[derive(Clone, Copy, Debug)]
pub struct Forward {
    /// The evaluation (White's side, centipawns).
    pub value: f64,
    /// The derivative of the endgame half after the complexity by the half before it (1, or 0
    /// where the complexity pulls it to 0).
    pub eg_slope: f64,
    /// The derivative of the endgame half after the complexity by the complexity units.
    pub complexity_slope: f64,
    /// Per king (White's, Black's): the slope of its danger penalty at its units (0 when the
    /// king is not attacked), middlegame and endgame.
    pub danger_slope: [[f64; 2]; 2],
}

/// The king-danger penalty of some units and its slope: the engine's
/// [`king_danger_penalty`] in `f64`, without rounding down, so that the loss is smooth.
#[derive(Clone, Copy, Debug)]
pub struct Danger {
    /// The penalty (middlegame, endgame), centipawns.
    pub value: [f64; 2],
    /// Its derivative by the units (middlegame, endgame).
    pub slope: [f64; 2],
}

impl Danger {
    /// The penalty of `units` (middlegame, endgame).
    #[inline]
    pub fn at(units: [f64; 2]) -> Danger {
        let (vm, ve) = king_danger_penalty(units[0], units[1]);
        // the slope of each half where it is not clamped (below 0 or at the maximum)
        let max = KING_DANGER_MAX as f64;
        let mg = units[0].clamp(0.0, 4.0 * max);
        Danger {
            value: [vm, ve],
            slope: [
                if vm < max {
                    2.0 * mg / KING_DANGER_MG_DIV as f64
                } else {
                    0.0
                },
                if units[1] > 0.0 && ve < max {
                    1.0 / KING_DANGER_EG_DIV as f64
                } else {
                    0.0
                },
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_linear_form_gives_the_engine_evaluation() {
        let w = crate::tune::compiled_weights();
        let mut attacked = [false; 2];
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "6k1/5ppp/8/8/3B4/8/1b3PPP/6K1 b - - 0 40",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "8/8/4k3/8/2P5/8/4K3/8 w - - 0 60",
            // an attack on each king
            "r1b2rk1/ppp2ppp/2n5/3qp1N1/2B5/3P1Q2/PPP2PPP/R4RK1 w - - 0 12",
            "2kr3r/ppp2ppp/2n1b3/2bqp3/4P3/2NP1N2/PPPQ1PPP/R3K2R b KQ - 0 10",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let e = Entry::new(&pos, 0.5, 0, 0);
            attacked[0] |= !e.danger[0].is_empty();
            attacked[1] |= !e.danger[1].is_empty();
            // the engine rounds down the blend and each king's two penalty halves (less than
            // 1 each, the penalties weighted by the phase shares); the tuner's form does not
            let slack = 1.0 + 2.0 * (e.mg_share + e.eg_share) as f64;
            assert!((e.evaluate(&w) - e.eval as f64).abs() < slack, "{fen}");
        }
        assert_eq!(attacked, [true, true]);
    }

    #[test]
    fn bad_lines_are_errors() {
        assert!(Entry::parse("not a record").is_err());
        assert!(Entry::parse("8/8/8/8/8/8/8/8 w - - 0 1;0;1;0").is_err());
        let e = Entry::parse("8/8/4k3/8/2P5/8/4K3/8 w - - 0 60;150;1;7").unwrap();
        assert_eq!((e.result, e.score, e.game), (1.0, 150.0, 7));
    }
}
