//! AVX-512 flips (F + VL + CD) on 256-bit registers: like [`super::avx2`] but the nearest stop towards
//! lower bits comes from `vplzcntq`, and mask registers replace compare-and-mask steps. The Edax-AVX notes
//! say that 512-bit registers are slower than two 256-bit halves (and may lower the clock on some Intel
//! CPUs), hence the 256-bit forms.

use core::arch::x86_64::*;

flip_256! {
    /// Discs flipped when the mover (`player`) plays `sq`; 0 if the move flips nothing.
    /// Does not check that `sq` is empty. `sq` must be < 64 (it is masked with 63).
    ///
    /// # Safety
    /// The CPU must support AVX-512 F, VL and CD and AVX2.
    "avx2,avx512f,avx512vl,avx512cd",
    |up, down, p, o, zero| {
        // Towards higher bits: outflank = lowest non-opponent square, if it is the player's.
        let stop = _mm256_andnot_si256(o, up);
        // 0x80: a & b & c.
        let outflank = _mm256_ternarylogic_epi64::<0x80>(stop, _mm256_sub_epi64(zero, stop), p);
        let has = _mm256_test_epi64_mask(outflank, outflank);
        let flipped_up =
            _mm256_maskz_and_epi64(has, _mm256_add_epi64(outflank, _mm256_set1_epi64x(-1)), up);

        // Towards lower bits: outflank = highest non-opponent square (leading-zero count), if the player's.
        let stop = _mm256_andnot_si256(o, down);
        let top = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(stop));
        let outflank = _mm256_and_si256(top, p);
        // Squares above the outflank on the ray: (-outflank << 1) & down.
        let flipped_down = _mm256_and_si256(
            _mm256_slli_epi64::<1>(_mm256_sub_epi64(zero, outflank)),
            down,
        );

        _mm256_or_si256(flipped_up, flipped_down)
    }
}
