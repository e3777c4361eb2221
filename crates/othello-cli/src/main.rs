//! The `ply-othello` command-line program: a thin front-end, one file per subcommand in `cli/`;
//! the protocols it speaks are the library half of the crate (`src/lib.rs`).

mod cli;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use ply_cli_support::{usage_error, USAGE_ERROR};
use std::process::ExitCode;

/// Othello engine of the ply workspace. Without a subcommand it reads commands in an
/// Edax-style text mode (type `help`).
#[derive(Parser)]
#[command(name = "ply-othello", version = ply_othello_cli::VERSION, about, propagate_version = true)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Options of the text mode.
    #[command(flatten)]
    engine: cli::engine::EngineArgs,
    /// The text mode's loss allowance.
    #[command(flatten)]
    weakness: cli::engine::WeaknessArgs,
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
    /// Play over the NBoard protocol (the NBoard GUI: `set game`, `go`, `hint`, `analyze`).
    Nboard(cli::nboard::NboardArgs),
    /// Score every legal move of a position (a move list or a board) at a level.
    #[command(alias = "analyze")]
    Analyse(cli::analyse::AnalyseArgs),
    /// Review a game (GGF, move list or WTHOR): every move's disc loss against the best move.
    Review(Box<cli::review::ReviewArgs>),
    /// Fit the Multi-ProbCut predictors on WTHOR positions; prints them as Rust tables.
    FitMpc(cli::fit_mpc::FitMpcArgs),
    /// Write the built-in evaluation weights (or --eval-file's) in Edax's eval.dat format.
    Weights(cli::weights::WeightsArgs),
    /// Play a match against an external GTP engine (WTHOR openings, both colours, clocks).
    Match(Box<cli::r#match::MatchArgs>),
    /// Self-play training positions labelled with the final score or their own search's (exact from --exact empties).
    Datagen(cli::datagen::DatagenArgs),
    /// Static evaluation of every position of an OBF file (discs, side to move's view).
    Eval(cli::eval::EvalArgs),
    /// The strong-play test set from datagen games: OBF files of exactly scored positions.
    Testset(cli::testset::TestsetArgs),
    /// Opening books: new, info, show, add/learn, deepen, fix, merge, export, import (ply's
    /// form, Edax's book.dat and text).
    Book(cli::book::BookArgs),
    /// Print the shell completion script (bash, zsh, fish, powershell, elvish) to standard output.
    Completions(cli::completions::CompletionsArgs),
}

/// The text mode's options given on the command line before a subcommand: each subcommand has
/// its own options, so these would be silently ignored there.
fn misplaced_engine_options(matches: &clap::ArgMatches) -> Vec<String> {
    Args::command()
        .get_arguments()
        .filter(|arg| {
            matches.value_source(arg.get_id().as_str())
                == Some(clap::parser::ValueSource::CommandLine)
        })
        .filter_map(|arg| arg.get_long().map(|long| format!("--{long}")))
        .collect()
}

/// Exit statuses as [`ply_cli_support::program`] gives them for both programs: 0 success, 1 a
/// runtime error, 2 a usage error (clap's own errors, values out of range, misplaced options).
fn main() -> ExitCode {
    ply_cli_support::quiet_on_closed_pipe();
    let parsed = Args::command()
        .try_get_matches()
        .and_then(|matches| Args::from_arg_matches(&matches).map(|args| (matches, args)));
    let (matches, args) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => return usage_error("ply-othello", &e),
    };
    if let Some(name) = matches.subcommand_name() {
        let misplaced = misplaced_engine_options(&matches);
        if !misplaced.is_empty() {
            eprintln!(
                "ply-othello: {} before `{name}` would only apply to the text mode; give the \
                 subcommand's own options after it (`ply-othello {name} --help` lists them)",
                misplaced.join(", ")
            );
            return ExitCode::from(USAGE_ERROR);
        }
    }
    let result = match args.command {
        None => cli::text::run(&args.engine, &args.weakness),
        Some(command) => run(command),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("ply-othello: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(command: Command) -> Result<ExitCode, cli::CliError> {
    match command {
        Command::Solve(a) => cli::solve::run(&a),
        Command::Perft(a) => cli::perft::run(&a),
        Command::Train(a) => cli::train::run(&a),
        Command::Bench(a) => cli::bench::run(&a),
        Command::Gtp(a) => cli::gtp::run(&a),
        Command::Nboard(a) => cli::nboard::run(&a),
        Command::Analyse(a) => cli::analyse::run(&a),
        Command::Review(a) => cli::review::run(&a),
        Command::FitMpc(a) => cli::fit_mpc::run(&a),
        Command::Weights(a) => cli::weights::run(&a),
        Command::Match(a) => cli::r#match::run(&a),
        Command::Datagen(a) => cli::datagen::run(&a),
        Command::Eval(a) => cli::eval::run(&a),
        Command::Testset(a) => cli::testset::run(&a),
        Command::Book(a) => cli::book::run(&a).map(|()| ExitCode::SUCCESS),
        Command::Completions(a) => cli::completions::run(&a, &mut Args::command(), "ply-othello"),
    }
}
