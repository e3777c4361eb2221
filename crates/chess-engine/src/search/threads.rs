//! Starting a search: the root moves (filtered by `searchmoves` and the tablebases), the state
//! the threads share, one main thread and the Lazy SMP helpers, and the answer once all of them
//! have stopped.

use super::info::Silent;
use super::job::{SearchJob, SearchResult};
use super::shared::Shared;
use super::worker::{RootMove, Worker};
use super::{Control, ThreadTables};
use crate::nnue::Kernel;
use crate::time::Limits;
use crate::tt::Bound;
use crate::value::{INFINITE, MATE};
use ply_chess::Move;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Stack of each search thread (the search recurses once per ply, up to `MAX_PLY`); the
/// thread that calls a search needs as much ([`Engine::think`](crate::Engine::think)).
pub const STACK: usize = 16 << 20;

/// Runs a search. Blocks until the limits, `control.stop()` or, for infinite and ponder searches,
/// a stop after the depth limit. Every thread starts from empty [`ThreadTables`];
/// [`search_with_tables`] keeps them from one move to the next.
#[cfg(test)]
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
            let spawned =
                std::thread::Builder::new()
                    .stack_size(STACK)
                    .spawn_scoped(scope, move || {
                        let mut w = Worker::new(id, shared, root_moves, 1, &Silent, t);
                        w.iterate();
                    });
            helpers.extend(spawned.ok());
        }
        // The main search runs on the caller's thread: starting a thread for it cost about
        // 0.2 ms of system time a search (`datagen` at 5,000 nodes a move took 1.1 times the CPU
        // time; docs/benchmarks/chess-speed.md).
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
/// On `wasm32` the search is the only thread: nothing could raise the flag while it waits (and
/// `sleep` panics there), so it answers at once.
pub(super) fn wait_for_stop(control: &Control, limits: &Limits) {
    if cfg!(target_arch = "wasm32") {
        return;
    }
    while (limits.infinite || control.is_pondering()) && !control.stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
}
