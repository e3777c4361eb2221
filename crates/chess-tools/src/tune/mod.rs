//! Texel-style tuning of the evaluation weights (`ply-chess tune`).
//!
//! Each training position (a `ply-chess datagen` line) is evaluated once with a tracer that
//! records the count of every weight it uses ([`dataset`]); from then on the evaluation of a
//! position is a sparse dot product, so a pass over a million positions takes well under a
//! second. The tuner fits the sigmoid scale K to the game results with the compiled weights,
//! then lowers the mean squared error between `sigmoid(K · eval)` and the target (the result,
//! optionally blended with the search score) by Adam steps over the whole weight vector
//! ([`optimize`]), starting from the compiled weights. The king danger (a non-linear function
//! of attack units) is held fixed; the phase blend and the endgame scale of each position are
//! taken as they were with the compiled weights.
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
    /// Losses with the tuned weights (rounded).
    pub end: Epoch,
    /// Training and held-out positions.
    pub positions: (usize, usize),
}

/// The SplitMix64 finaliser (the hold-out choice).
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The compiled weights as floats.
pub fn compiled_weights() -> Vec<[f64; 2]> {
    WEIGHTS
        .iter()
        .map(|s| [s.mg() as f64, s.eg() as f64])
        .collect()
}

/// Rounds weights to the engine's packed form.
pub fn rounded(w: &[[f64; 2]]) -> Vec<Score> {
    let r = |x: f64| x.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
    w.iter().map(|[a, b]| Score::new(r(*a), r(*b))).collect()
}

/// Tunes the weights on `entries` from the compiled ones; `progress` gets the losses every
/// `config.report_every` epochs (and at the start and end).
///
/// # Errors
/// [`TuneError::Empty`] when no training position is left.
pub fn tune(
    config: &Config,
    entries: Vec<Entry>,
    mut progress: impl FnMut(&Epoch),
) -> Result<Outcome, TuneError> {
    let (holdout, train): (Vec<Entry>, Vec<Entry>) = entries.into_iter().partition(|e| {
        config.holdout_every > 0 && splitmix(e.game).is_multiple_of(config.holdout_every)
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
    let mut adam = Adam::new(w.len(), config.lr);
    for epoch in 1..=config.epochs {
        let g = gradient(&train, &w, k, config.lambda, threads);
        adam.step(&mut w, &g);
        if config.report_every > 0 && epoch % config.report_every == 0 && epoch < config.epochs {
            progress(&measure(&w, epoch));
        }
    }
    let weights = rounded(&w);
    let as_floats: Vec<[f64; 2]> = weights
        .iter()
        .map(|s| [s.mg() as f64, s.eg() as f64])
        .collect();
    let end = measure(&as_floats, config.epochs);
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
