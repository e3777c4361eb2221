//! The network's weights, its file format (read with checks, written back byte for byte) and the
//! plain scalar forward pass that every faster path is compared against.

use super::feature::{feature_index, output_bucket, FEATURES};
use ply_chess::{Color, Position, Role};
use std::fmt;

/// The first eight bytes of a network file of the current format (v2), the one written.
pub const MAGIC: [u8; 8] = *b"PLYNNUE2";
/// The first eight bytes of a format-v1 file (still read, converted to v2 on loading).
pub const MAGIC_V1: [u8; 8] = *b"PLYNNUE1";
/// Quantisation of the feature layer (weights and bias are `round(x * QA)`); also the SCReLU clip.
pub const QA: i32 = 255;
/// Quantisation of the output weights of format v2 (`round(x * QB)`).
pub const QB: i32 = 1024;
/// Quantisation of the output weights of format v1.
pub const QB_V1: i32 = 64;
/// Each output term `v * v * w` is shifted right by this many bits before it is summed, so that
/// no `i32` product overflows and the sum of a trained network stays far from the limits.
pub const OUTPUT_SHIFT: u32 = 8;
/// The output sum's unit: `QA * QA * QB >> OUTPUT_SHIFT` (260,100) is one unit of the float
/// model's output; the output bias is stored at this scale.
pub const OUTPUT_DIVISOR: i32 = (QA * QA * QB) >> OUTPUT_SHIFT;
/// Centipawns per unit of the float model's output.
pub const SCALE: i32 = 400;
/// The activation code of SCReLU, the only one of both formats.
pub const ACTIVATION_SCRELU: u32 = 1;

/// Bytes of the fixed header (magic and six `u32` fields).
const HEADER: usize = 32;
/// Bytes of the trailing checksum.
const CHECKSUM: usize = 8;
/// Hidden sizes a file may declare: a multiple of 16 (one AVX2 register of `i16`) in this range.
const HIDDEN_MIN: usize = 16;
const HIDDEN_MAX: usize = 2048;
/// FNV-1a 64 parameters.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Why bytes are not a network (see the module docs of `nnue` for the format).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NnueError {
    /// Fewer bytes than the header, or than the sizes in the header require.
    #[error("network file truncated: {actual} bytes, {expected} needed")]
    Truncated {
        /// Bytes required.
        expected: usize,
        /// Bytes given.
        actual: usize,
    },
    /// More bytes than the sizes in the header account for.
    #[error("network file too long: {actual} bytes, {expected} expected")]
    TrailingBytes {
        /// Bytes expected.
        expected: usize,
        /// Bytes given.
        actual: usize,
    },
    /// The file starts with neither `PLYNNUE2` nor `PLYNNUE1`.
    #[error("not a ply network file (bad magic)")]
    BadMagic,
    /// The hidden size is not a multiple of 16 in 16..=2048.
    #[error("hidden size {0} unsupported (a multiple of 16 from 16 to 2048)")]
    BadHidden(u64),
    /// The bucket count is not 1, 2, 4 or 8.
    #[error("output bucket count {0} unsupported (1, 2, 4 or 8)")]
    BadBuckets(u64),
    /// A header constant (QA, QB, SCALE, activation) differs from its format's.
    #[error("header field {field} is {found}, format v{version} requires {expected}")]
    BadConstant {
        /// The field's name.
        field: &'static str,
        /// The format version the magic names (1 or 2).
        version: u32,
        /// The value the format requires.
        expected: u32,
        /// The value in the file.
        found: u32,
    },
    /// The FNV-1a 64 checksum does not match the contents.
    #[error("network checksum mismatch: stored {stored:#018x}, computed {computed:#018x}")]
    Checksum {
        /// The checksum at the end of the file.
        stored: u64,
        /// The checksum of the bytes before it.
        computed: u64,
    },
}

/// A network `(768 -> H) x 2 -> 1` with `N` output buckets, weights owned, held in format v2's
/// quantisation (a v1 file is converted when read).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    buckets: usize,
    /// `[768][H]`: input `f`'s weights at `f * H .. (f + 1) * H`.
    feature_weights: Vec<i16>,
    /// `[H]`.
    feature_bias: Vec<i16>,
    /// `[N][2H]`: per bucket, the side to move's `H` weights, then the opponent's.
    output_weights: Vec<i16>,
    /// `[N]`, at the scale [`OUTPUT_DIVISOR`].
    output_bias: Vec<i32>,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network {{ hidden: {}, buckets: {} }}",
            self.hidden, self.buckets
        )
    }
}

/// The checksum a network file ends with: FNV-1a 64 of `bytes` (every byte before it). Tools
/// that write network or checkpoint files use this one definition.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(FNV_PRIME)
    })
}

/// The file length a header with these sizes requires in format `version` (1 or 2): v1 stores
/// the output biases as `i16`, v2 as `i32`.
fn file_len(version: u32, hidden: usize, buckets: usize) -> usize {
    let bias = if version == 1 { 2 } else { 4 };
    HEADER + 2 * (FEATURES * hidden + hidden + 2 * hidden * buckets) + bias * buckets + CHECKSUM
}

/// Little-endian `u32` at `at`; the caller has checked the length.
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    if let Some(s) = bytes.get(at..at + 4) {
        b.copy_from_slice(s);
    }
    u32::from_le_bytes(b)
}

/// Checks a hidden size and bucket count against the format's limits.
fn check_shape(hidden: u64, buckets: u64) -> Result<(usize, usize), NnueError> {
    let h = usize::try_from(hidden).unwrap_or(usize::MAX);
    if !(HIDDEN_MIN..=HIDDEN_MAX).contains(&h) || !h.is_multiple_of(16) {
        return Err(NnueError::BadHidden(hidden));
    }
    if !matches!(buckets, 1 | 2 | 4 | 8) {
        return Err(NnueError::BadBuckets(buckets));
    }
    Ok((h, buckets as usize))
}

/// Reads `n` little-endian `i16` from `bytes` at `*at` and advances `*at`; the caller has checked
/// the length (a short slice reads as zeros rather than panicking).
fn read_i16s(bytes: &[u8], at: &mut usize, n: usize) -> Vec<i16> {
    let slice = bytes.get(*at..*at + 2 * n).unwrap_or(&[]);
    *at += 2 * n;
    let mut v: Vec<i16> = slice
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    v.resize(n, 0);
    v
}

/// SplitMix64 (Steele, Lea, Flood 2014) for [`Network::random`], as `ply_chess` makes its
/// Zobrist keys: the engine library depends neither on the test kit nor on `ply_batch`.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `-bound..=bound` (the tiny modulo bias does not matter here).
    fn within(&mut self, bound: i32) -> i32 {
        let span = 2 * i64::from(bound) + 1;
        (self.next() % span as u64) as i32 - bound
    }
}

/// Reads `n` little-endian `i32` from `bytes` at `*at`, as [`read_i16s`] does `i16`.
fn read_i32s(bytes: &[u8], at: &mut usize, n: usize) -> Vec<i32> {
    let slice = bytes.get(*at..*at + 4 * n).unwrap_or(&[]);
    *at += 4 * n;
    let mut v: Vec<i32> = slice
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    v.resize(n, 0);
    v
}

/// One output term of format v2: `(v * v * w) >> OUTPUT_SHIFT` with `v` the clipped
/// accumulator. `v * v * w` fits `i32` for every `i16` weight (`255^2 * 32768 < 2^31`).
#[inline(always)]
pub(crate) fn output_term(a: i16, w: i16) -> i32 {
    let v = i32::from(a.clamp(0, QA as i16));
    (v * v * i32::from(w)) >> OUTPUT_SHIFT
}

impl Network {
    /// Reads a network file (format in the `nnue` module docs), checking the length, the magic,
    /// every header field and the checksum. A v1 file is converted to v2's quantisation: output
    /// weights times 16 (saturating), output biases times 255/16 (rounded); its evaluations
    /// then differ from v1's formula by the rounding only (about a centipawn).
    ///
    /// # Errors
    /// An [`NnueError`] naming the first thing wrong; no input makes it panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NnueError> {
        if bytes.len() < HEADER + CHECKSUM {
            return Err(NnueError::Truncated {
                expected: HEADER + CHECKSUM,
                actual: bytes.len(),
            });
        }
        let version = if bytes[..8] == MAGIC {
            2
        } else if bytes[..8] == MAGIC_V1 {
            1
        } else {
            return Err(NnueError::BadMagic);
        };
        let (hidden, buckets) =
            check_shape(u64::from(u32_at(bytes, 8)), u64::from(u32_at(bytes, 12)))?;
        let qb = if version == 1 { QB_V1 } else { QB };
        for (field, at, expected) in [
            ("QA", 16, QA as u32),
            ("QB", 20, qb as u32),
            ("SCALE", 24, SCALE as u32),
            ("activation", 28, ACTIVATION_SCRELU),
        ] {
            let found = u32_at(bytes, at);
            if found != expected {
                return Err(NnueError::BadConstant {
                    field,
                    version,
                    expected,
                    found,
                });
            }
        }
        let expected = file_len(version, hidden, buckets);
        if bytes.len() < expected {
            return Err(NnueError::Truncated {
                expected,
                actual: bytes.len(),
            });
        }
        if bytes.len() > expected {
            return Err(NnueError::TrailingBytes {
                expected,
                actual: bytes.len(),
            });
        }
        let body = expected - CHECKSUM;
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&bytes[body..]);
        let stored = u64::from_le_bytes(stored);
        let computed = fnv1a(&bytes[..body]);
        if stored != computed {
            return Err(NnueError::Checksum { stored, computed });
        }
        let mut at = HEADER;
        let feature_weights = read_i16s(bytes, &mut at, FEATURES * hidden);
        let feature_bias = read_i16s(bytes, &mut at, hidden);
        let mut output_weights = read_i16s(bytes, &mut at, 2 * hidden * buckets);
        let output_bias = if version == 1 {
            for w in &mut output_weights {
                *w = w.saturating_mul((QB / QB_V1) as i16);
            }
            // v1: eval = (s1 / QA + b1) * SCALE / (QA * QB_V1) with s1 = sum v * v * w1; in v2
            // units s2 = s1 * 16 / 256 = s1 / 16, so b2 = b1 * QA / 16.
            read_i16s(bytes, &mut at, buckets)
                .into_iter()
                .map(|b| (f64::from(b) * f64::from(QA) / 16.0).round() as i32)
                .collect()
        } else {
            read_i32s(bytes, &mut at, buckets)
        };
        Ok(Network {
            hidden,
            buckets,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// The built-in network ([`super::EMBEDDED`]). A test checks that its bytes read; if they
    /// ever did not, this would be the hand-made evaluation's cue: `None`.
    pub fn embedded() -> Option<Network> {
        Network::from_bytes(super::EMBEDDED).ok()
    }

    /// The network as a format-v2 file ([`Network::from_bytes`] of it gives it back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len(2, self.hidden, self.buckets));
        out.extend_from_slice(&MAGIC);
        for field in [
            self.hidden as u32,
            self.buckets as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
            ACTIVATION_SCRELU,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        for part in [
            &self.feature_weights,
            &self.feature_bias,
            &self.output_weights,
        ] {
            for w in part.iter() {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// A network of seeded random weights, for tests and benchmarks only (it plays nonsense):
    /// feature weights and bias in `-127..=127`, output weights in `-2032..=2032` (the
    /// trainer's clip), output biases in `-OUTPUT_DIVISOR / 4..=OUTPUT_DIVISOR / 4`. The same
    /// arguments always give the same network.
    ///
    /// # Errors
    /// [`NnueError::BadHidden`] or [`NnueError::BadBuckets`] for a shape no file could have.
    pub fn random(hidden: usize, buckets: usize, seed: u64) -> Result<Network, NnueError> {
        let (hidden, buckets) = check_shape(hidden as u64, buckets as u64)?;
        let mut rng = SplitMix(seed);
        let mut fill = |n: usize, bound: i32| (0..n).map(|_| rng.within(bound) as i16).collect();
        Ok(Network {
            hidden,
            buckets,
            feature_weights: fill(FEATURES * hidden, 127),
            feature_bias: fill(hidden, 127),
            output_weights: fill(2 * hidden * buckets, 2032),
            output_bias: (0..buckets)
                .map(|_| rng.within(OUTPUT_DIVISOR / 4))
                .collect(),
        })
    }

    /// Hidden units per perspective (`H`).
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets (`N`).
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The bucket `pos` is evaluated with.
    pub fn bucket(&self, pos: &Position) -> usize {
        output_bucket(pos.occupied().count(), self.buckets)
    }

    /// The evaluation of `pos` in centipawns from the side to move's point of view, computed
    /// the plain way: both accumulators from scratch, then the output in scalar code. The
    /// reference that the incremental and SIMD paths must match bit for bit.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let h = self.hidden;
        let acc = self.accumulators(pos);
        let stm = pos.side_to_move();
        let b = self.bucket(pos);
        let weights = &self.output_weights[2 * h * b..2 * h * (b + 1)];
        let mut s: i32 = 0;
        for (half, side) in [stm, !stm].into_iter().enumerate() {
            for (&a, &w) in acc[side.index()].iter().zip(&weights[half * h..]) {
                s = s.wrapping_add(output_term(a, w));
            }
        }
        self.finish(s, b)
    }

    /// Both perspectives' accumulators of `pos` from scratch (White's, then Black's): the bias
    /// plus the weight rows of every active input, wrapping `i16`.
    fn accumulators(&self, pos: &Position) -> [Vec<i16>; 2] {
        let h = self.hidden;
        let mut acc = [self.feature_bias.clone(), self.feature_bias.clone()];
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in pos.pieces(color, role) {
                    for p in Color::ALL {
                        let f = feature_index(p, color, role, sq);
                        let row = &self.feature_weights[f * h..(f + 1) * h];
                        for (a, &w) in acc[p.index()].iter_mut().zip(row) {
                            *a = a.wrapping_add(w);
                        }
                    }
                }
            }
        }
        acc
    }

    /// The last step of the output: `(s + bias) * SCALE / OUTPUT_DIVISOR` in `i64` (no
    /// overflow for any sum and bias), truncating toward zero.
    #[inline(always)]
    pub(crate) fn finish(&self, s: i32, bucket: usize) -> i32 {
        let bias = i64::from(self.output_bias[bucket]);
        ((i64::from(s) + bias) * i64::from(SCALE) / i64::from(OUTPUT_DIVISOR)) as i32
    }

    /// `[768][H]` feature weights.
    #[inline(always)]
    pub(crate) fn feature_weights(&self) -> &[i16] {
        &self.feature_weights
    }

    /// `[H]` feature bias.
    #[inline(always)]
    pub(crate) fn feature_bias(&self) -> &[i16] {
        &self.feature_bias
    }

    /// The `2H` output weights of `bucket`.
    #[inline(always)]
    pub(crate) fn output_weights(&self, bucket: usize) -> &[i16] {
        let n = 2 * self.hidden;
        &self.output_weights[n * bucket..n * (bucket + 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Network {
        Network::random(32, 4, 7).unwrap()
    }

    #[test]
    fn round_trip() {
        let net = sample();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_len(2, 32, 4));
        assert_eq!(&bytes[..8], b"PLYNNUE2");
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!((back.hidden(), back.buckets()), (32, 4));
    }

    #[test]
    fn random_is_deterministic_and_checks_its_shape() {
        assert_eq!(sample(), sample());
        assert_ne!(sample(), Network::random(32, 4, 8).unwrap());
        assert_eq!(Network::random(24, 4, 1), Err(NnueError::BadHidden(24)));
        assert_eq!(Network::random(0, 4, 1), Err(NnueError::BadHidden(0)));
        assert_eq!(Network::random(4096, 4, 1), Err(NnueError::BadHidden(4096)));
        assert_eq!(Network::random(32, 3, 1), Err(NnueError::BadBuckets(3)));
    }

    /// The bytes with the checksum recomputed, so that a header change is seen as such.
    fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let body = bytes.len() - CHECKSUM;
        let sum = fnv1a(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
        bytes
    }

    #[test]
    fn every_malformed_file_is_an_error() {
        let good = sample().to_bytes();
        // Every truncation, including the empty file.
        for len in 0..good.len() {
            assert!(Network::from_bytes(&good[..len]).is_err(), "length {len}");
        }
        let mut long = good.clone();
        long.push(0);
        assert!(matches!(
            Network::from_bytes(&long),
            Err(NnueError::TrailingBytes { .. })
        ));
        let mut magic = good.clone();
        magic[7] = b'3';
        assert_eq!(Network::from_bytes(&magic), Err(NnueError::BadMagic));
        // Each header field set to a wrong value (sealed with a correct checksum).
        for (at, value) in [
            (8, 24u32),
            (8, 0),
            (8, 4096),
            (8, u32::MAX),
            (12, 3),
            (12, 0),
            (12, 16),
            (16, 256),
            (20, 32),
            (24, 100),
            (28, 0),
            (28, 2),
        ] {
            let mut bad = good.clone();
            bad[at..at + 4].copy_from_slice(&value.to_le_bytes());
            let err = Network::from_bytes(&resealed(bad));
            assert!(err.is_err(), "field at {at} = {value}");
            assert!(!matches!(err, Err(NnueError::Checksum { .. })));
        }
        // A header declaring a larger network than the bytes hold.
        let mut bigger = good.clone();
        bigger[8..12].copy_from_slice(&64u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&resealed(bigger)),
            Err(NnueError::Truncated { .. })
        ));
        // One flipped bit anywhere in the body or the checksum.
        for at in [40, good.len() / 2, good.len() - 9, good.len() - 1] {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            assert!(
                matches!(Network::from_bytes(&bad), Err(NnueError::Checksum { .. })),
                "byte {at}"
            );
        }
    }

    /// A format-v1 file with the feature layer of `net` and the given v1 output weights and
    /// biases.
    fn v1_file(net: &Network, out_w: &[i16], out_b: &[i16]) -> Vec<u8> {
        let mut b = MAGIC_V1.to_vec();
        for x in [
            net.hidden as u32,
            net.buckets as u32,
            QA as u32,
            QB_V1 as u32,
            SCALE as u32,
            ACTIVATION_SCRELU,
        ] {
            b.extend_from_slice(&x.to_le_bytes());
        }
        for part in [&net.feature_weights, &net.feature_bias, out_w, out_b] {
            for w in part.iter() {
                b.extend_from_slice(&w.to_le_bytes());
            }
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    #[test]
    fn format_v1_files_are_read_and_evaluate_as_v1_did() {
        let base = Network::random(32, 4, 11).unwrap();
        let mut rng = SplitMix(5);
        let out_w: Vec<i16> = (0..2 * 32 * 4).map(|_| rng.within(127) as i16).collect();
        let out_b: Vec<i16> = (0..4).map(|_| rng.within(4000) as i16).collect();
        let bytes = v1_file(&base, &out_w, &out_b);
        assert_eq!(bytes.len(), file_len(1, 32, 4));
        let net = Network::from_bytes(&bytes).unwrap();
        assert_eq!(net.feature_weights, base.feature_weights);
        // v1's own formula, step by step: (sum (v * w as i16) * v / QA + b) * SCALE / (QA * 64).
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let h = 32;
            // The feature layer is the same in both formats.
            let acc = net.accumulators(&pos);
            let bucket = net.bucket(&pos);
            let w = &out_w[2 * h * bucket..2 * h * (bucket + 1)];
            let stm = pos.side_to_move();
            let mut s = 0i32;
            for (half, side) in [stm, !stm].into_iter().enumerate() {
                for (&a, &w) in acc[side.index()].iter().zip(&w[half * h..]) {
                    let v = a.clamp(0, QA as i16);
                    s = s.wrapping_add(i32::from(v.wrapping_mul(w)) * i32::from(v));
                }
            }
            let v1 = (s / QA + i32::from(out_b[bucket])) * SCALE / (QA * QB_V1);
            let v2 = net.evaluate(&pos);
            assert!((v1 - v2).abs() <= 1, "{fen}: v1 {v1}, read as v2 {v2}");
        }
        // Written back, it is a v2 file that reads as the same network.
        let again = net.to_bytes();
        assert_eq!(&again[..8], &MAGIC);
        assert_eq!(Network::from_bytes(&again).unwrap(), net);
    }

    #[test]
    fn the_embedded_network_reads_and_sees_material() {
        let net = Network::embedded().expect("the built-in network reads");
        assert_eq!(Network::from_bytes(super::super::EMBEDDED), Ok(net.clone()));
        let start = net.evaluate(&Position::startpos());
        assert!(start.abs() < 60, "start position {start}");
        // White a queen up (Black's d8 queen removed), either side to move.
        let up =
            Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(net.evaluate(&up) > 500, "{}", net.evaluate(&up));
        let down =
            Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert!(net.evaluate(&down) < -500, "{}", net.evaluate(&down));
    }

    #[test]
    fn starting_position_is_symmetric() {
        // The start position is its own mirror, so both sides' accumulators are equal and the
        // evaluation does not depend on who is to move.
        let net = sample();
        let white = Position::startpos();
        let black =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(net.evaluate(&white), net.evaluate(&black));
    }
}
