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

/// Writes `pub fn flip(sq, player, opponent) -> u64` compiled for the features `$features`, the
/// frame [`avx2`] and [`avx512`] share: the square's 8 rays are loaded as two 256-bit vectors
/// (`$up`: the 4 rays towards higher bits, `$down`: the 4 towards lower bits), the boards are
/// broadcast (`$p`, `$o`, with `$zero` all clear), `$body` turns these into the flipped discs of
/// each ray (a 256-bit vector), and the 4 lanes are ORed into one bitboard.
#[cfg(target_arch = "x86_64")]
macro_rules! flip_256 {
    (
        $(#[$doc:meta])*
        $features:literal,
        |$up:ident, $down:ident, $p:ident, $o:ident, $zero:ident| $body:block
    ) => {
        $(#[$doc])*
        #[target_feature(enable = $features)]
        #[inline]
        pub fn flip(sq: usize, player: u64, opponent: u64) -> u64 {
            let rays = &crate::lines::RAYS[sq & 63];
            // SAFETY: each load reads 4 u64 inside the 8-u64 array `rays`.
            let ($up, $down) = unsafe {
                (
                    _mm256_loadu_si256(rays.as_ptr() as *const __m256i),
                    _mm256_loadu_si256(rays.as_ptr().add(4) as *const __m256i),
                )
            };
            let $p = _mm256_set1_epi64x(player as i64);
            let $o = _mm256_set1_epi64x(opponent as i64);
            let $zero = _mm256_setzero_si256();
            let f: __m256i = $body;
            let f = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256::<1>(f));
            (_mm_cvtsi128_si64(_mm_or_si128(f, _mm_unpackhi_epi64(f, f)))) as u64
        }
    };
}

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
