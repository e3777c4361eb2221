//! Game review: every move of a finished game judged by the drop in the mover's expected score.
//!
//! Each position of the game is searched once, as lichess does: the search of the position before
//! a move gives the best move, its line and its score; the search of the position after it gives
//! the played move's score (negated, and a mate one move further away). The two scores go through
//! the win/draw/loss model ([`crate::wdl`]) to expected scores (win 1, draw ½); the difference is
//! the move's **loss** (0 to 1), and the judgement follows from it:
//!
//! | judgement    | loss in expected score                 | PGN  |
//! |--------------|----------------------------------------|------|
//! | `best`       | the engine's best move, or a forced one |      |
//! | `good`       | below [`INACCURACY`] (0.05)            |      |
//! | `inaccuracy` | from 0.05                              | `?!` |
//! | `mistake`    | from [`MISTAKE`] (0.10)                | `?`  |
//! | `blunder`    | from [`BLUNDER`] (0.15)                | `??` |
//!
//! The thresholds are lichess's (a drop of 0.1, 0.2 and 0.3 in its winning chances, which run
//! from -1 to 1, is 0.05, 0.1 and 0.15 of expected score). Because the model flattens in decided
//! positions, a move that keeps a won game won or a lost game lost costs little expected score and
//! is never a blunder; a move that throws a mate away for a score the model still calls a win is
//! judged by how much less sure the win became. Where the engine has Syzygy tables and both
//! positions are in them, the tables decide exactly: a move that keeps the result is `best` or
//! `good`, one that turns a win into a draw or a draw into a loss is a `blunder` (loss ½), a win
//! into a loss too (loss 1).
//!
//! Per side, [`GameReview`] gives an **accuracy** (lichess's formula: each move scores
//! `103.1668 · exp(-0.0435442 · ΔWin%) - 3.1669 + 1`, clamped to 0..100, where ΔWin% is the loss
//! in percent; the game's figure is the mean of a volatility-weighted mean and a harmonic mean of
//! them, see [`accuracy`]) and the **average centipawn loss** (scores clamped to ±1000, a mate
//! counting as 1000).

mod accuracy;
mod annotate;
#[cfg(feature = "serde")]
mod report;

pub use accuracy::{accuracy, move_accuracy};
pub use annotate::{annotate, eval_comment};
#[cfg(feature = "serde")]
pub use report::{MoveReport, PerSide, ReviewReport, ScoreReport};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use ply_chess::{Color, Game, Move, Position, Status};
use ply_syzygy::Wdl as TbWdl;

use crate::search::{Control, Info};
use crate::value::{is_mate, TB_WIN_BOUND};
use crate::wdl::{expected_score, material};
use crate::{Engine, Limits};

/// Smallest loss of an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// Smallest loss of a mistake.
pub const MISTAKE: f64 = 0.10;
/// Smallest loss of a blunder.
pub const BLUNDER: f64 = 0.15;

/// Centipawn scores are clamped to this for the average centipawn loss; a mate counts as this.
pub const CP_CAP: i32 = 1000;

/// What the review says of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// The engine's choice, or the only legal move.
    Best,
    /// Not the engine's choice, but losing less than an inaccuracy.
    Good,
    /// Loses from [`INACCURACY`] of expected score.
    Inaccuracy,
    /// Loses from [`MISTAKE`].
    Mistake,
    /// Loses from [`BLUNDER`], or changes a tablebase result.
    Blunder,
}

impl Judgement {
    /// Every judgement, best first.
    pub const ALL: [Judgement; 5] = [
        Judgement::Best,
        Judgement::Good,
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];

    /// The judgement of a move that is not the engine's choice and loses `loss`.
    pub fn of_loss(loss: f64) -> Judgement {
        if loss >= BLUNDER {
            Judgement::Blunder
        } else if loss >= MISTAKE {
            Judgement::Mistake
        } else if loss >= INACCURACY {
            Judgement::Inaccuracy
        } else {
            Judgement::Good
        }
    }

    /// Its name: `best`, `good`, `inaccuracy`, `mistake` or `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Best => "best",
            Judgement::Good => "good",
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The mark written after the move: `?!`, `?` or `??`; empty for good moves.
    pub fn mark(self) -> &'static str {
        match self {
            Judgement::Best | Judgement::Good => "",
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The PGN numeric annotation glyph of the mark: 6 (`?!`), 2 (`?`), 4 (`??`).
    pub fn nag(self) -> Option<u8> {
        match self {
            Judgement::Best | Judgement::Good => None,
            Judgement::Inaccuracy => Some(6),
            Judgement::Mistake => Some(2),
            Judgement::Blunder => Some(4),
        }
    }

    /// Whether the move is marked (an inaccuracy or worse).
    pub fn is_error(self) -> bool {
        self >= Judgement::Inaccuracy
    }
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The move's number in the game, from 1 (half-moves: White's first move is 1, Black's 2
    /// when the game starts with White to move).
    pub ply: usize,
    /// The position the move was played in.
    pub before: Position,
    /// The move played.
    pub played: Move,
    /// The played move's score, the mover's view (centipawns, or the engine's mate scores).
    pub score_played: i32,
    /// The best move's score, the mover's view.
    pub score_best: i32,
    /// The score of the position after the move from its own search, the other side's view
    /// (what a PGN's `[%eval]` of the move shows, turned to White's view); after the last move,
    /// the final position's (0 for a draw by the rules, mated for a checkmate).
    pub score_after: i32,
    /// The engine's best move.
    pub best: Move,
    /// The engine's line from `before`, starting with `best`.
    pub pv: Vec<Move>,
    /// The mover's expected score (0 to 1) after the best move.
    pub expected_best: f64,
    /// The mover's expected score after the played move.
    pub expected_played: f64,
    /// `expected_best - expected_played`, never below 0.
    pub loss: f64,
    /// Centipawns lost, scores clamped to ±[`CP_CAP`].
    pub cp_loss: i32,
    /// The move was the only legal one.
    pub forced: bool,
    /// Both positions were in the Syzygy tables and the judgement is theirs.
    pub exact: bool,
    /// The judgement.
    pub judgement: Judgement,
}

impl MoveReview {
    /// The side that played the move.
    pub fn mover(&self) -> Color {
        self.before.side_to_move()
    }
}

/// The review of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReview {
    /// One review per move of the game, in order.
    pub moves: Vec<MoveReview>,
    /// Accuracy per side (0 to 100), indexed by [`Color::index`]; `None` for a side without moves.
    pub accuracy: [Option<f64>; 2],
    /// Average centipawn loss per side, indexed by [`Color::index`].
    pub acpl: [Option<f64>; 2],
}

impl GameReview {
    /// The number of moves of `color` with judgement `j`.
    pub fn count(&self, color: Color, j: Judgement) -> usize {
        self.moves
            .iter()
            .filter(|m| m.mover() == color && m.judgement == j)
            .count()
    }
}

/// Why a review stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// The caller's cancel flag was raised before the last position was searched.
    #[error("the review was cancelled")]
    Cancelled,
}

/// One position's search: its score, best move and line.
struct Searched {
    score: i32,
    best: Option<Move>,
    pv: Vec<Move>,
}

/// The expected score of a search score of `pos`, its side to move's view.
fn expected(score: i32, pos: &Position) -> f64 {
    expected_score(score, material(pos))
}

/// A score clamped for the centipawn loss.
fn capped_cp(score: i32) -> i32 {
    if is_mate(score) || score.abs() >= TB_WIN_BOUND {
        score.signum() * CP_CAP
    } else {
        score.clamp(-CP_CAP, CP_CAP)
    }
}

/// The score of a move for its mover, from the score of the position it leads to (the other
/// side's view): negated, and a mate or tablebase win one ply further away.
pub fn score_of_reply(after: i32) -> i32 {
    let v = -after;
    if v >= TB_WIN_BOUND {
        v - 1
    } else if v <= -TB_WIN_BOUND {
        v + 1
    } else {
        v
    }
}

/// The expected score a tablebase result promises (cursed wins and blessed losses are draws
/// under the fifty-move rule).
fn tb_expected(w: TbWdl) -> f64 {
    match w {
        TbWdl::Win => 1.0,
        TbWdl::Loss => 0.0,
        _ => 0.5,
    }
}

/// Cancels a [`review`] from another thread.
#[derive(Default)]
pub struct Cancel {
    raised: AtomicBool,
    /// The control of the review's searches (the search under way stops on a cancel).
    search: Control,
}

impl Cancel {
    /// A cancel not raised.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Ends the review: the search under way stops and no other starts.
    pub fn cancel(&self) {
        self.raised.store(true, Ordering::SeqCst);
        self.search.stop();
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.raised.load(Ordering::SeqCst)
    }
}

/// Reviews every move of `game` with `engine`, each position searched within `limits` (one
/// search a position). The engine's table is cleared first and it reports one line (`MultiPV`
/// is set to 1). `progress` gets the positions searched so far and their total after each search.
/// [`Cancel::cancel`] (from any thread) ends the review: the search under way stops at once and
/// no other starts.
///
/// # Errors
/// [`ReviewError::Cancelled`] when `cancel` is raised before the last search ends.
pub fn review(
    engine: &mut Engine,
    game: &Game,
    limits: &Limits,
    cancel: &Cancel,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<GameReview, ReviewError> {
    engine.new_game();
    engine.set_multipv(1);
    let positions = game.positions();
    let n = game.moves().len();
    let hashes: Vec<u64> = positions.iter().map(Position::hash).collect();
    let status = game.status();
    let mut searched = Vec::with_capacity(n + 1);
    for (i, pos) in positions.iter().enumerate() {
        // the stop is cleared before the flag is read: a cancel raised after the read stops
        // the search
        cancel.search.reset(false);
        if cancel.is_cancelled() {
            return Err(ReviewError::Cancelled);
        }
        let s = if i == n && status != Status::Playing {
            // the game ended by the rules: nothing to search
            Searched {
                score: if status == Status::Checkmate {
                    -crate::value::MATE
                } else {
                    0
                },
                best: None,
                pv: Vec::new(),
            }
        } else {
            search(engine, pos, &hashes[..i], limits, &cancel.search)
        };
        // a search cut short by a cancel has no score to judge by
        if cancel.is_cancelled() {
            return Err(ReviewError::Cancelled);
        }
        searched.push(s);
        progress(i + 1, n + 1);
    }
    let tablebase = engine.options().tablebase.clone();
    let mut moves = Vec::with_capacity(n);
    for (i, &played) in game.moves().iter().enumerate() {
        let (before, after) = (&positions[i], &positions[i + 1]);
        let here = &searched[i];
        let best = here.best.unwrap_or(played);
        let forced = before.legal_moves().len() == 1;
        let score_after = searched[i + 1].score;
        let score_best = here.score;
        let score_played = if played == best {
            score_best
        } else {
            score_of_reply(score_after)
        };
        let expected_best = expected(score_best, before);
        let mut expected_played = if played == best {
            expected_best
        } else {
            1.0 - expected(score_after, after)
        };
        let mut loss = (expected_best - expected_played).max(0.0);
        let mut cp_loss = (capped_cp(score_best) - capped_cp(score_played)).max(0);
        let mut exact = false;
        let mut judgement = if played == best {
            Judgement::Best
        } else {
            Judgement::of_loss(loss)
        };
        if let Some(tb) = &tablebase {
            if let (Ok(w0), Ok(w1)) = (tb.probe_wdl(before), tb.probe_wdl(after)) {
                let (e0, e1) = (tb_expected(w0), tb_expected(-w1));
                exact = true;
                loss = (e0 - e1).max(0.0);
                expected_played = expected_best - loss;
                judgement = if loss > 0.0 {
                    Judgement::Blunder
                } else if played == best {
                    Judgement::Best
                } else {
                    Judgement::Good
                };
                if loss == 0.0 {
                    cp_loss = 0;
                }
            }
        }
        if forced {
            (loss, cp_loss, judgement) = (0.0, 0, Judgement::Best);
            expected_played = expected_best;
        }
        let pv = if here.pv.first() == Some(&best) {
            here.pv.clone()
        } else {
            vec![best]
        };
        moves.push(MoveReview {
            ply: i + 1,
            before: *before,
            played,
            score_played,
            score_best,
            score_after,
            best,
            pv,
            expected_best,
            expected_played,
            loss,
            cp_loss,
            forced,
            exact,
            judgement,
        });
    }
    let white_win: Vec<f64> = searched
        .iter()
        .zip(positions)
        .map(|(s, p)| {
            let e = expected(s.score, p);
            100.0
                * if p.side_to_move() == Color::White {
                    e
                } else {
                    1.0 - e
                }
        })
        .collect();
    let (accuracy, acpl) = accuracy::per_side(&moves, &white_win);
    Ok(GameReview {
        moves,
        accuracy,
        acpl,
    })
}

/// Searches one position: the final report's line and score.
fn search(
    engine: &mut Engine,
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    control: &Control,
) -> Searched {
    let line = Mutex::new(Vec::new());
    let reporter = |info: &Info| {
        if info.multipv == 1 && !info.pv.is_empty() {
            *line
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = info.pv.clone();
        }
    };
    let result = engine.think(pos, history, limits, control, &reporter);
    let pv = line
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let legal = pos.legal_moves();
    let best = legal.iter().copied().find(|&m| m == result.best);
    Searched {
        score: result.score,
        best,
        pv: legal_line(pos, &pv),
    }
}

/// The longest legal prefix of `line` from `pos`.
fn legal_line(pos: &Position, line: &[Move]) -> Vec<Move> {
    let mut p = *pos;
    let mut out = Vec::new();
    for &m in line {
        match p.try_play(m) {
            Ok(next) => {
                out.push(m);
                p = next;
            }
            Err(_) => break,
        }
    }
    out
}

#[cfg(test)]
mod tests;
