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

fn params() -> RunParams {
    RunParams::new().with("seed", 7).with("nodes", 100)
}

/// A test's scratch folder, removed when dropped (also when the test fails).
fn scratch_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("ply-batch-")
        .tempdir()
        .unwrap()
}

/// The path of `name` in `dir`, with no file (nor recorded options) there.
fn temp(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    let path = dir.path().join(name);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(params_path(&path));
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
    let scratch = scratch_dir();
    let all = temp(&scratch, "all.txt");
    run_games(Shard::ALL, 20, &all, &params(), game_of, play, |_, _| {}).unwrap();
    let mut whole: Vec<String> = std::fs::read_to_string(&all)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let mut parts = Vec::new();
    for k in 0..3 {
        let p = temp(&scratch, &format!("part{k}.txt"));
        let shard = Shard { index: k, count: 3 };
        run_games(shard, 20, &p, &params(), game_of, play, |_, _| {}).unwrap();
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
    let scratch = scratch_dir();
    let all = temp(&scratch, "whole.txt");
    run_games(Shard::ALL, 20, &all, &params(), game_of, play, |_, _| {}).unwrap();
    let full = std::fs::read_to_string(&all).unwrap();
    for cut in [0, 5, full.len() / 2, full.len() - 1] {
        let p = temp(&scratch, "cut.txt");
        std::fs::write(&p, &full[..cut]).unwrap();
        let mut tallies = Vec::new();
        let resumed = run_games(Shard::ALL, 20, &p, &params(), game_of, play, |t, _| {
            tallies.extend(t.copied())
        })
        .unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), full, "cut at {cut}");
        // the games replayed start at the last game the cut file named
        assert_eq!(resumed.games + tallies.len() as u64, 20);
    }
}

#[test]
fn progress_counts_games_and_lines() {
    let scratch = scratch_dir();
    let p = temp(&scratch, "progress.txt");
    let mut last = Progress::default();
    let mut calls = 0;
    run_games(
        Shard { index: 1, count: 2 },
        9,
        &p,
        &params(),
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
    let scratch = scratch_dir();
    let p = temp(&scratch, "foreign.txt");
    std::fs::write(&p, "hello\nworld\n").unwrap();
    let e = run_games(Shard::ALL, 3, &p, &params(), game_of, play, |_, _| {}).unwrap_err();
    assert!(matches!(e, BatchError::NotData { record: 1, .. }), "{e}");
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "hello\nworld\n");
    let q = temp(&scratch, "other.txt");
    std::fs::write(&q, "4;0\n").unwrap();
    let e = run_games(
        Shard { index: 1, count: 2 },
        9,
        &q,
        &params(),
        game_of,
        play,
        |_, _| {},
    )
    .unwrap_err();
    assert!(matches!(e, BatchError::OtherShard { game: 4, .. }), "{e}");
}

#[test]
fn a_resume_with_other_parameters_is_refused_and_changes_nothing() {
    let scratch = scratch_dir();
    let p = temp(&scratch, "params.txt");
    run_games(Shard::ALL, 6, &p, &params(), game_of, play, |_, _| {}).unwrap();
    let before = std::fs::read_to_string(&p).unwrap();
    let other = RunParams::new().with("seed", 8).with("nodes", 100);
    let e = run_games(Shard::ALL, 9, &p, &other, game_of, play, |_, _| {}).unwrap_err();
    let text = e.to_string();
    assert!(matches!(e, BatchError::OtherRun { .. }), "{text}");
    assert!(text.contains("seed: 7 in the file, 8 now"), "{text}");
    assert!(!text.contains("nodes"), "{text}");
    assert_eq!(std::fs::read_to_string(&p).unwrap(), before);
    // a parameter the record lacks is a difference too
    let more = params().with("book", "x");
    let e = run_games(Shard::ALL, 9, &p, &more, game_of, play, |_, _| {}).unwrap_err();
    assert!(
        e.to_string().contains("book: (absent) in the file, x now"),
        "{e}"
    );
    // the same parameters resume
    let r = run_games(Shard::ALL, 9, &p, &params(), game_of, play, |_, _| {}).unwrap();
    assert_eq!(r.params, ParamsRecord::Matched);
}

#[test]
fn fewer_games_than_the_file_holds_removes_nothing() {
    let scratch = scratch_dir();
    let p = temp(&scratch, "fewer.txt");
    run_games(Shard::ALL, 9, &p, &params(), game_of, play, |_, _| {}).unwrap();
    let before = std::fs::read_to_string(&p).unwrap();
    let mut played = 0;
    let r = run_games(Shard::ALL, 4, &p, &params(), game_of, play, |t, _| {
        played += usize::from(t.is_some())
    })
    .unwrap();
    assert_eq!(std::fs::read_to_string(&p).unwrap(), before);
    assert_eq!(played, 0);
    // game 8 writes 2 lines: the last game in the file
    assert_eq!((r.beyond, r.replayed), (Some(8), None));
    let notice = r.notice(&p).unwrap();
    assert!(notice.contains("nothing removed"), "{notice}");
}

#[test]
fn lines_removed_for_a_replay_are_reported() {
    let scratch = scratch_dir();
    let p = temp(&scratch, "replay.txt");
    run_games(Shard::ALL, 6, &p, &params(), game_of, play, |_, _| {}).unwrap();
    // games 0..6 write 0,1,2,0,1,2 lines: the last game there is 5, with 2 lines; add half a line
    let mut text = std::fs::read_to_string(&p).unwrap();
    text.push_str("5;9");
    std::fs::write(&p, &text).unwrap();
    let mut notices = Vec::new();
    let r = run_games(Shard::ALL, 8, &p, &params(), game_of, play, |_, s| {
        notices.push(s.notice.clone())
    })
    .unwrap();
    assert_eq!(r.replayed, Some((5, 3)));
    // told at the starting point, once
    assert_eq!(notices[0], r.notice(&p));
    assert!(notices[1..].iter().all(Option::is_none));
    assert_eq!(r.games, 5);
    let notice = r.notice(&p).unwrap();
    assert!(
        notice.contains("removed the 3 line(s) of game 5"),
        "{notice}"
    );
    // a fresh run has nothing to say
    let q = temp(&scratch, "fresh.txt");
    let r = run_games(Shard::ALL, 3, &q, &params(), game_of, play, |_, _| {}).unwrap();
    assert_eq!(r.params, ParamsRecord::Written);
    assert_eq!(r.notice(&q), None);
}

#[test]
fn a_file_without_a_record_is_adopted_and_said_so() {
    let scratch = scratch_dir();
    let p = temp(&scratch, "old.txt");
    std::fs::write(&p, "0;0\n1;0\n").unwrap();
    let r = run_games(Shard::ALL, 3, &p, &params(), game_of, play, |_, _| {}).unwrap();
    assert_eq!(r.params, ParamsRecord::Adopted);
    assert!(r.notice(&p).unwrap().contains("had no record"));
    let recorded = std::fs::read_to_string(params_path(&p)).unwrap();
    assert_eq!(RunParams::parse(&recorded).unwrap(), params());
}

#[test]
fn params_round_trip_and_bad_records_are_refused() {
    let scratch = scratch_dir();
    let p = params().with("book", "a b\nc");
    let text = p.to_text(std::path::Path::new("/x/data.txt"));
    assert!(text.starts_with("# parameters of the run that wrote data.txt"));
    assert_eq!(RunParams::parse(&text).unwrap(), p);
    assert_eq!(p.get("book"), Some("a b c"));
    assert_eq!(p.to_string(), "seed=7 nodes=100 book=a b c");
    assert_eq!(RunParams::parse("# c\nseed=1\nnonsense\n"), Err(3));
    let q = temp(&scratch, "badrecord.txt");
    std::fs::write(&q, "0;0\n").unwrap();
    std::fs::write(params_path(&q), "garbage\n").unwrap();
    let e = run_games(Shard::ALL, 3, &q, &params(), game_of, play, |_, _| {}).unwrap_err();
    assert!(matches!(e, BatchError::BadParams { line: 1, .. }), "{e}");
}

/// Game g writes g % 3 records of 4 bytes: the game index (little-endian u16), the record's
/// number in the game, and a check byte.
fn play_fixed(g: u64) -> (Vec<u8>, u64) {
    let bytes = (0..g % 3)
        .flat_map(|i| {
            let [lo, hi] = (g as u16).to_le_bytes();
            [lo, hi, i as u8, 0xa5]
        })
        .collect();
    (bytes, g)
}

fn fixed_game_of(r: &[u8]) -> Result<u64, String> {
    match r {
        [lo, hi, _, 0xa5] => Ok(u64::from(u16::from_le_bytes([*lo, *hi]))),
        _ => Err("bad check byte".into()),
    }
}

fn fixed<'a>(path: &'a Path, threads: usize, params: &'a RunParams) -> Output<'a> {
    Output {
        path,
        framing: Framing::Fixed(4),
        params,
        threads,
    }
}

#[test]
fn fixed_records_resume_and_a_truncated_tail_is_cut() {
    let scratch = scratch_dir();
    let p = params();
    let all = temp(&scratch, "all.bin");
    run_framed(
        Shard::ALL,
        20,
        &fixed(&all, 1, &p),
        fixed_game_of,
        play_fixed,
        |_, _| {},
    )
    .unwrap();
    let full = std::fs::read(&all).unwrap();
    assert_eq!(full.len(), 4 * 19, "games 0..20 write 19 records");
    for cut in [0, 3, 4, 9, full.len() / 2, full.len() - 1] {
        let q = temp(&scratch, "cut.bin");
        std::fs::write(&q, &full[..cut]).unwrap();
        let mut last = Progress::default();
        let r = run_framed(
            Shard::ALL,
            20,
            &fixed(&q, 1, &p),
            fixed_game_of,
            play_fixed,
            |_, s| last = s.clone(),
        )
        .unwrap();
        assert_eq!(std::fs::read(&q).unwrap(), full, "cut at {cut}");
        assert_eq!(r.truncated, (cut % 4) as u64, "cut at {cut}");
        if cut % 4 != 0 {
            let notice = r.notice(&q).unwrap();
            assert!(notice.contains("record was truncated"), "{notice}");
            assert!(notice.contains("record(s) of game"), "{notice}");
        }
        assert_eq!(last.done, 20);
    }
    // a bad record in the middle is named by its number, and nothing is changed
    let mut bad = full.clone();
    bad[4 * 5 + 3] = 0;
    let q = temp(&scratch, "bad.bin");
    std::fs::write(&q, &bad).unwrap();
    let e = run_framed(
        Shard::ALL,
        30,
        &fixed(&q, 1, &p),
        fixed_game_of,
        play_fixed,
        |_, _| {},
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            BatchError::NotData {
                record: 6,
                unit: "record",
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(std::fs::read(&q).unwrap(), bad);
}

#[test]
fn threads_write_the_same_file_in_game_order() {
    let scratch = scratch_dir();
    let p = params();
    let one = temp(&scratch, "one.bin");
    let mut order1 = Vec::new();
    run_framed(
        Shard::ALL,
        40,
        &fixed(&one, 1, &p),
        fixed_game_of,
        play_fixed,
        |t, _| order1.extend(t.copied()),
    )
    .unwrap();
    for threads in [2, 3, 8] {
        let many = temp(&scratch, "many.bin");
        let mut order = Vec::new();
        // uneven game lengths make the threads finish out of order
        let slow = |g: u64| {
            std::thread::sleep(std::time::Duration::from_micros((g * 7919) % 13 * 100));
            play_fixed(g)
        };
        let shard = Shard { index: 1, count: 3 };
        let r = run_framed(
            shard,
            40,
            &fixed(&many, threads, &p),
            fixed_game_of,
            slow,
            |t, _| order.extend(t.copied()),
        )
        .unwrap();
        assert_eq!(r.games, 0);
        assert_eq!(
            order,
            (1..40).step_by(3).collect::<Vec<u64>>(),
            "{threads} threads"
        );
        let want: Vec<u8> = (1..40).step_by(3).flat_map(|g| play_fixed(g).0).collect();
        assert_eq!(std::fs::read(&many).unwrap(), want, "{threads} threads");
    }
    assert_eq!(order1, (0..40).collect::<Vec<u64>>());
}

#[test]
fn a_panicking_game_stops_a_threaded_run_and_goes_on_up() {
    let scratch = scratch_dir();
    let p = params();
    let q = temp(&scratch, "panic.bin");
    let play = |g: u64| {
        assert!(g != 7, "game 7 fails");
        play_fixed(g)
    };
    let r = std::panic::catch_unwind(|| {
        run_framed(
            Shard::ALL,
            30,
            &fixed(&q, 3, &p),
            fixed_game_of,
            play,
            |_, _| {},
        )
    });
    assert!(r.is_err());
    // the games before 7 were written, in order, and nothing after them
    let want: Vec<u8> = (0..7).flat_map(|g| play_fixed(g).0).collect();
    assert_eq!(std::fs::read(&q).unwrap(), want);
}
