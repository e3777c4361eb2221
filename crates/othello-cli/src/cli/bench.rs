//! `ply-othello bench [--level L] [--positions N]`: the fixed search benchmark (one thread,
//! deterministic node count), printed as `Bench: <nodes> nodes <nps> nps`.

use super::CliError;
use clap::builder::RangedU64ValueParser;
use clap::Args;
use ply_othello::Square;
use ply_othello_engine::bench;
use serde::Serialize;
use std::process::ExitCode;

/// Arguments of `bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Search level, 0..=60.
    #[arg(long, default_value_t = bench::BENCH_LEVEL,
          value_parser = clap::value_parser!(u8).range(0..=60))]
    level: u8,
    /// Number of benchmark positions, 1..=16.
    #[arg(long, default_value_t = bench::BENCH_GAMES.len(),
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=bench::BENCH_GAMES.len() as u64))]
    positions: usize,
    /// Search threads, 1..=1024 (the node count is deterministic only with 1).
    #[arg(long, default_value_t = 1,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=super::MAX_THREADS))]
    threads: usize,
    /// Print one JSON object instead of the text lines: `level`, `positions`, `threads`,
    /// `nodes`, `nps`, `time_ms` and the per-position results.
    #[arg(long)]
    json: bool,
    /// Use the portable kernel even on a CPU with AVX2 or AVX-512, to measure it: the node count
    /// is the same.
    #[arg(long)]
    portable: bool,
}

/// One benchmark position's result in the JSON output.
#[derive(Serialize)]
struct PositionJson {
    empties: u32,
    best: String,
    score: i32,
    nodes: u64,
}

/// The JSON output of `--json`.
#[derive(Serialize)]
struct BenchJson {
    level: u8,
    positions: usize,
    threads: usize,
    nodes: u64,
    nps: u64,
    time_ms: u64,
    results: Vec<PositionJson>,
}

/// Runs `bench`.
pub fn run(a: &BenchArgs) -> Result<ExitCode, CliError> {
    if a.portable {
        ply_othello::kernel::Cpu::restrict(ply_othello::kernel::Cpu::Portable);
    }
    let (lines, time) = bench::run(a.positions, a.level, a.threads);
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    let best = |b: Square| b.name().to_ascii_lowercase();
    if a.json {
        let json = BenchJson {
            level: a.level,
            positions: lines.len(),
            threads: a.threads,
            nodes,
            nps,
            time_ms: u64::try_from(time.as_millis()).unwrap_or(u64::MAX),
            results: lines
                .iter()
                .map(|l| PositionJson {
                    empties: l.empties,
                    best: best(l.best),
                    score: l.score,
                    nodes: l.nodes,
                })
                .collect(),
        };
        match serde_json::to_string(&json) {
            Ok(line) => println!("{line}"),
            Err(e) => return Err(CliError::Json(e.to_string())),
        }
        return Ok(ExitCode::SUCCESS);
    }
    for (i, l) in lines.iter().enumerate() {
        println!(
            "{:2} empties {:2} best {} score {:+3} nodes {}",
            i + 1,
            l.empties,
            best(l.best),
            l.score,
            l.nodes
        );
    }
    println!("Bench: {nodes} nodes {nps} nps");
    Ok(ExitCode::SUCCESS)
}
