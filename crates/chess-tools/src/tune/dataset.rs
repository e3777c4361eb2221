//! Training positions turned into what the tuner needs, once: each position's sparse weight
//! coefficients (White's count minus Black's for every weight it uses), the part of its
//! evaluation that is not a weight (the king danger), its phase blend, its label.

use crate::datagen::record::{RecordError, Sample};
use ply_chess::{Color, Position};
use ply_chess_engine::{
    evaluate_with, layout, PawnTable, Score, Term, Tracer, MAX_PHASE, SCALE_NORMAL,
};

/// One training position, ready for the tuner.
#[derive(Clone, Debug)]
pub struct Entry {
    /// (weight index, White's count − Black's), for every weight whose difference is not 0.
    pub coefs: Box<[(u16, i16)]>,
    /// The non-weight part of the packed sum (White − Black), middlegame and endgame.
    pub rest: [f32; 2],
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

/// A [`Tracer`] that keeps the coefficients of one evaluation.
struct Collect {
    counts: Vec<i32>,
    rest: Score,
    phase: i32,
    scale: i32,
}

impl Tracer for Collect {
    const ACTIVE: bool = true;
    fn weight(&mut self, index: usize, color: Color, count: i32) {
        self.counts[index] += match color {
            Color::White => count,
            Color::Black => -count,
        };
    }
    fn value(&mut self, _: Term, color: Color, s: Score) {
        match color {
            Color::White => self.rest += s,
            Color::Black => self.rest -= s,
        }
    }
    fn taper(&mut self, phase: i32, scale: i32) {
        self.phase = phase;
        self.scale = scale;
    }
}

impl Entry {
    /// The entry of `pos` labelled with `result` and `score` (White's side).
    pub fn new(pos: &Position, result: f32, score: i32, game: u64) -> Entry {
        let mut c = Collect {
            counts: vec![0; layout::COUNT],
            rest: Score::ZERO,
            phase: 0,
            scale: SCALE_NORMAL,
        };
        let eval = evaluate_with(pos, &mut PawnTable::new(), &mut c);
        let coefs = c
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &n)| n != 0)
            .map(|(i, &n)| (i as u16, n.clamp(i16::MIN as i32, i16::MAX as i32) as i16))
            .collect();
        let mg_share = c.phase as f32 / MAX_PHASE as f32;
        Entry {
            coefs,
            rest: [c.rest.mg() as f32, c.rest.eg() as f32],
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
        let (mut mg, mut eg) = (self.rest[0] as f64, self.rest[1] as f64);
        for &(i, n) in self.coefs.iter() {
            let [a, b] = w[i as usize];
            mg += a * n as f64;
            eg += b * n as f64;
        }
        mg * self.mg_share as f64 + eg * self.eg_share as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_linear_form_gives_the_engine_evaluation() {
        let w = crate::tune::compiled_weights();
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "6k1/5ppp/8/8/3B4/8/1b3PPP/6K1 b - - 0 40",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "8/8/4k3/8/2P5/8/4K3/8 w - - 0 60",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let e = Entry::new(&pos, 0.5, 0, 0);
            // the engine rounds down each division; the linear form does not
            assert!((e.evaluate(&w) - e.eval as f64).abs() < 1.0, "{fen}");
        }
    }

    #[test]
    fn bad_lines_are_errors() {
        assert!(Entry::parse("not a record").is_err());
        assert!(Entry::parse("8/8/8/8/8/8/8/8 w - - 0 1;0;1;0").is_err());
        let e = Entry::parse("8/8/4k3/8/2P5/8/4K3/8 w - - 0 60;150;1;7").unwrap();
        assert_eq!((e.result, e.score, e.game), (1.0, 150.0, 7));
    }
}
