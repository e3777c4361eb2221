//! `ply-othello match` against fake and real opponents: one that exits, one that floods its
//! output, one that stops answering, ply's own GTP mode; human and JSON summaries; the built-in
//! openings (no `../shared` needed).

mod common;

use common::BIN;
use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `ply-othello match args...` from a scratch folder (no `../shared` beside it).
fn run_match(args: &[&str]) -> (Output, Duration) {
    let dir = scratch_dir();
    let t0 = Instant::now();
    let out = Command::new(BIN)
        .arg("match")
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("ply-othello runs");
    (out, t0.elapsed())
}

/// The working folder of a match (removed when dropped, once the match has ended).
fn scratch_dir() -> ply_testkit::Scratch {
    ply_testkit::Scratch::new("match-cli")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What a summary must never show: Rust's debug forms.
fn assert_no_debug_forms(s: &str) {
    for bad in [
        "Some(",
        "None",
        "OpponentCrash",
        "inf",
        "Elo -0",
        "Elo +0 ± inf",
    ] {
        assert!(!s.contains(bad), "debug form {bad:?} in {s}");
    }
}

/// ply's own GTP mode at level 1, as an opponent command line.
fn ply_gtp() -> String {
    format!("{BIN} gtp --level 1 --hash 4")
}

#[test]
fn an_opponent_that_exits_is_reported_and_stops_the_match() {
    let (o, _) = run_match(&["--opponent", "true", "--level", "1"]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    // it used to die of SIGPIPE (status 141, nothing said)
    assert_eq!(o.status.code(), Some(1), "{:?} {out} {err}", o.status);
    assert!(
        err.contains("opponent `true` failed in game 1/2")
            && err.contains("exited before answering"),
        "{err}"
    );
    assert!(
        out.contains("game 1/2: ply black +64 (opponent failed: "),
        "{out}"
    );
    assert!(out.contains("Elo n/a"), "{out}");
    assert!(out.contains("failures 1"), "{out}");
    assert!(
        out.contains("level 1,") && out.contains("ply time none"),
        "{out}"
    );
    assert_no_debug_forms(&out);
}

#[test]
fn keep_going_restarts_a_failing_opponent_and_counts_every_game() {
    let (o, _) = run_match(&["--opponent", "true", "--games", "4", "--keep-going"]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{out} {err}");
    assert_eq!(err.matches("restarting it").count(), 4, "{err}");
    assert!(out.contains("result: 4 games +4 =0 -0"), "{out}");
}

#[test]
fn an_opponent_that_floods_its_output_times_out() {
    let (o, took) = run_match(&["--opponent", "yes", "--reply-timeout", "1"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("did not answer `boardsize 8` within 1 s"),
        "{err}"
    );
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

#[cfg(unix)]
#[test]
fn an_opponent_that_stops_answering_genmove_is_declared_unresponsive() {
    let scratch = ply_testkit::Scratch::new("match-cli");
    let script = scratch.file("mute.sh");
    // answers every command except genmove, which it never answers
    std::fs::write(
        &script,
        "while read -r c; do case \"$c\" in genmove*) ;; quit) exit 0;; \
         *) printf '= \\n\\n';; esac; done\n",
    )
    .expect("script written");
    let opponent = format!("sh {}", script.display());
    let (o, took) = run_match(&[
        "--opponent",
        &opponent,
        "--reply-timeout",
        "1",
        "--level",
        "1",
    ]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{out} {err}");
    assert!(
        err.contains("did not answer `genmove white` within 1 s"),
        "{err}"
    );
    assert!(out.contains("game 1/2: ply black +64"), "{out}");
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

#[test]
fn zero_games_is_a_usage_error() {
    let (o, _) = run_match(&["--opponent", "true", "--games", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("1..="), "{}", text(&o.stderr));
}

#[test]
fn a_match_against_ply_with_builtin_openings_and_a_json_summary() {
    let opponent = ply_gtp();
    let (o, _) = run_match(&[
        "--opponent",
        &opponent,
        "--level",
        "1",
        "--games",
        "2",
        "--time",
        "30",
        "--json",
    ]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{out} {err}");
    assert!(
        err.contains("ply time 30 s") && err.contains("openings built in"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["games"], 2);
    assert_eq!(v["opponent_failures"], 0);
    assert!(v["stopped"].is_null());
    let w =
        v["wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap() + v["losses"].as_u64().unwrap();
    assert_eq!(w, 2);
    let games = v["game_list"].as_array().expect("a game list");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["ply_color"], "black");
    assert_eq!(games[0]["termination"], "played out");
    // the first opening of the built-in set
    let first = ply_othello_tools::matchplay::builtin_openings()[0].clone();
    let moves = games[1]["moves"].as_str().unwrap();
    assert!(
        moves.starts_with(&ply_othello::format_moves(&first)),
        "{moves}"
    );
    assert!(v["elo"].is_null() || v["elo"].is_f64());
}

/// A `--json` match against ply's GTP mode with `args` added (it must succeed): its summary and
/// the header line it printed on standard error.
fn json_match(args: &[&str]) -> (serde_json::Value, String) {
    let opponent = ply_gtp();
    let mut all = vec!["--opponent", &opponent, "--json"];
    all.extend_from_slice(args);
    let (o, _) = run_match(&all);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{out} {err}");
    let v = serde_json::from_str(out.trim()).expect("one JSON object");
    (v, err)
}

/// The move lists of a `--json` match's games.
fn game_moves(v: &serde_json::Value) -> Vec<String> {
    v["game_list"]
        .as_array()
        .expect("a game list")
        .iter()
        .map(|g| g["moves"].as_str().expect("moves").to_string())
        .collect()
}

#[test]
fn a_weakened_ply_plays_games_repeated_by_seed_and_varied_between_seeds() {
    let play = |seed: &str| {
        let (v, err) = json_match(&["--strength", "beginner", "--games", "4", "--seed", seed]);
        assert!(
            err.contains("level 1, strength beginner (loss 16 discs at 0.6)"),
            "{err}"
        );
        assert_eq!(v["strength"], "beginner");
        assert_eq!(v["loss_discs"], 16);
        assert_eq!(v["games"], 4);
        game_moves(&v)
    };
    let (a, again, other) = (play("3"), play("3"), play("4"));
    assert_eq!(a, again, "the same seed plays the same games");
    assert_ne!(a, other, "another seed plays other games");
    let full =
        |seed: &str| game_moves(&json_match(&["--level", "1", "--games", "4", "--seed", seed]).0);
    assert_eq!(
        full("3"),
        full("4"),
        "without an allowance the seed changes nothing"
    );
    assert_ne!(a, full("3"), "the allowance changes the games");
}

#[test]
fn a_match_from_the_start_position_with_the_built_in_book_varies_by_seed() {
    let play = |seed: &str| {
        let (v, err) = json_match(&[
            "--level",
            "1",
            "--games",
            "4",
            "--from-start",
            "--builtin-book",
            "--book-randomness",
            "4",
            "--seed",
            seed,
        ]);
        assert!(
            err.contains("book built in (") && err.contains("randomness 4"),
            "{err}"
        );
        assert!(err.contains("from the start position"), "{err}");
        let games = v["game_list"].as_array().expect("a game list");
        for g in games {
            assert!(g["ply_book_moves"].as_u64().unwrap() >= 1, "{g}");
            let moves = g["moves"].as_str().unwrap();
            let end = ply_othello::parse_and_play(ply_othello::Position::start(), moves);
            assert!(end.is_ok_and(|p| p.board.is_game_over()), "{moves}");
        }
        game_moves(&v)
    };
    let (a, again) = (play("5"), play("5"));
    assert_eq!(a, again, "the same seed draws the same book moves");
    let distinct: std::collections::BTreeSet<&String> = a.iter().collect();
    assert!(
        distinct.len() >= 2,
        "the book's draws vary the games: {a:?}"
    );
    // without a book no move is a book move
    let (v, _) = json_match(&["--level", "1", "--games", "2", "--from-start"]);
    let games = v["game_list"].as_array().expect("a game list");
    assert!(games.iter().all(|g| g["ply_book_moves"] == 0), "{v}");
    let (o, _) = run_match(&["--opponent", "true", "--from-start", "--openings", "x.txt"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

#[test]
fn strength_with_level_or_a_bad_loss_is_a_usage_error() {
    let (o, _) = run_match(&["--opponent", "true", "--strength", "club", "--level", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let (o, _) = run_match(&["--opponent", "true", "--strength", "grandmaster"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("not a strength level"),
        "{}",
        text(&o.stderr)
    );
    let (o, _) = run_match(&["--opponent", "true", "--loss", "65", "0.5"]);
    assert_ne!(o.status.code(), Some(0));
    assert!(
        text(&o.stderr).contains("DISCS must be 0..=64"),
        "{}",
        text(&o.stderr)
    );
}

#[cfg(unix)]
#[test]
fn a_closed_standard_output_ends_the_match_quietly() {
    let dir = scratch_dir();
    let mut child = Command::new(BIN)
        .args(["match", "--opponent", &ply_gtp(), "--level", "1"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ply-othello starts");
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("stderr read");
    let status = child.wait().expect("ply-othello ends");
    assert_eq!(err, "", "nothing said on a closed stdout");
    assert!(status.code().is_some(), "killed by a signal: {status:?}");
}
