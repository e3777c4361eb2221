//! `ply-chess perft`: leaf counts of the legal move tree, optionally split by root move and across
//! threads (root moves are handed out one by one to worker threads).

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
    /// Depth in plies (at most 64, which keeps the recursion well inside the stack).
    #[arg(long, value_parser = clap::value_parser!(u32).range(..=64))]
    depth: u32,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// End with one JSON line {"nodes":N,"seconds":S,"nps":R}.
    #[arg(long)]
    json: bool,
    /// Worker threads (root moves are split between them).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Runs the subcommand.
pub fn run(args: &PerftArgs) -> Result<(), FenError> {
    let pos = Position::from_fen(&args.fen)?;
    let chess960 = pos.is_chess960();
    let start = Instant::now();
    let (nodes, per_move) = if args.depth == 0 {
        (1, Vec::new())
    } else if args.threads <= 1 && !args.divide {
        (perft(&pos, args.depth), Vec::new())
    } else {
        let per_move = split(&pos, args.depth, args.threads.max(1));
        (per_move.iter().map(|&(_, n)| n).sum(), per_move)
    };
    let seconds = start.elapsed().as_secs_f64();
    if args.divide {
        for (m, n) in &per_move {
            println!("{}: {n}", m.uci(chess960));
        }
        println!();
    }
    let nps = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    println!("Nodes: {nodes}");
    println!("Time: {seconds:.3} s ({:.1} Mnps)", nps / 1e6);
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
