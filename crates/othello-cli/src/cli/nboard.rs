//! `ply-othello nboard`: the engine over the NBoard protocol on stdin/stdout. A reader thread
//! takes the lines, so that a `ping` or `quit` arriving during a search stops it at once.

use super::engine::EngineArgs;
use super::{serve, CliError};
use clap::Args;
use ply_othello_cli::protocol::NboardSession;
use std::io::BufRead;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::mpsc;

/// Arguments of `nboard`.
#[derive(Args)]
pub struct NboardArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs the NBoard loop until `quit` or end of input.
pub fn run(a: &NboardArgs) -> Result<ExitCode, CliError> {
    let mut session = NboardSession::new(a.engine.engine()?, a.engine.level());
    let stop = session.stop_flag();
    let (tx, rx) = mpsc::channel::<String>();
    let reader_stop = stop.clone();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if NboardSession::interrupts(&line) {
                reader_stop.store(true, Ordering::Relaxed);
            }
            if tx.send(line).is_err() {
                break;
            }
        }
        // end of input ends the session like `quit`
        reader_stop.store(true, Ordering::Relaxed);
        let _ = tx.send("quit".to_string());
    });
    serve(rx, |line, out| {
        stop.store(false, Ordering::Relaxed);
        session.handle(line, out);
        !session.quit_requested()
    });
    Ok(ExitCode::SUCCESS)
}
