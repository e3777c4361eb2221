//! Side-by-side single-thread perft of ply-chess and cozy-chess 0.3 (bulk counting in both), run in
//! alternation on the same positions so that machine noise hits both alike. Prints Mnps and the ratio.
//!
//! `cargo run --release -p ply-chess --example perft_vs_cozy [rounds]`

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

fn time<F: FnMut() -> u64>(expected: u64, mut f: F) -> f64 {
    let start = Instant::now();
    let n = f();
    let s = start.elapsed().as_secs_f64();
    assert_eq!(n, expected, "wrong node count");
    n as f64 / s / 1e6
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
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
