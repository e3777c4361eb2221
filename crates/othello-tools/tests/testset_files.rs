//! The committed strong-play test set (`tests/data/testset/e14.obf`, `e20.obf`, `e24.obf`, made
//! by `ply-othello testset`, commands in docs/benchmarks/othello-training.md): every line
//! parses, the numbers of empties are right, there are at least 1,000 positions per file, no
//! position repeats up to symmetry, and the exact solver agrees with the annotated scores and moves of a sample.

use ply_othello::parse_obf;
use ply_othello_engine::{Mode, Solver};
use ply_othello_tools::testset::key;
use std::collections::HashSet;
use std::path::PathBuf;

fn testset_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/testset")
}

#[test]
fn committed_test_set_is_sound() {
    let mut seen = HashSet::new();
    for empties in [14u32, 20, 24] {
        let path = testset_dir().join(format!("e{empties}.obf"));
        let text = std::fs::read_to_string(&path).expect("the test set is committed");
        let problems = parse_obf(&text).expect("every line parses");
        assert!(
            problems.len() >= 1000,
            "{}: {}",
            path.display(),
            problems.len()
        );
        for p in &problems {
            let board = p.position.board;
            assert_eq!(board.empty_count(), empties);
            assert_eq!(p.moves.len(), 1, "one move and its exact score");
            let (mv, _) = p.moves[0];
            assert!(board.moves() & mv.bit() != 0, "the move is legal");
            assert!(seen.insert(key(&board)), "a position repeats");
        }
        // the solver checks a sample: at 14 empties the score of every move (the file's move
        // must reach the best score), at 20 and 24 the score of one position (seconds each)
        let (sample, mode) = if empties == 14 {
            (40, Mode::AllMoves)
        } else {
            (1, Mode::Exact)
        };
        let mut solver = Solver::new(16, false);
        for p in problems
            .iter()
            .step_by(problems.len() / sample)
            .take(sample)
        {
            let solved = solver.solve(&p.position.board, mode);
            let (mv, score) = p.moves[0];
            assert_eq!(solved.score, score, "{}", p.position.board_string());
            if mode == Mode::AllMoves {
                let best = solved.moves.iter().find(|&&(m, _)| m == mv);
                assert_eq!(
                    best.map(|&(_, s)| s),
                    Some(score),
                    "the move is a best move"
                );
            }
        }
    }
}
