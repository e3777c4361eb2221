//! The committed out-of-distribution test set (`tests/data/testset-edax/e*.obf`, positions of
//! Edax's games made by `ply-othello testset --engine`, command in
//! docs/benchmarks/othello-training.md): every line parses with one legal move, the numbers of
//! empties are right, no position repeats up to symmetry, none is also in the self-play test set
//! (`tests/data/testset/`), and at 14 empties the solver gives every annotated score and finds the
//! annotated move best; with `../shared/othello/wthor`, none is a position of the WTHOR games
//! (training data of every fit).

use ply_othello::parse_obf;
use ply_othello_engine::{Mode, Solver};
use ply_othello_tools::testset::key;
use std::collections::HashSet;
use std::path::PathBuf;

fn data_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The problems of `dir/e<empties>.obf`, or `None` when there is no such file.
fn read_set(dir: &str, empties: u32) -> Option<Vec<ply_othello::Obf>> {
    let path = data_dir(dir).join(format!("e{empties}.obf"));
    let text = std::fs::read_to_string(&path).ok()?;
    Some(parse_obf(&text).expect("every line parses"))
}

#[test]
fn committed_edax_test_set_is_sound() {
    let mut self_play = HashSet::new();
    for empties in [14u32, 20, 24] {
        let problems = read_set("testset", empties).expect("the self-play set is committed");
        self_play.extend(problems.iter().map(|p| key(&p.position.board)));
    }
    let mut seen = HashSet::new();
    let mut files = 0;
    for empties in [14u32, 20, 24, 30] {
        let Some(problems) = read_set("testset-edax", empties) else {
            // 14, 20 and 24 empties are required; 30 is optional
            assert_eq!(empties, 30, "e{empties}.obf is committed");
            continue;
        };
        files += 1;
        let least = if empties == 30 { 20 } else { 150 };
        assert!(problems.len() >= least, "e{empties}: {}", problems.len());
        for p in &problems {
            let board = p.position.board;
            assert_eq!(board.empty_count(), empties);
            assert_eq!(p.moves.len(), 1, "one move and its exact score");
            let (mv, score) = p.moves[0];
            assert!(board.moves() & mv.bit() != 0, "the move is legal");
            assert!((-64..=64).contains(&score));
            let k = key(&board);
            assert!(seen.insert(k), "a position repeats");
            assert!(!self_play.contains(&k), "also in the self-play set");
        }
        if empties == 14 {
            let mut solver = Solver::new(16, false);
            for p in &problems {
                let solved = solver.solve(&p.position.board, Mode::AllMoves);
                let (mv, score) = p.moves[0];
                assert_eq!(solved.score, score, "{}", p.position.board_string());
                let of_move = solved.moves.iter().find(|&&(m, _)| m == mv);
                assert_eq!(
                    of_move.map(|&(_, s)| s),
                    Some(score),
                    "the move is a best move"
                );
            }
        }
    }
    assert!(files >= 3);
}

/// The WTHOR games are training data of every fit: none of their positions is in the set.
#[test]
fn no_position_of_the_edax_set_is_in_the_wthor_games() {
    let Some(dir) = ply_testkit::shared("othello/wthor") else {
        return;
    };
    let mut set = HashSet::new();
    for empties in [14u32, 20, 24, 30] {
        if let Some(problems) = read_set("testset-edax", empties) {
            set.extend(problems.iter().map(|p| key(&p.position.board)));
        }
    }
    let files = ply_othello::wthor::read_dir(&dir).expect("WTHOR files read");
    let mut games = 0;
    for game in files.iter().flat_map(|(_, f)| f.games.iter()) {
        games += 1;
        for ply in game.replay().map_while(Result::ok) {
            for pos in [ply.position, ply.mover_position()] {
                if [14, 20, 24, 30].contains(&pos.board.empty_count()) {
                    assert!(
                        !set.contains(&key(&pos.board)),
                        "{} is in a WTHOR game",
                        pos.board_string()
                    );
                }
            }
        }
    }
    assert!(games > 100_000, "{games} games");
}
