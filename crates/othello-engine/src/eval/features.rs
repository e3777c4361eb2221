//! The feature vector of a position and its incremental update (Edax `eval.c`, `eval_update`; the
//! Edax-AVX notes, releases 4.4.5 / 4.4.6).
//!
//! The 62 features live in 64 `u16` lanes (four 256-bit registers). To keep one weight table per
//! ply, the digits follow the ply's parity rather than the side to move: digit 0 is the side to
//! move when the number of empties is even, the other side when it is odd. A move then changes
//! digits by a fixed delta (no swap), a pass swaps all digits through a table, and lane 47 carries
//! the view flag (1 = digit 0 is the side to move), lane 62 stays zero. Unmaking a move restores
//! the saved copy.

#[cfg(target_arch = "x86_64")]
use super::pattern::COEFFICIENTS;
use super::pattern::{
    self, FEATURES, FEATURE_KIND, KINDS, N_FEATURES, N_LANES, SQUARE_FEATURES, VIEW_LANE,
};
use super::Eval;
use crate::kernel::{with_kernel, Cpu};

/// The 62 pattern indices of a position plus the view flag, in gather-ready form: each lane is
/// relative to [`pattern::LANE_BASE`] (lanes 62 and 63 read the table's zero guards).
#[repr(C, align(32))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features([u16; N_LANES]);

/// The lanes of an empty board: every digit of every feature is 2 (3^len - 1).
const ALL_EMPTY: [u16; N_LANES] = {
    let mut v = [0u16; N_LANES];
    let mut i = 0;
    while i < N_FEATURES {
        v[i] = (3u32.pow(FEATURES[i].len as u32) - 1) as u16;
        i += 1;
    }
    v
};

/// Whether digit 0 is the side to move (an even number of empties), and the discs of digit 0
/// and digit 1.
fn view(player: u64, opponent: u64) -> (bool, u64, u64) {
    if (!(player | opponent)).count_ones().is_multiple_of(2) {
        (true, player, opponent)
    } else {
        (false, opponent, player)
    }
}

impl Features {
    /// Features of a position from scratch (`player` to move). The view follows the parity of
    /// the number of empties, see the module docs.
    pub fn new(player: u64, opponent: u64) -> Features {
        let (mover_view, own, other) = view(player, opponent);
        // every digit starts empty (2), then each disc lowers the digits of its features
        let mut v = ALL_EMPTY;
        for (discs, digit) in [(own, 2), (other, 1)] {
            let mut b = discs;
            while b != 0 {
                let s = &SQUARE_FEATURES[b.trailing_zeros() as usize];
                for &(lane, c) in &s.entries[..s.n as usize] {
                    v[lane as usize] -= digit * c;
                }
                b &= b - 1;
            }
        }
        v[VIEW_LANE] = u16::from(mover_view);
        Features(v)
    }

    /// [`Features::new`] by the plain per-pattern loop of [`pattern::compute`] (the reference
    /// the fast one is tested against).
    pub fn reference(player: u64, opponent: u64) -> Features {
        let (mover_view, own, other) = view(player, opponent);
        let mut v = [0u16; N_LANES];
        v[..N_FEATURES].copy_from_slice(&pattern::compute(own, other));
        v[VIEW_LANE] = u16::from(mover_view);
        Features(v)
    }

    /// The 64 lanes: 62 feature indices, a zero lane and the view flag.
    #[inline]
    pub fn lanes(&self) -> &[u16; N_LANES] {
        &self.0
    }

    /// Whether digit 0 currently denotes the side to move.
    #[inline]
    pub fn mover_view(&self) -> bool {
        self.0[VIEW_LANE] != 0
    }

    /// The 62 raw pattern indices with digit 0 = side to move (for training and tests).
    pub fn mover_indices(&self) -> [u16; N_FEATURES] {
        let mut out = [0u16; N_FEATURES];
        for (i, o) in out.iter_mut().enumerate() {
            let f = u32::from(self.0[i]);
            let len = u32::from(FEATURES[i].len);
            *o = if self.mover_view() {
                f
            } else {
                pattern::swap_digits(f, len)
            } as u16;
        }
        out
    }

    /// Features after the side to move plays `x` flipping `flipped`, with the AVX2 update when
    /// [`Cpu::detect`] finds it, else the portable one. For callers outside a search: the
    /// search copies call their kernel's update directly, with no dispatch.
    pub fn update(&self, x: usize, flipped: u64) -> Features {
        with_kernel!(Cpu::detect(), |k| k.update(self, x, flipped))
    }

    /// Portable update through the sparse square-to-feature lists (Edax's `eval_update`).
    pub fn update_portable(&self, x: usize, flipped: u64) -> Features {
        let mut out = *self;
        let v = &mut out.0;
        let placed = &SQUARE_FEATURES[x & 63];
        if self.mover_view() {
            // placed: empty (2) -> own (0); flipped: other (1) -> own (0)
            for &(lane, c) in &placed.entries[..placed.n as usize] {
                v[lane as usize] = v[lane as usize].wrapping_sub(2 * c);
            }
            let mut f = flipped;
            while f != 0 {
                let s = &SQUARE_FEATURES[f.trailing_zeros() as usize];
                for &(lane, c) in &s.entries[..s.n as usize] {
                    v[lane as usize] = v[lane as usize].wrapping_sub(c);
                }
                f &= f - 1;
            }
        } else {
            // placed: empty (2) -> other (1); flipped: own (0) -> other (1)
            for &(lane, c) in &placed.entries[..placed.n as usize] {
                v[lane as usize] = v[lane as usize].wrapping_sub(c);
            }
            let mut f = flipped;
            while f != 0 {
                let s = &SQUARE_FEATURES[f.trailing_zeros() as usize];
                for &(lane, c) in &s.entries[..s.n as usize] {
                    v[lane as usize] = v[lane as usize].wrapping_add(c);
                }
                f &= f - 1;
            }
        }
        v[VIEW_LANE] ^= 1;
        out
    }

    /// AVX2 update: four 256-bit subtractions per changed square (the Edax-AVX notes, 4.4.5).
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub unsafe fn update_avx2(&self, x: usize, flipped: u64) -> Features {
        use std::arch::x86_64::*;
        // SAFETY (every use): `$p` is a 128-byte row, 32-byte aligned (`Features` and
        // `Coefficients` are `align(32)` with 128-byte rows); `$i < 4` keeps the read in bounds.
        macro_rules! load {
            ($p:expr, $i:expr) => {
                unsafe { _mm256_load_si256(($p).as_ptr().add(16 * $i) as *const __m256i) }
            };
        }
        let c = &COEFFICIENTS.0[x & 63];
        let (c0, c1, c2, c3) = (load!(c, 0), load!(c, 1), load!(c, 2), load!(c, 3));
        let mut f0 = load!(self.0, 0);
        let mut f1 = load!(self.0, 1);
        let mut f2 = load!(self.0, 2);
        let mut f3 = load!(self.0, 3);
        let mut sum0 = _mm256_setzero_si256();
        let mut sum1 = _mm256_setzero_si256();
        let mut sum2 = _mm256_setzero_si256();
        let mut sum3 = _mm256_setzero_si256();
        let mut f = flipped;
        while f != 0 {
            let s = &COEFFICIENTS.0[f.trailing_zeros() as usize];
            sum0 = _mm256_add_epi16(sum0, load!(s, 0));
            sum1 = _mm256_add_epi16(sum1, load!(s, 1));
            sum2 = _mm256_add_epi16(sum2, load!(s, 2));
            sum3 = _mm256_add_epi16(sum3, load!(s, 3));
            f &= f - 1;
        }
        if self.mover_view() {
            f0 = _mm256_sub_epi16(f0, _mm256_add_epi16(_mm256_slli_epi16(c0, 1), sum0));
            f1 = _mm256_sub_epi16(f1, _mm256_add_epi16(_mm256_slli_epi16(c1, 1), sum1));
            f2 = _mm256_sub_epi16(f2, _mm256_add_epi16(_mm256_slli_epi16(c2, 1), sum2));
            f3 = _mm256_sub_epi16(f3, _mm256_add_epi16(_mm256_slli_epi16(c3, 1), sum3));
        } else {
            f0 = _mm256_sub_epi16(_mm256_add_epi16(f0, sum0), c0);
            f1 = _mm256_sub_epi16(_mm256_add_epi16(f1, sum1), c1);
            f2 = _mm256_sub_epi16(_mm256_add_epi16(f2, sum2), c2);
            f3 = _mm256_sub_epi16(_mm256_add_epi16(f3, sum3), c3);
        }
        // flip the view flag (lane 63 = lane 15 of the fourth register)
        f3 = _mm256_xor_si256(
            f3,
            _mm256_set_epi16(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        );
        let mut out = Features([0; N_LANES]);
        let p = out.0.as_mut_ptr() as *mut __m256i;
        // SAFETY: `out` is 128 bytes and 32-byte aligned.
        unsafe {
            _mm256_store_si256(p, f0);
            _mm256_store_si256(p.add(1), f1);
            _mm256_store_si256(p.add(2), f2);
            _mm256_store_si256(p.add(3), f3);
        }
        out
    }

    /// Features after a pass: the side to move changes but the ply does not, so every digit
    /// swaps own <-> other (the view flag is unchanged: it follows the parity).
    pub fn pass(&self) -> Features {
        let mut out = *self;
        for i in 0..N_FEATURES {
            let len = u32::from(KINDS[FEATURE_KIND[i] as usize].len);
            out.0[i] = pattern::swap_digits(u32::from(self.0[i]), len) as u16;
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::kernel::Portable;
    use ply_othello::flip;
    use ply_testkit::XorShift64;

    /// Plays random games, calling `visit(player, opponent, features)` on every position reached,
    /// checking the incremental features against a recomputation on the way.
    pub(crate) fn random_games(
        games: usize,
        seed: u64,
        mut visit: impl FnMut(u64, u64, &Features),
    ) {
        let mut rng = XorShift64::new(seed);
        for _ in 0..games {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut feat = Features::new(p, o);
            let mut passes = 0;
            while passes < 2 {
                visit(p, o, &feat);
                let moves: Vec<usize> = (0..64)
                    .filter(|&x| (p | o) >> x & 1 == 0 && flip::scalar::flip(x, p, o) != 0)
                    .collect();
                if moves.is_empty() {
                    passes += 1;
                    feat = feat.pass();
                    std::mem::swap(&mut p, &mut o);
                    assert_eq!(feat, Features::new(p, o), "after a pass");
                    continue;
                }
                passes = 0;
                let x = moves[rng.below(moves.len() as u64) as usize];
                let fl = flip::scalar::flip(x, p, o);
                let a = Portable.update(&feat, x, fl);
                #[cfg(target_arch = "x86_64")]
                if let Some(k) = crate::kernel::Avx2::detect() {
                    assert_eq!(a, k.update(&feat, x, fl), "avx2 vs portable");
                }
                #[cfg(target_arch = "x86_64")]
                if let Some(k) = crate::kernel::Avx512::detect() {
                    assert_eq!(a, k.update(&feat, x, fl), "avx-512 vs portable");
                }
                assert_eq!(a, feat.update(x, fl), "dispatch vs portable");
                feat = a;
                let (np, no) = (o ^ fl, p | fl | (1u64 << x));
                p = np;
                o = no;
                assert_eq!(feat, Features::new(p, o), "incremental vs recomputed");
                assert_eq!(feat, Features::reference(p, o), "incremental vs reference");
            }
        }
    }

    #[test]
    fn incremental_matches_recomputed() {
        let mut n = 0;
        random_games(300, 0x9E37_79B9_7F4A_7C15, |p, o, f| {
            n += 1;
            let m = f.mover_indices();
            assert_eq!(m, pattern::compute(p, o));
        });
        assert!(n > 300 * 55);
    }
}
