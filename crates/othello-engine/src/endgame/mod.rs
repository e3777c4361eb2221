//! Exact endgame search (Edax's `endgame.c` and the Edax-AVX notes on it), instantiated once per CPU kernel.
//!
//! Layers, from the leaves up:
//! - `solve_1`: last empty, scored with [`count_last_flip`] without making the move.
//! - `solve_2`, `solve_3`, `solve_4`: fixed loops over the last empties; `solve_4` and
//!   `solve_3` order them by quadrant parity (odd regions first).
//! - `shallow`: 5..=[`SHALLOW_DEPTH`] empties, moves from `get_moves`, odd quadrants first,
//!   forward-only updates of the empty list, stability cutoff, no hashing.
//! - `nws`: more empties; transposition table, enhanced transposition cutoff, stability cutoff
//!   and fastest-first move ordering.
//!
//! All are null-window (alpha, alpha + 1) and fail-soft. Scores are final disc differences
//! from the side to move, empties going to the winner.

pub(crate) mod empties;
pub(crate) mod last_flip;
mod local_tt;
mod root;

pub use root::{Mode, RootResult};

use crate::bits::{bit, NEIGHBOUR, QUADRANT_ID, QUADRANT_MASK};
use crate::eval::Eval;
use crate::eval::{Features, Weights};
use crate::kernel::{search_copies, Kernel};
use crate::moveorder::{Move, MoveList, REFUTED};
use crate::search::{final_score, SCORE_INF, SC_THRESHOLD};
use crate::split::{self, Pool, Split};
use crate::stability::{solid_discs, stability_upper_bound};
use crate::tt::{Tt, EXACT, NO_MOVE};
use crate::watch::Watch;
use empties::{Empties, HEAD};
use last_flip::count_last_flip;
use local_tt::{LocalTt, LOCAL_TT_DEPTH};
use ply_othello::Square;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Up to this many empties the hash-less `shallow` search is used (Edax-AVX's
/// `DEPTH_TO_SHALLOW_SEARCH`: 6). At 7 the thread-local table and fastest-first ordering of `nws`
/// save 18 % of the nodes for about 4 % more time per node (FFO #20-39 and #40-44).
pub const SHALLOW_DEPTH: u32 = 6;

/// Up to this many empties, solid opponent discs are normalised to the player's for hashing.
pub const SOLID_DEPTH: u32 = 9;

/// From this many empties on, the enhanced transposition cutoff probes every child. At 11 its
/// probes cost more time than the nodes they save: from 12, with the probes read after the
/// ordering, FFO #40-49 takes about 0.95x the CPU time of 11 for +0.001 % nodes (13: 0.97x,
/// +0.6 % nodes; 15: +3.2 % nodes).
pub const ETC_DEPTH: u32 = 12;

/// Score when the player to move plays the last empty `x` (or the opponent does after a pass,
/// or nobody can): Edax `endgame.c`, `board_score_1`. All other squares are occupied.
#[inline(always)]
pub fn solve_1(player: u64, x: usize) -> i32 {
    let score = 2 * player.count_ones() as i32 - 62;
    let n = count_last_flip(x, player) as i32;
    if n > 0 {
        return score + 2 * n;
    }
    let m = count_last_flip(x, !player & !bit(x)) as i32;
    if m > 0 {
        score - 2 - 2 * m
    } else if score > 0 {
        score
    } else {
        score - 2
    }
}

/// From this many empties on, a null-window node whose first move did not cut off may hand
/// its other moves to idle threads (young brothers wait: Edax's YBWC, `ybwc.c`).
pub const SPLIT_DEPTH: u32 = 16;

/// Search state of one thread: table, node counter, empties and parity.
pub struct Search<K: Kernel> {
    /// CPU kernel.
    pub(crate) k: K,
    /// Transposition table (shared between threads).
    pub tt: Arc<Tt>,
    /// This thread's small table for the nodes of up to [`LOCAL_TT_DEPTH`] empties.
    pub(crate) local: LocalTt,
    /// Helper threads, `None` for the sequential reference search.
    pub(crate) pool: Option<Arc<Pool>>,
    /// Nodes visited.
    pub nodes: u64,
    pub(crate) empties: Empties,
    pub(crate) parity: u32,
    pub(crate) n_empties: u32,
    /// Abort flag and deadline: the null-window layers with a table poll them, return at once
    /// without storing, and the caller discards the result.
    pub(crate) watch: Watch,
    /// Evaluation for move ordering at [`EVAL_SORT_DEPTH`] empties and more (issue 6).
    pub(crate) weights: Option<Arc<Weights>>,
}

/// From this many empties on, moves are ordered with the pattern evaluation of the child
/// (Edax `move.c`, `movelist_evaluate`: Edax sorts endgame moves by shallow midgame searches from about 14 empties).
pub const EVAL_SORT_DEPTH: u32 = 14;

/// From this many empties on, the ordering uses a one-ply search of the child instead.
pub const EVAL_SORT_DEPTH_1: u32 = 18;

impl<K: Kernel> Search<K> {
    /// A search on a shared table `tt` (e.g. the midgame search's endgame table).
    pub fn with_tt(k: K, tt: Arc<Tt>) -> Search<K> {
        Search {
            k,
            tt,
            local: LocalTt::new(),
            pool: None,
            nodes: 0,
            empties: Empties::new(0),
            parity: 0,
            n_empties: 0,
            watch: Watch::new(Arc::new(AtomicBool::new(false))),
            weights: None,
        }
    }

    /// Counts a node at `empties` empty squares in the node total (and in the
    /// [`node_stats`](crate::node_stats) counters where they are compiled in).
    #[inline(always)]
    pub(crate) fn visit(&mut self, empties: u32) {
        self.nodes += 1;
        crate::node_stats::count(empties);
    }

    /// True once the abort flag was raised: every result since is meaningless.
    #[inline(always)]
    pub fn aborted(&self) -> bool {
        self.watch.aborted()
    }

    /// A copy for a helper thread: same table, pool and position state, no nodes.
    pub(crate) fn helper(&self) -> Search<K> {
        Search {
            k: self.k,
            tt: Arc::clone(&self.tt),
            local: LocalTt::new(),
            pool: self.pool.clone(),
            nodes: 0,
            empties: self.empties.clone(),
            parity: self.parity,
            n_empties: self.n_empties,
            watch: self.watch.share(),
            weights: self.weights.clone(),
        }
    }

    /// Runs `search` with the empty square `x` played: taken out of the empty list and the
    /// quadrant parity for the call, put back after it.
    #[inline(always)]
    fn with_played<R>(&mut self, x: usize, search: impl FnOnce(&mut Self) -> R) -> R {
        self.empties.remove(x);
        self.parity ^= QUADRANT_ID[x];
        let r = search(self);
        self.parity ^= QUADRANT_ID[x];
        self.empties.restore(x);
        r
    }

    /// Prepares the empty list and parity for a root position.
    pub fn set_root(&mut self, player: u64, opponent: u64) {
        let empty = !(player | opponent);
        self.empties = Empties::new(empty);
        self.parity = empties::parity(empty);
        self.n_empties = empty.count_ones();
    }
}

/// The node of `solve_3` and `solve_4`: tries the empties of `moves` in order, each paired with
/// what its child needs (the empties left after it), and scores a legal one `x` by
/// `-child(search, player after x, opponent after x, rest)`. Returns the first score above
/// `alpha` (fail-soft cut), else the best; with no legal move, the final score if the opponent
/// has just passed, else `-pass(search)` (the opponent's score after a pass).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fixed_node<K: Kernel, R: Copy, const N: usize>(
    search: &mut Search<K>,
    p: u64,
    o: u64,
    alpha: i32,
    passed: bool,
    moves: [(usize, R); N],
    child: impl Fn(&mut Search<K>, u64, u64, R) -> i32,
    pass: impl FnOnce(&mut Search<K>) -> i32,
) -> i32 {
    let k = search.k;
    let mut best = -SCORE_INF;
    for (x, rest) in moves {
        if NEIGHBOUR[x] & o != 0 {
            let f = k.flip(x, p, o);
            if f != 0 {
                let s = -child(search, o ^ f, p ^ f ^ bit(x), rest);
                if s > alpha {
                    return s;
                }
                if s > best {
                    best = s;
                }
            }
        }
    }
    if best > -SCORE_INF {
        best
    } else if passed {
        final_score(p, o)
    } else {
        -pass(search)
    }
}

search_copies! {
    /// The entry points of the endgame solver and its root search in kernel `K`'s copy: each
    /// runs the `Search<K>` body of the same name compiled for `K` (see
    /// [`search_copies!`](crate::kernel::search_copies)). The bodies call each other through
    /// them, and callers ([`Solver`](crate::Solver), the midgame's leaves, tests) enter here.
    pub(crate) trait EndgameKernel: Eval {
        /// Two empties `x1`, `x2` left.
        fn solve_2(s: &mut Search<Self>, p: u64, o: u64, alpha: i32, x1: usize, x2: usize)
            -> i32;
        /// Three empties `x1`, `x2`, `x3` left.
        #[allow(clippy::too_many_arguments)]
        fn solve_3(
            s: &mut Search<Self>,
            p: u64,
            o: u64,
            alpha: i32,
            x1: usize,
            x2: usize,
            x3: usize,
            passed: bool,
        ) -> i32;
        /// Four empties, taken from the empty list.
        fn solve_4(s: &mut Search<Self>, p: u64, o: u64, alpha: i32, passed: bool) -> i32;
        /// 5..=[`SHALLOW_DEPTH`] empties, no table.
        fn shallow(s: &mut Search<Self>, p: u64, o: u64, alpha: i32, passed: bool) -> i32;
        /// Null-window solve at any number of empties (picks the layer).
        fn nws_any(s: &mut Search<Self>, p: u64, o: u64, alpha: i32) -> i32;
        /// Null-window solve with the tables (more than [`SHALLOW_DEPTH`] empties).
        fn nws(s: &mut Search<Self>, p: u64, o: u64, alpha: i32) -> i32;
        /// A split node: `moves` shared with `helpers` threads of `pool`.
        fn split(
            s: &mut Search<Self>,
            p: u64,
            o: u64,
            alpha: i32,
            moves: &[Move],
            helpers: usize,
            pool: &Pool,
        ) -> (i32, u8);
        /// One thread's share of a split node.
        fn split_worker(s: &mut Search<Self>, p: u64, o: u64, alpha: i32, shared: &Split<'_>);
        /// Principal-variation search of the root search (`root.rs`), window `alpha..beta`.
        fn pvs(
            s: &mut Search<Self>,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            pv: &mut Vec<Square>,
        ) -> i32;
        /// The whole root solve (`root.rs`).
        fn solve_root(s: &mut Search<Self>, p: u64, o: u64, mode: Mode) -> RootResult;
    }
}

/// The endgame solver, written once for every kernel: its bodies are `#[inline(always)]`, so
/// each inlines into the kernel's [`EndgameKernel`] entry of the same name and is compiled
/// with the kernel's features.
impl<K: EndgameKernel> Search<K> {
    /// Two empties `x1`, `x2` left.
    #[inline(always)]
    fn solve_2(&mut self, p: u64, o: u64, alpha: i32, x1: usize, x2: usize) -> i32 {
        let k = self.k;
        self.visit(2);
        let mut best = -SCORE_INF;
        if NEIGHBOUR[x1] & o != 0 {
            let f = k.flip(x1, p, o);
            if f != 0 {
                self.visit(1);
                best = -solve_1(o ^ f, x2);
                if best > alpha {
                    return best;
                }
            }
        }
        if NEIGHBOUR[x2] & o != 0 {
            let f = k.flip(x2, p, o);
            if f != 0 {
                self.visit(1);
                let s = -solve_1(o ^ f, x1);
                return if s > best { s } else { best };
            }
        }
        if best > -SCORE_INF {
            return best;
        }
        // pass: the opponent moves, we take the minimum
        let mut worst = SCORE_INF;
        if NEIGHBOUR[x1] & p != 0 {
            let f = k.flip(x1, o, p);
            if f != 0 {
                self.visit(1);
                worst = solve_1(p ^ f, x2);
                if worst <= alpha {
                    return worst;
                }
            }
        }
        if NEIGHBOUR[x2] & p != 0 {
            let f = k.flip(x2, o, p);
            if f != 0 {
                self.visit(1);
                let s = solve_1(p ^ f, x1);
                return if s < worst { s } else { worst };
            }
        }
        if worst < SCORE_INF {
            worst
        } else {
            final_score(p, o)
        }
    }

    /// Three empties; the one alone in its quadrant goes first.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn solve_3(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        x1: usize,
        x2: usize,
        x3: usize,
        passed: bool,
    ) -> i32 {
        self.visit(3);
        let parity = QUADRANT_ID[x1] ^ QUADRANT_ID[x2] ^ QUADRANT_ID[x3];
        let (x1, x2, x3) = if parity & QUADRANT_ID[x1] == 0 {
            if parity & QUADRANT_ID[x2] != 0 {
                (x2, x1, x3)
            } else {
                (x3, x1, x2)
            }
        } else {
            (x1, x2, x3)
        };
        fixed_node(
            self,
            p,
            o,
            alpha,
            passed,
            [(x1, (x2, x3)), (x2, (x1, x3)), (x3, (x1, x2))],
            |s, cp, co, (a, b)| K::solve_2(s, cp, co, -alpha - 1, a, b),
            |s| K::solve_3(s, o, p, -alpha - 1, x1, x2, x3, true),
        )
    }

    /// Four empties, taken from the empty list and sorted by parity (Edax `endgame.c`,
    /// `search_solve_4`): in a 2-1-1 split the two singletons first, in a 3-1 split the
    /// singleton first; otherwise the list order.
    #[inline(always)]
    fn solve_4(&mut self, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
        self.visit(4);
        if alpha >= SC_THRESHOLD[4] {
            let ub = stability_upper_bound(p, o);
            if ub <= alpha {
                return ub;
            }
        }
        let x1 = self.empties.first();
        let x2 = self.empties.next(x1);
        let x3 = self.empties.next(x2);
        let x4 = self.empties.next(x3);
        let parity = self.parity;
        let q = |x: usize| parity & QUADRANT_ID[x] != 0;
        let (x1, x2, x3, x4) = if !q(x1) {
            if q(x2) {
                if q(x3) {
                    (x2, x3, x1, x4)
                } else {
                    (x2, x4, x1, x3)
                }
            } else if q(x3) {
                (x3, x4, x1, x2)
            } else {
                (x1, x2, x3, x4)
            }
        } else if !q(x2) {
            if q(x3) {
                (x1, x3, x2, x4)
            } else {
                (x1, x4, x2, x3)
            }
        } else {
            // x1 and x2 in odd quadrants: 1-1-2 and 1-1-1-1 keep the list order; in a 3-1
            // split (all four odd) the singleton goes first (Edax 4.5.5: one empty before three)
            let (a, b, c, d) = (
                QUADRANT_ID[x1],
                QUADRANT_ID[x2],
                QUADRANT_ID[x3],
                QUADRANT_ID[x4],
            );
            if a == b && b == c && c != d {
                (x4, x1, x2, x3)
            } else if a == b && a == d && c != a {
                (x3, x1, x2, x4)
            } else if a == c && a == d && b != a {
                (x2, x1, x3, x4)
            } else {
                (x1, x2, x3, x4)
            }
        };
        fixed_node(
            self,
            p,
            o,
            alpha,
            passed,
            [
                (x1, (x2, x3, x4)),
                (x2, (x1, x3, x4)),
                (x3, (x1, x2, x4)),
                (x4, (x1, x2, x3)),
            ],
            |s, cp, co, (a, b, c)| K::solve_3(s, cp, co, -alpha - 1, a, b, c, false),
            |s| K::solve_4(s, o, p, -alpha - 1, true),
        )
    }

    /// 5..=SHALLOW_DEPTH empties: odd quadrants first, forward-only list updates.
    #[inline(always)]
    fn shallow(&mut self, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
        let k = self.k;
        self.visit(self.n_empties);
        if alpha >= SC_THRESHOLD[self.n_empties as usize] {
            let ub = stability_upper_bound(p, o);
            if ub <= alpha {
                return ub;
            }
        }
        let mut moves = k.moves(p, o);
        if moves == 0 {
            if passed {
                return final_score(p, o);
            }
            return -K::shallow(self, o, p, -alpha - 1, true);
        }
        let parity0 = self.parity;
        let mut prio = moves & QUADRANT_MASK[parity0 as usize];
        if prio == 0 {
            prio = moves;
        }
        let mut best = -SCORE_INF;
        self.n_empties -= 1;
        loop {
            let mut prev = HEAD;
            let mut x = self.empties.first();
            // the walk ends at the pass's last move, not at the list's end (every move is
            // an empty of the list)
            let mut left = prio;
            while left != 0 {
                if left & bit(x) != 0 {
                    left ^= bit(x);
                    let f = k.flip(x, p, o);
                    self.parity = parity0 ^ QUADRANT_ID[x];
                    self.empties.skip(prev, x);
                    let (cp, co) = (o ^ f, p ^ f ^ bit(x));
                    let s = if self.n_empties == 4 {
                        -K::solve_4(self, cp, co, -alpha - 1, false)
                    } else {
                        -K::shallow(self, cp, co, -alpha - 1, false)
                    };
                    self.empties.unskip(prev, x);
                    if s > alpha {
                        self.parity = parity0;
                        self.n_empties += 1;
                        return s;
                    }
                    if s > best {
                        best = s;
                    }
                }
                prev = x;
                x = self.empties.next(x);
            }
            moves ^= prio;
            prio = moves;
            if prio == 0 {
                break;
            }
        }
        self.parity = parity0;
        self.n_empties += 1;
        best
    }

    /// Null-window search at any number of empties: dispatches to the right layer.
    #[inline(always)]
    fn nws_any(&mut self, p: u64, o: u64, alpha: i32) -> i32 {
        match self.n_empties {
            0 => {
                self.visit(0);
                final_score(p, o)
            }
            1 => {
                self.visit(1);
                solve_1(p, self.empties.first())
            }
            2 => {
                let x1 = self.empties.first();
                let x2 = self.empties.next(x1);
                K::solve_2(self, p, o, alpha, x1, x2)
            }
            3 => {
                let x1 = self.empties.first();
                let x2 = self.empties.next(x1);
                let x3 = self.empties.next(x2);
                K::solve_3(self, p, o, alpha, x1, x2, x3, false)
            }
            4 => K::solve_4(self, p, o, alpha, false),
            n if n <= SHALLOW_DEPTH => K::shallow(self, p, o, alpha, false),
            _ => K::nws(self, p, o, alpha),
        }
    }

    /// Null-window search with the transposition table (more than SHALLOW_DEPTH empties).
    #[inline(always)]
    fn nws(&mut self, p: u64, o: u64, alpha: i32) -> i32 {
        let k = self.k;
        let n = self.n_empties;
        let beta = alpha + 1;
        self.visit(n);
        if self.watch.poll() {
            return alpha;
        }
        let nodes0 = self.nodes;
        // prefetch as early as possible: the bucket is needed only after move generation
        // Edax `endgame.c`, `NWS_endgame`: at few empties, opponent discs on four full lines ("solid") can never
        // flip nor take part in a flip; hash them as the player's, shifting the score
        let (hp, ho, ofs) = if n <= SOLID_DEPTH {
            let solid = solid_discs(p | o) & o;
            (p | solid, o ^ solid, 2 * solid.count_ones() as i32)
        } else {
            (p, o, 0)
        };
        let hash = k.hash(hp, ho);
        let local = n <= LOCAL_TT_DEPTH;
        if !local {
            self.tt.prefetch(hash);
        }
        if alpha >= SC_THRESHOLD[n as usize] {
            let ub = stability_upper_bound(p, o);
            if ub <= alpha {
                return ub;
            }
        }
        let moves = k.moves(p, o);
        if moves == 0 {
            if k.moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -K::nws(self, o, p, -beta);
        }
        // the flips are computed while the prefetched bucket arrives (Edax `hash_prefetch`)
        let mut list = MoveList::new(k, p, o, moves);
        let mut hash_moves = [NO_MOVE; 2];
        if local {
            if let Some(e) = self.local.probe(hash, hp, ho) {
                if e.lower - ofs >= beta {
                    return e.lower - ofs;
                }
                if e.upper - ofs <= alpha {
                    return e.upper - ofs;
                }
                hash_moves[0] = e.best;
            }
        } else if let Some(e) = self.tt.probe(hash, hp, ho) {
            // only an exact entry may cut here: the selective endgame stages store their
            // Multi-ProbCut results in the same table
            if u32::from(e.depth) >= n && e.selectivity >= EXACT {
                if e.lower - ofs >= beta {
                    return e.lower - ofs;
                }
                if e.upper - ofs <= alpha {
                    return e.upper - ofs;
                }
            }
            hash_moves = e.moves;
        }
        let mut best = -SCORE_INF;
        let mut best_move = NO_MOVE;
        let mut refuted = 0u64;
        // enhanced transposition cutoff: the children's buckets are fetched now and read
        // after the fastest-first scores are computed, which hides the memory latency
        // (each child's hash is computed again for its probe rather than kept in an array)
        let etc = n >= ETC_DEPTH;
        if etc {
            for m in list.as_slice() {
                let x = m.x as usize;
                self.tt
                    .prefetch(k.hash(o ^ m.flipped, p ^ m.flipped ^ bit(x)));
            }
        }
        // a lone move needs no order (Edax `NWS_endgame`: `n_moves > 1`)
        if list.len() > 1 {
            list.evaluate(k, p, o, hash_moves, self.parity);
        }
        if etc {
            for m in list.as_slice() {
                let x = m.x as usize;
                let (cp, co) = (o ^ m.flipped, p ^ m.flipped ^ bit(x));
                if let Some(e) = self.tt.probe(k.hash(cp, co), cp, co) {
                    if u32::from(e.depth) >= n - 1 {
                        if -e.upper >= beta {
                            return -e.upper;
                        }
                        // the move is known to fail low: skip it, keep its bound
                        if -e.lower <= alpha {
                            refuted |= bit(x);
                            if -e.lower > best {
                                best = -e.lower;
                                best_move = m.x;
                            }
                        }
                    }
                }
            }
        }
        if n >= EVAL_SORT_DEPTH && list.len() > 1 {
            if let Some(w) = &self.weights {
                // the children's features are updates of this node's
                let f = Features::new(p, o);
                if n >= EVAL_SORT_DEPTH_1 {
                    // one ply: the opponent's best reply by evaluation
                    list.add_evaluation(
                        |m| {
                            let x = m.x as usize;
                            let (cp, co) = (o ^ m.flipped, p ^ m.flipped ^ bit(x));
                            let cf = k.update(&f, x, m.flipped);
                            let mut replies = k.moves(cp, co);
                            if replies == 0 {
                                return -k.evaluate(w, &cf.pass(), n as usize - 1);
                            }
                            let mut best = -SCORE_INF * 128;
                            while replies != 0 {
                                let y = replies.trailing_zeros() as usize;
                                replies &= replies - 1;
                                let f = k.flip(y, cp, co);
                                best =
                                    best.max(-k.evaluate(w, &k.update(&cf, y, f), n as usize - 2));
                            }
                            best
                        },
                        1,
                    );
                } else {
                    list.add_evaluation(
                        |m| k.evaluate(w, &k.update(&f, m.x as usize, m.flipped), n as usize - 1),
                        2,
                    );
                }
            }
        }
        if refuted != 0 {
            list.demote(refuted);
        }
        self.n_empties -= 1;
        let may_split = n >= SPLIT_DEPTH;
        for i in 0..list.len() {
            if let Some((pool, helpers)) = split::claim(&self.pool, i, list.len(), may_split) {
                let rest = list.sorted_from(i);
                let rest = &rest[..rest.iter().take_while(|m| m.score != REFUTED).count()];
                let (s, x) = K::split(self, p, o, alpha, rest, helpers, &pool);
                if s > best {
                    best = s;
                    best_move = x;
                }
                break;
            }
            let m = list.pick(i);
            if m.score == REFUTED {
                break;
            }
            let x = m.x as usize;
            let s = -self.with_played(x, |s| {
                K::nws_any(s, o ^ m.flipped, p ^ m.flipped ^ bit(x), -beta)
            });
            if s > best {
                best = s;
                best_move = m.x;
                if s >= beta {
                    break;
                }
            }
        }
        self.n_empties += 1;
        if self.aborted() {
            return best;
        }
        if local {
            self.local
                .store(hash, hp, ho, alpha + ofs, beta + ofs, best + ofs, best_move);
        } else {
            self.tt.store(
                hash,
                hp,
                ho,
                n as u8,
                EXACT,
                alpha + ofs,
                beta + ofs,
                best + ofs,
                best_move,
                self.nodes - nodes0,
            );
        }
        best
    }

    /// Searches `moves` (children of `p`/`o`, empties already counted down) with this
    /// thread and `helpers` more; returns the best score and move.
    #[inline(always)]
    fn split(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        moves: &[Move],
        helpers: usize,
        pool: &Pool,
    ) -> (i32, u8) {
        let shared = Split::new(moves, alpha, alpha + 1);
        self.watch.enter_split(shared.cut_flag());
        let copies = (0..helpers).map(|_| self.helper()).collect();
        // the closures inherit this copy's target features
        let helper_nodes = split::run(
            pool,
            copies,
            || K::split_worker(self, p, o, alpha, &shared),
            |mut h: Self| {
                K::split_worker(&mut h, p, o, alpha, &shared);
                h.nodes
            },
        );
        self.watch.leave_split();
        self.nodes += helper_nodes;
        shared.result()
    }

    /// One thread's share of a split node: takes moves until none is left or one cut.
    #[inline(always)]
    fn split_worker(&mut self, p: u64, o: u64, alpha: i32, shared: &Split<'_>) {
        let beta = alpha + 1;
        while let Some(m) = shared.take() {
            let x = m.x as usize;
            let s = -self.with_played(x, |s| {
                K::nws_any(s, o ^ m.flipped, p ^ m.flipped ^ bit(x), -beta)
            });
            // a search stopped by a cut (here or above) or the abort flag has no score
            if self.aborted() {
                break;
            }
            shared.record(s, m.x, &[]);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::kernel::{with_kernel, Cpu, Portable};
    use ply_testkit::XorShift64;

    /// Plain negamax over all moves: the reference.
    pub(crate) fn minimax<K: Kernel>(k: K, p: u64, o: u64, passed: bool) -> i32 {
        let moves = k.moves(p, o);
        if moves == 0 {
            return if passed {
                final_score(p, o)
            } else {
                -minimax(k, o, p, true)
            };
        }
        let mut best = -SCORE_INF;
        let mut m = moves;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = k.flip(x, p, o);
            best = best.max(-minimax(k, o ^ f, p ^ f ^ bit(x), false));
        }
        best
    }

    /// Random position with `empties` empties reached by random play (moves drawn from `rng`).
    pub fn random_position<K: Kernel>(k: K, rng: &mut XorShift64, empties: u32) -> (u64, u64) {
        loop {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            loop {
                if 64 - (p | o).count_ones() == empties {
                    return (p, o);
                }
                let moves = k.moves(p, o);
                if moves == 0 {
                    if k.moves(o, p) == 0 {
                        break;
                    }
                    std::mem::swap(&mut p, &mut o);
                    continue;
                }
                let x = rng.pick_bit(moves);
                let f = k.flip(x, p, o);
                (p, o) = (o ^ f, p ^ f ^ bit(x));
            }
        }
    }

    fn check_kernel<K: EndgameKernel>(k: K) {
        let mut rng = XorShift64::new(0x1234_5678_9abc_def1);
        let mut search = Search::with_tt(k, Arc::new(crate::tt::Tt::new(4)));
        for empties in 1..=10u32 {
            let count = match empties {
                0..=7 => 200,
                8 => 40,
                9 => 15,
                _ => 6,
            };
            for _ in 0..count {
                let (p, o) = random_position(k, &mut rng, empties);
                let exact = minimax(k, p, o, false);
                for alpha in [exact - 3, exact - 2, exact - 1, exact, exact + 1, exact + 2] {
                    if !(-64..64).contains(&alpha) {
                        continue;
                    }
                    search.set_root(p, o);
                    let s = K::nws_any(&mut search, p, o, alpha);
                    if exact > alpha {
                        assert!(
                            s > alpha && s <= exact,
                            "fail high {s} vs {exact}, alpha {alpha}, p={p:#x} o={o:#x}"
                        );
                    } else {
                        assert!(
                            s <= alpha && s >= exact,
                            "fail low {s} vs {exact}, alpha {alpha}, p={p:#x} o={o:#x}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn null_window_solvers_match_minimax_portable() {
        check_kernel(Portable);
    }

    #[test]
    fn null_window_solvers_match_minimax_best_kernel() {
        let cpu = Cpu::detect();
        eprintln!("kernel: {}", cpu.name());
        with_kernel!(cpu, |k| check_kernel(k));
    }

    #[test]
    fn solve_1_matches_minimax() {
        let mut rng = XorShift64::new(77);
        for _ in 0..2000 {
            let (p, o) = random_position(Portable, &mut rng, 1);
            let x = (!(p | o)).trailing_zeros() as usize;
            assert_eq!(solve_1(p, x), minimax(Portable, p, o, false));
        }
    }
}
