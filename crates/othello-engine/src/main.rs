//! The `ply-othello` command-line program: a thin front-end, one file per subcommand in `cli/`.

mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Othello engine of the ply workspace.
#[derive(Parser)]
#[command(name = "ply-othello", version, about)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve every position of an OBF file exactly and check the file's scores.
    Solve(cli::solve::SolveArgs),
    /// Count the leaves of the game tree to a depth.
    Perft(cli::perft::PerftArgs),
    /// Fit the pattern evaluation on WTHOR games, or measure a weight file.
    Train(Box<cli::train::TrainArgs>),
    /// Fixed search benchmark: prints `Bench: <nodes> nodes <nps> nps`.
    Bench(cli::bench::BenchArgs),
    /// Play over the Go Text Protocol (Othello conventions: `play black f5`, `genmove white`).
    Gtp(cli::gtp::GtpArgs),
    /// Play a match against an external GTP engine (WTHOR openings, both colours, clocks).
    Match(Box<cli::r#match::MatchArgs>),
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match args.command {
        Command::Solve(a) => cli::solve::run(&a),
        Command::Perft(a) => cli::perft::run(&a),
        Command::Train(a) => cli::train::run(&a),
        Command::Bench(a) => cli::bench::run(&a),
        Command::Gtp(a) => cli::gtp::run(&a),
        Command::Match(a) => cli::r#match::run(&a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("ply-othello: {e}");
            ExitCode::from(2)
        }
    }
}
