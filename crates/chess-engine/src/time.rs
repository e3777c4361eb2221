//! Search limits from the UCI `go` command and the time budget derived from them.
//!
//! The budget has a soft part (do not start another iteration after about half of it has passed,
//! scaled by how stable the best move is) and a hard part (abort the search mid-iteration). Both
//! stay far below the remaining clock minus the `Move Overhead`, so the engine does not lose on
//! time even at 1+0.01.

use ply_chess::{Color, Move};
use std::time::Duration;

/// What `go` asked for.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Remaining time per colour (White, Black), milliseconds.
    pub time: [Option<u64>; 2],
    /// Increment per colour, milliseconds.
    pub inc: [u64; 2],
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Maximum depth.
    pub depth: Option<i32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move, milliseconds.
    pub movetime: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Start in ponder mode (the clock starts at `ponderhit`).
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
}

/// Soft and hard time limits of one search (`None`: no time limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Target time for the move; iterations stop being started past a fraction of it.
    pub soft: Option<Duration>,
    /// The search is aborted at this time.
    pub hard: Option<Duration>,
}

impl Limits {
    /// Whether the search is limited by a clock or a fixed move time.
    pub fn is_timed(&self) -> bool {
        self.movetime.is_some() || self.time.iter().any(Option::is_some)
    }

    /// The time budget for `side` to move, keeping `overhead_ms` in reserve for communication.
    pub fn budget(&self, side: Color, overhead_ms: u64) -> Budget {
        if let Some(mt) = self.movetime {
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
            return Budget {
                soft: Some(t),
                hard: Some(t),
            };
        }
        let Some(time) = self.time[side.index()] else {
            return Budget {
                soft: None,
                hard: None,
            };
        };
        let inc = self.inc[side.index()];
        let avail = time.saturating_sub(overhead_ms).max(1);
        let mtg = u64::from(self.movestogo.unwrap_or(30).clamp(1, 50));
        // Leave room for the moves to come; with one move to go use most (but not all) of the clock.
        let cap = if mtg == 1 { avail * 7 / 10 } else { avail / 5 };
        let soft = (avail / mtg + inc * 3 / 4).min(cap).max(1);
        let hard = (soft * 4).min(cap).max(1);
        Budget {
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64) -> Limits {
        Limits {
            time: [Some(ms), Some(ms)],
            inc: [inc, inc],
            ..Limits::default()
        }
    }

    #[test]
    fn never_exceeds_the_clock() {
        for ms in [1u64, 5, 10, 11, 30, 100, 1000, 60_000, 3_600_000] {
            for inc in [0u64, 10, 100, 2000] {
                for overhead in [0u64, 10, 50] {
                    let b = clock(ms, inc).budget(Color::White, overhead);
                    let hard = b.hard.unwrap().as_millis() as u64;
                    let soft = b.soft.unwrap().as_millis() as u64;
                    assert!(soft <= hard);
                    assert!(
                        hard <= ms.saturating_sub(overhead).max(1),
                        "{ms} {inc} {overhead}"
                    );
                }
            }
        }
    }

    #[test]
    fn movetime_and_untimed() {
        let l = Limits {
            movetime: Some(500),
            ..Limits::default()
        };
        assert_eq!(
            l.budget(Color::Black, 20).hard,
            Some(Duration::from_millis(480))
        );
        assert!(l.is_timed());
        let l = Limits::default();
        assert_eq!(l.budget(Color::White, 10).hard, None);
        assert!(!l.is_timed());
    }

    #[test]
    fn one_second_plus_ten_ms() {
        let b = clock(1000, 10).budget(Color::White, 10);
        assert!(b.soft.unwrap() >= Duration::from_millis(20));
        assert!(b.hard.unwrap() <= Duration::from_millis(400));
    }
}
