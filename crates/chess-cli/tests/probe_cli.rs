//! `ply-chess probe` over the shared truth file reproduces every `FEN;wdl;dtz` line.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn probe_file_matches_truth() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/syzygy");
    if !shared.join("truth.csv").exists() {
        eprintln!("skipping: {} not found", shared.display());
        return;
    }
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
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/syzygy/tables");
    if !shared.exists() {
        eprintln!("skipping: {} not found", shared.display());
        return;
    }
    let fen = "r3k3/8/8/8/8/8/8/4K3 b q - 0 1";
    let output = Command::new(env!("CARGO_BIN_EXE_ply-chess"))
        .args(["probe", "--fen", fen, "--syzygy"])
        .arg(&shared)
        .output()
        .expect("run ply-chess");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with(&format!("{fen};error;")), "{text}");
}
