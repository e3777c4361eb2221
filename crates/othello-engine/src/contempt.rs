//! Contempt for draws: the engine's policy for choosing a move when a proven draw is worth more
//! or less than zero to it (NBoard's `set contempt N`). Front-ends only pass the number on.

use crate::engine::Engine;
use crate::request::{Clock, Info, Limits, Outcome};
use ply_othello::{Board, Square};
use std::sync::atomic::{AtomicBool, Ordering};

/// A move chosen under contempt, and its value to the engine.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The search behind the choice (its `best` may differ from [`Choice::best`]).
    pub outcome: Outcome,
    /// The move to play.
    pub best: Square,
    /// Its value in discs from the mover's view, a proven draw counted as `-contempt`.
    pub value: f64,
}

impl Engine {
    /// Searches like [`Engine::think`] and picks the move to play when a proven draw is worth
    /// `-contempt` discs. Exact scores are even, so a draw and a 2-disc result only trade places
    /// when |contempt| > 2: only then, and only when the search proved its score, is every move
    /// solved exactly (the table is warm) and the one of highest value played.
    pub fn think_with_contempt(
        &mut self,
        board: &Board,
        limits: &Limits,
        contempt: f64,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> Choice {
        let outcome = self.think(board, limits, stop, on_info);
        let draw = -contempt;
        let score = f64::from(outcome.score);
        let may_change = outcome.exact
            && ((outcome.score == 0 && draw < -2.0) || (outcome.score > 0 && draw > score));
        if !may_change || stop.load(Ordering::Relaxed) {
            let value = if outcome.exact && outcome.score == 0 {
                draw
            } else {
                score
            };
            return Choice {
                best: outcome.best,
                value,
                outcome,
            };
        }
        // the second search shares the first one's clock or move time: what is left of them
        let spent = outcome.elapsed;
        let solve_all = Limits {
            level: Some(60),
            all_moves: true,
            clock: limits.clock.map(|c| Clock {
                remaining: c.remaining.saturating_sub(spent),
                ..c
            }),
            move_time: limits.move_time.map(|t| t.saturating_sub(spent)),
            ..Limits::default()
        };
        let all = self.think(board, &solve_all, stop, &mut |_| {});
        let value_of = |s: i32| if s == 0 { draw } else { f64::from(s) };
        // the first search's move comes last, for a timed second search that stopped
        // before proving it
        let (best, value) = all
            .moves
            .iter()
            .filter(|m| m.exact)
            .map(|m| (m.square, value_of(m.score)))
            .chain(std::iter::once((outcome.best, value_of(outcome.score))))
            .fold(None::<(Square, f64)>, |best, (sq, v)| match best {
                Some((_, bv)) if bv >= v => best,
                _ => Some((sq, v)),
            })
            .unwrap_or((outcome.best, score));
        Choice {
            outcome,
            best,
            value,
        }
    }
}
