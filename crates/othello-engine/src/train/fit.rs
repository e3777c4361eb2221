//! Per-stage least-squares fit of the packed pattern weights by full-batch Adam with L2
//! regularisation (shrinks rarely seen patterns toward zero, the role Edax's smoothing plays).
//! Deterministic: no sampling, fixed summation order. Resumable: each finished stage is saved.

use super::dataset::Sample;
use crate::eval::pattern::{self, N_FEATURES, PACKED_BIAS, PACKED_LEN};
use crate::eval::weights::{source_empties, PackedWeights, N_PLIES};
use std::path::{Path, PathBuf};

/// Hyper-parameters of a fit.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    /// Full-batch Adam epochs of the first stage fitted.
    pub epochs_first: usize,
    /// Epochs of each later stage (warm-started from its neighbour).
    pub epochs: usize,
    /// Adam step size at the first epoch of a stage, in discs.
    pub lr: f32,
    /// Step size at the last epoch (geometric decay from `lr`): with a constant step, Adam keeps
    /// every weight jittering by about the step, which adds noise to all 46 terms of a sum.
    pub lr_end: f32,
    /// L2 coefficient on the weights (loss = mean squared error + l2 * sum of squares).
    pub l2: f32,
    /// A stage trains on positions within `window` empties of its own.
    pub window: u32,
    /// Quantum of the stored `i16` weights (1/128 disc units).
    pub quantum: u16,
}

/// Stages fitted: stage `s` serves 2 * s + 11 and 2 * s + 12 empties (after the seed's merging
/// only 11..=58 empties have tables of their own).
pub const N_STAGES: usize = 24;

/// Stage of each number of empties.
pub fn stage_of_empties() -> [u8; N_PLIES] {
    let mut t = [0u8; N_PLIES];
    for (e, s) in t.iter_mut().enumerate() {
        *s = ((source_empties(e) - 11) / 2) as u8;
    }
    t
}

/// Central number of empties of a stage (the mean of the two it serves).
fn stage_centre(s: usize) -> f32 {
    2.0 * s as f32 + 11.5
}

/// Packed indices and labels of the samples a stage trains on.
struct Batch {
    idx: Vec<u32>,
    y: Vec<f32>,
}

impl Batch {
    fn new<'a>(samples: impl Iterator<Item = &'a Sample>) -> Batch {
        let (mut idx, mut y) = (Vec::new(), Vec::new());
        for s in samples {
            idx.extend_from_slice(&pattern::packed_indices(&s.features));
            y.push(f32::from(s.label));
        }
        Batch { idx, y }
    }

    fn len(&self) -> usize {
        self.y.len()
    }

    fn predict(&self, w: &[f32], i: usize) -> f32 {
        let row = &self.idx[i * N_FEATURES..(i + 1) * N_FEATURES];
        w[PACKED_BIAS] + row.iter().map(|&j| w[j as usize]).sum::<f32>()
    }

    /// Mean absolute error in discs.
    fn mae(&self, w: &[f32]) -> f32 {
        if self.len() == 0 {
            return f32::NAN;
        }
        (0..self.len())
            .map(|i| (self.predict(w, i) - self.y[i]).abs())
            .sum::<f32>()
            / self.len() as f32
    }
}

/// Per-epoch report of a stage fit.
#[derive(Clone, Copy, Debug)]
pub struct EpochLog {
    /// Stage being fitted.
    pub stage: usize,
    /// Epoch number (1-based).
    pub epoch: usize,
    /// Training mean squared error (discs^2).
    pub train_mse: f32,
    /// Validation mean absolute error (discs).
    pub validation_mae: f32,
}

/// Fits one stage from `init`, calling `log` after every epoch.
fn fit_stage(
    train: &Batch,
    validation: &Batch,
    init: &[f32],
    epochs: usize,
    cfg: &FitConfig,
    stage: usize,
    log: &mut dyn FnMut(EpochLog),
) -> Vec<f32> {
    let mut w = init.to_vec();
    let mut m = vec![0f32; PACKED_LEN];
    let mut v = vec![0f32; PACKED_LEN];
    let mut grad = vec![0f32; PACKED_LEN];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let n = train.len().max(1) as f32;
    for epoch in 1..=epochs {
        grad.fill(0.0);
        let mut sse = 0f64;
        for i in 0..train.len() {
            let r = train.predict(&w, i) - train.y[i];
            sse += f64::from(r * r);
            for &j in &train.idx[i * N_FEATURES..(i + 1) * N_FEATURES] {
                grad[j as usize] += r;
            }
            grad[PACKED_BIAS] += r;
        }
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        let progress = (epoch - 1) as f32 / (epochs.max(2) - 1) as f32;
        let lr = cfg.lr * (cfg.lr_end.max(1e-6) / cfg.lr).powf(progress);
        for j in 0..PACKED_LEN {
            let g = 2.0 * grad[j] / n + 2.0 * cfg.l2 * w[j];
            if g == 0.0 && m[j] == 0.0 {
                continue;
            }
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            w[j] -= lr * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
        }
        log(EpochLog {
            stage,
            epoch,
            train_mse: (sse / f64::from(n)) as f32,
            validation_mae: validation.mae(&w),
        });
    }
    w
}

/// Fits stage `s` from `init` for `epochs` full-batch epochs on the training samples within the
/// configured window, logging the validation error at the stage's own empties.
pub fn fit_one(
    train: &[Sample],
    validation: &[Sample],
    s: usize,
    init: &[f32],
    epochs: usize,
    cfg: &FitConfig,
    log: &mut dyn FnMut(EpochLog),
) -> Vec<f32> {
    let near =
        |x: &&Sample| (f32::from(x.empties) - stage_centre(s)).abs() <= cfg.window as f32 + 0.5;
    let tb = Batch::new(train.iter().filter(near));
    let vb = Batch::new(
        validation
            .iter()
            .filter(|x| (f32::from(x.empties) - stage_centre(s)).abs() < 1.0),
    );
    fit_stage(&tb, &vb, init, epochs, cfg, s, log)
}

/// Errors of a training run.
#[derive(Debug, thiserror::Error)]
pub enum FitError {
    /// A checkpoint could not be read or written.
    #[error("checkpoint {0}: {1}")]
    Checkpoint(PathBuf, std::io::Error),
}

fn checkpoint_path(dir: &Path, stage: usize) -> PathBuf {
    dir.join(format!("stage_{stage:02}.f32"))
}

fn load_checkpoint(dir: &Path, stage: usize) -> Option<Vec<f32>> {
    let bytes = std::fs::read(checkpoint_path(dir, stage)).ok()?;
    (bytes.len() == 4 * PACKED_LEN).then(|| {
        bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    })
}

fn save_checkpoint(dir: &Path, stage: usize, w: &[f32]) -> Result<(), FitError> {
    let path = checkpoint_path(dir, stage);
    let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|_| std::fs::rename(&tmp, &path))
        .map_err(|e| FitError::Checkpoint(path, e))
}

/// Fits all stages, from the fewest empties up (each warm-starts from the previous one),
/// skipping stages already in `checkpoint`; returns quantised packed weights.
///
/// # Errors
/// [`FitError`] when a checkpoint cannot be written.
pub fn fit_all(
    train: &[Sample],
    validation: &[Sample],
    cfg: &FitConfig,
    checkpoint: Option<&Path>,
    log: &mut dyn FnMut(EpochLog),
) -> Result<PackedWeights, FitError> {
    if let Some(dir) = checkpoint {
        std::fs::create_dir_all(dir).map_err(|e| FitError::Checkpoint(dir.to_path_buf(), e))?;
    }
    let mut stages: Vec<Vec<f32>> = Vec::with_capacity(N_STAGES);
    let mut prev = vec![0f32; PACKED_LEN];
    for s in 0..N_STAGES {
        let w = match checkpoint.and_then(|d| load_checkpoint(d, s)) {
            Some(w) => w,
            None => {
                let epochs = if s == 0 { cfg.epochs_first } else { cfg.epochs };
                let w = fit_one(train, validation, s, &prev, epochs, cfg, log);
                if let Some(dir) = checkpoint {
                    save_checkpoint(dir, s, &w)?;
                }
                w
            }
        };
        prev.clone_from(&w);
        stages.push(w);
    }
    Ok(quantise(&stages, cfg.quantum))
}

/// Rounds float weights (discs) to `i16` multiples of `quantum` in 1/128 disc.
pub fn quantise(stages: &[Vec<f32>], quantum: u16) -> PackedWeights {
    let q = f32::from(quantum.max(1));
    let stages = stages
        .iter()
        .map(|w| {
            w.iter()
                .map(|&x| ((x * 128.0 / q).round() * q).clamp(-32768.0 + q, 32767.0 - q) as i16)
                .collect()
        })
        .collect();
    PackedWeights {
        stages,
        stage_of_empties: stage_of_empties(),
    }
}

/// Static evaluation of a sample with packed weights, in discs (unrounded).
pub fn evaluate_sample(w: &PackedWeights, s: &Sample) -> f32 {
    let table = &w.stages[w.stage_of_empties[source_empties(usize::from(s.empties))] as usize];
    let idx = pattern::packed_indices(&s.features);
    let sum: i32 = idx
        .iter()
        .map(|&i| i32::from(table[i as usize]))
        .sum::<i32>()
        + i32::from(table[PACKED_BIAS]);
    sum as f32 / 128.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_othello::Board;

    #[test]
    fn fit_recovers_a_planted_linear_model() {
        // labels from a known sparse model must be fitted closely
        let mut samples = Vec::new();
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..400 {
            let mut b = Board::start();
            for _ in 0..40 {
                let moves = b.moves();
                if moves == 0 {
                    b.pass();
                    if b.moves() == 0 {
                        break;
                    }
                    continue;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let k = (rng % u64::from(moves.count_ones())) as u32;
                let mut m = moves;
                for _ in 0..k {
                    m &= m - 1;
                }
                b.play(m.trailing_zeros() as usize);
                if (20..=22).contains(&b.empty_count()) {
                    let label = (b.player & 0x8100_0000_0000_0081).count_ones() as i32 * 8
                        - (b.opponent & 0x8100_0000_0000_0081).count_ones() as i32 * 8;
                    samples.push(Sample::new(&b, label as i8, false));
                }
            }
        }
        let cfg = FitConfig {
            epochs_first: 300,
            epochs: 300,
            lr: 0.5,
            lr_end: 0.01,
            l2: 0.0,
            window: 2,
            quantum: 1,
        };
        let train = Batch::new(samples.iter());
        let w = fit_stage(
            &train,
            &train,
            &vec![0f32; PACKED_LEN],
            300,
            &cfg,
            0,
            &mut |_| {},
        );
        let mae = train.mae(&w);
        assert!(mae < 0.5, "mae {mae}");
    }
}
