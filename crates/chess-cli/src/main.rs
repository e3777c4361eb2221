//! The `ply-chess` command-line program: a thin dispatcher, one subcommand per module.

mod perft;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// ply chess tools.
#[derive(Parser)]
#[command(name = "ply-chess", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move generator test and benchmark).
    Perft(perft::PerftArgs),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Perft(args) => perft::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
