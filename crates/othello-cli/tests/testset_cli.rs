//! `ply-othello testset` from the command line: the OBF files it writes from `datagen` games solve
//! to their annotated scores, positions of the excluded training file stay out, and bad input
//! files are errors with the line, not panics; with `--engine` (here `ply-othello gtp` as the
//! external engine) the games resume from their file, repeated games add nothing, and an engine
//! that exits, answers garbage or cannot start is a clear error.

mod common;

use common::{path, ply};

#[test]
fn testset_files_solve_to_their_scores() {
    let scratch = ply_testkit::Scratch::new("othello-testset-cli");
    let data = scratch.file("games.txt");
    let dir = data.with_file_name("sets");
    let out = ply(&[
        "datagen",
        "--games",
        "4",
        "--seed",
        "9",
        "--level",
        "2",
        "--random-min",
        "0",
        "--random-max",
        "12",
        "--exact",
        "14",
        "--out",
        path(&data),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = ply(&[
        "testset",
        "--data",
        path(&data),
        "--empties",
        "12,14",
        "--out-dir",
        path(&dir),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    for e in [12, 14] {
        let file = dir.join(format!("e{e}.obf"));
        let lines = ply_testkit::read_lines(&file);
        let positions: Vec<&String> = lines.iter().filter(|l| !l.starts_with('%')).collect();
        assert!(!positions.is_empty(), "{stderr}");
        for l in &positions {
            assert_eq!(l.bytes().take(64).filter(|&c| c == b'-').count(), e, "{l}");
        }
        // the exact solver agrees with every annotated score and move
        let solved = ply(&["solve", path(&file)]);
        let text = String::from_utf8_lossy(&solved.stdout);
        assert!(solved.status.success(), "{text}");
        assert!(text.contains(" 0 errors"), "{text}");
    }

    // excluding the games themselves leaves nothing
    let out = ply(&[
        "testset",
        "--data",
        path(&data),
        "--exclude",
        path(&data),
        "--empties",
        "14",
        "--out-dir",
        path(&dir),
    ]);
    assert!(out.status.success());
    let lines = ply_testkit::read_lines(&dir.join("e14.obf"));
    assert!(lines.iter().all(|l| l.starts_with('%')), "{lines:?}");

    // a damaged data file is an error naming the line
    let bad = data.with_file_name("bad.txt");
    std::fs::write(&bad, "not a record\n").unwrap();
    let out = ply(&["testset", "--data", path(&bad), "--out-dir", path(&dir)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("bad.txt:1"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `ply-othello gtp` at a low level: a quick, deterministic external engine.
/// ply's GTP mode at level 1 without a book (whose ties are drawn by a seed that steps with
/// every move, so that a book would vary the games).
fn gtp_engine() -> String {
    format!("{} gtp --level 1 --no-book", common::BIN)
}

/// The positions (non-comment lines) of an OBF file.
fn obf_lines(file: &std::path::Path) -> Vec<String> {
    ply_testkit::read_lines(file)
        .into_iter()
        .filter(|l| !l.starts_with('%') && !l.trim().is_empty())
        .collect()
}

#[test]
fn engine_games_give_solved_positions_and_resume() {
    let scratch = ply_testkit::Scratch::new("othello-testset-engine");
    let games = scratch.file("games.txt");
    let dir = games.with_file_name("sets");
    let _ = std::fs::remove_file(&games);
    let engine = gtp_engine();
    let run = |count: &str, seed: &str| {
        ply(&[
            "testset",
            "--engine",
            &engine,
            "--games",
            count,
            "--random-min",
            "2",
            "--random-max",
            "8",
            "--seed",
            seed,
            "--empties",
            "10,14",
            "--games-file",
            path(&games),
            "--out-dir",
            path(&dir),
        ])
    };
    let out = run("3", "5");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let first = ply_testkit::read_lines(&games);
    assert_eq!(first.len(), 4, "a header and three games: {first:?}");
    // two more games: the first three are kept as they are
    let out = run("5", "5");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines = ply_testkit::read_lines(&games);
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[..4], first[..]);
    for e in [10, 14] {
        let file = dir.join(format!("e{e}.obf"));
        let positions = obf_lines(&file);
        assert!(!positions.is_empty() && positions.len() <= 5, "{stderr}");
        for l in &positions {
            assert_eq!(l.bytes().take(64).filter(|&c| c == b'-').count(), e, "{l}");
        }
        // the exact solver agrees with every annotated score and move
        let solved = ply(&["solve", path(&file)]);
        let text = String::from_utf8_lossy(&solved.stdout);
        assert!(solved.status.success(), "{text}");
        assert!(text.contains(" 0 errors"), "{text}");
    }
    // the same games file with another seed is refused, and left as it is
    let out = run("5", "6");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("another run"), "{stderr}");
    assert_eq!(ply_testkit::read_lines(&games), lines);
    // a games file whose last game was cut short is an error naming the line
    let cut: String = lines[..5]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + &lines[5][..20];
    std::fs::write(&games, cut).unwrap();
    let out = run("5", "5");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("line 6"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_deterministic_engine_without_random_moves_gives_one_position_per_file() {
    let scratch = ply_testkit::Scratch::new("othello-testset-engine-dedup");
    let dir = scratch.file("sets");
    let out = ply(&[
        "testset",
        "--engine",
        &gtp_engine(),
        "--games",
        "3",
        "--random-min",
        "0",
        "--random-max",
        "0",
        "--empties",
        "12,16",
        "--out-dir",
        path(&dir),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // three times the same game: each position once
    for e in [12, 16] {
        assert_eq!(
            obf_lines(&dir.join(format!("e{e}.obf"))).len(),
            1,
            "{stderr}"
        );
    }
    assert!(stderr.contains("4 repeated"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_failing_engine_is_a_clear_error() {
    let scratch = ply_testkit::Scratch::new("othello-testset-engine-bad");
    let dir = scratch.file("sets");
    let script = dir.with_file_name("garbage.sh");
    std::fs::write(
        &script,
        "while read -r cmd; do case \"$cmd\" in genmove*) printf '= zz\\n\\n';; \
         *) printf '= \\n\\n';; esac; done\n",
    )
    .unwrap();
    let garbage = format!("sh {}", path(&script));
    for (i, (engine, expected)) in [
        ("false", "exited"),
        (garbage.as_str(), "\"zz\""),
        ("/nonexistent/engine -gtp", "cannot start"),
    ]
    .into_iter()
    .enumerate()
    {
        let games = dir.with_file_name(format!("bad-games-{i}.txt"));
        let _ = std::fs::remove_file(&games);
        let out = ply(&[
            "testset",
            "--engine",
            engine,
            "--games",
            "2",
            "--games-file",
            path(&games),
            "--out-dir",
            path(&dir),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{engine}: {stderr}");
        assert!(
            stderr.contains("external engine") && stderr.contains(expected),
            "{engine}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        // no game was recorded: the file holds only its header
        let lines = ply_testkit::read_lines(&games);
        assert_eq!(lines.len(), 1, "{lines:?}");
    }
    // --engine and --data together are a usage error, and --games goes with --engine
    let out = ply(&[
        "testset",
        "--engine",
        "x",
        "--data",
        "y",
        "--games",
        "1",
        "--out-dir",
        "d",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = ply(&["testset", "--engine", "x", "--out-dir", "d"]);
    assert_eq!(out.status.code(), Some(2));
}
