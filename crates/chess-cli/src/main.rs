//! The `ply-chess` command-line program: a thin front-end, one file per subcommand in `cli/`;
//! the protocol it speaks is the library half of the crate (`src/lib.rs`).
//!
//! Exit status: 0 on success, 1 on a runtime error (including a batch command with a line it
//! could not handle), 2 on a usage error (an unknown option, a value out of its range). Errors
//! are written to standard error as `ply-chess: <message>`.

mod cli;

use ply_chess_cli::protocol::uci;
use ply_cli_support::RUNTIME_ERROR;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

/// ply chess tools.
#[derive(Parser)]
#[command(name = "ply-chess", version = ply_chess_cli::VERSION, about, propagate_version = true)]
struct Cli {
    /// Without a subcommand the program speaks UCI on stdin/stdout.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move generator test and benchmark).
    Perft(cli::perft::PerftArgs),
    /// Print the static evaluation of a position term by term.
    Eval(cli::eval::EvalArgs),
    /// Search fixed positions to a fixed depth; prints `Bench: <nodes> nodes <nps> nps`.
    Bench(cli::bench::BenchArgs),
    /// Probe Syzygy tables: one `FEN;wdl;dtz` (or `FEN;error;<message>`) line per position.
    Probe(cli::probe::ProbeArgs),
    /// Review the games of a PGN file: every move judged (best ... blunder), accuracy per side.
    Review(cli::review::ReviewArgs),
    /// Self-play training positions for the evaluation (`FEN;score;result;game` lines).
    Datagen(cli::datagen::DatagenArgs),
    /// Tune the evaluation weights on datagen files (Texel's method, Adam); writes Rust source.
    Tune(cli::tune::TuneArgs),
    /// NNUE training data: `convert` datagen text files to packed 32-byte records.
    NnueData(cli::nnue_data::NnueDataArgs),
    /// Train the NNUE network on packed data; writes a PLYNNUE2 network file.
    TrainNnue(cli::train_nnue::TrainNnueArgs),
    /// Fit the win/draw/loss model to packed self-play records; prints its calibration.
    WdlFit(cli::wdl_fit::WdlFitArgs),
    /// Print the shell completion script (bash, zsh, fish, powershell, elvish) to standard output.
    Completions(cli::completions::CompletionsArgs),
}

/// Says `ply-chess: <message>` on standard error and gives the exit status of a runtime error.
fn failure(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("ply-chess: {message}");
    ExitCode::from(RUNTIME_ERROR)
}

fn exit_code<E: std::fmt::Display>(result: Result<(), E>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => failure(e),
    }
}

fn main() -> ExitCode {
    ply_cli_support::quiet_on_closed_pipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return ply_cli_support::usage_error("ply-chess", &e),
    };
    match cli.command {
        Some(Command::Perft(args)) => exit_code(cli::perft::run(&args)),
        Some(Command::Eval(args)) => exit_code(cli::eval::run(&args)),
        Some(Command::Bench(args)) => exit_code(cli::bench::run(&args)),
        Some(Command::Probe(args)) => exit_code(cli::probe::run(&args)),
        Some(Command::Review(args)) => exit_code(cli::review::run(&args)),
        Some(Command::Datagen(args)) => exit_code(cli::datagen::run(&args)),
        Some(Command::Tune(args)) => exit_code(cli::tune::run(&args)),
        Some(Command::NnueData(args)) => exit_code(cli::nnue_data::run(&args)),
        Some(Command::TrainNnue(args)) => exit_code(cli::train_nnue::run(&args)),
        Some(Command::WdlFit(args)) => exit_code(cli::wdl_fit::run(&args)),
        Some(Command::Completions(args)) => exit_code(cli::completions::run(
            &args,
            &mut Cli::command(),
            "ply-chess",
        )),
        None => {
            uci::run(std::io::stdin().lock());
            ExitCode::SUCCESS
        }
    }
}
