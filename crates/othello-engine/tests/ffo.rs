//! FFO endgame suites (`../shared/othello/ffo`, data nobody here wrote): every best score exact
//! and the best move among the moves annotated with the best score ([`Obf::check`]). These are
//! the outside truth of the deep solver and of [`Mode::Wdl`] and [`Mode::AllMoves`].
//!
//! Without `../shared` the tests skip visibly through `ply_testkit` (a failure under
//! `PLY_STRICT=1`); a suite file that is there but holds fewer positions than the suite has is a
//! failure, so a truncated or empty file cannot pass. FFO #50-59 is the documented slow job
//! (`.ci/run-slow`); the rest runs in CI.

use ply_othello::{parse_obf, Obf, Verdict};
use ply_othello_engine::{Mode, Solver};
use std::ops::Range;

/// The positions of `name`, which must hold exactly `count` of them, or `None` after a visible
/// skip (a failure in strict mode) when the suites are absent.
fn load(name: &str, count: usize) -> Option<Vec<Obf>> {
    let text = ply_testkit::shared_text(&format!("othello/ffo/{name}"))?;
    let positions = parse_obf(&text).expect("the FFO files parse");
    assert_eq!(
        positions.len(),
        count,
        "{name} holds {} positions, the suite has {count}",
        positions.len()
    );
    Some(positions)
}

/// Solves positions `range` (0-based) of suite `name` of `count` positions and checks each.
fn run(name: &str, count: usize, range: Range<usize>, mode: Mode, threads: usize) {
    let Some(positions) = load(name, count) else {
        return;
    };
    let mut solver = Solver::with_threads(64, false, threads);
    let mut checked = 0;
    for (i, obf) in positions
        .iter()
        .enumerate()
        .take(range.end)
        .skip(range.start)
    {
        let b = obf.position.board;
        let r = solver.solve(&b, mode);
        // The score must be the file's best score; the move one the file annotates with it.
        let verdict = match mode {
            Mode::Wdl => obf.check_wdl(r.score),
            _ => obf.check(r.score, r.best),
        };
        assert!(
            matches!(
                verdict,
                Verdict::Correct | Verdict::AlternativeBest { annotated: true }
            ),
            "{name} #{}: {verdict:?} (score {}, move {:?})",
            i + 1,
            r.score,
            r.best
        );
        if mode == Mode::AllMoves {
            assert!(!r.moves.is_empty(), "{name} #{}: no move scores", i + 1);
            assert_eq!(obf.wrong_annotations(&r.moves), vec![], "{name} #{}", i + 1);
        }
        checked += 1;
    }
    assert_eq!(checked, range.len(), "{name}: positions checked");
}

#[test]
fn ffo_1_19() {
    run("fforum-1-19.obf", 19, 0..19, Mode::Exact, 1);
}

#[test]
fn ffo_1_19_all_moves() {
    run("fforum-1-19.obf", 19, 0..19, Mode::AllMoves, 1);
}

#[test]
fn ffo_1_19_wdl() {
    run("fforum-1-19.obf", 19, 0..19, Mode::Wdl, 1);
}

#[test]
fn ffo_1_19_two_threads() {
    run("fforum-1-19.obf", 19, 0..19, Mode::Exact, 2);
}

#[test]
fn ffo_20_39() {
    run("fforum-20-39.obf", 20, 0..20, Mode::Exact, 1);
}

#[test]
fn ffo_20_39_two_threads() {
    run("fforum-20-39.obf", 20, 0..20, Mode::Exact, 2);
}

/// FFO #40-49, 20-26 empties.
#[test]
fn ffo_40_49() {
    run("fforum-40-59.obf", 20, 0..10, Mode::Exact, 1);
}

/// FFO #50-59, 24-34 empties.
#[test]
#[ignore = "slow job (.ci/run-slow): FFO #50-59 take minutes on one core"]
fn ffo_50_59() {
    run("fforum-40-59.obf", 20, 10..20, Mode::Exact, 1);
}
