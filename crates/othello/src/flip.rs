//! Discs flipped by a move, in several implementations of identical results.
//!
//! - [`scalar`]: walks each direction square by square; the obviously correct reference.
//! - [`portable`]: ray masks and bit tricks (lowest set bit / leading zeros), any CPU; re-exported as
//!   [`crate::flip()`].
//! - [`avx2`], [`avx512`]: the 8 directions in 256-bit / 512-bit lanes (`std::arch`).
//!
//! The SIMD functions are `#[target_feature]` functions: a search should not call them directly
//! but take a [`crate::kernel`] token (the CPU is detected once) and run a copy of itself compiled
//! for that kernel (see the crate docs), so that these calls inline with no per-call dispatch.

pub mod portable;
pub mod scalar;

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
