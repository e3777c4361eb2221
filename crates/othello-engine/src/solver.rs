//! The exact solver's driver, [`Solver`]: it picks the CPU kernel once, owns the tables and
//! threads, and runs either the endgame root search ([`crate::endgame`]) or, for many empties,
//! the midgame iterations first as Edax does ([`crate::midgame`]).

use crate::endgame::{EndgameKernel, Mode, RootResult, Search};
use crate::kernel::{with_kernel, Cpu};
use crate::midgame::level::MAX_LEVEL;
use crate::midgame::think::{think, Context, DIRECT_SOLVE};
use crate::midgame::MidgameKernel;
use crate::request::Limits;
use crate::split::Pool;
use crate::tt::{TableError, Tt};
use ply_othello::Board;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What a [`Solver`] holds: the search copy of the kernel chosen at start-up, whatever it is.
trait Root: Send {
    fn solve(&mut self, player: u64, opponent: u64, mode: Mode) -> RootResult;
    fn iterated(&mut self, mid_tt: &Arc<Tt>, threads: usize, b: &Board) -> Option<RootResult>;
    fn has_weights(&self) -> bool;
    fn kernel_name(&self) -> &'static str;
    fn abort_flag(&self) -> &Arc<AtomicBool>;
    fn set_weights(&mut self, weights: Option<Arc<crate::eval::Weights>>);
    fn set_pool(&mut self, pool: Option<Arc<Pool>>);
    fn tt(&self) -> &Tt;
}

impl<K: MidgameKernel + EndgameKernel> Root for Search<K> {
    fn solve(&mut self, player: u64, opponent: u64, mode: Mode) -> RootResult {
        K::solve_root(self, player, opponent, mode)
    }
    /// The exact solve as the engine's search at level 60 does it (Edax's endgame): midgame
    /// iterations, then the endgame at rising selectivity, each stage leaving its best moves
    /// in the tables for the next, then the exact stage (`None` without an evaluation).
    fn iterated(&mut self, mid_tt: &Arc<Tt>, threads: usize, b: &Board) -> Option<RootResult> {
        let (player, opponent) = (b.player(), b.opponent());
        let weights = self.weights.clone()?;
        let ctx = Context {
            weights: &weights,
            mid_tt,
            eg_tt: &self.tt,
            threads,
        };
        let limits = Limits {
            level: Some(MAX_LEVEL),
            ..Limits::default()
        };
        let out = think(
            self.k,
            &ctx,
            player,
            opponent,
            &limits,
            &self.watch.abort,
            &mut |_| {},
        );
        Some(RootResult {
            score: out.score,
            best: (!out.best.is_pass()).then_some(out.best),
            pv: out.pv,
            moves: Vec::new(),
            nodes: out.nodes,
        })
    }
    fn has_weights(&self) -> bool {
        self.weights.is_some()
    }
    fn kernel_name(&self) -> &'static str {
        self.k.name()
    }
    fn abort_flag(&self) -> &Arc<AtomicBool> {
        &self.watch.abort
    }
    fn set_weights(&mut self, weights: Option<Arc<crate::eval::Weights>>) {
        self.weights = weights;
    }
    fn set_pool(&mut self, pool: Option<Arc<Pool>>) {
        self.pool = pool;
    }
    fn tt(&self) -> &Tt {
        &self.tt
    }
}

/// An exact endgame solver. The CPU kernel is chosen once, here.
///
/// Exact solves of more than [`ITERATED_FROM`]` - 1` empties run as Edax runs them (`root.c`,
/// the selectivity stages of `iterative_deepening`):
/// midgame iterations and probable-cut endgame searches at 73 % and 87 % first, each filling
/// the tables with the moves that the next one tries first, then the exact search (whose
/// nodes down to 16 empties are ordered by shallow evaluation searches). Fewer empties, the
/// other modes and a solver without evaluation go straight to the exact search. Either way
/// the score is exact.
pub struct Solver {
    search: Box<dyn Root>,
    threads: usize,
    /// Midgame table of the stages before an exact search, made on first use.
    mid_tt: Option<Arc<Tt>>,
    /// True once that table could not be allocated (the stages are then skipped).
    mid_failed: bool,
    /// Its size in MiB.
    mid_mib: usize,
}

/// The part of the table, in MiB, that a solve of `empties` empties uses (at most the size
/// the solver was made with; the midgame table of the selective stages uses a quarter).
///
/// The table only needs to hold the nodes of the search above the thread-local tables, which
/// grow about threefold per empty; the kernel zeroes every page a search touches, so a table
/// far larger than the problem costs time (0.36 s of kernel time for 256 MiB on the test
/// machine) and nothing else. So 16 MiB up to 22 empties, twice as much per further empty, all
/// of a 256 MiB table from 26. Measured with whole tables of each size (nodes against 256
/// MiB): FFO #41-42 (22 empties) +0.0003 % with 16 MiB; #43-44 (23) the same nodes with 32;
/// #45 (24) +0.4 % with 64 and +3 % with 32; #49 (26) +0.8 % with 64 and +9 % with 32.
pub(crate) fn table_mib_for(empties: u32) -> usize {
    1usize << empties.clamp(22, 40).saturating_sub(18)
}

/// From this many empties on, an exact solve starts with selective stages (see [`Solver`]).
pub const ITERATED_FROM: u32 = DIRECT_SOLVE + 1;

impl Solver {
    /// A solver with a `tt_mib` MiB transposition table, using the fastest kernel the CPU
    /// supports unless `portable` is set.
    ///
    /// # Panics
    /// If the table cannot be allocated; use [`try_new`](Self::try_new) for a size given by a
    /// user.
    pub fn new(tt_mib: usize, portable: bool) -> Solver {
        match Solver::try_new(tt_mib, portable) {
            Ok(solver) => solver,
            Err(e) => panic!("{e}"),
        }
    }

    /// Like [`new`](Self::new), or an error when the table is above
    /// [`hash_limit_mib`](crate::hash_limit_mib) or cannot be allocated. (The smaller midgame table
    /// of the selective stages is made on first use; if that fails, the solve goes straight to
    /// the exact search, with the same score.)
    pub fn try_new(tt_mib: usize, portable: bool) -> Result<Solver, TableError> {
        let cpu = if portable {
            Cpu::Portable
        } else {
            Cpu::detect()
        };
        let tt = Arc::new(Tt::try_with_active(tt_mib, table_mib_for(0))?);
        let mut search: Box<dyn Root> = with_kernel!(cpu, |k| Box::new(Search::with_tt(k, tt)));
        // the v1 evaluation orders moves at high empties (a test guards its decoding): with
        // its Edax-sized tables it solves FFO #20-39 and #45-49 in 4.10 s and 31.1 s of CPU
        // where the 62-feature v2 needs 4.86 s and 36.3 s (8 % more nodes, 7 % fewer per s)
        let weights = crate::eval::embedded_v1_weights()
            .ok()
            .map(|w| Arc::new(crate::eval::Weights::new(&w)));
        search.set_weights(weights);
        Ok(Solver {
            search,
            threads: 1,
            mid_tt: None,
            mid_failed: false,
            mid_mib: (tt_mib / 4).max(1),
        })
    }

    /// Like [`new`](Self::new), searching with `threads` threads (1 = sequential reference).
    ///
    /// # Panics
    /// If the table cannot be allocated; see [`try_with_threads`](Self::try_with_threads).
    pub fn with_threads(tt_mib: usize, portable: bool, threads: usize) -> Solver {
        match Solver::try_with_threads(tt_mib, portable, threads) {
            Ok(solver) => solver,
            Err(e) => panic!("{e}"),
        }
    }

    /// Like [`with_threads`](Self::with_threads), or an error when the table cannot be
    /// allocated.
    pub fn try_with_threads(
        tt_mib: usize,
        portable: bool,
        threads: usize,
    ) -> Result<Solver, TableError> {
        let threads = crate::platform::usable_threads(threads);
        let mut solver = Solver::try_new(tt_mib, portable)?;
        let pool = (threads > 1).then(|| Arc::new(Pool::new(threads - 1)));
        solver.search.set_pool(pool);
        solver.threads = threads;
        Ok(solver)
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Name of the kernel in use.
    pub fn kernel_name(&self) -> &'static str {
        self.search.kernel_name()
    }

    /// Solves `board` (from the mover's view).
    pub fn solve(&mut self, board: &Board, mode: Mode) -> RootResult {
        let (p, o) = (board.player(), board.opponent());
        let mib = table_mib_for(board.empty_count());
        self.search.tt().set_active_mib(mib);
        if let Some(t) = &self.mid_tt {
            t.set_active_mib(mib / 4);
        }
        if mode == Mode::Exact
            && board.empty_count() >= ITERATED_FROM
            && self.search.has_weights()
            && !self.mid_failed
        {
            if self.mid_tt.is_none() {
                match Tt::try_with_active(self.mid_mib, table_mib_for(0) / 4) {
                    Ok(tt) => {
                        tt.set_active_mib(mib / 4);
                        self.mid_tt = Some(Arc::new(tt));
                    }
                    Err(_) => self.mid_failed = true,
                }
            }
            if let Some(mid_tt) = &self.mid_tt {
                if let Some(r) = self.search.iterated(mid_tt, self.threads, board) {
                    return r;
                }
            }
        }
        self.search.solve(p, o, mode)
    }

    /// The flag that abandons a running [`solve`](Self::solve) when another thread sets it (the
    /// solve then returns early with a meaningless result; clear the flag before the next one).
    pub fn abort_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(self.search.abort_flag())
    }

    /// Orders moves with `weights` instead of the embedded v1 evaluation (the exact scores do not
    /// depend on it; the node counts and times do).
    pub fn with_weights(mut self, weights: &crate::eval::PackedWeights) -> Solver {
        self.search
            .set_weights(Some(Arc::new(crate::eval::Weights::new(weights))));
        self
    }

    /// Orders moves without the evaluation (the fastest-first reference ordering).
    pub fn without_evaluation(mut self) -> Solver {
        self.search.set_weights(None);
        self
    }

    /// Forgets every stored result.
    pub fn clear(&mut self) {
        self.search.tt().clear();
        if let Some(t) = &self.mid_tt {
            t.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::bit;
    use crate::endgame::tests::random_position;
    use crate::kernel::Kernel;
    use crate::kernel::Portable;
    use ply_testkit::XorShift64;
    use std::sync::atomic::Ordering::Relaxed;
    use std::time::{Duration, Instant};

    fn board(p: u64, o: u64) -> Board {
        Board::new(p, o).expect("disjoint test position")
    }

    #[test]
    fn evaluation_ordering_gives_the_reference_scores() {
        let mut with = Solver::new(8, false);
        let mut without = Solver::new(8, false).without_evaluation();
        let mut rng = XorShift64::new(0xfeed);
        for n in [14u32, 16, 18, 19] {
            for _ in 0..3 {
                let (p, o) = random_position(Portable, &mut rng, n);
                let a = with.solve(&board(p, o), Mode::Exact);
                let b = without.solve(&board(p, o), Mode::Exact);
                assert_eq!(a.score, b.score, "n {n} p {p:#x} o {o:#x}");
            }
        }
    }

    #[test]
    fn iterated_solve_matches_the_direct_search() {
        // one thread, and two (the exact stage's nodes above the handover split)
        let mut iterated = [Solver::new(16, false), Solver::with_threads(16, false, 2)];
        let mut direct = Solver::new(16, false).without_evaluation();
        let mut rng = XorShift64::new(0xd1ce);
        for _ in 0..2 {
            let (p, o) = random_position(Portable, &mut rng, ITERATED_FROM);
            let b = direct.solve(&board(p, o), Mode::Exact);
            for solver in &mut iterated {
                let a = solver.solve(&board(p, o), Mode::Exact);
                let threads = solver.threads();
                assert_eq!(a.score, b.score, "p {p:#x} o {o:#x}, {threads} threads");
                // the best move reaches the score
                let x = a.best.expect("a move").index();
                let f = Portable.flip(x, p, o);
                let child = direct.solve(&board(o ^ f, p ^ f ^ bit(x)), Mode::Exact);
                assert_eq!(-child.score, a.score, "best move {x}, {threads} threads");
            }
        }
    }

    #[test]
    fn abort_flag_stops_a_long_solve() {
        let mut solver = Solver::new(8, false);
        let abort = solver.abort_flag();
        let mut rng = XorShift64::new(31);
        let (p, o) = random_position(Portable, &mut rng, 32);
        let t = Instant::now();
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                abort.store(true, Relaxed);
            });
            solver.solve(&board(p, o), Mode::Exact);
        });
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "took {:?}",
            t.elapsed()
        );
        // cleared, the solver works again
        abort.store(false, Relaxed);
        let (p, o) = random_position(Portable, &mut rng, 10);
        let r = solver.solve(&board(p, o), Mode::Exact);
        assert_eq!(
            r.score,
            crate::endgame::tests::minimax(Portable, p, o, false)
        );
    }
}
