//! `ply-othello review`: the JSON shape, a thrown-away ending marked as a blunder, several games
//! in one GGF file (a bad one reported by number and move, the others still reviewed), and
//! usage errors. Small levels and few exact empties keep it fast.

mod common;

use serde_json::Value;

/// White to move with 9 empties: H4 wins by 30, A6 by 20, G1 loses by 6 (the engine's unit
/// tests check these scores with the solver).
const ENDING: &str = "OXO-X---OXXOXXXOOXOXXXXXXXXXOOX-XXXOOXOX-XOOOXOOXXXOOOOOOX--O-OO O";

/// A GGF record starting at [`ENDING`] with `moves` (`W[G1]B[..]`).
fn record(moves: &str) -> String {
    format!("(;GM[Othello]PC[test]TY[8]BO[8 {ENDING}]{moves};)")
}

/// Runs `ply-othello review args... --level 2 --exact 10 --hash 2` (small tables: a debug
/// build takes long to clear large ones): (exit code, stdout, stderr).
fn review(args: &[&str]) -> (i32, String, String) {
    let quick = ["--level", "2", "--exact", "10", "--hash", "2"];
    let out = common::ply(&[&["review"], args, &quick].concat());
    (
        out.status.code().unwrap_or(-1),
        common::stdout(&out),
        common::stderr(&out),
    )
}

/// The keys of a move of the JSON, the same as a move of the web page's review (`done` event
/// of `/api/othello/review`, checked against the same list in `crates/web/tests/review.rs`):
/// both print `ply_othello_engine::ReviewReport`.
const MOVE_KEYS: [&str; 12] = [
    "best",
    "empties",
    "exact",
    "forced",
    "judgement",
    "loss",
    "move",
    "ply",
    "pv",
    "score_best",
    "score_played",
    "side",
];

/// The keys of the web page's review report; a game of the JSON adds `game` and `seconds`.
const REPORT_KEYS: [&str; 5] = ["exact_from", "level", "loss", "mean_loss", "moves"];

/// The keys of a JSON object, sorted.
fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    k.sort_unstable();
    k
}

/// The JSON lines of standard output.
fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn a_move_list_gives_one_json_object_of_the_documented_shape() {
    let (code, out, err) = review(&["f5d6c3d3c4", "--json"]);
    assert_eq!(code, 0, "{err}");
    let games = json_lines(&out);
    assert_eq!(games.len(), 1, "{out}");
    let g = &games[0];
    assert_eq!(g["game"], 1);
    let moves = g["moves"].as_array().expect("moves");
    let played: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(played, ["f5", "d6", "c3", "d3", "c4"]);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["ply"], i + 1);
        assert_eq!(m["empties"], 60 - i);
        assert_eq!(keys(m), MOVE_KEYS, "{m}");
        assert_eq!(m["side"], if i % 2 == 0 { "black" } else { "white" });
        let (best, played) = (m["score_best"].as_i64(), m["score_played"].as_i64());
        let loss = m["loss"].as_i64().expect("a loss");
        assert_eq!(loss, (best.unwrap() - played.unwrap()).max(0));
        assert!(m["best"].is_string() && m["pv"].is_array());
        assert_eq!(m["exact"], false);
        let judgement = m["judgement"].as_str().unwrap();
        assert!(["best", "good", "inaccuracy", "mistake", "blunder"].contains(&judgement));
    }
    assert!(g["loss"]["black"].is_i64() && g["loss"]["white"].is_i64());
    assert!(g["mean_loss"]["black"].is_number());
    assert_eq!(
        (g["level"].as_i64(), g["exact_from"].as_i64()),
        (Some(2), Some(10))
    );
    assert!(g["seconds"].is_number());
    let mut game_keys = [&REPORT_KEYS[..], &["game", "seconds"]].concat();
    game_keys.sort_unstable();
    assert_eq!(keys(g), game_keys, "{g}");
}

#[test]
fn a_thrown_away_ending_is_a_blunder_and_a_bad_game_does_not_stop_the_others() {
    let scratch = ply_testkit::Scratch::new("review");
    let file = scratch.path().join("games.ggf");
    let games = [
        record("W[G1]"),
        record("W[H4]"),
        record("W[H4]B[A1]"), // A1 is not Black's move there
        record("W[A6]"),
    ];
    std::fs::write(&file, games.join("\n")).unwrap();
    let path = common::path(&file);

    let (code, out, err) = review(&[path, "--json"]);
    assert_eq!(code, 1, "the bad game sets the exit status");
    assert!(err.contains("game 3") && err.contains("A1"), "{err}");
    let reviews = json_lines(&out);
    let numbers: Vec<i64> = reviews
        .iter()
        .map(|g| g["game"].as_i64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 4]);

    let g1 = &reviews[0]["moves"][0];
    assert_eq!(
        (g1["move"].as_str(), g1["best"].as_str()),
        (Some("g1"), Some("h4"))
    );
    assert_eq!(
        (g1["score_best"].as_i64(), g1["score_played"].as_i64()),
        (Some(30), Some(-6))
    );
    assert_eq!(
        (g1["loss"].as_i64(), g1["exact"].as_bool()),
        (Some(36), Some(true))
    );
    assert_eq!(g1["judgement"], "blunder");
    assert_eq!(reviews[0]["loss"]["white"], 36);
    assert_eq!(reviews[0]["loss"]["black"], 0);

    assert_eq!(reviews[1]["moves"][0]["judgement"], "best");
    // ten discs given away, the win kept: at worst an inaccuracy in a solved ending
    let a6 = &reviews[2]["moves"][0];
    assert_eq!(
        (a6["loss"].as_i64(), a6["judgement"].as_str()),
        (Some(10), Some("inaccuracy"))
    );

    // the table marks the blunder; --game picks one game
    let (code, out, err) = review(&[path, "--game", "1"]);
    assert_eq!(code, 0, "{err}");
    let row = out
        .lines()
        .find(|l| l.contains("g1??"))
        .expect("g1 marked ??");
    assert!(row.contains("blunder") && row.contains("exact"), "{row}");
    assert!(out.contains("white: loss 36 discs"), "{out}");
    let (code, _, err) = review(&[path, "--game", "5"]);
    assert_eq!(code, 1);
    assert!(err.contains("no game 5"), "{err}");
}

#[test]
fn bad_input_is_an_error_never_a_panic() {
    let (code, out, err) = review(&["f5d6a1"]);
    assert_eq!(code, 1);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("game 1: move 3 (A1): illegal move A1"),
        "{err}"
    );
    let (code, _, err) = review(&["f5z9"]);
    assert_eq!(code, 1);
    assert!(err.contains("game 1: move 2: bad move \"z9\""), "{err}");
    let (code, _, err) = review(&["no/such/game.ggf"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read"), "{err}");
    // a WTHOR file needs --game; a game and a WTHOR file cannot go together
    let (code, _, _) = review(&["--wthor", "x.wtb"]);
    assert_eq!(code, 2);
    let (code, _, _) = review(&["f5", "--wthor", "x.wtb", "--game", "1"]);
    assert_eq!(code, 2);
    let (code, _, _) = review(&[]);
    assert_eq!(code, 2);

    let scratch = ply_testkit::Scratch::new("review-bad");
    let file = scratch.path().join("junk.ggf");
    std::fs::write(&file, "(;GM[Othello]BO[8 nonsense];)\n(;GM[Othello]").unwrap();
    let (code, _, err) = review(&[common::path(&file)]);
    assert_eq!(code, 1);
    assert!(err.contains("game 1") && err.contains("game 2"), "{err}");
    let wtb = scratch.path().join("junk.wtb");
    std::fs::write(&wtb, b"not a database").unwrap();
    let (code, _, err) = review(&["--wthor", common::path(&wtb), "--game", "1"]);
    assert_eq!(code, 1);
    assert!(err.contains("WTHOR"), "{err}");
}
