//! Text forms: the FFO files under `../shared` parse, random positions and games round-trip, and no
//! arbitrary string makes a parser panic.

use ply_othello::{
    format_moves, parse_and_play, parse_moves, parse_obf, parse_obf_line, play_moves, Color,
    Position, Square,
};
use ply_testkit::XorShift64;
use proptest::prelude::*;
use std::path::PathBuf;

fn ffo_dir() -> Option<PathBuf> {
    ply_testkit::shared("othello/ffo")
}

#[test]
fn ffo_files_parse() {
    let Some(dir) = ffo_dir() else { return };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "obf"));
    files.sort();
    assert!(!files.is_empty());
    let mut total = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let problems = parse_obf(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!problems.is_empty(), "{}", path.display());
        for (i, o) in problems.iter().enumerate() {
            let b = o.position.board;
            assert!(b.is_valid());
            assert!(
                !o.moves.is_empty(),
                "{} #{i}: no annotations",
                path.display()
            );
            // Every annotated move is legal, scores are listed best first.
            for &(m, _) in &o.moves {
                assert!(
                    b.moves() & m.bit() != 0,
                    "{} #{i}: {m} illegal",
                    path.display(),
                );
            }
            assert!(o.moves.windows(2).all(|w| w[0].1 >= w[1].1));
            // Writing the line back and reading it again gives the same problem.
            assert_eq!(parse_obf_line(&o.to_string()), Ok(Some(o.clone())));
        }
        total += problems.len();
    }
    eprintln!("{} files, {total} problems", files.len());
}

#[test]
fn ffo_first_problem() {
    let Some(dir) = ffo_dir() else { return };
    let text = std::fs::read_to_string(dir.join("fforum-1-19.obf")).unwrap();
    let problems = parse_obf(&text).unwrap();
    assert_eq!(problems.len(), 19);
    assert_eq!(problems[0].position.side, Color::Black);
    assert_eq!(problems[0].moves[0], (Square::G8, 18));
    assert_eq!(problems[0].position.board.empty_count(), 14);
}

/// A random game: the moves (with explicit passes) and the final position.
fn random_game(seed: u64, plies: usize) -> (Vec<Square>, Position) {
    let mut rng = XorShift64::new(seed | 1);
    let mut pos = Position::start();
    let mut moves = Vec::new();
    while moves.len() < plies && !pos.board.is_game_over() {
        let m = pos.board.moves();
        if m == 0 {
            pos.pass();
            moves.push(Square::PASS);
            continue;
        }
        let sq = Square::new(rng.pick_bit(m)).unwrap();
        assert!(pos.play(sq));
        moves.push(sq);
    }
    (moves, pos)
}

#[test]
fn games_round_trip_with_and_without_passes() {
    let mut with_pass = 0;
    for seed in 1..2000u64 {
        let (moves, end) = random_game(ply_testkit::splitmix(seed), 60);
        let text = format_moves(&moves);
        assert_eq!(parse_moves(&text).unwrap(), moves);
        assert_eq!(parse_and_play(Position::start(), &text), Ok(end));
        assert_eq!(
            parse_and_play(Position::start(), &text.to_uppercase()),
            Ok(end)
        );
        if moves.contains(&Square::PASS) {
            with_pass += 1;
            let implicit: Vec<Square> = moves.iter().copied().filter(|m| !m.is_pass()).collect();
            let trailing_pass = moves.last() == Some(&Square::PASS);
            if !trailing_pass {
                assert_eq!(play_moves(Position::start(), &implicit), Ok(end));
            }
        }
        let back: Position = end.to_string().parse().unwrap();
        assert_eq!(back, end);
        if end.board.is_game_over() {
            let score = end.board.final_score();
            let (b, w) = (
                end.black().count_ones() as i32,
                end.white().count_ones() as i32,
            );
            let black_view = if end.side == Color::Black {
                score
            } else {
                -score
            };
            assert_eq!(black_view.signum(), (b - w).signum());
            assert!(black_view.abs() >= (b - w).abs());
        }
    }
    assert!(with_pass > 0, "no random game had a pass");
}

#[test]
fn board_characters() {
    let text = format!("{}*W.b{} Black", "-".repeat(30), ".".repeat(30));
    let p: Position = text.parse().unwrap();
    assert_eq!(p.black(), 1 << 30 | 1 << 33);
    assert_eq!(p.white(), 1 << 31);
    // Eight rows on separate lines are accepted too.
    let multiline = Position::start()
        .board_string()
        .as_bytes()
        .chunks(8)
        .map(|r| String::from_utf8_lossy(r) + "\n")
        .collect::<String>()
        + "X";
    assert_eq!(multiline.parse::<Position>(), Ok(Position::start()));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic(s in "\\PC{0,200}") {
        let _ = s.parse::<Position>();
        let _ = parse_obf_line(&s);
        let _ = parse_obf(&s);
        let _ = parse_moves(&s);
        let _ = parse_and_play(Position::start(), &s);
        let _ = s.parse::<Square>();
    }

    #[test]
    fn obf_like_lines_never_panic(board in "[XO\\-.*BWxo ]{60,70}", side in "[XOBW*x ]{0,3}", tail in "[A-Ha-hPSp1-9:+\\-; ]{0,40}") {
        let line = format!("{board} {side}{tail}");
        if let Ok(Some(o)) = parse_obf_line(&line) {
            prop_assert_eq!(parse_obf_line(&o.to_string()), Ok(Some(o)));
        }
    }

    #[test]
    fn move_lists_never_panic(s in "([a-hA-H][1-8]|pa|PS| |-){0,70}") {
        if let Ok(p) = parse_and_play(Position::start(), &s) {
            prop_assert!(p.board.is_valid());
        }
    }

    #[test]
    fn random_positions_round_trip(black in any::<u64>(), white in any::<u64>(), white_to_move in any::<bool>()) {
        let side = if white_to_move { Color::White } else { Color::Black };
        let p = Position::from_colors(black, white & !black, side).unwrap();
        prop_assert_eq!(p.to_string().parse::<Position>(), Ok(p));
    }
}
