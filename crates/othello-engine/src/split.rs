//! Young brothers wait (Edax's YBWC, `ybwc.c`), shared by the solver and the midgame tree: once
//! the first move of a node has failed to cut off, its other moves may be handed to idle
//! threads (at a principal-variation node each gets a null-window search at the node's current
//! alpha, and a search with the full window when it beats it). [`Pool`] counts the idle
//! threads, [`Split`] is the node the threads share, and [`run`] searches it on the calling
//! thread and the helpers it was granted. A move that cuts
//! off raises the node's flag, and every thread still searching another of its moves (or a
//! node split below it) sees it through its [`crate::watch::Watch`] and drops that work, as
//! Edax's `node_stop_slaves` does.

use crate::moveorder::Move;
use crate::tt::NO_MOVE;
use ply_othello::Square;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicIsize, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};

/// Lower than any score.
const NO_SCORE: i32 = -1000;

/// Idle helper threads available for splitting. A thread that runs out of work at a split
/// node lends its slot back while it waits, so busy siblings can split deeper (the count may
/// dip below zero for a moment when the waiting thread takes its slot back).
pub struct Pool {
    idle: AtomicIsize,
}

impl Pool {
    /// A pool of `helpers` helper threads (besides the calling one).
    pub fn new(helpers: usize) -> Pool {
        Pool {
            idle: AtomicIsize::new(helpers as isize),
        }
    }

    /// Claims up to `want` helpers; returns how many were granted.
    pub(crate) fn claim(&self, want: usize) -> usize {
        let mut got = 0;
        let _ = self.idle.fetch_update(Relaxed, Relaxed, |idle| {
            got = idle.clamp(0, want as isize);
            (got > 0).then_some(idle - got)
        });
        got as usize
    }

    /// Returns one slot.
    fn release(&self) {
        self.idle.fetch_add(1, Relaxed);
    }

    /// Takes one slot back, even if that briefly overcommits.
    fn reclaim(&self) {
        self.idle.fetch_sub(1, Relaxed);
    }
}

/// Young brothers wait: before the `i`-th of a node's `len` moves (not the first, and with
/// another left after it), the idle helpers of `pool` a node that `may_split` may hand its
/// remaining moves to, with the pool (Edax `node_split`: tried before every move, not only the
/// second). `None` when none is idle or the node may not split.
#[inline(always)]
pub(crate) fn claim(
    pool: &Option<Arc<Pool>>,
    i: usize,
    len: usize,
    may_split: bool,
) -> Option<(Arc<Pool>, usize)> {
    let pool = pool.as_ref()?;
    if i == 0 || len - i < 2 || !may_split {
        return None;
    }
    // the pool is cloned only when granted: its count is shared by every thread
    let helpers = pool.claim(len - i - 1);
    (helpers > 0).then(|| (Arc::clone(pool), helpers))
}

/// The moves of one split node, taken in order by the threads working on it, and the best
/// score found so far.
pub(crate) struct Split<'a> {
    moves: &'a [Move],
    beta: i32,
    next: AtomicUsize,
    /// Raised by the first move that cuts off; the threads searching the node's other moves
    /// watch it (through their [`crate::watch::Watch`]) and abandon them.
    cut: Arc<AtomicBool>,
    /// The node's lower bound, raised by every score above it (principal-variation nodes).
    alpha: AtomicI32,
    best: Mutex<Best>,
}

/// The best move of a split node so far, with the line of the move that last raised alpha.
struct Best {
    score: i32,
    x: u8,
    line: Vec<Square>,
}

impl<'a> Split<'a> {
    /// The node searching `moves` with the window (`alpha`, `beta`): a null window when
    /// `beta` is `alpha` + 1, else a principal-variation node whose threads re-search the moves
    /// that beat the current alpha.
    pub(crate) fn new(moves: &'a [Move], alpha: i32, beta: i32) -> Split<'a> {
        Split {
            moves,
            beta,
            next: AtomicUsize::new(0),
            cut: Arc::new(AtomicBool::new(false)),
            alpha: AtomicI32::new(alpha),
            best: Mutex::new(Best {
                score: NO_SCORE,
                x: NO_MOVE,
                line: Vec::new(),
            }),
        }
    }

    /// The upper end of the window.
    pub(crate) fn beta(&self) -> i32 {
        self.beta
    }

    /// The lower end of the window now (the best score recorded above the first alpha).
    pub(crate) fn alpha(&self) -> i32 {
        self.alpha.load(Relaxed)
    }

    /// The flag raised when a move cuts off.
    pub(crate) fn cut_flag(&self) -> &Arc<AtomicBool> {
        &self.cut
    }

    /// The next move to search; `None` once every move is taken or one has cut off.
    pub(crate) fn take(&self) -> Option<Move> {
        if self.cut.load(Relaxed) {
            return None;
        }
        self.moves.get(self.next.fetch_add(1, Relaxed)).copied()
    }

    /// Records move `x`'s score `s` (from the node's side), with its line when a
    /// principal-variation search gave it (a score inside the window).
    pub(crate) fn record(&self, s: i32, x: u8, line: &[Square]) {
        let mut best = self.best.lock().unwrap_or_else(PoisonError::into_inner);
        if s > best.score {
            best.score = s;
            best.x = x;
            if s > self.alpha.load(Relaxed) {
                self.alpha.store(s, Relaxed);
                best.line.clear();
                best.line.extend_from_slice(line);
            }
        }
        if s >= self.beta {
            self.cut.store(true, Relaxed);
        }
    }

    /// The best score and move recorded ([`NO_MOVE`] and a score below any if none was).
    pub(crate) fn result(&self) -> (i32, u8) {
        let best = self.best.lock().unwrap_or_else(PoisonError::into_inner);
        (best.score, best.x)
    }

    /// The node's outcome once its threads are done: [`Split::result`] and the line of the
    /// best move when it raised alpha (empty after a cut or for a null window).
    pub(crate) fn into_outcome(self) -> (i32, u8, Vec<Square>) {
        let best = self
            .best
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        (best.score, best.x, best.line)
    }
}

/// Runs `own` on this thread and `work` on one new thread per element of `helpers` (each
/// granted by `pool.claim`); returns the sum of the nodes the helpers report. The caller lends
/// its slot to the pool while it waits for its helpers.
pub(crate) fn run<H: Send>(
    pool: &Pool,
    helpers: Vec<H>,
    own: impl FnOnce(),
    work: impl Fn(H) -> u64 + Sync,
) -> u64 {
    let nodes = std::thread::scope(|scope| {
        let work = &work;
        let handles: Vec<_> = helpers
            .into_iter()
            .map(|h| {
                scope.spawn(move || {
                    let nodes = work(h);
                    pool.release();
                    nodes
                })
            })
            .collect();
        own();
        pool.release();
        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    });
    pool.reclaim();
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(x: u8) -> Move {
        Move {
            x,
            flipped: 0,
            score: 0,
        }
    }

    #[test]
    fn the_pool_grants_what_is_idle() {
        let pool = Pool::new(2);
        assert_eq!(pool.claim(5), 2);
        assert_eq!(pool.claim(1), 0);
        pool.release();
        assert_eq!(pool.claim(3), 1);
    }

    #[test]
    fn a_split_stops_handing_out_moves_after_a_cut() {
        let moves = [mv(1), mv(2), mv(3)];
        let split = Split::new(&moves, 4, 5);
        assert_eq!(split.take().map(|m| m.x), Some(1));
        split.record(3, 1, &[]);
        assert_eq!(split.take().map(|m| m.x), Some(2));
        split.record(7, 2, &[]);
        assert!(split.take().is_none());
        assert_eq!(split.result(), (7, 2));
    }

    #[test]
    fn a_principal_variation_split_keeps_the_line_that_raised_alpha() {
        let moves = [mv(1), mv(2), mv(3), mv(4)];
        let split = Split::new(&moves, 0, 10);
        assert_eq!(split.beta(), 10);
        split.record(-4, 1, &[]);
        assert_eq!((split.alpha(), split.result()), (0, (-4, 1)));
        let line: Vec<Square> = Square::iter(0b10_0000_0100).collect();
        split.record(6, 2, &line);
        split.record(4, 3, &line[..1]);
        assert_eq!(split.alpha(), 6);
        assert_eq!(split.result(), (6, 2));
        assert!(split.take().is_some(), "no cut below beta");
        assert_eq!(split.into_outcome(), (6, 2, line));
        let split = Split::new(&moves, 0, 10);
        split.record(12, 4, &[]);
        assert!(split.take().is_none(), "a score at beta cuts");
        assert_eq!(split.into_outcome(), (12, 4, Vec::new()));
    }

    #[test]
    fn run_shares_the_moves_and_returns_the_slots() {
        let moves: Vec<Move> = (0..40).map(mv).collect();
        let split = Split::new(&moves, 99, 100);
        let pool = Pool::new(3);
        let helpers = pool.claim(3);
        let searched = AtomicUsize::new(0);
        let search = || {
            let mut nodes = 0;
            while let Some(m) = split.take() {
                split.record(i32::from(m.x), m.x, &[]);
                searched.fetch_add(1, Relaxed);
                nodes += 1;
            }
            nodes
        };
        let helper_nodes = run(
            &pool,
            vec![(); helpers],
            || {
                let _ = search();
            },
            |()| search(),
        );
        assert_eq!(searched.load(Relaxed), 40);
        assert!(helper_nodes <= 40);
        assert_eq!(split.result(), (39, 39));
        assert_eq!(pool.claim(10), 3);
    }
}
