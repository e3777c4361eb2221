//! Pattern evaluation compatible with Edax (`eval.c`, `eval_sse.c`): 46 base-3 pattern features over 12
//! kinds, one `i16` weight table per ply from the mover's view, updated incrementally with AVX2
//! and evaluated with gathered lookups; Edax's `eval.dat` and ply's compressed format.
//!
//! Layout: [`pattern`] square lists and symmetry packing, [`features`] feature vector and its
//! update, [`weights`] packed model and runtime tables, [`edax`] the `eval.dat` layout, [`mod@format`]
//! ply's own format. The engine starts from [`embedded_weights`] (or [`parse_weights`] of the
//! bytes of an `--eval-file`, read by the caller: the library does no I/O), builds [`Weights`] once, keeps a [`Features`] per search ply (updated with
//! [`Features::update`] / [`Features::pass`], restored by copying) and calls
//! [`Weights::evaluate`] with the number of empties.
//!
//! ```
//! use ply_othello_engine::eval::{embedded_weights, Features, Weights};
//! let w = Weights::new(&embedded_weights().unwrap());
//! let (p, o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64); // start, Black to move
//! let f = Features::new(p, o);
//! let score = w.evaluate(&f, 60); // 1/128 disc, side to move's view
//! assert!(score.abs() < 4 * 128);
//! let f2 = f.update(19, 1 << 27); // D3 flips D4
//! assert_eq!(f2, Features::new(o & !(1 << 27), p | 1 << 27 | 1 << 19));
//! ```

pub mod edax;
pub mod features;
pub mod format;
pub mod pattern;
pub mod weights;

#[cfg(target_arch = "x86_64")]
use crate::kernel::{Avx2, Avx512};
use crate::kernel::{Kernel, Portable};

pub use edax::{EdaxError, EdaxFile, EdaxHeader};
pub use features::Features;
pub use format::FormatError;
pub use weights::{to_discs, PackedWeights, Weights};

/// The shipped weights in ply's format: the 62-feature evaluation v3, trained by `ply-othello
/// train` on the WTHOR games, exact solver labels and self-play games (commands and errors in
/// docs/benchmarks/othello-training.md, "evaluation v3, the second generation").
pub static EMBEDDED: &[u8] = include_bytes!("default.plyeval");

/// The v1 weights in ply's format: Edax's 46 features only, so they export to Edax's
/// `eval.dat` (`ply-othello weights --edax-out`), e.g. to run Edax with ply's evaluation.
pub static EMBEDDED_V1: &[u8] = include_bytes!("v1.plyeval");

/// Decodes the shipped weights.
///
/// # Errors
/// [`FormatError`] if the embedded bytes were corrupted at build time (a test guards this).
pub fn embedded_weights() -> Result<PackedWeights, FormatError> {
    format::decode(EMBEDDED)
}

/// Decodes the v1 weights (Edax's pattern set).
///
/// # Errors
/// [`FormatError`] if the embedded bytes were corrupted at build time (a test guards this).
pub fn embedded_v1_weights() -> Result<PackedWeights, FormatError> {
    format::decode(EMBEDDED_V1)
}

/// Errors decoding an evaluation file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// An Edax `eval.dat` that does not parse.
    #[error(transparent)]
    Edax(#[from] EdaxError),
    /// A ply weight file that does not parse.
    #[error(transparent)]
    Ply(#[from] FormatError),
}

/// Parses evaluation weights in either format: ply's (magic `PLYOEVAL`) or Edax's `eval.dat`.
///
/// # Errors
/// [`LoadError`] when the bytes are in neither format or are corrupted.
pub fn parse_weights(bytes: &[u8]) -> Result<PackedWeights, LoadError> {
    if bytes.starts_with(b"PLYOEVAL") {
        Ok(format::decode(bytes)?)
    } else {
        Ok(EdaxFile::parse(bytes)?.weights)
    }
}

/// The pattern evaluation of one kernel: the AVX2 and AVX-512 tokens use the AVX2 feature update
/// and the gathered evaluation, the portable one the portable code. All give identical results.
pub(crate) trait Eval: Kernel {
    /// Features after the mover plays `x` flipping `flipped` (see [`Features::update`]).
    fn update(self, f: &Features, x: usize, flipped: u64) -> Features;
    /// Evaluation of `f` at `n_empties` empties (see [`Weights::evaluate`]).
    fn evaluate(self, w: &Weights, f: &Features, n_empties: usize) -> i32;
}

impl Eval for Portable {
    #[inline(always)]
    fn update(self, f: &Features, x: usize, flipped: u64) -> Features {
        f.update_portable(x, flipped)
    }
    #[inline(always)]
    fn evaluate(self, w: &Weights, f: &Features, n_empties: usize) -> i32 {
        w.evaluate_scalar(f, n_empties)
    }
}

/// The evaluation of the x86 tokens: the AVX2 feature update and gathers (the AVX-512 level
/// includes the AVX2 one: `Cpu::probe` asks for both).
macro_rules! avx2_eval {
    ($($token:ty),+) => {$(
        #[cfg(target_arch = "x86_64")]
        impl Eval for $token {
            #[inline(always)]
            fn update(self, f: &Features, x: usize, flipped: u64) -> Features {
                // SAFETY: the token exists only on a CPU with the AVX2 set (see above).
                unsafe { f.update_avx2(x, flipped) }
            }
            #[inline(always)]
            fn evaluate(self, w: &Weights, f: &Features, n_empties: usize) -> i32 {
                // SAFETY: as in `update`.
                unsafe { w.evaluate_avx2(f, n_empties) }
            }
        }
    )+};
}
avx2_eval!(Avx2, Avx512);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_weights_decode_and_are_symmetric_in_the_opening() {
        let v1 = embedded_v1_weights().expect("v1 weights decode");
        assert!(v1.is_well_formed() && !v1.has_extra(), "v1 is Edax's set");
        assert!(EdaxFile::new(v1).is_ok());
        let packed = embedded_weights().expect("embedded weights decode");
        assert!(
            packed.is_well_formed() && packed.has_extra(),
            "v2 uses all 62 features"
        );
        let w = Weights::new(&packed);
        // the four first moves are equivalent by symmetry
        let (p, o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let scores: Vec<i32> = [(19usize, 27usize), (26, 27), (37, 36), (44, 36)]
            .iter()
            .map(|&(x, f)| w.evaluate_board(o & !(1 << f), p | 1 << f | 1 << x))
            .collect();
        assert!(scores.windows(2).all(|s| s[0] == s[1]), "{scores:?}");
        // the start position is balanced: a fit biased by repeated self-play games is not
        let start = w.evaluate_board(p, o);
        assert!(
            to_discs(start).abs() <= 2,
            "start position {start}/128 discs"
        );
        assert!(
            to_discs(scores[0]).abs() <= 4,
            "first moves {}/128",
            scores[0]
        );
    }
}
