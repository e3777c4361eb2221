//! `ply-chess bench`: the engine's fixed-depth benchmark; prints `Bench: <nodes> nodes <nps> nps`
//! (or, with `--json`, one JSON object with nodes, nps, time_ms and depth). The node count is
//! deterministic (one thread, fixed hash, fixed positions).

use ply_chess_engine::{bench, BENCH_DEPTH};

/// Arguments of `ply-chess bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Search depth for every position (1 to 64).
    #[arg(long, default_value_t = BENCH_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
    depth: i32,
    /// Print one JSON object `{"nodes":..,"nps":..,"time_ms":..,"depth":..}` instead.
    #[arg(long)]
    json: bool,
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
/// When the report cannot be serialized (never, in practice).
pub fn run(args: &BenchArgs) -> Result<(), serde_json::Error> {
    let r = bench(args.depth);
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
