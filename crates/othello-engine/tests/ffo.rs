//! FFO endgame suites (`../shared/othello/ffo`): every best score exact and the best move among
//! the moves annotated with the best score ([`Obf::check`]).

use ply_othello::{parse_obf, Obf, Verdict};
use ply_othello_engine::{Mode, Solver};
use std::path::PathBuf;

fn load(name: &str) -> Option<Vec<Obf>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/othello/ffo")
        .join(name);
    let text = std::fs::read_to_string(path).ok()?;
    Some(parse_obf(&text).expect("the FFO files parse"))
}

fn run(name: &str, mode: Mode, threads: usize) {
    let Some(positions) = load(name) else {
        eprintln!("skipping: ../shared/othello/ffo/{name} not found");
        return;
    };
    let mut solver = Solver::with_threads(64, false, threads);
    for (i, obf) in positions.iter().enumerate() {
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
            assert_eq!(obf.wrong_annotations(&r.moves), vec![], "{name} #{}", i + 1);
        }
    }
}

#[test]
fn ffo_1_19() {
    run("fforum-1-19.obf", Mode::Exact, 1);
}

#[test]
fn ffo_1_19_all_moves() {
    run("fforum-1-19.obf", Mode::AllMoves, 1);
}

#[test]
fn ffo_1_19_wdl() {
    run("fforum-1-19.obf", Mode::Wdl, 1);
}

#[test]
fn ffo_1_19_two_threads() {
    run("fforum-1-19.obf", Mode::Exact, 2);
}

#[test]
fn ffo_20_39() {
    run("fforum-20-39.obf", Mode::Exact, 1);
}

#[test]
#[ignore = "about a minute"]
fn ffo_20_39_two_threads() {
    run("fforum-20-39.obf", Mode::Exact, 2);
}

#[test]
#[ignore = "long: several minutes"]
fn ffo_40_59() {
    run("fforum-40-59.obf", Mode::Exact, 1);
}
