use super::*;

fn game_of(line: &str) -> Result<u64, String> {
    let (g, _) = line.split_once(';').ok_or("no ;")?;
    g.parse()
        .map_err(|e: std::num::ParseIntError| e.to_string())
}

/// Game g writes g % 3 lines (so some games write nothing).
fn play(g: u64) -> (String, u64) {
    ((0..g % 3).map(|i| format!("{g};{i}\n")).collect(), g)
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn shards_parse() {
    assert_eq!(
        "2/5".parse::<Shard>().unwrap(),
        Shard { index: 2, count: 5 }
    );
    for bad in ["5/5", "1/0", "x", "1/", "-1/2", "1/2/3"] {
        assert!(
            matches!(bad.parse::<Shard>(), Err(BatchError::Shard(_))),
            "{bad}"
        );
    }
    assert!(Shard::ALL.owns(17));
}

#[test]
fn shards_together_are_the_whole_run() {
    let all = temp("all.txt");
    run_games(Shard::ALL, 20, &all, game_of, play, |_, _| {}).unwrap();
    let mut whole: Vec<String> = std::fs::read_to_string(&all)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let mut parts = Vec::new();
    for k in 0..3 {
        let p = temp(&format!("part{k}.txt"));
        let shard = Shard { index: k, count: 3 };
        run_games(shard, 20, &p, game_of, play, |_, _| {}).unwrap();
        parts.extend(
            std::fs::read_to_string(&p)
                .unwrap()
                .lines()
                .map(String::from),
        );
    }
    whole.sort();
    parts.sort();
    assert_eq!(whole, parts);
}

#[test]
fn a_cut_file_resumes_to_the_same_text() {
    let all = temp("whole.txt");
    run_games(Shard::ALL, 20, &all, game_of, play, |_, _| {}).unwrap();
    let full = std::fs::read_to_string(&all).unwrap();
    for cut in [0, 5, full.len() / 2, full.len() - 1] {
        let p = temp("cut.txt");
        std::fs::write(&p, &full[..cut]).unwrap();
        let mut tallies = Vec::new();
        let resumed = run_games(Shard::ALL, 20, &p, game_of, play, |t, _| {
            tallies.extend(t.copied())
        })
        .unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), full, "cut at {cut}");
        // the games replayed start at the last game the cut file named
        assert_eq!(resumed + tallies.len() as u64, 20);
    }
}

#[test]
fn progress_counts_games_and_lines() {
    let p = temp("progress.txt");
    let mut last = Progress::default();
    let mut calls = 0;
    run_games(
        Shard { index: 1, count: 2 },
        9,
        &p,
        game_of,
        play,
        |_, s| {
            calls += 1;
            last = s.clone();
        },
    )
    .unwrap();
    assert_eq!(calls, 1 + 4);
    assert_eq!((last.done, last.total), (4, 4));
    // games 1, 3, 5, 7 write 1, 0, 2, 1 lines
    assert_eq!(last.lines, 4);
}

#[test]
fn foreign_files_and_other_shards_are_refused() {
    let p = temp("foreign.txt");
    std::fs::write(&p, "hello\nworld\n").unwrap();
    let e = run_games(Shard::ALL, 3, &p, game_of, play, |_, _| {}).unwrap_err();
    assert!(matches!(e, BatchError::NotData { line: 1, .. }), "{e}");
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "hello\nworld\n");
    let q = temp("other.txt");
    std::fs::write(&q, "4;0\n").unwrap();
    let e = run_games(
        Shard { index: 1, count: 2 },
        9,
        &q,
        game_of,
        play,
        |_, _| {},
    )
    .unwrap_err();
    assert!(matches!(e, BatchError::OtherShard { game: 4, .. }), "{e}");
}
