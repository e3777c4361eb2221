//! `ply-othello perft N [--board B] [--divide] [--json]`: leaf count of the game tree (forced
//! passes use a ply, finished games count as one leaf), with the CPU level chosen once by
//! `ply-othello`.
//!
//! Output (shared with `ply-chess perft`): with `--divide` one `<move>: <count>` line per root
//! move (`ps` for a forced pass), then `Nodes: <total>`; the time goes to standard error;
//! `--json` adds a last line `{"depth":D,"nodes":N,"seconds":S,"nps":R}` (with `"divide"`, the
//! root moves' counts, when asked). The depth is given as `perft N` or `--depth N`.

use super::CliError;
use clap::Args;
use ply_othello::{Board, Cpu, Position, Square};
use serde::Serialize;
use std::process::ExitCode;
use std::time::Instant;

/// The deepest perft accepted: depth 20 already counts about 10^15 leaves (weeks of work);
/// anything deeper would never end.
pub const MAX_DEPTH: u32 = 20;

/// Arguments of `perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Depth in plies, 0 to 20.
    #[arg(value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(..=i64::from(MAX_DEPTH)),
          conflicts_with = "depth_option", required_unless_present = "depth_option")]
    depth: Option<u32>,
    /// Depth in plies, 0 to 20 (the same as the positional DEPTH, as `ply-chess perft` takes it).
    #[arg(long = "depth", value_name = "N",
          value_parser = clap::value_parser!(u32).range(..=i64::from(MAX_DEPTH)))]
    depth_option: Option<u32>,
    /// Start position: 64 squares (`X`/`O`/`-`) then the side to move; default the initial one.
    #[arg(long, allow_hyphen_values = true)]
    board: Option<String>,
    /// Print the count below each root move (`<move>: <count>`).
    #[arg(long)]
    divide: bool,
    /// End with one JSON line: depth, nodes, seconds, nps (and the root moves' counts with
    /// `--divide`).
    #[arg(long)]
    json: bool,
}

/// One root move's count in the JSON line.
#[derive(Serialize)]
struct MoveCount {
    /// The move (`f5`, or `ps` for a pass).
    #[serde(rename = "move")]
    mv: String,
    /// Leaves below it.
    nodes: u64,
}

/// The JSON line of `--json`.
#[derive(Serialize)]
struct Summary {
    depth: u32,
    nodes: u64,
    seconds: f64,
    nps: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<MoveCount>>,
}

/// Leaves below each root move of `board` at `depth >= 1`, in square order; a forced pass is
/// the one move `ps` (a finished game has no move at all).
fn divide(board: Board, depth: u32, cpu: Cpu) -> Vec<(String, u64)> {
    let count = |b: Board| ply_othello::perft_with(b, depth - 1, cpu).unwrap_or(0);
    let mut moves = board.moves();
    if moves == 0 {
        if board.is_game_over() {
            return Vec::new();
        }
        let mut child = board;
        child.pass();
        return vec![("ps".to_string(), count(child))];
    }
    let mut out = Vec::new();
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let mut child = board;
        child.play(sq);
        let name = Square::new(sq).expect("a legal move is a square").name();
        out.push((name.to_ascii_lowercase(), count(child)));
    }
    out
}

/// Runs `perft`.
pub fn run(a: &PerftArgs) -> Result<ExitCode, CliError> {
    let position = match &a.board {
        Some(b) => b.parse::<Position>()?,
        None => Position::start(),
    };
    // clap requires exactly one of the two
    let depth = a.depth.or(a.depth_option).unwrap_or(0);
    let board = position.board;
    let cpu = Cpu::detect();
    let t = Instant::now();
    let per_move = (a.divide && depth > 0).then(|| divide(board, depth, cpu));
    let nodes = match &per_move {
        // a finished game is one leaf at every depth
        Some(list) if !list.is_empty() => list.iter().map(|(_, n)| n).sum(),
        _ => ply_othello::perft_with(board, depth, cpu).unwrap_or(0),
    };
    let seconds = t.elapsed().as_secs_f64();
    let nps = nodes as f64 / seconds.max(1e-9);
    for (mv, n) in per_move.iter().flatten() {
        println!("{mv}: {n}");
    }
    println!("Nodes: {nodes}");
    eprintln!(
        "Time: {seconds:.3} s ({:.1} M leaves/s, {})",
        nps / 1e6,
        cpu.name()
    );
    if a.json {
        let summary = Summary {
            depth,
            nodes,
            seconds: (seconds * 1e6).round() / 1e6,
            nps: nps.round() as u64,
            divide: per_move.map(|list| {
                list.into_iter()
                    .map(|(mv, nodes)| MoveCount { mv, nodes })
                    .collect()
            }),
        };
        match serde_json::to_string(&summary) {
            Ok(line) => println!("{line}"),
            Err(e) => eprintln!("ply-othello: cannot write JSON: {e}"),
        }
    }
    Ok(ExitCode::SUCCESS)
}
