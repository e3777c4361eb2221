//! Speed of the flip / get_moves variants and of perft per CPU level.
//!
//! `cargo run --release -p ply-othello --example perft_bench [PERFT_DEPTH]` (default depth 12).

use ply_othello::{flip, moves, perft_with, Board, Cpu};
use ply_testkit::XorShift64;
use std::hint::black_box;
use std::time::Instant;

/// (player, opponent, legal square) triples from deterministic random games.
fn samples(n: usize) -> Vec<(u64, u64, usize)> {
    let mut rng = XorShift64::new(0x1234_5678_9ABC_DEF1);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut b = Board::start();
        while !b.is_game_over() {
            let m = b.moves();
            if m == 0 {
                b.pass();
                continue;
            }
            let sq = rng.pick_bit(m);
            out.push((b.player(), b.opponent(), sq));
            b.play(sq);
        }
    }
    out.truncate(n);
    out
}

fn time_ns(name: &str, s: &[(u64, u64, usize)], rounds: usize, f: impl Fn(u64, u64, usize) -> u64) {
    let (start, cpu0) = (Instant::now(), cpu_seconds());
    let mut acc = 0u64;
    for _ in 0..rounds {
        for &(p, o, sq) in s {
            acc = acc.wrapping_add(f(black_box(p), black_box(o), black_box(sq)));
        }
    }
    let calls = (rounds * s.len()) as f64;
    let ns = start.elapsed().as_nanos() as f64 / calls;
    let cpu_ns = (cpu_seconds() - cpu0) * 1e9 / calls;
    println!("{name:<24} {ns:7.2} ns/call wall {cpu_ns:7.2} ns/call CPU  (checksum {acc:x})");
}

fn main() {
    let depth: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(12);
    let s = samples(100_000);
    let rounds = 200;
    println!(
        "{} samples x {rounds} rounds, CPU level {}",
        s.len(),
        Cpu::detect().name()
    );
    time_ns("flip scalar", &s, rounds, |p, o, sq| {
        flip::scalar::flip(sq, p, o)
    });
    time_ns("flip portable", &s, rounds, |p, o, sq| {
        flip::portable::flip(sq, p, o)
    });
    time_ns("get_moves scalar", &s, 10, |p, o, _| {
        moves::scalar::get_moves(p, o)
    });
    time_ns("get_moves portable", &s, rounds, |p, o, _| {
        moves::portable::get_moves(p, o)
    });
    #[cfg(target_arch = "x86_64")]
    {
        if Cpu::Avx2.is_supported() {
            // SAFETY (all closures below): the CPU level was checked just above.
            time_ns("flip avx2", &s, rounds, |p, o, sq| unsafe {
                flip::avx2::flip(sq, p, o)
            });
            time_ns("get_moves avx2", &s, rounds, |p, o, _| unsafe {
                moves::avx2::get_moves(p, o)
            });
        }
        if Cpu::Avx512.is_supported() {
            time_ns("flip avx512", &s, rounds, |p, o, sq| unsafe {
                flip::avx512::flip(sq, p, o)
            });
            time_ns("get_moves avx512", &s, rounds, |p, o, _| unsafe {
                moves::avx512::get_moves(p, o)
            });
        }
    }
    #[cfg(target_arch = "x86_64")]
    if Cpu::Avx2.is_supported() {
        // SAFETY: AVX2 + LZCNT + BMI checked just above.
        time_ns("flip portable@avx2", &s, rounds, |p, o, sq| unsafe {
            portable_flip_avx2(sq, p, o)
        });
        time_ns("get_moves portable@avx2", &s, rounds, |p, o, _| unsafe {
            portable_moves_avx2(p, o)
        });
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let start = Instant::now();
    let n = ply_othello::perft_parallel(Board::start(), depth, threads);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft {depth} parallel x{threads}: {n} leaves in {secs:.2} s wall = {:.0} M leaves/s",
        n as f64 / secs / 1e6
    );
    for cpu in [Cpu::Portable, Cpu::Avx2, Cpu::Avx512] {
        if !cpu.is_supported() {
            continue;
        }
        let (start, cpu0) = (Instant::now(), cpu_seconds());
        let n = perft_with(Board::start(), depth, cpu).unwrap_or(0);
        let secs = start.elapsed().as_secs_f64();
        let cpu_secs = cpu_seconds() - cpu0;
        println!(
            "perft {depth} {:<9} {n} leaves in {secs:.2} s wall = {:.0} M leaves/s ({cpu_secs:.2} s CPU = {:.0} M leaves/s)",
            cpu.name(),
            n as f64 / secs / 1e6,
            n as f64 / cpu_secs / 1e6
        );
    }
}

/// The portable flip compiled with AVX2/BMI/LZCNT enabled (as it runs inside an AVX2 search).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn portable_flip_avx2(sq: usize, p: u64, o: u64) -> u64 {
    flip::portable::flip(sq, p, o)
}

/// The portable move generator compiled with AVX2/BMI/LZCNT enabled.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn portable_moves_avx2(p: u64, o: u64) -> u64 {
    moves::portable::get_moves(p, o)
}

/// CPU time (user + system) of this process so far (0 where the system does not say), to see
/// through the load of other processes on a shared machine.
fn cpu_seconds() -> f64 {
    ply_testkit::cputime::process().map_or(0.0, |d| d.as_secs_f64())
}
