//! Winning chances: a search score turned into win/draw/loss per mille.
//!
//! The model is the logistic one Stockfish uses for its `UCI_ShowWDL`: the side to move wins
//! with probability `1 / (1 + exp((a - v) / b))` and loses with the same expression at `-v`;
//! the rest is the draw. `a` (the score at which a win is as likely as not) and `b` (how
//! quickly the chance rises) are cubic polynomials in the material on the board, so that a
//! pawn up with queens on the board counts for less than a pawn up in a rook ending.
//!
//! ply's coefficients are fitted to its own self-play: the game results of `ply-chess datagen`
//! records against their search scores and material (`ply-chess wdl-fit`, see
//! `docs/training.md`; the fit and its calibration on held-out games are in
//! `docs/benchmarks/chess-training.md`). [`WDL_MODEL`] is the model that fit gives.

use ply_chess::{Color, Position, Role};

use crate::value::{MATE_BOUND, TB_WIN_BOUND};

/// Material is counted as pawns 1, knights and bishops 3, rooks 5, queens 9 (both sides), and
/// clamped to this range before it enters the model (Stockfish's choice: below 17 the data is
/// thin, 78 is the start position).
pub const MATERIAL_RANGE: (u32, u32) = (17, 78);

/// The material the polynomials' variable is divided by: `t = material / MATERIAL_SCALE`.
pub const MATERIAL_SCALE: f64 = 58.0;

/// Scores beyond this (centipawns) are clamped before they enter the model; mate and tablebase
/// scores are certain results and bypass it.
pub const SCORE_CLAMP: i32 = 4000;

/// A win/draw/loss model: the coefficients of `a(t)` and `b(t)`, constant term first, in
/// `t = material / MATERIAL_SCALE`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// `a(t) = a[0] + a[1] t + a[2] t² + a[3] t³`: the score (centipawns) of an even chance to win.
    pub a: [f64; 4],
    /// `b(t)`, the same way: the spread of the logistic curve (centipawns).
    pub b: [f64; 4],
}

/// Win, draw and loss chances in per mille, from one side's view; they add up to 1000.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wdl {
    /// Chance to win, per mille.
    pub win: u32,
    /// Chance to draw, per mille.
    pub draw: u32,
    /// Chance to lose, per mille.
    pub loss: u32,
}

impl Wdl {
    /// A certain win.
    pub const WIN: Wdl = Wdl {
        win: 1000,
        draw: 0,
        loss: 0,
    };
    /// A certain draw.
    pub const DRAW: Wdl = Wdl {
        win: 0,
        draw: 1000,
        loss: 0,
    };
    /// A certain loss.
    pub const LOSS: Wdl = Wdl {
        win: 0,
        draw: 0,
        loss: 1000,
    };

    /// The other side's view.
    pub fn flip(self) -> Wdl {
        Wdl {
            win: self.loss,
            draw: self.draw,
            loss: self.win,
        }
    }

    /// The expected score (win 1, draw ½), 0 to 1.
    pub fn expected(self) -> f64 {
        (f64::from(self.win) + f64::from(self.draw) / 2.0) / 1000.0
    }
}

/// The model fitted by `ply-chess wdl-fit` to the generation-4 self-play data (see the module
/// documentation for where the fit is recorded).
pub const WDL_MODEL: WdlModel = include!("wdl_model.in");

/// The material of `pos` as the model counts it (before clamping): pawns 1, knights and bishops
/// 3, rooks 5, queens 9, both sides.
pub fn material(pos: &Position) -> u32 {
    let count = |role| pos.count(Color::White, role) + pos.count(Color::Black, role);
    count(Role::Pawn)
        + 3 * (count(Role::Knight) + count(Role::Bishop))
        + 5 * count(Role::Rook)
        + 9 * count(Role::Queen)
}

/// The material of a piece, as [`material`] counts it.
pub fn role_material(role: Role) -> u32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

impl WdlModel {
    /// `a` and `b` at `material` (clamped to [`MATERIAL_RANGE`]).
    pub fn params(&self, material: u32) -> (f64, f64) {
        let t = f64::from(material.clamp(MATERIAL_RANGE.0, MATERIAL_RANGE.1)) / MATERIAL_SCALE;
        let poly = |c: &[f64; 4]| ((c[3] * t + c[2]) * t + c[1]) * t + c[0];
        (poly(&self.a), poly(&self.b))
    }

    /// The chance (0 to 1) that the side with score `score` (centipawns, its own view) wins,
    /// with `material` on the board. Mate and tablebase scores are not for this function.
    pub fn win_chance(&self, score: f64, material: u32) -> f64 {
        let (a, b) = self.params(material);
        let score = score.clamp(-f64::from(SCORE_CLAMP), f64::from(SCORE_CLAMP));
        1.0 / (1.0 + ((a - score) / b.max(1.0)).exp())
    }

    /// Win/draw/loss per mille of a search score (centipawns or the engine's mate, tablebase and
    /// known-win scores) from the side to move's view, with `material` on the board. Mates and
    /// tablebase results are certain; everything else goes through the model, rounded so that
    /// the three add up to 1000.
    pub fn wdl(&self, score: i32, material: u32) -> Wdl {
        if score >= TB_WIN_BOUND || score >= MATE_BOUND {
            return Wdl::WIN;
        }
        if score <= -TB_WIN_BOUND {
            return Wdl::LOSS;
        }
        let v = f64::from(score);
        let win = (1000.0 * self.win_chance(v, material)).round() as u32;
        let loss = (1000.0 * self.win_chance(-v, material)).round() as u32;
        // a model with a[t] < 0 somewhere could make the two overlap: the draw never goes negative
        let loss = loss.min(1000 - win.min(1000));
        let win = win.min(1000);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

/// [`WdlModel::wdl`] of the built-in [`WDL_MODEL`].
pub fn wdl(score: i32, material: u32) -> Wdl {
    WDL_MODEL.wdl(score, material)
}

/// The expected score (0 to 1) of the side to move of a search score, with `material` on the
/// board ([`wdl`] then [`Wdl::expected`], without the rounding to per mille).
pub fn expected_score(score: i32, material: u32) -> f64 {
    if score >= TB_WIN_BOUND {
        return 1.0;
    }
    if score <= -TB_WIN_BOUND {
        return 0.0;
    }
    let v = f64::from(score);
    let (w, l) = (
        WDL_MODEL.win_chance(v, material),
        WDL_MODEL.win_chance(-v, material),
    );
    let l = l.min(1.0 - w);
    w + (1.0 - w - l) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::MATE;

    #[test]
    fn certain_results_bypass_the_model() {
        assert_eq!(wdl(MATE - 3, 40), Wdl::WIN);
        assert_eq!(wdl(-MATE + 4, 40), Wdl::LOSS);
        assert_eq!(wdl(TB_WIN_BOUND + 5, 5), Wdl::WIN);
        assert_eq!(expected_score(MATE - 1, 78), 1.0);
        assert_eq!(expected_score(-MATE, 78), 0.0);
    }

    #[test]
    fn chances_add_up_are_symmetric_and_monotone() {
        for material in [0, 10, 17, 30, 45, 60, 78, 100] {
            let mut last = Wdl::LOSS;
            for score in (-3000..=3000).step_by(25) {
                let w = wdl(score, material);
                assert_eq!(w.win + w.draw + w.loss, 1000, "{score} {material}");
                assert_eq!(wdl(-score, material), w.flip(), "{score} {material}");
                assert!(
                    w.win >= last.win && w.loss <= last.loss,
                    "{score} {material}"
                );
                last = w;
                let e = expected_score(score, material);
                assert!((e - w.expected()).abs() < 0.002, "{score} {material}");
            }
            assert_eq!(wdl(0, material).win, wdl(0, material).loss);
            assert!(wdl(3000, material).win > 950, "{material}");
        }
    }

    #[test]
    fn the_fitted_model_is_sane() {
        // the even-chance score lies between a third of a pawn and five pawns, and the spread
        // is positive, at every material the model sees
        for m in MATERIAL_RANGE.0..=MATERIAL_RANGE.1 {
            let (a, b) = WDL_MODEL.params(m);
            assert!((30.0..500.0).contains(&a), "a({m}) = {a}");
            assert!((10.0..400.0).contains(&b), "b({m}) = {b}");
        }
    }

    #[test]
    fn material_counts_the_start_position_as_78() {
        assert_eq!(material(&Position::startpos()), 78);
        let kq = Position::from_fen("8/8/8/4k3/8/8/8/3QK3 w - - 0 1").unwrap();
        assert_eq!(material(&kq), 9);
        assert_eq!(role_material(Role::Rook), 5);
    }
}
