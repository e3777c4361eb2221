//! The float network the trainer fits: (768 -> H) x 2 -> 1 with SCReLU and N output buckets,
//! exactly the arithmetic of the engine's network before rounding (the network layout of `ply_chess_engine::nnue`).
//!
//! All parameters live in one flat `Vec<f32>` (feature weights, feature bias, output weights,
//! output bias, in the order of the network file), so the optimiser, the gradient sums of the
//! threads and the checkpoints treat them as one array. A feature's H weights are contiguous:
//! the forward pass adds about 30 such rows a perspective and the backward pass adds the
//! accumulator's gradient back into the same rows, both loops the compiler vectorises.

use super::dataset::Dataset;
use super::packed::{nibble, RECORD_BYTES};
use ply_batch::rng::SplitMix64;

/// Input features a perspective: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Flag bit of an epoch-order entry: the position is trained mirrored ([`Sparse::mirror`]); the
/// other bits are the record's index, so a data set holds fewer than 2^31 positions.
pub const MIRRORED: u32 = 1 << 31;

/// Centipawns of one unit of the network's output.
pub const SCALE: f32 = 400.0;

/// The shape of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Accumulator width H (a multiple of 16, 16..=2048).
    pub hidden: usize,
    /// Output buckets N (1, 2, 4 or 8).
    pub buckets: usize,
}

impl Shape {
    /// Whether the network file can hold this shape.
    pub fn is_valid(self) -> bool {
        self.hidden.is_multiple_of(16)
            && (16..=2048).contains(&self.hidden)
            && [1, 2, 4, 8].contains(&self.buckets)
    }

    /// Number of parameters.
    pub fn params(self) -> usize {
        INPUTS * self.hidden + self.hidden + 2 * self.hidden * self.buckets + self.buckets
    }

    /// Start of the feature bias in the flat array.
    pub fn ft_bias(self) -> usize {
        INPUTS * self.hidden
    }

    /// Start of the output weights.
    pub fn out_weights(self) -> usize {
        self.ft_bias() + self.hidden
    }

    /// Start of the output biases.
    pub fn out_bias(self) -> usize {
        self.out_weights() + 2 * self.hidden * self.buckets
    }

    /// Output bucket of a position with `pieces` pieces (kings included).
    pub fn bucket(self, pieces: u32) -> usize {
        ((pieces.saturating_sub(2) as usize) / (32 / self.buckets)).min(self.buckets - 1)
    }
}

/// The active features of one position, both perspectives, with its target.
#[derive(Clone, Debug)]
pub struct Sparse {
    /// Feature indices from White's perspective (first `len`).
    pub white: [u16; 32],
    /// Feature indices from Black's perspective (first `len`).
    pub black: [u16; 32],
    /// Number of pieces.
    pub len: usize,
    /// Side to move: 0 White, 1 Black.
    pub stm: usize,
    /// Search score, centipawns, from the side to move's view.
    pub score_stm: f32,
    /// Game result from the side to move's view: 0, 0.5 or 1.
    pub result_stm: f32,
}

impl Sparse {
    /// Features of a record that [`PackedPosition::decode`](super::packed::PackedPosition::decode)
    /// accepted (a [`Dataset`] holds only such records; a bad code is read as code & 7 mod 6).
    #[inline]
    pub fn from_record(rec: &[u8; RECORD_BYTES]) -> Sparse {
        let mut s = Sparse {
            white: [0; 32],
            black: [0; 32],
            len: 0,
            stm: (rec[26] & 1) as usize,
            score_stm: 0.0,
            result_stm: 0.0,
        };
        let mut occ = u64::from_le_bytes([
            rec[0], rec[1], rec[2], rec[3], rec[4], rec[5], rec[6], rec[7],
        ]);
        while occ != 0 && s.len < 32 {
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let code = nibble(rec, s.len) as usize;
            let (colour, role) = (code >> 3, (code & 7) % 6);
            s.white[s.len] = (384 * colour + 64 * role + sq) as u16;
            s.black[s.len] = (384 * (colour ^ 1) + 64 * role + (sq ^ 56)) as u16;
            s.len += 1;
        }
        let score = f32::from(i16::from_le_bytes([rec[24], rec[25]]));
        let white_result = f32::from((rec[26] >> 1) & 3) / 2.0;
        (s.score_stm, s.result_stm) = if s.stm == 0 {
            (score, white_result)
        } else {
            (-score, 1.0 - white_result)
        };
        s
    }

    /// The same position with the files mirrored (a <-> h): every feature's square has its file
    /// bits flipped, which is `index ^ 7` from both perspectives. A chess evaluation is nearly
    /// symmetric under this mirror (castling rights aside, which the features do not see), so a
    /// mirrored position with the same target is a second training example.
    pub fn mirror(&mut self) {
        for f in self.white[..self.len]
            .iter_mut()
            .chain(self.black[..self.len].iter_mut())
        {
            *f ^= 7;
        }
    }

    /// The features of entry `i` of an epoch order (see [`MIRRORED`]): the record's, mirrored
    /// when the entry carries the flag.
    #[inline]
    pub fn of_entry(data: &Dataset, i: u32) -> Sparse {
        let mut s = Sparse::from_record(data.record((i & !MIRRORED) as usize));
        if i & MIRRORED != 0 {
            s.mirror();
        }
        s
    }

    /// Features from the side to move's and the opponent's perspectives.
    #[inline]
    pub fn perspectives(&self) -> (&[u16], &[u16]) {
        let (w, b) = (&self.white[..self.len], &self.black[..self.len]);
        if self.stm == 0 {
            (w, b)
        } else {
            (b, w)
        }
    }
}

/// How a position's target is made: `lambda * sigmoid(score / k) + (1 - lambda) * result`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// Sigmoid scale K, centipawns.
    pub k: f32,
    /// Share of the search score in the target.
    pub lambda: f32,
}

impl Target {
    /// The target of a position.
    #[inline]
    pub fn of(self, s: &Sparse) -> f32 {
        self.lambda * sigmoid(s.score_stm / self.k) + (1.0 - self.lambda) * s.result_stm
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Its shape.
    pub shape: Shape,
    /// All parameters, laid out as [`Shape`]'s offsets say.
    pub params: Vec<f32>,
}

impl Model {
    /// A network with weights drawn uniformly from ±1/sqrt(fan-in) by `seed` (fan-in 768 for
    /// the feature weights, 2H for the output weights), biases 0.
    pub fn new(shape: Shape, seed: u64) -> Model {
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |bound: f32| {
            let u = (rng.next() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * bound
        };
        let mut params = vec![0.0; shape.params()];
        let ft = 1.0 / (INPUTS as f32).sqrt();
        for p in &mut params[..shape.ft_bias()] {
            *p = uniform(ft);
        }
        let out = 1.0 / ((2 * shape.hidden) as f32).sqrt();
        for p in &mut params[shape.out_weights()..shape.out_bias()] {
            *p = uniform(out);
        }
        Model { shape, params }
    }

    /// The accumulator of one perspective: feature bias plus the rows of `features`.
    #[inline(always)]
    fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        let h = self.shape.hidden;
        acc.copy_from_slice(&self.params[self.shape.ft_bias()..self.shape.ft_bias() + h]);
        for &f in features {
            let row = &self.params[f as usize * h..(f as usize + 1) * h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The network's output (in units of [`SCALE`] centipawns) from the two accumulators.
    #[inline(always)]
    fn output(&self, bucket: usize, stm: &[f32], opp: &[f32]) -> f32 {
        let h = self.shape.hidden;
        let w = &self.params[self.shape.out_weights() + 2 * h * bucket..][..2 * h];
        screlu_dot(stm, &w[..h])
            + screlu_dot(opp, &w[h..])
            + self.params[self.shape.out_bias() + bucket]
    }

    /// Evaluation of a position in centipawns from the side to move's view.
    pub fn evaluate(&self, s: &Sparse) -> f32 {
        let h = self.shape.hidden;
        let (mut stm, mut opp) = (vec![0.0; h], vec![0.0; h]);
        let (fs, fo) = s.perspectives();
        self.accumulate(fs, &mut stm);
        self.accumulate(fo, &mut opp);
        self.output(self.shape.bucket(s.len as u32), &stm, &opp) * SCALE
    }

    /// Adds the gradient of the summed loss of the positions `indices` of `data` to `grad`
    /// (same layout as the parameters) and returns the summed loss. With `grad` = `None`
    /// only the loss is computed. The loss of a position is `(sigmoid(eval / k) - target)^2`.
    pub fn gradient(
        &self,
        data: &Dataset,
        indices: &[u32],
        target: Target,
        grad: Option<&mut [f32]>,
    ) -> f64 {
        self.gradient_on(Vector::best(), data, indices, target, grad)
    }

    /// [`Model::gradient`] compiled for the vector width `vector`: every width runs the same
    /// operations in the same order (the dot products keep 8 lanes whatever the register), so
    /// all give the same bits; the tests check it.
    pub(crate) fn gradient_on(
        &self,
        vector: Vector,
        data: &Dataset,
        indices: &[u32],
        target: Target,
        grad: Option<&mut [f32]>,
    ) -> f64 {
        match vector {
            Vector::Portable => self.gradient_body(data, indices, target, grad),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Vector::Avx2` is only made by `Vector::available`, which checked AVX2.
            Vector::Avx2 => unsafe { self.gradient_avx2(data, indices, target, grad) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Vector::Avx512` is only made by `Vector::available`, which checked
            // AVX-512 F and BW.
            Vector::Avx512 => unsafe { self.gradient_avx512(data, indices, target, grad) },
        }
    }

    /// [`Model::gradient_body`] compiled for AVX2 (8 floats a vector instead of 4).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn gradient_avx2(
        &self,
        data: &Dataset,
        indices: &[u32],
        target: Target,
        grad: Option<&mut [f32]>,
    ) -> f64 {
        self.gradient_body(data, indices, target, grad)
    }

    /// [`Model::gradient_body`] compiled for AVX-512 (16 floats a vector).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn gradient_avx512(
        &self,
        data: &Dataset,
        indices: &[u32],
        target: Target,
        grad: Option<&mut [f32]>,
    ) -> f64 {
        self.gradient_body(data, indices, target, grad)
    }

    #[inline(always)]
    fn gradient_body(
        &self,
        data: &Dataset,
        indices: &[u32],
        target: Target,
        mut grad: Option<&mut [f32]>,
    ) -> f64 {
        let shape = self.shape;
        let h = shape.hidden;
        let mut stm = vec![0.0f32; h];
        let mut opp = vec![0.0f32; h];
        let mut d_stm = vec![0.0f32; h];
        let mut d_opp = vec![0.0f32; h];
        let mut loss = 0.0f64;
        for &i in indices {
            let s = Sparse::of_entry(data, i);
            let (fs, fo) = s.perspectives();
            self.accumulate(fs, &mut stm);
            self.accumulate(fo, &mut opp);
            let bucket = shape.bucket(s.len as u32);
            let out = self.output(bucket, &stm, &opp);
            let p = sigmoid(out * SCALE / target.k);
            let err = p - target.of(&s);
            loss += f64::from(err * err);
            let Some(grad) = grad.as_deref_mut() else {
                continue;
            };
            // d loss / d out
            let g = 2.0 * err * p * (1.0 - p) * SCALE / target.k;
            let ow = shape.out_weights() + 2 * h * bucket;
            grad[shape.out_bias() + bucket] += g;
            let w = &self.params[ow..ow + 2 * h];
            let gw = &mut grad[ow..ow + 2 * h];
            backward_output(g, &stm, &w[..h], &mut gw[..h], &mut d_stm);
            backward_output(g, &opp, &w[h..], &mut gw[h..], &mut d_opp);
            let fb = shape.ft_bias();
            for ((gb, a), b) in grad[fb..fb + h].iter_mut().zip(&d_stm).zip(&d_opp) {
                *gb += a + b;
            }
            for (features, d) in [(fs, &d_stm), (fo, &d_opp)] {
                for &f in features {
                    let row = &mut grad[f as usize * h..(f as usize + 1) * h];
                    for (r, x) in row.iter_mut().zip(d.iter()) {
                        *r += x;
                    }
                }
            }
        }
        loss
    }
}

/// The vector width the trainer's gradient is compiled for, narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Vector {
    /// The baseline target (SSE2 on x86-64).
    Portable,
    /// AVX2.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// AVX-512 F and BW.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Vector {
    /// The widths this CPU runs, narrowest first: those up to [`Vector::best`].
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Vector> {
        let all = [
            Vector::Portable,
            #[cfg(target_arch = "x86_64")]
            Vector::Avx2,
            #[cfg(target_arch = "x86_64")]
            Vector::Avx512,
        ];
        let best = Vector::best();
        all.into_iter().filter(|v| *v <= best).collect()
    }

    /// The widest width this CPU runs, asked through the NNUE family's checks
    /// ([`ply_chess_engine::nnue::Kernel::avx2`] and `avx512`; std caches the CPU's answer).
    fn best() -> Vector {
        #[cfg(target_arch = "x86_64")]
        {
            use ply_chess_engine::nnue::Kernel;
            if Kernel::avx512().is_some() {
                return Vector::Avx512;
            }
            if Kernel::avx2().is_some() {
                return Vector::Avx2;
            }
        }
        Vector::Portable
    }
}

/// `sum clamp(acc, 0, 1)^2 * w`, summed in 8 lanes (a fixed order the compiler can vectorise).
#[inline(always)]
fn screlu_dot(acc: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    for (a, w) in acc.chunks_exact(8).zip(w.chunks_exact(8)) {
        for k in 0..8 {
            let x = a[k].clamp(0.0, 1.0);
            lanes[k] += x * x * w[k];
        }
    }
    ((lanes[0] + lanes[4]) + (lanes[1] + lanes[5]))
        + ((lanes[2] + lanes[6]) + (lanes[3] + lanes[7]))
}

/// Output-layer backward pass of one perspective: adds `g * screlu(acc)` to the weights'
/// gradient and writes the accumulator's gradient `g * w * 2 acc` (0 where the clamp is flat).
#[inline(always)]
fn backward_output(g: f32, acc: &[f32], w: &[f32], gw: &mut [f32], d_acc: &mut [f32]) {
    for (((&x, &w), gw), d) in acc.iter().zip(w).zip(gw.iter_mut()).zip(d_acc.iter_mut()) {
        let c = x.clamp(0.0, 1.0);
        *gw += g * c * c;
        *d = if x > 0.0 && x < 1.0 {
            2.0 * g * w * x
        } else {
            0.0
        };
    }
}
