//! Root of the exact solver: principal-variation search with aspiration, exact score, best
//! move and principal variation; all-moves mode; win/draw/loss-only mode.
//!
//! The root picks the CPU kernel once ([`Solver::new`], with [`with_kernel!`]) and runs the
//! whole search in that kernel's copy, entered through [`Searches::solve_root`].

use super::{final_score, set_pv, Search, SCORE_INF};
use crate::bits::{bit, QUADRANT_ID};
use crate::engine::Limits;
use crate::kernel::{engine_kernels, with_kernel, Cpu, Kernel, Searches};
use crate::midgame::level::MAX_LEVEL;
use crate::midgame::think::{think, Context, DIRECT_SOLVE};
use crate::moveorder::MoveList;
use crate::split::Pool;
use crate::tt::{TableError, Tt};
use crate::tt::{EXACT, NO_MOVE};
use ply_othello::Board;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Square code of a pass in a principal variation: the rules crate's [`ply_othello::PASS`] in
/// the engine's one-byte square type.
pub const PASS: u8 = ply_othello::PASS as u8;
const _: () = assert!(PASS as usize == ply_othello::PASS, "PASS fits a byte");

/// What to compute at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Exact score, best move and principal variation.
    Exact,
    /// Exact score of every legal move (and the best of them).
    AllMoves,
    /// Only win (> 0), draw (0) or loss (< 0): the score is a bound of the right sign.
    Wdl,
}

/// Result of a root search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootResult {
    /// Score for the side to move (in [`Mode::Wdl`] only its sign is exact).
    pub score: i32,
    /// Best move, `None` when the side to move must pass or the game is over.
    pub best: Option<u8>,
    /// Principal variation (squares, [`PASS`] for a pass); may stop early.
    pub pv: Vec<u8>,
    /// Exact score of each legal move, best first ([`Mode::AllMoves`] only).
    pub moves: Vec<(u8, i32)>,
    /// Nodes searched.
    pub nodes: u64,
}

macro_rules! root_search {
    ($k:ty, $(#[$attr:meta])*) => {
        impl Search<$k> {
            /// Principal-variation search with window (alpha, beta), fail-soft; fills `pv`.
            $(#[$attr])*
            pub(crate) fn pvs(&mut self, p: u64, o: u64, alpha: i32, beta: i32, pv: &mut Vec<u8>) -> i32 {
                let k = self.k;
                pv.clear();
                let n = self.n_empties;
                if n == 0 {
                    self.nodes += 1;
                    return final_score(p, o);
                }
                self.nodes += 1;
                let nodes0 = self.nodes;
                let moves = k.moves(p, o);
                if moves == 0 {
                    if k.moves(o, p) == 0 {
                        return final_score(p, o);
                    }
                    let mut child = Vec::new();
                    let s = -self.pvs(o, p, -beta, -alpha, &mut child);
                    pv.push(PASS);
                    pv.extend_from_slice(&child);
                    return s;
                }
                let hash = k.hash(p, o);
                let hash_moves = self.tt.probe(hash, p, o).map_or([NO_MOVE; 2], |e| e.moves);
                let mut list = MoveList::new(k, p, o, moves);
                list.evaluate(k, p, o, hash_moves, self.parity);
                let mut best = -SCORE_INF;
                let mut best_move = NO_MOVE;
                let mut a = alpha;
                let mut child = Vec::new();
                self.n_empties -= 1;
                for i in 0..list.len() {
                    let m = list.pick(i);
                    let x = m.x as usize;
                    let (cp, co) = (o ^ m.flipped, p ^ m.flipped ^ bit(x));
                    self.empties.remove(x);
                    self.parity ^= QUADRANT_ID[x];
                    child.clear();
                    let s = if i == 0 {
                        -self.pvs(cp, co, -beta, -a, &mut child)
                    } else {
                        let s = -self.nws_any(cp, co, -a - 1);
                        // an aborted child looks like a fail high: never re-search it
                        if s > a && s < beta && !self.aborted() {
                            -self.pvs(cp, co, -beta, -a, &mut child)
                        } else {
                            s
                        }
                    };
                    self.parity ^= QUADRANT_ID[x];
                    self.empties.restore(x);
                    if s > best {
                        best = s;
                        best_move = m.x;
                        if s > a {
                            a = s;
                            set_pv(pv, m.x, &child);
                            if s >= beta {
                                break;
                            }
                        }
                    }
                }
                self.n_empties += 1;
                if self.aborted() {
                    return best;
                }
                self.tt.store(hash, p, o, n as u8, EXACT, alpha, beta, best, best_move, self.nodes - nodes0);
                best
            }

            /// Exact score with aspiration: a window around `guess`, widened on failure.
            $(#[$attr])*
            pub(crate) fn aspiration(&mut self, p: u64, o: u64, guess: i32, pv: &mut Vec<u8>) -> i32 {
                const DELTA: i32 = 4;
                let mut alpha = (guess - DELTA).max(-64);
                let mut beta = (guess + DELTA).min(64);
                loop {
                    let s = self.pvs(p, o, alpha, beta, pv);
                    if self.aborted() {
                        return s;
                    }
                    if s <= alpha && alpha > -64 {
                        beta = s + 1;
                        alpha = -64;
                    } else if s >= beta && beta < 64 {
                        alpha = s - 1;
                        beta = 64;
                    } else {
                        return s;
                    }
                }
            }

            /// Root entry: the whole solve in this kernel.
            $(#[$attr])*
            pub(crate) fn solve_root(&mut self, p: u64, o: u64, mode: Mode) -> RootResult {
                let k = self.k;
                self.set_root(p, o);
                self.tt.new_search();
                let nodes0 = self.nodes;
                let mut pv = Vec::new();
                let mut moves_scores = Vec::new();
                let score = match mode {
                    Mode::Wdl => self.pvs(p, o, -1, 1, &mut pv),
                    Mode::Exact => {
                        let guess = self.tt.probe(k.hash(p, o), p, o).map_or(0, |e| {
                            if e.lower > -64 { e.lower } else if e.upper < 64 { e.upper } else { 0 }
                        });
                        self.aspiration(p, o, guess, &mut pv)
                    }
                    Mode::AllMoves => {
                        let moves = k.moves(p, o);
                        if moves == 0 {
                            self.aspiration(p, o, 0, &mut pv)
                        } else {
                            let mut list = MoveList::new(k, p, o, moves);
                            list.evaluate(k, p, o, [NO_MOVE; 2], self.parity);
                            let mut best = -SCORE_INF;
                            let mut child = Vec::new();
                            self.n_empties -= 1;
                            for i in 0..list.len() {
                                let m = list.pick(i);
                                let x = m.x as usize;
                                self.empties.remove(x);
                                self.parity ^= QUADRANT_ID[x];
                                let guess = if best > -SCORE_INF { -best } else { 0 };
                                let s = -self.aspiration(o ^ m.flipped, p ^ m.flipped ^ bit(x), guess, &mut child);
                                self.parity ^= QUADRANT_ID[x];
                                self.empties.restore(x);
                                moves_scores.push((m.x, s));
                                if s > best {
                                    best = s;
                                    set_pv(&mut pv, m.x, &child);
                                }
                            }
                            self.n_empties += 1;
                            moves_scores.sort_by(|a, b| b.1.cmp(&a.1));
                            best
                        }
                    }
                };
                let best = pv.first().copied().filter(|&x| x != PASS);
                RootResult { score, best, pv, moves: moves_scores, nodes: self.nodes - nodes0 }
            }
        }
    };
}

engine_kernels!(root_search);

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

impl<K: Searches> Root for Search<K> {
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
            best: (out.best != PASS).then_some(out.best),
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
/// Exact solves of more than [`ITERATED_FROM`]` - 1` empties run as Edax runs them (seed 003):
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
    /// [`MAX_HASH_MIB`](crate::MAX_HASH_MIB) or cannot be allocated. (The smaller midgame table
    /// of the selective stages is made on first use; if that fails, the solve goes straight to
    /// the exact search, with the same score.)
    pub fn try_new(tt_mib: usize, portable: bool) -> Result<Solver, TableError> {
        let cpu = if portable {
            Cpu::Portable
        } else {
            Cpu::detect()
        };
        let tt = Arc::new(Tt::try_new(tt_mib)?);
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
        let threads = threads.max(1);
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
        if mode == Mode::Exact
            && board.empty_count() >= ITERATED_FROM
            && self.search.has_weights()
            && !self.mid_failed
        {
            if self.mid_tt.is_none() {
                match Tt::try_new(self.mid_mib) {
                    Ok(tt) => self.mid_tt = Some(Arc::new(tt)),
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
    use crate::endgame::tests::random_position;
    use crate::kernel::Portable;
    use std::sync::atomic::Ordering::Relaxed;
    use std::time::{Duration, Instant};

    fn board(p: u64, o: u64) -> Board {
        Board::new(p, o).expect("disjoint test position")
    }

    #[test]
    fn evaluation_ordering_gives_the_reference_scores() {
        let mut with = Solver::new(8, false);
        let mut without = Solver::new(8, false).without_evaluation();
        let mut seed = 0xfeed_u64;
        for n in [14u32, 16, 18, 19] {
            for _ in 0..3 {
                let (p, o) = random_position(Portable, &mut seed, n);
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
        let mut seed = 0xd1ce_u64;
        for _ in 0..2 {
            let (p, o) = random_position(Portable, &mut seed, ITERATED_FROM);
            let b = direct.solve(&board(p, o), Mode::Exact);
            for solver in &mut iterated {
                let a = solver.solve(&board(p, o), Mode::Exact);
                let threads = solver.threads();
                assert_eq!(a.score, b.score, "p {p:#x} o {o:#x}, {threads} threads");
                // the best move reaches the score
                let x = a.best.expect("a move") as usize;
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
        let mut seed = 31u64;
        let (p, o) = random_position(Portable, &mut seed, 32);
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
        let (p, o) = random_position(Portable, &mut seed, 10);
        let r = solver.solve(&board(p, o), Mode::Exact);
        assert_eq!(
            r.score,
            crate::endgame::tests::minimax(Portable, p, o, false)
        );
    }
}
