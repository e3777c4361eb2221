//! The root of the search: the schedule of iterations (midgame depths, then the endgame on
//! increasing selectivity as Edax does), aspiration windows, all-moves scoring, the timer,
//! Lazy-SMP helper threads sharing the tables for the midgame iterations and the split pool
//! (young brothers wait) for the endgame stages.

use super::level::{level, DEFAULT_LEVEL, MAX_LEVEL, NO_SELECTIVITY, SELECTIVITIES};
use super::time::{budget, run_timer, Budget};
use super::worker::{exact_handover, pv_extension, MidgameKernel, Worker};
use crate::bits::bit;
use crate::eval::{Features, Weights};
use crate::moveorder::{score_move, MoveList};
use crate::platform::Instant;
use crate::request::{Info, Limits, MoveScore, Outcome};
use crate::search::{final_score, square, SCORE_INF};
use crate::split::Pool;
use crate::tt::{Tt, NO_MOVE};
use ply_othello::Square;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

/// Up to this many empties an endgame search goes straight to the exact solver stage after a
/// few midgame iterations (the solver is faster there than selective searches). From 20
/// empties a 73 % probable-cut stage comes first, as in Edax (which runs one even at 20): its
/// hash moves order the exact stage, and FFO #20-39's 20- and 21-empty positions need 21 %
/// fewer nodes (63.3 M to 50.1 M; FFO #40 12.7 M to 9.3 M, Edax's count). From 18 it gains
/// nothing (18-19 empties: 5.95 M to 5.85 M nodes, more time).
pub(crate) const DIRECT_SOLVE: u32 = 19;

/// Midgame iterations stop this many plies short of the end before the selective endgame
/// stages (and [`DIRECT_GAP`] plies short before a direct exact solve).
const ENDGAME_GAP: u32 = 8;

/// See [`ENDGAME_GAP`].
const DIRECT_GAP: u32 = 12;

/// How many selective endgame stages (73 %, 87 %, 95 %, ...) precede the exact one at `n`
/// empties (Edax's rule for jumping to the exact search).
fn selective_stages(n: u32) -> u8 {
    match n {
        0..=20 => 1,
        21..=29 => 2,
        _ => NO_SELECTIVITY,
    }
}

/// A timed search enters its first endgame stage only with this fraction of the soft budget
/// still unused (an endgame stage costs many midgame iterations).
const ENDGAME_START: u32 = 6;

/// A midgame score at least this large (the evaluation's bound) counts as decided, see
/// [`DECIDED_SKIP`].
const DECIDED: i32 = 63;

/// Once an iteration less than this many plies short of the last midgame one has a decided
/// score, the other midgame iterations are skipped before an endgame search.
const DECIDED_SKIP: u32 = 10;

/// Half-width of the first aspiration window (discs).
const ASPIRATION: i32 = 3;

/// What the engine shares with one call of [`think`].
pub(crate) struct Context<'a> {
    pub weights: &'a Arc<Weights>,
    pub mid_tt: &'a Arc<Tt>,
    pub eg_tt: &'a Arc<Tt>,
    pub threads: usize,
}

/// One iteration: depth (the number of empties for endgame stages), selectivity index and
/// whether only win/draw/loss is wanted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    /// Depth in plies.
    pub depth: u32,
    /// Index in [`SELECTIVITIES`].
    pub sel: u8,
    /// Win/draw/loss window only.
    pub wld: bool,
}

/// The iterations of a search of a position with `n` empties under `limits`.
pub fn schedule(limits: &Limits, n: u32) -> Vec<Stage> {
    let untimed = limits.clock.is_none() && limits.move_time.is_none() && limits.nodes.is_none();
    let lvl = match (limits.level, limits.depth) {
        (Some(l), _) => l,
        (None, None) if untimed => DEFAULT_LEVEL,
        _ => MAX_LEVEL,
    };
    let lv = level(lvl);
    let mid_max = limits
        .depth
        .map_or(u32::from(lv.mid_depth), u32::from)
        .max(1);
    // a fixed depth without a level only reaches the end when it is that deep
    let (exact_from, wld_from) = match (limits.level, limits.depth) {
        (None, Some(d)) => (u32::from(d), u32::from(d)),
        _ => (u32::from(lv.exact_depth), u32::from(lv.wld_depth)),
    };
    let end = if n <= exact_from {
        Some(false)
    } else if n <= wld_from {
        Some(true)
    } else {
        None
    };
    let mut stages = Vec::new();
    match end {
        None => {
            for d in 1..=mid_max.min(n.saturating_sub(1)).max(1) {
                stages.push(Stage {
                    depth: d,
                    sel: lv.mid_selectivity,
                    wld: false,
                });
            }
        }
        Some(wld) => {
            let gap = if n <= DIRECT_SOLVE {
                DIRECT_GAP
            } else {
                ENDGAME_GAP
            };
            let mid = mid_max.min(n.saturating_sub(gap).max(1));
            for d in 1..=mid {
                stages.push(Stage {
                    depth: d,
                    sel: lv.mid_selectivity,
                    wld: false,
                });
            }
            if n > DIRECT_SOLVE {
                for sel in 0..selective_stages(n) {
                    stages.push(Stage {
                        depth: n,
                        sel,
                        wld: false,
                    });
                }
            }
            stages.push(Stage {
                depth: n,
                sel: NO_SELECTIVITY,
                wld,
            });
        }
    }
    stages
}

/// A root move and what the last iteration learnt of it.
#[derive(Clone, Debug)]
struct RootMove {
    x: u8,
    flipped: u64,
    score: i32,
    pv: Vec<Square>,
}

/// Result of one completed iteration.
#[derive(Clone, Debug)]
struct Iteration {
    score: i32,
    pv: Vec<Square>,
    moves: Vec<MoveScore>,
}

/// The root position.
struct Root {
    p: u64,
    o: u64,
    f: Features,
    n: u32,
}

/// Searches one root move to `depth - 1` with window (alpha, beta) from the mover's view.
#[allow(clippy::too_many_arguments)]
fn search_move<K: MidgameKernel>(
    w: &mut Worker<K>,
    root: &Root,
    m: &RootMove,
    alpha: i32,
    beta: i32,
    depth: u32,
    pv: &mut Vec<Square>,
    null: bool,
) -> i32 {
    let x = m.x as usize;
    let (cp, co) = (root.o ^ m.flipped, root.p ^ m.flipped ^ bit(x));
    let cf = w.k.update(&root.f, x, m.flipped);
    if null {
        -K::nws(w, cp, co, &cf, -alpha - 1, depth - 1)
    } else {
        -K::pvs(w, cp, co, &cf, -beta, -alpha, depth - 1, pv)
    }
}

/// Principal-variation search of the root moves with window (alpha, beta); the best move
/// goes to the front. `None` when aborted.
#[allow(clippy::needless_range_loop)]
fn root_pvs<K: MidgameKernel>(
    w: &mut Worker<K>,
    root: &Root,
    moves: &mut [RootMove],
    alpha: i32,
    beta: i32,
    depth: u32,
) -> Option<i32> {
    let mut best = -SCORE_INF;
    let mut best_i = 0;
    let mut a = alpha;
    let mut pv = Vec::new();
    for i in 0..moves.len() {
        let mut s = if i == 0 {
            search_move(w, root, &moves[i], a, beta, depth, &mut pv, false)
        } else {
            search_move(w, root, &moves[i], a, beta, depth, &mut pv, true)
        };
        if i > 0 && s > a && s < beta && !w.aborted() {
            s = search_move(w, root, &moves[i], a, beta, depth, &mut pv, false);
        }
        if w.aborted() {
            return None;
        }
        if s > best {
            best = s;
            best_i = i;
            if s > a {
                a = s;
                moves[i].pv.clear();
                moves[i].pv.push(square(moves[i].x));
                moves[i].pv.extend_from_slice(&pv);
            }
        }
        moves[i].score = s;
        if s >= beta {
            break;
        }
    }
    moves[..=best_i].rotate_right(1);
    Some(best)
}

/// One iteration at `stage`: aspiration around `guess`, or every move with a full window.
fn iterate<K: MidgameKernel>(
    w: &mut Worker<K>,
    root: &Root,
    moves: &mut [RootMove],
    stage: Stage,
    guess: i32,
    all: bool,
) -> Option<Iteration> {
    w.sel = stage.sel;
    let depth = stage.depth;
    w.pv_extension = pv_extension(depth, root.n);
    let exact = stage.sel == NO_SELECTIVITY && depth >= root.n;
    let ms = |m: &RootMove| MoveScore {
        square: square(m.x),
        score: m.score,
        depth: depth as u8,
        selectivity: SELECTIVITIES[stage.sel as usize],
        exact: exact && !stage.wld,
        pv: m.pv.clone(),
    };
    if all {
        let (lo, hi) = if stage.wld { (-1, 1) } else { (-64, 64) };
        let mut pv = Vec::new();
        for m in moves.iter_mut() {
            let s = search_move(w, root, m, lo, hi, depth, &mut pv, false);
            if w.aborted() {
                return None;
            }
            m.score = s;
            m.pv.clear();
            m.pv.push(square(m.x));
            m.pv.extend_from_slice(&pv);
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        return Some(Iteration {
            score: moves[0].score,
            pv: moves[0].pv.clone(),
            moves: moves.iter().map(ms).collect(),
        });
    }
    let score = if stage.wld {
        root_pvs(w, root, moves, -1, 1, depth)?
    } else {
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = ((guess - delta).max(-64), (guess + delta).min(64));
        // The window only widens: a fail moves its own bound out and leaves the other where it
        // is, so the re-searches end (at the latest with the full window) even when the table
        // makes the search unstable. (Narrowing the other bound to the failed score let an
        // unstable search fail low and high in turn for ever: a hang seen in self-play.)
        loop {
            let s = root_pvs(w, root, moves, alpha, beta, depth)?;
            if s <= alpha && alpha > -64 {
                delta = (delta * 3).min(128);
                alpha = (s - delta).max(-64);
            } else if s >= beta && beta < 64 {
                delta = (delta * 3).min(128);
                beta = (s + delta).min(64);
            } else {
                break s;
            }
        }
    };
    Some(Iteration {
        score,
        pv: moves[0].pv.clone(),
        moves: Vec::new(),
    })
}

/// Callback of the main thread after each completed iteration (stage, result, nodes).
type Report<'a> = dyn FnMut(Stage, &Iteration, u64) + 'a;

/// The iterations of one thread. The main thread (`report` set) reports and stops at the soft
/// budget, and raises `helpers_abort` before the first stage the helpers do not share; helpers
/// run until their abort flag is raised.
#[allow(clippy::too_many_arguments)]
fn run<K: MidgameKernel>(
    w: &mut Worker<K>,
    root: &Root,
    moves: &mut [RootMove],
    stages: &[Stage],
    all: bool,
    start: Instant,
    soft: Option<Duration>,
    mut report: Option<&mut Report<'_>>,
    helpers_abort: Option<&AtomicBool>,
) -> Option<(Stage, Iteration)> {
    let mut last: Option<(Stage, Iteration)> = None;
    let mid_end = stages.iter().map(|s| s.depth).filter(|&d| d < root.n).max();
    let ends_in_endgame = stages.last().is_some_and(|s| s.depth >= root.n);
    for (i, &stage) in stages.iter().enumerate() {
        // before an endgame search, a decided score (a side wins by the evaluation's bound)
        // ends the midgame iterations and skips the selective endgame ones (Edax)
        let decided = last.as_ref().is_some_and(|l| {
            l.1.score.abs() >= DECIDED && mid_end.is_some_and(|e| l.0.depth + DECIDED_SKIP > e)
        });
        if decided
            && i + 1 < stages.len()
            && ends_in_endgame
            && (stage.depth < root.n || stage.sel < NO_SELECTIVITY)
        {
            continue;
        }
        // iterations grow about threefold; the first endgame stage far more
        let factor = if stage.depth >= root.n && i > 0 && stages[i - 1].depth < root.n {
            ENDGAME_START
        } else {
            2
        };
        if i > 0 && soft.is_some_and(|s| start.elapsed() * factor >= s) {
            break;
        }
        // the helpers' iterations would only compete with the split threads from here on
        if let Some(flag) = helpers_abort.filter(|_| !lazy_stage(&stage, root.n)) {
            flag.store(true, Relaxed);
        }
        let guess = last.as_ref().map_or(0, |l| l.1.score);
        let Some(it) = iterate(w, root, moves, stage, guess, all) else {
            break;
        };
        crate::node_stats::end_stage((stage.depth as u8, SELECTIVITIES[stage.sel as usize]));
        if let Some(r) = report.as_mut() {
            r(stage, &it, w.nodes);
        }
        last = Some((stage, it));
    }
    last
}

/// What a search of the position after a forced pass reports, seen from the side that
/// passed: the score negated, the pass in front of the variation and, in all-moves searches,
/// the pass as the only root move.
fn after_pass(
    score: &mut i32,
    pv: &mut Vec<Square>,
    moves: &mut Vec<MoveScore>,
    (depth, selectivity, exact): (u8, u8, bool),
    all_moves: bool,
) {
    *score = -*score;
    pv.insert(0, Square::PASS);
    moves.clear();
    if all_moves {
        moves.push(MoveScore {
            square: Square::PASS,
            score: *score,
            depth,
            selectivity,
            exact,
            pv: pv.clone(),
        });
    }
}

/// `Engine::think` for kernel `k`: with no legal move the game's end, a pass or a search after
/// the pass; else the iterations over the ordered root moves, on this thread and
/// `ctx.threads - 1` helpers.
pub(crate) fn think<K: MidgameKernel>(
    k: K,
    ctx: &Context<'_>,
    p: u64,
    o: u64,
    limits: &Limits,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> Outcome {
    let start = Instant::now();
    let n = 64 - (p | o).count_ones();
    let legal = k.moves(p, o);
    let moves = match limits.search_moves {
        Some(mask) if legal & mask != 0 => legal & mask,
        _ => legal,
    };
    if moves == 0 {
        if let Some(out) = without_search(k, ctx, p, o, limits, start) {
            return out;
        }
        // analysis of a position whose mover must pass: search the position after the pass
        // and report it from the mover's side
        let all = limits.all_moves;
        let mut relay = |info: &Info| {
            let mut info = info.clone();
            let how = (info.depth, info.selectivity, info.exact);
            after_pass(&mut info.score, &mut info.pv, &mut info.moves, how, all);
            on_info(&info);
        };
        let mut after = think(k, ctx, o, p, limits, stop, &mut relay);
        let how = (after.depth, after.selectivity, after.exact);
        after_pass(&mut after.score, &mut after.pv, &mut after.moves, how, all);
        after.best = Square::PASS;
        after.elapsed = start.elapsed();
        return after;
    }
    let mut root_moves = ordered_root_moves(k, p, o, moves);
    // the answer if even depth 1 is stopped
    let first = root_moves[0].x;
    let root = Root {
        p,
        o,
        f: Features::new(p, o),
        n,
    };
    let stages = schedule(limits, n);
    let b = budget(limits, n);
    ctx.mid_tt.new_search();
    ctx.eg_tt.new_search();

    let abort = Arc::new(AtomicBool::new(false));
    let mut main = main_worker(k, ctx, &abort, limits, b.hard.map(|h| start + h));
    main.exact_handover = exact_handover(root.n);
    let mut report = |stage: Stage, it: &Iteration, nodes: u64| {
        on_info(&Info {
            depth: stage.depth as u8,
            selectivity: SELECTIVITIES[stage.sel as usize],
            score: it.score,
            exact: is_exact(stage, n),
            pv: it.pv.clone(),
            nodes,
            elapsed: start.elapsed(),
            moves: it.moves.clone(),
        });
    };
    let threads = Threads {
        ctx,
        root: &root,
        stages: &stages,
        start,
        budget: &b,
        stop,
        abort: &abort,
    };
    let (result, helper_nodes) =
        threads.search(&mut main, &mut root_moves, limits.all_moves, &mut report);
    let mut out = match result {
        Some((stage, it)) => Outcome {
            best: it.pv.first().copied().unwrap_or(square(root_moves[0].x)),
            score: it.score,
            depth: stage.depth as u8,
            selectivity: SELECTIVITIES[stage.sel as usize],
            exact: is_exact(stage, n),
            pv: it.pv,
            moves: it.moves,
            ..no_outcome()
        },
        None => Outcome {
            best: square(first),
            pv: vec![square(first)],
            ..no_outcome()
        },
    };
    out.nodes = main.nodes + helper_nodes;
    out.elapsed = start.elapsed();
    out
}

/// The outcome before any search: no move, no score, nothing proven, no time spent.
fn no_outcome() -> Outcome {
    Outcome {
        best: Square::PASS,
        score: 0,
        depth: 0,
        selectivity: 100,
        exact: false,
        pv: Vec::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
        moves: Vec::new(),
    }
}

/// Whether an iteration at `stage` proves the score of a position with `n` empties.
fn is_exact(stage: Stage, n: u32) -> bool {
    stage.sel == NO_SELECTIVITY && stage.depth >= n && !stage.wld
}

/// [`think`]'s answer when the mover has no legal move and nothing is to be searched: the
/// final score at the end of the game, an immediate pass in a timed game.
fn without_search<K: MidgameKernel>(
    k: K,
    ctx: &Context<'_>,
    p: u64,
    o: u64,
    limits: &Limits,
    start: Instant,
) -> Option<Outcome> {
    let n = 64 - (p | o).count_ones();
    let mut out = no_outcome();
    if k.moves(o, p) == 0 {
        out.score = final_score(p, o);
        out.exact = true;
        out.depth = n as u8;
    } else if limits.clock.is_some() {
        // a forced pass in a game: no decision to make, so no clock time to spend
        out.score =
            -crate::eval::to_discs(k.evaluate(ctx.weights, &Features::new(o, p), n as usize));
        out.pv.push(Square::PASS);
    } else {
        return None;
    }
    out.elapsed = start.elapsed();
    Some(out)
}

/// The root moves of `p` (legal `moves`), best mobility-ordering score first, each with
/// itself as its variation.
fn ordered_root_moves<K: MidgameKernel>(k: K, p: u64, o: u64, moves: u64) -> Vec<RootMove> {
    let mut list = MoveList::new(k, p, o, moves);
    for m in list.as_mut_slice() {
        m.score = score_move(k, p, o, m, [NO_MOVE; 2], 0);
    }
    let mut root_moves: Vec<RootMove> = list
        .as_slice()
        .iter()
        .map(|m| RootMove {
            x: m.x,
            flipped: m.flipped,
            score: m.score,
            pv: vec![square(m.x)],
        })
        .collect();
    root_moves.sort_by_key(|m| std::cmp::Reverse(m.score));
    root_moves
}

/// The main thread's worker: the engine's tables, the abort flag `abort`, the node limit and
/// the `deadline`, and with helper threads the exact solver's split pool.
fn main_worker<K: MidgameKernel>(
    k: K,
    ctx: &Context<'_>,
    abort: &Arc<AtomicBool>,
    limits: &Limits,
    deadline: Option<Instant>,
) -> Worker<K> {
    let mut main = Worker::new(
        k,
        Arc::clone(ctx.weights),
        Arc::clone(ctx.mid_tt),
        Arc::clone(ctx.eg_tt),
        Arc::clone(abort),
    );
    if let Some(nodes) = limits.nodes {
        main.node_limit = nodes.max(1);
    }
    main.set_deadline(deadline);
    if ctx.threads > 1 {
        // exact stages split null-window nodes between threads (the solver's YBWC pool)
        main.eg.pool = Some(Arc::new(Pool::new(ctx.threads - 1)));
    }
    main
}

/// Whether Lazy-SMP helpers run `stage` of a root at `n` empties beside the main thread: the
/// midgame iterations. The endgame stages, selective ones included, split their nodes
/// instead (YBWC): on FFO #40-49 with two threads Lazy SMP on the selective stages took about
/// 4 % more time, and helpers left running beside the split threads twice the time of #43.
fn lazy_stage(stage: &Stage, n: u32) -> bool {
    stage.depth < n
}

/// Helper `i`'s iterations: the main thread's midgame ones, odd helpers a ply deeper (so that
/// the helpers fill the table ahead); the endgame stages are left to the main thread's split
/// pool, and the main thread stops the helpers when it reaches them.
fn helper_stages(stages: &[Stage], n: u32, i: usize) -> Vec<Stage> {
    stages
        .iter()
        .filter(|s| lazy_stage(s, n))
        .map(|s| Stage {
            depth: if s.depth < n {
                (s.depth + (i as u32 & 1)).min(n - 1).max(1)
            } else {
                s.depth
            },
            ..*s
        })
        .collect()
}

/// What the threads of one search share: the root, its iterations, the clock and the flags.
struct Threads<'a> {
    ctx: &'a Context<'a>,
    root: &'a Root,
    stages: &'a [Stage],
    start: Instant,
    budget: &'a Budget,
    stop: &'a AtomicBool,
    /// The main thread's abort flag, raised by the timer.
    abort: &'a Arc<AtomicBool>,
}

impl Threads<'_> {
    /// Runs the iterations on `main` (reporting each, stopping at the soft budget) beside the
    /// timer and the helper threads; returns `main`'s last completed iteration and the
    /// helpers' nodes.
    fn search<K: MidgameKernel>(
        &self,
        main: &mut Worker<K>,
        root_moves: &mut [RootMove],
        all_moves: bool,
        report: &mut Report<'_>,
    ) -> (Option<(Stage, Iteration)>, u64) {
        let helper_abort = Arc::new(AtomicBool::new(false));
        let done = AtomicBool::new(false);
        let (start, n) = (self.start, self.root.n);
        // the caller's stop flag, when the report callback raises it, takes effect at once
        let (stop, abort) = (self.stop, self.abort);
        let mut report = |stage: Stage, it: &Iteration, nodes: u64| {
            report(stage, it, nodes);
            if stop.load(Relaxed) {
                abort.store(true, Relaxed);
            }
        };
        std::thread::scope(|scope| {
            // no timer on wasm32 (no threads there): the worker watches its deadline itself,
            // and only the report callback can raise the stop flag on that one thread
            let timer = (!cfg!(target_arch = "wasm32")).then(|| {
                scope.spawn(|| run_timer(start, self.budget.hard, self.stop, self.abort, &done))
            });
            let helpers: Vec<_> = (1..self.ctx.threads)
                .map(|i| {
                    let mut hw = Worker::new(
                        main.k,
                        Arc::clone(self.ctx.weights),
                        Arc::clone(self.ctx.mid_tt),
                        Arc::clone(self.ctx.eg_tt),
                        Arc::clone(&helper_abort),
                    );
                    hw.exact_handover = main.exact_handover;
                    let mut hm = root_moves.to_vec();
                    // helpers start at other moves and depths so they fill the table ahead
                    let len = hm.len();
                    hm.rotate_left(i % len);
                    let hs = helper_stages(self.stages, n, i);
                    let root = self.root;
                    scope.spawn(move || {
                        run(&mut hw, root, &mut hm, &hs, false, start, None, None, None);
                        hw.nodes
                    })
                })
                .collect();
            let r = run(
                main,
                self.root,
                root_moves,
                self.stages,
                all_moves,
                start,
                self.budget.soft,
                Some(&mut report),
                Some(&helper_abort),
            );
            helper_abort.store(true, Relaxed);
            done.store(true, Relaxed);
            if let Some(t) = &timer {
                t.thread().unpark();
            }
            let hn: u64 = helpers.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            if let Some(t) = timer {
                let _ = t.join();
            }
            (r, hn)
        })
    }
}
