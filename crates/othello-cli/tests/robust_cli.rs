//! Issue 33 for the `ply-othello` batch subcommands: one exit-status convention (0 success, 1
//! runtime error, 2 usage error, messages as `ply-othello: ...`), ranges refused with the
//! allowed range instead of hangs, wrong inputs reported as errors, `perft`'s two spellings of
//! the depth and its output form, several files per list option, `--version` on subcommands,
//! and the `--json` outputs of `analyse`, `perft` and `bench`. None of it needs `../shared`.

mod common;

use common::{ply, stderr, stdout};
use serde_json::Value;

/// FFO #1 (14 empties, Black to move): G8 +18 is the best move; A1 is not a legal move.
const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

/// The start position as an OBF line (60 empties).
const START: &str = "---------------------------OX------XO--------------------------- X";

/// A file `name` in `scratch` holding `text`, as a string path.
fn file(scratch: &ply_testkit::Scratch, name: &str, text: &str) -> String {
    let path = scratch.file(name);
    std::fs::write(&path, text).expect("write a scratch file");
    path.to_str().expect("UTF-8 temp path").to_string()
}

/// Asserts exit status `code` and a `ply-othello: ` message on standard error that contains
/// `needle`.
fn assert_fails(args: &[&str], code: i32, needle: &str) {
    let out = ply(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert!(err.starts_with("ply-othello: "), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn runtime_errors_exit_1_and_usage_errors_exit_2() {
    let scratch = ply_testkit::Scratch::new("othello-robust");
    let missing = scratch.file("missing.obf");
    let missing = missing.to_str().unwrap();
    // runtime: a file that cannot be read
    assert_fails(&["solve", missing], 1, "cannot read");
    assert_fails(&["eval", missing], 1, "cannot read");
    // usage: clap's errors, under the program's prefix
    assert_fails(&["solve"], 2, "required");
    assert_fails(&["perft", "3", "--no-such-option"], 2, "--no-such-option");
    assert_fails(
        &["--level", "3", "perft", "3"],
        2,
        "only apply to the text mode",
    );
    // a wrong score in a batch command is a runtime error
    let wrong = file(&scratch, "wrong.obf", &format!("{FFO1}; G8:+16;\n"));
    let out = ply(&["solve", &wrong, "--hash", "8"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    // success
    assert_eq!(ply(&["perft", "2"]).status.code(), Some(0));
}

#[test]
fn version_works_on_subcommands() {
    for sub in [
        "solve", "perft", "bench", "train", "fit-mpc", "datagen", "analyse",
    ] {
        let out = ply(&[sub, "--version"]);
        assert!(out.status.success(), "{sub}: {}", stderr(&out));
        // clap names the subcommand: `ply-othello-solve 0.1.0+1a2b3c4`
        let got = stdout(&out);
        let version = got.trim_end().strip_prefix(&format!("ply-othello-{sub} "));
        assert!(version.is_some_and(common::is_version), "{sub}: {got}");
        assert_eq!(version, Some(ply_othello_cli::VERSION), "{sub}: {got}");
    }
}

#[test]
fn out_of_range_values_are_usage_errors_naming_the_range() {
    let scratch = ply_testkit::Scratch::new("othello-robust");
    let obf = file(&scratch, "range.obf", &format!("{FFO1}; G8:+18;\n"));
    let out = scratch.file("range-data.txt");
    let out = out.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["bench", "--level", "99"], "0..=60"),
        (&["bench", "--threads", "0"], "1..=1024"),
        (&["bench", "--positions", "17"], "1..=16"),
        (&["perft", "99"], "0..=20"),
        (&["perft", "--depth", "21"], "0..=20"),
        (&["solve", &obf, "--threads", "0"], "1..=1024"),
        (&["solve", &obf, "--hash", "0"], "1..=1048576"),
        (
            &["datagen", "--games", "1", "--out", out, "--exact", "99"],
            "0..=36",
        ),
        (
            &["datagen", "--games", "1", "--out", out, "--level", "99"],
            "1..=60",
        ),
        (
            &["datagen", "--games", "1", "--out", out, "--hash", "0"],
            "1..=1048576",
        ),
        (
            &[
                "datagen",
                "--games",
                "1",
                "--out",
                out,
                "--random-max",
                "60",
            ],
            "0..=59",
        ),
    ];
    for (args, range) in cases {
        assert_fails(args, 2, range);
    }
    assert_fails(
        &[
            "datagen",
            "--games",
            "1",
            "--out",
            out,
            "--random-min",
            "30",
            "--random-max",
            "10",
        ],
        2,
        "--random-min 30 is above --random-max 10",
    );
    assert!(!std::path::Path::new(out).exists(), "nothing was generated");
}

#[test]
fn solve_refuses_deep_positions_unless_asked() {
    let scratch = ply_testkit::Scratch::new("othello-robust");
    // the start position would never be solved: refused at once, before any solving
    let start = file(&scratch, "start.obf", &format!("{START}\n"));
    let t = std::time::Instant::now();
    assert_fails(&["solve", &start], 1, "--max-empties");
    assert!(t.elapsed().as_secs() < 30);
    // the limit is the user's to move
    let ffo = file(&scratch, "deep.obf", &format!("{FFO1}; G8:+18;\n"));
    assert_fails(
        &["solve", &ffo, "--max-empties", "13", "--hash", "8"],
        1,
        "14 empties",
    );
    let out = ply(&["solve", &ffo, "--max-empties", "14", "--hash", "8"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn an_illegal_annotated_move_is_an_error() {
    let scratch = ply_testkit::Scratch::new("othello-robust");
    let obf = file(&scratch, "illegal.obf", &format!("{FFO1}; A1:+18;\n"));
    let out = ply(&["solve", &obf, "--hash", "8"]);
    let (table, err) = (stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(1), "{table}{err}");
    assert!(
        err.contains(":1: the annotated move A1 is not legal"),
        "{err}"
    );
    assert!(table.contains("<-- ERROR"), "{table}");
    assert!(!table.contains("alternative best move\n"), "{table}");
    assert!(
        table.contains("1 errors, 0 alternative best moves"),
        "{table}"
    );
    let out = ply(&["solve", &obf, "--hash", "8", "--json"]);
    let first: Value = serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    assert_eq!(first["verdict"], "illegal move annotated");
    assert_eq!(first["errors"], 1);
}

#[test]
fn eval_reports_an_illegal_annotated_move() {
    let scratch = ply_testkit::Scratch::new("othello-robust");
    let obf = file(
        &scratch,
        "eval-illegal.obf",
        &format!("{FFO1}; A1:+18;\n{FFO1}; G8:+18;\n"),
    );
    let out = ply(&["eval", &obf]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(":1: the annotated move A1 is not legal"),
        "{err}"
    );
    // both positions are evaluated; only the legal line's score enters the error table
    assert_eq!(stdout(&out).lines().count(), 2);
    let row = err
        .lines()
        .find(|l| l.trim_start().starts_with("14 "))
        .expect("a row");
    assert_eq!(row.split_whitespace().nth(1), Some("1"), "{err}");
}

#[test]
fn files_without_positions_are_errors() {
    let scratch = ply_testkit::Scratch::new("othello-robust");
    for (name, text) in [("empty.obf", ""), ("comments.obf", "% only a comment\n\n")] {
        let path = file(&scratch, name, text);
        for sub in ["solve", "eval"] {
            assert_fails(&[sub, &path], 1, &format!("no positions in {path}"));
        }
    }
}

#[test]
fn testset_without_records_is_an_error() {
    let scratch = ply_testkit::Scratch::new("othello-robust");
    let empty = file(&scratch, "no-games.txt", "");
    let dir = scratch.file("empty-sets");
    assert_fails(
        &[
            "testset",
            "--data",
            &empty,
            "--out-dir",
            dir.to_str().unwrap(),
        ],
        1,
        &format!("no positions in {empty}"),
    );
    assert!(!dir.exists(), "no empty test set written");
}

#[test]
fn perft_takes_the_depth_either_way_and_prints_nodes() {
    let positional = ply(&["perft", "4"]);
    let option = ply(&["perft", "--depth", "4"]);
    assert!(positional.status.success() && option.status.success());
    assert_eq!(stdout(&positional), "Nodes: 244\n");
    assert_eq!(stdout(&option), "Nodes: 244\n");
    assert_fails(&["perft", "4", "--depth", "4"], 2, "cannot be used with");
    assert_fails(&["perft"], 2, "required");

    let out = ply(&["perft", "--depth", "5", "--divide", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    // four root moves of 1396 / 4 = 349 leaves each, then the total and the JSON line
    assert_eq!(
        lines[..5],
        ["d3: 349", "c4: 349", "f5: 349", "e6: 349", "Nodes: 1396"]
    );
    let json: Value = serde_json::from_str(lines[5]).expect("a JSON line");
    assert_eq!(json["depth"], 5);
    assert_eq!(json["nodes"], 1396);
    assert!(json["seconds"].as_f64().is_some() && json["nps"].as_u64().is_some());
    let divide = json["divide"].as_array().expect("the root moves");
    assert_eq!(divide.len(), 4);
    assert_eq!(divide[2]["move"], "f5");
    assert_eq!(divide[2]["nodes"], 349);
}

#[test]
fn bench_json_has_the_totals_and_each_position() {
    let out = ply(&["bench", "--positions", "2", "--level", "6", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert_eq!(json["level"], 6);
    assert_eq!(json["positions"], 2);
    let results = json["results"].as_array().expect("per-position results");
    assert_eq!(results.len(), 2);
    let sum: u64 = results.iter().map(|r| r["nodes"].as_u64().unwrap()).sum();
    assert_eq!(json["nodes"].as_u64(), Some(sum));
    assert!(sum > 0 && json["nps"].as_u64().is_some() && json["time_ms"].as_u64().is_some());
}

#[test]
fn analyse_json_scores_every_move() {
    let out = ply(&["analyse", "f5d6", "--level", "4", "--hash", "8", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert_eq!(json["level"], 4);
    assert_eq!(json["empties"], 58);
    let moves = json["moves"].as_array().expect("the moves");
    let mut names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(names, ["c3", "c4", "c5", "c6", "c7"]);
    for m in moves {
        assert!(m["score"].is_i64() && m["depth"].is_u64(), "{m}");
        assert_eq!(m["exact"], false);
        assert_eq!(m["pv"][0], m["move"], "{m}");
    }
    // a position solved exactly says so
    let out = ply(&["analyse", FFO1, "--level", "20", "--hash", "8", "--json"]);
    let json: Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    let best = &json["moves"][0];
    assert_eq!(best["move"], "g8");
    assert_eq!(best["score"], 18);
    assert_eq!(best["exact"], true);
}

#[test]
fn list_options_take_several_files() {
    let scratch = ply_testkit::Scratch::new("othello-robust");
    let one = scratch.file("games1.txt");
    let two = scratch.file("games2.txt");
    let mut lines = 0;
    for (seed, path) in [("1", &one), ("2", &two)] {
        let out = ply(&[
            "datagen",
            "--games",
            "2",
            "--seed",
            seed,
            "--level",
            "1",
            "--exact",
            "10",
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        lines += std::fs::read_to_string(path).unwrap().lines().count();
    }
    let dir = one.with_file_name("sets");
    let out = ply(&[
        "testset",
        "--data",
        one.to_str().unwrap(),
        two.to_str().unwrap(),
        "--empties",
        "10",
        "--out-dir",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("{lines} records read")),
        "{}",
        stderr(&out)
    );
    // `train --labels A B` reads both: without WTHOR games their positions are split three ways
    let out = ply(&[
        "train",
        "--labels",
        one.to_str().unwrap(),
        two.to_str().unwrap(),
        "--epochs-first",
        "3",
        "--epochs",
        "2",
        "--quiet",
    ]);
    let log = stdout(&out);
    assert!(out.status.success(), "{log}{}", stderr(&out));
    let split = log
        .lines()
        .find_map(|l| l.strip_prefix("no WTHOR games: label positions split by board into "))
        .expect("the split is logged");
    let counts: Vec<usize> = split
        .split(", ")
        .map(|part| part.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<usize>(), lines, "{log}");
    assert!(!log.contains("built-in"), "{log}");
}

#[test]
fn train_runs_on_the_built_in_labels_and_refuses_a_missing_wthor() {
    let scratch = ply_testkit::Scratch::new("othello-robust");
    let out = ply(&["train", "--epochs-first", "3", "--epochs", "2", "--quiet"]);
    let log = stdout(&out);
    assert!(out.status.success(), "{log}{}", stderr(&out));
    assert!(
        log.contains("no --wthor and no --labels: training on the 962 built-in self-play labels"),
        "{log}"
    );
    assert!(log.contains("held-out test set"), "{log}");
    let missing = scratch.file("no-such-wthor");
    assert_fails(
        &["train", "--wthor", missing.to_str().unwrap(), "--quiet"],
        1,
        "no-such-wthor",
    );
}

#[test]
fn fit_mpc_runs_without_wthor_and_refuses_too_little_data() {
    let scratch = ply_testkit::Scratch::new("othello-robust");
    let out = ply(&["fit-mpc", "--positions", "60", "--quiet"]);
    let tables = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("random games (seed 1)"),
        "{}",
        stderr(&out)
    );
    for name in [
        "pub const MID",
        "pub const SIGMA_PLANE",
        "pub const END",
        "END_SIGMA_SLOPE",
    ] {
        assert!(tables.contains(name), "{tables}");
    }
    // too few positions for any predictor: an error, not placeholder tables
    let out = ply(&["fit-mpc", "--positions", "3", "--quiet"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("fit no predictor"),
        "{}",
        stderr(&out)
    );
    // a WTHOR directory that is missing, or holds no games
    let empty = scratch.file("empty-wthor");
    std::fs::create_dir_all(&empty).unwrap();
    assert_fails(
        &["fit-mpc", "--wthor", empty.to_str().unwrap(), "--quiet"],
        1,
        "no WTHOR games",
    );
    let missing = empty.with_file_name("no-such-wthor");
    assert_fails(
        &["fit-mpc", "--wthor", missing.to_str().unwrap(), "--quiet"],
        1,
        "no-such-wthor",
    );
    assert_fails(&["fit-mpc", "--positions", "0"], 2, "1..");
}

#[test]
fn outputs_in_missing_folders_are_refused_before_any_work() {
    let scratch = ply_testkit::Scratch::new("othello-robust");
    let folder = scratch.file("no-such-folder");
    let target = folder.join("w.bin");
    let target = target.to_str().unwrap();
    for args in [
        vec!["train", "--out", target, "--quiet"],
        vec!["train", "--edax-out", target, "--quiet"],
        vec!["fit-mpc", "--out", target, "--quiet"],
        vec!["fit-mpc", "--scores-out", target, "--quiet"],
    ] {
        let out = ply(&args);
        let (log, err) = (stdout(&out), stderr(&out));
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("no-such-folder/w.bin"), "{args:?}: {err}");
        // nothing was fitted or scored first
        assert!(!log.contains("epoch") && !log.contains("samples"), "{log}");
        assert!(!err.contains("fitting on"), "{err}");
    }
}

#[test]
fn completions_for_every_shell_name_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = ply(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        assert!(!script.trim().is_empty(), "{shell}: empty script");
        assert!(
            script.contains("solve") && script.contains("fit-mpc"),
            "{shell}: {script}"
        );
    }
    let out = ply(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
