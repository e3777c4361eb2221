//! `ply-othello testset` from the command line: the OBF files it writes from `datagen` games solve
//! to their annotated scores, positions of the excluded training file stay out, and bad input
//! files are errors with the line, not panics.

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
