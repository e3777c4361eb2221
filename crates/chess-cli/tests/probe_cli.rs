//! `ply-chess probe` over the shared truth file reproduces every `FEN;wdl;dtz` line.

use std::process::Command;

#[test]
fn probe_file_matches_truth() {
    // A visible skip when the shared data is absent (a failure under PLY_STRICT=1).
    let Some(truth) = ply_testkit::shared("syzygy/truth.csv") else {
        return;
    };
    let shared = truth.parent().expect("truth.csv has a folder");
    let output = Command::new(env!("CARGO_BIN_EXE_ply-chess"))
        .arg("probe")
        .arg("--syzygy")
        .arg(shared.join("tables"))
        .arg("--file")
        .arg(shared.join("truth.csv"))
        .output()
        .expect("run ply-chess");
    assert!(output.status.success());
    let got = String::from_utf8(output.stdout).unwrap();
    let expected = std::fs::read_to_string(shared.join("truth.csv")).unwrap();
    let got: Vec<&str> = got.lines().collect();
    let expected: Vec<&str> = expected.lines().collect();
    assert_eq!(got.len(), 5001);
    assert_eq!(got, expected);
}

#[test]
fn probe_reports_errors_per_position() {
    let Some(shared) = ply_testkit::shared("syzygy/tables") else {
        return;
    };
    let fen = "r3k3/8/8/8/8/8/8/4K3 b q - 0 1";
    let output = Command::new(env!("CARGO_BIN_EXE_ply-chess"))
        .args(["probe", "--fen", fen, "--syzygy"])
        .arg(&shared)
        .output()
        .expect("run ply-chess");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with(&format!("{fen};error;")), "{text}");
}
