//! The midgame tree search of one thread (Edax's `midgame.c`): principal-variation
//! search with null-window children, a transposition table keeping bounds, draft and
//! selectivity, stability cutoff, Multi-ProbCut, move ordering by hash moves then shallow
//! searches (deep nodes) or mobility (shallow nodes), and the exact solver at the leaves of
//! endgame searches. Scores are in discs, from the side to move.
//!
//! The search is written once, generic over the kernel (`impl<K: MidgameKernel> Worker<K>`,
//! `#[inline(always)]` bodies), and compiled once per CPU kernel through the one list of its
//! entry points, [`MidgameKernel`] (see [`search_copies!`](crate::kernel::search_copies)):
//! the bodies call each other through it, so every call lands in the same kernel's copy, and
//! generic code outside (`think`, `depth_scores`, the solver driver) enters it there too.

use super::level::NO_SELECTIVITY;
use super::mpc;
use crate::bits::bit;
use crate::endgame::{EndgameKernel, Search};
use crate::eval::Eval;
use crate::eval::{Features, Weights};
use crate::kernel::{search_copies, Kernel};
use crate::moveorder::{
    end_sort_score, potential_moves, score_move, Move, MoveList, SORT_ALPHA_DELTA, W_HASH_1,
    W_HASH_2, W_SHALLOW_MOBILITY, W_SHALLOW_SCORE, W_WIPEOUT,
};
use crate::platform::Instant;
use crate::search::{final_score, set_pv, SCORE_INF, SC_THRESHOLD};
use crate::split::{self, Pool, Split};
use crate::stability::stability_upper_bound;
use crate::tt::{Tt, NO_MOVE};
use crate::watch::Watch;
use ply_othello::Square;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Up to this many empties an endgame search at a selectivity below 100% hands over to the
/// exact solver (cuts buy little there); roots of 27+ empties hand over as many empties higher
/// as their exact stage does above [`DEEP_EXACT_HANDOVER`] (see [`exact_handover`]): at most 16.
pub const END_MPC_MIN: u32 = 12;

/// Up to this many empties an exact endgame search hands over to the solver; above it the
/// midgame tree (evaluation-sorted moves, hash moves from the selective stages) goes on.
pub const EXACT_HANDOVER: u32 = 16;

/// [`EXACT_HANDOVER`] of searches from [`DEEP_ROOT`] empties on.
pub const DEEP_EXACT_HANDOVER: u32 = 18;

/// Roots with at least this many empties hand over at [`DEEP_EXACT_HANDOVER`].
pub const DEEP_ROOT: u32 = 24;

/// Null-window nodes deeper than this try the enhanced transposition cutoff (Edax's value).
const ETC_MIN_DEPTH: u32 = 5;

// The cutoff reads the solver's table for the children it takes over, hashed as the midgame
// hashes them: the solver keys positions by their solid discs only below every hand-over.
const _: () = assert!(crate::endgame::SOLID_DEPTH < END_MPC_MIN);

/// Evaluation scores are kept inside this bound so they never look like proven results.
const EVAL_BOUND: i32 = 63;

/// Depth of the shallow searches that order the moves of a node searched to `depth` plies
/// at `n` empties, or `None` for mobility ordering (Edax's `movelist_evaluate`).
fn sort_depth(depth: u32, n: u32, failed_low: bool) -> Option<u32> {
    let min_depth = if n <= 27 { 9 + (30 - n) / 3 } else { 9 };
    if depth < min_depth.min(13) {
        return None;
    }
    let mut d = (depth as i32 - 15) / 3;
    if failed_low {
        d -= 2;
    }
    if n >= 27 {
        d += 1;
    }
    Some(d.clamp(0, 6) as u32)
}

/// Search state of one thread.
pub struct Worker<K: Kernel> {
    pub(crate) k: K,
    pub(crate) w: Arc<Weights>,
    /// Midgame table (bounds by draft and selectivity), shared by the threads.
    pub(crate) tt: Arc<Tt>,
    /// The exact solver for the leaves of endgame searches (its own shared table).
    pub(crate) eg: Search<K>,
    /// Nodes visited (midgame and solver).
    pub nodes: u64,
    /// Index of the current selectivity ([`NO_SELECTIVITY`] = no cuts).
    pub(crate) sel: u8,
    /// Abort flag (raised by the timer, the caller's stop or the node limit) and the hard
    /// time limit, also watched by the search itself in case the timer is starved.
    pub(crate) watch: Watch,
    /// Node budget of this worker (u64::MAX = none).
    pub(crate) node_limit: u64,
    /// Empties from which exact endgame nodes go to the solver ([`exact_handover`]).
    pub(crate) exact_handover: u32,
    /// Principal-variation nodes with at most this many empties are searched to the end
    /// ([`pv_extension`]; 0: none).
    pub(crate) pv_extension: u32,
}

/// Empties up to which the principal-variation nodes of a midgame iteration to `depth` plies
/// at a root of `root_empties` are searched to the end of the game instead of to their depth
/// (Edax's PV extension): none for shallow iterations (9 plies or less) and for endgame
/// stages, then 10, 12, 14 and 16 empties as the iteration deepens. The line the iteration
/// believes in is then resolved by the end of the game, not by the evaluation a few plies
/// before it.
pub(crate) fn pv_extension(depth: u32, root_empties: u32) -> u32 {
    match depth {
        _ if depth >= root_empties => 0,
        0..=9 => 0,
        10..=12 => 10,
        13..=18 => 12,
        19..=24 => 14,
        _ => 16,
    }
}

/// Empties up to which an exact endgame search below a root at `root_empties` hands over to
/// the solver: [`EXACT_HANDOVER`], or from [`DEEP_ROOT`] empties [`DEEP_EXACT_HANDOVER`] or
/// [`DEEP_HANDOVER_PLIES`] below the root, whichever is more. The solver's cheaper nodes
/// outweigh the midgame tree's better ordering two plies higher at 24-26 empties (FFO #45-49
/// −2.0 % nodes; below, #40-44 and the engine's own solves would pay +1 % and +7 %), and
/// deeper roots gain from handing over still higher: FFO #58 (30 empties) 3.28 G nodes at 18,
/// 2.57 G at 20, 2.06 G at 22, 1.87 G at 24, 1.91 G at 26; #57 (30) 3.07 G, 2.86 G, 2.75 G at
/// 22, 2.85 G at 24; but #45-49 (24-26) 705 M at 18, 763 M at 20, 882 M at 22. Never above
/// [`MAX_EXACT_HANDOVER`], the highest measured: the solver orders its nodes by a one-ply search
/// at most, too little for the top of a deeper tree.
pub(crate) fn exact_handover(root_empties: u32) -> u32 {
    if root_empties >= DEEP_ROOT {
        DEEP_EXACT_HANDOVER
            .max(root_empties - DEEP_HANDOVER_PLIES)
            .min(MAX_EXACT_HANDOVER)
    } else {
        EXACT_HANDOVER
    }
}

/// The highest hand-over of [`exact_handover`] (reached at 30 empties).
pub const MAX_EXACT_HANDOVER: u32 = 22;

/// Roots of more than [`DEEP_EXACT_HANDOVER`] + this many empties (27 and more) hand over to
/// the solver this many plies below the root (see [`exact_handover`]).
pub const DEEP_HANDOVER_PLIES: u32 = 8;

impl<K: Eval> Worker<K> {
    /// A worker on shared tables; the solver shares `abort` so one flag stops both.
    pub fn new(k: K, w: Arc<Weights>, tt: Arc<Tt>, eg_tt: Arc<Tt>, abort: Arc<AtomicBool>) -> Self {
        let mut eg = Search::with_tt(k, eg_tt);
        eg.watch = Watch::new(Arc::clone(&abort));
        eg.weights = Some(Arc::clone(&w));
        Worker {
            k,
            w,
            tt,
            eg,
            nodes: 0,
            sel: NO_SELECTIVITY,
            watch: Watch::new(abort),
            node_limit: u64::MAX,
            exact_handover: EXACT_HANDOVER,
            pv_extension: 0,
        }
    }

    /// Sets the hard deadline of this worker and its solver.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.watch.deadline = deadline;
        self.eg.watch.deadline = deadline;
    }

    /// True once the search must be abandoned (polled at every interior node).
    #[inline(always)]
    pub fn aborted(&self) -> bool {
        self.watch.aborted()
    }

    /// Counts a node at `n` empty squares in the node total (and in the
    /// [`node_stats`](crate::node_stats) counters where they are compiled in).
    #[inline(always)]
    fn visit(&mut self, n: u32) {
        self.nodes += 1;
        crate::node_stats::count(n);
    }

    /// Counts a node at `n` empties, enforces the node limit and polls the deadline; true
    /// when the search must stop.
    #[inline(always)]
    fn count_node(&mut self, n: u32) -> bool {
        self.visit(n);
        if self.nodes >= self.node_limit {
            self.watch.raise();
        }
        self.watch.poll()
    }

    /// Empties from which an endgame search at the current selectivity is left to the solver.
    #[inline(always)]
    fn handover(&self) -> u32 {
        if self.sel == NO_SELECTIVITY {
            self.exact_handover
        } else {
            // as the exact stage's hand-over rises above DEEP_EXACT_HANDOVER for deep roots, so
            // does the selective stages' (FFO #51-58: 25.78 G -> 25.19 G nodes)
            END_MPC_MIN + self.exact_handover.saturating_sub(DEEP_EXACT_HANDOVER)
        }
    }

    /// Whether a null-window node to `depth` plies at `n` empties may split its moves between
    /// threads: endgame nodes (exact or selective) above the solver's handover (deep enough
    /// that a thread start is small beside the work it takes).
    #[inline(always)]
    fn may_split(&self, depth: u32, n: u32) -> bool {
        depth >= n && n > self.handover() && self.eg.pool.is_some()
    }

    /// A copy for a helper thread at a split node: same tables, weights, selectivity and flags.
    fn helper(&self) -> Worker<K> {
        Worker {
            k: self.k,
            w: Arc::clone(&self.w),
            tt: Arc::clone(&self.tt),
            eg: self.eg.helper(),
            nodes: 0,
            sel: self.sel,
            watch: self.watch.share(),
            node_limit: u64::MAX,
            exact_handover: self.exact_handover,
            pv_extension: self.pv_extension,
        }
    }

    /// Static evaluation in discs.
    #[inline(always)]
    fn eval(&mut self, f: &Features, n: u32) -> i32 {
        self.visit(n);
        let s = self.k.evaluate(&self.w, f, n as usize);
        crate::eval::to_discs(s).clamp(-EVAL_BOUND, EVAL_BOUND)
    }
}

search_copies! {
    /// The entry points of the midgame search in kernel `K`'s copy: each runs the `Worker<K>`
    /// body of the same name compiled for `K` (see
    /// [`search_copies!`](crate::kernel::search_copies)). The bodies call each other through
    /// them, and `think`, `depth_scores` and the solver driver enter here.
    pub(crate) trait MidgameKernel: Eval {
        /// Exact null-window solve of a leaf by the endgame solver.
        fn solve_nws(w: &mut Worker<Self>, p: u64, o: u64, alpha: i32) -> i32;
        /// Exact principal-variation solve of a leaf by the endgame solver.
        fn solve_pvs(
            w: &mut Worker<Self>,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            pv: &mut Vec<Square>,
        ) -> i32;
        /// Depth 1 and 2 null-window search.
        fn nws_shallow(
            w: &mut Worker<Self>,
            p: u64,
            o: u64,
            f: &Features,
            alpha: i32,
            depth: u32,
            n: u32,
        ) -> i32;
        /// Orders `list` for a node searched to `depth` plies at `n` empties.
        #[allow(clippy::too_many_arguments)]
        fn order(
            w: &mut Worker<Self>,
            list: &mut MoveList,
            p: u64,
            o: u64,
            f: &Features,
            hash_moves: [u8; 2],
            failed_low: bool,
            depth: u32,
            n: u32,
            alpha: i32,
        );
        /// Multi-ProbCut: a score if a shallow search predicts a cut.
        fn probcut(
            w: &mut Worker<Self>,
            p: u64,
            o: u64,
            f: &Features,
            alpha: i32,
            depth: u32,
            n: u32,
        ) -> Option<i32>;
        /// Null-window search, window `alpha..alpha + 1`.
        fn nws(w: &mut Worker<Self>, p: u64, o: u64, f: &Features, alpha: i32, depth: u32)
            -> i32;
        /// A split node: `moves` shared with `helpers` threads of `pool`.
        #[allow(clippy::too_many_arguments)]
        fn split(
            w: &mut Worker<Self>,
            p: u64,
            o: u64,
            f: &Features,
            window: (i32, i32),
            depth: u32,
            moves: &[Move],
            helpers: usize,
            pool: &Pool,
        ) -> (i32, u8, Vec<Square>);
        /// One thread's share of a split node.
        fn split_worker(
            w: &mut Worker<Self>,
            p: u64,
            o: u64,
            f: &Features,
            depth: u32,
            shared: &Split<'_>,
        );
        /// Principal-variation search, window `alpha..beta`; fills `pv`.
        #[allow(clippy::too_many_arguments)]
        fn pvs(
            w: &mut Worker<Self>,
            p: u64,
            o: u64,
            f: &Features,
            alpha: i32,
            beta: i32,
            depth: u32,
            pv: &mut Vec<Square>,
        ) -> i32;
    }
}

/// The midgame's leaves, solved in the endgame solver's copy: the bodies of the
/// [`MidgameKernel`] entries `solve_nws` and `solve_pvs`, bounded by [`EndgameKernel`] alone
/// (its `pvs`, `nws` and `split` share their names with the midgame's, so no block names both).
impl<K: EndgameKernel> Worker<K> {
    /// Exact null-window solve of a position (leaf of an endgame search).
    #[inline(always)]
    fn solve_nws(&mut self, p: u64, o: u64, alpha: i32) -> i32 {
        let n0 = self.eg.nodes;
        self.eg.set_root(p, o);
        let s = K::nws_any(&mut self.eg, p, o, alpha);
        self.nodes += self.eg.nodes - n0;
        s
    }

    /// Exact principal-variation solve of a position.
    #[inline(always)]
    fn solve_pvs(&mut self, p: u64, o: u64, alpha: i32, beta: i32, pv: &mut Vec<Square>) -> i32 {
        let n0 = self.eg.nodes;
        self.eg.set_root(p, o);
        let s = K::pvs(&mut self.eg, p, o, alpha, beta, pv);
        self.nodes += self.eg.nodes - n0;
        s
    }
}

/// The midgame search, written once for every kernel: its bodies are `#[inline(always)]`, so
/// each inlines into the kernel's [`MidgameKernel`] entry of the same name and is compiled
/// with the kernel's features.
impl<K: MidgameKernel> Worker<K> {
    /// Depth 1 and 2 null-window search: no table, no ordering (Edax's `search_eval_1/2`).
    #[inline(always)]
    fn nws_shallow(&mut self, p: u64, o: u64, f: &Features, alpha: i32, depth: u32, n: u32) -> i32 {
        let k = self.k;
        self.visit(n);
        let mut moves = k.moves(p, o);
        if moves == 0 {
            if k.moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -K::nws_shallow(self, o, p, &f.pass(), -alpha - 1, depth, n);
        }
        let mut best = -SCORE_INF;
        while moves != 0 {
            let x = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let fl = k.flip(x, p, o);
            let (cp, co) = (o ^ fl, p ^ fl ^ bit(x));
            let cf = k.update(f, x, fl);
            let s = if depth == 1 {
                if cp == 0 {
                    64
                } else {
                    -self.eval(&cf, n - 1)
                }
            } else {
                -K::nws_shallow(self, cp, co, &cf, -alpha - 1, depth - 1, n - 1)
            };
            if s > best {
                best = s;
                if s > alpha {
                    break;
                }
            }
        }
        best
    }

    /// Scores the moves of `list` for a node searched to `depth` at `n` empties.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn order(
        &mut self,
        list: &mut MoveList,
        p: u64,
        o: u64,
        f: &Features,
        hash_moves: [u8; 2],
        failed_low: bool,
        depth: u32,
        n: u32,
        alpha: i32,
    ) {
        let k = self.k;
        match sort_depth(depth, n, failed_low) {
            None => {
                for m in list.as_mut_slice() {
                    m.score = score_move(k, p, o, m, hash_moves, 0);
                }
            }
            Some(sd) => {
                let sel = self.sel;
                self.sel = NO_SELECTIVITY;
                for m in list.as_mut_slice() {
                    let x = m.x as usize;
                    m.score = if m.flipped == o {
                        W_WIPEOUT
                    } else if m.x == hash_moves[0] {
                        W_HASH_1
                    } else if m.x == hash_moves[1] {
                        W_HASH_2
                    } else {
                        let (cp, co) = (o ^ m.flipped, p ^ m.flipped ^ bit(x));
                        let cf = k.update(f, x, m.flipped);
                        let replies = k.moves(cp, co);
                        let mob = (replies.count_ones()
                            + (replies & crate::bits::CORNERS).count_ones())
                            as i32;
                        let endgame = depth >= n;
                        let s = if sd == 0 {
                            -self.eval(&cf, n - 1)
                        } else {
                            // endgame: the moves below alpha - SORT_ALPHA_DELTA are all bad
                            // enough; a window cut there makes the sorting search cheaper
                            let hi = if endgame {
                                -(alpha - SORT_ALPHA_DELTA).max(-64)
                            } else {
                                64
                            };
                            let mut pv = Vec::new();
                            -K::pvs(self, cp, co, &cf, -64, hi, sd, &mut pv)
                        };
                        if endgame {
                            end_sort_score(s, sd, mob, potential_moves(co, cp))
                        } else {
                            (s + 64) * W_SHALLOW_SCORE + (36 - mob) * W_SHALLOW_MOBILITY
                        }
                    };
                }
                self.sel = sel;
            }
        }
    }

    /// Multi-ProbCut test at a null-window node: `Some(score)` when the shallow search
    /// (itself selective, as in Edax) predicts a cut with the current confidence.
    #[inline(always)]
    fn probcut(
        &mut self,
        p: u64,
        o: u64,
        f: &Features,
        alpha: i32,
        depth: u32,
        n: u32,
    ) -> Option<i32> {
        // no probable cut where the window asks whether one side is wiped out (alpha -64 or
        // 63): evaluations stop at EVAL_BOUND, so a shallow search cannot tell 63 from the 64
        // that only a real end of the game gives
        if !(-EVAL_BOUND..EVAL_BOUND).contains(&alpha) {
            return None;
        }
        let (d, fit) = if depth >= n {
            mpc::endgame(n)
        } else {
            mpc::midgame(depth, n)
        };
        let t = mpc::CONFIDENCE[self.sel as usize];
        let margin = t * fit.sigma;
        let beta = alpha + 1;
        // predicted deep score >= beta with confidence: shallow >= (beta + margin - b) / a
        let hi = ((beta as f32 + margin - fit.b) / fit.a).ceil() as i32;
        // what the shallow search is known to score at most (fail-soft: a failed high search
        // bounds it from above)
        let mut shallow_max = 64;
        if hi < 64 {
            let s = if d == 0 {
                self.eval(f, n)
            } else {
                K::nws(self, p, o, f, hi - 1, d)
            };
            if s >= hi {
                return Some(beta);
            }
            shallow_max = s;
        }
        // predicted deep score <= alpha with confidence: shallow <= (alpha - margin - b) / a
        let lo = ((alpha as f32 - margin - fit.b) / fit.a).floor() as i32;
        if lo <= -64 {
            return None;
        }
        // the failed high search's bound may already answer the low one
        let s = if shallow_max <= lo {
            shallow_max
        } else if d == 0 {
            self.eval(f, n)
        } else {
            K::nws(self, p, o, f, lo, d)
        };
        (s <= lo).then_some(alpha)
    }

    /// Null-window search (alpha, alpha + 1) to `depth` plies, fail-soft.
    #[inline(always)]
    fn nws(&mut self, p: u64, o: u64, f: &Features, alpha: i32, depth: u32) -> i32 {
        let k = self.k;
        let n = 64 - (p | o).count_ones();
        if depth >= n && n <= self.handover() {
            return K::solve_nws(self, p, o, alpha);
        }
        if depth == 0 {
            return self.eval(f, n);
        }
        if depth <= 2 && depth < n {
            return K::nws_shallow(self, p, o, f, alpha, depth, n);
        }
        if self.count_node(n) {
            return alpha;
        }
        let beta = alpha + 1;
        if alpha >= SC_THRESHOLD[n as usize] {
            let ub = stability_upper_bound(p, o);
            if ub <= alpha {
                return ub;
            }
        }
        let hash = k.hash(p, o);
        self.tt.prefetch(hash);
        let moves = k.moves(p, o);
        if moves == 0 {
            if k.moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -K::nws(self, o, p, &f.pass(), -beta, depth);
        }
        let mut hash_moves = [NO_MOVE; 2];
        let mut failed_low = false;
        if let Some(e) = self.tt.probe(hash, p, o) {
            if u32::from(e.depth) >= depth && e.selectivity >= self.sel {
                if e.lower >= beta {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
            }
            failed_low = e.upper < alpha;
            hash_moves = e.moves;
        }
        if self.sel < NO_SELECTIVITY && depth >= mpc::MIN_DEPTH {
            if let Some(s) = K::probcut(self, p, o, f, alpha, depth, n) {
                return s;
            }
        }
        let nodes0 = self.nodes;
        let mut list = MoveList::new(k, p, o, moves);
        K::order(
            self, &mut list, p, o, f, hash_moves, failed_low, depth, n, alpha,
        );
        // enhanced transposition cutoff (Edax's `search_ETC_NWS`): a child whose stored upper
        // bound, deep and selective enough, already refutes the window cuts this node
        if depth > ETC_MIN_DEPTH {
            // children the solver takes over have their exact bounds in its own table (keyed
            // as here: the solver's solid-disc keys start below any hand-over)
            let solved = depth >= n && n - 1 <= self.handover();
            let (tt, sel) = if solved {
                (&self.eg.tt, 0)
            } else {
                (&self.tt, self.sel)
            };
            for m in list.as_slice() {
                let x = m.x as usize;
                let (cp, co) = (o ^ m.flipped, p ^ m.flipped ^ bit(x));
                if let Some(e) = tt.probe(k.hash(cp, co), cp, co) {
                    if u32::from(e.depth) + 1 >= depth && e.selectivity >= sel && -e.upper >= beta {
                        let s = -e.upper;
                        self.tt
                            .store(hash, p, o, depth as u8, self.sel, alpha, beta, s, m.x, 0);
                        return s;
                    }
                }
            }
        }
        let mut best = -SCORE_INF;
        let mut best_move = NO_MOVE;
        let may_split = self.may_split(depth, n);
        for i in 0..list.len() {
            if let Some((pool, helpers)) = split::claim(&self.eg.pool, i, list.len(), may_split) {
                let rest = list.sorted_from(i);
                let window = (alpha, beta);
                let (s, x, _) = K::split(self, p, o, f, window, depth, rest, helpers, &pool);
                if s > best {
                    best = s;
                    best_move = x;
                }
                break;
            }
            let m = list.pick(i);
            let x = m.x as usize;
            let cf = k.update(f, x, m.flipped);
            let s = -K::nws(
                self,
                o ^ m.flipped,
                p ^ m.flipped ^ bit(x),
                &cf,
                -beta,
                depth - 1,
            );
            if s > best {
                best = s;
                best_move = m.x;
                if s >= beta {
                    break;
                }
            }
        }
        if self.aborted() {
            return alpha;
        }
        self.tt.store(
            hash,
            p,
            o,
            depth as u8,
            self.sel,
            alpha,
            beta,
            best,
            best_move,
            self.nodes - nodes0,
        );
        best
    }

    /// Searches `moves` (children of `p`/`o` with features `f`) to `depth` - 1 plies in the
    /// window `(alpha, beta)` with this thread and `helpers` more; returns the best score and
    /// move, and the move's line when it raised alpha.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn split(
        &mut self,
        p: u64,
        o: u64,
        f: &Features,
        (alpha, beta): (i32, i32),
        depth: u32,
        moves: &[Move],
        helpers: usize,
        pool: &Pool,
    ) -> (i32, u8, Vec<Square>) {
        let shared = Split::new(moves, alpha, beta);
        self.watch.enter_split(shared.cut_flag());
        self.eg.watch.enter_split(shared.cut_flag());
        let copies = (0..helpers).map(|_| self.helper()).collect();
        // the closures inherit this copy's target features
        let helper_nodes = split::run(
            pool,
            copies,
            || K::split_worker(self, p, o, f, depth, &shared),
            |mut h: Self| {
                K::split_worker(&mut h, p, o, f, depth, &shared);
                h.nodes
            },
        );
        self.watch.leave_split();
        self.eg.watch.leave_split();
        self.nodes += helper_nodes;
        shared.into_outcome()
    }

    /// One thread's share of a split node: takes moves until none is left or one cut. Each
    /// move gets a null-window search at the node's current alpha; at a principal-variation
    /// node a move that beats it is searched again with the window from the alpha of then.
    #[inline(always)]
    fn split_worker(&mut self, p: u64, o: u64, f: &Features, depth: u32, shared: &Split<'_>) {
        let beta = shared.beta();
        let mut line = Vec::new();
        while let Some(m) = shared.take() {
            let x = m.x as usize;
            let (cp, co) = (o ^ m.flipped, p ^ m.flipped ^ bit(x));
            let cf = self.k.update(f, x, m.flipped);
            let a = shared.alpha();
            let mut s = -K::nws(self, cp, co, &cf, -a - 1, depth - 1);
            line.clear();
            if s > a && s < beta && !self.aborted() {
                let a = shared.alpha();
                s = -K::pvs(self, cp, co, &cf, -beta, -a, depth - 1, &mut line);
            }
            // a search stopped by a cut (here or above) or the abort flag has no score
            if self.aborted() {
                break;
            }
            shared.record(s, m.x, &line);
        }
    }

    /// Principal-variation search with window (alpha, beta) to `depth` plies; fills `pv`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn pvs(
        &mut self,
        p: u64,
        o: u64,
        f: &Features,
        alpha: i32,
        beta: i32,
        depth: u32,
        pv: &mut Vec<Square>,
    ) -> i32 {
        let k = self.k;
        pv.clear();
        let n = 64 - (p | o).count_ones();
        let depth = if n <= self.pv_extension { n } else { depth };
        if depth >= n && n <= self.handover() {
            return K::solve_pvs(self, p, o, alpha, beta, pv);
        }
        if depth == 0 {
            return self.eval(f, n);
        }
        if self.count_node(n) {
            return alpha;
        }
        let moves = k.moves(p, o);
        if moves == 0 {
            if k.moves(o, p) == 0 {
                return final_score(p, o);
            }
            let mut child = Vec::new();
            let s = -K::pvs(self, o, p, &f.pass(), -beta, -alpha, depth, &mut child);
            pv.push(Square::PASS);
            pv.extend_from_slice(&child);
            return s;
        }
        let hash = k.hash(p, o);
        let mut hash_moves = [NO_MOVE; 2];
        let mut failed_low = false;
        if let Some(e) = self.tt.probe(hash, p, o) {
            hash_moves = e.moves;
            failed_low = e.upper < alpha;
        }
        let nodes0 = self.nodes;
        let mut list = MoveList::new(k, p, o, moves);
        K::order(
            self, &mut list, p, o, f, hash_moves, failed_low, depth, n, alpha,
        );
        let mut best = -SCORE_INF;
        let mut best_move = NO_MOVE;
        let mut a = alpha;
        let mut child = Vec::new();
        let may_split = self.may_split(depth, n);
        for i in 0..list.len() {
            if let Some((pool, helpers)) = split::claim(&self.eg.pool, i, list.len(), may_split) {
                let rest = list.sorted_from(i);
                let (s, x, line) = K::split(self, p, o, f, (a, beta), depth, rest, helpers, &pool);
                if self.aborted() {
                    return alpha;
                }
                if s > best {
                    best = s;
                    best_move = x;
                    if s > a {
                        set_pv(pv, x, &line);
                    }
                }
                break;
            }
            let m = list.pick(i);
            let x = m.x as usize;
            let (cp, co) = (o ^ m.flipped, p ^ m.flipped ^ bit(x));
            let cf = k.update(f, x, m.flipped);
            let s = if i == 0 {
                -K::pvs(self, cp, co, &cf, -beta, -a, depth - 1, &mut child)
            } else {
                let s = -K::nws(self, cp, co, &cf, -a - 1, depth - 1);
                // an aborted child looks like a fail high: never re-search it
                if s > a && s < beta && !self.aborted() {
                    -K::pvs(self, cp, co, &cf, -beta, -a, depth - 1, &mut child)
                } else {
                    s
                }
            };
            if self.aborted() {
                return alpha;
            }
            if s > best {
                best = s;
                best_move = m.x;
                if s > a {
                    a = s;
                    // `child` is this move's line only after a PV search (first move or re-search)
                    set_pv(pv, m.x, if i == 0 || s < beta { &child } else { &[] });
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.tt.store(
            hash,
            p,
            o,
            depth as u8,
            self.sel,
            alpha,
            beta,
            best,
            best_move,
            self.nodes - nodes0,
        );
        best
    }
}
