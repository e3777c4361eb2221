//! `ply-chess datagen` from the command line: two shards together are the unsharded run, a
//! second call resumes instead of duplicating, bad arguments are errors, not panics, and
//! `--skip-plies` and `--max-score` leave out exactly the positions they name.

use std::path::Path;
use std::process::{Command, Output};

/// Runs `datagen` with `args` into `out`, from `book` or (`None`) the built-in opening set.
fn datagen(args: &[&str], out: &Path, book: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ply-chess"));
    command
        .arg("datagen")
        .args(args)
        .args(["--nodes", "300", "--out"])
        .arg(out);
    if let Some(book) = book {
        command.arg("--book").arg(book);
    }
    command.output().expect("run ply-chess")
}

#[test]
fn shards_resume_and_errors() {
    let scratch = ply_testkit::Scratch::new("datagen-cli");
    // games from the built-in opening set: no outside data needed
    let whole = scratch.file("whole.txt");
    let out = datagen(&["--games", "4", "--seed", "7"], &whole, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("4 games played"), "{stderr}");
    let all = ply_testkit::read_lines(&whole);
    assert!(!all.is_empty());

    // every line is FEN;score;result;game with a game index below 4
    for line in &all {
        let fields: Vec<&str> = line.split(';').collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert!(fields[1].parse::<i32>().is_ok(), "{line}");
        assert!(["0", "0.5", "1"].contains(&fields[2]), "{line}");
        assert!(fields[3].parse::<u64>().unwrap() < 4, "{line}");
    }

    // the same call again replays only the last recorded game (its lines may have been cut)
    // and leaves the file as it was
    let again = datagen(&["--games", "4", "--seed", "7"], &whole, None);
    assert!(again.status.success());
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(stderr.contains("1 games played (3 already"), "{stderr}");
    assert!(
        stderr.contains("removed the"),
        "the replayed game's lines are announced: {stderr}"
    );
    assert_eq!(ply_testkit::read_lines(&whole), all);

    // a resume with another seed or node budget would mix two runs: refused, file untouched
    for other in [["--seed", "8"], ["--random-plies", "2"]] {
        let mut args = vec!["--games", "6"];
        args.extend(other);
        if other[0] != "--seed" {
            args.extend(["--seed", "7"]);
        }
        let refused = datagen(&args, &whole, None);
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert_eq!(refused.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("written with other options"), "{stderr}");
        assert_eq!(ply_testkit::read_lines(&whole), all);
    }
    // fewer games than the file holds: nothing played, nothing removed, and said so
    let fewer = datagen(&["--games", "2", "--seed", "7"], &whole, None);
    let stderr = String::from_utf8_lossy(&fewer.stderr);
    assert!(fewer.status.success(), "{stderr}");
    assert!(stderr.contains("nothing removed"), "{stderr}");
    assert_eq!(ply_testkit::read_lines(&whole), all);

    // shards 0/2 and 1/2 hold exactly the lines of the whole run
    let mut union = Vec::new();
    for k in 0..2 {
        let part = scratch.file(&format!("part{k}.txt"));
        let shard = format!("{k}/2");
        let out = datagen(
            &["--games", "4", "--seed", "7", "--shard", &shard],
            &part,
            None,
        );
        assert!(out.status.success());
        union.extend(ply_testkit::read_lines(&part));
    }
    union.sort();
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(union, sorted);

    // bad arguments: an error line and a failing status
    for (args, message) in [
        (&["--games", "4", "--shard", "2/2"][..], "shard"),
        (
            &["--games", "4", "--syzygy", "/nonexistent-ply-dir"][..],
            "Syzygy",
        ),
    ] {
        let out = datagen(args, &scratch.file("bad.txt"), None);
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let missing = datagen(
        &["--games", "1"],
        &scratch.file("nobook.txt"),
        Some(Path::new("/nonexistent")),
    );
    assert!(!missing.status.success());
    assert!(!String::from_utf8_lossy(&missing.stderr).contains("panicked"));
}

/// Without `--book` the games start from the built-in opening set: a fresh clone with no
/// outside data runs the command as documented.
#[test]
fn datagen_runs_without_a_book_argument() {
    let scratch = ply_testkit::Scratch::new("robust-datagen");
    let file = scratch.file("data.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_ply-chess"))
        .args(["datagen", "--games", "2", "--nodes", "300", "--out"])
        .arg(&file)
        .output()
        .expect("run ply-chess");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = ply_testkit::read_lines(&file);
    assert!(!lines.is_empty());
    for l in &lines {
        assert_eq!(l.split(';').count(), 4, "{l}");
    }
}

/// The loop: packed positions from 1 and 2 threads are the same file, `train-nnue` reads it,
/// and the network it writes plays the next generation's games (`--eval-file`), whose options
/// record that network.
#[test]
fn packed_output_threads_and_the_next_generation() {
    let scratch = ply_testkit::Scratch::new("datagen-cli");
    let mut files = Vec::new();
    for threads in ["1", "2"] {
        let out = scratch.file(&format!("gen0-t{threads}.bin"));
        let run = datagen(
            &["--games", "6", "--format", "bin", "--threads", threads],
            &out,
            None,
        );
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{stderr}");
        assert!(stderr.contains("positions/h"), "{stderr}");
        files.push((out.clone(), std::fs::read(&out).unwrap()));
    }
    assert!(!files[0].1.is_empty() && files[0].1.len() % 32 == 0);
    assert_eq!(
        files[0].1, files[1].1,
        "1 and 2 threads write the same bytes"
    );
    let data = &files[0].0;
    let net = scratch.file("gen1.nnue");
    let train = Command::new(env!("CARGO_BIN_EXE_ply-chess"))
        .args([
            "train-nnue",
            "--hidden",
            "16",
            "--buckets",
            "1",
            "--epochs",
            "1",
        ])
        .args([
            "--batch",
            "64",
            "--threads",
            "1",
            "--val-fraction",
            "0",
            "--data",
        ])
        .arg(data)
        .arg("--out")
        .arg(&net)
        .output()
        .unwrap();
    assert!(
        train.status.success(),
        "{}",
        String::from_utf8_lossy(&train.stderr)
    );
    let next = scratch.file("gen1.txt");
    let net_arg = net.to_str().unwrap();
    let run = datagen(&["--games", "2", "--eval-file", net_arg], &next, None);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("evaluation: network H=16 N=1"), "{stderr}");
    let params = std::fs::read_to_string(format!("{}.params", next.display())).unwrap();
    assert!(params.contains("eval=network H=16 N=1"), "{params}");
    // the same file without the network is another run
    let refused = datagen(&["--games", "3"], &next, None);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("eval: network"), "{stderr}");

    // bad arguments: errors, not panics
    for (args, message) in [
        (&["--games", "2", "--format", "xml"][..], "xml"),
        (
            &["--games", "2", "--soft-nodes", "301"][..],
            "soft node limit",
        ),
        (
            &["--games", "2", "--eval-file", "/nonexistent.nnue"][..],
            "--eval-file",
        ),
        (
            &["--games", "2", "--eval-file", data.to_str().unwrap()][..],
            "--eval-file",
        ),
    ] {
        let out = datagen(args, &scratch.file("bad-gen.bin"), None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains(message), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// Plies from the start of a game to a position of a line, read from its FEN's move number and
/// side to move (the games of these tests start from the start position at move 1).
fn ply_of(line: &str) -> u32 {
    let fen: Vec<&str> = line.split(';').next().unwrap().split(' ').collect();
    let fullmove: u32 = fen[5].parse().unwrap();
    2 * (fullmove - 1) + u32::from(fen[1] == "b")
}

/// The search score of a line (centipawns, White's side).
fn score_of(line: &str) -> i32 {
    line.split(';').nth(1).unwrap().parse().unwrap()
}

#[test]
fn skip_plies_and_max_score_leave_out_exactly_their_positions() {
    let scratch = ply_testkit::Scratch::new("datagen-keep");
    let book = scratch.file("start.fen");
    std::fs::write(
        &book,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
    )
    .unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = scratch.file(name);
        let mut args = vec!["--games", "3", "--seed", "11"];
        args.extend(extra);
        let o = datagen(&args, &out, Some(&book));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        ply_testkit::read_lines(&out)
    };
    let all = run("all.txt", &[]);
    // the options leave the games as they were: their kept lines are the others' with exactly
    // the positions they name taken out
    let skip = 16;
    let early = all.iter().filter(|l| ply_of(l) < skip).count();
    assert!(early > 0, "no early position to leave out");
    let late = run("late.txt", &["--skip-plies", &skip.to_string()]);
    let too_early: Vec<&String> = late.iter().filter(|l| ply_of(l) < skip).collect();
    assert!(too_early.is_empty(), "{too_early:?}");
    let want: Vec<&String> = all.iter().filter(|l| ply_of(l) >= skip).collect();
    assert_eq!(late.iter().collect::<Vec<_>>(), want);
    assert_eq!(late.len() + early, all.len());

    let max = 60;
    let big = all.iter().filter(|l| score_of(l).abs() >= max).count();
    assert!(big > 0, "no score of {max} or more to leave out");
    let small = run("small.txt", &["--max-score", &max.to_string()]);
    let too_big: Vec<&String> = small.iter().filter(|l| score_of(l).abs() >= max).collect();
    assert!(too_big.is_empty(), "{too_big:?}");
    let want: Vec<&String> = all.iter().filter(|l| score_of(l).abs() < max).collect();
    assert_eq!(small.iter().collect::<Vec<_>>(), want);
    assert!(!small.is_empty());
}
