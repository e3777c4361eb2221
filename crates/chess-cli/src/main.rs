//! The `ply-chess` command-line program: a thin dispatcher, one subcommand per module.

mod bench;
mod datagen;
mod eval;
mod perft;
mod probe;
mod tune;

use ply_chess_cli::uci;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// ply chess tools.
#[derive(Parser)]
#[command(name = "ply-chess", version, about)]
struct Cli {
    /// Without a subcommand the program speaks UCI on stdin/stdout.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move generator test and benchmark).
    Perft(perft::PerftArgs),
    /// Print the static evaluation of a position term by term.
    Eval(eval::EvalArgs),
    /// Search fixed positions to a fixed depth; prints `Bench: <nodes> nodes <nps> nps`.
    Bench(bench::BenchArgs),
    /// Probe Syzygy tables: one `FEN;wdl;dtz` (or `FEN;error;<message>`) line per position.
    Probe(probe::ProbeArgs),
    /// Self-play training positions for the evaluation (`FEN;score;result;game` lines).
    Datagen(datagen::DatagenArgs),
    /// Tune the evaluation weights on datagen files (Texel's method, Adam); writes Rust source.
    Tune(tune::TuneArgs),
}

fn main() -> ExitCode {
    // A closed standard output (`... | head`) ends the program quietly, as it does any Unix tool,
    // instead of making the next `println!` panic.
    // SAFETY: first thing in `main`, before any thread exists; SIG_DFL is a valid handler.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let result = match Cli::parse().command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Eval(args)) => eval::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Probe(args)) => return probe::run(&args),
        Some(Command::Datagen(args)) => {
            return match datagen::run(&args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Tune(args)) => {
            return match tune::run(&args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        None => {
            uci::run(std::io::stdin().lock());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
