//! Regression: a level-60 search after another search of the same game, whose table made the
//! next search unstable, re-searched its aspiration window for ever (met in self-play data
//! generation: fail low, fail high, fail low... with the window narrowed to each failed score).

use ply_othello::Board;
use ply_othello_engine::{Engine, EngineOptions, Limits};
use std::sync::atomic::AtomicBool;

#[test]
fn a_search_after_a_search_ends() {
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 16,
        threads: 1,
        weights: None,
    });
    let stop = AtomicBool::new(false);
    let limits = Limits {
        level: Some(60),
        ..Limits::default()
    };
    // 20 empties, then the position two moves later (19 empties), both exact at level 60
    let first = Board::new(13862203040749733888, 220411429755619079).unwrap();
    let out = engine.think(&first, &limits, &stop, &mut |_| {});
    assert_eq!(out.score, -58);
    let second = Board::new(220411429755618055, 13862203040749734920).unwrap();
    let out = engine.think(&second, &limits, &stop, &mut |_| {});
    assert!(out.exact);
    assert_eq!(out.score, 58);
    // the hang spent tens of millions of nodes in the 6-ply iteration; a normal search a few
    // hundred thousand at most
    assert!(out.nodes < 5_000_000, "{} nodes", out.nodes);
}
