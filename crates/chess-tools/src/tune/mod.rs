//! Texel-style tuning of the evaluation weights (`ply-chess tune`).
//!
//! Each training position (a `ply-chess datagen` line) is evaluated once with a tracer that
//! records the count of every weight it uses ([`dataset`]); from then on the evaluation of a
//! position is a sparse dot product, so a pass over a million positions takes well under a
//! second. The tuner fits the sigmoid scale K to the game results with the compiled weights,
//! then lowers the mean squared error between `sigmoid(K · eval)` and the target (the result,
//! optionally blended with the search score) by Adam steps over the whole weight vector
//! ([`optimize`]), starting from the compiled weights, optionally pulled toward them (L2); with
//! a hold-out, the weights kept are those of the report with the lowest held-out loss. The two non-linear terms have their
//! own gradient paths: the king danger through the slope of its penalty at each position's
//! units times the counts of its features, the complexity through its clamp at 0. The phase blend and the endgame scale of each
//! position are taken as they were with the compiled weights.
//!
//! Everything is deterministic: the same data, options and starting weights give the same
//! weights, whatever the number of threads. The result is written as the engine's
//! `eval/weights.rs` ([`ply_chess_engine::layout::source`]).

pub mod dataset;
pub mod optimize;

use dataset::Entry;
use optimize::{fit_k, gradient, loss, Adam};
use ply_chess_engine::{layout, Score, WEIGHTS};
use std::path::{Path, PathBuf};

/// Options of a tuning run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Adam steps, each over the whole training set.
    pub epochs: u32,
    /// Adam step size (about the most a weight moves a step, in centipawns).
    pub lr: f64,
    /// Weight of the game result in the target (1: result only, 0: search score only).
    pub lambda: f64,
    /// The sigmoid scale; `None`: fitted to the results with the starting weights.
    pub k: Option<f64>,
    /// Threads for the passes over the data.
    pub threads: usize,
    /// One game in this many (chosen by a hash of the game index) is held out to measure the
    /// loss on positions not trained on; 0 trains on everything.
    pub holdout_every: u64,
    /// Report the losses every this many epochs.
    pub report_every: u32,
    /// L2 pull toward the starting weights: `reg × Σ (w − w₀)²` (centipawns²) is added to the
    /// loss, so weights the data says little about stay near their start (0: none).
    pub reg: f64,
    /// With a hold-out, return the weights of the report with the lowest held-out loss instead
    /// of the last ones (early stopping).
    pub keep_best: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            epochs: 1000,
            lr: 1.0,
            lambda: 0.5,
            k: None,
            threads: 1,
            holdout_every: 10,
            report_every: 50,
            reg: 0.0,
            keep_best: true,
        }
    }
}

/// What can stop the tuner.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A data file cannot be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A line is not a training record.
    #[error("{path}, line {line}: {source}")]
    Record {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// Why.
        #[source]
        source: crate::datagen::record::RecordError,
    },
    /// Nothing to train on.
    #[error("no training positions (all files empty, or all held out)")]
    Empty,
}

/// Reads data files into entries (blank lines are skipped), `threads` at a time; `progress` is
/// told the number of positions read after each file.
///
/// # Errors
/// A file that cannot be read or a line that is not a record (with its file and line number).
pub fn load(
    paths: &[PathBuf],
    threads: usize,
    mut progress: impl FnMut(usize),
) -> Result<Vec<Entry>, TuneError> {
    let mut entries = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|source| TuneError::Io {
            path: path.clone(),
            source,
        })?;
        entries.extend(parse_lines(path, &text, threads)?);
        progress(entries.len());
    }
    Ok(entries)
}

/// The entries of one file's text, in file order.
fn parse_lines(path: &Path, text: &str, threads: usize) -> Result<Vec<Entry>, TuneError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let threads = threads.max(1);
    let size = lines.len().div_ceil(threads).max(1);
    let parts: Vec<Result<Vec<Entry>, TuneError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = lines
            .chunks(size)
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|&(i, line)| {
                            Entry::parse(line).map_err(|source| TuneError::Record {
                                path: path.to_path_buf(),
                                line: i + 1,
                                source,
                            })
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a loading thread panicked"))
            .collect()
    });
    let mut out = Vec::with_capacity(lines.len());
    for part in parts {
        out.extend(part?);
    }
    Ok(out)
}

/// The losses at one epoch.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// Epochs done.
    pub epoch: u32,
    /// Mean squared error on the training positions.
    pub train: f64,
    /// Mean squared error on the held-out positions (`None` without a hold-out).
    pub holdout: Option<f64>,
}

/// The outcome of a run.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The tuned weights, rounded, in [`layout`] order.
    pub weights: Vec<Score>,
    /// The sigmoid scale used.
    pub k: f64,
    /// Losses with the starting weights.
    pub start: Epoch,
    /// Losses with the tuned weights (rounded), at the epoch they come from.
    pub end: Epoch,
    /// Training and held-out positions.
    pub positions: (usize, usize),
}

/// The compiled weights as floats.
pub fn compiled_weights() -> Vec<[f64; 2]> {
    floats(&WEIGHTS)
}

/// Packed weights as `[mg, eg]` floats.
pub fn floats(w: &[Score]) -> Vec<[f64; 2]> {
    w.iter().map(|s| [s.mg() as f64, s.eg() as f64]).collect()
}

/// Rounds weights to the engine's packed form.
pub fn rounded(w: &[[f64; 2]]) -> Vec<Score> {
    let r = |x: f64| x.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
    w.iter().map(|[a, b]| Score::new(r(*a), r(*b))).collect()
}

/// Tunes the weights on `entries` from the compiled ones; `progress` gets the losses at the
/// start, every `config.report_every` epochs and at the last epoch, then once more for the
/// weights returned ([`Outcome::end`]).
///
/// # Errors
/// [`TuneError::Empty`] when no training position is left.
pub fn tune(
    config: &Config,
    entries: Vec<Entry>,
    mut progress: impl FnMut(&Epoch),
) -> Result<Outcome, TuneError> {
    let (holdout, train): (Vec<Entry>, Vec<Entry>) = entries.into_iter().partition(|e| {
        config.holdout_every > 0 && ply_batch::splitmix(e.game).is_multiple_of(config.holdout_every)
    });
    if train.is_empty() {
        return Err(TuneError::Empty);
    }
    let threads = config.threads.max(1);
    let mut w = compiled_weights();
    let k = config.k.unwrap_or_else(|| fit_k(&train, &w, threads));
    let measure = |w: &[[f64; 2]], epoch: u32| Epoch {
        epoch,
        train: loss(&train, w, k, config.lambda, threads),
        holdout: (!holdout.is_empty()).then(|| loss(&holdout, w, k, config.lambda, threads)),
    };
    let start = measure(&w, 0);
    progress(&start);
    let w0 = w.clone();
    let mut best = (start, w.clone());
    let mut adam = Adam::new(w.len(), config.lr);
    for epoch in 1..=config.epochs {
        let mut g = gradient(&train, &w, k, config.lambda, threads);
        if config.reg > 0.0 {
            for ((gi, wi), si) in g.iter_mut().zip(&w).zip(&w0) {
                for h in 0..2 {
                    // only weights the data uses (a zero gradient means an unseen weight)
                    if gi[h] != 0.0 {
                        gi[h] += 2.0 * config.reg * (wi[h] - si[h]);
                    }
                }
            }
        }
        adam.step(&mut w, &g);
        let report = config.report_every > 0 && epoch % config.report_every == 0;
        if report || epoch == config.epochs {
            let e = measure(&w, epoch);
            if let (Some(h), Some(b)) = (e.holdout, best.0.holdout) {
                if h < b {
                    best = (e, w.clone());
                }
            }
            progress(&e);
        }
    }
    let chosen = if config.keep_best && best.0.holdout.is_some() {
        best.1
    } else {
        w
    };
    let weights = rounded(&chosen);
    let mut end = measure(&floats(&weights), config.epochs);
    if config.keep_best && best.0.holdout.is_some() {
        end.epoch = best.0.epoch;
    }
    progress(&end);
    debug_assert_eq!(weights.len(), layout::COUNT);
    Ok(Outcome {
        weights,
        k,
        start,
        end,
        positions: (train.len(), holdout.len()),
    })
}

#[cfg(test)]
mod tests;
