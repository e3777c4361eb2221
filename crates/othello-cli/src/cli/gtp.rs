//! `ply-othello gtp`: the engine over the Go Text Protocol (Othello conventions) on stdin/stdout.

use super::engine::EngineArgs;
use super::{serve, CliError};
use clap::Args;
use ply_othello_cli::protocol::GtpSession;
use std::io::BufRead;
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
    let lines = std::io::stdin().lock().lines().map_while(Result::ok);
    serve(lines, |line, out| {
        if let Some(reply) = session.handle(line) {
            // a reply ends with an empty line: write it without the last newline
            out(reply.strip_suffix('\n').unwrap_or(&reply));
        }
        !session.quit_requested()
    });
    Ok(ExitCode::SUCCESS)
}
