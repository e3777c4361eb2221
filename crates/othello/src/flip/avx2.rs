//! AVX2 flips: the 4 rays towards higher bits in one 256-bit vector (nearest stop = lowest set bit,
//! `x & -x`), the 4 rays towards lower bits in another (AVX2 has no 64-bit leading-zero count, so the
//! stop is smeared away from the square with variable shifts and the squares before it are kept).

use core::arch::x86_64::*;

flip_256! {
    /// Discs flipped when the mover (`player`) plays `sq`; 0 if the move flips nothing.
    /// Does not check that `sq` is empty. `sq` must be < 64 (it is masked with 63).
    ///
    /// # Safety
    /// The CPU must support AVX2 (`is_x86_feature_detected!("avx2")`); callers compiled with `avx2`
    /// call it safely and inline it.
    "avx2",
    |up, down, p, o, zero| {
        // Towards higher bits.
        let stop = _mm256_andnot_si256(o, up);
        let outflank = _mm256_and_si256(_mm256_and_si256(stop, _mm256_sub_epi64(zero, stop)), p);
        let flipped_up = _mm256_andnot_si256(
            _mm256_cmpeq_epi64(outflank, zero),
            _mm256_and_si256(_mm256_add_epi64(outflank, _mm256_set1_epi64x(-1)), up),
        );

        // Towards lower bits: shifts of W, N, NE, NW.
        let s1 = _mm256_set_epi64x(9, 7, 8, 1);
        let s2 = _mm256_add_epi64(s1, s1);
        let s4 = _mm256_add_epi64(s2, s2);
        let mut stop = _mm256_andnot_si256(o, down);
        stop = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, s1));
        stop = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, s2));
        stop = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, s4));
        let run = _mm256_andnot_si256(stop, down);
        let outflank = _mm256_and_si256(_mm256_and_si256(_mm256_srlv_epi64(run, s1), p), down);
        let flipped_down = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), run);

        _mm256_or_si256(flipped_up, flipped_down)
    }
}
