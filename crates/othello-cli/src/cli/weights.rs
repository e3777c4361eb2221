//! `ply-othello weights --edax-out FILE [--eval-file F]`: writes the built-in v1 evaluation
//! weights (Edax's 46 features; the shipped weights use patterns `eval.dat` cannot hold) or
//! those of `--eval-file` in Edax's `eval.dat` format, e.g. to run Edax with ply's evaluation
//! (`edax -eval-file FILE`) so that only the searches differ.

use super::CliError;
use clap::Args;
use ply_othello_engine::eval::{embedded_v1_weights, parse_weights, EdaxFile};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `weights`.
#[derive(Args)]
pub struct WeightsArgs {
    /// Weights to export instead of the built-in v1 ones (ply or Edax `eval.dat` format; weights
    /// that use the patterns beyond Edax's cannot be exported).
    #[arg(long)]
    eval_file: Option<PathBuf>,
    /// Write the weights here in Edax's `eval.dat` format.
    #[arg(long)]
    edax_out: PathBuf,
}

/// Runs `weights`.
pub fn run(a: &WeightsArgs) -> Result<ExitCode, CliError> {
    let weights = match &a.eval_file {
        Some(path) => parse_weights(&super::read(path)?)?,
        None => embedded_v1_weights().map_err(ply_othello_engine::eval::LoadError::from)?,
    };
    let bytes = EdaxFile::new(weights)
        .map_err(ply_othello_engine::eval::LoadError::from)?
        .to_bytes();
    super::write(&a.edax_out, &bytes)?;
    println!("wrote {} ({} bytes)", a.edax_out.display(), bytes.len());
    Ok(ExitCode::SUCCESS)
}
