//! `ply-othello bench [--level L] [--positions N]`: the fixed search benchmark (one thread,
//! deterministic node count), printed as `Bench: <nodes> nodes <nps> nps`.

use super::CliError;
use clap::Args;
use ply_othello_engine::bench;
use std::process::ExitCode;

/// Arguments of `bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Search level.
    #[arg(long, default_value_t = bench::BENCH_LEVEL)]
    level: u8,
    /// Number of benchmark positions (at most 16).
    #[arg(long, default_value_t = bench::BENCH_GAMES.len())]
    positions: usize,
    /// Search threads (the node count is deterministic only with 1).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Runs `bench`.
pub fn run(a: &BenchArgs) -> Result<ExitCode, CliError> {
    let (lines, time) = bench::run(a.positions, a.level, a.threads);
    for (i, l) in lines.iter().enumerate() {
        println!(
            "{:2} empties {:2} best {} score {:+3} nodes {}",
            i + 1,
            l.empties,
            ply_othello::square_name(usize::from(l.best)).to_ascii_lowercase(),
            l.score,
            l.nodes
        );
    }
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    println!("Bench: {nodes} nodes {nps} nps");
    Ok(ExitCode::SUCCESS)
}
