//! `ply-othello gtp`: the engine over the Go Text Protocol (Othello conventions) on stdin/stdout.

use super::CliError;
use clap::Args;
use ply_othello_engine::eval::load_weights;
use ply_othello_engine::protocol::GtpSession;
use ply_othello_engine::search::{Engine, EngineOptions, DEFAULT_LEVEL};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Engine options shared by the playing front-ends.
#[derive(Args)]
pub struct GtpArgs {
    /// Search level (0..60) used when the GUI sets no clock.
    #[arg(long, default_value_t = DEFAULT_LEVEL)]
    level: u8,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Evaluation weights to use instead of the built-in ones (ply or Edax `eval.dat` format).
    #[arg(long)]
    eval_file: Option<PathBuf>,
}

/// Runs the GTP loop until `quit` or end of input.
pub fn run(a: &GtpArgs) -> Result<ExitCode, CliError> {
    let weights = match &a.eval_file {
        Some(p) => Some(load_weights(p)?),
        None => None,
    };
    let engine = Engine::new(EngineOptions {
        hash_mib: a.hash.max(1),
        threads: a.threads.max(1),
        weights,
    });
    let mut session = GtpSession::new(engine, a.level.min(60));
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if let Some(reply) = session.handle(&line) {
            if out
                .write_all(reply.as_bytes())
                .and_then(|_| out.flush())
                .is_err()
            {
                break;
            }
        }
        if session.quit_requested() {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}
