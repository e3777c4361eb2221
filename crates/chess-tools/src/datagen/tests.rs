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
    let (c, b) = (config(), book());
    let all = ply_testkit::scratch_file("datagen", "all.txt");
    let s = run(&c, Shard::ALL, 6, &b, None, &all, |_| {}).unwrap();
    assert_eq!(s.games, 6);
    let whole = ply_testkit::read_lines(&all);
    assert_eq!(whole.len() as u64, s.samples);
    assert!(s.samples > 0, "some quiet positions are kept");
    let mut parts = Vec::new();
    for k in 0..3 {
        let path = ply_testkit::scratch_file("datagen", &format!("shard{k}.txt"));
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
    let (c, b) = (config(), book());
    let whole = ply_testkit::scratch_file("datagen", "whole.txt");
    run(&c, Shard::ALL, 5, &b, None, &whole, |_| {}).unwrap();
    // a run of 3 games, then its last line cut in half, then resumed to 5
    let part = ply_testkit::scratch_file("datagen", "part.txt");
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
    let (c, b) = (config(), book());
    let out = ply_testkit::scratch_file("datagen", "options.txt");
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
    for s in ["3/3", "1", "a/2", "0/0"] {
        assert!(s.parse::<Shard>().is_err(), "{s}");
    }
    assert_eq!(
        "2/5".parse::<Shard>().unwrap(),
        Shard { index: 2, count: 5 }
    );
    let (c, b) = (config(), book());
    let path = ply_testkit::scratch_file("datagen", "foreign.txt");
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
    let odd = ply_testkit::scratch_file("datagen", "odd.txt");
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
