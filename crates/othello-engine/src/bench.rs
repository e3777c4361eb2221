//! The fixed benchmark of the search (`ply-othello bench`): 16 positions from WTHOR game
//! prefixes (12 to 50 moves played), each searched from an empty table at a fixed level with
//! one thread. The node count is deterministic and identifies the search's behaviour: commits
//! that change the search state their new count.

use crate::engine::{Engine, EngineOptions};
use crate::platform::Instant;
use crate::request::Limits;
use ply_othello::{Position, Square};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Level of the benchmark searches.
pub const BENCH_LEVEL: u8 = 12;

/// Move sequences from the start position (prefixes of 2005 WTHOR games).
pub const BENCH_GAMES: [&str; 16] = [
    "f5f6e6f4g5e7f7d6f3g6d8h5",
    "f5f6e6f4e3c5c4e7b5e2g5g4f3d3d2c3",
    "f5f6e6f4g5g6g4e7f3h5d6c6d7c5f7e3c3c4g3h4",
    "f5d6c3d3c4f4c5b4e3e6c6b6e7f3d7e2b5c2d2b3a3a6g4a4",
    "f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6a5f3a3g4d7f6e1a4a7e7a2d8",
    "f5d6c3d3c4f4f6g5e6c5e3f3g6e2b6d2c2b5h5e7d7b3e8f7g4g3f8c1f2h4",
    "f5f6e6f4e3d6g5d3c4e2f2c3c5b3e1g6d7b5e7c6c7f8b4a5b6e8a4a6a7b8d8c8",
    "f5d6c4d3e6f4e3f3g4g3d2f6g5e2c7c3c2c5d7c6h3d8c8e7b6e8f8b5a5f7b4b3a3d1",
    "f5f6e6f4e3c5c4d6b5c3d3f3d2b4g3f2c7e2a4c6c2a5a6a3b6b3a2b8d8c8a8h4e1g4h3h2",
    "f5f6e6f4e3c5c4e7c6e2f3d3c3d2e1c1f2g4d1f1g6g5h5c2d6b3h3b5f8b6a6h4a5d7e8c7d8f7",
    "f5f6e6f4c3c6c5c4e3d3f3c2d2e1c1e2b4g4d6a4d1b1b5a5b3a3a6a7d7f7b2b7c7b8e7c8d8e8b6a1",
    "f5d6c3f4f6g5e6d7g3f3e3c4h4f7e7g6f8h5h6c2d3e8b4a5b3a4c1e2f1c5d2f2c8d8a2g4h3c7b7c6b6b5",
    "f5d6c3d3c4f4f6f3e6e7c6g5d2d7f8c5b4c7e8b5b6a6f7e3g6h6g4d8c8c2h4a5a4a3b3h3f2g3h5a2g2e2f1e1",
    "f5d6c3d3c4f4f6g5e6c5f3f7e7e3g4b5e2d2g3h4h3h2c7f1h5h6c2b3g6d8e1h7d1d7c8c6e8f8g8f2b6a6a3b2a1c1",
    "f5d6c5f4e3c6d7e6f6d3c7g5e7b5b4b6c4e8d8c3a6a5f8f7g3c8b8e2g4g6g8f3h5h4h3h7h6h2a3a4e1d2b3c2c1f1b2d1",
    "f5d6c3d3c4f4c5b4b5c6e3f3b6e6a5a3a4e2g4d2c2b3a2g3d1f1e1f2g1g6f7h3f6a6a7g5e7d7e8c8c7f8g8b2h5b8h4c1b1a1",
];

/// Result of one benchmark position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// Empties of the position.
    pub empties: u32,
    /// Best move found.
    pub best: Square,
    /// Its score.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Runs the first `count` benchmark positions at `level` with `threads` threads (fresh
/// 64 MiB tables per position; deterministic with one thread); returns the per-position
/// results and the total time.
pub fn run(count: usize, level: u8, threads: usize) -> (Vec<BenchLine>, Duration) {
    let mut engine = Engine::new(EngineOptions {
        threads,
        ..EngineOptions::default()
    });
    let mut lines = Vec::new();
    let mut time = Duration::ZERO;
    for game in BENCH_GAMES.iter().take(count) {
        // the sequences are constants checked by a test: a bad one is skipped, not fatal
        let Ok(pos) = ply_othello::parse_and_play(Position::start(), game) else {
            continue;
        };
        let b = pos.board;
        engine.new_game();
        let limits = Limits {
            level: Some(level),
            ..Limits::default()
        };
        let t = Instant::now();
        let out = engine.think(&b, &limits, &AtomicBool::new(false), &mut |_| {});
        time += t.elapsed();
        lines.push(BenchLine {
            empties: b.empty_count(),
            best: out.best,
            score: out.score,
            nodes: out.nodes,
        });
    }
    (lines, time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_games_are_legal() {
        for g in BENCH_GAMES {
            assert!(
                ply_othello::parse_and_play(Position::start(), g).is_ok(),
                "{g}"
            );
        }
    }

    #[test]
    fn reduced_bench_is_deterministic() {
        let (a, _) = run(4, 6, 1);
        let (b, _) = run(4, 6, 1);
        assert_eq!(a.len(), 4);
        assert_eq!(a, b);
        assert!(a.iter().all(|l| l.nodes > 0));
    }
}
