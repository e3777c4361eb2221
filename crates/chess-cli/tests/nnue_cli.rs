//! `ply-chess nnue-data convert` and `ply-chess train-nnue` from the command line: datagen text
//! to packed records to a network file, the same bytes twice, an exact resume; bad input is an
//! error, not a panic.

use std::path::Path;
use std::process::{Command, Output};

fn ply() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ply-chess"))
}

fn run(args: &[&str], paths: &[(&str, &Path)]) -> Output {
    let mut c = ply();
    c.args(args);
    for (flag, p) in paths {
        c.arg(flag).arg(p);
    }
    c.output().unwrap()
}

const TRAIN: [&str; 13] = [
    "train-nnue",
    "--hidden",
    "16",
    "--buckets",
    "2",
    "--batch",
    "64",
    "--threads",
    "2",
    "--val-fraction",
    "0.2",
    "--epochs",
    "2",
];

#[test]
fn convert_then_train_writes_a_network_file() {
    let scratch = ply_testkit::Scratch::new("nnue-cli");
    let dir = scratch.path();
    let text = dir.join("data.txt");
    let _ = std::fs::remove_file(&text);
    let out = run(
        // at most 10 positions a game: the held-in ones fit one batch of 64 (see the resume)
        &[
            "datagen",
            "--games",
            "8",
            "--nodes",
            "300",
            "--per-game",
            "10",
        ],
        &[("--out", &text)],
    );
    assert!(out.status.success());
    let bin = dir.join("data.bin");
    let out = run(
        &["nnue-data", "convert"],
        &[("--in", &text), ("--out", &bin)],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = std::fs::read_to_string(&text).unwrap().lines().count() as u64;
    assert_eq!(std::fs::metadata(&bin).unwrap().len(), 32 * lines);

    let net = dir.join("a.nnue");
    let out = run(&TRAIN, &[("--data", &bin), ("--out", &net)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("epoch 2/2: train loss"), "{stderr}");
    assert!(stderr.contains("quantised vs float"), "{stderr}");
    let bytes = std::fs::read(&net).unwrap();
    assert_eq!(
        bytes.len(),
        32 + 2 * (768 * 16 + 16 + 2 * 16 * 2) + 4 * 2 + 8
    );
    assert_eq!(&bytes[..8], b"PLYNNUE2");

    // same seed and threads: same bytes; one epoch then a resume to two: the same again (one
    // batch an epoch, so the learning-rate schedule of --epochs 1 and 2 agree on it)
    let again = dir.join("b.nnue");
    assert!(run(&TRAIN, &[("--data", &bin), ("--out", &again)])
        .status
        .success());
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
    let mut first = TRAIN;
    first[12] = "1";
    let part = dir.join("c.nnue");
    assert!(run(&first, &[("--data", &bin), ("--out", &part)])
        .status
        .success());
    let ckpt = dir.join("c.nnue.ckpt");
    let out = run(
        &TRAIN,
        &[("--data", &bin), ("--out", &part), ("--resume", &ckpt)],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(&part).unwrap(), bytes);

    // bad data and bad options
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, [0xffu8; 40]).unwrap();
    let out = run(&TRAIN, &[("--data", &bad), ("--out", &net)]);
    assert_eq!(out.status.code(), Some(1));
    let out = run(
        &["train-nnue", "--hidden", "17"],
        &[("--data", &bin), ("--out", &net)],
    );
    assert_eq!(out.status.code(), Some(1));
    let out = run(
        &["train-nnue", "--lambda", "2"],
        &[("--data", &bin), ("--out", &net)],
    );
    assert_eq!(out.status.code(), Some(2));
    let out = run(
        &["nnue-data", "convert"],
        &[("--in", &bin), ("--out", &bad)],
    );
    assert_eq!(out.status.code(), Some(1));
}
