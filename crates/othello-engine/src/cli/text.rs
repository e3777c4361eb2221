//! The interactive text mode, `ply-othello` with no subcommand (Edax-style console).

use super::engine::EngineArgs;
use super::CliError;
use ply_othello_engine::protocol::TextSession;
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Reads commands until `quit` or end of input.
pub fn run(engine: &EngineArgs) -> Result<ExitCode, CliError> {
    let mut session = TextSession::new(engine.engine()?);
    session.set_level(engine.level());
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", session.banner()).and_then(|_| out.flush());
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let mut failed = false;
        session.handle(&line, &mut |reply| {
            failed |= writeln!(out, "{reply}").and_then(|_| out.flush()).is_err();
        });
        if failed || session.quit_requested() {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}
