//! `ply-othello perft N [--board B]`: leaf count of the game tree (forced passes use a ply,
//! finished games count as one leaf), with the CPU level chosen once by `ply-othello`.

use super::CliError;
use clap::Args;
use ply_othello::Position;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Depth in plies.
    depth: u32,
    /// Start position: 64 squares (`X`/`O`/`-`) then the side to move; default the initial one.
    #[arg(long, allow_hyphen_values = true)]
    board: Option<String>,
}

/// Runs `perft`.
pub fn run(a: &PerftArgs) -> Result<ExitCode, CliError> {
    let position = match &a.board {
        Some(b) => b.parse::<Position>()?,
        None => Position::start(),
    };
    let cpu = ply_othello::Cpu::detect();
    let t = Instant::now();
    let n = ply_othello::perft_with(position.board, a.depth, cpu).unwrap_or(0);
    let s = t.elapsed().as_secs_f64();
    println!(
        "perft {} = {n} ({s:.3} s, {:.1} M leaves/s, {})",
        a.depth,
        n as f64 / s.max(1e-9) / 1e6,
        cpu.name()
    );
    Ok(ExitCode::SUCCESS)
}
