//! `ply-othello datagen` from the command line: labelled lines in the documented format, two
//! shards together are the unsharded run, a rerun resumes, bad options are errors, other
//! weights are recorded with the run, an external engine's games file is labelled and resumed.

mod common;

use std::path::Path;
use std::process::{Command, Output};

/// Runs `ply-othello datagen` with small settings, `args` and `--out out`.
fn datagen(args: &[&str], out: &Path) -> Output {
    Command::new(common::BIN)
        .arg("datagen")
        .args([
            "--level",
            "2",
            "--random-min",
            "34",
            "--random-max",
            "40",
            "--exact",
            "12",
        ])
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run ply-othello")
}

#[test]
fn datagen_shards_resume_and_errors() {
    let scratch = ply_testkit::Scratch::new("othello-datagen-cli");
    let whole = scratch.file("whole.txt");
    let out = datagen(&["--games", "4", "--seed", "3"], &whole);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("4 games played"), "{stderr}");
    let all = ply_testkit::read_lines(&whole);
    assert!(!all.is_empty());
    for line in &all {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 5, "{line}");
        assert!(
            f[0].len() == 64 && f[0].bytes().all(|c| b"XO-".contains(&c)),
            "{line}"
        );
        assert!(["X", "O"].contains(&f[1]));
        assert!((-64..=64).contains(&f[2].parse::<i32>().unwrap()));
        assert!(f[3].parse::<u64>().unwrap() < 4);
        let empties = f[0].bytes().filter(|&c| c == b'-').count();
        assert_eq!(
            f[4],
            if empties <= 12 { "exact" } else { "played" },
            "{line}"
        );
    }

    let again = datagen(&["--games", "4", "--seed", "3"], &whole);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("(3 already"));
    assert_eq!(ply_testkit::read_lines(&whole), all);

    let mut union = Vec::new();
    for k in 0..2 {
        let part = scratch.file(&format!("part{k}.txt"));
        let out = datagen(
            &["--games", "4", "--seed", "3", "--shard", &format!("{k}/2")],
            &part,
        );
        assert!(out.status.success());
        union.extend(ply_testkit::read_lines(&part));
    }
    union.sort();
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(union, sorted);

    for (args, message) in [
        (&["--games", "2", "--shard", "2/2"][..], "shard"),
        (&["--games", "2", "--level", "0"][..], "level"),
        (&["--games", "2", "--random-max", "70"][..], "random"),
        (&["--games", "2", "--labels", "guess"][..], "labels"),
    ] {
        let out = datagen(args, &scratch.file("bad.txt"));
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(message) && !stderr.contains("panicked"),
            "{stderr}"
        );
    }
}

#[test]
fn search_labels_mark_their_kind_and_a_mixed_resume_is_refused() {
    let scratch = ply_testkit::Scratch::new("othello-datagen-cli");
    let out_file = scratch.file("searched.txt");
    let out = datagen(&["--games", "2", "--labels", "search"], &out_file);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines = ply_testkit::read_lines(&out_file);
    let kinds: Vec<&str> = lines
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap())
        .collect();
    assert!(kinds.contains(&"searched") && kinds.contains(&"exact"));
    assert!(!kinds.contains(&"played"), "{lines:?}");
    let searched = kinds.iter().filter(|&&k| k == "searched").count();
    assert!(stderr.contains(&format!("{searched} searched")), "{stderr}");
    // the same file with result labels is another run
    let mixed = datagen(&["--games", "3"], &out_file);
    assert!(!mixed.status.success());
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("other options"));
}

#[test]
fn other_weights_are_recorded_and_a_resume_must_give_the_same() {
    let scratch = ply_testkit::Scratch::new("othello-datagen-cli");
    let out_file = scratch.file("v1.txt");
    let v1 = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../othello-engine/src/eval/v1.plyeval"
    );
    let out = datagen(&["--games", "2", "--eval-file", v1], &out_file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!ply_testkit::read_lines(&out_file).is_empty());
    let params = std::fs::read_to_string(out_file.with_extension("txt.params")).unwrap();
    assert!(params.contains("weights=fnv1a64:"), "{params}");
    // the same file played by the built-in weights is another run
    let mixed = datagen(&["--games", "3"], &out_file);
    assert!(!mixed.status.success());
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("other options"));
    // a file that is not weights is an error, before any game
    let bad = datagen(
        &["--games", "1", "--eval-file", common::path(&out_file)],
        &scratch.file("bad.txt"),
    );
    assert!(!bad.status.success());
    assert!(!scratch.file("bad.txt").exists());
}

#[test]
fn an_engines_games_file_is_labelled_and_resumed() {
    let scratch = ply_testkit::Scratch::new("othello-datagen-cli-games");
    let games = scratch.file("games.txt");
    let engine = format!("{} gtp --level 1", common::BIN);
    let played = Command::new(common::BIN)
        .args([
            "testset", "--engine", &engine, "--games", "3", "--seed", "4",
        ])
        .args(["--random-min", "2", "--random-max", "6", "--empties", "10"])
        .arg("--games-file")
        .arg(&games)
        .arg("--out-dir")
        .arg(scratch.file("sets"))
        .output()
        .expect("run ply-othello");
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    let label = |args: &[&str], out: &Path| {
        Command::new(common::BIN)
            .args(["datagen", "--exact", "12", "--games-file"])
            .arg(&games)
            .args(args)
            .arg("--out")
            .arg(out)
            .output()
            .expect("run ply-othello")
    };
    let out_file = scratch.file("labels.txt");
    let out = label(&["--games", "2"], &out_file);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("2 games played"), "{stderr}");
    let first = ply_testkit::read_lines(&out_file);
    // every position after the random opening (at least 60 - 6 - 12 recorded moves a game)
    assert!(first.len() >= 2 * 42, "{}", first.len());
    for line in &first {
        let f: Vec<&str> = line.split_whitespace().collect();
        let empties = f[0].bytes().filter(|&b| b == b'-').count();
        assert_eq!(f[4] == "exact", empties <= 12, "{line}");
    }
    // all of the file: the second game again, then the third
    let out = label(&[], &out_file);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("2 games played"), "{stderr}");
    assert_eq!(ply_testkit::read_lines(&out_file)[..first.len()], first[..]);
    // self-play options do not go with a games file; a file that is not one is an error
    let mixed = label(&["--seed", "3"], &scratch.file("mixed.txt"));
    assert_eq!(mixed.status.code(), Some(2));
    let not_games = Command::new(common::BIN)
        .args(["datagen", "--games-file"])
        .arg(&out_file)
        .arg("--out")
        .arg(scratch.file("bad.txt"))
        .output()
        .expect("run ply-othello");
    let stderr = String::from_utf8_lossy(&not_games.stderr);
    assert_eq!(not_games.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("not a games file"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
