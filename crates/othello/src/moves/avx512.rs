//! AVX-512 (F + VL) move generation on 256-bit registers: [`super::avx2`]'s algorithm with each
//! "or with (and of shifted)" step fused into one `vpternlogq`.

use core::arch::x86_64::*;

/// `vpternlogq` truth table of `a | (b & c)`.
const OR_AND: i32 = 0xF8;

/// `a | (b & c)` in one `vpternlogq`.
macro_rules! or_and {
    ($a:expr, $b:expr, $c:expr) => {
        _mm256_ternarylogic_epi64::<OR_AND>($a, $b, $c)
    };
}

get_moves_256! {
    /// Legal moves of `player` against `opponent`, as a bitboard.
    ///
    /// # Safety
    /// The CPU must support AVX-512 F and VL and AVX2.
    "avx2,avx512f,avx512vl",
    or_and
}

/// Legal moves of 8 boards at once, one per 64-bit lane of a 512-bit vector (`player[i]` against
/// `opponent[i]`). Useful when all children of a node need their mobility (perft's last plies,
/// mobility move ordering): about twice the throughput of 8 single calls.
///
/// # Safety
/// The CPU must support AVX-512 F.
#[target_feature(enable = "avx2,avx512f")]
#[inline]
pub fn get_moves_x8(player: &[u64; 8], opponent: &[u64; 8]) -> [u64; 8] {
    // SAFETY: 8 u64 = 64 bytes read from / written to 8-element arrays (unaligned access).
    let (p, o) = unsafe {
        (
            _mm512_loadu_si512(player.as_ptr() as *const _),
            _mm512_loadu_si512(opponent.as_ptr() as *const _),
        )
    };
    let inner = _mm512_and_si512(o, _mm512_set1_epi64(0x7E7E_7E7E_7E7E_7E7E));
    let m = _mm512_or_si512(
        _mm512_or_si512(both_ways_x8::<1, 2>(p, inner), both_ways_x8::<8, 16>(p, o)),
        _mm512_or_si512(
            both_ways_x8::<7, 14>(p, inner),
            both_ways_x8::<9, 18>(p, inner),
        ),
    );
    let m = _mm512_andnot_si512(_mm512_or_si512(p, o), m);
    let mut out = [0u64; 8];
    // SAFETY: as above.
    unsafe { _mm512_storeu_si512(out.as_mut_ptr() as *mut _, m) };
    out
}

/// One line direction (shift `S`, `S2 = 2 * S`) of [`get_moves_x8`], both ways.
#[target_feature(enable = "avx2,avx512f")]
#[inline]
fn both_ways_x8<const S: u32, const S2: u32>(p: __m512i, mask: __m512i) -> __m512i {
    let pair = _mm512_and_si512(mask, _mm512_slli_epi64::<S>(mask));
    let mut up = _mm512_and_si512(mask, _mm512_slli_epi64::<S>(p));
    up = _mm512_ternarylogic_epi64::<OR_AND>(up, mask, _mm512_slli_epi64::<S>(up));
    up = _mm512_ternarylogic_epi64::<OR_AND>(up, pair, _mm512_slli_epi64::<S2>(up));
    up = _mm512_ternarylogic_epi64::<OR_AND>(up, pair, _mm512_slli_epi64::<S2>(up));
    let pair = _mm512_and_si512(mask, _mm512_srli_epi64::<S>(mask));
    let mut down = _mm512_and_si512(mask, _mm512_srli_epi64::<S>(p));
    down = _mm512_ternarylogic_epi64::<OR_AND>(down, mask, _mm512_srli_epi64::<S>(down));
    down = _mm512_ternarylogic_epi64::<OR_AND>(down, pair, _mm512_srli_epi64::<S2>(down));
    down = _mm512_ternarylogic_epi64::<OR_AND>(down, pair, _mm512_srli_epi64::<S2>(down));
    _mm512_or_si512(_mm512_slli_epi64::<S>(up), _mm512_srli_epi64::<S>(down))
}
