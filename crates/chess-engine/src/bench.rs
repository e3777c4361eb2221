//! `ply-chess bench`: a fixed set of positions searched to a fixed depth with one thread and a
//! fixed hash size. The node count is deterministic and identifies the search behaviour; commit
//! messages that change it state the new count (`Bench: N`).

use crate::engine::{Engine, EngineOptions};
use crate::nnue::Network;
use crate::platform::Instant;
use crate::search::{Control, Silent};
use crate::time::Limits;
use ply_chess::Position;
use std::sync::Arc;
use std::time::Duration;

/// Default bench depth.
pub const DEFAULT_DEPTH: i32 = 13;
/// Hash size used by bench (MiB).
pub const HASH_MB: usize = 16;

/// The bench positions: openings, middlegames with tactics, and endgames (some recognised).
pub const POSITIONS: [&str; 14] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1Q1PPP/R3KB1R w KQ - 0 8",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkb1r/pp1p1ppp/2p5/4P3/2B5/8/PPP1NnPP/RNBQK2R w KQkq - 0 6",
    "3r1rk1/p4ppp/1pn1b3/2p1P3/2P2B2/2N2N1P/PP3PP1/R4RK1 b - - 0 18",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/1p1k4/p1p5/P1P1K3/1P6/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/8/4k3/8/8/3PK3/8 w - - 0 1",
    "8/8/8/8/3k4/8/8/2BNK3 w - - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
];

/// Result of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Wall-clock time.
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` with a fresh 16 MiB table and one thread, with the
/// hand-made evaluation.
pub fn bench(depth: i32) -> BenchResult {
    bench_with(depth, None)
}

/// [`bench()`] with the evaluation given: `network`'s, or the hand-made one for `None`. The node
/// count is as deterministic with a network as without (it then identifies search and network).
pub fn bench_with(depth: i32, network: Option<Arc<Network>>) -> BenchResult {
    let start = Instant::now();
    let mut nodes = 0;
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut engine = Engine::new(EngineOptions {
        hash_mib: HASH_MB,
        threads: 1,
        network,
    });
    for fen in POSITIONS {
        let Ok(pos) = Position::from_fen(fen) else {
            continue;
        };
        // each position as a new game: the count does not depend on the order
        engine.new_game();
        nodes += engine
            .think(&pos, &[], &limits, &Control::new(), &Silent)
            .nodes;
    }
    BenchResult {
        nodes,
        time: start.elapsed(),
    }
}
