//! Perft against the four reference suites in `../shared/chess/perft/` (data nobody here wrote).
//! The default run checks every position at every depth whose node count is at most 10^7;
//! `cargo test -p ply-chess --profile ci -- --ignored` runs the remaining deeper entries.

use ply_chess::{perft, Position};
use std::path::PathBuf;

/// Largest node count checked in the default (fast) run.
const FAST_LIMIT: u64 = 10_000_000;

/// `(name, fen, depth, nodes)` for every entry of every suite, or `None` when `../shared` is absent.
fn suite_entries() -> Option<Vec<(String, String, u32, u64)>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/chess/perft");
    if !dir.is_dir() {
        eprintln!("skipping: {} not found", dir.display());
        return None;
    }
    let mut out = Vec::new();
    for file in ["perftsuite.epd", "cpw_positions.epd"] {
        let text = std::fs::read_to_string(dir.join(file)).expect("readable suite");
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let mut parts = line.split(';');
            let fen = parts.next().expect("fen").trim().to_string();
            for p in parts {
                let mut it = p.split_whitespace();
                let d: u32 = it.next().expect("depth")[1..]
                    .parse()
                    .expect("depth number");
                let n: u64 = it.next().expect("count").parse().expect("count number");
                out.push((format!("{file}:{}", i + 1), fen.clone(), d, n));
            }
        }
    }
    for file in ["shakmaty_tricky.perft", "shakmaty_chess960.perft"] {
        let text = std::fs::read_to_string(dir.join(file)).expect("readable suite");
        let (mut id, mut fen) = (String::new(), String::new());
        for line in text.lines() {
            if let Some(x) = line.strip_prefix("id ") {
                id = format!("{file}:{}", x.trim());
            } else if let Some(x) = line.strip_prefix("epd ") {
                fen = x.trim().to_string();
            } else if let Some(x) = line.strip_prefix("perft ") {
                let mut it = x.split_whitespace();
                let d: u32 = it.next().expect("depth").parse().expect("depth number");
                let n: u64 = it.next().expect("count").parse().expect("count number");
                out.push((id.clone(), fen.clone(), d, n));
            }
        }
    }
    Some(out)
}

/// Checks all entries with `select(nodes)` true, then reports how many it checked.
fn run(select: impl Fn(u64) -> bool) {
    let Some(entries) = suite_entries() else {
        return;
    };
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, fen, depth, nodes) in entries {
        if !select(nodes) {
            continue;
        }
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{name}: {fen}: {e}"));
        let got = perft(&pos, depth);
        if got != nodes {
            failures.push(format!(
                "{name} depth {depth}: expected {nodes}, got {got} ({fen})"
            ));
        }
        checked += 1;
    }
    eprintln!("checked {checked} perft entries");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 0);
}

#[test]
fn perft_suites_fast() {
    run(|n| n <= FAST_LIMIT);
}

#[test]
#[ignore = "deep perft: billions of nodes, run with --ignored"]
fn perft_suites_deep() {
    run(|n| n > FAST_LIMIT);
}
