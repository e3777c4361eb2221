//! `ply-chess perft`: leaf counts of the legal move tree, optionally split by root move and across
//! threads (root moves are handed out one by one to worker threads).
//!
//! Output (shared with `ply-othello perft`): with `--divide` one `<move>: <count>` line per root
//! move, then `Nodes: <total>`; the time goes to standard error; `--json` adds a last line
//! `{"nodes":N,"seconds":S,"nps":R}`. The depth is given as `--depth N` or as `perft N`.

use ply_chess::{perft, FenError, Move, Position, STARTPOS};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Arguments of `ply-chess perft`.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// Position in FEN (4 to 6 fields; X-FEN or Shredder-FEN castling for Chess960).
    #[arg(long, default_value = STARTPOS)]
    fen: String,
    /// Depth in plies, 0 to 64 (64 keeps the recursion well inside the stack).
    #[arg(long = "depth", value_name = "N", value_parser = clap::value_parser!(u32).range(..=64))]
    depth_option: Option<u32>,
    /// The depth given without `--depth` (`perft 5`).
    #[arg(value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(..=64),
          conflicts_with = "depth_option", required_unless_present = "depth_option")]
    depth: Option<u32>,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// End with one JSON line {"nodes":N,"seconds":S,"nps":R}.
    #[arg(long)]
    json: bool,
    /// Worker threads, 1 to 256 (root moves are split between them).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
}

/// Runs the subcommand.
pub fn run(args: &PerftArgs) -> Result<(), FenError> {
    let pos = Position::from_fen(&args.fen)?;
    let chess960 = pos.is_chess960();
    // clap requires exactly one of the two
    let depth = args.depth.or(args.depth_option).unwrap_or(0);
    let threads = usize::from(args.threads.max(1));
    let start = Instant::now();
    let (nodes, per_move) = if depth == 0 {
        (1, Vec::new())
    } else if threads <= 1 && !args.divide {
        (perft(&pos, depth), Vec::new())
    } else {
        let per_move = split(&pos, depth, threads);
        (per_move.iter().map(|&(_, n)| n).sum(), per_move)
    };
    let seconds = start.elapsed().as_secs_f64();
    if args.divide {
        for (m, n) in &per_move {
            println!("{}: {n}", m.uci(chess960));
        }
    }
    let nps = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    println!("Nodes: {nodes}");
    eprintln!("Time: {seconds:.3} s ({:.1} Mnps)", nps / 1e6);
    if args.json {
        println!("{{\"nodes\":{nodes},\"seconds\":{seconds:.6},\"nps\":{nps:.0}}}");
    }
    Ok(())
}

/// Perft below each root move, computed by `threads` workers; results in move-generation order.
fn split(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![0u64; moves.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(moves.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&m) = moves.get(i) else { break };
                let n = perft(&pos.play(m), depth - 1);
                if let Ok(mut r) = results.lock() {
                    r[i] = n;
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_default();
    moves.iter().copied().zip(results).collect()
}
