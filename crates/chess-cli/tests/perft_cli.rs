//! The `perft` subcommand end to end: JSON last line, divide, threads, errors.

use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ply-chess"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn json_last_line() {
    let (ok, out, _) = run(&["perft", "--depth", "4", "--json"]);
    assert!(ok);
    let last = out.lines().last().expect("output");
    assert!(last.starts_with("{\"nodes\":197281,\"seconds\":"), "{last}");
    assert!(last.contains("\"nps\":") && last.ends_with('}'));
}

#[test]
fn divide_with_threads_sums_up() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (ok, out, _) = run(&[
        "perft",
        "--fen",
        kiwipete,
        "--depth",
        "3",
        "--divide",
        "--threads",
        "2",
    ]);
    assert!(ok);
    let per_move: Vec<u64> = out
        .lines()
        .take_while(|l| !l.starts_with("Nodes: "))
        .filter_map(|l| l.split_once(": "))
        .filter_map(|(_, n)| n.trim().parse().ok())
        .collect();
    assert_eq!(per_move.len(), 48);
    assert_eq!(per_move.iter().sum::<u64>(), 97862);
    assert!(out.contains("e1g1: "));
    assert_eq!(out.lines().last(), Some("Nodes: 97862"), "{out}");
}

#[test]
fn chess960_divide_uses_king_takes_rook() {
    let fen = "4k3/8/8/8/8/8/8/5KR1 w G - 0 1";
    let (ok, out, _) = run(&["perft", "--fen", fen, "--depth", "1", "--divide"]);
    assert!(ok);
    assert!(out.contains("f1g1: 1"), "{out}");
}

#[test]
fn bad_fen_is_an_error_not_a_panic() {
    let (ok, _, err) = run(&["perft", "--fen", "not a fen at all", "--depth", "3"]);
    assert!(!ok);
    assert!(err.starts_with("ply-chess: "), "{err}");
}
