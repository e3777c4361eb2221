//! AVX2 move generation: the 4 line directions in the 4 lanes of a 256-bit vector (variable shifts),
//! each grown both ways with the same doubling steps as [`super::portable`].

use core::arch::x86_64::*;

/// `a | (b & c)` as an OR of an AND.
macro_rules! or_and {
    ($a:expr, $b:expr, $c:expr) => {
        _mm256_or_si256($a, _mm256_and_si256($b, $c))
    };
}

get_moves_256! {
    /// Legal moves of `player` against `opponent`, as a bitboard.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    "avx2",
    or_and
}

/// Legal moves of 4 boards at once, one per 64-bit lane of a 256-bit vector (`player[i]` against
/// `opponent[i]`), for nodes that need the mobility of all their children.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline]
pub fn get_moves_x4(player: &[u64; 4], opponent: &[u64; 4]) -> [u64; 4] {
    // SAFETY: 4 u64 = 32 bytes read from / written to 4-element arrays (unaligned access).
    let (p, o) = unsafe {
        (
            _mm256_loadu_si256(player.as_ptr() as *const __m256i),
            _mm256_loadu_si256(opponent.as_ptr() as *const __m256i),
        )
    };
    let inner = _mm256_and_si256(o, _mm256_set1_epi64x(0x7E7E_7E7E_7E7E_7E7E));
    let m = _mm256_or_si256(
        _mm256_or_si256(both_ways_x4::<1, 2>(p, inner), both_ways_x4::<8, 16>(p, o)),
        _mm256_or_si256(
            both_ways_x4::<7, 14>(p, inner),
            both_ways_x4::<9, 18>(p, inner),
        ),
    );
    let m = _mm256_andnot_si256(_mm256_or_si256(p, o), m);
    let mut out = [0u64; 4];
    // SAFETY: as above.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, m) };
    out
}

/// One line direction (shift `S`, `S2 = 2 * S`) of [`get_moves_x4`], both ways.
#[target_feature(enable = "avx2")]
#[inline]
fn both_ways_x4<const S: i32, const S2: i32>(p: __m256i, mask: __m256i) -> __m256i {
    let pair = _mm256_and_si256(mask, _mm256_slli_epi64::<S>(mask));
    let mut up = _mm256_and_si256(mask, _mm256_slli_epi64::<S>(p));
    up = _mm256_or_si256(up, _mm256_and_si256(mask, _mm256_slli_epi64::<S>(up)));
    up = _mm256_or_si256(up, _mm256_and_si256(pair, _mm256_slli_epi64::<S2>(up)));
    up = _mm256_or_si256(up, _mm256_and_si256(pair, _mm256_slli_epi64::<S2>(up)));
    let pair = _mm256_and_si256(mask, _mm256_srli_epi64::<S>(mask));
    let mut down = _mm256_and_si256(mask, _mm256_srli_epi64::<S>(p));
    down = _mm256_or_si256(down, _mm256_and_si256(mask, _mm256_srli_epi64::<S>(down)));
    down = _mm256_or_si256(down, _mm256_and_si256(pair, _mm256_srli_epi64::<S2>(down)));
    down = _mm256_or_si256(down, _mm256_and_si256(pair, _mm256_srli_epi64::<S2>(down)));
    _mm256_or_si256(_mm256_slli_epi64::<S>(up), _mm256_srli_epi64::<S>(down))
}
