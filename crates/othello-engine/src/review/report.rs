//! A review as plain data for JSON (feature `serde`): what `ply-othello review --json` prints
//! for a game (with the game's number and time around it) and the `done` event of the web
//! page's review.

use ply_othello::{color_name, Square};
use serde::Serialize;

use super::{GameReview, MoveReview, PerSide, ReviewOptions};

/// One move of a review. Moves are lower-case squares (`f5`), `pa` for a pass (in `pv`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveReport {
    /// The move's number, passes not counted (the `n`th disc placed since the start).
    pub ply: u32,
    /// Who played it: `black` or `white`.
    pub side: &'static str,
    /// The move played.
    #[serde(rename = "move")]
    pub mv: String,
    /// Empty squares before it.
    pub empties: u32,
    /// It was the only legal move (never blamed, not searched).
    pub forced: bool,
    /// The played move's score, discs from the mover's view.
    pub score_played: i32,
    /// The best move's score, discs from the mover's view.
    pub score_best: i32,
    /// The best move found.
    pub best: String,
    /// The best line from the position before the move, starting with `best`.
    pub pv: Vec<String>,
    /// Discs given away: `max(0, score_best - score_played)` (0 for a forced move).
    pub loss: i32,
    /// Both scores are proven by exact solves (or by the end of the game).
    pub exact: bool,
    /// `best`, `good`, `inaccuracy`, `mistake` or `blunder`.
    pub judgement: &'static str,
}

/// A game's review.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewReport {
    /// Every move but the passes, in game order.
    pub moves: Vec<MoveReport>,
    /// Each side's total loss in discs.
    pub loss: PerSide<i32>,
    /// Each side's mean loss per move that was not forced, in discs (two decimals).
    pub mean_loss: PerSide<f64>,
    /// The level of the midgame searches ([`ReviewOptions::level`]).
    pub level: u8,
    /// Positions with at most this many empties were solved exactly
    /// ([`ReviewOptions::exact_from`]).
    pub exact_from: u32,
}

/// A move's name: lower case, `pa` for a pass (as move lists write it).
fn name(sq: Square) -> String {
    if sq.is_pass() {
        "pa".to_string()
    } else {
        sq.name().to_ascii_lowercase()
    }
}

/// `x` rounded to two decimals.
fn centi(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

impl MoveReport {
    /// The report of one reviewed move.
    pub fn of(m: &MoveReview) -> MoveReport {
        MoveReport {
            ply: m.ply,
            side: color_name(m.side),
            mv: name(m.mv),
            empties: m.empties,
            forced: m.forced,
            score_played: m.score_played,
            score_best: m.score_best,
            best: name(m.best),
            pv: m.pv.iter().map(|&sq| name(sq)).collect(),
            loss: m.loss,
            exact: m.exact,
            judgement: m.judgement.name(),
        }
    }
}

impl ReviewReport {
    /// The report of a game reviewed with `options`.
    pub fn of(r: &GameReview, options: &ReviewOptions) -> ReviewReport {
        ReviewReport {
            moves: r.moves.iter().map(MoveReport::of).collect(),
            loss: r.loss,
            mean_loss: PerSide {
                black: centi(r.mean_loss.black),
                white: centi(r.mean_loss.white),
            },
            level: options.level,
            exact_from: options.exact_from,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Judgement;
    use ply_othello::Color;

    #[test]
    fn a_report_has_the_documented_keys_and_names() {
        let m = MoveReview {
            ply: 27,
            side: Color::White,
            mv: Square::D3,
            empties: 34,
            forced: false,
            score_played: -4,
            score_best: 2,
            best: Square::C5,
            pv: vec![Square::C5, Square::PASS, Square::H8],
            loss: 6,
            exact: false,
            judgement: Judgement::Mistake,
        };
        let r = GameReview {
            moves: vec![m],
            loss: PerSide { black: 0, white: 6 },
            choices: PerSide { black: 0, white: 3 },
            mean_loss: PerSide {
                black: 0.0,
                white: 2.0 / 3.0,
            },
        };
        let options = ReviewOptions {
            level: 12,
            exact_from: 20,
        };
        let v = serde_json::to_value(ReviewReport::of(&r, &options)).unwrap();
        let expected = serde_json::json!({
            "moves": [{
                "ply": 27, "side": "white", "move": "d3", "empties": 34, "forced": false,
                "score_played": -4, "score_best": 2, "best": "c5", "pv": ["c5", "pa", "h8"],
                "loss": 6, "exact": false, "judgement": "mistake",
            }],
            "loss": {"black": 0, "white": 6},
            "mean_loss": {"black": 0.0, "white": 0.67},
            "level": 12,
            "exact_from": 20,
        });
        assert_eq!(v, expected);
    }
}
