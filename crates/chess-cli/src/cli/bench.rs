//! `ply-chess bench`: the engine's fixed-depth benchmark; prints `Bench: <nodes> nodes <nps> nps`
//! (or, with `--json`, one JSON object with nodes, nps, time_ms and depth). The node count is
//! deterministic (one thread, fixed hash, fixed positions) for each evaluation: the built-in
//! network by default, the hand-made one or another network with `--eval-file` (the count
//! identifies search and evaluation together).

use ply_chess_cli::evalfile::{self, EvalFileError};
use ply_chess_engine::{bench_with, BENCH_DEPTH};

/// Arguments of `ply-chess bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Search depth for every position (1 to 64).
    #[arg(long, default_value_t = BENCH_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
    depth: i32,
    /// Print one JSON object `{"nodes":..,"nps":..,"time_ms":..,"depth":..}` instead.
    #[arg(long)]
    json: bool,
    /// The evaluation: a network file, `<embedded>` (the built-in network) or `<empty>` (the
    /// hand-made evaluation) [default: <embedded>]
    #[arg(long, value_name = "FILE")]
    eval_file: Option<String>,
    /// Use the portable code (magic slider lookups, the portable network loops) even on a CPU
    /// with BMI2 and AVX2, to measure it: the node count is the same.
    #[arg(long)]
    portable: bool,
}

/// What can stop `bench`.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The `--eval-file` gives no network.
    #[error("--eval-file {0}")]
    EvalFile(#[from] EvalFileError),
    /// The JSON report cannot be made (never, in practice).
    #[error("cannot write JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// The `--json` report.
#[derive(serde::Serialize)]
struct Report {
    nodes: u64,
    nps: u64,
    time_ms: u64,
    depth: i32,
}

/// Runs the subcommand.
///
/// # Errors
/// [`BenchError::EvalFile`] for an `--eval-file` that is not a network; [`BenchError::Json`]
/// when the report cannot be serialized (never, in practice).
pub fn run(args: &BenchArgs) -> Result<(), BenchError> {
    if args.portable {
        ply_chess::Pext::disable();
        ply_chess_engine::nnue::Kernel::force_portable();
    }
    let network = evalfile::load_or_default(args.eval_file.as_deref())?;
    if let Some(net) = network.as_deref() {
        eprintln!("evaluation: {}", evalfile::describe(Some(net)));
    }
    let r = bench_with(args.depth, network);
    eprintln!("time: {:.3} s", r.time.as_secs_f64());
    if args.json {
        let report = Report {
            nodes: r.nodes,
            nps: r.nps(),
            time_ms: u64::try_from(r.time.as_millis()).unwrap_or(u64::MAX),
            depth: args.depth,
        };
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!("Bench: {} nodes {} nps", r.nodes, r.nps());
    }
    Ok(())
}
