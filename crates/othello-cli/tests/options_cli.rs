//! Every subcommand honours the engine options it accepts, and engine options it would ignore
//! are refused with an error: `--eval-file` changes what `solve` and `analyse` compute, options
//! given before a subcommand (where only the text mode reads them) are an error, and an option a
//! subcommand does not have is rejected.

mod common;

/// Runs `ply-othello args...`: (exit status, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = common::ply(args);
    (
        out.status.code().unwrap_or(-1),
        common::stdout(&out),
        common::stderr(&out),
    )
}

/// A scratch folder (removed when dropped) with an all-zero Edax `eval.dat` (every pattern weight
/// 0), and the file's path.
fn zero_weights() -> (ply_testkit::Scratch, String) {
    let dir = ply_testkit::Scratch::new("options");
    let path = dir.file("zero.dat");
    // "EDAX" "EVAL" as little-endian words, then a zero header and 61 plies of zero weights
    let mut bytes = b"XADELAVE".to_vec();
    bytes.resize(13_952_436, 0);
    std::fs::write(&path, bytes).expect("written");
    let s = path.to_str().expect("UTF-8 temp path").to_string();
    (dir, s)
}

#[test]
fn options_before_a_subcommand_are_refused() {
    for args in [
        &["--eval-file", "x.dat", "solve", "f.obf"][..],
        &["--level", "5", "bench"][..],
        &["--hash", "8", "analyse", "f5"][..],
        &["--threads", "2", "gtp"][..],
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("would only apply to the text mode"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn options_a_subcommand_lacks_are_errors() {
    for args in [
        &["bench", "--eval-file", "x.dat"][..],
        &["solve", "--level", "5", "f.obf"][..],
        &["perft", "3", "--threads", "2"][..],
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("unexpected argument"), "{args:?}: {err}");
    }
}

#[test]
fn eval_file_changes_solve_nodes_and_analyse_scores() {
    let Some(ffo) = ply_testkit::shared("othello/ffo/fforum-20-39.obf") else {
        return;
    };
    let (dir, zero) = zero_weights();
    let obf = dir.file("two.obf");
    let text = std::fs::read_to_string(&ffo).expect("FFO file");
    let two: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(2)
        .collect();
    std::fs::write(&obf, two.join("\n") + "\n").expect("written");
    let obf = obf.to_str().expect("UTF-8");
    let summary = |out: &str| -> serde_json::Value {
        let last = out.lines().last().expect("a summary line");
        serde_json::from_str(last).expect("JSON summary")
    };
    let (code, built_in, err) = run(&["solve", "--json", "--hash", "16", obf]);
    assert_eq!(code, 0, "{err}");
    let (code, zeroed, err) = run(&[
        "solve",
        "--json",
        "--hash-mib",
        "16",
        "--eval-file",
        &zero,
        obf,
    ]);
    assert_eq!(code, 0, "{err}");
    let (a, b) = (summary(&built_in), summary(&zeroed));
    assert_eq!(a["errors"], 0, "{built_in}");
    assert_eq!(b["errors"], 0, "{zeroed}");
    assert_ne!(
        a["nodes"], b["nodes"],
        "the weights order the solver's moves"
    );

    // a zero evaluation scores every midgame move 0; the built-in one does not
    let scores = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.contains('@'))
            .map(|l| l.split('|').nth(1).unwrap_or("").trim().to_string())
            .collect()
    };
    let (code, built_in, err) = run(&["analyse", "f5", "--level", "4", "--no-book"]);
    assert_eq!(code, 0, "{err}");
    let (code, zeroed, err) = run(&[
        "analyse",
        "f5",
        "--level",
        "4",
        "--no-book",
        "--eval-file",
        &zero,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(scores(&zeroed), ["+0", "+0", "+0"], "{zeroed}");
    assert!(scores(&built_in).iter().any(|s| s != "+0"), "{built_in}");
}

#[test]
fn bench_with_the_portable_kernel_searches_the_same_tree() {
    let nodes = |extra: &[&str]| {
        let mut args = vec!["bench", "--positions", "4", "--level", "8", "--json"];
        args.extend_from_slice(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        v["nodes"].as_u64().expect("nodes")
    };
    assert_eq!(nodes(&["--portable"]), nodes(&[]));
}

/// `solve --node-stats`: a default build refuses it and names the feature; a build with the
/// `node-stats` feature writes counts that add up to the solve's node total, and refuses
/// several threads (helper threads' nodes would be missing).
#[test]
fn node_stats_need_their_feature_and_add_up_to_the_nodes() {
    let dir = ply_testkit::Scratch::new("node-stats");
    let obf = dir.file("ffo40.obf");
    // FFO #40: 20 empties, A2 +38
    std::fs::write(
        &obf,
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;\n",
    )
    .expect("written");
    let csv = dir.file("nodes.csv");
    let (obf, csv) = (common::path(&obf), common::path(&csv));
    let (code, out, err) = run(&["solve", "--json", "--hash", "16", "--node-stats", csv, obf]);
    if !ply_othello_engine::node_stats::ENABLED {
        assert_ne!(code, 0, "{out}");
        assert!(err.contains("node-stats feature"), "{err}");
        return;
    }
    assert_eq!(code, 0, "{err}");
    let summary: serde_json::Value =
        serde_json::from_str(out.lines().last().expect("a summary line")).expect("JSON summary");
    let text = std::fs::read_to_string(csv).expect("the CSV file");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("position,depth,selectivity,empties,nodes")
    );
    let mut total = 0u64;
    let mut exact_stage = false;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 5, "{line}");
        assert_eq!(f[0], "1", "{line}");
        let empties: u32 = f[3].parse().expect("empties");
        assert!(empties <= 20, "{line}");
        exact_stage |= f[1] == "20" && f[2] == "100";
        total += f[4].parse::<u64>().expect("a count");
    }
    assert!(exact_stage, "{text}");
    assert_eq!(serde_json::Value::from(total), summary["nodes"], "{text}");
    let (code, _, err) = run(&["solve", "--threads", "2", "--node-stats", csv, obf]);
    assert_ne!(code, 0);
    assert!(err.contains("--threads 1"), "{err}");
}
