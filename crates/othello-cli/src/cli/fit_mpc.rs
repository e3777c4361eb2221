//! `ply-othello fit-mpc`: fits the Multi-ProbCut predictors on WTHOR positions (`--wthor DIR`),
//! or else on positions of seeded random games, and prints them as the Rust tables of
//! `crates/othello-engine/src/midgame/mpc.rs` (refit when the weights change). Too few
//! positions for any predictor is an error, not a table of placeholders.

use super::CliError;
use clap::builder::RangedU64ValueParser;
use clap::Args;
use ply_othello::Square;
use ply_othello_engine::eval::parse_weights;
use ply_othello_tools::mpc;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `fit-mpc`.
#[derive(Args)]
pub struct FitMpcArgs {
    /// Directory of the WTHOR `*.wtb` files (e.g. `../shared/othello/wthor`) to take the
    /// positions from; default: positions of seeded random games (`--seed`).
    #[arg(long)]
    wthor: Option<PathBuf>,
    /// Seed of the random games used without `--wthor`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of positions scored, at least 1 (each is searched at every depth up to 10 and,
    /// with at most 20 empties, solved exactly; a few hundred are needed for useful tables).
    #[arg(long, default_value_t = 1200,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    positions: usize,
    /// Write the tables to this file instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write each position's scores here, one `S <empties> [<by depth>] <exact>` line each.
    #[arg(long)]
    scores_out: Option<PathBuf>,
    /// Evaluation weights to fit the predictors for (ply or Edax `eval.dat` format; default:
    /// the built-in ones).
    #[arg(long)]
    eval_file: Option<PathBuf>,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `fit-mpc`.
pub fn run(a: &FitMpcArgs) -> Result<ExitCode, CliError> {
    // outputs whose folder is missing are refused before the long scoring, not after it
    for path in [&a.out, &a.scores_out].into_iter().flatten() {
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => std::path::Path::new("."),
        };
        if !folder.is_dir() || path.is_dir() {
            return Err(CliError::Write {
                path: path.display().to_string(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "its folder does not exist, or it is a folder",
                ),
            });
        }
    }
    let boards = match &a.wthor {
        Some(dir) => {
            let files = ply_othello::wthor::read_dir(dir)?;
            let games: Vec<[Option<Square>; 60]> = files
                .iter()
                .flat_map(|(_, f)| f.games.iter().map(|g| g.moves))
                .collect();
            if games.is_empty() {
                return Err(CliError::Refused(format!(
                    "no WTHOR games in {} (expected WTH_*.wtb files)",
                    dir.display()
                )));
            }
            mpc::positions(&games, a.positions, 12, 58)
        }
        None => {
            eprintln!(
                "fit-mpc: no --wthor directory given: fitting on {} positions of random games \
                 (seed {})",
                a.positions, a.seed
            );
            mpc::random_positions(a.positions, a.seed, 12, 58)
        }
    };
    let pb = ply_batch::progress_bar(
        boards.len() as u64,
        !a.quiet,
        "{msg} {bar:40} {pos}/{len} [{elapsed} < {eta}] {per_sec}",
    );
    pb.set_message("scoring positions");
    let weights = match &a.eval_file {
        Some(path) => Some(parse_weights(&super::read(path)?)?),
        None => None,
    };
    let scores = mpc::score_boards(&boards, weights.as_ref(), || pb.inc(1));
    pb.finish_and_clear();
    if let Some(path) = &a.scores_out {
        let lines: String = scores.iter().map(|s| mpc::score_line(s) + "\n").collect();
        super::write(path, &lines)?;
    }
    let tables = mpc::fit_tables(&scores).map_err(|e| CliError::Refused(e.to_string()))?;
    match &a.out {
        Some(path) => super::write(path, &tables)?,
        None => print!("{tables}"),
    }
    Ok(ExitCode::SUCCESS)
}
