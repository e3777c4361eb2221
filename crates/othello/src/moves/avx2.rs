//! AVX2 move generation: the 4 line directions in the 4 lanes of a 256-bit vector (variable shifts),
//! each grown both ways with the same doubling steps as [`super::portable`].

use core::arch::x86_64::*;

/// Legal moves of `player` against `opponent`, as a bitboard.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
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
    up = _mm256_or_si256(up, _mm256_and_si256(o, _mm256_sllv_epi64(up, s1)));
    up = _mm256_or_si256(up, _mm256_and_si256(pair, _mm256_sllv_epi64(up, s2)));
    up = _mm256_or_si256(up, _mm256_and_si256(pair, _mm256_sllv_epi64(up, s2)));

    let pair = _mm256_and_si256(o, _mm256_srlv_epi64(o, s1));
    let mut down = _mm256_and_si256(o, _mm256_srlv_epi64(p, s1));
    down = _mm256_or_si256(down, _mm256_and_si256(o, _mm256_srlv_epi64(down, s1)));
    down = _mm256_or_si256(down, _mm256_and_si256(pair, _mm256_srlv_epi64(down, s2)));
    down = _mm256_or_si256(down, _mm256_and_si256(pair, _mm256_srlv_epi64(down, s2)));

    let m = _mm256_or_si256(_mm256_sllv_epi64(up, s1), _mm256_srlv_epi64(down, s1));
    let m = _mm_or_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
    let m = _mm_cvtsi128_si64(_mm_or_si128(m, _mm_unpackhi_epi64(m, m))) as u64;
    m & !(player | opponent)
}
