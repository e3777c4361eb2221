use super::*;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A session whose output is collected in memory.
fn session() -> (UciSession, Arc<Mutex<Vec<String>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&lines);
    let out: Output = Arc::new(move |l: &str| sink.lock().unwrap().push(l.to_string()));
    (UciSession::new(out), lines)
}

fn take(lines: &Arc<Mutex<Vec<String>>>) -> Vec<String> {
    std::mem::take(&mut *lines.lock().unwrap())
}

/// Sends `go ...`, waits for `bestmove` (failing after a minute rather than hanging: every search
/// here is limited to well under a second of work), returns all output.
fn go(e: &mut UciSession, lines: &Arc<Mutex<Vec<String>>>, args: &str) -> Vec<String> {
    assert!(e.handle(&format!("go {args}")));
    wait_at_most(e, Duration::from_secs(60));
    take(lines)
}

/// Waits until the running search has printed `bestmove`, failing (instead of hanging) when that
/// takes more than `limit`. Limits are many times the time the search may use, so a loaded
/// machine cannot fail them; the test is that the search ends by itself, not how fast.
fn wait_at_most(e: &mut UciSession, limit: Duration) {
    let start = Instant::now();
    while e.is_searching() {
        assert!(
            start.elapsed() < limit,
            "search still running after {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    e.wait();
}

fn bestmove(out: &[String]) -> String {
    let last = out.last().expect("output");
    assert!(last.starts_with("bestmove "), "{out:?}");
    last.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn handshake_and_options() {
    let (mut e, lines) = session();
    assert!(e.handle("uci"));
    let out = take(&lines);
    assert_eq!(out[0], format!("id name ply-chess {}", crate::VERSION));
    assert_eq!(out.last().unwrap(), "uciok");
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Move Overhead",
        "UCI_Chess960",
        "UCI_ShowWDL",
        "Clear Hash",
        "SyzygyPath",
        "SyzygyProbeDepth",
        "EvalFile",
    ] {
        assert!(
            out.iter()
                .any(|l| l.starts_with(&format!("option name {name} type"))),
            "{name}"
        );
    }
    assert!(e.handle("isready"));
    assert_eq!(take(&lines), ["readyok"]);
    for good in [
        "setoption name Hash value 4",
        "setoption name Threads value 2",
        "setoption name MultiPV value 2",
        "setoption name Ponder value true",
        "setoption name Move Overhead value 30",
        "setoption name UCI_Chess960 value false",
        "setoption name UCI_ShowWDL value false",
        "setoption name Clear Hash",
        "setoption name SyzygyProbeDepth value 3",
        "setoption name SyzygyPath value <empty>",
    ] {
        assert!(e.handle(good));
        assert!(take(&lines).is_empty(), "{good}");
    }
    assert_eq!(e.engine().hash_mib(), 4);
    assert_eq!(e.engine().options().threads, 2);
    assert_eq!(e.engine().options().multipv, 2);
    assert_eq!(e.engine().options().move_overhead, 30);
    assert_eq!(e.engine().options().probe_depth, 3);
    assert!(e.ponder);
    for bad in [
        "setoption name Hash value lots",
        "setoption name Threads value 0",
        "setoption name MultiPV",
        "setoption name Ponder value maybe",
        "setoption name Nonsense value 1",
        "setoption value 3",
        "setoption name SyzygyPath value /nonexistent/dir",
    ] {
        assert!(e.handle(bad));
        let out = take(&lines);
        assert!(
            out.len() == 1 && out[0].starts_with("info string error"),
            "{bad}: {out:?}"
        );
    }
}

/// `UCI_ShowWDL` is off by default (no `wdl` field); on, every `info` line carries `wdl W D L`
/// right after the score, three per-mille chances that add up to 1000 and agree with the score's
/// sign; a mate is a certain win.
#[test]
fn show_wdl_adds_win_draw_loss_to_info_lines() {
    let (mut e, lines) = session();
    e.handle("position startpos");
    let out = go(&mut e, &lines, "depth 3");
    assert!(out.iter().all(|l| !l.contains(" wdl ")), "{out:?}");
    e.handle("setoption name UCI_ShowWDL value true");
    assert!(take(&lines).is_empty());
    // White is a queen up
    e.handle("position fen 4k3/8/8/8/8/8/3PPP2/3QK3 w - - 0 1");
    let out = go(&mut e, &lines, "depth 4");
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty());
    for line in &infos {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "wdl").expect(line);
        assert_eq!(words[at - 3], "score", "{line}");
        let wdl: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
        assert!(wdl[0] > 900, "{line}");
    }
    // mate in one: a certain win
    e.handle("position fen 7k/8/5K2/6Q1/8/8/8/8 w - - 0 1");
    let out = go(&mut e, &lines, "depth 3");
    let last = out
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last.contains("score mate 1 wdl 1000 0 0"), "{last}");
    e.handle("setoption name UCI_ShowWDL value maybe");
    assert!(take(&lines)[0].starts_with("info string error"));
}

#[test]
fn searches_and_reports() {
    let (mut e, lines) = session();
    e.handle("position startpos moves e2e4 e7e5 g1f3");
    let out = go(&mut e, &lines, "depth 5");
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 5);
    for key in [
        "seldepth",
        "multipv 1",
        "score cp",
        "nodes",
        "nps",
        "hashfull",
        "tbhits",
        "time",
        "pv",
    ] {
        assert!(infos[4].contains(key), "{key}: {}", infos[4]);
    }
    let mut pos = Position::startpos();
    for m in ["e2e4", "e7e5", "g1f3"] {
        pos = pos.play(pos.parse_uci(m).unwrap());
    }
    assert!(pos.parse_uci(&bestmove(&out)).is_ok());
    // MultiPV lines.
    e.handle("setoption name MultiPV value 3");
    let out = go(&mut e, &lines, "depth 4");
    for k in 1..=3 {
        assert!(out
            .iter()
            .any(|l| l.starts_with("info depth 4") && l.contains(&format!("multipv {k} "))));
    }
    // Mate scores and searchmoves.
    e.handle("setoption name MultiPV value 1");
    e.handle("position fen 7k/8/5K2/6Q1/8/8/8/8 w - - 0 1");
    let out = go(&mut e, &lines, "mate 2");
    assert!(out.iter().any(|l| l.contains("score mate")), "{out:?}");
    e.handle("position startpos");
    assert_eq!(
        bestmove(&go(&mut e, &lines, "depth 3 searchmoves h2h3")),
        "h2h3"
    );
    assert!(bestmove(&go(&mut e, &lines, "nodes 3000")).len() >= 4);
    assert!(bestmove(&go(&mut e, &lines, "movetime 50")).len() >= 4);
    assert!(
        bestmove(&go(
            &mut e,
            &lines,
            "wtime 300 btime 300 winc 0 binc 0 movestogo 5"
        ))
        .len()
            >= 4
    );
    // A mated side answers 0000.
    e.handle("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(bestmove(&go(&mut e, &lines, "depth 3")), "0000");
}

#[test]
fn stop_ponder_and_infinite() {
    let (mut e, lines) = session();
    e.handle("setoption name Ponder value true");
    e.handle("position startpos");
    e.handle("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    assert!(e.is_searching());
    assert!(!take(&lines).iter().any(|l| l.starts_with("bestmove")));
    e.handle("stop");
    assert!(bestmove(&take(&lines)).len() >= 4);
    // With the Ponder option on, bestmove names the expected reply. A fixed-depth search from a
    // fresh table is the same on every run, so this does not depend on how far a timed search got.
    let mut pos = Position::startpos();
    let out = go(&mut e, &lines, "depth 6");
    let words: Vec<&str> = out.last().unwrap().split_whitespace().collect();
    assert!(words.len() == 4 && words[2] == "ponder", "{words:?}");
    pos = pos.play(pos.parse_uci(words[1]).unwrap());
    assert!(pos.parse_uci(words[3]).is_ok(), "{words:?}");
    // Pondering: no bestmove before ponderhit, even past the clock's whole time; after ponderhit
    // the 500 ms clock applies and the search ends by itself (10 s allows for any load). Whether
    // that bestmove also names a ponder move depends on how deep the search got, so it is only
    // checked for legality.
    e.handle("go ponder wtime 500 btime 500");
    std::thread::sleep(Duration::from_millis(700));
    assert!(e.is_searching());
    assert!(!take(&lines).iter().any(|l| l.starts_with("bestmove")));
    e.handle("ponderhit");
    wait_at_most(&mut e, Duration::from_secs(10));
    let out = take(&lines);
    let words: Vec<&str> = out.last().unwrap().split_whitespace().collect();
    assert!(words.len() >= 2 && words[0] == "bestmove", "{words:?}");
    let pos = Position::startpos();
    let best = pos.parse_uci(words[1]).unwrap();
    if let ["bestmove", _, "ponder", reply] = words[..] {
        assert!(pos.play(best).parse_uci(reply).is_ok(), "{words:?}");
    }
    // quit stops a running search.
    e.handle("go infinite");
    assert!(!e.handle("quit"));
    assert!(!e.is_searching());
}

#[test]
fn bad_input_keeps_running() {
    let (mut e, lines) = session();
    for bad in [
        "position",
        "position fen",
        "position fen not/a/fen w - - 0 1",
        "position startpos moves e2e5",
        "position startpos moves e2e4 zz",
        "go depth",
        "go depth x",
        "go sideways",
        "frobnicate",
    ] {
        assert!(e.handle(bad));
        e.wait();
        let out = take(&lines);
        assert!(
            out.iter().any(|l| l.starts_with("info string error")),
            "{bad}: {out:?}"
        );
    }
    // After the illegal move the position holds the legal prefix: 1. e4 was played.
    e.handle("position startpos moves e2e4 e7e9");
    take(&lines);
    assert_eq!(e.position.side_to_move(), ply_chess::Color::Black);
    assert!(e.handle(""));
    e.handle("isready");
    assert_eq!(take(&lines), ["readyok"]);
}

#[test]
fn chess960_castling_notation() {
    let (mut e, lines) = session();
    e.handle("setoption name UCI_Chess960 value true");
    // In Chess960 mode castling is written king-takes-rook, both read (e1h1 in a position command
    // castles) and printed (bestmove e1h1); in standard mode it is e1g1.
    e.handle("position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 moves e1h1");
    assert!(take(&lines).is_empty());
    assert_eq!(
        e.position.king(ply_chess::Color::White),
        ply_chess::Square::G1
    );
    e.handle("position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let out = go(&mut e, &lines, "depth 2 searchmoves e1h1");
    assert_eq!(bestmove(&out), "e1h1");
    e.handle("setoption name UCI_Chess960 value false");
    let out = go(&mut e, &lines, "depth 2 searchmoves e1g1");
    assert_eq!(bestmove(&out), "e1g1");
}

#[test]
fn score_formatting() {
    use ply_chess_engine::MATE;
    assert_eq!(format_score(35), "cp 35");
    assert_eq!(format_score(MATE - 1), "mate 1");
    assert_eq!(format_score(MATE - 3), "mate 2");
    assert_eq!(format_score(-(MATE - 2)), "mate -1");
    assert_eq!(format_score(-(MATE - 4)), "mate -2");
}

#[test]
fn hash_that_cannot_be_allocated_is_refused_and_the_table_kept() {
    let (mut e, lines) = session();
    e.handle("setoption name Hash value 8");
    assert!(take(&lines).is_empty());
    // More than the machine's memory (the limit the session computes, below the advertised
    // 32 TiB on any real machine) is refused without asking the system, the limit named.
    let limit = UciSession::hash_limit_mib();
    if cfg!(any(target_os = "linux", target_os = "macos")) {
        assert!(limit < HASH_MAX, "the machine's memory is known: {limit}");
    }
    let above_memory = if limit < HASH_MAX {
        vec![limit + 1, HASH_MAX]
    } else {
        Vec::new()
    };
    for mb in above_memory {
        e.handle(&format!("setoption name Hash value {mb}"));
        assert_eq!(
            take(&lines),
            [format!(
                "info string error: {mb} MiB is more than this machine's memory ({limit} MiB); \
                 keeping 8 MiB"
            )]
        );
        assert_eq!(e.engine().hash_mib(), 8);
    }
    // Past the range: the message names the range.
    e.handle("setoption name Hash value 99999999999");
    let out = take(&lines);
    assert!(
        out.len() == 1 && out[0].contains("from 1 to 33554432"),
        "{out:?}"
    );
    assert_eq!(e.engine().hash_mib(), 8);
    e.handle("isready");
    assert_eq!(take(&lines), ["readyok"]);
    assert!(bestmove(&go(&mut e, &lines, "depth 3")).len() >= 4);
}

#[test]
fn out_of_range_options_name_the_range_and_keep_the_value() {
    let (mut e, lines) = session();
    e.handle("setoption name Threads value 3");
    e.handle("setoption name Move Overhead value 40");
    e.handle("setoption name SyzygyProbeDepth value 5");
    assert!(take(&lines).is_empty());
    for (bad, range) in [
        ("setoption name Threads value 0", "from 1 to 256"),
        ("setoption name Threads value 257", "from 1 to 256"),
        ("setoption name MultiPV value 0", "from 1 to 256"),
        ("setoption name Move Overhead value 5001", "from 0 to 5000"),
        ("setoption name Move Overhead value -1", "from 0 to 5000"),
        ("setoption name SyzygyProbeDepth value 101", "from 1 to 100"),
        ("setoption name Hash value 0", "from 1 to 33554432"),
    ] {
        e.handle(bad);
        let out = take(&lines);
        assert!(
            out.len() == 1 && out[0].starts_with("info string error: ") && out[0].contains(range),
            "{bad}: {out:?}"
        );
    }
    assert_eq!(e.engine().options().threads, 3);
    assert_eq!(e.engine().options().multipv, 1);
    assert_eq!(e.engine().options().move_overhead, 40);
    assert_eq!(e.engine().options().probe_depth, 5);
    assert_eq!(e.engine().hash_mib(), HASH_DEFAULT);
}

#[test]
fn a_line_that_is_not_utf8_is_reported_and_reading_goes_on() {
    let (mut e, lines) = session();
    e.serve(std::io::Cursor::new(
        b"\xff\xfe\nisready\r\nposition startpos moves e2e4 \xc3\nisready".to_vec(),
    ));
    assert_eq!(
        take(&lines),
        [
            "info string error: line is not UTF-8",
            "readyok",
            "info string error: line is not UTF-8",
            "readyok"
        ]
    );
}

/// Input that gives `text` and then fails.
struct FailsAfter(std::io::Cursor<Vec<u8>>);

impl std::io::Read for FailsAfter {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self.0.read(buf)? {
            0 => Err(std::io::Error::other("gone")),
            n => Ok(n),
        }
    }
}

#[test]
fn a_read_error_is_reported_once_and_ends_the_session_but_quit_does_not() {
    let (mut e, lines) = session();
    let input = FailsAfter(std::io::Cursor::new(b"isready\n".to_vec()));
    e.serve(std::io::BufReader::new(input));
    assert_eq!(
        take(&lines),
        ["readyok", "info string error: cannot read input: gone"]
    );
    // after `quit` nothing more is read, so the failure behind it is never met
    let input = FailsAfter(std::io::Cursor::new(b"isready\nquit\n".to_vec()));
    e.serve(std::io::BufReader::new(input));
    assert_eq!(take(&lines), ["readyok"]);
}

/// `bytes` in a file of `scratch` named after `name`.
fn network_file(scratch: &ply_testkit::Scratch, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = scratch.file(&format!("{name}.nnue"));
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn eval_file_loads_a_network_and_keeps_the_evaluation_on_errors() {
    let scratch = ply_testkit::Scratch::new("uci-evalfile");
    let (mut e, lines) = session();
    let net = ply_chess_engine::Network::random(32, 2, 3).unwrap();
    let good = network_file(&scratch, "good", &net.to_bytes());
    let mut damaged = net.to_bytes();
    damaged[100] ^= 1;
    let bad = network_file(&scratch, "bad", &damaged);
    // A fresh session plays with the built-in network.
    let embedded = ply_chess_engine::Network::embedded().unwrap();
    assert_eq!(e.engine().options().network.as_deref(), Some(&embedded));
    // A bad file: an error, nothing changes.
    assert!(e.handle(&format!("setoption name EvalFile value {}", bad.display())));
    let out = take(&lines);
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("info string error: EvalFile"), "{out:?}");
    assert!(out[0].contains("checksum"), "{out:?}");
    assert!(out[0].ends_with("keeping '<embedded>'"), "{out:?}");
    assert_eq!(e.engine().options().network.as_deref(), Some(&embedded));
    // The good file switches to the network.
    assert!(e.handle(&format!("setoption name EvalFile value {}", good.display())));
    assert_eq!(take(&lines), ["info string evaluation: network H=32 N=2"]);
    assert_eq!(e.engine().options().network.as_deref(), Some(&net));
    // A missing file keeps it.
    let value = "/nonexistent/net.nnue";
    assert!(e.handle(&format!("setoption name EvalFile value {value}")));
    let out = take(&lines);
    assert!(out[0].starts_with("info string error: EvalFile"), "{out:?}");
    assert!(
        out[0].ends_with(&format!("keeping '{}'", good.display())),
        "{out:?}"
    );
    assert_eq!(e.engine().options().network.as_deref(), Some(&net));
    // The network searches.
    let out = go(&mut e, &lines, "depth 4");
    assert!(!bestmove(&out).is_empty());
    // `<empty>` goes back to the hand-made evaluation.
    assert!(e.handle("setoption name EvalFile value <empty>"));
    assert_eq!(
        take(&lines),
        ["info string evaluation: hand-made evaluation"]
    );
    assert!(e.engine().options().network.is_none());
    // A bad file now keeps the hand-made evaluation, and `<embedded>` brings the network back.
    assert!(e.handle(&format!("setoption name EvalFile value {}", bad.display())));
    let out = take(&lines);
    assert!(
        out[0].ends_with("keeping the hand-made evaluation"),
        "{out:?}"
    );
    assert!(e.engine().options().network.is_none());
    assert!(e.handle("setoption name EvalFile value <embedded>"));
    assert_eq!(take(&lines), ["info string evaluation: network H=256 N=8"]);
    assert_eq!(e.engine().options().network.as_deref(), Some(&embedded));
    let _ = std::fs::remove_file(good);
    let _ = std::fs::remove_file(bad);
}

/// `UCI_LimitStrength`, `UCI_Elo`, `Skill Level` and `Skill Seed`: listed with their ranges,
/// handed to the engine (the Elo when the limit is on, else a level below 20), and checked: a
/// bad value is answered with `info string error` and the option keeps its value.
#[test]
fn strength_options_are_listed_checked_and_reach_the_engine() {
    let (mut e, lines) = session();
    e.handle("uci");
    let out = take(&lines);
    for line in [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1500 min 1350 max 3000",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name Skill Seed type spin default 0 min 0 max 2147483647",
    ] {
        assert!(out.iter().any(|l| l == line), "{line}: {out:?}");
    }
    assert_eq!(e.engine().strength(), None, "full strength by default");
    let strength = |e: &UciSession| e.engine().strength().map(|s| (s.level(), s.seed()));
    for (good, expected) in [
        ("setoption name Skill Seed value 7", None),
        ("setoption name Skill Level value 5", Some((5.0, 7))),
        // the default UCI_Elo, 1500, is on the scale's first segment
        (
            "setoption name UCI_LimitStrength value true",
            Some((7.14 * 90.0 / 420.0, 7)),
        ),
        ("setoption name UCI_Elo value 1975", Some((12.86, 7))),
        ("setoption name Skill Level value 0", Some((12.86, 7))),
        ("setoption name UCI_Elo value 3000", None),
        ("setoption name UCI_Elo value 1350", Some((0.0, 7))),
        (
            "setoption name UCI_LimitStrength value false",
            Some((0.0, 7)),
        ),
        (
            "setoption name Skill Seed value 2147483647",
            Some((0.0, 2147483647)),
        ),
        ("setoption name Skill Level value 20", None),
    ] {
        assert!(e.handle(good));
        assert!(take(&lines).is_empty(), "{good}");
        assert_eq!(strength(&e), expected, "{good}");
    }
    e.handle("setoption name Skill Level value 3");
    e.handle("setoption name Skill Seed value 11");
    for (bad, range) in [
        ("setoption name UCI_Elo value 1349", "from 1350 to 3000"),
        ("setoption name UCI_Elo value 3001", "from 1350 to 3000"),
        ("setoption name UCI_Elo value strong", "from 1350 to 3000"),
        ("setoption name Skill Level value 21", "from 0 to 20"),
        ("setoption name Skill Level value -1", "from 0 to 20"),
        (
            "setoption name Skill Seed value 2147483648",
            "from 0 to 2147483647",
        ),
        (
            "setoption name UCI_LimitStrength value maybe",
            "UCI_LimitStrength",
        ),
    ] {
        assert!(e.handle(bad));
        let out = take(&lines);
        assert!(
            out.len() == 1 && out[0].starts_with("info string error: ") && out[0].contains(range),
            "{bad}: {out:?}"
        );
        assert_eq!(strength(&e), Some((3.0, 11)), "{bad}");
    }
    // Skill Seed 0 takes one from the clock
    e.handle("setoption name Skill Seed value 0");
    let seed = e.engine().strength().unwrap().seed();
    assert_eq!(seed, e.skill.clock_seed);
}

/// The moves of a limited engine: legal, shown as one line (MultiPV 1) whatever the engine
/// searched, the same for the same `Skill Seed`, other ones for another seed and after
/// `ucinewgame`.
#[test]
fn a_fixed_skill_seed_repeats_its_moves_and_a_new_game_varies_them() {
    let fens = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1Q1PPP/R3KB1R w KQ - 0 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "3r1rk1/p4ppp/1pn1b3/2p1P3/2P2B2/2N2N1P/PP3PP1/R4RK1 b - - 0 18",
        "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
        "rnbqkb1r/pp1p1ppp/2p5/4P3/2B5/8/PPP1NnPP/RNBQK2R w KQkq - 0 6",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1bq1rk1/pp1nppbp/3p1np1/8/2PNP3/2N5/PP2BPPP/R1BQ1RK1 w - - 4 9",
    ];
    let play = |seed: u32, new_game: bool| -> Vec<String> {
        let (mut e, lines) = session();
        e.handle("setoption name Skill Level value 1");
        e.handle(&format!("setoption name Skill Seed value {seed}"));
        if new_game {
            e.handle("ucinewgame");
        }
        let mut moves = Vec::new();
        for fen in fens {
            e.handle(&format!("position fen {fen}"));
            let out = go(&mut e, &lines, "depth 6");
            let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
            assert!(!infos.is_empty());
            assert!(infos.iter().all(|l| l.contains(" multipv 1 ")), "{out:?}");
            let best = bestmove(&out);
            let last = infos.last().unwrap();
            assert!(last.contains(&format!(" pv {best}")), "{last} / {best}");
            let pos = Position::from_fen(fen).unwrap();
            assert!(pos.parse_uci(&best).is_ok(), "{best} in {fen}");
            moves.push(best);
        }
        moves
    };
    let first = play(5, false);
    assert_eq!(first, play(5, false));
    assert_ne!(first, play(6, false));
    assert_ne!(first, play(5, true));
}
