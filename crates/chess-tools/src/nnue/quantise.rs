//! The quantised network: rounding of the float model, the `PLYNNUE2` file, and the integer
//! evaluation of the network layout of `ply_chess_engine::nnue` (the trainer's reference for the engine's inference).

use super::model::{Model, Shape, Sparse, INPUTS};
use ply_chess_engine::nnue::fnv1a;

/// Feature-layer scale.
pub const QA: i32 = 255;
/// Output-layer scale.
pub const QB: i32 = 1024;
/// Right shift of each output term `v * v * w`.
pub const OUTPUT_SHIFT: u32 = 8;
/// Scale of the output bias and unit of the output sum: `QA * QA * QB >> OUTPUT_SHIFT`.
pub const OUTPUT_DIVISOR: i32 = (QA * QA * QB) >> OUTPUT_SHIFT;
/// Centipawns of one output unit.
pub const SCALE: i32 = 400;
/// Magic bytes of the file.
pub const MAGIC: &[u8; 8] = b"PLYNNUE2";
/// Activation code of SCReLU.
const SCRELU: u32 = 1;
/// Header bytes.
const HEADER: usize = 32;

/// Why bytes are not a network file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// Shorter than a header.
    #[error("file too short ({0} bytes)")]
    Short(usize),
    /// Other magic bytes.
    #[error("not a PLYNNUE2 file")]
    Magic,
    /// A header field out of its range.
    #[error("bad header field {field} = {value}")]
    Header {
        /// The field's name.
        field: &'static str,
        /// Its value.
        value: u32,
    },
    /// A length other than the header says.
    #[error("length {got}, the header implies {want}")]
    Length {
        /// Length of the bytes.
        got: usize,
        /// Length the header implies.
        want: usize,
    },
    /// The checksum does not match.
    #[error("checksum mismatch")]
    Checksum,
}

/// The integer network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quantised {
    /// Its shape.
    pub shape: Shape,
    /// Feature weights, feature-major, times QA.
    pub ft_weights: Vec<i16>,
    /// Feature bias, times QA.
    pub ft_bias: Vec<i16>,
    /// Output weights `[bucket][2H]`, times QB.
    pub out_weights: Vec<i16>,
    /// Output biases, times [`OUTPUT_DIVISOR`].
    pub out_bias: Vec<i32>,
}

fn round(x: f32, scale: i32) -> i16 {
    (x * scale as f32)
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

impl Quantised {
    /// Rounds the float model (weights are saturated to i16, which the trainer's clipping keeps
    /// them inside; the output biases are i32).
    pub fn from_model(model: &Model) -> Quantised {
        let s = model.shape;
        let p = &model.params;
        let q = |r: std::ops::Range<usize>, scale| p[r].iter().map(|&x| round(x, scale)).collect();
        Quantised {
            shape: s,
            ft_weights: q(0..s.ft_bias(), QA),
            ft_bias: q(s.ft_bias()..s.out_weights(), QA),
            out_weights: q(s.out_weights()..s.out_bias(), QB),
            out_bias: p[s.out_bias()..s.params()]
                .iter()
                .map(|&x| {
                    (f64::from(x) * f64::from(OUTPUT_DIVISOR))
                        .round()
                        .clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
                })
                .collect(),
        }
    }

    /// The float model with these (rounded) weights: each value divided by its scale.
    pub fn dequantise(&self) -> Model {
        let mut params = Vec::with_capacity(self.shape.params());
        for (part, scale) in [
            (&self.ft_weights, QA),
            (&self.ft_bias, QA),
            (&self.out_weights, QB),
        ] {
            params.extend(part.iter().map(|&x| f32::from(x) / scale as f32));
        }
        params.extend(
            self.out_bias
                .iter()
                .map(|&x| (f64::from(x) / f64::from(OUTPUT_DIVISOR)) as f32),
        );
        Model {
            shape: self.shape,
            params,
        }
    }

    /// The file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b =
            Vec::with_capacity(HEADER + 2 * self.shape.params() + 2 * self.shape.buckets + 8);
        b.extend_from_slice(MAGIC);
        for x in [
            self.shape.hidden as u32,
            self.shape.buckets as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
            SCRELU,
        ] {
            b.extend_from_slice(&x.to_le_bytes());
        }
        for part in [&self.ft_weights, &self.ft_bias, &self.out_weights] {
            for x in part.iter() {
                b.extend_from_slice(&x.to_le_bytes());
            }
        }
        for x in &self.out_bias {
            b.extend_from_slice(&x.to_le_bytes());
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a file, checking the header, the length and the checksum.
    ///
    /// # Errors
    /// A [`NetworkError`]; never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Quantised, NetworkError> {
        if bytes.len() < HEADER {
            return Err(NetworkError::Short(bytes.len()));
        }
        if &bytes[..8] != MAGIC {
            return Err(NetworkError::Magic);
        }
        let field = |i: usize| {
            u32::from_le_bytes([
                bytes[8 + 4 * i],
                bytes[9 + 4 * i],
                bytes[10 + 4 * i],
                bytes[11 + 4 * i],
            ])
        };
        let shape = Shape {
            hidden: field(0) as usize,
            buckets: field(1) as usize,
        };
        let names = ["hidden", "buckets", "QA", "QB", "SCALE", "activation"];
        let want = [
            None,
            None,
            Some(QA as u32),
            Some(QB as u32),
            Some(SCALE as u32),
            Some(SCRELU),
        ];
        for (i, (name, want)) in names.iter().zip(want).enumerate() {
            let bad = match want {
                Some(w) => field(i) != w,
                None => !shape.is_valid(),
            };
            if bad {
                return Err(NetworkError::Header {
                    field: name,
                    value: field(i),
                });
            }
        }
        // Every parameter an i16 but the N output biases, which are i32.
        let want = HEADER + 2 * shape.params() + 2 * shape.buckets + 8;
        if bytes.len() != want {
            return Err(NetworkError::Length {
                got: bytes.len(),
                want,
            });
        }
        let body = &bytes[..want - 8];
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&bytes[want - 8..]);
        if fnv1a(body) != u64::from_le_bytes(sum) {
            return Err(NetworkError::Checksum);
        }
        let bias_at = want - 8 - 4 * shape.buckets;
        let mut values = body[HEADER..bias_at]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
        Ok(Quantised {
            shape,
            ft_weights: take(INPUTS * shape.hidden),
            ft_bias: take(shape.hidden),
            out_weights: take(2 * shape.hidden * shape.buckets),
            out_bias: body[bias_at..]
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        })
    }

    fn accumulate(&self, features: &[u16]) -> Vec<i16> {
        let h = self.shape.hidden;
        let mut acc = self.ft_bias.clone();
        for &f in features {
            for (a, &w) in acc.iter_mut().zip(&self.ft_weights[f as usize * h..][..h]) {
                *a = a.wrapping_add(w);
            }
        }
        acc
    }

    /// The integer evaluation, centipawns from the side to move's view, step by step as the
    /// spec writes it (i16 accumulators, exact i32 terms `(v * v * w) >> 8`, a wrapping i32
    /// sum, the last step in i64 with a truncating division).
    pub fn evaluate(&self, s: &Sparse) -> i32 {
        let h = self.shape.hidden;
        let (fs, fo) = s.perspectives();
        let bucket = self.shape.bucket(s.len as u32);
        let w = &self.out_weights[2 * h * bucket..][..2 * h];
        let mut sum = 0i32;
        for (acc, w) in [
            (self.accumulate(fs), &w[..h]),
            (self.accumulate(fo), &w[h..]),
        ] {
            for (&a, &w) in acc.iter().zip(w) {
                let v = i32::from(a.clamp(0, QA as i16));
                sum = sum.wrapping_add((v * v * i32::from(w)) >> OUTPUT_SHIFT);
            }
        }
        ((i64::from(sum) + i64::from(self.out_bias[bucket])) * i64::from(SCALE)
            / i64::from(OUTPUT_DIVISOR)) as i32
    }
}
