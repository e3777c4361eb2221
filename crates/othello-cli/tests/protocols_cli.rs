//! The `ply-othello` binary driven through pipes as a GUI or a user would: NBoard (including a
//! `ping` that must stop a long search), the default text mode, `analyse` and `solve`.

mod common;

use common::BIN;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const GAME: &str = "(;GM[Othello]PC[NBoard]PB[me]PW[ply]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

/// How long a reply that needs no search (an error, a `pong`, the status after a move) may take:
/// a guard against a hung engine, not a speed check, so generous enough for a loaded machine.
const REPLY: Duration = Duration::from_secs(30);

/// A running engine: its stdin, and its stdout lines arriving on a channel.
struct Engine {
    child: std::process::Child,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("ply-othello starts");
        let out = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine { child, lines }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first one for which `last` holds.
    fn until(&self, last: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let end = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = last(&l);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                Err(_) => panic!("no expected line within {timeout:?}; got {got:?}"),
            }
        }
    }

    fn finish(mut self) {
        drop(self.child.stdin.take());
        let end = Instant::now() + Duration::from_secs(20);
        while Instant::now() < end {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        panic!("the engine did not exit at end of input");
    }
}

#[test]
fn nboard_session_like_the_gui() {
    let mut e = Engine::start(&["nboard", "--hash", "8"]);
    e.send("nboard 2");
    e.send("set depth 6");
    e.send(&format!("set game {GAME}"));
    e.send("ping 1");
    let r = e.until(|l| l.starts_with("pong"), Duration::from_secs(20));
    let v = ply_othello_cli::VERSION;
    assert!(common::is_version(v), "{v}");
    assert_eq!(
        r,
        [
            format!("set myname ply-{v}"),
            format!("set myname ply6-{v}"),
            "pong 1".into()
        ]
    );
    e.send("go");
    let r = e.until(|l| l.starts_with("==="), Duration::from_secs(60));
    let mv = r.last().unwrap()[4..]
        .split('/')
        .next()
        .unwrap()
        .to_string();
    assert!(mv.parse::<ply_othello::Square>().is_ok(), "{r:?}");
    e.until(|l| l == "status", REPLY);
    e.send(&format!("move {mv}"));
    e.send("hint 2");
    let r = e.until(|l| l == "status", Duration::from_secs(60));
    assert!(
        r.iter().filter(|l| l.starts_with("search ")).count() >= 2,
        "{r:?}"
    );
    // malformed input gets an error status and the engine goes on
    e.send("move z9");
    let r = e.until(|l| l.starts_with("status error"), REPLY);
    assert_eq!(r.len(), 1, "{r:?}");
    e.send("ping 2");
    e.until(|l| l == "pong 2", REPLY);
    e.finish();
}

#[test]
fn nboard_ping_stops_a_long_search() {
    let mut e = Engine::start(&["nboard", "--hash", "8"]);
    e.send("nboard 2");
    e.send("set depth 60");
    e.send(&format!("set game {GAME}"));
    e.send("go");
    e.until(|l| l.starts_with("status ply is thinking"), REPLY);
    // a perfect solve of 52 empties would take far longer than this test
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("ping 9");
    let r = e.until(|l| l == "pong 9", REPLY);
    // the search is a perfect solve of 52 empties, which would run for days: a pong within the
    // generous bound was the ping stopping it (it takes milliseconds on an idle machine)
    assert!(t.elapsed() < REPLY, "{:?}", t.elapsed());
    assert!(r.iter().any(|l| l.starts_with("===")), "{r:?}");
    e.send("quit");
    e.finish();
}

#[test]
fn text_mode_is_the_default() {
    let mut e = Engine::start(&["--level", "4", "--hash", "8"]);
    e.until(|l| l.contains("type help"), REPLY);
    e.send("f5d6");
    e.send("go");
    let r = e.until(|l| l.starts_with("Black plays "), Duration::from_secs(30));
    assert!(!r.iter().any(|l| l.starts_with("error")), "{r:?}");
    e.send("xyz");
    e.until(|l| l.starts_with("error: "), REPLY);
    e.send("moves");
    let r = e.until(|l| l.starts_with("moves: "), REPLY);
    assert_eq!(r.last().unwrap().len(), "moves: f5d6c3".len());
    e.send("quit");
    e.finish();
}

#[test]
fn analyse_scores_every_move() {
    // FFO #1 (14 empties): the exact scores of every move are in the problem file
    let out = Command::new(BIN)
        .args([
            "analyse",
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
            "--level",
            "20",
            "--hash",
            "8",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let scores: Vec<(String, String)> = text
        .lines()
        .filter(|l| l.contains(" = "))
        .map(|l| {
            let f: Vec<_> = l.split('|').map(str::trim).collect();
            (f[0].to_string(), f[1].to_string())
        })
        .collect();
    let expected = "G8:+18 H1:+12 H7:+6 A2:+6 A3:+4 B1:-4 A4:-22 G2:-24";
    let mut got: Vec<_> = scores.iter().map(|(m, s)| format!("{m}:{s}")).collect();
    let mut want: Vec<_> = expected.split(' ').map(str::to_string).collect();
    got.sort();
    want.sort();
    assert_eq!(got, want, "{text}");
    let bad = Command::new(BIN)
        .args(["analyse", "f5a1"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("illegal move A1"));
}

#[test]
fn solve_counts_alternative_best_moves_apart_from_errors() {
    // FFO #1 (G8 +18) annotated three ways: G8 not annotated but +18 reached (an alternative),
    // G8 tied with the file's first best move (an alternative), G8 given a lower score (an error).
    let board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let scratch = ply_testkit::Scratch::new("solve-alt");
    let path = scratch.file("alternatives.obf");
    let text =
        format!("{board}; H1:+18; H7:+6;\n{board}; H1:+18; G8:+18;\n{board}; H1:+18; G8:+6;\n");
    std::fs::write(&path, text).unwrap();
    let run = |json: bool| {
        let mut cmd = Command::new(BIN);
        cmd.args(["solve", path.to_str().unwrap(), "--hash-mib", "8"]);
        if json {
            cmd.arg("--json");
        }
        cmd.output().unwrap()
    };
    let out = run(false);
    let table = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{table}");
    let marks: Vec<&str> = table
        .lines()
        .filter(|l| l.contains(" G8 "))
        .map(|l| l.rsplit("<-- ").next().unwrap_or(""))
        .collect();
    assert_eq!(
        marks,
        ["alternative best move", "alternative best move", "ERROR"],
        "{table}"
    );
    assert!(
        table.contains("1 errors, 2 alternative best moves, 0 bad lines"),
        "{table}"
    );
    let out = run(true);
    let json = String::from_utf8(out.stdout).unwrap();
    let summary = json.lines().last().unwrap();
    assert!(
        summary.starts_with(r#"{"summary":true,"positions":3,"errors":1,"alternatives":2,"#),
        "{json}"
    );
    assert!(json.lines().next().unwrap().starts_with(
        r#"{"index":1,"empties":14,"best":"G8","score":18,"expected":18,"errors":0,"nodes":"#
    ));
}

/// A malformed board (too short, too long, a bad square character, a bad side, a record whose
/// board is broken) is answered with an error line by every front-end, and the program goes on
/// or exits with its error status: never a panic. The text formats name one colour per square,
/// so overlapping discs cannot be written in them; `Board::new` rejects those at the API edge.
#[test]
fn malformed_boards_are_error_lines_not_panics() {
    let short = format!("{} X", "-".repeat(40));
    let long = format!("{} X", "-".repeat(70));
    let bad_char = format!("XO{}? X", "-".repeat(61));
    let bad_side = format!("XO{} Q", "-".repeat(62));
    for board in [&short, &long, &bad_char, &bad_side] {
        for args in [vec!["analyse", board], vec!["perft", "3", "--board", board]] {
            let out = Command::new(BIN).args(&args).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.starts_with("ply-othello: "), "{args:?}: {err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
        }
    }

    let mut text = Engine::start(&["--level", "1", "--hash", "8"]);
    text.until(|l| l.contains("type help"), REPLY);
    for board in [&short, &long, &bad_char, &bad_side] {
        text.send(&format!("setboard {board}"));
        text.until(|l| l.starts_with("error: "), REPLY);
    }
    text.send("moves");
    text.until(|l| l.starts_with("moves: "), REPLY);
    text.send("quit");
    text.finish();

    let mut nboard = Engine::start(&["nboard", "--hash", "8"]);
    nboard.send("nboard 2");
    nboard.until(|l| l.starts_with("set myname ply-"), REPLY);
    for board in ["XO-", &"?".repeat(64), &format!("{} Z", "-".repeat(64))] {
        nboard.send(&format!("set game (;GM[Othello]BO[8 {board}];)"));
        nboard.until(|l| l.starts_with("status error: "), REPLY);
    }
    nboard.send("ping 7");
    nboard.until(|l| l == "pong 7", REPLY);
    nboard.finish();

    let mut gtp = Engine::start(&["gtp", "--hash", "8"]);
    for command in ["play b z9", "play b a1", "boardsize 9"] {
        gtp.send(command);
        gtp.until(|l| l.starts_with("? "), REPLY);
    }
    gtp.send("name");
    gtp.until(|l| l == "= ply", REPLY);
    gtp.finish();
}

/// `match` tells an opponent with a clock its clock: `time_settings` at the start of each game
/// and `time_left` before each `genmove` (the opponent here is `ply-othello gtp` behind a
/// script that records what it is sent).
#[cfg(unix)]
#[test]
fn match_tells_the_opponent_its_clock() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = ply_testkit::Scratch::new("match-clock");
    let dir = scratch.path();
    let (log, script, openings) = (
        dir.join("sent.log"),
        dir.join("opponent.sh"),
        dir.join("o.txt"),
    );
    let body = format!(
        "#!/bin/sh\ntee -a '{}' | exec '{BIN}' gtp --level 1 --hash 4\n",
        log.display()
    );
    std::fs::write(&script, body).expect("script written");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::write(&openings, "f5d6c3d3c4f4f6f3\n").expect("openings written");
    let out = Command::new(BIN)
        .args(["match", "--opponent", script.to_str().expect("UTF-8 path")])
        .args([
            "--games",
            "2",
            "--time",
            "20",
            "--opponent-time",
            "30",
            "--level",
            "2",
        ])
        .args([
            "--hash",
            "4",
            "--openings",
            openings.to_str().expect("UTF-8 path"),
        ])
        .output()
        .expect("match runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sent = std::fs::read_to_string(&log).expect("the opponent's input was recorded");
    let lines: Vec<&str> = sent.lines().collect();
    let settings = lines
        .iter()
        .filter(|l| **l == "time_settings 30 0 0")
        .count();
    assert_eq!(settings, 2, "one time_settings a game: {sent}");
    let genmoves: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("genmove"))
        .collect();
    assert!(genmoves.len() >= 10, "{sent}");
    for i in genmoves {
        let secs: Vec<&str> = lines[i - 1].split(' ').collect();
        assert_eq!(secs.len(), 4, "time_left before genmove: {}", lines[i - 1]);
        assert_eq!(secs[0], "time_left");
        assert!(
            secs[2].parse::<u64>().is_ok_and(|t| t <= 30),
            "{}",
            lines[i - 1]
        );
    }
}
