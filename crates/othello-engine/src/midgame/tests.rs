//! Tests of the engine's `think`: exact scores against the solver, passes, game over, the
//! stop flag, the clock, determinism and the all-moves mode.

use super::*;
use crate::bits::bit;
use crate::endgame::tests::random_position;
use crate::endgame::Mode;
use crate::engine::*;
use crate::kernel::Kernel;
use crate::kernel::Portable;
use crate::request::*;
use crate::solver::Solver;
use ply_othello::Square;
use ply_testkit::XorShift64;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

const START: (u64, u64) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);

/// The tests of this module run one at a time so that the searches do not compete for the CPU.
/// Time limits are checked on the search thread's CPU time, which a loaded machine cannot
/// inflate, with only generous sanity bounds on the wall clock (the measured figures are in
/// docs/benchmarks/othello-speed.md, not asserted here).
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The checked board of a test position (random positions never overlap).
fn board(p: u64, o: u64) -> ply_othello::Board {
    ply_othello::Board::new(p, o).expect("disjoint test position")
}

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mib: 8,
        ..EngineOptions::default()
    })
}

/// A random position with `n` empties in which the side to move has a legal move, so that
/// every drawn position is checked (none is skipped).
fn playable_position(rng: &mut XorShift64, n: u32) -> (u64, u64) {
    loop {
        let (p, o) = random_position(Portable, rng, n);
        if Portable.moves(p, o) != 0 {
            return (p, o);
        }
    }
}

fn think(e: &mut Engine, p: u64, o: u64, limits: &Limits) -> Outcome {
    e.think(&board(p, o), limits, &AtomicBool::new(false), &mut |_| {})
}

#[test]
fn exact_scores_match_the_solver() {
    let _serial = serial();
    let mut e = engine();
    let mut solver = Solver::new(8, false);
    let mut rng = XorShift64::new(0x5eed_1234);
    for &n in &[8u32, 12, 14, 16, 18] {
        for _ in 0..3 {
            let (p, o) = playable_position(&mut rng, n);
            let want = solver.solve(&board(p, o), Mode::Exact).score;
            let got = think(&mut e, p, o, &Limits::default());
            assert!(got.exact, "n {n}");
            assert_eq!(got.score, want, "n {n} p {p:#x} o {o:#x}");
            // the best move reaches the same score
            let x = got.best.index();
            let f = Portable.flip(x, p, o);
            assert_ne!(f, 0, "legal best move");
            let child = solver
                .solve(&board(o ^ f, p ^ f ^ bit(x)), Mode::Exact)
                .score;
            assert_eq!(-child, want);
            // all-moves mode agrees on every move (the smaller positions: all are solved)
            if n > 14 {
                continue;
            }
            let all = think(
                &mut e,
                p,
                o,
                &Limits {
                    all_moves: true,
                    ..Limits::default()
                },
            );
            assert_eq!(all.moves.len(), Portable.moves(p, o).count_ones() as usize);
            assert_eq!(all.moves[0].score, want);
            for m in &all.moves {
                let x = m.square.index();
                let f = Portable.flip(x, p, o);
                assert_eq!(
                    -solver
                        .solve(&board(o ^ f, p ^ f ^ bit(x)), Mode::Exact)
                        .score,
                    m.score
                );
                assert!(m.exact);
            }
        }
    }
}

#[test]
fn wld_window_has_the_right_sign() {
    let _serial = serial();
    let mut e = engine();
    let mut solver = Solver::new(8, false);
    let mut rng = XorShift64::new(99);
    for _ in 0..4 {
        let (p, o) = playable_position(&mut rng, 21);
        let want = solver.solve(&board(p, o), Mode::Wdl).score;
        // level 11: exact from 20 empties, win/draw/loss from 22
        let got = think(
            &mut e,
            p,
            o,
            &Limits {
                level: Some(11),
                ..Limits::default()
            },
        );
        assert_eq!(got.score.signum(), want.signum(), "p {p:#x} o {o:#x}");
        assert!(!got.exact);
        assert_eq!(got.selectivity, 100);
    }
}

#[test]
fn pass_and_game_over() {
    let _serial = serial();
    let mut e = engine();
    // a random position where the mover must pass
    let mut rng = XorShift64::new(7);
    let mut found = false;
    for _ in 0..2000 {
        let (p, o) = random_position(Portable, &mut rng, 10);
        if Portable.moves(p, o) == 0 && Portable.moves(o, p) != 0 {
            // analysis: the position after the pass is searched, seen from the mover's side
            let want = -Solver::new(8, false).solve(&board(o, p), Mode::Exact).score;
            let all = Limits {
                all_moves: true,
                ..Limits::default()
            };
            let mut infos = Vec::new();
            let out = e.think(&board(p, o), &all, &AtomicBool::new(false), &mut |i| {
                infos.push(i.clone())
            });
            assert_eq!((out.best, out.score, out.exact), (Square::PASS, want, true));
            assert_eq!(out.pv[0], Square::PASS);
            assert!(out.pv.len() > 1);
            assert_eq!(out.moves.len(), 1);
            assert_eq!(
                (out.moves[0].square, out.moves[0].score),
                (Square::PASS, want)
            );
            let last = infos.last().expect("at least one iteration reported");
            assert_eq!((last.score, last.pv[0]), (want, Square::PASS));
            // in a game the forced pass is answered at once, with no search
            let clock = Limits {
                clock: Some(Clock {
                    remaining: Duration::from_secs(10),
                    increment: Duration::ZERO,
                    moves_to_go: None,
                }),
                ..Limits::default()
            };
            let out = think(&mut e, p, o, &clock);
            assert_eq!(
                (out.best, out.pv.clone(), out.nodes),
                (Square::PASS, vec![Square::PASS], 0)
            );
            found = true;
            break;
        }
    }
    assert!(found, "no pass position found");
    // game over: full board
    let (p, o) = (0xffff_ffff_ffff_0000u64, 0xffffu64);
    let out = think(&mut e, p, o, &Limits::default());
    assert_eq!((out.best, out.score, out.exact), (Square::PASS, 32, true));
}

#[test]
fn stop_flag_returns_quickly_with_a_legal_move() {
    let _serial = serial();
    let mut e = engine();
    let stop = AtomicBool::new(false);
    let (p, o) = START;
    let t = Instant::now();
    let out = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Relaxed);
        });
        e.think(
            &board(p, o),
            &Limits {
                level: Some(60),
                ..Limits::default()
            },
            &stop,
            &mut |_| {},
        )
    });
    // without the flag a level-60 search of the start position would not end
    let took = t.elapsed();
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert!(Portable.moves(p, o) & out.best.bit() != 0);
    // a flag already set still gives a legal move
    let out = e.think(&board(p, o), &Limits::default(), &stop, &mut |_| {});
    assert!(Portable.moves(p, o) & out.best.bit() != 0);
}

#[test]
fn stop_flag_aborts_the_exact_solver() {
    let _serial = serial();
    let mut e = engine();
    let mut rng = XorShift64::new(31);
    let (p, o) = random_position(Portable, &mut rng, 30);
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let limits = Limits {
        depth: Some(30),
        ..Limits::default()
    };
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(150));
            stop.store(true, Relaxed);
        });
        e.think(&board(p, o), &limits, &stop, &mut |_| {})
    });
    // generous: the flag is set after 150 ms, and only its poll may end a 30-empty solve this soon
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "took {:?}",
        t.elapsed()
    );
}

/// CPU time of this thread, where the single-threaded search runs; `None` (said once, never
/// fatal) on a platform without a per-thread CPU clock, where the time checks cannot be made:
/// the wall clock would count the time other processes held the CPU.
fn cpu_now() -> Option<Duration> {
    let t = ply_testkit::thread_cpu_time();
    if t.is_none() {
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| {
            ply_testkit::skip_unsupported("no per-thread CPU clock: clock use is not checked");
        });
    }
    t
}

/// A search on `clock` that must use less CPU time than the clock holds (and, as a sanity
/// bound against a search that ignores its clock, return within the clock plus 30 s of wall
/// time, generous for a loaded machine); returns the move and the CPU time (zero where the
/// platform cannot tell it).
fn think_on_clock(e: &mut Engine, p: u64, o: u64, remaining: Duration) -> (Square, Duration) {
    let clock = Clock {
        remaining,
        increment: Duration::ZERO,
        moves_to_go: None,
    };
    let (t, cpu) = (Instant::now(), cpu_now());
    let out = think(
        e,
        p,
        o,
        &Limits {
            clock: Some(clock),
            ..Limits::default()
        },
    );
    let wall = t.elapsed();
    let used = match (cpu, cpu_now()) {
        (Some(a), Some(b)) => b - a,
        _ => Duration::ZERO,
    };
    assert!(
        used < remaining,
        "CPU {used:?} of {remaining:?} at {p:#x} {o:#x}"
    );
    assert!(
        wall < remaining + Duration::from_secs(30),
        "wall {wall:?} of {remaining:?}"
    );
    (out.best, used)
}

/// Plays a game from `(p, o)` with `ms` milliseconds on each side's clock (no increment),
/// charging each side the CPU time of its searches; panics if a move takes longer than the
/// time left.
fn play_on_clock(e: &mut Engine, mut p: u64, mut o: u64, ms: u64) {
    let mut clocks = [Duration::from_millis(ms); 2];
    let mut side = 0;
    loop {
        if Portable.moves(p, o) == 0 {
            if Portable.moves(o, p) == 0 {
                return;
            }
            (p, o, side) = (o, p, 1 - side);
            continue;
        }
        let (best, used) = think_on_clock(e, p, o, clocks[side]);
        clocks[side] -= used;
        let x = best.index();
        let f = Portable.flip(x, p, o);
        assert_ne!(f, 0, "legal move");
        (p, o, side) = (o ^ f, p ^ f ^ bit(x), 1 - side);
    }
}

#[test]
fn a_50ms_clock_is_never_exceeded() {
    let _serial = serial();
    let mut e = engine();
    let mut rng = XorShift64::new(1234);
    for i in 0..40u32 {
        let (p, o) = playable_position(&mut rng, 12 + i % 48);
        let (best, _) = think_on_clock(&mut e, p, o, Duration::from_millis(50));
        assert!(Portable.moves(p, o) & best.bit() != 0);
    }
}

#[test]
fn whole_games_on_a_short_clock_never_lose_on_time() {
    let _serial = serial();
    let mut e = engine();
    play_on_clock(&mut e, START.0, START.1, 1500);
    let mut rng = XorShift64::new(77);
    let (p, o) = random_position(Portable, &mut rng, 50);
    play_on_clock(&mut e, p, o, 1000);
}

#[test]
fn fixed_depth_search_is_deterministic() {
    let _serial = serial();
    let (p, o) = START;
    let limits = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    let a = think(&mut engine(), p, o, &limits);
    let b = think(&mut engine(), p, o, &limits);
    assert_eq!(
        (a.best, a.score, a.nodes, &a.pv),
        (b.best, b.score, b.nodes, &b.pv)
    );
    assert_eq!(a.depth, 8);
    assert!(a.pv.len() >= 2);
}

#[test]
fn info_is_reported_per_iteration() {
    let _serial = serial();
    let (p, o) = START;
    let mut depths = Vec::new();
    engine().think(
        &board(p, o),
        &Limits {
            depth: Some(5),
            ..Limits::default()
        },
        &AtomicBool::new(false),
        &mut |i| depths.push(i.depth),
    );
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
}

#[test]
fn threads_agree_on_exact_scores() {
    let _serial = serial();
    let mut e = Engine::new(EngineOptions {
        hash_mib: 8,
        threads: 2,
        weights: None,
    });
    let mut solver = Solver::new(8, false);
    let mut rng = XorShift64::new(4242);
    for _ in 0..3 {
        let (p, o) = playable_position(&mut rng, 18);
        let out = think(&mut e, p, o, &Limits::default());
        assert_eq!(out.score, solver.solve(&board(p, o), Mode::Exact).score);
    }
}

/// Fixed-depth searches of nine bench positions with and without Multi-ProbCut: selectivity
/// must save nodes, the more so the more selective (about 10 s; the figures print with
/// `mpc_saves_nodes -- --nocapture`; at depth 14 the cut is 116.7 M nodes at 100 %, 9.4 M at
/// 95 % and 2.6 M at 73 %).
#[test]
fn mpc_saves_nodes() {
    let _serial = serial();
    use super::worker::MidgameKernel;
    use super::worker::Worker;
    use crate::eval::{Features, Weights};
    use crate::tt::Tt;
    use std::sync::Arc;
    let w = Arc::new(Weights::new(&crate::eval::embedded_weights().unwrap()));
    let run = |depth: u32, sel: u8| {
        let (mut nodes, mut time, mut sum) = (0u64, Duration::ZERO, 0i32);
        for g in crate::bench::BENCH_GAMES.iter().take(9) {
            let pos = ply_othello::parse_and_play(ply_othello::Position::start(), g).unwrap();
            let (p, o) = (pos.board.player(), pos.board.opponent());
            let abort = Arc::new(AtomicBool::new(false));
            let mut wk = Worker::new(
                Portable,
                Arc::clone(&w),
                Arc::new(Tt::new(64)),
                Arc::new(Tt::new(16)),
                abort,
            );
            let f = Features::new(p, o);
            let mut pv = Vec::new();
            let t = Instant::now();
            for d in 1..=depth {
                wk.sel = sel;
                sum += if d == depth {
                    Portable::pvs(&mut wk, p, o, &f, -64, 64, d, &mut pv)
                } else {
                    0
                };
                if d < depth {
                    Portable::pvs(&mut wk, p, o, &f, -64, 64, d, &mut pv);
                }
            }
            time += t.elapsed();
            nodes += wk.nodes;
        }
        eprintln!(
            "depth {depth} selectivity {}%: {nodes} nodes, {time:?}, sum of scores {sum}",
            SELECTIVITIES[sel as usize]
        );
        nodes
    };
    for depth in [10, 12] {
        let n73 = run(depth, 0);
        let n95 = run(depth, 2);
        let n100 = run(depth, 5);
        assert!(n73 < n95 && n95 < n100);
    }
}

#[test]
fn engine_is_send_and_levels_drive_the_schedule() {
    fn send<T: Send>() {}
    send::<Engine>();
    use super::think::{schedule, Stage};
    // default level 21 at 40 empties: midgame depths 1..=21 at 73%
    let s = schedule(&Limits::default(), 40);
    assert_eq!(s.len(), 21);
    assert!(s.iter().all(|st| st.sel == 0 && !st.wld));
    // 24 empties (exact from 25): a few midgame depths, selective endgame, then exact
    let s = schedule(&Limits::default(), 24);
    assert_eq!(
        *s.last().unwrap(),
        Stage {
            depth: 24,
            sel: 5,
            wld: false
        }
    );
    assert!(s.iter().any(|st| st.depth == 24 && st.sel == 0));
    // 27 empties: win/draw/loss last
    assert!(schedule(&Limits::default(), 27).last().unwrap().wld);
    // 12 empties: straight to the solver after one midgame ply
    assert_eq!(schedule(&Limits::default(), 12).len(), 2);
    // a fixed depth short of the end never solves
    let s = schedule(
        &Limits {
            depth: Some(6),
            ..Limits::default()
        },
        30,
    );
    assert_eq!(s.last().unwrap().depth, 6);
}

/// FFO #59 (34 empties, Black to move wipes White out with H4, G8 or E8): the wipe-out lies
/// within a 16-ply selective search, whose score must therefore be the 64 of a real end of the
/// game. A probable cut at the null window (−64, −63) used to take each wipe-out for a 63 (the
/// evaluation stops there), so the root stayed at 63 and the exact stage then needed 110 M
/// nodes instead of 10 M.
#[test]
fn a_wipe_out_within_the_selective_depth_scores_64() {
    let _g = serial();
    let line = "-----------------------O--OOOOO---OOOOOXOOOOXXXX--XXOOXX--XX-O-X X";
    let pos = ply_othello::parse_obf_line(line)
        .expect("a valid OBF line")
        .expect("not a comment")
        .position;
    let b = pos.board;
    for depth in [16u8, 17] {
        let o = think(
            &mut engine(),
            b.player(),
            b.opponent(),
            &Limits {
                depth: Some(depth),
                ..Limits::default()
            },
        );
        assert_eq!(o.score, 64, "depth {depth}: {o:?}");
    }
}

#[test]
fn pv_extension_follows_edax_steps() {
    // none below 10 plies or at the end, then 10, 12, 14 and 16 empties
    let want = [
        (9, 0),
        (10, 10),
        (12, 10),
        (13, 12),
        (18, 12),
        (19, 14),
        (24, 14),
        (25, 16),
    ];
    for (depth, ext) in want {
        assert_eq!(super::worker::pv_extension(depth, 40), ext, "depth {depth}");
    }
    assert_eq!(super::worker::pv_extension(20, 20), 0);
    assert_eq!(super::worker::pv_extension(30, 26), 0);
}

#[test]
fn a_midgame_iteration_resolves_its_line_to_the_end() {
    // 12 plies from 22 empties end at 10: the PV extension solves the line from there, so the
    // principal variation is a whole game's end (without it, 12 moves and an evaluation)
    let _serial = serial();
    let mut rng = XorShift64::new(0x9e37_0012);
    for _ in 0..3 {
        let (p0, o0) = playable_position(&mut rng, 22);
        let limits = Limits {
            depth: Some(12),
            ..Limits::default()
        };
        let out = think(&mut engine(), p0, o0, &limits);
        assert!(!out.exact, "a midgame search is not exact");
        let (mut p, mut o) = (p0, o0);
        for sq in &out.pv {
            if *sq != Square::PASS {
                let x = sq.index();
                let f = Portable.flip(x, p, o);
                assert_ne!(f, 0, "legal move in the line");
                (p, o) = (p ^ f ^ bit(x), o ^ f);
            }
            (p, o) = (o, p);
        }
        assert!(
            Portable.moves(p, o) == 0 && Portable.moves(o, p) == 0,
            "the line ends the game: {:?}",
            out.pv
        );
    }
}
