//! `ply-othello gtp`: the engine over the Go Text Protocol (Othello conventions) on stdin/stdout.

use super::engine::EngineArgs;
use super::{serve, CliError};
use clap::Args;
use ply_cli_support::ByteLines;
use ply_othello_cli::protocol::GtpSession;
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
    let lines = ByteLines::new(std::io::stdin().lock());
    serve(lines, |line, out| {
        let reply = match line {
            Ok(line) => session.handle(&line),
            Err(bad) => Some(session.reject(&bad)),
        };
        if let Some(reply) = reply {
            // a reply ends with an empty line: write it without the last newline
            out(reply.strip_suffix('\n').unwrap_or(&reply));
        }
        !session.quit_requested()
    });
    Ok(ExitCode::SUCCESS)
}
