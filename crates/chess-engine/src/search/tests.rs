use super::node::{log2_q8, LMR};
use super::params::*;
use super::*;
use crate::eval;
use crate::time::Limits;
use crate::tt::TranspositionTable;
use crate::value::{KNOWN_WIN, MATE};
use ply_chess::{Move, Position};
use ply_syzygy::{Tablebase, Wdl};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn run(fen: &str, limits: Limits, options: &Options) -> SearchResult {
    let pos = Position::from_fen(fen).unwrap();
    let tt = TranspositionTable::new(8);
    search(&SearchJob::new(
        &pos,
        &tt,
        &Control::new(),
        &limits,
        options,
    ))
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn lmr_table_is_monotone_and_small() {
    assert_eq!(log2_q8(1), 0);
    assert_eq!(log2_q8(2), 256);
    assert!((log2_q8(3) as i32 - 406).abs() <= 1); // log2(3) = 1.585
    for d in 1..63 {
        for m in 1..63 {
            assert!(LMR[d][m] <= LMR[d + 1][m] && LMR[d][m] <= LMR[d][m + 1]);
        }
    }
    assert_eq!(LMR[1][1], 0);
    assert!(LMR[20][30] >= 3 && LMR[63][63] <= 10);
}

#[test]
fn finds_mate_in_two() {
    // WAC.001: Qg6 mates in two. The queen move into a capture is pruned or reduced at the
    // shallow depths of the tree, so the mate shows at nominal depth 13 (12 before quiet checks
    // were skipped with the other late quiet moves).
    let r = run(
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        depth(14),
        &Options::default(),
    );
    assert_eq!(r.best.to_string(), "g3g6");
    assert_eq!(r.score, MATE - 3);
}

#[test]
fn mated_and_stalemated_roots() {
    let r = run(
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
        depth(3),
        &Options::default(),
    );
    assert_eq!(r.best, Move::NULL);
    assert_eq!(r.score, -MATE);
    let r = run(
        "7k/8/6QK/8/8/8/8/8 b - - 0 1",
        depth(3),
        &Options::default(),
    );
    assert_eq!(r.best, Move::NULL);
    assert_eq!(r.score, 0);
}

#[test]
fn avoids_stalemate_and_mates_with_the_queen() {
    // Qg6 would stalemate; the search must find the mate in one (Qg7#) instead.
    let fen = "7k/8/5K2/6Q1/8/8/8/8 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let stalemating = pos.parse_uci("g5g6").unwrap();
    assert!(pos.play(stalemating).is_stalemate());
    let r = run(fen, depth(5), &Options::default());
    assert_ne!(r.best, stalemating);
    assert!(pos.play(r.best).is_checkmate(), "{r:?}");
    assert_eq!(r.score, MATE - 1, "{r:?}");
}

#[test]
fn kpk_draw_and_win_are_recognised() {
    let r = run(
        "8/8/8/8/8/k7/P7/K7 w - - 0 1",
        depth(10),
        &Options::default(),
    );
    assert_eq!(r.score, 0, "rook pawn with the defender in front is a draw");
    let r = run(
        "3k4/8/3K4/3P4/8/8/8/8 w - - 0 1",
        depth(8),
        &Options::default(),
    );
    assert!(r.score >= KNOWN_WIN, "{r:?}");
    let r = run(
        "4k3/8/4K3/4P3/8/8/8/8 b - - 0 1",
        depth(8),
        &Options::default(),
    );
    assert!(r.score <= -KNOWN_WIN, "{r:?}");
}

#[test]
fn repetition_is_a_draw() {
    // A queen down, Black steers back into a position of the game history.
    let start = Position::from_fen("4k1n1/8/8/8/8/8/8/Q3K1N1 w - - 0 1").unwrap();
    let mut pos = start;
    let mut history = Vec::new();
    for m in ["g1f3", "g8f6", "f3g1"] {
        history.push(pos.hash());
        pos = pos.play(pos.parse_uci(m).unwrap());
    }
    let tt = TranspositionTable::new(8);
    let r = search(&SearchJob {
        history: &history,
        ..SearchJob::new(&pos, &tt, &Control::new(), &depth(6), &Options::default())
    });
    assert_eq!(r.best.to_string(), "f6g8");
    assert_eq!(r.score, 0);
}

#[test]
fn fixed_depth_search_is_deterministic() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let a = run(fen, depth(8), &Options::default());
    let b = run(fen, depth(8), &Options::default());
    assert_eq!((a.nodes, a.best, a.score), (b.nodes, b.best, b.score));
    assert_eq!(a.depth, 8);
}

#[test]
fn node_limit_and_searchmoves_are_respected() {
    let pos = Position::startpos();
    let only = pos.parse_uci("a2a3").unwrap();
    let limits = Limits {
        nodes: Some(20_000),
        searchmoves: vec![only],
        ..Limits::default()
    };
    let r = run(ply_chess::STARTPOS, limits, &Options::default());
    assert_eq!(r.best, only);
    assert!(r.nodes < 40_000, "{}", r.nodes);
}

#[test]
fn multipv_and_threads_give_legal_moves() {
    struct Collect(Mutex<Vec<Info>>);
    impl Reporter for Collect {
        fn info(&self, info: &Info) {
            self.0.lock().unwrap().push(info.clone());
        }
    }
    let pos = Position::startpos();
    let tt = TranspositionTable::new(8);
    let collect = Collect(Mutex::new(Vec::new()));
    let options = Options {
        threads: 2,
        multipv: 3,
        ..Options::default()
    };
    let r = search(&SearchJob {
        reporter: &collect,
        ..SearchJob::new(&pos, &tt, &Control::new(), &depth(6), &options)
    });
    assert!(pos.is_legal(r.best));
    let infos = collect.0.into_inner().unwrap();
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 6).collect();
    assert_eq!(last.len(), 3);
    assert_eq!(last[0].pv[0], r.best);
    assert!(last[0].score >= last[1].score && last[1].score >= last[2].score);
    // Three different first moves.
    assert!(
        last[0].pv[0] != last[1].pv[0]
            && last[1].pv[0] != last[2].pv[0]
            && last[0].pv[0] != last[2].pv[0]
    );
    for info in &infos {
        let mut p = pos;
        for &m in &info.pv {
            assert!(p.is_legal(m), "illegal pv move {m} in {:?}", info.pv);
            p = p.play(m);
        }
    }
}

/// A search on a 200 ms clock ends by itself with a legal move. How the budget is cut from the
/// clock is checked exactly (and load-free) in `time.rs` and by the budget assert below; the
/// wall-clock bound is only a sanity check, 150 times the clock, so a loaded machine cannot fail
/// it: without the clock this search would run towards depth 128, far beyond 30 s.
#[test]
fn timed_search_stops_in_time() {
    let limits = Limits {
        time: [Some(200), Some(200)],
        inc: [0, 0],
        ..Limits::default()
    };
    let budget = limits.budget(ply_chess::Color::White, Options::default().move_overhead);
    assert!(budget.hard.unwrap() < Duration::from_millis(200));
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let start = std::time::Instant::now();
    let r = run(fen, limits, &Options::default());
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert!(Position::from_fen(fen).unwrap().is_legal(r.best));
}

#[test]
fn stop_ends_an_infinite_search() {
    let pos = Position::startpos();
    let tt = TranspositionTable::new(8);
    let control = Control::new();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let r = std::thread::scope(|s| {
        let h = s.spawn(|| {
            search(&SearchJob::new(
                &pos,
                &tt,
                &control,
                &limits,
                &Options::default(),
            ))
        });
        std::thread::sleep(Duration::from_millis(100));
        control.stop();
        h.join().unwrap()
    });
    assert!(pos.is_legal(r.best));
}

#[test]
fn tablebase_root_filtering_picks_a_winning_move() {
    let Some(dir) = ply_testkit::shared("syzygy/tables") else {
        return;
    };
    let tb = Tablebase::open(dir.to_str().unwrap()).unwrap();
    let options = Options {
        tablebase: Some(Arc::new(tb)),
        ..Options::default()
    };
    // KRvKP race: only some moves keep the win. The root has castling rights, so the tables
    // cannot filter the root moves; but every white move here gives them up, so the tables judge
    // each move's result, and the search must find one that leaves Black lost.
    let fen = "8/8/8/8/1k6/8/1p6/4K2R w K - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let tb = options.tablebase.as_ref().unwrap();
    let legal = pos.legal_moves();
    let winning: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| tb.probe_wdl(&pos.play(m)).unwrap() == Wdl::Loss)
        .collect();
    assert!(
        !winning.is_empty() && winning.len() < legal.len(),
        "{winning:?} of {legal:?}"
    );
    let r = run(fen, depth(6), &options);
    assert!(winning.contains(&r.best), "{r:?} not in {winning:?}");
    let fen = "8/6k1/8/8/8/8/1p5R/4K3 w - - 0 1";
    let tb = options.tablebase.as_ref().unwrap();
    let pos = Position::from_fen(fen).unwrap();
    let best = tb.best_root_moves(&pos).unwrap();
    let r = run(fen, depth(6), &options);
    assert!(best.iter().any(|m| m.mv == r.best), "{r:?}");
}

#[test]
fn kept_thread_tables_carry_over_to_the_next_search() {
    let first =
        Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
            .unwrap();
    let next = first.play(first.parse_uci("e1g1").unwrap());
    let options = Options::default();
    // a fresh transposition table and control (a search ends by stopping its control) each time
    let nodes = |pos: &Position, tables: &mut Vec<ThreadTables>| {
        let tt = TranspositionTable::new(8);
        let control = Control::new();
        let limits = depth(8);
        search_with_tables(
            &SearchJob::new(pos, &tt, &control, &limits, &options),
            tables,
        )
        .nodes
    };
    // fresh tables search exactly as `search` does
    let mut fresh = Vec::new();
    let with_fresh = nodes(&next, &mut fresh);
    let tt = TranspositionTable::new(8);
    let plain = search(&SearchJob::new(
        &next,
        &tt,
        &Control::new(),
        &depth(8),
        &options,
    ));
    assert_eq!(plain.nodes, with_fresh);
    assert_eq!(fresh.len(), 1, "one table set per thread");
    // after a search of the previous move, what it learnt orders the next search
    let mut kept = Vec::new();
    nodes(&first, &mut kept);
    assert_ne!(nodes(&next, &mut kept), with_fresh);
    // cleared, they are fresh again
    kept.iter_mut().for_each(|t| *t = ThreadTables::new());
    assert_eq!(nodes(&next, &mut kept), with_fresh);
}

#[test]
fn null_move_eval_is_the_parent_eval_turned_around() {
    // The search derives a null-move child's evaluation from its parent's; check that the rule
    // matches the evaluation itself (only the tempo term depends on the side to move; the
    // tapered tempo makes it differ by at most a few centipawns from the fixed value).
    let mut pawns = crate::eval::PawnTable::new();
    let mut n = 0;
    for fen in crate::bench::POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        let Some(null) = pos.null_move() else {
            continue;
        };
        let (a, b) = (
            eval::evaluate(&pos, &mut pawns),
            eval::evaluate(&null, &mut pawns),
        );
        if a.abs() >= KNOWN_WIN || b.abs() >= KNOWN_WIN {
            continue;
        }
        assert!(
            (b - (-a + 2 * NULL_MOVE_TEMPO)).abs() <= 6,
            "{fen}: eval {a}, after a null move {b}"
        );
        n += 1;
    }
    assert!(n >= 10);
}

/// With a network the search evaluates through the incremental accumulators; debug builds check
/// each of those evaluations against the network's full-refresh reference (in `accumulator.rs`),
/// so this search exercises every place the search records a move (root, interior, null move,
/// quiescence). Two runs must also search the same tree.
#[test]
fn network_search_is_consistent_and_deterministic() {
    let net = Arc::new(crate::Network::random(32, 8, 11).unwrap());
    let options = Options {
        network: Some(net),
        ..Options::default()
    };
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let run = |fen: &str| {
        let pos = Position::from_fen(fen).unwrap();
        let tt = TranspositionTable::new(4);
        let control = Control::new();
        let r = search(&SearchJob::new(&pos, &tt, &control, &limits, &options));
        assert!(pos.legal_moves().contains(r.best));
        (r.nodes, r.best, r.score)
    };
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkb1r/pp1p1ppp/2p5/4P3/2B5/8/PPP1NnPP/RNBQK2R w KQkq - 0 6",
    ] {
        assert_eq!(run(fen), run(fen), "{fen}");
    }
}

/// The last line reported before the search returns starts with the move it returns (GUIs and
/// match runners such as fastchess read the two together). Node limits stop the searches at
/// many points of an iteration: after a root move beat the previous best, during the re-search
/// of a fail-high, between iterations.
#[test]
fn last_reported_line_starts_with_the_best_move() {
    struct Last(Mutex<Option<Info>>);
    impl Reporter for Last {
        fn info(&self, info: &Info) {
            *self.0.lock().unwrap() = Some(info.clone());
        }
    }
    let fens = [
        ply_chess::STARTPOS,
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ];
    let mut checked = 0;
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        for nodes in (1..=40).map(|k| 50 * k * k) {
            let tt = TranspositionTable::new(1);
            let last = Last(Mutex::new(None));
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let options = Options::default();
            let r = search(&SearchJob {
                reporter: &last,
                ..SearchJob::new(&pos, &tt, &Control::new(), &limits, &options)
            });
            let info = last.0.into_inner().unwrap().expect("a line was reported");
            assert_eq!(info.pv[0], r.best, "{fen} at {nodes} nodes: {info:?}");
            assert_eq!(r.ponder, info.pv.get(1).copied(), "{fen} at {nodes} nodes");
            checked += 1;
        }
    }
    assert_eq!(checked, 200);
}
