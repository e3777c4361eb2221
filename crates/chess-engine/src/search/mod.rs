//! The search: iterative deepening with aspiration windows over a principal variation search
//! (PVS) with quiescence, run by one or more threads sharing the transposition table (Lazy SMP).
//!
//! Pruning and reductions follow the usual CPW recipes: mate-distance pruning, interior-node
//! recognizers (Heinz's DarkThought recognizers), transposition-table cutoffs, reverse futility
//! pruning, null move, futility and late-move pruning, SEE pruning, late-move reductions, check and
//! singular extensions. Static evaluations are corrected by a pawn-structure correction history
//! (`correction.rs`). The search never prints: it reports through a [`Reporter`].

use crate::eval;
use crate::history::cont_key;
use crate::nnue::{AccumulatorStack, Delta, Kernel, Network};
use crate::picker::{MovePicker, Stage};
use crate::recognizer::{recognize, Recognition};
use crate::see::see_ge;
use crate::time::{Budget, Limits};
use crate::tt::{Bound, TranspositionTable};
use crate::value::*;
use params::*;
use ply_chess::{Move, Position, Role};
use ply_syzygy::{Tablebase, Wdl};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub mod params;
mod tables;

pub use tables::ThreadTables;

/// Signals shared between the protocol thread and a running search.
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    start: Mutex<Instant>,
}

impl Default for Control {
    fn default() -> Self {
        Control::new()
    }
}

impl Control {
    /// Idle control.
    pub fn new() -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            start: Mutex::new(Instant::now()),
        }
    }

    /// Asks the search to finish as soon as possible (UCI `stop`).
    pub fn stop(&self) {
        self.pondering.store(false, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was requested.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move (UCI `ponderhit`): the clock starts now.
    pub fn ponderhit(&self) {
        if let Ok(mut s) = self.start.lock() {
            *s = Instant::now();
        }
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Prepares for a new search (called before starting it).
    pub fn reset(&self, ponder: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
        if let Ok(mut s) = self.start.lock() {
            *s = Instant::now();
        }
    }

    fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    fn elapsed(&self) -> Duration {
        self.start.lock().map(|s| s.elapsed()).unwrap_or_default()
    }
}

/// Search settings that are not per-move limits.
#[derive(Clone, Debug)]
pub struct Options {
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for communication delays.
    pub move_overhead: u64,
    /// Syzygy tables, probed in search and used to filter root moves.
    pub tablebase: Option<Arc<Tablebase>>,
    /// Minimum remaining depth for WDL probes at interior nodes (`SyzygyProbeDepth`).
    pub probe_depth: i32,
    /// The learned evaluation; `None` searches with the hand-made [`evaluate`](crate::evaluate).
    /// Recognizers and tablebases still come first, and the correction history applies to both.
    pub network: Option<Arc<Network>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 1,
            multipv: 1,
            move_overhead: 10,
            tablebase: None,
            probe_depth: 1,
            network: None,
        }
    }
}

/// One progress report (a UCI `info` line).
#[derive(Clone, Debug)]
pub struct Info {
    /// Depth of the iteration: a completed one for an exact score, the one in progress for a
    /// bound (an aspiration failure, or the line played when the search stopped inside it).
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// 1-based line number (MultiPV).
    pub multipv: usize,
    /// Score from the side to move in centipawns; mate in `n` plies is [`MATE`](crate::MATE)` - n`
    /// (see [`mate_in`](crate::mate_in)).
    pub score: i32,
    /// Exact, or a bound after an aspiration failure.
    pub bound: Bound,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Elapsed time.
    pub time: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// Tablebase hits.
    pub tbhits: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// Receives progress reports from the search.
pub trait Reporter: Sync {
    /// Called for each completed iteration (and each line with MultiPV).
    fn info(&self, info: &Info);
}

/// A reporter that discards everything (bench, tests).
pub struct Silent;

impl Reporter for Silent {
    fn info(&self, _: &Info) {}
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Best move (`Move::NULL` when there is no legal move).
    pub best: Move,
    /// Expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    pv: Vec<Move>,
    /// What `score` is: exact, or a bound after the move failed low or high in its window.
    bound: Bound,
    /// Nodes searched under this move in the current iteration.
    nodes: u64,
}

/// Per-ply search stack entry.
#[derive(Clone, Copy, Default)]
struct Frame {
    eval: i32,
    /// Uncorrected static evaluation of the node (`-INFINITE` in check).
    raw: i32,
    /// Whether the move being searched from this node is a null move.
    null_move: bool,
    cont: Option<usize>,
    /// Move left out by a singular-extension verification search of this node.
    excluded: Move,
}

/// State shared by the threads of one search.
struct Shared<'a> {
    /// The root position and the game's earlier positions (hashes, oldest first).
    root: &'a Position,
    game: &'a [u64],
    tt: &'a TranspositionTable,
    control: &'a Control,
    limits: &'a Limits,
    budget: Budget,
    nodes: Vec<AtomicU64>,
    tbhits: Vec<AtomicU64>,
    tablebase: Option<&'a Tablebase>,
    /// Largest piece count probed (0 without tables).
    tb_pieces: u32,
    probe_depth: i32,
    network: Option<&'a Arc<Network>>,
    /// The CPU level of the network's loops, detected once per search.
    kernel: Kernel,
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    fn total_tbhits(&self) -> u64 {
        self.tbhits.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// Late-move reduction table, `lmr(depth, moves) ≈ 0.75 + ln(depth)·ln(moves)/2.25` (in plies),
/// built at compile time with a fixed-point logarithm.
static LMR: [[u8; 64]; 64] = lmr_table();

/// `log2(x)` in 8.8 fixed point, for `x >= 1`.
const fn log2_q8(x: u32) -> u32 {
    let n = 31 - x.leading_zeros();
    // Mantissa in [1, 2) as Q16, then 8 rounds of squaring extract the fraction bits.
    let mut m = ((x as u64) << 16) >> n;
    let mut frac = 0;
    let mut i = 0;
    while i < 8 {
        m = (m * m) >> 16;
        frac <<= 1;
        if m >= 2 << 16 {
            m >>= 1;
            frac |= 1;
        }
        i += 1;
    }
    (n << 8) | frac
}

const fn lmr_table() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    let mut d = 1;
    while d < 64 {
        let mut m = 1;
        while m < 64 {
            let ld = log2_q8(d as u32) as u64;
            let lm = log2_q8(m as u32) as u64;
            let r = LMR_BASE_Q8 + ((ld * lm * LMR_SCALE_Q8) >> 16);
            t[d][m] = (r >> 8) as u8;
            m += 1;
        }
        d += 1;
    }
    t
}

/// What one search is asked to do: the position and its game history (hashes of the earlier
/// positions, oldest first, excluding `pos`), the shared transposition table, the stop control,
/// the limits, the options and where progress is reported.
#[derive(Clone, Copy)]
pub struct SearchJob<'a> {
    /// The position to search.
    pub pos: &'a Position,
    /// Hashes of the game's earlier positions, oldest first (for repetitions).
    pub history: &'a [u64],
    /// The transposition table (shared by the threads, kept between searches).
    pub tt: &'a TranspositionTable,
    /// Stop and ponder-hit signals from the front end.
    pub control: &'a Control,
    /// Depth, node, time and move limits.
    pub limits: &'a Limits,
    /// Threads, MultiPV, tablebases and the other options.
    pub options: &'a Options,
    /// Receives the iteration reports.
    pub reporter: &'a dyn Reporter,
}

impl<'a> SearchJob<'a> {
    /// A search of `pos` with no game history, reporting nothing (set the public fields for more).
    pub fn new(
        pos: &'a Position,
        tt: &'a TranspositionTable,
        control: &'a Control,
        limits: &'a Limits,
        options: &'a Options,
    ) -> SearchJob<'a> {
        SearchJob {
            pos,
            history: &[],
            tt,
            control,
            limits,
            options,
            reporter: &Silent,
        }
    }
}

/// Runs a search. Blocks until the limits, `control.stop()` or, for infinite and ponder searches,
/// a stop after the depth limit. Every thread starts from empty [`ThreadTables`];
/// [`search_with_tables`] keeps them from one move to the next.
pub fn search(job: &SearchJob<'_>) -> SearchResult {
    search_with_tables(job, &mut Vec::new())
}

/// [`search`] with the threads' [`ThreadTables`] kept by the caller: thread `i` uses
/// `tables[i]` (entries are added for threads beyond its length), so what one search of a game
/// learnt (histories, corrections, the pawn cache) orders and prunes the next.
pub fn search_with_tables(job: &SearchJob<'_>, tables: &mut Vec<ThreadTables>) -> SearchResult {
    let &SearchJob {
        pos,
        history,
        tt,
        control,
        limits,
        options,
        reporter,
    } = job;
    tt.new_search();
    let mut root_moves: Vec<RootMove> = pos
        .legal_moves()
        .iter()
        .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .map(|&mv| RootMove {
            mv,
            score: -INFINITE,
            prev_score: -INFINITE,
            pv: vec![mv],
            bound: Bound::Exact,
            nodes: 0,
        })
        .collect();
    if root_moves.is_empty() {
        wait_for_stop(control, limits);
        let score = if pos.is_check() { -MATE } else { 0 };
        return SearchResult {
            best: Move::NULL,
            ponder: None,
            score,
            depth: 0,
            nodes: 0,
        };
    }
    let tablebase = options
        .tablebase
        .as_deref()
        .filter(|tb| tb.max_pieces() > 0);
    let tb_pieces = tablebase.map_or(0, |tb| tb.max_pieces() as u32);
    let mut root_tbhits = 0;
    // DTZ root filtering: keep only the moves that preserve the best tablebase result (fastest
    // conversion first); the search then chooses among them.
    if let Some(tb) = tablebase {
        if pos.occupied().count() <= tb_pieces && !pos.castling_rights().any() {
            if let Ok(best) = tb.best_root_moves(pos) {
                root_tbhits = root_moves.len() as u64;
                let keep: Vec<Move> = best.iter().map(|r| r.mv).collect();
                if root_moves.iter().any(|rm| keep.contains(&rm.mv)) {
                    root_moves.retain(|rm| keep.contains(&rm.mv));
                }
            }
        }
    }
    let threads = options.threads.max(1);
    if tables.len() < threads {
        tables.resize_with(threads, ThreadTables::new);
    }
    let (main_tables, helper_tables) = tables.split_at_mut(1);
    let shared = Shared {
        root: pos,
        game: history,
        tt,
        control,
        limits,
        budget: limits.budget(pos.side_to_move(), options.move_overhead),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        tbhits: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        tablebase,
        tb_pieces,
        probe_depth: options.probe_depth.max(1),
        network: options.network.as_ref(),
        kernel: Kernel::detect(),
    };
    shared.tbhits[0].store(root_tbhits, Ordering::Relaxed);
    let multipv = options.multipv.clamp(1, root_moves.len());
    let result = std::thread::scope(|scope| {
        // A helper that cannot be started leaves the search with fewer threads, nothing worse.
        let mut helpers = Vec::with_capacity(threads - 1);
        for (id, t) in (1..threads).zip(helper_tables.iter_mut()) {
            let shared = &shared;
            let root_moves = root_moves.clone();
            let spawned = std::thread::Builder::new()
                .stack_size(16 << 20)
                .spawn_scoped(scope, move || {
                    let mut w = Worker::new(id, shared, root_moves, 1, &Silent, t);
                    w.iterate();
                });
            helpers.extend(spawned.ok());
        }
        let mut main = Worker::new(
            0,
            &shared,
            root_moves,
            multipv,
            reporter,
            &mut main_tables[0],
        );
        main.tbhits = root_tbhits;
        main.iterate();
        wait_for_stop(control, limits);
        control.stop.store(true, Ordering::SeqCst);
        // Join each helper's OS thread, not only its closure (all `scope` waits for), so no
        // thread of this search is still exiting when the result is returned. A helper's panic
        // goes on up, as `scope` would have passed it on for a helper nobody joined.
        for h in helpers {
            if let Err(panic) = h.join() {
                std::panic::resume_unwind(panic);
            }
        }
        let best = &main.root_moves[0];
        SearchResult {
            best: best.mv,
            ponder: best.pv.get(1).copied(),
            score: if best.score == -INFINITE {
                best.prev_score
            } else {
                best.score
            },
            depth: main.completed_depth,
            nodes: 0,
        }
    });
    SearchResult {
        nodes: shared.total_nodes(),
        ..result
    }
}

/// Infinite and ponder searches must not answer before `stop` (or `ponderhit`, for pondering).
fn wait_for_stop(control: &Control, limits: &Limits) {
    while (limits.infinite || control.is_pondering()) && !control.stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// One search thread.
struct Worker<'a, 's> {
    id: usize,
    shared: &'s Shared<'a>,
    reporter: &'s dyn Reporter,
    root: Position,
    path: Vec<u64>,
    root_moves: Vec<RootMove>,
    multipv: usize,
    pv_idx: usize,
    /// The thread's histories, correction history and pawn cache (kept between searches).
    tables: &'s mut ThreadTables,
    killers: Vec<[Move; 2]>,
    /// Move pickers of the nodes on the current path: slot `2 * ply`, and `2 * ply + 1` for a
    /// singular verification search of the same node.
    pickers: Vec<MovePicker>,
    stack: Vec<Frame>,
    /// The network's accumulators of the current path (with a network).
    nnue: Option<AccumulatorStack>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: Vec<usize>,
    nodes: u64,
    tbhits: u64,
    seldepth: usize,
    root_depth: i32,
    completed_depth: i32,
    stopped: bool,
    /// The last line reported for the best move (empty before any).
    reported: Vec<Move>,
}

impl<'a, 's> Worker<'a, 's> {
    fn new(
        id: usize,
        shared: &'s Shared<'a>,
        root_moves: Vec<RootMove>,
        multipv: usize,
        reporter: &'s dyn Reporter,
        tables: &'s mut ThreadTables,
    ) -> Self {
        let (root, history) = (shared.root, shared.game);
        let mut path = Vec::with_capacity(history.len() + MAX_PLY + 8);
        path.extend_from_slice(history);
        path.push(root.hash());
        Worker {
            id,
            shared,
            reporter,
            root: *root,
            path,
            root_moves,
            multipv,
            pv_idx: 0,
            tables,
            killers: vec![[Move::NULL; 2]; MAX_PLY + 4],
            pickers: (0..2 * (MAX_PLY + 4)).map(|_| MovePicker::new()).collect(),
            stack: vec![Frame::default(); MAX_PLY + 8],
            nnue: shared
                .network
                .map(|net| AccumulatorStack::new(Arc::clone(net), shared.kernel, MAX_PLY + 8)),
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            nodes: 0,
            tbhits: 0,
            seldepth: 0,
            root_depth: 0,
            completed_depth: 0,
            stopped: false,
            reported: Vec::new(),
        }
    }

    /// Iterative deepening with aspiration windows, for each MultiPV line.
    fn iterate(&mut self) {
        let limits = self.shared.limits;
        // A mate search without other limits gives up at twice the plies the mate needs (plus
        // slack for extensions and pruning).
        let mate_depth = limits.mate.map_or(MAX_PLY as i32, |n| 4 * n as i32 + 4);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .min(mate_depth)
            .clamp(1, MAX_PLY as i32 - 8);
        let mut stability = 0;
        let mut last_best = Move::NULL;
        let mut last_score = -INFINITE;
        let mut depth = 1;
        while depth <= max_depth {
            // Helper threads skip some depths so that the threads spread over the tree.
            if self.id > 0 && depth > 1 && (depth + self.id as i32) % 3 == 0 {
                depth += 1;
                continue;
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                if rm.score != -INFINITE {
                    rm.prev_score = rm.score;
                }
                rm.score = -INFINITE;
                rm.nodes = 0;
            }
            for pv_idx in 0..self.multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = ASPIRATION_DELTA;
                let (mut alpha, mut beta) =
                    if depth >= ASPIRATION_MIN_DEPTH && prev.abs() < KNOWN_WIN {
                        ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                    } else {
                        (-INFINITE, INFINITE)
                    };
                loop {
                    let score = self.root_search(depth, alpha, beta);
                    self.sort_root(pv_idx);
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITE);
                        self.report_if_slow(depth, score, Bound::Upper);
                    } else if score >= beta {
                        beta = (score + delta).min(INFINITE);
                        self.report_if_slow(depth, score, Bound::Lower);
                    } else {
                        break;
                    }
                    delta += delta / 2 + ASPIRATION_GROWTH;
                }
                self.sort_root(0);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if self.id != 0 {
                depth += 1;
                continue;
            }
            self.report_lines(depth);

            let best = self.root_moves[0].mv;
            if best == last_best {
                stability += 1;
            } else {
                stability = 0;
                last_best = best;
            }
            let score = self.root_moves[0].score;
            if let Some(n) = limits.mate {
                if score > MATE - 2 * n as i32 {
                    break;
                }
            }
            if self.shared.control.stopped() {
                break;
            }
            if !self.shared.control.is_pondering() {
                if let Some(soft) = self.shared.budget.soft {
                    // Stop starting iterations once a share of the soft time is used: smaller
                    // when the best move has stayed the same and took most of the nodes, larger
                    // after the score dropped.
                    let stable = TIME_STABILITY[stability.min(TIME_STABILITY.len() - 1)];
                    let all: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
                    let share = self.root_moves[0].nodes as f64 / all.max(1) as f64;
                    let effort = (TIME_EFFORT_BASE - share).clamp(TIME_EFFORT_MIN, TIME_EFFORT_MAX);
                    let drop = if last_score > -INFINITE && score.abs() < KNOWN_WIN {
                        1.0 + f64::from((last_score - score).clamp(0, TIME_DROP_CAP))
                            / TIME_DROP_DIV
                    } else {
                        1.0
                    };
                    if self.root_moves.len() == 1
                        || self.shared.control.elapsed().as_secs_f64()
                            > soft.as_secs_f64() * stable * effort * drop * TIME_SHARE
                    {
                        break;
                    }
                }
            }
            last_score = score;
            depth += 1;
        }
        if self.id == 0 {
            self.report_final();
        }
        self.publish_nodes();
    }

    /// Stable-sorts root moves from `from` on by score (moves not re-searched sort below).
    fn sort_root(&mut self, from: usize) {
        self.root_moves[from..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    }

    fn report_if_slow(&mut self, depth: i32, score: i32, bound: Bound) {
        if self.id == 0 && self.shared.control.elapsed() > Duration::from_secs(3) {
            self.report(depth, 0, score, bound);
        }
    }

    fn report_lines(&mut self, depth: i32) {
        for i in 0..self.multipv {
            let score = self.root_moves[i].score;
            self.report(depth, i, score, Bound::Exact);
        }
    }

    fn report(&mut self, depth: i32, line: usize, score: i32, bound: Bound) {
        if line == 0 {
            self.reported.clone_from(&self.root_moves[0].pv);
        }
        self.reporter.info(&self.info(depth, line, score, bound));
    }

    /// When the search stops inside an iteration whose best line was never reported (a move
    /// beat the previous best, failed high, or the best move's line changed, and the limit came
    /// before the iteration ended), one more line reports it, so that the last line a GUI reads
    /// is the one played: its move is `bestmove`, its second move the ponder move.
    fn report_final(&mut self) {
        let best = &self.root_moves[0];
        if best.pv == self.reported {
            return;
        }
        let (depth, score, bound) = if best.score != -INFINITE {
            (self.root_depth, best.score, best.bound)
        } else if best.prev_score != -INFINITE {
            (self.completed_depth.max(1), best.prev_score, Bound::Exact)
        } else {
            return;
        };
        self.report(depth, 0, score, bound);
    }

    fn info(&self, depth: i32, line: usize, score: i32, bound: Bound) -> Info {
        self.publish_nodes();
        Info {
            depth,
            seldepth: self.seldepth.max(depth as usize),
            multipv: line + 1,
            score,
            bound,
            nodes: self.shared.total_nodes(),
            time: self.shared.control.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            tbhits: self.shared.total_tbhits(),
            pv: self.root_moves[line].pv.clone(),
        }
    }

    fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if self.tbhits > 0 {
            self.shared.tbhits[self.id].store(self.tbhits, Ordering::Relaxed);
        }
    }

    /// Polls the clock and the stop flag (every 1024 nodes).
    #[inline]
    fn check_stop(&mut self) {
        if self.nodes & 1023 != 0 {
            return;
        }
        self.publish_nodes();
        let control = self.shared.control;
        if control.stopped() {
            self.stopped = true;
            return;
        }
        if self.id != 0 || self.root_depth <= 1 {
            return;
        }
        if let Some(n) = self.shared.limits.nodes {
            if self.shared.total_nodes() >= n {
                self.stopped = true;
            }
        }
        if let Some(hard) = self.shared.budget.hard {
            if !control.is_pondering() && control.elapsed() >= hard {
                self.stopped = true;
            }
        }
        if self.stopped {
            control.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Searches the root moves from `pv_idx` on.
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let root = self.root;
        let window_alpha = alpha;
        let mut best = -INFINITE;
        if let Some(nn) = &mut self.nnue {
            nn.refresh(0, &root);
        }
        self.stack[0].eval = if root.is_check() {
            -INFINITE
        } else {
            self.static_eval(&root, 0)
        };
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let nodes_before = self.nodes;
            let child = root.play(m);
            self.push_move(0, &root, m);
            self.shared.tt.prefetch(child.hash());
            self.path.push(child.hash());
            self.stack[0].cont = Some(cont_key(root.side_to_move(), m));
            let ext = i32::from(child.is_check());
            let new_depth = depth - 1 + ext;
            let score = if i == self.pv_idx {
                -self.search::<true>(&child, -beta, -alpha, new_depth, 1)
            } else {
                let r = if depth >= 3 && i >= self.pv_idx + 3 && !m.is_tactical() && ext == 0 {
                    1
                } else {
                    0
                };
                let mut s = -self.search::<false>(&child, -alpha - 1, -alpha, new_depth - r, 1);
                if s > alpha && r > 0 {
                    s = -self.search::<false>(&child, -alpha - 1, -alpha, new_depth, 1);
                }
                if s > alpha && s < beta {
                    s = -self.search::<true>(&child, -beta, -alpha, new_depth, 1);
                }
                s
            };
            self.path.pop();
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || score > alpha {
                rm.score = score;
                rm.bound = if score <= window_alpha {
                    Bound::Upper
                } else if score >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// A WDL tablebase probe at an interior node (`SyzygyProbeDepth` and below the table size),
    /// as a bound in the tablebase score band: wins are lower bounds, losses upper bounds.
    fn probe_wdl(&mut self, pos: &Position, depth: i32, ply: usize) -> Option<Recognition> {
        let tb = self.shared.tablebase?;
        if (depth < self.shared.probe_depth && pos.occupied().count() == self.shared.tb_pieces)
            || pos.castling_rights().any()
        {
            return None;
        }
        let wdl = tb.probe_wdl(pos).ok()?;
        self.tbhits += 1;
        let p = ply as i32;
        Some(match wdl {
            Wdl::Win => Recognition::Lower(TB_WIN - p),
            Wdl::Loss => Recognition::Upper(-TB_WIN + p),
            Wdl::CursedWin => Recognition::Exact(1),
            Wdl::BlessedLoss => Recognition::Exact(-1),
            Wdl::Draw => Recognition::Exact(0),
        })
    }

    /// Static evaluation of `pos` at `ply` of the current path: a recognizer's when one applies,
    /// else the network's (kept below the known-win bound) or the hand-made evaluation.
    #[inline]
    fn static_eval(&mut self, pos: &Position, ply: usize) -> i32 {
        match recognize(pos) {
            Some(r) => r.value(),
            None => match &mut self.nnue {
                Some(nn) => nn.evaluate(ply, pos).clamp(-KNOWN_WIN + 1, KNOWN_WIN - 1),
                None => eval::evaluate(pos, &mut self.tables.pawns),
            },
        }
    }

    /// Records for the network's accumulators that `m`, played in `pos` at `ply`, leads to the
    /// next ply (nothing without a network). Called right before the child is searched, after
    /// any verification search of `pos` that used the next ply for other moves.
    #[inline(always)]
    fn push_move(&mut self, ply: usize, pos: &Position, m: Move) {
        if let Some(nn) = &mut self.nnue {
            nn.push(ply + 1, Delta::of(pos, m));
        }
    }

    /// Static evaluation of a node the table knows nothing about. Right after a null move it is
    /// the parent's with the sign turned and the tempo bonus moved to the other side (the board
    /// is the same), which saves a full evaluation. (The network has no tempo term: its
    /// accumulators are copied over a null move and only the output is computed.)
    #[inline]
    fn fresh_eval(&mut self, pos: &Position, ply: usize) -> i32 {
        if ply > 0 && self.stack[ply - 1].null_move && self.nnue.is_none() {
            let parent = self.stack[ply - 1].raw;
            if parent.abs() < KNOWN_WIN {
                return -parent + 2 * NULL_MOVE_TEMPO;
            }
        }
        self.static_eval(pos, ply)
    }

    /// `raw` plus the correction history of `pos`, for ordinary (not recognised, not in check)
    /// evaluations.
    #[inline]
    fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        if raw.abs() >= KNOWN_WIN {
            raw
        } else {
            (raw + self.tables.correction.get(pos)).clamp(-KNOWN_WIN + 1, KNOWN_WIN - 1)
        }
    }

    /// Whether the current position (last in `path`) repeats an earlier one within the reach of
    /// the half-move clock.
    #[inline]
    fn is_repetition(&self, pos: &Position) -> bool {
        let n = self.path.len();
        let window = (pos.halfmove_clock() as usize).min(n - 1);
        let current = self.path[n - 1];
        let mut i = 2;
        while i <= window {
            if self.path[n - 1 - i] == current {
                return true;
            }
            i += 2;
        }
        false
    }

    /// Whether the current position (last in `path`) is drawn by rule: a repetition, too
    /// little material to mate, or the fifty-move rule (unless the mover is mated).
    #[inline]
    fn drawn_by_rule(&self, pos: &Position) -> bool {
        self.is_repetition(pos)
            || pos.is_insufficient_material()
            || (pos.halfmove_clock() >= 100 && !(pos.is_check() && pos.count_legal_moves() == 0))
    }

    /// Counts a node, polls the clock and clears the node's variation; false when the search
    /// has been stopped and must unwind.
    #[inline]
    fn enter_node<const PV: bool>(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return false;
        }
        self.pv_len[ply] = 0;
        if PV && ply > self.seldepth {
            self.seldepth = ply;
        }
        true
    }

    /// Takes the `score` of move `m` into the node's `best`; true when it also raised `alpha`
    /// (then `m` is the node's best move and, at PV nodes, heads its variation). A caller whose
    /// score reached beta cuts off; `alpha` is then not used again.
    #[inline]
    fn raise<const PV: bool>(
        &mut self,
        ply: usize,
        m: Move,
        score: i32,
        best: &mut i32,
        best_move: &mut Move,
        alpha: &mut i32,
    ) -> bool {
        if score <= *best {
            return false;
        }
        *best = score;
        if score <= *alpha {
            return false;
        }
        *best_move = m;
        if PV {
            self.update_pv(ply, m);
        }
        *alpha = score;
        true
    }

    /// Makes `m` followed by the child's variation the principal variation at `ply`.
    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = m;
        let n = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }

    /// Principal variation search. `PV` nodes have an open window.
    fn search<const PV: bool>(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 {
            // The quiescence search sees no repetitions nor the fifty-move rule (its moves are
            // captures and evasions, not on the path); the move that led here may have drawn.
            if self.drawn_by_rule(pos) {
                self.enter_node::<PV>(ply);
                return 0;
            }
            return self.qsearch::<PV>(pos, alpha, beta, ply);
        }
        if !self.enter_node::<PV>(ply) {
            return 0;
        }
        let in_check = pos.is_check();

        // Draws, mate distance, recognizers.
        if self.drawn_by_rule(pos) {
            return 0;
        }
        if ply >= MAX_PLY - 4 {
            return if in_check {
                0
            } else {
                self.static_eval(pos, ply)
            };
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        // Tablebases take precedence over recognizers within their piece count; WDL is only
        // trusted right after a capture or pawn move (the 50-move counter is zero).
        let pieces = pos.occupied().count();
        if pieces <= self.shared.tb_pieces && pos.halfmove_clock() == 0 {
            if let Some(r) = self.probe_wdl(pos, depth, ply) {
                if let Some(v) = r.cutoff(alpha, beta) {
                    return v;
                }
            }
        }
        if let Some(r) = recognize(pos) {
            if let Some(v) = r.cutoff(alpha, beta) {
                return v;
            }
        }

        // Transposition table (a singular verification search of this node uses only its
        // evaluation: the stored score and move belong to the full node).
        let excluded = self.stack[ply].excluded;
        let singular_search = excluded != Move::NULL;
        let key = pos.hash();
        let entry = self.shared.tt.probe(key);
        let tt_move = if singular_search {
            0
        } else {
            entry.map_or(0, |e| e.mv)
        };
        if let Some(e) = entry {
            let v = from_tt(e.score, ply);
            if !PV && !singular_search && e.depth >= depth && e.bound.cuts(v, alpha, beta) {
                return v;
            }
        }

        // Static evaluation (the raw value is what the table keeps), corrected by the history of
        // search results for this pawn structure, then sharpened by a fitting table bound.
        let raw_eval = if in_check {
            -INFINITE
        } else {
            match entry {
                Some(en) if en.eval.abs() < INFINITE => en.eval,
                _ => self.fresh_eval(pos, ply),
            }
        };
        self.stack[ply].raw = raw_eval;
        let corrected = self.corrected(pos, raw_eval);
        let eval = if in_check {
            -INFINITE
        } else {
            let mut e = corrected;
            if let Some(en) = entry.filter(|_| !singular_search) {
                let v = from_tt(en.score, ply);
                let fits = match en.bound {
                    Bound::Lower => v > e,
                    Bound::Upper => v < e,
                    Bound::Exact => true,
                    Bound::None => false,
                };
                if fits && v.abs() < KNOWN_WIN {
                    e = v;
                }
            }
            e
        };
        self.stack[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;
        self.killers[ply + 1] = [Move::NULL; 2];

        let us = pos.side_to_move();
        let has_pieces = pos.count(us, Role::Knight)
            + pos.count(us, Role::Bishop)
            + pos.count(us, Role::Rook)
            + pos.count(us, Role::Queen)
            > 0;

        if !PV && !in_check && !singular_search {
            // Reverse futility pruning.
            if depth <= RFP_MAX_DEPTH
                && eval.abs() < KNOWN_WIN
                && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
            // Null move pruning.
            if depth >= NMP_MIN_DEPTH
                && eval >= beta
                && has_pieces
                && self.stack[ply - 1].cont.is_some()
                && beta.abs() < TB_WIN_BOUND
            {
                if let Some(null) = pos.null_move() {
                    let r = NMP_BASE
                        + depth / NMP_DEPTH_DIV
                        + ((eval - beta) / NMP_EVAL_DIV).min(NMP_EVAL_MAX);
                    self.stack[ply].cont = None;
                    self.stack[ply].null_move = true;
                    if let Some(nn) = &mut self.nnue {
                        nn.push(ply + 1, Delta::NULL);
                    }
                    self.path.push(null.hash());
                    let v = -self.search::<false>(&null, -beta, -beta + 1, depth - r, ply + 1);
                    self.path.pop();
                    self.stack[ply].null_move = false;
                    if self.stopped {
                        return 0;
                    }
                    if v >= beta {
                        return if v >= TB_WIN_BOUND { beta } else { v };
                    }
                }
            }
        }

        // Internal iterative reduction: without a hash move, search a little shallower.
        let depth = if tt_move == 0 && depth >= IIR_MIN_DEPTH && PV {
            depth - 1
        } else {
            depth
        };

        let prevs = [
            self.stack[ply - 1].cont,
            if ply >= 2 {
                self.stack[ply - 2].cont
            } else {
                None
            },
        ];
        let slot = 2 * ply + usize::from(singular_search);
        self.pickers[slot].reset(pos, tt_move, self.killers[ply], prevs);

        let mut best = -INFINITE;
        let mut best_move = Move::NULL;
        let mut quiets = [Move::NULL; 64];
        let mut n_quiets = 0;
        let mut searched = 0;
        let mut legal = 0;
        while let Some((m, stage)) = self.pickers[slot].next(pos, &self.tables.history) {
            legal += 1;
            if m == excluded {
                continue;
            }
            let quiet = !m.is_tactical();
            let child = pos.play(m);
            let gives_check = child.is_check();
            if ply > 0 && best > -TB_WIN_BOUND && has_pieces {
                if quiet && !in_check && !gives_check {
                    // Late move pruning.
                    let limit = (LMP_BASE + depth * depth) / (2 - i32::from(improving));
                    if !PV && depth <= LMP_MAX_DEPTH && n_quiets as i32 >= limit {
                        self.pickers[slot].skip_quiets();
                        continue;
                    }
                    // Continuation-history pruning: at low depth, a quiet move that has done
                    // badly right after the previous move (or the one before) is skipped.
                    if !PV
                        && depth <= CMH_PRUNE_DEPTH[usize::from(improving)]
                        && searched > 0
                        && (self.tables.history.continuation(prevs[0], us, m)
                            < CMH_PRUNE_LIMIT[usize::from(improving)]
                            || self.tables.history.continuation(prevs[1], us, m)
                                < FMH_PRUNE_LIMIT[usize::from(improving)])
                    {
                        continue;
                    }
                    // Futility pruning.
                    if depth <= FUTILITY_MAX_DEPTH
                        && eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha
                        && searched > 0
                    {
                        self.pickers[slot].skip_quiets();
                        continue;
                    }
                }
                // SEE pruning.
                if depth <= SEE_PRUNE_MAX_DEPTH && searched > 0 {
                    let margin = if quiet {
                        -SEE_QUIET_MARGIN * depth
                    } else {
                        -SEE_CAPTURE_MARGIN * depth * depth
                    };
                    if !see_ge(pos, m, margin) {
                        continue;
                    }
                }
            }

            // Singular extension (Anantharaman et al.; CPW "Singular Extensions"): when every
            // other move fails clearly below the table score, the table move is extended; when even
            // that reduced bound holds beta, the node is cut (multi-cut); when only the table move
            // was expected to hold beta, it is reduced instead.
            let mut singular = 0;
            if let Some(e) = entry {
                if !singular_search
                    && tt_move != 0
                    && m.compact() == tt_move
                    && depth >= SE_MIN_DEPTH
                    && e.depth >= depth - SE_TT_DEPTH_MARGIN
                    && matches!(e.bound, Bound::Lower | Bound::Exact)
                    && from_tt(e.score, ply).abs() < KNOWN_WIN
                    && (ply as i32) < 2 * self.root_depth
                {
                    let tt_score = from_tt(e.score, ply);
                    let s_beta = tt_score - SE_MARGIN_PER_DEPTH * depth;
                    self.stack[ply].excluded = m;
                    let v = self.search::<false>(pos, s_beta - 1, s_beta, (depth - 1) / 2, ply);
                    self.stack[ply].excluded = Move::NULL;
                    if self.stopped {
                        return 0;
                    }
                    if v < s_beta {
                        singular = 1;
                    } else if s_beta >= beta {
                        return s_beta;
                    } else if tt_score >= beta {
                        singular = -1;
                    }
                }
            }
            self.push_move(ply, pos, m);
            self.shared.tt.prefetch(child.hash());
            let check_ext = i32::from(gives_check && (ply as i32) < 2 * self.root_depth);
            let ext = if singular != 0 { singular } else { check_ext };
            let new_depth = depth - 1 + ext;
            self.stack[ply].cont = Some(cont_key(us, m));
            self.path.push(child.hash());
            let mut score;
            if searched == 0 {
                score = -self.search::<PV>(&child, -beta, -alpha, new_depth, ply + 1);
            } else {
                // Late move reductions.
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH
                    && searched > 2 * usize::from(PV)
                    && (quiet || stage == Stage::BadCapture)
                {
                    r = LMR[depth.min(63) as usize][searched.min(63)] as i32;
                    r += i32::from(!PV) + i32::from(!improving) - i32::from(gives_check);
                    if quiet {
                        let h = self.tables.history.quiet(us, m)
                            + self.tables.history.continuation(prevs[0], us, m);
                        r -= (h / LMR_HISTORY_DIV).clamp(-LMR_HISTORY_MAX, LMR_HISTORY_MAX);
                        // Killers reduce less; king moves out of check reduce more.
                        r -= i32::from(self.killers[ply].contains(&m));
                        r += i32::from(in_check && m.role() == Role::King);
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search::<false>(&child, -alpha - 1, -alpha, new_depth - r, ply + 1);
                if score > alpha && r > 0 {
                    score = -self.search::<false>(&child, -alpha - 1, -alpha, new_depth, ply + 1);
                }
                if PV && score > alpha && score < beta {
                    score = -self.search::<true>(&child, -beta, -alpha, new_depth, ply + 1);
                }
            }
            self.path.pop();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = m;
                n_quiets += 1;
            }
            if self.raise::<PV>(ply, m, score, &mut best, &mut best_move, &mut alpha)
                && score >= beta
            {
                if quiet {
                    let k = &mut self.killers[ply];
                    if k[0] != m {
                        k[1] = k[0];
                        k[0] = m;
                    }
                    self.tables
                        .history
                        .reward(us, prevs, m, &quiets[..n_quiets], depth);
                }
                break;
            }
        }
        if legal == 0 {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if searched == 0 {
            // Every move was pruned (or the only move was excluded): report a fail low.
            return alpha;
        }
        if singular_search {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best_move != Move::NULL {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A bound says something about the evaluation's error only when it lies beyond it.
        let informative = match bound {
            Bound::Lower => best > corrected,
            Bound::Upper => best < corrected,
            Bound::Exact => true,
            Bound::None => false,
        };
        if informative && !in_check && !best_move.is_tactical() && best.abs() < KNOWN_WIN {
            self.tables.correction.update(pos, best - raw_eval, depth);
        }
        self.shared.tt.store(
            key,
            best_move.compact(),
            to_tt(best, ply),
            if in_check { INFINITE } else { raw_eval },
            depth,
            bound,
        );
        best
    }

    /// Quiescence search: captures and promotions (all evasions when in check), with stand pat,
    /// delta pruning and SEE pruning.
    fn qsearch<const PV: bool>(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if !self.enter_node::<PV>(ply) {
            return 0;
        }
        if pos.is_insufficient_material() {
            return 0;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 4 {
            return if in_check {
                0
            } else {
                self.static_eval(pos, ply)
            };
        }
        if let Some(r) = recognize(pos) {
            if let Some(v) = r.cutoff(alpha, beta) {
                return v;
            }
        }
        let key = pos.hash();
        let entry = self.shared.tt.probe(key);
        if let Some(e) = entry {
            let v = from_tt(e.score, ply);
            if !PV && e.bound.cuts(v, alpha, beta) {
                return v;
            }
        }
        let tt_move = entry.map_or(0, |e| e.mv);
        let mut best;
        let eval;
        let raw_eval;
        if in_check {
            best = -INFINITE;
            eval = -INFINITE;
            raw_eval = -INFINITE;
        } else {
            raw_eval = match entry {
                Some(en) if en.eval.abs() < INFINITE => en.eval,
                _ => self.fresh_eval(pos, ply),
            };
            eval = self.corrected(pos, raw_eval);
            if eval >= beta {
                return eval;
            }
            best = eval;
            alpha = alpha.max(eval);
        }
        // A quiescence node never shares a ply with an open search node: take that ply's picker.
        let slot = 2 * ply;
        if in_check {
            self.pickers[slot].reset(pos, tt_move, [Move::NULL; 2], [None, None]);
        } else {
            self.pickers[slot].reset_qsearch(pos, tt_move);
        }
        let mut best_move = Move::NULL;
        let mut legal = 0;
        while let Some((m, _)) = self.pickers[slot].next(pos, &self.tables.history) {
            legal += 1;
            if !in_check {
                if m.promotion().is_some_and(|r| r != Role::Queen) {
                    continue;
                }
                // Delta pruning: even winning the piece outright cannot reach alpha.
                if eval + crate::see::capture_gain(m) + QS_DELTA_MARGIN <= alpha
                    && m.promotion().is_none()
                {
                    continue;
                }
                if !see_ge(pos, m, 0) {
                    continue;
                }
            }
            let child = pos.play(m);
            self.push_move(ply, pos, m);
            self.shared.tt.prefetch(child.hash());
            self.stack[ply].cont = Some(cont_key(pos.side_to_move(), m));
            let score = -self.qsearch::<PV>(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if self.raise::<PV>(ply, m, score, &mut best, &mut best_move, &mut alpha)
                && score >= beta
            {
                break;
            }
        }
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move.compact(),
            to_tt(best, ply),
            if in_check { INFINITE } else { raw_eval },
            0,
            bound,
        );
        best
    }
}

#[cfg(test)]
mod tests;
