//! Per-stage least-squares fit of the packed pattern weights: ridge regression solved by
//! conjugate gradient on the normal equations (CGLS, Hestenes-Stiefel 1952; the method Buro
//! describes for Logistello's patterns), or full-batch Adam. The ridge term shrinks rarely seen
//! patterns toward zero, the role Edax's smoothing plays. Deterministic: no sampling, fixed
//! summation order. Resumable: each finished stage is saved.

use super::dataset::Sample;
use super::patterns::PatternSet;
use ply_othello::Board;
use ply_othello_engine::eval::weights::{from_edax_layout, source_empties, PackedWeights, N_PLIES};
use std::path::{Path, PathBuf};

/// How a stage's least-squares problem is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Conjugate gradient on the ridge normal equations (CGLS); `epochs` = iterations.
    Cg,
    /// Full-batch Adam with L2 (`lr`, `lr_end`, `l2`).
    Adam,
}

/// Hyper-parameters of a fit.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    /// Solver of each stage's least-squares problem.
    pub method: Method,
    /// CG ridge: every weight is pulled toward zero as strongly as this many samples with a
    /// zero residual would pull it (loss = sum of weighted squared errors + ridge * sum w^2).
    pub ridge: f32,
    /// Weight of a training sample `d` empties away from the nearer of the stage's two
    /// numbers of empties: `neighbour_weight^d` (1 = all samples in the window count alike).
    pub neighbour_weight: f32,
    /// Bit `s` set: fit stage `s` (stages not fitted and not in the checkpoint stay zero);
    /// used to experiment on one stage.
    pub stage_mask: u64,
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
    /// Huber threshold in discs for CG (0: plain least squares).
    pub huber: f32,
    /// Reweighting rounds of a Huber fit, after the first least-squares solve.
    pub robust_rounds: usize,
    /// Numbers of empties served by each stage: 2 (24 stages, one table for each pair, as
    /// Edax) or 1 (48 stages; the same runtime memory, since runtime tables are per parity).
    pub plies: u8,
}

/// Numbers of empties with tables of their own after the seed's merging: 11..=58.
const OWN_EMPTIES: usize = 48;

/// Stages fitted when each stage serves `plies` consecutive numbers of empties (1 or 2):
/// stage `s` serves `plies * s + 11` up to `plies * s + 10 + plies` empties.
pub fn n_stages(plies: u8) -> usize {
    OWN_EMPTIES / usize::from(plies.clamp(1, 2))
}

/// Stage of each number of empties.
pub fn stage_of_empties(plies: u8) -> [u8; N_PLIES] {
    let mut t = [0u8; N_PLIES];
    for (e, s) in t.iter_mut().enumerate() {
        *s = ((source_empties(e) - 11) / usize::from(plies.clamp(1, 2))) as u8;
    }
    t
}

/// How many empties a sample lies outside the range a stage serves (0 inside).
fn stage_distance(s: usize, plies: u8, empties: u8) -> f32 {
    let half = f32::from(plies.clamp(1, 2) - 1) / 2.0;
    let centre = 11.0 + f32::from(plies.clamp(1, 2)) * s as f32 + half;
    ((f32::from(empties) - centre).abs() - half).max(0.0)
}

/// Packed indices, labels and weights of the samples a stage trains on.
struct Batch {
    /// Packed indices per sample (the set's number of features).
    width: usize,
    /// Weights of a packed stage.
    len: usize,
    /// Position of the bias.
    bias: usize,
    idx: Vec<u32>,
    y: Vec<f32>,
    weight: Vec<f32>,
    /// Whether the sample is at one of the stage's own numbers of empties.
    own: Vec<bool>,
}

impl Batch {
    fn new<'a>(set: &PatternSet, samples: impl Iterator<Item = &'a Sample>) -> Batch {
        Batch::weighted(set, samples.map(|s| (s, 1.0, true)))
    }

    fn weighted<'a>(
        set: &PatternSet,
        samples: impl Iterator<Item = (&'a Sample, f32, bool)>,
    ) -> Batch {
        let (mut idx, mut y, mut weight, mut own) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (s, w, o) in samples {
            set.indices(s.board.player(), s.board.opponent(), &mut idx);
            y.push(f32::from(s.label));
            weight.push(w);
            own.push(o);
        }
        Batch {
            width: set.n_features(),
            len: set.packed_len(),
            bias: set.bias(),
            idx,
            y,
            weight,
            own,
        }
    }

    /// Mean absolute residual over the samples at the stage's own numbers of empties.
    fn own_mae(&self, residual: impl Iterator<Item = f64>) -> f32 {
        let (mut n, mut sum) = (0usize, 0f64);
        for (r, &o) in residual.zip(&self.own) {
            if o {
                n += 1;
                sum += r.abs();
            }
        }
        (sum / n.max(1) as f64) as f32
    }

    /// Row `i` of the design matrix: the packed positions of its features (the bias is
    /// implicit).
    fn row(&self, i: usize) -> &[u32] {
        &self.idx[i * self.width..(i + 1) * self.width]
    }

    fn len(&self) -> usize {
        self.y.len()
    }

    fn predict(&self, w: &[f32], i: usize) -> f32 {
        w[self.bias] + self.row(i).iter().map(|&j| w[j as usize]).sum::<f32>()
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
    /// Training mean absolute error at the stage's own numbers of empties (discs).
    pub train_mae: f32,
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
    let mut m = vec![0f32; train.len];
    let mut v = vec![0f32; train.len];
    let mut grad = vec![0f32; train.len];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let n = train.weight.iter().sum::<f32>().max(1.0);
    for epoch in 1..=epochs {
        grad.fill(0.0);
        let mut sse = 0f64;
        for i in 0..train.len() {
            let r = train.predict(&w, i) - train.y[i];
            let wr = train.weight[i] * r;
            sse += f64::from(wr * r);
            for &j in train.row(i) {
                grad[j as usize] += wr;
            }
            grad[train.bias] += wr;
        }
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        let progress = (epoch - 1) as f32 / (epochs.max(2) - 1) as f32;
        let lr = cfg.lr * (cfg.lr_end.max(1e-6) / cfg.lr).powf(progress);
        for j in 0..train.len {
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
            train_mae: train
                .own_mae((0..train.len()).map(|i| f64::from(train.predict(&w, i) - train.y[i]))),
            validation_mae: validation.mae(&w),
        });
    }
    w
}

/// Ridge least squares by CGLS from `init`: minimises sum_i weight_i (x_i . w - y_i)^2 +
/// ridge * |w|^2 (bias not shrunk) in `iterations` steps; each step is one product with the
/// design matrix and one with its transpose. `log` gets the weighted training MSE.
fn fit_stage_cg(
    train: &Batch,
    validation: &Batch,
    init: &[f32],
    iterations: usize,
    cfg: &FitConfig,
    stage: usize,
    log: &mut dyn FnMut(EpochLog),
) -> Vec<f32> {
    let n = train.len();
    let ridge = |j: usize| {
        if j == train.bias {
            0.0
        } else {
            f64::from(cfg.ridge)
        }
    };
    let mut w: Vec<f64> = init.iter().map(|&x| f64::from(x)).collect();
    let w32 = |w: &[f64]| w.iter().map(|&x| x as f32).collect::<Vec<f32>>();
    // residual r = y - A w
    let mut r: Vec<f64> = {
        let wf = w32(&w);
        (0..n)
            .map(|i| f64::from(train.y[i]) - f64::from(train.predict(&wf, i)))
            .collect()
    };
    // s = A^T W r - ridge * w (minus half the gradient)
    let gradient = |r: &[f64], w: &[f64]| {
        let mut s = vec![0f64; train.len];
        for (i, (&ri, &wi)) in r.iter().zip(&train.weight).enumerate() {
            let wr = f64::from(wi) * ri;
            for &j in train.row(i) {
                s[j as usize] += wr;
            }
            s[train.bias] += wr;
        }
        for (j, sj) in s.iter_mut().enumerate() {
            *sj -= ridge(j) * w[j];
        }
        s
    };
    let mut s = gradient(&r, &w);
    let mut p = s.clone();
    let mut gamma: f64 = s.iter().map(|x| x * x).sum();
    let total_weight: f64 = train
        .weight
        .iter()
        .map(|&x| f64::from(x))
        .sum::<f64>()
        .max(1e-9);
    let mut q = vec![0f64; n];
    for it in 1..=iterations {
        if gamma <= 0.0 {
            break;
        }
        let mut delta = 0f64;
        for (i, qi) in q.iter_mut().enumerate() {
            let v = p[train.bias] + train.row(i).iter().map(|&j| p[j as usize]).sum::<f64>();
            *qi = v;
            delta += f64::from(train.weight[i]) * v * v;
        }
        delta += p
            .iter()
            .enumerate()
            .map(|(j, x)| ridge(j) * x * x)
            .sum::<f64>();
        if delta <= 0.0 {
            break;
        }
        let alpha = gamma / delta;
        for (wj, pj) in w.iter_mut().zip(&p) {
            *wj += alpha * pj;
        }
        let mut sse = 0f64;
        for (i, (ri, qi)) in r.iter_mut().zip(&q).enumerate() {
            *ri -= alpha * qi;
            sse += f64::from(train.weight[i]) * *ri * *ri;
        }
        s = gradient(&r, &w);
        let gamma_new: f64 = s.iter().map(|x| x * x).sum();
        let beta = gamma_new / gamma;
        gamma = gamma_new;
        for (pj, sj) in p.iter_mut().zip(&s) {
            *pj = sj + beta * *pj;
        }
        log(EpochLog {
            stage,
            epoch: it,
            train_mse: (sse / total_weight) as f32,
            train_mae: train.own_mae(r.iter().copied()),
            validation_mae: validation.mae(&w32(&w)),
        });
    }
    w32(&w)
}

/// Fits stage `s` of `set` from `init` for `epochs` full-batch epochs on the training samples
/// within the configured window, logging the validation error at the stage's own empties.
#[allow(clippy::too_many_arguments)]
pub fn fit_one(
    set: &PatternSet,
    train: &[Sample],
    validation: &[Sample],
    s: usize,
    init: &[f32],
    epochs: usize,
    cfg: &FitConfig,
    log: &mut dyn FnMut(EpochLog),
) -> Vec<f32> {
    // distance to the nearer of the stage's two numbers of empties
    let distance = |x: &Sample| stage_distance(s, cfg.plies, x.empties);
    let mut tb = Batch::weighted(
        set,
        train
            .iter()
            .filter(|x| distance(x) <= cfg.window as f32)
            .map(|x| {
                (
                    x,
                    cfg.neighbour_weight.powf(distance(x)),
                    distance(x) == 0.0,
                )
            }),
    );
    let vb = Batch::new(set, validation.iter().filter(|x| distance(x) == 0.0));
    match cfg.method {
        Method::Cg if cfg.huber > 0.0 => {
            // Huber loss by iteratively reweighted least squares: residuals beyond `huber`
            // discs get weight huber / |r| (the mean absolute error is what is measured)
            let base = tb.weight.clone();
            let mut w = fit_stage_cg(&tb, &vb, init, epochs, cfg, s, log);
            for _ in 0..cfg.robust_rounds {
                for (i, b) in base.iter().enumerate() {
                    let r = (tb.predict(&w, i) - tb.y[i]).abs();
                    tb.weight[i] = b * if r > cfg.huber { cfg.huber / r } else { 1.0 };
                }
                w = fit_stage_cg(&tb, &vb, &w, robust_iterations(epochs), cfg, s, log);
            }
            w
        }
        Method::Cg => fit_stage_cg(&tb, &vb, init, epochs, cfg, s, log),
        Method::Adam => fit_stage(&tb, &vb, init, epochs, cfg, s, log),
    }
}

/// CG iterations of each reweighting round of a Huber fit whose first round has `epochs`.
pub fn robust_iterations(epochs: usize) -> usize {
    epochs.div_ceil(2)
}

/// Errors of a training run.
#[derive(Debug, thiserror::Error)]
pub enum FitError {
    /// A checkpoint could not be read or written.
    #[error("checkpoint {0}: {1}")]
    Checkpoint(PathBuf, std::io::Error),
}

/// Checkpoint file of a stage: Edax's set keeps the historical names, a set with extra
/// kinds adds their names.
fn checkpoint_path(dir: &Path, set: &PatternSet, plies: u8, stage: usize) -> PathBuf {
    let extra = set.tag();
    if plies == 2 {
        dir.join(format!("stage_{stage:02}{extra}.f32"))
    } else {
        dir.join(format!("stage{plies}_{stage:02}{extra}.f32"))
    }
}

fn load_checkpoint(dir: &Path, set: &PatternSet, plies: u8, stage: usize) -> Option<Vec<f32>> {
    let bytes = std::fs::read(checkpoint_path(dir, set, plies, stage)).ok()?;
    (bytes.len() == 4 * set.packed_len()).then(|| {
        bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    })
}

fn save_checkpoint(
    dir: &Path,
    set: &PatternSet,
    plies: u8,
    stage: usize,
    w: &[f32],
) -> Result<(), FitError> {
    let path = checkpoint_path(dir, set, plies, stage);
    let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|_| std::fs::rename(&tmp, &path))
        .map_err(|e| FitError::Checkpoint(path, e))
}

/// Fits all stages of `set`, from the fewest empties up (each warm-starts from the previous
/// one), skipping stages already in `checkpoint`; returns the quantised model.
///
/// # Errors
/// [`FitError`] when a checkpoint cannot be written.
pub fn fit_all(
    set: &PatternSet,
    train: &[Sample],
    validation: &[Sample],
    cfg: &FitConfig,
    checkpoint: Option<&Path>,
    log: &mut dyn FnMut(EpochLog),
) -> Result<Model, FitError> {
    if let Some(dir) = checkpoint {
        std::fs::create_dir_all(dir).map_err(|e| FitError::Checkpoint(dir.to_path_buf(), e))?;
    }
    let mut stages: Vec<Vec<f32>> = Vec::with_capacity(n_stages(cfg.plies));
    let mut prev = vec![0f32; set.packed_len()];
    for s in 0..n_stages(cfg.plies) {
        let w = match checkpoint.and_then(|d| load_checkpoint(d, set, cfg.plies, s)) {
            Some(w) => w,
            None if cfg.stage_mask.checked_shr(s as u32).unwrap_or(0) & 1 == 0 => {
                vec![0f32; set.packed_len()]
            }
            None => {
                let epochs = if s == 0 { cfg.epochs_first } else { cfg.epochs };
                let w = fit_one(set, train, validation, s, &prev, epochs, cfg, log);
                if let Some(dir) = checkpoint {
                    save_checkpoint(dir, set, cfg.plies, s, &w)?;
                }
                w
            }
        };
        prev.clone_from(&w);
        stages.push(w);
    }
    Ok(Model {
        set: set.clone(),
        stages: quantise(&stages, cfg.quantum),
        stage_of_empties: stage_of_empties(cfg.plies),
    })
}

/// Fitted weights with the pattern set they belong to.
#[derive(Clone, Debug)]
pub struct Model {
    /// The pattern set.
    pub set: PatternSet,
    /// Per-stage tables in the set's packed layout, 1/128 disc.
    pub stages: Vec<Vec<i16>>,
    /// Stage used with `n` empties.
    pub stage_of_empties: [u8; N_PLIES],
}

impl Model {
    /// Weights of the engine (built in or read from a file).
    pub fn engine(weights: PackedWeights) -> Model {
        Model {
            set: PatternSet::engine(),
            stages: weights.stages,
            stage_of_empties: weights.stage_of_empties,
        }
    }

    /// The weights in the engine's layout, when the set is the engine's or Edax's (the only ones
    /// the engine and the weight files hold).
    pub fn packed(&self) -> Option<PackedWeights> {
        let stages = if self.set.is_engine() {
            self.stages.clone()
        } else if self.set.is_edax() {
            self.stages
                .iter()
                .map(|s| from_edax_layout(s))
                .collect::<Option<Vec<_>>>()?
        } else {
            return None;
        };
        Some(PackedWeights {
            stages,
            stage_of_empties: self.stage_of_empties,
        })
    }

    /// Static evaluation of a position (side to move first), in discs (unrounded).
    pub fn evaluate(&self, board: &Board) -> f32 {
        let empties = board.empty_count() as usize;
        let table = &self.stages[self.stage_of_empties[source_empties(empties)] as usize];
        let mut idx = Vec::with_capacity(self.set.n_features());
        self.set.indices(board.player(), board.opponent(), &mut idx);
        let sum: i32 = idx
            .iter()
            .map(|&i| i32::from(table[i as usize]))
            .sum::<i32>()
            + i32::from(table[self.set.bias()]);
        sum as f32 / 128.0
    }
}

/// Rounds float weights (discs) to `i16` multiples of `quantum` in 1/128 disc.
pub fn quantise(stages: &[Vec<f32>], quantum: u16) -> Vec<Vec<i16>> {
    let q = f32::from(quantum.max(1));
    stages
        .iter()
        .map(|w| {
            w.iter()
                .map(|&x| ((x * 128.0 / q).round() * q).clamp(-32768.0 + q, 32767.0 - q) as i16)
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_cover_the_merged_plies() {
        for plies in [1u8, 2] {
            let t = stage_of_empties(plies);
            assert_eq!(usize::from(t[58]) + 1, n_stages(plies));
            assert_eq!(t[11], 0);
            for e in 11..=58u8 {
                let s = usize::from(t[usize::from(e)]);
                assert_eq!(
                    stage_distance(s, plies, e),
                    0.0,
                    "plies {plies} empties {e}"
                );
                assert_eq!(
                    stage_distance(s, plies, e + 3),
                    if plies == 1 {
                        3.0
                    } else {
                        3.0 - f32::from(e % 2)
                    }
                );
            }
        }
        // seed merging: 60/59 empties read the 58/57 tables, <= 10 the 12/11 ones
        assert_eq!(stage_of_empties(2)[60], stage_of_empties(2)[58]);
        assert_eq!(stage_of_empties(1)[3], stage_of_empties(1)[11]);
    }

    #[test]
    fn fit_recovers_a_planted_linear_model() {
        // labels from a known sparse model must be fitted closely
        let mut samples = Vec::new();
        let mut rng = ply_testkit::XorShift64::new(0x2545_F491_4F6C_DD1D);
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
                b.play(rng.pick_bit(moves));
                if (20..=22).contains(&b.empty_count()) {
                    let label = (b.player() & 0x8100_0000_0000_0081).count_ones() as i32 * 8
                        - (b.opponent() & 0x8100_0000_0000_0081).count_ones() as i32 * 8;
                    samples.push(Sample::new(&b, label as i8, false));
                }
            }
        }
        let mut cfg = FitConfig {
            method: Method::Adam,
            ridge: 0.0,
            neighbour_weight: 1.0,
            stage_mask: 1,
            epochs_first: 300,
            epochs: 300,
            lr: 0.5,
            lr_end: 0.01,
            l2: 0.0,
            window: 2,
            quantum: 1,
            plies: 2,
            huber: 0.0,
            robust_rounds: 0,
        };
        let set = PatternSet::edax();
        let train = Batch::new(&set, samples.iter());
        let zero = vec![0f32; set.packed_len()];
        let w = fit_stage(&train, &train, &zero, 300, &cfg, 0, &mut |_| {});
        let mae = train.mae(&w);
        assert!(mae < 0.5, "adam mae {mae}");
        // CGLS reaches the same fit in far fewer steps, and its loss never increases
        cfg.method = Method::Cg;
        cfg.ridge = 1e-3;
        let mut losses = Vec::new();
        let w = fit_stage_cg(&train, &train, &zero, 60, &cfg, 0, &mut |e| {
            losses.push(e.train_mse)
        });
        let mae = train.mae(&w);
        assert!(mae < 0.1, "cg mae {mae}");
        assert!(
            losses.windows(2).all(|l| l[1] <= l[0] * 1.0001 + 1e-6),
            "{losses:?}"
        );
    }
}
