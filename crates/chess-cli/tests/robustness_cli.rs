//! The `ply-chess` binary as a user meets it (issue 33): bad input never ends the UCI session,
//! an unallocatable hash is refused, exit statuses follow one convention (0 success, 1 runtime
//! error, 2 usage error, messages as `ply-chess: ...`), out-of-range values are refused with
//! their range, output paths are checked before work, and the `--json` forms parse.

use std::io::Write;
use std::process::{Command, Output, Stdio};

mod common;
use common::{ply, text};

/// Runs the UCI session on `input` (standard input closed after it) and returns its stdout.
fn uci_session(input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply-chess"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ply-chess");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write the session");
    child.wait_with_output().expect("session ends")
}

/// A folder holding one empty file named like a table: `Tablebase::open` finds a table (so the
/// path is accepted) that cannot be probed, without any real table data.
/// The folder is removed when the returned value is dropped.
fn fake_tables() -> ply_testkit::Scratch {
    let scratch = ply_testkit::Scratch::new("robust-fake-tables");
    std::fs::write(scratch.file("KQvK.rtbw"), b"").unwrap();
    scratch
}

#[test]
fn uci_reports_a_non_utf8_line_and_keeps_reading() {
    let out = uci_session(b"\xff\xfe\nisready\nquit\n");
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        ["info string error: line is not UTF-8", "readyok"],
        "{stdout}"
    );
}

#[test]
fn uci_refuses_a_hash_it_cannot_allocate_and_keeps_answering() {
    let out = uci_session(
        b"setoption name Hash value 33554432\nisready\n\
          setoption name Hash value 0\nisready\ngo depth 2\nisready\n",
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // the engine refuses more than the machine's memory before asking the system, and says
    // what that limit is (any machine has less than the option's 32 TiB maximum)
    let refusal = stdout
        .lines()
        .find_map(|l| {
            l.strip_prefix("info string error: 33554432 MiB is more than this machine's memory (")
        })
        .unwrap_or_else(|| panic!("no refusal naming the limit: {stdout}"));
    let (limit, rest) = refusal.split_once(" MiB)").expect("the limit in MiB");
    let limit: usize = limit.parse().expect("a number of MiB");
    assert!((1..33_554_432).contains(&limit), "{refusal}");
    assert_eq!(rest, "; keeping 16 MiB", "{refusal}");
    assert!(
        stdout.contains("expected a whole number from 1 to 33554432"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("readyok").count(), 3, "{stdout}");
    assert!(stdout.contains("bestmove "), "{stdout}");
}

#[test]
fn probe_failures_exit_1_with_the_program_prefix() {
    let scratch = ply_testkit::Scratch::new("robust-probe");
    // tables that are not there
    let out = ply(&[
        "probe",
        "--syzygy",
        "/nonexistent-ply-dir",
        "--fen",
        "8/8/8/8/8/8/8/K1k5 w - - 0 1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("ply-chess: no Syzygy table") && stderr.contains("/nonexistent-ply-dir"),
        "{stderr}"
    );
    // a FEN that is not one: its error line, then exit 1
    let fake = fake_tables();
    let tables = fake.path().to_str().unwrap();
    let out = ply(&["probe", "--syzygy", tables, "--fen", "garbage"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).starts_with("garbage;error;invalid FEN"));
    assert!(text(&out.stderr).starts_with("ply-chess: 1 of 1 positions could not be probed"));
    // a batch file with bad lines: every line answered (kings alone need no table), exit 1
    let file = scratch.file("positions.txt");
    std::fs::write(&file, b"garbage;1\n\n8/8/8/8/8/8/8/K1k5 w - - 0 1\n\xff\n").unwrap();
    let out = ply(&[
        "probe",
        "--syzygy",
        tables,
        "--file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        lines[0].starts_with("garbage;error;invalid FEN"),
        "{stdout}"
    );
    assert_eq!(lines[1], "8/8/8/8/8/8/8/K1k5 w - - 0 1;0;0");
    assert!(lines[2].contains(";error;"), "{stdout}");
    assert!(text(&out.stderr).starts_with("ply-chess: 2 of 3 positions"));
}

#[test]
fn probe_json_lines_parse() {
    let tables = fake_tables();
    let out = ply(&[
        "probe",
        "--json",
        "--syzygy",
        tables.path().to_str().unwrap(),
        "--fen",
        "not a fen",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["fen"], "not a fen");
    assert!(v["error"].as_str().unwrap().starts_with("invalid FEN"));
    assert!(v.get("wdl").is_none());

    // with real tables: wdl and dtz as numbers
    let Some(real) = ply_testkit::shared("syzygy/tables") else {
        return;
    };
    let fen = "8/8/8/8/8/8/Q7/K1k5 w - - 0 1";
    let out = ply(&[
        "probe",
        "--json",
        "--syzygy",
        real.to_str().unwrap(),
        "--fen",
        fen,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["fen"], fen);
    assert_eq!(v["wdl"], 2);
    assert!(v["dtz"].as_i64().unwrap() > 0);
    assert!(v.get("error").is_none());
}

#[test]
fn usage_errors_exit_2_and_name_the_range() {
    for (args, says) in [
        (&["bench", "--depth", "1000"][..], "1..=64"),
        (&["bench", "--depth", "0"][..], "1..=64"),
        (&["perft", "--depth", "65"][..], "0..=64"),
        (&["perft", "3", "--threads", "0"][..], "1..=256"),
        (&["perft", "3", "--depth", "3"][..], "cannot be used with"),
        (&["perft"][..], "required"),
        (
            &["datagen", "--games", "2", "--nodes", "0", "--out", "x"][..],
            "1..",
        ),
        (&["datagen", "--games", "0", "--out", "x"][..], "1.."),
        (
            &[
                "datagen",
                "--games",
                "1",
                "--random-plies",
                "201",
                "--out",
                "x",
            ][..],
            "0..=200",
        ),
        (
            &["datagen", "--games", "1", "--per-game", "0", "--out", "x"][..],
            "1..=1000000",
        ),
        (
            &["tune", "--epochs", "0", "--data", "d", "--out", "w.rs"][..],
            "1..",
        ),
        (
            &["tune", "--threads", "0", "--data", "d", "--out", "w.rs"][..],
            "1..=1024",
        ),
        (
            &["tune", "--lambda", "2", "--data", "d", "--out", "w.rs"][..],
            "within 0..=1",
        ),
        (
            &["tune", "--lr", "0", "--data", "d", "--out", "w.rs"][..],
            "number > 0",
        ),
        (
            &[
                "tune",
                "--holdout-every",
                "1",
                "--data",
                "d",
                "--out",
                "w.rs",
            ][..],
            "hold out every game",
        ),
        (&["eval", "--no-such-option"][..], "unexpected argument"),
    ] {
        let out = ply(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("ply-chess: ") && stderr.contains(says),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn runtime_errors_exit_1_with_the_program_prefix() {
    for args in [
        &["eval", "--fen", "garbage"][..],
        &["perft", "1", "--fen", "garbage"][..],
        &[
            "datagen",
            "--games",
            "1",
            "--book",
            "/nonexistent/book.epd",
            "--out",
            "/tmp/x",
        ][..],
    ] {
        let out = ply(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.starts_with("ply-chess: "), "{args:?}: {stderr}");
    }
}

#[test]
fn tune_checks_its_output_path_before_reading_data() {
    let scratch = ply_testkit::Scratch::new("robust-tune");
    // The data file does not exist either: the error must be about --out, found first.
    let start = std::time::Instant::now();
    let out = ply(&[
        "tune",
        "--data",
        "/nonexistent-ply-dir/data.txt",
        "--out",
        "/nonexistent-ply-dir/w.rs",
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("ply-chess: cannot write /nonexistent-ply-dir/w.rs"),
        "{stderr}"
    );
    assert!(start.elapsed().as_secs() < 30);
    // a folder is not a file to write
    let dir = scratch.path();
    let out = ply(&[
        "tune",
        "--data",
        "/nonexistent-ply-dir/data.txt",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot write"));
}

#[test]
fn version_on_every_subcommand() {
    let top = ply(&["--version"]);
    assert!(top.status.success());
    let version = text(&top.stdout);
    assert!(
        version
            .trim_end()
            .strip_prefix("ply-chess ")
            .is_some_and(common::is_version),
        "{version}"
    );
    assert_eq!(
        version.trim_end(),
        format!("ply-chess {}", ply_chess_cli::VERSION)
    );
    for sub in ["perft", "eval", "bench", "probe", "datagen", "tune"] {
        let out = ply(&[sub, "--version"]);
        assert!(out.status.success(), "{sub}: {}", text(&out.stderr));
        // clap names the subcommand: `ply-chess-perft 0.1.0+1a2b3c4`
        let got = text(&out.stdout);
        assert!(
            got.starts_with(&format!("ply-chess-{sub} ")) && got.ends_with(&version[10..]),
            "{sub}: {got}"
        );
    }
}

#[test]
fn perft_takes_the_depth_either_way_and_ends_with_the_total() {
    for args in [&["perft", "3"][..], &["perft", "--depth", "3"][..]] {
        let out = ply(args);
        assert!(out.status.success());
        assert_eq!(text(&out.stdout), "Nodes: 8902\n", "{args:?}");
    }
    let out = ply(&["perft", "2", "--divide"]);
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 21, "{stdout}");
    assert_eq!(lines[20], "Nodes: 400");
    for l in &lines[..20] {
        let (mv, n) = l.split_once(": ").expect("<move>: <count>");
        assert_eq!((mv.len(), n), (4, "20"), "{l}");
    }
}

#[test]
fn bench_json_parses() {
    let out = ply(&["bench", "--depth", "2", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["depth"], 2);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["nps"].is_u64() && v["time_ms"].is_u64());
    // the same node count as the text form (the bench is deterministic)
    let plain = text(&ply(&["bench", "--depth", "2"]).stdout);
    assert!(
        plain.starts_with(&format!("Bench: {} nodes ", v["nodes"])),
        "{plain}"
    );
}

#[test]
fn eval_json_parses_and_adds_up() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let out = ply(&["eval", "--json", "--fen", fen]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["fen"], fen);
    let terms = v["terms"].as_array().unwrap();
    assert_eq!(terms.len(), 10);
    let (mut mg, mut eg) = (0, 0);
    for t in terms {
        assert!(t["name"].is_string());
        for side in ["white", "black"] {
            assert!(t[side]["mg"].is_i64() && t[side]["eg"].is_i64() && t[side]["total"].is_i64());
        }
        mg += t["mg"].as_i64().unwrap();
        eg += t["eg"].as_i64().unwrap();
    }
    assert_eq!(
        (mg, eg),
        (
            v["total"]["mg"].as_i64().unwrap(),
            v["total"]["eg"].as_i64().unwrap()
        )
    );
    assert_eq!(v["white"], v["side_to_move"]); // White to move
    let plain = text(&ply(&["eval", "--fen", fen]).stdout);
    assert!(
        plain.contains(&format!("Final evaluation: {} cp", v["white"])),
        "{plain}"
    );
}

#[test]
fn completions_for_every_shell_name_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = ply(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", text(&out.stderr));
        let script = text(&out.stdout);
        assert!(!script.trim().is_empty(), "{shell}: empty script");
        assert!(
            script.contains("perft") && script.contains("train-nnue"),
            "{shell}: {script}"
        );
    }
    let out = ply(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}
