//! `--eval-file` of `ply-chess eval` and `ply-chess bench` (issue 35), with random networks
//! written by the test (the engine library's `Network::random`) and the built-in network.

use ply_chess_engine::Network;
use std::path::PathBuf;

mod common;
use common::{ply, text};

/// `bytes` in a file of `scratch` named after `name`.
fn file(scratch: &ply_testkit::Scratch, name: &str, bytes: &[u8]) -> PathBuf {
    let path = scratch.file(&format!("{name}.nnue"));
    std::fs::write(&path, bytes).expect("write the network");
    path
}

#[test]
fn eval_prints_the_network_score_beside_the_hand_made_one() {
    let scratch = ply_testkit::Scratch::new("evalfile");
    let net = Network::random(64, 8, 21).unwrap();
    let path = file(&scratch, "eval", &net.to_bytes());
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3";
    let expected = net.evaluate(&ply_chess::Position::from_fen(fen).unwrap());
    let out = ply(&["eval", "--fen", fen, "--eval-file", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("Final evaluation:"), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "Network evaluation: {} cp (White's view), {expected} cp (side to move) [network H=64 N=8]",
            -expected
        )),
        "{stdout}"
    );
    let json = ply(&[
        "eval",
        "--fen",
        fen,
        "--json",
        "--eval-file",
        path.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["network"], expected);
    let _ = std::fs::remove_file(path);
}

#[test]
fn bench_with_a_network_is_deterministic_and_differs_from_hand_made() {
    let scratch = ply_testkit::Scratch::new("evalfile");
    let path = file(
        &scratch,
        "bench",
        &Network::random(32, 4, 5).unwrap().to_bytes(),
    );
    let run = |extra: &[&str]| {
        let mut args = vec!["bench", "--depth", "5", "--json"];
        args.extend_from_slice(extra);
        let out = ply(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["nodes"].as_u64().unwrap()
    };
    let with = run(&["--eval-file", path.to_str().unwrap()]);
    assert_eq!(with, run(&["--eval-file", path.to_str().unwrap()]));
    assert_ne!(with, run(&[]));
    // The default is the built-in network, `<empty>` the hand-made evaluation: three searches.
    let embedded = run(&["--eval-file", "<embedded>"]);
    assert_eq!(embedded, run(&[]));
    assert_ne!(embedded, run(&["--eval-file", "<empty>"]));
    assert_ne!(with, run(&["--eval-file", "<empty>"]));
    // the portable slider lookups and network loops search the same tree as the CPU's kernels
    assert_eq!(run(&["--portable"]), embedded);
    assert_eq!(
        run(&["--portable", "--eval-file", path.to_str().unwrap()]),
        with
    );
    let _ = std::fs::remove_file(path);
}

#[test]
fn a_bad_network_file_is_a_runtime_error() {
    let scratch = ply_testkit::Scratch::new("evalfile");
    let mut bytes = Network::random(16, 1, 1).unwrap().to_bytes();
    bytes.truncate(bytes.len() - 1);
    let short = file(&scratch, "short", &bytes);
    for args in [
        vec![
            "bench",
            "--depth",
            "1",
            "--eval-file",
            short.to_str().unwrap(),
        ],
        vec!["eval", "--eval-file", short.to_str().unwrap()],
        vec!["eval", "--eval-file", "/nonexistent/net.nnue"],
    ] {
        let out = ply(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with("ply-chess: --eval-file"),
            "{args:?}: {stderr}"
        );
    }
    let _ = std::fs::remove_file(short);
}
