use super::*;

fn config() -> Config {
    Config {
        seed: 11,
        nodes: 300,
        max_plies: 120,
        ..Config::default()
    }
}

fn book() -> Vec<Position> {
    [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2",
    ]
    .iter()
    .map(|f| Position::from_fen(f).unwrap())
    .collect()
}

#[test]
fn shards_together_are_the_whole_run() {
    let scratch = ply_testkit::Scratch::new("datagen");
    let (c, b) = (config(), book());
    let all = scratch.file("all.txt");
    let s = run(&c, Shard::ALL, 6, &b, None, &all, |_| {}).unwrap();
    assert_eq!(s.games, 6);
    let whole = ply_testkit::read_lines(&all);
    assert_eq!(whole.len() as u64, s.samples);
    assert!(s.samples > 0, "some quiet positions are kept");
    let mut parts = Vec::new();
    for k in 0..3 {
        let path = scratch.file(&format!("shard{k}.txt"));
        let shard = format!("{k}/3").parse().unwrap();
        let part = run(&c, shard, 6, &b, None, &path, |_| {}).unwrap();
        assert_eq!(part.games, 2);
        parts.extend(ply_testkit::read_lines(&path));
    }
    let game = |l: &String| l.parse::<Sample>().unwrap().game;
    parts.sort_by_key(game);
    assert_eq!(
        parts, whole,
        "stable sort by game restores the unsharded order"
    );
    for l in &whole {
        let s: Sample = l.parse().unwrap();
        assert!(s.score.abs() < SAMPLE_SCORE_LIMIT);
        let pos = Position::from_fen(&s.fen).unwrap();
        assert!(!pos.is_check());
    }
}

#[test]
fn a_run_resumes_where_it_stopped() {
    let scratch = ply_testkit::Scratch::new("datagen");
    let (c, b) = (config(), book());
    let whole = scratch.file("whole.txt");
    run(&c, Shard::ALL, 5, &b, None, &whole, |_| {}).unwrap();
    // a run of 3 games, then its last line cut in half, then resumed to 5
    let part = scratch.file("part.txt");
    run(&c, Shard::ALL, 3, &b, None, &part, |_| {}).unwrap();
    let text = std::fs::read_to_string(&part).unwrap();
    assert!(text.len() > 7, "three games keep some positions");
    std::fs::write(&part, &text[..text.len() - 7]).unwrap();
    let mut last = Progress::default();
    let s = run(&c, Shard::ALL, 5, &b, None, &part, |p| last = p.clone()).unwrap();
    let done = s.resumed.games;
    assert!((1..=3).contains(&done), "resumed {done}");
    assert!(
        s.resumed.replayed.is_some(),
        "the cut game's lines are removed and said so"
    );
    assert_eq!((last.done, last.total), (5, 5));
    assert_eq!(
        ply_testkit::read_lines(&part),
        ply_testkit::read_lines(&whole)
    );
}

#[test]
fn a_resume_with_other_options_is_refused_and_fewer_games_remove_nothing() {
    let scratch = ply_testkit::Scratch::new("datagen");
    let (c, b) = (config(), book());
    let out = scratch.file("options.txt");
    run(&c, Shard::ALL, 3, &b, None, &out, |_| {}).unwrap();
    let before = std::fs::read_to_string(&out).unwrap();
    for other in [
        Config {
            seed: c.seed + 1,
            ..c.clone()
        },
        Config {
            nodes: c.nodes + 1,
            ..c.clone()
        },
    ] {
        let e = run(&other, Shard::ALL, 5, &b, None, &out, |_| {}).unwrap_err();
        assert!(e.to_string().contains("other options"), "{e}");
    }
    // another book is another run too
    let e = run(&c, Shard::ALL, 5, &b[1..], None, &out, |_| {}).unwrap_err();
    assert!(e.to_string().contains("book:"), "{e}");
    // asking for fewer games than the file holds plays and removes nothing
    let s = run(&c, Shard::ALL, 2, &b, None, &out, |_| {}).unwrap();
    assert_eq!((s.games, s.resumed.beyond), (0, Some(2)));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), before);
}

#[test]
fn bad_shards_and_foreign_files_are_refused() {
    let scratch = ply_testkit::Scratch::new("datagen");
    for s in ["3/3", "1", "a/2", "0/0"] {
        assert!(s.parse::<Shard>().is_err(), "{s}");
    }
    assert_eq!(
        "2/5".parse::<Shard>().unwrap(),
        Shard { index: 2, count: 5 }
    );
    let (c, b) = (config(), book());
    let path = scratch.file("foreign.txt");
    std::fs::write(&path, "not data\n").unwrap();
    let e = run(&c, Shard::ALL, 1, &b, None, &path, |_| {}).unwrap_err();
    assert!(
        matches!(e, DatagenError::Batch(BatchError::NotData { .. })),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "not data\n",
        "left as it was"
    );
    let odd = scratch.file("odd.txt");
    run(&c, "1/2".parse().unwrap(), 2, &b, None, &odd, |_| {}).unwrap();
    if !ply_testkit::read_lines(&odd).is_empty() {
        let e = run(&c, "0/2".parse().unwrap(), 2, &b, None, &odd, |_| {}).unwrap_err();
        assert!(
            matches!(e, DatagenError::Batch(BatchError::OtherShard { .. })),
            "{e}"
        );
    }
    assert!(matches!(
        run(&c, Shard::ALL, 1, &[], None, &path, |_| {}),
        Err(DatagenError::EmptyBook)
    ));
}

#[test]
fn threads_do_not_change_the_output_in_either_format() {
    let scratch = ply_testkit::Scratch::new("datagen");
    let b = book();
    for format in [Format::Text, Format::Bin] {
        let mut files = Vec::new();
        for threads in [1, 2] {
            let c = Config {
                format,
                threads,
                ..config()
            };
            let path = scratch.file(&format!("t{threads}.{format}"));
            let s = run(&c, Shard::ALL, 6, &b, None, &path, |_| {}).unwrap();
            assert_eq!(s.games, 6);
            files.push(std::fs::read(&path).unwrap());
        }
        assert!(!files[0].is_empty());
        assert_eq!(files[0], files[1], "{format}: 1 and 2 threads");
    }
}

#[test]
fn the_packed_output_is_the_conversion_of_the_text_output() {
    let scratch = ply_testkit::Scratch::new("datagen");
    let b = book();
    let text = scratch.file("same.txt");
    let bin = scratch.file("same.bin");
    let converted = scratch.file("converted.bin");
    let t = run(&config(), Shard::ALL, 5, &b, None, &text, |_| {}).unwrap();
    let c = Config {
        format: Format::Bin,
        ..config()
    };
    let s = run(&c, Shard::ALL, 5, &b, None, &bin, |_| {}).unwrap();
    assert_eq!((s.samples, s.unpacked), (t.samples, 0));
    crate::nnue::dataset::convert(std::slice::from_ref(&text), &converted, |_| {}).unwrap();
    let packed = std::fs::read(&bin).unwrap();
    assert_eq!(packed.len() as u64, 32 * s.samples);
    assert_eq!(packed, std::fs::read(&converted).unwrap());
    // and the trainer's reader takes it
    let data = crate::nnue::dataset::Dataset::load(std::slice::from_ref(&bin), |_| {}).unwrap();
    assert_eq!(data.len() as u64, s.samples);
}

#[test]
fn a_packed_file_resumes_after_a_truncated_record() {
    let scratch = ply_testkit::Scratch::new("datagen");
    let b = book();
    let c = Config {
        format: Format::Bin,
        ..config()
    };
    let whole = scratch.file("whole.bin");
    run(&c, Shard::ALL, 5, &b, None, &whole, |_| {}).unwrap();
    let full = std::fs::read(&whole).unwrap();
    let part = scratch.file("part.bin");
    run(&c, Shard::ALL, 3, &b, None, &part, |_| {}).unwrap();
    let bytes = std::fs::read(&part).unwrap();
    assert!(bytes.len() >= 64, "three games keep some positions");
    std::fs::write(&part, &bytes[..bytes.len() - 13]).unwrap();
    let mut notices = Vec::new();
    let s = run(&c, Shard::ALL, 5, &b, None, &part, |p| {
        notices.extend(p.notice.clone())
    })
    .unwrap();
    assert_eq!(s.resumed.truncated, 19);
    assert!(
        notices[0].contains("record was truncated (19 of 32 bytes)"),
        "{notices:?}"
    );
    assert_eq!(std::fs::read(&part).unwrap(), full);
    // a damaged record is refused with its number, the file left as it is
    let mut bad = full.clone();
    bad[32 + 27] = 99; // en-passant byte of record 2
    std::fs::write(&part, &bad).unwrap();
    let e = run(&c, Shard::ALL, 9, &b, None, &part, |_| {}).unwrap_err();
    assert!(
        e.to_string().contains("record 2: bad en-passant square 99"),
        "{e}"
    );
    assert_eq!(std::fs::read(&part).unwrap(), bad);
    // a text resume of a packed file is another run
    let e = run(&config(), Shard::ALL, 9, &b, None, &whole, |_| {}).unwrap_err();
    assert!(
        e.to_string().contains("format: bin in the file, text now"),
        "{e}"
    );
}

#[test]
fn a_network_plays_the_games_and_another_network_is_another_run() {
    let scratch = ply_testkit::Scratch::new("datagen");
    let b = book();
    let net = |seed| Arc::new(ply_chess_engine::Network::random(16, 1, seed).unwrap());
    let c = Config {
        network: Some(net(1)),
        ..config()
    };
    let out = scratch.file("net.txt");
    run(&c, Shard::ALL, 2, &b, None, &out, |_| {}).unwrap();
    let with_net = std::fs::read(&out).unwrap();
    let recorded = std::fs::read_to_string(ply_batch::params_path(&out)).unwrap();
    assert!(recorded.contains("eval=network H=16 N=1, "), "{recorded}");
    let hand = scratch.file("hand.txt");
    run(&config(), Shard::ALL, 2, &b, None, &hand, |_| {}).unwrap();
    assert_ne!(std::fs::read(&hand).unwrap(), with_net, "the network plays");
    let other = Config {
        network: Some(net(2)),
        ..config()
    };
    let e = run(&other, Shard::ALL, 3, &b, None, &out, |_| {}).unwrap_err();
    assert!(e.to_string().contains("eval: network H=16 N=1"), "{e}");
    let e = run(&config(), Shard::ALL, 3, &b, None, &out, |_| {}).unwrap_err();
    assert!(e.to_string().contains("hand-made now"), "{e}");
    assert_eq!(std::fs::read(&out).unwrap(), with_net);
}

#[test]
fn the_keep_rule_and_the_soft_limit() {
    let scratch = ply_testkit::Scratch::new("datagen");
    let b = book();
    // every usable position is kept by default
    for g in 0..3 {
        let game = play_game(&config(), &b, None, g);
        assert_eq!(game.samples.len(), game.candidates, "game {g}");
    }
    let tight = Config {
        max_score: 40,
        per_game: Some(2),
        ..config()
    };
    for g in 0..3 {
        let game = play_game(&tight, &b, None, g);
        assert!(game.samples.len() <= 2);
        assert!(game.samples.iter().all(|s| s.score.abs() < 40));
    }
    // skipping more plies than a game lasts keeps nothing
    let late = Config {
        skip_plies: 1000,
        ..config()
    };
    assert_eq!(play_game(&late, &b, None, 0).candidates, 0);
    // a soft limit below the hard one searches less and plays other games
    let soft = Config {
        nodes: 3000,
        soft_nodes: Some(300),
        ..config()
    };
    let hard = Config {
        nodes: 3000,
        ..config()
    };
    let (a, z) = (play_game(&soft, &b, None, 1), play_game(&hard, &b, None, 1));
    assert_ne!(a.samples, z.samples);
    assert_eq!(
        play_game(&soft, &b, None, 1).samples,
        a.samples,
        "deterministic"
    );
    let too_soft = Config {
        soft_nodes: Some(config().nodes + 1),
        ..config()
    };
    let out = scratch.file("soft.txt");
    assert!(matches!(
        run(&too_soft, Shard::ALL, 1, &b, None, &out, |_| {}),
        Err(DatagenError::Config(_))
    ));
}

#[test]
fn the_network_that_plays_judges_which_positions_are_quiet() {
    let fens = [
        "3k4/8/8/3q4/8/8/5PPP/3R2K1 w - - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R w KQkq - 0 8",
        "4k3/8/8/8/3p4/4P3/8/4K3 w - - 0 1",
    ];
    let mut pawns = ply_chess_engine::PawnTable::new();
    let mut disagree = 0;
    for seed in 1..=4 {
        let net = Arc::new(ply_chess_engine::Network::random(16, 1, seed).unwrap());
        let c = Config {
            network: Some(net.clone()),
            ..config()
        };
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let quiet_move = pos
                .legal_moves()
                .iter()
                .copied()
                .find(|m| !m.is_capture() && m.promotion().is_none())
                .unwrap();
            let by_net =
                ply_chess_engine::quiescence_with(&pos, &mut |p: &Position| net.evaluate(p)).1
                    == pos;
            let by_hand = ply_chess_engine::quiescence(&pos, &mut pawns).1 == pos;
            assert_eq!(
                is_usable(&c, &pos, quiet_move, 0, 10, &mut pawns),
                by_net,
                "{fen}"
            );
            assert_eq!(
                is_usable(&config(), &pos, quiet_move, 0, 10, &mut pawns),
                by_hand,
                "{fen}"
            );
            disagree += usize::from(by_net != by_hand);
        }
    }
    assert!(
        disagree > 0,
        "random networks see other captures than the hand-made evaluation"
    );
}
