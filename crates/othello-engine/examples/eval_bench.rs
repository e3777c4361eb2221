//! Speed of the pattern evaluation: feature update (portable vs AVX2) and evaluation (scalar
//! vs gathered lookups) over the positions of random games, best of several rounds; the
//! evaluation with the shipped weights (Edax's 46 features, Edax-sized tables) and with weights
//! that use all 62 features (full tables).
//!
//! `cargo run --release -p ply-othello-engine --example eval_bench`

use ply_othello::Board;
use ply_othello_engine::eval::pattern::{KINDS, N_EDAX_KINDS};
use ply_othello_engine::eval::{embedded_weights, Features, Weights};
use ply_testkit::XorShift64;
use std::hint::black_box;
use std::time::Instant;

/// Positions of pseudo-random games: (features before, move, flipped, empties).
fn positions(games: usize) -> Vec<(Features, usize, u64, usize)> {
    let mut rng = XorShift64::new(0x9E37_79B9_7F4A_7C15);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut b = Board::start();
        let mut f = Features::new(b.player(), b.opponent());
        loop {
            let moves = b.moves();
            if moves == 0 {
                if b.opponent_moves() == 0 {
                    break;
                }
                b.pass();
                f = f.pass();
                continue;
            }
            let x = rng.pick_bit(moves);
            let flipped = b.flips(x);
            out.push((f, x, flipped, b.empty_count() as usize));
            f = f.update(x, flipped);
            b.play_flips(x, flipped);
        }
    }
    out
}

fn best_ns(rounds: usize, n: usize, mut run: impl FnMut() -> i64) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(run());
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / n as f64);
    }
    best
}

fn main() {
    let shipped = embedded_weights().expect("embedded weights");
    // the same weights plus one non-zero entry of an extra kind: full tables
    let mut full = shipped.clone();
    for stage in &mut full.stages {
        stage[KINDS[N_EDAX_KINDS].packed_offset as usize] = 4;
    }
    let pos = positions(2000);
    let n = pos.len();
    println!("{n} positions from 2000 random games; ns per call, best of 7 rounds");
    let upd = best_ns(7, n, || {
        pos.iter()
            .map(|(f, x, fl, _)| i64::from(f.update_portable(*x, *fl).lanes()[0]))
            .sum()
    });
    println!("update portable  {upd:6.2} ns");
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 checked just above.
        let upd = best_ns(7, n, || {
            pos.iter()
                .map(|(f, x, fl, _)| i64::from(unsafe { f.update_avx2(*x, *fl) }.lanes()[0]))
                .sum()
        });
        println!("update avx2      {upd:6.2} ns");
    }
    for (name, packed) in [
        ("shipped weights (46 features)", &shipped),
        ("62 features", &full),
    ] {
        let w = Weights::new(packed);
        println!("{name}: {} runtime tables", w.n_tables());
        evaluations(&w, &pos);
    }
}

/// Evaluation speed of `w` over `pos`, in game order and grouped by empties.
fn evaluations(w: &Weights, pos: &[(Features, usize, u64, usize)]) {
    let n = pos.len();
    let ev = best_ns(7, n, || {
        pos.iter()
            .map(|(f, _, _, e)| i64::from(w.evaluate_scalar(f, *e)))
            .sum()
    });
    println!("evaluate scalar  {ev:6.2} ns");
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 checked just above.
        let ev = best_ns(7, n, || {
            pos.iter()
                .map(|(f, _, _, e)| i64::from(unsafe { w.evaluate_avx2(f, *e) }))
                .sum()
        });
        println!("evaluate gather  {ev:6.2} ns");
    }
    let ev = best_ns(7, n, || {
        pos.iter()
            .map(|(f, _, _, e)| i64::from(w.evaluate(f, *e)))
            .sum()
    });
    println!("evaluate (dispatched) {ev:6.2} ns");
    // A search evaluates many positions of one ply in a row, so its table stays in cache.
    let mut sorted = pos.to_vec();
    sorted.sort_by_key(|p| p.3);
    let ev = best_ns(7, n, || {
        sorted
            .iter()
            .map(|(f, _, _, e)| i64::from(w.evaluate_scalar(f, *e)))
            .sum()
    });
    println!("evaluate scalar, grouped by empties     {ev:6.2} ns");
    let ev = best_ns(7, n, || {
        sorted
            .iter()
            .map(|(f, _, _, e)| i64::from(w.evaluate(f, *e)))
            .sum()
    });
    println!("evaluate dispatched, grouped by empties {ev:6.2} ns");
}
