//! `ply-othello testset`: the strong-play test set of the evaluation (`ply_othello_tools::testset`)
//! from `datagen` files: the positions at the chosen numbers of empties, once each up to
//! symmetry and none that occurs in the training files, written as one OBF file per number of
//! empties with the perfect-play move and the exact score.

use super::CliError;
use clap::Args;
use ply_othello_tools::datagen::Label;
use ply_othello_tools::testset::{extract, key, to_obf};
use ply_othello_tools::train::read_labels;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `testset`.
#[derive(Args)]
pub struct TestsetArgs {
    /// `datagen` output files with the test games (made with `--random-min 0 --random-max 12
    /// --exact E`, E at least the largest number of empties asked for).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Training data (`datagen` output or `train --labels` files): none of their positions, up to
    /// symmetry, enters the test set; default: none.
    #[arg(long, num_args = 1..)]
    exclude: Vec<PathBuf>,
    /// Numbers of empties to keep (comma-separated); one file `e<N>.obf` each.
    #[arg(long, value_delimiter = ',', default_value = "14,20,24")]
    empties: Vec<u32>,
    /// Keep at most this many positions per number of empties (the first in data order);
    /// default: all.
    #[arg(long)]
    max: Option<usize>,
    /// Directory of the OBF files.
    #[arg(long)]
    out_dir: PathBuf,
}

/// The records of a `datagen` file, in file order.
fn read_records(path: &Path) -> Result<Vec<Label>, CliError> {
    let text = super::read_text(path)?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            l.parse::<Label>()
                .map_err(|e| CliError::Datagen(format!("{}:{}: {e}", path.display(), n + 1)))
        })
        .collect()
}

/// Runs `testset`.
pub fn run(a: &TestsetArgs) -> Result<ExitCode, CliError> {
    let mut labels = Vec::new();
    for path in &a.data {
        labels.extend(read_records(path)?);
    }
    if labels.is_empty() {
        let names: Vec<String> = a.data.iter().map(|p| p.display().to_string()).collect();
        return Err(CliError::NoPositions(names.join(", ")));
    }
    let mut training = HashSet::new();
    for path in &a.exclude {
        let samples = read_labels(path).map_err(|e| CliError::Datagen(e.to_string()))?;
        training.extend(samples.iter().map(|s| key(&s.board)));
    }
    let (sets, dropped) = extract(&labels, &a.empties, &training);
    std::fs::create_dir_all(&a.out_dir).map_err(|source| CliError::Write {
        path: a.out_dir.display().to_string(),
        source,
    })?;
    for (empties, positions) in &sets {
        let kept = &positions[..positions.len().min(a.max.unwrap_or(usize::MAX))];
        let mut text = format!(
            "% ply-othello strong-play test set: {} positions at {empties} empties, side to move's \
             exact score after the move perfect play made\n",
            kept.len()
        );
        for p in kept {
            writeln!(text, "{}", to_obf(p)).expect("writing to a String");
        }
        let path = a.out_dir.join(format!("e{empties}.obf"));
        super::write(&path, text)?;
        eprintln!("{}: {} positions", path.display(), kept.len());
    }
    eprintln!(
        "{} records read, {} training positions excluded; dropped: {} repeated, {} in training, \
         {} without a recoverable move",
        labels.len(),
        training.len(),
        dropped.duplicates,
        dropped.in_training,
        dropped.no_move
    );
    Ok(ExitCode::SUCCESS)
}
