//! Table sizes that cannot be allocated are refused with an error, never an abort.

use ply_othello::Board;
use ply_othello_engine::{
    hash_limit_mib, Engine, EngineOptions, Limits, Solver, TableError, MAX_HASH_MIB,
};
use std::sync::atomic::AtomicBool;

fn small() -> EngineOptions {
    EngineOptions {
        hash_mib: 2,
        ..EngineOptions::default()
    }
}

#[test]
fn engine_refuses_a_table_above_the_maximum() {
    let err = Engine::try_new(EngineOptions {
        hash_mib: 99_999_999,
        ..EngineOptions::default()
    })
    .err();
    let max = hash_limit_mib();
    assert_eq!(
        err,
        Some(TableError::TooLarge {
            mib: 99_999_999,
            max
        })
    );
    let text = err.map(|e| e.to_string()).unwrap_or_default();
    assert!(text.contains("99999999 MiB"), "{text}");
    assert!(text.contains(&format!("the {max} MiB allowed")), "{text}");
    assert!(text.contains(&MAX_HASH_MIB.to_string()), "{text}");
}

#[test]
fn the_limit_is_decided_before_the_system_is_asked() {
    // one MiB over this machine's limit is refused with the limit named, whatever the kernel
    // would have granted: the same answer on every host of the same memory
    let max = hash_limit_mib();
    let err = Engine::try_new(EngineOptions {
        hash_mib: max + 1,
        ..EngineOptions::default()
    })
    .err();
    assert_eq!(err, Some(TableError::TooLarge { mib: max + 1, max }));
    assert!(matches!(
        Solver::try_new(max + 1, false),
        Err(TableError::TooLarge { .. })
    ));
}

#[test]
fn solver_refuses_a_table_above_the_maximum() {
    assert!(matches!(
        Solver::try_new(usize::MAX, false),
        Err(TableError::TooLarge { .. })
    ));
    assert!(matches!(
        Solver::try_with_threads(MAX_HASH_MIB + 1, true, 2),
        Err(TableError::TooLarge { .. })
    ));
    assert!(Solver::try_new(1, false).is_ok());
}

#[test]
fn a_failed_resize_keeps_the_engine_playing() {
    let mut engine = Engine::try_new(small()).expect("2 MiB");
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let before = engine.think(&Board::start(), &limits, &stop, &mut |_| {});
    assert_eq!(
        engine.set_hash(MAX_HASH_MIB + 1),
        Err(TableError::TooLarge {
            mib: MAX_HASH_MIB + 1,
            max: hash_limit_mib()
        })
    );
    let after = engine.think(&Board::start(), &limits, &stop, &mut |_| {});
    assert_eq!((before.best, before.score), (after.best, after.score));
    assert!(engine.set_hash(4).is_ok());
    assert!(engine.try_sibling(MAX_HASH_MIB * 2).is_err());
}
