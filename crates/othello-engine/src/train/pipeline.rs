//! The whole training run behind `ply-othello train`: read WTHOR, build the splits, fit every
//! stage (with progress bars and per-epoch logs), write the weights in ply's and optionally
//! Edax's format, and report the held-out errors.

use super::dataset::{read_labels, Dataset, LabelError, Split};
use super::fit::{fit_all, FitConfig, FitError};
use super::measure::{measure, MaeRow};
use super::wthor::{self, WthorError};
use crate::eval::{self, EdaxFile, EdaxHeader, LoadError, PackedWeights};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;

/// What to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// Directory of `WTH_*.wtb` files.
    pub wthor: PathBuf,
    /// Extra labelled positions (exact scores), added to the training set.
    pub labels: Vec<PathBuf>,
    /// Output in ply's compressed format.
    pub out: Option<PathBuf>,
    /// Output in Edax's `eval.dat` format.
    pub edax_out: Option<PathBuf>,
    /// Directory of per-stage checkpoints (makes the run resumable).
    pub checkpoint: Option<PathBuf>,
    /// Instead of fitting, only measure these weights (either format).
    pub measure_only: Option<PathBuf>,
    /// Fit hyper-parameters.
    pub fit: FitConfig,
    /// Show progress bars.
    pub progress: bool,
}

/// Errors of a training run.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// WTHOR files could not be read.
    #[error(transparent)]
    Wthor(#[from] WthorError),
    /// A label file could not be read.
    #[error(transparent)]
    Labels(#[from] LabelError),
    /// A checkpoint could not be written.
    #[error(transparent)]
    Fit(#[from] FitError),
    /// Weights to measure could not be loaded.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// Output could not be written.
    #[error("cannot write {0}: {1}")]
    Write(PathBuf, std::io::Error),
}

fn bar(len: u64, show: bool, template: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(template) {
        pb.set_style(style);
    }
    pb
}

/// Runs the pipeline, writing logs and the final error table to `log`; returns the table rows
/// (20..=24 empties) of the held-out test set.
///
/// # Errors
/// [`PipelineError`] on unreadable inputs or unwritable outputs.
pub fn run(opts: &Options, log: &mut dyn Write) -> Result<Vec<MaeRow>, PipelineError> {
    let files = wthor::read_dir(&opts.wthor)?;
    let total: usize = files.iter().map(|(_, f)| f.games.len()).sum();
    let pb = bar(
        total as u64,
        opts.progress,
        "replay {bar:40} {pos}/{len} games {elapsed}",
    );
    let keep: &[Split] = if opts.measure_only.is_some() {
        &[Split::Test]
    } else {
        &[Split::Train, Split::Validation, Split::Test]
    };
    let mut ds = Dataset::from_wthor(&files, keep, |n| pb.inc(n as u64));
    pb.finish_and_clear();
    for path in &opts.labels {
        ds.train.extend(read_labels(path)?);
    }
    let _ = writeln!(
        log,
        "games {} (rejected {}), samples: train {}, validation {}, test {}",
        ds.games,
        ds.rejected,
        ds.train.len(),
        ds.validation.len(),
        ds.test.len()
    );
    let weights: PackedWeights = match &opts.measure_only {
        Some(path) => eval::load_weights(path)?,
        None => {
            let cfg = opts.fit;
            let epochs_total = (cfg.epochs_first + (super::fit::N_STAGES - 1) * cfg.epochs) as u64;
            let pb = bar(
                epochs_total,
                opts.progress,
                "fit {bar:40} {pos}/{len} epochs {elapsed} eta {eta} {msg}",
            );
            let mut on_epoch = |e: super::fit::EpochLog| {
                pb.inc(1);
                pb.set_message(format!(
                    "stage {} mse {:.2} val-mae {:.3}",
                    e.stage, e.train_mse, e.validation_mae
                ));
                let _ = writeln!(
                    log,
                    "stage {:2} epoch {:3} train-mse {:8.3} validation-mae {:.3}",
                    e.stage, e.epoch, e.train_mse, e.validation_mae
                );
            };
            let w = fit_all(
                &ds.train,
                &ds.validation,
                &cfg,
                opts.checkpoint.as_deref(),
                &mut on_epoch,
            )?;
            pb.finish_and_clear();
            w
        }
    };
    if let Some(path) = &opts.out {
        let bytes = eval::format::encode(&weights, quantum_of(&weights));
        std::fs::write(path, &bytes).map_err(|e| PipelineError::Write(path.clone(), e))?;
        let _ = writeln!(log, "wrote {} ({} bytes)", path.display(), bytes.len());
    }
    if let Some(path) = &opts.edax_out {
        let file = EdaxFile {
            header: EdaxHeader {
                version: 1,
                release: 0,
                build: 0,
                date: 0.0,
            },
            swapped: false,
            weights: weights.clone(),
        };
        file.write(path).map_err(|e| match e {
            eval::EdaxError::Io(io) => PipelineError::Write(path.clone(), io),
            other => PipelineError::Write(path.clone(), std::io::Error::other(other.to_string())),
        })?;
        let _ = writeln!(log, "wrote {}", path.display());
    }
    let rows = measure(&weights, &ds.test, 20..=24);
    let _ = writeln!(
        log,
        "held-out test set (every 10th game): mean absolute error in discs"
    );
    let _ = writeln!(log, "empties | exact labels: n, MAE | game labels: n, MAE");
    for r in &rows {
        let _ = writeln!(
            log,
            "{:7} | {:7} {:6.2} | {:7} {:6.2}",
            r.empties, r.exact.0, r.exact.1, r.all.0, r.all.1
        );
    }
    Ok(rows)
}

/// Largest power-of-two quantum that all weights are multiples of (at most 64).
fn quantum_of(w: &PackedWeights) -> u16 {
    let mut q = 64u16;
    while q > 1
        && w.stages
            .iter()
            .flatten()
            .any(|&v| i32::from(v) % i32::from(q) != 0)
    {
        q /= 2;
    }
    q
}
