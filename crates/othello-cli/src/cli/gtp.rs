//! `ply-othello gtp`: the engine over the Go Text Protocol (Othello conventions) on stdin/stdout.

use super::engine::{EngineArgs, WeaknessArgs};
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
    #[command(flatten)]
    weakness: WeaknessArgs,
    /// Ponder: search on the opponent's time, after each `genmove`, until the next command (which stops it at once); the tables keep what it finds.
    #[arg(long)]
    ponder: bool,
}

/// Runs the GTP loop until `quit` or end of input.
pub fn run(a: &GtpArgs) -> Result<ExitCode, CliError> {
    let weakness = a.weakness.weakness()?;
    let book = a.weakness.session_book()?;
    let level = a.weakness.level().unwrap_or(a.engine.level());
    let mut session = GtpSession::new(a.engine.engine()?, level);
    session.set_weakness(weakness);
    session.set_book(book);
    session.set_ponder(a.ponder);
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
