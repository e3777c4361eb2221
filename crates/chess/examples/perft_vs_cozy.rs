//! Side-by-side single-thread perft of ply-chess and cozy-chess 0.3 (bulk counting in both), run in
//! alternation on the same positions so that machine noise hits both alike. Prints Mnps and the ratio.
//! With `--variants` it also times ply-chess with magic lookups instead of PEXT, and with
//! copy-make instead of make/unmake (the seed 002 question: where undo information lives).
//!
//! `cargo run --release -p ply-chess --example perft_vs_cozy [rounds] [--variants]`

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

/// Nanoseconds this thread has spent on a CPU (Linux `/proc/thread-self/schedstat`), if readable.
/// On a shared machine this is far less noisy than wall-clock time, which also counts waiting.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
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
    println!(
        "timing: {}",
        if thread_cpu_ns().is_some() {
            "on-CPU thread time (/proc/thread-self/schedstat)"
        } else {
            "wall clock"
        }
    );
    println!(
        "ply-chess sliders: {}",
        if ply_chess::Pext::detect().is_some() {
            "PEXT (BMI2)"
        } else {
            "magic"
        }
    );
    let mut totals = Vec::new();
    for (name, fen, depth, expected) in CASES {
        let ply = ply_chess::Position::from_fen(fen).expect("valid FEN");
        let cozy = cozy_chess::Board::from_fen(fen, false).expect("valid FEN");
        let (mut best_ply, mut best_cozy, mut sum_ply, mut sum_cozy) = (0f64, 0f64, 0f64, 0f64);
        for round in 0..rounds {
            // Alternate which engine goes first.
            let (a, b) = if round % 2 == 0 {
                let a = time(expected, || ply_chess::perft(&ply, depth));
                (a, time(expected, || cozy_perft(&cozy, depth)))
            } else {
                let b = time(expected, || cozy_perft(&cozy, depth));
                (time(expected, || ply_chess::perft(&ply, depth)), b)
            };
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
            best_ply = best_ply.max(a);
            best_cozy = best_cozy.max(b);
            sum_ply += a;
            sum_cozy += b;
        }
        println!(
            "{name} d{depth}: mean ply {:.1} / cozy {:.1} Mnps, ratio of means {:.2}; best {:.1} / {:.1}, ratio {:.2}",
            sum_ply / rounds as f64,
            sum_cozy / rounds as f64,
            sum_ply / sum_cozy,
            best_ply,
            best_cozy,
            best_ply / best_cozy
        );
        totals.push(sum_ply / sum_cozy);
    }
    println!("ratios of means: {totals:.2?}");
}
