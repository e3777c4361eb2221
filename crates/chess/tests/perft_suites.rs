//! Perft against the four reference suites in `../shared/chess/perft/` (data nobody here wrote).
//! The default run checks every position at every depth whose node count is at most 10^7;
//! `cargo test -p ply-chess --profile ci -- --ignored` runs the remaining deeper entries
//! (split in two tests: everything but Chess960 depth 6, and Chess960 depth 6).

use ply_chess::{perft, Position};

/// Largest node count checked in the default (fast) run.
const FAST_LIMIT: u64 = 10_000_000;

/// `(file, positions, entries)` of each suite: a truncated or damaged file is a failure, not a
/// smaller check.
const SUITES: [(&str, usize, usize); 4] = [
    ("perftsuite.epd", 126, 755),
    ("cpw_positions.epd", 7, 44),
    ("shakmaty_tricky.perft", 26, 88),
    ("shakmaty_chess960.perft", 960, 5760),
];

/// Asserts that `file` gave the positions and entries [`SUITES`] says it has.
fn assert_complete(file: &str, entries: &[(String, String, u32, u64)]) {
    let (_, positions, count) = SUITES
        .iter()
        .find(|(f, _, _)| *f == file)
        .expect("a known suite");
    let mine: Vec<_> = entries
        .iter()
        .filter(|(name, ..)| name.starts_with(&format!("{file}:")))
        .collect();
    let fens: std::collections::HashSet<_> = mine.iter().map(|(name, ..)| name).collect();
    assert_eq!(
        (fens.len(), mine.len()),
        (*positions, *count),
        "{file}: (positions, entries) read against the suite's"
    );
}

/// `(name, fen, depth, nodes)` for every entry of every suite, or `None` after a visible skip (a
/// failure under `PLY_STRICT=1`) when `shared/chess/perft` is absent.
fn suite_entries() -> Option<Vec<(String, String, u32, u64)>> {
    let dir = ply_testkit::shared("chess/perft")?;
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
        assert_complete(file, &out);
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
        assert_complete(file, &out);
    }
    Some(out)
}

/// Checks all entries for which `select(name, depth, nodes)` is true, spread over the available
/// cores, then reports how many it checked.
fn run(select: impl Fn(&str, u32, u64) -> bool + Sync) {
    let Some(entries) = suite_entries() else {
        return;
    };
    let entries: Vec<_> = entries
        .into_iter()
        .filter(|(name, _, d, n)| select(name, *d, *n))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((name, fen, depth, nodes)) = entries.get(i) else {
                    break;
                };
                let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{name}: {fen}: {e}"));
                let got = perft(&pos, *depth);
                if got != *nodes {
                    let msg = format!("{name} depth {depth}: expected {nodes}, got {got} ({fen})");
                    failures.lock().expect("no poisoned lock").push(msg);
                }
            });
        }
    });
    let failures = failures.into_inner().expect("no poisoned lock");
    eprintln!("checked {} perft entries", entries.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(!entries.is_empty());
}

fn is_960_depth_6(name: &str, depth: u32) -> bool {
    name.starts_with("shakmaty_chess960") && depth >= 6
}

#[test]
fn perft_suites_fast() {
    run(|_, _, n| n <= FAST_LIMIT);
}

/// About 43 billion nodes (every deeper entry except Chess960 depth 6).
#[test]
#[ignore = "slow job (.ci/run-slow): deep perft, about 43e9 nodes"]
fn perft_suites_deep() {
    run(|name, d, n| n > FAST_LIMIT && !is_960_depth_6(name, d));
}

/// About 507 billion nodes: the 960 Chess960 positions at depth 6.
#[test]
#[ignore = "slow job (.ci/run-slow): Chess960 depth 6, about 507e9 nodes"]
fn perft_chess960_depth_6() {
    run(|name, d, n| n > FAST_LIMIT && is_960_depth_6(name, d));
}
