//! `ply-chess review` end to end: the JSON shape, the blunder of a constructed game, the text
//! table, the annotated PGN read back by ply's reader and by python-chess (a reader nobody here
//! wrote; skipped visibly without python3 and its `chess` package), a file with a bad game
//! (reported by number and move, exit status 1, the other games still reviewed), and usage errors.

use ply_chess::pgn;
use serde_json::Value;
use std::process::{Command, Output};

/// Two good games around a broken one: 3.Qxe5+?? hangs the queen in the first; the second has an
/// illegal move; the third is the scholar's mate (3...Nf6?? allows Qxf7#).
const GAMES: &str = r#"[Event "hang"]
[White "Careless"]
[Black "Alert"]
[Result "0-1"]

1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 0-1

[Event "broken"]
[Result "*"]

1. e4 e5 2. Ke3 *

[Event "scholar"]
[White "Quick"]
[Black "Slow"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"#;

fn review(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply-chess"))
        .arg("review")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run ply-chess");
    // a program that stops early (a usage error) closes its input: not a failure here
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

const FAST: [&str; 2] = ["--nodes", "20000"];

#[test]
fn json_lines_have_the_documented_shape_and_mark_the_blunders() {
    let out = review(&["-", "--json", FAST[0], FAST[1]], GAMES);
    assert_eq!(out.status.code(), Some(1), "the broken game fails the run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("game 2") && err.contains("Ke3"), "{err}");
    let text = String::from_utf8(out.stdout).unwrap();
    let games: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 2, "{text}");
    let hang = &games[0];
    assert_eq!(hang["game"], 1);
    assert_eq!(hang["white"], "Careless");
    assert_eq!(hang["black"], "Alert");
    assert_eq!(hang["result"], "0-1");
    let moves = hang["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["ply"], i + 1);
        for key in ["san", "uci", "fen_before", "best", "judgement"] {
            assert!(m[key].is_string(), "{key}: {m}");
        }
        for key in ["score_played", "score_best"] {
            let s = m[key].as_object().unwrap();
            assert!(
                s.len() == 1 && (s.contains_key("cp") || s.contains_key("mate")),
                "{m}"
            );
        }
        assert!(m["pv"].is_array());
        let loss = m["loss"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&loss), "{m}");
    }
    assert_eq!(moves[0]["fen_before"], ply_chess::STARTPOS);
    assert_eq!(moves[4]["san"], "Qxe5+");
    assert_eq!(moves[4]["uci"], "h5e5");
    assert_eq!(moves[4]["judgement"], "blunder");
    assert_eq!(moves[5]["judgement"], "best");
    for side in ["white", "black"] {
        let a = hang["accuracy"][side].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&a));
        assert!(hang["acpl"][side].as_f64().unwrap() >= 0.0);
    }
    assert!(hang["accuracy"]["white"].as_f64() < hang["accuracy"]["black"].as_f64());
    let scholar = &games[1];
    assert_eq!(scholar["game"], 3);
    let m = &scholar["moves"].as_array().unwrap()[5];
    assert_eq!(m["san"], "Nf6");
    assert_eq!(m["judgement"], "blunder");
    assert_eq!(m["score_played"]["mate"], -1);
    let last = &scholar["moves"].as_array().unwrap()[6];
    assert_eq!(last["score_best"]["mate"], 1);
}

#[test]
fn one_game_as_a_table() {
    let out = review(&["-", "--game", "1", FAST[0], FAST[1]], GAMES);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Game 1: Careless - Alert, 0-1"), "{text}");
    assert!(text.contains("3.Qxe5+??"), "{text}");
    assert!(text.contains("White: accuracy"), "{text}");
    assert!(!text.contains("Game 3"));
    let out = review(&["-", "--game", "4"], GAMES);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has 3 games, not 4"));
}

#[test]
fn annotated_pgn_reads_back_here_and_in_python_chess() {
    let out = review(&["-", "--game", "3", "--pgn", FAST[0], FAST[1]], GAMES);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let game = pgn::read(&text).next().unwrap().unwrap();
    assert!(game.tag("Annotator").unwrap().starts_with("ply-chess "));
    assert_eq!(game.tag("White"), Some("Quick"));
    let moves = &game.line.moves;
    assert_eq!(moves.len(), 7);
    assert_eq!(moves[5].nags, [4]);
    assert_eq!(moves[5].variations.len(), 1);
    assert!(moves[5].variations[0].moves.len() <= 10);
    assert!(moves[0].comments[0].starts_with("[%eval "), "{text}");
    // python-chess: the same moves, the ?? glyph, the variation and the evaluations
    let script = r#"
import sys, chess.pgn
g = chess.pgn.read_game(sys.stdin)
assert not g.errors, g.errors
main = list(g.mainline())
print(len(main), main[5].nags == {4}, len(main[5].parent.variations), main[5].eval().relative.mate(), main[0].eval() is not None)
"#;
    let py = Command::new("python3")
        .arg("-c")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = py else {
        ply_testkit::skip("python3 is not available");
        return;
    };
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        if err.contains("No module named 'chess'") {
            ply_testkit::skip("python3 has no `chess` package");
            return;
        }
        panic!("python-chess could not read it: {err}\n{text}");
    }
    // after 3...Nf6?? White to move mates in one: python-chess's relative view is +1
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "7 True 2 1 True"
    );
}

#[test]
fn usage_errors() {
    let out = review(&["-", "--nodes", "10", "--depth", "3"], GAMES);
    assert_eq!(out.status.code(), Some(2));
    let out = review(&["-", "--json", "--pgn"], GAMES);
    assert_eq!(out.status.code(), Some(2));
    let out = review(&["/nonexistent/games.pgn"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}
