//! `ply-othello gtp`: the engine over the Go Text Protocol (Othello conventions) on stdin/stdout.

use super::engine::EngineArgs;
use super::CliError;
use clap::Args;
use ply_othello_engine::protocol::GtpSession;
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Arguments of `gtp`.
#[derive(Args)]
pub struct GtpArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs the GTP loop until `quit` or end of input.
pub fn run(a: &GtpArgs) -> Result<ExitCode, CliError> {
    let mut session = GtpSession::new(a.engine.engine()?, a.engine.level());
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
