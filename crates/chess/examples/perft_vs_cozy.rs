//! Side-by-side single-thread perft of ply-chess and cozy-chess 0.3 (bulk counting in both), run in
//! alternation on the same positions so that machine noise hits both alike. Prints Mnps and the ratio.
//! With `--variants` it also times ply-chess with magic lookups instead of PEXT, and with
//! copy-make instead of make/unmake (the question of the Mediocre chess blog's "New move
//! representation": where undo information lives).
//!
//! `cargo run --release -p ply-chess --example perft_vs_cozy [rounds] [--variants]`
//!
//! cozy-chess's fastest build is its `pext` feature, which only compiles with BMI2 enabled at
//! compile time:
//! `RUSTFLAGS="-C target-cpu=native" cargo run --release -p ply-chess --example perft_vs_cozy
//! --features cozy-chess/pext -- 7`. To set ply-chess's portable build (run-time PEXT dispatch)
//! against that, build the example twice (two target directories) and run `--engine ply` of the
//! portable one and `--engine cozy` of the native one in alternation
//! (`tools/chess/perft_vs_cozy_split.sh`): each process then times one engine only.

use std::time::Instant;

const CASES: [(&str, &str, u32, u64); 2] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        119_060_324,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        193_690_690,
    ),
];

/// cozy-chess perft as in its own examples: bulk count with `moves.len()` at depth 1.
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

/// Nanoseconds this thread has spent on a CPU (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`), if the
/// platform says. On a shared machine this is far less noisy than wall-clock time, which also counts
/// waiting. (`/proc/thread-self/schedstat` is quantised to scheduler ticks for a running thread.)
fn thread_cpu_ns() -> Option<u64> {
    ply_testkit::thread_cpu_time().map(|d| d.as_nanos() as u64)
}

/// Median of a non-empty list.
fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Runs `f` once, checks its node count and returns Mnps (over on-CPU time when available).
fn time<F: FnMut() -> u64>(expected: u64, mut f: F) -> f64 {
    let cpu0 = thread_cpu_ns();
    let start = Instant::now();
    let n = f();
    let wall = start.elapsed().as_secs_f64();
    let secs = match (cpu0, thread_cpu_ns()) {
        (Some(a), Some(b)) if b > a => (b - a) as f64 / 1e9,
        _ => wall,
    };
    assert_eq!(n, expected, "wrong node count");
    n as f64 / secs / 1e6
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(5);
    let variants = args.iter().any(|a| a == "--variants");
    // `--engine ply` / `--engine cozy`: time one engine only (for runs of two differently built
    // binaries in alternation); default both, alternating within this process.
    let engine = args
        .iter()
        .position(|a| a == "--engine")
        .and_then(|i| args.get(i + 1))
        .map_or("both", String::as_str);
    let (run_ply, run_cozy) = match engine {
        "ply" => (true, false),
        "cozy" => (false, true),
        _ => (true, true),
    };
    println!(
        "timing: {}",
        if thread_cpu_ns().is_some() {
            "on-CPU thread time (clock_gettime(CLOCK_THREAD_CPUTIME_ID))"
        } else {
            "wall clock"
        }
    );
    println!(
        "ply-chess sliders: {}; cozy-chess: {}; compiled with bmi2: {}",
        if ply_chess::Pext::detect().is_some() {
            "PEXT (BMI2)"
        } else {
            "magic"
        },
        if cfg!(target_feature = "bmi2") {
            "pext feature possible (bmi2 at compile time)"
        } else {
            "magics (no bmi2 at compile time, so no pext feature)"
        },
        cfg!(target_feature = "bmi2"),
    );
    let mut summary = Vec::new();
    for (name, fen, depth, expected) in CASES {
        let ply = ply_chess::Position::from_fen(fen).expect("valid FEN");
        let cozy = cozy_chess::Board::from_fen(fen, false).expect("valid FEN");
        let (mut plys, mut cozys) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            let mut a = f64::NAN;
            let mut b = f64::NAN;
            // Alternate which engine goes first.
            for turn in 0..2 {
                if (turn + round) % 2 == 0 {
                    if run_ply {
                        a = time(expected, || ply_chess::perft(&ply, depth));
                    }
                } else if run_cozy {
                    b = time(expected, || cozy_perft(&cozy, depth));
                }
            }
            println!(
                "{name} d{depth} round {round}: ply {a:7.1} Mnps  cozy {b:7.1} Mnps  ratio {:.2}",
                a / b
            );
            if variants {
                let magic = time(expected, || {
                    ply_chess::perft_with(&ply, depth, ply_chess::Magic)
                });
                let copy = match ply_chess::Pext::detect() {
                    Some(p) => time(expected, || ply_chess::perft_copy_make(&ply, depth, p)),
                    None => time(expected, || {
                        ply_chess::perft_copy_make(&ply, depth, ply_chess::Magic)
                    }),
                };
                println!("    variants: ply magic {magic:7.1} Mnps, ply copy-make {copy:7.1} Mnps");
            }
            plys.push(a);
            cozys.push(b);
        }
        let ratios: Vec<f64> = plys.iter().zip(&cozys).map(|(a, b)| a / b).collect();
        println!(
            "{name} d{depth}: median ply {:.1} / cozy {:.1} Mnps; median of round ratios {:.2}; \
             ratio of means {:.2}",
            median(&plys),
            median(&cozys),
            median(&ratios),
            plys.iter().sum::<f64>() / cozys.iter().sum::<f64>(),
        );
        summary.push((name, median(&ratios)));
    }
    println!("median ratios: {summary:.2?}");
}
