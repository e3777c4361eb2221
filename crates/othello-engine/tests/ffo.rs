//! FFO endgame suites (`../shared/othello/ffo`): every best score exact and the best move among
//! the moves annotated with the best score.

use ply_othello::obf::{parse_obf, Obf};
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
        let r = solver.solve(b.player, b.opponent, mode);
        let best = obf.best_score().expect("annotated moves");
        match mode {
            Mode::Wdl => assert_eq!(r.score.signum(), best.signum(), "{name} #{}: wdl", i + 1),
            _ => assert_eq!(r.score, best, "{name} #{}: score", i + 1),
        }
        if mode == Mode::Wdl {
            continue;
        }
        let best_move = r.best.expect("a best move") as usize;
        assert!(
            obf.best_moves().contains(&best_move),
            "{name} #{}: move {best_move} does not reach {best}",
            i + 1
        );
        if mode == Mode::AllMoves {
            for &(m, s) in &obf.moves {
                let got = r.moves.iter().find(|x| x.0 as usize == m).map(|x| x.1);
                assert_eq!(got, Some(s), "{name} #{}: move {m}", i + 1);
            }
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
