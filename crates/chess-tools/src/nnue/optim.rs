//! AdamW (Loshchilov and Hutter, "Decoupled Weight Decay Regularization", 2019) over the flat
//! parameter array, the learning-rate schedule, and the clipping that keeps the quantised
//! weights in range (the network layout of `ply_chess_engine::nnue`).

use super::model::Shape;

/// Largest magnitude of a feature weight or bias (times QA = 255 it stays within i16 sums).
pub const FT_CLIP: f32 = 1.98;
/// Largest magnitude of an output weight (times QB = 1024 it is at most 2032, well inside i16).
pub const OUT_CLIP: f32 = 127.0 / 64.0;

/// AdamW's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamW {
    /// Base learning rate.
    pub lr: f32,
    /// Decay of the first moment.
    pub beta1: f32,
    /// Decay of the second moment.
    pub beta2: f32,
    /// Added to the root of the second moment.
    pub eps: f32,
    /// Decoupled weight decay (a share of the learning rate).
    pub weight_decay: f32,
}

impl Default for AdamW {
    fn default() -> AdamW {
        AdamW {
            lr: 0.001,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.01,
        }
    }
}

/// The optimiser's moving state: both moments of every parameter and the step count.
#[derive(Clone, Debug, PartialEq)]
pub struct OptimState {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken.
    pub step: u64,
}

impl OptimState {
    /// Zero moments for `len` parameters.
    pub fn new(len: usize) -> OptimState {
        OptimState {
            m: vec![0.0; len],
            v: vec![0.0; len],
            step: 0,
        }
    }
}

/// The learning-rate factor at `progress` (0 at the start of training, 1 at its end): 1, then
/// 0.3 from 70 %, then 0.09 from 90 %.
pub fn schedule(progress: f64) -> f32 {
    if progress >= 0.9 {
        0.09
    } else if progress >= 0.7 {
        0.3
    } else {
        1.0
    }
}

impl AdamW {
    /// One step on `params` with gradient `grad` and learning rate `lr`, then the clipping.
    pub fn step(
        &self,
        shape: Shape,
        params: &mut [f32],
        grad: &[f32],
        state: &mut OptimState,
        lr: f32,
    ) {
        state.step += 1;
        let t = state.step.min(i32::MAX as u64) as i32;
        let c1 = 1.0 - self.beta1.powi(t);
        let c2 = 1.0 - self.beta2.powi(t);
        let out = shape.out_weights()..shape.out_bias();
        for (i, (((p, &g), m), v)) in params
            .iter_mut()
            .zip(grad)
            .zip(state.m.iter_mut())
            .zip(state.v.iter_mut())
            .enumerate()
        {
            *m = self.beta1 * *m + (1.0 - self.beta1) * g;
            *v = self.beta2 * *v + (1.0 - self.beta2) * g * g;
            let update = (*m / c1) / ((*v / c2).sqrt() + self.eps);
            *p -= lr * (update + self.weight_decay * *p);
            let clip = if out.contains(&i) {
                OUT_CLIP
            } else if i >= shape.out_bias() {
                f32::INFINITY
            } else {
                FT_CLIP
            };
            *p = p.clamp(-clip, clip);
        }
    }
}
