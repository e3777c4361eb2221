//! A multi-threaded search leaves no thread of its own behind: when `Engine::think` returns,
//! every search thread's OS thread has exited, not only its closure. (A fuzz run of the UCI
//! front-end found LeakSanitizer reports from helpers still tearing down after the search had
//! answered.)
//!
//! This file holds one test so that no other test's threads change the count it reads.

use ply_chess::Position;
use ply_chess_engine::{Control, Engine, EngineOptions, Limits, Silent};

/// The threads of this process, read from `/proc/self/task` (Linux only).
fn thread_count() -> Option<usize> {
    Some(std::fs::read_dir("/proc/self/task").ok()?.count())
}

#[test]
fn helper_threads_have_exited_when_search_returns() {
    let Some(before) = thread_count() else {
        ply_testkit::skip_unsupported("/proc/self/task is not readable on this system");
        return;
    };
    let pos =
        Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .expect("valid FEN");
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 4,
        threads: 4,
        network: None,
    });
    for nodes in [1_000, 20_000, 50_000] {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let r = engine.think(&pos, &[], &limits, &Control::new(), &Silent);
        assert!(r.nodes > 0);
        // read at once: a detached helper would still be listed here
        assert_eq!(thread_count(), Some(before), "after a {nodes}-node search");
    }
}
