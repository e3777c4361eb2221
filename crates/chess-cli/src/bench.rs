//! `ply-chess bench`: the engine's fixed-depth benchmark; prints `Bench: <nodes> nodes <nps> nps`.
//! The node count is deterministic (one thread, fixed hash, fixed positions).

use ply_chess::FenError;
use ply_chess_engine::{bench, BENCH_DEPTH};

/// Arguments of `ply-chess bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(long, default_value_t = BENCH_DEPTH)]
    depth: i32,
}

/// Runs the subcommand.
pub fn run(args: &BenchArgs) -> Result<(), FenError> {
    let r = bench(args.depth.clamp(1, 64));
    eprintln!("time: {:.3} s", r.time.as_secs_f64());
    println!("Bench: {} nodes {} nps", r.nodes, r.nps());
    Ok(())
}
