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

/// Writes `pub fn get_moves(player, opponent) -> u64` compiled for the features `$features`, the
/// body [`avx2`] and [`avx512`] share: the 4 line directions in the lanes of a 256-bit vector,
/// each grown both ways by the doubling steps of [`portable`]. `$or_and!(a, b, c)` is the one
/// step that differs, `a | (b & c)`.
#[cfg(target_arch = "x86_64")]
macro_rules! get_moves_256 {
    ($(#[$doc:meta])* $features:literal, $or_and:ident) => {
        $(#[$doc])*
        #[target_feature(enable = $features)]
        #[inline]
        pub fn get_moves(player: u64, opponent: u64) -> u64 {
            const INNER: i64 = 0x7E7E_7E7E_7E7E_7E7E;
            let s1 = _mm256_set_epi64x(9, 7, 8, 1);
            let s2 = _mm256_add_epi64(s1, s1);
            let p = _mm256_set1_epi64x(player as i64);
            let o = _mm256_and_si256(
                _mm256_set1_epi64x(opponent as i64),
                _mm256_set_epi64x(INNER, INNER, -1, INNER),
            );

            let pair = _mm256_and_si256(o, _mm256_sllv_epi64(o, s1));
            let mut up = _mm256_and_si256(o, _mm256_sllv_epi64(p, s1));
            up = $or_and!(up, o, _mm256_sllv_epi64(up, s1));
            up = $or_and!(up, pair, _mm256_sllv_epi64(up, s2));
            up = $or_and!(up, pair, _mm256_sllv_epi64(up, s2));

            let pair = _mm256_and_si256(o, _mm256_srlv_epi64(o, s1));
            let mut down = _mm256_and_si256(o, _mm256_srlv_epi64(p, s1));
            down = $or_and!(down, o, _mm256_srlv_epi64(down, s1));
            down = $or_and!(down, pair, _mm256_srlv_epi64(down, s2));
            down = $or_and!(down, pair, _mm256_srlv_epi64(down, s2));

            let m = _mm256_or_si256(_mm256_sllv_epi64(up, s1), _mm256_srlv_epi64(down, s1));
            let m = _mm_or_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
            let m = _mm_cvtsi128_si64(_mm_or_si128(m, _mm_unpackhi_epi64(m, m))) as u64;
            m & !(player | opponent)
        }
    };
}

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
