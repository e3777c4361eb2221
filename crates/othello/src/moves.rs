//! Legal-move generation, in several implementations of identical results.
//!
//! - [`scalar`]: tries every empty square with the reference flip; obviously correct.
//! - [`portable`]: shifts of the player's discs through runs of opponent discs, 4 line directions
//!   with parallel-prefix doubling (any CPU); re-exported as [`crate::get_moves`].
//!
//! - [`avx2`], [`avx512`]: the 4 line directions in the lanes of a 256-bit vector.
//!
//! SIMD variants follow the same dispatch-once rule as [`crate::flip`](mod@crate::flip).

pub mod portable;
pub mod scalar;

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
