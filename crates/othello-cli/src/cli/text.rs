//! The interactive text mode, `ply-othello` with no subcommand (Edax-style console).

use super::engine::{EngineArgs, WeaknessArgs};
use super::{serve, CliError};
use ply_cli_support::ByteLines;
use ply_othello_cli::protocol::TextSession;
use std::io::Write;
use std::process::ExitCode;

/// Reads commands until `quit` or end of input.
pub fn run(engine: &EngineArgs, weakness: &WeaknessArgs) -> Result<ExitCode, CliError> {
    let allowance = weakness.weakness()?;
    let book = weakness.session_book()?;
    let mut session = TextSession::new(engine.engine()?);
    session.set_level(weakness.level().unwrap_or(engine.level()));
    session.set_weakness(allowance);
    session.set_book(book);
    let lines = ByteLines::new(std::io::stdin().lock());
    // a closed stdout shows up in `serve`; nothing to do about it here
    let _ = writeln!(std::io::stdout().lock(), "{}", session.banner());
    serve(lines, |line, out| {
        match line {
            Ok(line) => session.handle(&line, out),
            Err(bad) => session.reject(&bad, out),
        }
        !session.quit_requested()
    });
    Ok(ExitCode::SUCCESS)
}
