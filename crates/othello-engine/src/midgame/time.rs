//! Time management: a soft budget (no new iteration once it is mostly spent) and a hard limit
//! enforced by a timer thread that raises the abort flag, so a search never overruns its clock.

use crate::platform::Instant;
use crate::request::{Clock, Limits};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

/// Time kept in reserve on the clock for the caller's own overhead (process, pipes, GUI).
pub const MIN_RESERVE: Duration = Duration::from_millis(3);

/// What a move costs beyond its search budget: starting and joining the search's threads and
/// the abort's latency (a thread woken on a loaded machine may wait for a scheduler tick, 4 ms
/// at 250 Hz). The clock keeps this for each of our moves to come (less the increment), so a
/// tiny clock is not overrun by the moves' fixed costs: with 0.2 s for a game, about 3.8 ms a
/// move was measured on a loaded two-core machine, 20 ms over the game without this.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(5);

/// Time limits of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Do not start an iteration after this (iterations grow about threefold).
    pub soft: Option<Duration>,
    /// Abort the search at this.
    pub hard: Option<Duration>,
}

/// Our moves still to play with `n_empties` empties: positions with few empties are solved
/// almost at once, so they get no share of the clock.
pub fn moves_left(n_empties: u32) -> u32 {
    if n_empties <= 2 {
        1
    } else {
        n_empties.saturating_sub(10) / 2 + 2
    }
}

/// The budget of a clock: an even share of the usable time (plus most of the increment),
/// the hard limit a few shares but never more than half of what is left (all of it on our
/// last move) minus a reserve and the [`MOVE_OVERHEAD`] of every move we have to play.
pub fn clock_budget(clock: &Clock, n_empties: u32) -> Budget {
    let reserve = (clock.remaining / 10).clamp(MIN_RESERVE, Duration::from_millis(300));
    let ours = clock.moves_to_go.map_or(n_empties.div_ceil(2), |m| {
        m.max(1).min(n_empties.div_ceil(2))
    });
    let overhead = MOVE_OVERHEAD.saturating_sub(clock.increment) * ours;
    let usable = clock
        .remaining
        .saturating_sub(reserve)
        .saturating_sub(overhead);
    let left = clock.moves_to_go.map_or(moves_left(n_empties), |m| {
        m.max(1).min(moves_left(n_empties))
    });
    let share = usable / left + clock.increment * 3 / 4;
    let cap = if left > 1 { usable / 2 } else { usable };
    let hard = (share * 3).min(cap);
    Budget {
        soft: Some(share.min(hard)),
        hard: Some(hard),
    }
}

/// The budget of a search under `limits` (the tighter of a clock and a fixed move time).
pub fn budget(limits: &Limits, n_empties: u32) -> Budget {
    let mut b = limits
        .clock
        .as_ref()
        .map_or(Budget::default(), |c| clock_budget(c, n_empties));
    if let Some(t) = limits.move_time {
        let t = t.saturating_sub(Duration::from_millis(1));
        b.hard = Some(b.hard.map_or(t, |h| h.min(t)));
        b.soft = Some(b.soft.map_or(t, |s| s.min(t)));
    }
    b
}

/// How often the timer looks at the stop flag when no hard limit is set: a stop request is
/// answered within this time, and an unlimited solve is not woken a thousand times a second
/// (the timer shares a core with the search when both are pinned to one).
const STOP_POLL: Duration = Duration::from_millis(5);

/// Polls the caller's stop flag and the hard limit (about every millisecond while a hard
/// limit is set, every [`STOP_POLL`] otherwise) and raises `abort` when either fires;
/// returns when `done` is set.
pub fn run_timer(
    start: Instant,
    hard: Option<Duration>,
    stop: &AtomicBool,
    abort: &AtomicBool,
    done: &AtomicBool,
) {
    while !done.load(Relaxed) {
        if stop.load(Relaxed) || hard.is_some_and(|h| start.elapsed() >= h) {
            abort.store(true, Relaxed);
            return;
        }
        let wait = hard.map_or(STOP_POLL, |h| {
            h.saturating_sub(start.elapsed())
                .min(Duration::from_millis(1))
        });
        std::thread::park_timeout(wait.max(Duration::from_micros(50)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_stays_inside_the_clock() {
        for ms in [1u64, 5, 20, 50, 100, 1000, 60_000, 600_000] {
            for inc in [0u64, 10, 1000] {
                for n in 0..=60 {
                    let c = Clock {
                        remaining: Duration::from_millis(ms),
                        increment: Duration::from_millis(inc),
                        moves_to_go: None,
                    };
                    let b = clock_budget(&c, n);
                    let hard = b.hard.unwrap();
                    assert!(b.soft.unwrap() <= hard);
                    assert!(
                        hard + MIN_RESERVE.min(c.remaining) <= c.remaining,
                        "{ms} {inc} {n}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_tiny_clock_keeps_the_fixed_cost_of_every_move_to_come() {
        let c = Clock {
            remaining: Duration::from_millis(200),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        for n in 1..=60 {
            let hard = clock_budget(&c, n).hard.unwrap();
            let rest = MOVE_OVERHEAD * n.div_ceil(2);
            assert!(hard + rest <= c.remaining, "{n}: {hard:?}");
        }
        // with nothing but the fixed costs left, no search time at all
        let short = Clock {
            remaining: MOVE_OVERHEAD * 10,
            ..c
        };
        assert_eq!(clock_budget(&short, 20).hard, Some(Duration::ZERO));
        // an increment that pays for them gives them back
        let inc = Clock {
            increment: MOVE_OVERHEAD,
            ..short
        };
        assert!(clock_budget(&inc, 20).hard.unwrap() > Duration::ZERO);
    }

    #[test]
    fn more_time_for_early_moves_than_for_solved_endgames() {
        let c = Clock {
            remaining: Duration::from_secs(60),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let early = clock_budget(&c, 40).soft.unwrap();
        let late = clock_budget(&c, 10).soft.unwrap();
        assert!(
            late > early,
            "solved endgames are cheap: late moves get larger shares"
        );
        assert!(early < Duration::from_secs(10));
        assert!(clock_budget(&c, 8).hard.unwrap() <= Duration::from_secs(30));
        assert_eq!(moves_left(2), 1);
    }
}
