//! The engines' deterministic benchmarks, as their command lines run them (`ply-othello bench`,
//! `ply-chess bench`), for comparing node rates in the browser with native builds
//! (tools/site/bench.py): the same positions, so the same node counts.

use ply_chess_engine::{bench_with, embedded_network, BENCH_DEPTH};
use ply_othello_engine::bench::{self, BENCH_GAMES, BENCH_LEVEL};
use serde_json::{json, Value};

/// `ply-othello bench` (every position at the bench level, one thread): nodes, milliseconds
/// and nodes per second.
pub fn othello() -> Value {
    let (lines, time) = bench::run(BENCH_GAMES.len(), BENCH_LEVEL, 1);
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    report(nodes, time.as_secs_f64())
}

/// `ply-chess bench` (every position to the bench depth with the built-in network): nodes,
/// milliseconds and nodes per second.
pub fn chess() -> Value {
    let r = bench_with(BENCH_DEPTH, embedded_network());
    report(r.nodes, r.time.as_secs_f64())
}

fn report(nodes: u64, secs: f64) -> Value {
    json!({
        "nodes": nodes,
        "ms": (secs * 1000.0).round() as u64,
        "nps": (nodes as f64 / secs.max(1e-9)) as u64,
    })
}
