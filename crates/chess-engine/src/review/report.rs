//! A review as plain data for JSON (feature `serde`): what `ply-chess review --json` prints a
//! line of and what the web page's review receives.

use ply_chess::Color;
use serde::Serialize;

use super::{GameReview, MoveReview};
use crate::value::mate_in;

/// A score from one side's view: `{"cp": N}` or `{"mate": N}` (moves; negative when mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoreReport {
    /// Centipawns.
    Cp(i32),
    /// Moves to mate.
    Mate(i32),
}

impl ScoreReport {
    /// The report of a search score.
    pub fn of(score: i32) -> ScoreReport {
        match mate_in(score) {
            Some(m) => ScoreReport::Mate(m),
            None => ScoreReport::Cp(score),
        }
    }
}

/// One move of a review.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveReport {
    /// The move's number in the game, from 1.
    pub ply: usize,
    /// `white` or `black`.
    pub side: &'static str,
    /// The move in SAN.
    pub san: String,
    /// The move in UCI.
    pub uci: String,
    /// The position before it.
    pub fen_before: String,
    /// The played move's score, the mover's view.
    pub score_played: ScoreReport,
    /// The best move's score, the mover's view.
    pub score_best: ScoreReport,
    /// The score of the position after the move, White's view (what a graph draws).
    pub score_after_white: ScoreReport,
    /// The best move (UCI).
    pub best: String,
    /// The best move (SAN).
    pub best_san: String,
    /// The engine's line from the position before the move (UCI).
    pub pv: Vec<String>,
    /// The same line in SAN.
    pub pv_san: Vec<String>,
    /// The drop in the mover's expected score, 0 to 1 (four decimals).
    pub loss: f64,
    /// Centipawns lost (scores clamped to ±1000).
    pub cp_loss: i32,
    /// The move was the only legal one.
    pub forced: bool,
    /// The tablebases judged the move.
    pub exact: bool,
    /// `best`, `good`, `inaccuracy`, `mistake` or `blunder`.
    pub judgement: &'static str,
}

/// A value for White and one for Black.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PerSide {
    /// White's.
    pub white: Option<f64>,
    /// Black's.
    pub black: Option<f64>,
}

/// A game's review.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewReport {
    /// One report a move.
    pub moves: Vec<MoveReport>,
    /// Accuracy per side, 0 to 100 (one decimal).
    pub accuracy: PerSide,
    /// Average centipawn loss per side (one decimal).
    pub acpl: PerSide,
}

fn round(x: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    (x * f).round() / f
}

fn side(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}

impl MoveReport {
    /// The report of one reviewed move.
    pub fn of(m: &MoveReview) -> MoveReport {
        let pos = &m.before;
        let c960 = pos.is_chess960();
        let mut p = *pos;
        let mut pv_san = Vec::with_capacity(m.pv.len());
        for &mv in &m.pv {
            let Ok(next) = p.try_play(mv) else { break };
            pv_san.push(p.san(mv));
            p = next;
        }
        // the position after the move has the other side to move
        let after_white = if m.mover() == Color::White {
            -m.score_after
        } else {
            m.score_after
        };
        MoveReport {
            ply: m.ply,
            side: side(m.mover()),
            san: pos.san(m.played),
            uci: m.played.uci(c960).to_string(),
            fen_before: pos.to_fen(),
            score_played: ScoreReport::of(m.score_played),
            score_best: ScoreReport::of(m.score_best),
            score_after_white: ScoreReport::of(after_white),
            best: m.best.uci(c960).to_string(),
            best_san: pos.san(m.best),
            pv: m.pv.iter().map(|mv| mv.uci(c960).to_string()).collect(),
            pv_san,
            loss: round(m.loss, 4),
            cp_loss: m.cp_loss,
            forced: m.forced,
            exact: m.exact,
            judgement: m.judgement.name(),
        }
    }
}

impl ReviewReport {
    /// The report of a reviewed game.
    pub fn of(r: &GameReview) -> ReviewReport {
        let moves = r.moves.iter().map(MoveReport::of).collect();
        let pair = |v: [Option<f64>; 2]| PerSide {
            white: v[0].map(|x| round(x, 1)),
            black: v[1].map(|x| round(x, 1)),
        };
        ReviewReport {
            moves,
            accuracy: pair(r.accuracy),
            acpl: pair(r.acpl),
        }
    }
}
