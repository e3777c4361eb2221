use super::*;
use ply_othello::{Board, Square};
use ply_othello_engine::{Mode, Solver};

fn config() -> Config {
    Config {
        seed: 5,
        random_min: 30,
        random_max: 40,
        level: 2,
        exact_from: 14,
        hash_mib: 4,
        labels: Labels::Result,
        weights: None,
    }
}

fn v1() -> Option<PlayerWeights> {
    Some(PlayerWeights {
        weights: ply_othello_engine::eval::embedded_v1_weights().unwrap(),
        id: "v1".into(),
    })
}

#[test]
fn other_weights_play_other_games() {
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 4,
        ..EngineOptions::default()
    });
    let mut v1_engine = Engine::new(EngineOptions {
        hash_mib: 4,
        weights: v1().map(|w| w.weights),
        ..EngineOptions::default()
    });
    let with_v1 = Config {
        weights: v1(),
        ..config()
    };
    let mut differ = 0;
    for g in 0..4 {
        let built_in = play_game(&config(), &mut engine, g);
        let by_v1 = play_game(&with_v1, &mut v1_engine, g);
        // same random opening, then each player's own moves
        assert_eq!(built_in.random_moves, by_v1.random_moves);
        assert_eq!(built_in.labels[0].board(), by_v1.labels[0].board());
        let boards = |g: &Game| g.labels.iter().map(|l| l.board()).collect::<Vec<_>>();
        differ += usize::from(boards(&built_in) != boards(&by_v1));
    }
    assert!(
        differ > 0,
        "the v1 weights played the built-in weights' games"
    );
}

#[test]
fn games_are_legal_labelled_and_exact_at_the_end() {
    let c = config();
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 4,
        ..EngineOptions::default()
    });
    let mut solver = Solver::new(4, false);
    for g in 0..3 {
        let game = play_game(&c, &mut engine, g);
        assert!((30..=40).contains(&game.random_moves));
        assert!(!game.labels.is_empty());
        let mut empties = 64;
        for l in &game.labels {
            let b = l.board();
            assert!(b.is_valid() && b.moves() != 0);
            assert!(b.empty_count() < empties, "positions in game order");
            empties = b.empty_count();
            assert!(b.empty_count() <= 60 - 30);
            assert_eq!(l.kind == Kind::Exact, b.empty_count() <= c.exact_from);
            let mover_black = l.black_to_move;
            let want = if mover_black {
                game.black_score
            } else {
                -game.black_score
            };
            assert_eq!(i32::from(l.score), want);
            // perfect play from the exact part on: the label is the minimax score
            if l.kind == Kind::Exact {
                assert_eq!(solver.solve(&b, Mode::Exact).score, i32::from(l.score));
            }
        }
    }
}

#[test]
fn search_labels_are_each_positions_own_and_exact_where_solved() {
    let result = config();
    let search = Config {
        labels: Labels::Search,
        ..config()
    };
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 4,
        ..EngineOptions::default()
    });
    let mut solver = Solver::new(4, false);
    let mut differ = 0;
    for g in 0..3 {
        let by_result = play_game(&result, &mut engine, g);
        let by_search = play_game(&search, &mut engine, g);
        // the labels do not change the play: the same positions, the same final score
        assert_eq!(by_result.black_score, by_search.black_score);
        assert_eq!(by_result.labels.len(), by_search.labels.len());
        for (r, s) in by_result.labels.iter().zip(&by_search.labels) {
            assert_eq!((r.black, r.white, r.game), (s.black, s.white, s.game));
            let b = s.board();
            if b.empty_count() <= search.exact_from {
                assert_eq!(s.kind, Kind::Exact);
            }
            match s.kind {
                Kind::Exact => {
                    assert_eq!(solver.solve(&b, Mode::Exact).score, i32::from(s.score))
                }
                Kind::Searched => differ += usize::from(s.score != r.score),
                Kind::Played => panic!("a search label marked played"),
            }
        }
    }
    assert!(differ > 0, "search labels are not the game results");
}

#[test]
fn the_same_game_whatever_played_before() {
    let c = config();
    let mut a = Engine::new(EngineOptions::default());
    let mut b = Engine::new(EngineOptions::default());
    play_game(&c, &mut a, 7);
    let x = play_game(&c, &mut a, 3);
    let y = play_game(&c, &mut b, 3);
    assert_eq!(x.labels, y.labels);
}

/// The lines two half shards of a run write (`run` writes shard K/2 to the file it is given,
/// one under `scratch` each), in game order.
fn two_shards(scratch: &ply_testkit::Scratch, run: impl Fn(Shard, &Path)) -> Vec<String> {
    let mut parts = Vec::new();
    for k in 0..2 {
        let p = scratch.file(&format!("part{k}.txt"));
        run(Shard { index: k, count: 2 }, &p);
        parts.extend(ply_testkit::read_lines(&p));
    }
    parts.sort_by_key(|l| l.parse::<Label>().unwrap().game);
    parts
}

#[test]
fn shards_together_are_the_whole_run_and_resume() {
    let scratch = ply_testkit::Scratch::new("othello-datagen");
    let c = config();
    let all = scratch.file("all.txt");
    let s = run(&c, Shard::ALL, 6, &all, |_| {}).unwrap();
    assert_eq!(s.games, 6);
    let whole = ply_testkit::read_lines(&all);
    assert_eq!(whole.len() as u64, s.positions);
    let parts = two_shards(&scratch, |shard, p| {
        run(&c, shard, 6, p, |_| {}).unwrap();
    });
    assert_eq!(parts, whole);
    // cut in the middle of a line, then resumed
    let text = std::fs::read_to_string(&all).unwrap();
    let cut = scratch.file("cut.txt");
    std::fs::write(&cut, &text[..text.len() / 2 + 3]).unwrap();
    let again = run(&c, Shard::ALL, 6, &cut, |_| {}).unwrap();
    assert!(again.resumed.games >= 1);
    assert_eq!(ply_testkit::read_lines(&cut), whole);
}

#[test]
fn a_resume_with_other_options_is_refused_and_fewer_games_remove_nothing() {
    let scratch = ply_testkit::Scratch::new("othello-datagen");
    let c = config();
    let out = scratch.file("options.txt");
    run(&c, Shard::ALL, 3, &out, |_| {}).unwrap();
    let before = std::fs::read_to_string(&out).unwrap();
    for other in [
        Config {
            seed: c.seed + 1,
            ..c.clone()
        },
        Config {
            level: c.level + 1,
            ..c.clone()
        },
        Config {
            exact_from: c.exact_from + 1,
            ..c.clone()
        },
        Config {
            labels: Labels::Search,
            ..c.clone()
        },
        Config {
            weights: v1(),
            ..c.clone()
        },
    ] {
        let e = run(&other, Shard::ALL, 5, &out, |_| {}).unwrap_err();
        assert!(e.to_string().contains("other options"), "{e}");
    }
    let s = run(&c, Shard::ALL, 1, &out, |_| {}).unwrap();
    assert_eq!((s.games, s.resumed.beyond), (0, Some(2)));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), before);
}

#[test]
fn bad_options_are_refused() {
    let scratch = ply_testkit::Scratch::new("othello-datagen");
    let p = scratch.file("bad.txt");
    for c in [
        Config {
            random_min: 10,
            random_max: 5,
            ..config()
        },
        Config {
            random_max: 60,
            ..config()
        },
        Config {
            level: 0,
            ..config()
        },
    ] {
        assert!(matches!(
            run(&c, Shard::ALL, 1, &p, |_| {}),
            Err(DatagenError::Config(_))
        ));
    }
}

/// Games "of another engine" for the tests: the header's random opening, then uniformly random
/// moves (another stream) to the end, as a games file would hold them.
fn engine_games(header: &crate::engine_games::GamesHeader, count: u64) -> Vec<Vec<Square>> {
    (0..count)
        .map(|g| {
            let mut moves = header.opening(g);
            let mut pos = ply_othello::play_moves(ply_othello::Position::start(), &moves).unwrap();
            let mut rng = ply_batch::rng::XorShift64Star::new((1000 + g) | 1);
            while !pos.board.is_game_over() {
                let legal = pos.board.moves();
                if legal == 0 {
                    pos.pass();
                    moves.push(Square::PASS);
                } else {
                    let sq = Square::new(rng.pick_bit(legal)).unwrap();
                    pos.play(sq);
                    moves.push(sq);
                }
            }
            moves
        })
        .collect()
}

fn header() -> crate::engine_games::GamesHeader {
    crate::engine_games::GamesHeader {
        engine: "test-engine -gtp".into(),
        seed: 9,
        random_min: 4,
        random_max: 12,
    }
}

#[test]
fn engine_games_keep_their_moves_then_end_perfectly() {
    let (h, c) = (header(), config());
    let games = engine_games(&h, 4);
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 4,
        ..EngineOptions::default()
    });
    let mut solver = Solver::new(4, false);
    for (g, moves) in games.iter().enumerate() {
        let opening = h.opening(g as u64);
        let game = label_engine_game(&c, &mut engine, &opening, moves, g as u64).unwrap();
        let random = opening.iter().filter(|m| !m.is_pass()).count() as u32;
        assert_eq!(game.random_moves, random);
        // the positions of the recorded game after its opening, while more than exact_from
        // squares are empty: exactly those, in order
        let mut pos = ply_othello::Position::start();
        let mut recorded = Vec::new();
        for (i, &mv) in moves.iter().enumerate() {
            if mv.is_pass() {
                pos.pass();
                continue;
            }
            if i >= opening.len() && pos.board.empty_count() > c.exact_from {
                recorded.push(pos.board);
            }
            pos.play(mv);
        }
        let boards: Vec<Board> = game.labels.iter().map(|l| l.board()).collect();
        assert_eq!(&boards[..recorded.len()], &recorded[..]);
        assert!(
            boards.len() > recorded.len(),
            "the perfect-play part is kept"
        );
        let first_exact = &game.labels[recorded.len()];
        assert_eq!(first_exact.kind, Kind::Exact);
        let exact = solver.solve(&first_exact.board(), Mode::Exact).score;
        assert_eq!(i32::from(first_exact.score), exact);
        for l in &game.labels {
            let want = if l.black_to_move {
                game.black_score
            } else {
                -game.black_score
            };
            assert_eq!(i32::from(l.score), want);
            assert_eq!(
                l.kind == Kind::Exact,
                l.board().empty_count() <= c.exact_from
            );
            assert_eq!(l.game, g as u64);
        }
    }
    // moves that do not begin with the opening are refused
    let other = h.opening(1);
    assert_ne!(other, h.opening(0));
    let e = label_engine_game(&c, &mut engine, &other, &games[0], 0).unwrap_err();
    assert!(e.to_string().contains("random opening"), "{e}");
}

#[test]
fn engine_game_runs_shard_resume_and_refuse_other_games() {
    let scratch = ply_testkit::Scratch::new("othello-datagen-engine");
    let (h, c) = (header(), config());
    let games = engine_games(&h, 5);
    let all = scratch.file("all.txt");
    let s = run_engine_games(&c, &h, &games, Shard::ALL, &all, |_| {}).unwrap();
    assert_eq!(s.games, 5);
    let whole = ply_testkit::read_lines(&all);
    assert_eq!(whole.len() as u64, s.positions);
    let parts = two_shards(&scratch, |shard, p| {
        run_engine_games(&c, &h, &games, shard, p, |_| {}).unwrap();
    });
    assert_eq!(parts, whole);
    // more games later: the first ones are kept, the new ones added
    let more = engine_games(&h, 7);
    let again = run_engine_games(&c, &h, &more, Shard::ALL, &all, |_| {}).unwrap();
    assert_eq!(
        again.games, 3,
        "the file's last game again, then the two new ones"
    );
    assert_eq!(ply_testkit::read_lines(&all)[..whole.len()], whole[..]);
    // games of another header, or other exact play, are not appended to this file
    let other = crate::engine_games::GamesHeader {
        seed: 10,
        ..h.clone()
    };
    let e = run_engine_games(
        &c,
        &other,
        &engine_games(&other, 7),
        Shard::ALL,
        &all,
        |_| {},
    );
    assert!(e.unwrap_err().to_string().contains("other options"));
    let deeper = Config {
        exact_from: c.exact_from + 2,
        ..c.clone()
    };
    let e = run_engine_games(&deeper, &h, &more, Shard::ALL, &all, |_| {});
    assert!(e.unwrap_err().to_string().contains("other options"));
    // games whose openings are not the header's are refused before anything is written
    let fresh = scratch.file("fresh.txt");
    let e = run_engine_games(&c, &other, &games, Shard::ALL, &fresh, |_| {}).unwrap_err();
    assert!(matches!(e, DatagenError::Config(_)), "{e}");
    assert!(!fresh.exists());
}
