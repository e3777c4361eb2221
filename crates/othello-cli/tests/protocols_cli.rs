//! The `ply-othello` binary driven through pipes as a GUI or a user would: NBoard (including a
//! `ping` that must stop a long search), the default text mode, `analyse` and `solve` (with
//! `--wdl` and `--all-moves` checked against the FFO problems 1 to 19 of `../shared`).

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

/// `--ponder`: after `genmove` (GTP) or `set game` (NBoard) the engine searches at level 60,
/// which would run for days; the next command is answered at once (within the generous
/// bound: it takes milliseconds on an idle machine), and `quit` ends the program.
#[test]
fn pondering_stops_at_the_next_command() {
    let mut e = Engine::start(&["gtp", "--ponder", "--level", "60", "--hash", "8"]);
    e.send("time_settings 1 0 0");
    e.send("genmove black");
    let r = e.until(
        |l| l.starts_with("= ") && l.len() > 2,
        Duration::from_secs(30),
    );
    assert!(
        r.last().unwrap()[2..]
            .parse::<ply_othello::Square>()
            .is_ok(),
        "{r:?}"
    );
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("name");
    e.until(|l| l == "= ply", REPLY);
    assert!(t.elapsed() < REPLY, "{:?}", t.elapsed());
    e.send("quit");
    e.finish();

    let mut e = Engine::start(&["nboard", "--ponder", "--hash", "8"]);
    e.send("nboard 2");
    e.send("set depth 60");
    e.send(&format!("set game {GAME}"));
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("ping 4");
    let r = e.until(|l| l == "pong 4", REPLY);
    assert!(t.elapsed() < REPLY, "{:?}", t.elapsed());
    assert_eq!(r.len(), 3, "nothing from the ponder: {r:?}");
    e.send("quit");
    e.finish();
}

/// The text mode on a clock: a whole game between the engine and itself with 0.2 s a side at
/// level 60 is played to its end, and the clocks are shown.
#[test]
fn text_mode_plays_a_tiny_timed_game() {
    let mut e = Engine::start(&["--level", "60", "--hash", "8"]);
    e.until(|l| l.contains("type help"), REPLY);
    e.send("game-time 0.2");
    e.until(|l| l == "game time 0:00.2", REPLY);
    e.send("mode 2");
    let r = e.until(|l| l.starts_with("game over"), Duration::from_secs(60));
    assert!(
        r.iter().filter(|l| l.contains(" plays ")).count() >= 40,
        "{r:?}"
    );
    e.send("clock");
    e.until(|l| l.starts_with("clock: Black 0:00."), REPLY);
    e.send("game-time 1:75");
    e.until(|l| l.starts_with("error: bad time \"1:75\""), REPLY);
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

/// An FFO problem: its board and side as written, and its annotated moves with their scores.
type Problem = (String, Vec<(String, i32)>);

/// The first `n` problems of the FFO file of problems 1 to 19, read here rather than by the
/// program (`None` after a visible skip when `../shared` does not have the file).
fn ffo_first(n: usize) -> Option<Vec<Problem>> {
    let text = ply_testkit::shared_text("othello/ffo/fforum-1-19.obf")?;
    let problems: Vec<Problem> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(n)
        .map(|line| {
            let mut fields = line.split(';').map(str::trim);
            let board = fields.next().unwrap().to_string();
            let moves = fields
                .filter(|f| !f.is_empty())
                .map(|f| {
                    let (sq, score) = f.split_once(':').unwrap();
                    (sq.to_string(), score.parse::<i32>().unwrap())
                })
                .collect();
            (board, moves)
        })
        .collect();
    assert_eq!(problems.len(), n, "the FFO file has {n} problems");
    Some(problems)
}

/// The OBF lines of `problems`, annotations included.
fn obf_lines(problems: &[Problem]) -> Vec<String> {
    problems
        .iter()
        .map(|(board, moves)| {
            let notes: Vec<String> = moves.iter().map(|(m, s)| format!("{m}:{s:+}")).collect();
            format!("{board}; {};", notes.join("; "))
        })
        .collect()
}

/// Writes `lines` to `name` in `scratch` and runs `solve` on it with `args`.
fn solve_lines(
    scratch: &ply_testkit::Scratch,
    name: &str,
    lines: &[String],
    args: &[&str],
) -> std::process::Output {
    let path = scratch.file(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    Command::new(BIN)
        .arg("solve")
        .arg(&path)
        .args(["--hash", "16"])
        .args(args)
        .output()
        .unwrap()
}

/// The JSON lines of a `solve --json` run: the positions, then the summary.
fn json_lines(out: &std::process::Output) -> (Vec<serde_json::Value>, serde_json::Value) {
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let mut all: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let summary = all.pop().expect("a summary line");
    assert_eq!(summary["summary"], true, "{text}");
    (all, summary)
}

/// `solve --wdl` on the FFO problems 1 to 19 (wins, the draw #4, the losses #9, #12 and #18):
/// every reported score has the sign of the file's best score, in fewer nodes than the exact
/// solve; and it judges by the sign alone: a right sign with a wrong margin passes, which the
/// exact solve calls an error, and a wrong sign is an error.
#[test]
fn solve_wdl_gives_the_sign_of_the_ffo_scores() {
    let Some(problems) = ffo_first(19) else {
        return;
    };
    let scratch = ply_testkit::Scratch::new("solve-wdl");
    let lines = obf_lines(&problems);
    let wdl = solve_lines(&scratch, "ffo.obf", &lines, &["--wdl", "--json"]);
    assert!(
        wdl.status.success(),
        "{}",
        String::from_utf8_lossy(&wdl.stderr)
    );
    let exact = solve_lines(&scratch, "ffo.obf", &lines, &["--json"]);
    assert!(exact.status.success());
    let ((wdl, wdl_sum), (exact, exact_sum)) = (json_lines(&wdl), json_lines(&exact));
    assert_eq!(wdl.len(), 19);
    let mut signs = [0; 3];
    for (i, ((_, moves), (w, e))) in problems.iter().zip(wdl.iter().zip(&exact)).enumerate() {
        let best = moves.iter().map(|&(_, s)| s).max().unwrap();
        let score = w["score"].as_i64().unwrap() as i32;
        assert_eq!(score.signum(), best.signum(), "FFO #{}: {w}", i + 1);
        assert_eq!(w["verdict"], "correct", "{w}");
        assert_eq!(w["errors"], 0, "{w}");
        // the exact solve gives the file's score itself
        assert_eq!(e["score"], best, "FFO #{}: {e}", i + 1);
        signs[(best.signum() + 1) as usize] += 1;
    }
    assert!(
        signs.iter().all(|&n| n > 0),
        "losses, draws and wins: {signs:?}"
    );
    assert_eq!(wdl_sum["errors"], 0, "{wdl_sum}");
    let nodes = |s: &serde_json::Value| s["nodes"].as_u64().unwrap();
    assert!(
        nodes(&wdl_sum) < nodes(&exact_sum),
        "a win/draw/loss window searches less: {wdl_sum} {exact_sum}"
    );

    // FFO #1 is G8 +18: annotated +6 (right sign) and -6 (wrong sign)
    let (board, _) = &problems[0];
    let margin = vec![format!("{board}; G8:+6;")];
    let out = solve_lines(&scratch, "margin.obf", &margin, &["--wdl", "--json"]);
    let (pos, sum) = json_lines(&out);
    assert_eq!(out.status.code(), Some(0), "{sum}");
    assert_eq!(
        (pos[0]["verdict"].as_str(), sum["errors"].as_u64()),
        (Some("correct"), Some(0))
    );
    let out = solve_lines(&scratch, "margin.obf", &margin, &["--json"]);
    let (pos, sum) = json_lines(&out);
    assert_eq!(out.status.code(), Some(1), "{sum}");
    assert_eq!(pos[0]["verdict"], "wrong score", "{}", pos[0]);
    assert_eq!(pos[0]["score"], 18);
    let sign = vec![format!("{board}; G8:-6;")];
    let out = solve_lines(&scratch, "sign.obf", &sign, &["--wdl", "--json"]);
    let (pos, sum) = json_lines(&out);
    assert_eq!(out.status.code(), Some(1), "{sum}");
    assert_eq!(pos[0]["verdict"], "wrong score", "{}", pos[0]);
    assert!(pos[0]["score"].as_i64().unwrap() > 0, "{}", pos[0]);
}

/// `solve --all-moves` on the FFO problems 1 to 19: one `all moves:` line a problem with a
/// score for every legal move, best first, the best equal to the row's score, and every move
/// the file annotates scored as the file says; a wrong score on a move that is not the best is
/// an error with `--all-moves` and goes unnoticed without it.
#[test]
fn solve_all_moves_scores_every_annotated_ffo_move() {
    let Some(problems) = ffo_first(19) else {
        return;
    };
    let scratch = ply_testkit::Scratch::new("solve-all");
    let lines = obf_lines(&problems);
    let out = solve_lines(&scratch, "ffo.obf", &lines, &["--all-moves"]);
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{table}");
    assert!(table.contains("total: 19 positions"), "{table}");
    assert!(table.contains(" 0 errors, "), "{table}");
    let rows: Vec<&str> = table.lines().collect();
    let all_lines: Vec<(usize, &str)> = rows
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.split_once("all moves: ").map(|(_, list)| (i, list)))
        .collect();
    assert_eq!(all_lines.len(), 19, "{table}");
    let mut checked = 0;
    for ((board, moves), (at, list)) in problems.iter().zip(&all_lines) {
        let scores: Vec<(&str, i32)> = list
            .split_whitespace()
            .map(|m| {
                let (sq, s) = m.split_once(':').unwrap();
                (sq, s.parse().unwrap())
            })
            .collect();
        // every legal move once
        let obf = ply_othello::parse_obf_line(board).unwrap().unwrap();
        let legal = obf.position.board.moves().count_ones() as usize;
        assert_eq!(scores.len(), legal, "{board}: {list}");
        let mut squares: Vec<&str> = scores.iter().map(|&(m, _)| m).collect();
        squares.sort_unstable();
        squares.dedup();
        assert_eq!(squares.len(), legal, "{list}");
        // best first, and the best is the row's score (the row just above)
        assert!(scores.windows(2).all(|w| w[0].1 >= w[1].1), "{list}");
        let row: Vec<&str> = rows[at - 1].split('|').map(str::trim).collect();
        assert_eq!(
            row[3].parse::<i32>().unwrap(),
            scores[0].1,
            "{}",
            rows[at - 1]
        );
        // the file's scores, move by move
        for (m, s) in moves {
            let got = scores.iter().find(|&&(x, _)| x == m).map(|&(_, v)| v);
            assert_eq!(got, Some(*s), "{board}: {m} in {list}");
            checked += 1;
        }
    }
    assert!(checked >= 140, "{checked} annotated moves checked");

    // FFO #1 with H1 (+12, not the best move) annotated +10
    let (board, _) = &problems[0];
    let wrong = vec![format!("{board}; G8:+18; H1:+10;")];
    let out = solve_lines(&scratch, "wrong.obf", &wrong, &["--all-moves"]);
    let table = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{table}");
    assert!(
        table.contains("H1:+12") && table.contains("<-- ERROR"),
        "{table}"
    );
    assert!(table.contains(" 1 errors, "), "{table}");
    let out = solve_lines(&scratch, "wrong.obf", &wrong, &[]);
    let table = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{table}");
    assert!(!table.contains("all moves:"), "{table}");
    assert!(table.contains(" 0 errors, "), "{table}");
}
