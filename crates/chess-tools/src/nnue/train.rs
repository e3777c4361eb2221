//! The training loop: seeded shuffling, mini-batches split into fixed slices for the threads,
//! AdamW with a stepped learning rate, per-epoch held-out loss, and checkpoints.
//!
//! Determinism: the order of an epoch depends only on the seed and the epoch number; a batch is
//! cut into `threads` fixed slices whose gradients are summed in slice order, so a run gives
//! the same bits for the same seed and thread count, and a run resumed from a checkpoint
//! continues exactly as the uninterrupted run would have.

use super::dataset::Dataset;
use super::model::{Model, Shape, Sparse, Target, MIRRORED};
use super::optim::{schedule, AdamW, OptimState};
use super::quantise::Quantised;
use ply_batch::rng::SplitMix64;
use ply_chess_engine::nnue::fnv1a;
use std::time::Instant;

/// Everything that decides a training run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Network shape.
    pub shape: Shape,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions a batch.
    pub batch: usize,
    /// Threads (slices of a batch).
    pub threads: usize,
    /// Seed of the initial weights and the shuffling.
    pub seed: u64,
    /// Share of the games held out for the validation loss.
    pub val_fraction: f64,
    /// Train each position mirrored (files a <-> h) or not, drawn anew each epoch from the seed:
    /// twice the distinct examples from the same games.
    pub mirror: bool,
    /// How targets are made.
    pub target: Target,
    /// Optimiser settings.
    pub optim: AdamW,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            shape: Shape {
                hidden: 256,
                buckets: 8,
            },
            epochs: 10,
            batch: 16384,
            threads: 1,
            seed: 1,
            val_fraction: 0.01,
            mirror: false,
            target: Target {
                k: 400.0,
                // the search score alone: with a share of the game result the network learns
                // the results of the games it saw (docs/benchmarks/chess-training.md, issue 35
                // generation 0)
                lambda: 1.0,
            },
            optim: AdamW::default(),
        }
    }
}

/// Why training cannot start or resume.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrainError {
    /// A shape the network file cannot hold.
    #[error("hidden size must be a multiple of 16 in 16..=2048 and buckets 1, 2, 4 or 8")]
    Shape,
    /// No training positions after the hold-out.
    #[error("no training positions")]
    NoTraining,
    /// Checkpoint bytes that are not a checkpoint.
    #[error("not a checkpoint file, or a damaged one")]
    Checkpoint,
    /// A checkpoint of another shape or seed, or a starting network of another shape.
    #[error("the checkpoint or starting network was made with {0}")]
    Mismatch(String),
}

/// What one epoch did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch's number (1 for the first).
    pub epoch: u32,
    /// Mean loss of the training positions, each measured before the step it entered.
    pub train_loss: f64,
    /// Mean loss of the held-out positions after the epoch (`None` without any).
    pub val_loss: Option<f64>,
    /// Training positions seen.
    pub positions: u64,
    /// Seconds the epoch took.
    pub seconds: f64,
}

/// A training run in progress: the float model, the optimiser state, epochs done.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// The run's settings.
    pub config: Config,
    /// The float network.
    pub model: Model,
    /// AdamW's moments.
    pub state: OptimState,
    /// Epochs finished.
    pub epoch: u32,
    grads: Vec<Vec<f32>>,
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"PLYNNCK1";

impl Trainer {
    /// A fresh run: weights drawn from the seed.
    ///
    /// # Errors
    /// [`TrainError::Shape`].
    pub fn new(config: Config) -> Result<Trainer, TrainError> {
        if !config.shape.is_valid() {
            return Err(TrainError::Shape);
        }
        let model = Model::new(config.shape, config.seed);
        Ok(Trainer::with(
            config,
            model,
            OptimState::new(config.shape.params()),
            0,
        ))
    }

    /// A fresh run that starts from a network's weights (its rounded values, divided by their
    /// scales) instead of weights drawn from the seed: to fine-tune a network on new data. The
    /// optimiser starts afresh; the seed still draws the shuffling.
    ///
    /// # Errors
    /// [`TrainError::Shape`], or [`TrainError::Mismatch`] when the network has another shape
    /// than `config`.
    pub fn from_network(config: Config, net: &Quantised) -> Result<Trainer, TrainError> {
        if !config.shape.is_valid() {
            return Err(TrainError::Shape);
        }
        if net.shape != config.shape {
            return Err(TrainError::Mismatch(format!(
                "--hidden {} --buckets {}",
                net.shape.hidden, net.shape.buckets
            )));
        }
        Ok(Trainer::with(
            config,
            net.dequantise(),
            OptimState::new(config.shape.params()),
            0,
        ))
    }

    fn with(config: Config, model: Model, state: OptimState, epoch: u32) -> Trainer {
        let grads = vec![vec![0.0; config.shape.params()]; config.threads.max(1)];
        Trainer {
            config,
            model,
            state,
            epoch,
            grads,
        }
    }

    /// The checkpoint: magic `PLYNNCK1`, hidden u32, buckets u32, epochs done u32, optimiser
    /// steps u64, seed u64, then parameters, first and second moments (f32 each), then the
    /// FNV-1a 64 of all bytes before it; little-endian.
    pub fn checkpoint(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(40 + 12 * self.model.params.len() + 8);
        b.extend_from_slice(CHECKPOINT_MAGIC);
        b.extend_from_slice(&(self.config.shape.hidden as u32).to_le_bytes());
        b.extend_from_slice(&(self.config.shape.buckets as u32).to_le_bytes());
        b.extend_from_slice(&self.epoch.to_le_bytes());
        b.extend_from_slice(&self.state.step.to_le_bytes());
        b.extend_from_slice(&self.config.seed.to_le_bytes());
        for part in [&self.model.params, &self.state.m, &self.state.v] {
            for x in part.iter() {
                b.extend_from_slice(&x.to_le_bytes());
            }
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Resumes from checkpoint bytes; `config` must have the checkpoint's shape and seed.
    ///
    /// # Errors
    /// [`TrainError::Checkpoint`] for damaged bytes, [`TrainError::Mismatch`] for another run's.
    pub fn resume(config: Config, bytes: &[u8]) -> Result<Trainer, TrainError> {
        if !config.shape.is_valid() {
            return Err(TrainError::Shape);
        }
        let n = config.shape.params();
        let u32_at = |i: usize| {
            bytes
                .get(i..i + 4)
                .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        };
        let u64_at = |i: usize| {
            bytes.get(i..i + 8).map(|s| {
                let mut a = [0; 8];
                a.copy_from_slice(s);
                u64::from_le_bytes(a)
            })
        };
        if bytes.len() < 48 || &bytes[..8] != CHECKPOINT_MAGIC {
            return Err(TrainError::Checkpoint);
        }
        let (hidden, buckets) = (
            u32_at(8).unwrap_or(0) as usize,
            u32_at(12).unwrap_or(0) as usize,
        );
        let seed = u64_at(28).unwrap_or(0);
        if hidden != config.shape.hidden || buckets != config.shape.buckets || seed != config.seed {
            return Err(TrainError::Mismatch(format!(
                "--hidden {hidden} --buckets {buckets} --seed {seed}"
            )));
        }
        if bytes.len() != 36 + 12 * n + 8
            || u64_at(bytes.len() - 8) != Some(fnv1a(&bytes[..bytes.len() - 8]))
        {
            return Err(TrainError::Checkpoint);
        }
        let floats: Vec<f32> = bytes[36..36 + 12 * n]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let model = Model {
            shape: config.shape,
            params: floats[..n].to_vec(),
        };
        let state = OptimState {
            m: floats[n..2 * n].to_vec(),
            v: floats[2 * n..].to_vec(),
            step: u64_at(20).unwrap_or(0),
        };
        Ok(Trainer::with(config, model, state, u32_at(16).unwrap_or(0)))
    }

    /// The order of the training positions in epoch `epoch` (0-based): a Fisher-Yates shuffle
    /// of `train` drawn from the seed and the epoch; with [`Config::mirror`], each entry then
    /// gets the [`MIRRORED`] flag on a coin toss of the same stream.
    pub fn epoch_order(&self, train: &[u32], epoch: u32) -> Vec<u32> {
        let mut order = train.to_vec();
        let mut rng = SplitMix64::new(ply_batch::splitmix(self.config.seed) ^ u64::from(epoch));
        for i in (1..order.len()).rev() {
            let j = ((u128::from(rng.next()) * (i as u128 + 1)) >> 64) as usize;
            order.swap(i, j);
        }
        if self.config.mirror {
            for entry in order.iter_mut() {
                if rng.next() >> 63 != 0 {
                    *entry |= MIRRORED;
                }
            }
        }
        order
    }

    /// Trains one epoch on the positions `train` of `data`, then measures the loss of `held`;
    /// `progress` gets the positions done in the epoch after each batch.
    ///
    /// # Errors
    /// [`TrainError::NoTraining`] when `train` is empty.
    pub fn run_epoch(
        &mut self,
        data: &Dataset,
        train: &[u32],
        held: &[u32],
        mut progress: impl FnMut(u64),
    ) -> Result<EpochReport, TrainError> {
        if train.is_empty() {
            return Err(TrainError::NoTraining);
        }
        let start = Instant::now();
        let order = self.epoch_order(train, self.epoch);
        let batch = self.config.batch.max(1);
        let batches = order.len().div_ceil(batch);
        let total = f64::from(self.config.epochs.max(1)) * batches as f64;
        let mut loss = 0.0;
        for (b, idx) in order.chunks(batch).enumerate() {
            loss += self.gradient(data, idx);
            let done = (f64::from(self.epoch) * batches as f64 + b as f64) / total;
            let lr = self.config.optim.lr * schedule(done);
            let (grad, _) = self.grads.split_at_mut(1);
            self.config.optim.step(
                self.config.shape,
                &mut self.model.params,
                &grad[0],
                &mut self.state,
                lr,
            );
            progress(((b + 1) * batch).min(order.len()) as u64);
        }
        self.epoch += 1;
        Ok(EpochReport {
            epoch: self.epoch,
            train_loss: loss / order.len() as f64,
            val_loss: (!held.is_empty()).then(|| self.loss(data, held)),
            positions: order.len() as u64,
            seconds: start.elapsed().as_secs_f64(),
        })
    }

    /// Sums the gradient of the batch `idx` into `grads[0]` (scaled to the batch's mean loss)
    /// and returns the batch's summed loss.
    fn gradient(&mut self, data: &Dataset, idx: &[u32]) -> f64 {
        let model = &self.model;
        let target = self.config.target;
        let size = idx.len().div_ceil(self.grads.len()).max(1);
        let losses: Vec<f64> = std::thread::scope(|scope| {
            let handles: Vec<_> = idx
                .chunks(size)
                .zip(self.grads.iter_mut())
                .map(|(slice, grad)| {
                    grad.fill(0.0);
                    scope.spawn(move || model.gradient(data, slice, target, Some(grad)))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or(f64::NAN))
                .collect()
        });
        let used = idx.len().div_ceil(size);
        let (first, rest) = self.grads.split_at_mut(1);
        for other in &rest[..used - 1] {
            for (g, o) in first[0].iter_mut().zip(other.iter()) {
                *g += o;
            }
        }
        let scale = 1.0 / idx.len() as f32;
        for g in first[0].iter_mut() {
            *g *= scale;
        }
        losses.iter().sum()
    }

    /// Mean loss of the positions `idx`, computed on the threads in fixed slices.
    pub fn loss(&self, data: &Dataset, idx: &[u32]) -> f64 {
        if idx.is_empty() {
            return 0.0;
        }
        let size = idx.len().div_ceil(self.config.threads.max(1)).max(1);
        let (model, target) = (&self.model, self.config.target);
        let losses: Vec<f64> = std::thread::scope(|scope| {
            let handles: Vec<_> = idx
                .chunks(size)
                .map(|slice| scope.spawn(move || model.gradient(data, slice, target, None)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or(f64::NAN))
                .collect()
        });
        losses.iter().sum::<f64>() / idx.len() as f64
    }
}

/// How far the quantised network is from the float one, in two measures: against the float
/// model itself (what rounding costs: with format v1's QB = 64 it was about 10 cp on average
/// for a trained 256-wide network, each output weight moving by up to 1/128; with QB = 1024 a
/// sixteenth of that), and against the float
/// model evaluated with the rounded weights (what the integer arithmetic adds: only the
/// truncating divisions, under 1 cp, unless an i32 sum wraps or the layouts disagree).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct QuantCheck {
    /// Positions compared.
    pub positions: usize,
    /// Mean |float - integer| evaluation, centipawns.
    pub mean: f64,
    /// Largest |float - integer| evaluation, centipawns.
    pub max: f64,
    /// Largest |float with rounded weights - integer| evaluation, centipawns.
    pub arithmetic_max: f64,
}

impl QuantCheck {
    /// Largest difference between the integer evaluation and the float evaluation with the
    /// rounded weights that [`QuantCheck::passes`] allows, centipawns.
    pub const ARITHMETIC_TOLERANCE: f64 = 2.0;

    /// Compares the evaluations on the positions `idx` of `data`.
    pub fn measure(model: &Model, net: &Quantised, data: &Dataset, idx: &[u32]) -> QuantCheck {
        let rounded = net.dequantise();
        let mut check = QuantCheck::default();
        let mut sum = 0.0;
        for &i in idx {
            let s = Sparse::from_record(data.record(i as usize));
            let int = f64::from(net.evaluate(&s));
            let d = (f64::from(model.evaluate(&s)) - int).abs();
            sum += d;
            check.max = check.max.max(d);
            let a = (f64::from(rounded.evaluate(&s)) - int).abs();
            check.arithmetic_max = check.arithmetic_max.max(a);
            check.positions += 1;
        }
        check.mean = if check.positions > 0 {
            sum / check.positions as f64
        } else {
            0.0
        };
        check
    }

    /// Whether the integer arithmetic stays within [`Self::ARITHMETIC_TOLERANCE`] of the float
    /// arithmetic on the same (rounded) weights.
    pub fn passes(&self) -> bool {
        self.arithmetic_max <= Self::ARITHMETIC_TOLERANCE
    }
}
