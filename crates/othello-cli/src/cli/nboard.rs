//! `ply-othello nboard`: the engine over the NBoard protocol on stdin/stdout. A reader thread
//! takes the lines, so that a `ping` or `quit` arriving during a search stops it at once.

use super::engine::{EngineArgs, WeaknessArgs};
use super::{serve, CliError};
use clap::Args;
use ply_cli_support::{ByteLines, NotUtf8};
use ply_othello_cli::protocol::NboardSession;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::mpsc;

/// Arguments of `nboard`.
#[derive(Args)]
pub struct NboardArgs {
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    weakness: WeaknessArgs,
    /// Ponder: search on the opponent's time, after each `move` and `set game`, until the next line (which stops it at once); the tables keep what it finds.
    #[arg(long)]
    ponder: bool,
}

/// Runs the NBoard loop until `quit` or end of input.
pub fn run(a: &NboardArgs) -> Result<ExitCode, CliError> {
    let weakness = a.weakness.weakness()?;
    let book = a.weakness.session_book()?;
    let level = a.weakness.level().unwrap_or(a.engine.level());
    let mut session = NboardSession::new(a.engine.engine()?, level);
    session.set_weakness(weakness);
    session.set_book(book);
    session.set_ponder(a.ponder);
    let stop = session.stop_flag();
    let (tx, rx) = mpsc::channel::<Result<String, NotUtf8>>();
    let reader_stop = stop.clone();
    std::thread::spawn(move || {
        for line in ByteLines::new(std::io::stdin().lock()) {
            if line.as_deref().is_ok_and(NboardSession::interrupts) {
                reader_stop.store(true, Ordering::Relaxed);
            }
            if tx.send(line).is_err() {
                break;
            }
        }
        // end of input ends the session like `quit`
        reader_stop.store(true, Ordering::Relaxed);
        let _ = tx.send(Ok("quit".to_string()));
    });
    serve(rx, |line, out| {
        stop.store(false, Ordering::Relaxed);
        match line {
            Ok(line) => session.handle(&line, out),
            Err(bad) => session.reject(&bad, out),
        }
        !session.quit_requested()
    });
    Ok(ExitCode::SUCCESS)
}
