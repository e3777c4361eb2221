//! The workspace's small seeded generators, one home for all of them: the data generators, opening
//! builders and position samplers of the tools crates use them, and `ply-testkit` re-exports
//! [`XorShift64`] and [`XorShift64Star`] for the tests. Each keeps its published sequence, so that
//! generated files (opening books, built-in opening sets, training data) stay the same.
//!
//! - [`splitmix`]: the SplitMix64 finaliser (a hash: neighbouring inputs give unrelated outputs),
//!   and [`SplitMix64`], the stream it makes (Steele, Lea and Flood 2014).
//! - [`XorShift64`]: Marsaglia's xorshift64 (13, 7, 17).
//! - [`XorShift64Star`]: Vigna's xorshift64* (12, 25, 27, multiplier `0x2545_F491_4F6C_DD1D`).
//!
//! (The chess crate's build script and its compile-time Zobrist keys have their own copies: a
//! build script and a `const fn` cannot call into this crate.)
//!
//! ```
//! use ply_batch::rng::{splitmix, SplitMix64};
//! let mut s = SplitMix64::new(7);
//! assert_eq!(s.next(), splitmix(7));
//! ```

/// Added to the SplitMix64 state at each step (2^64 / golden ratio).
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// The SplitMix64 finaliser of `x + GOLDEN`: neighbouring inputs give unrelated outputs.
pub fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The SplitMix64 stream from a seed (any seed, 0 included).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The stream seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        let out = splitmix(self.0);
        self.0 = self.0.wrapping_add(GOLDEN);
        out
    }
}

/// Marsaglia's xorshift64 (13, 7, 17).
#[derive(Clone, Debug)]
pub struct XorShift64(u64);

impl XorShift64 {
    /// A generator from `seed` (0 is replaced by a fixed non-zero constant, xorshift's one bad seed).
    pub fn new(seed: u64) -> Self {
        XorShift64(if seed == 0 { GOLDEN } else { seed })
    }

    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n` (slightly biased by the modulo, negligibly for small `n`).
    ///
    /// # Panics
    /// When `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// The index of one set bit of `mask` (non-zero), the `below(popcount)`-th from the lowest:
    /// a random legal move from a move bitboard.
    pub fn pick_bit(&mut self, mask: u64) -> usize {
        nth_set_bit(mask, self.below(u64::from(mask.count_ones())))
    }
}

/// The index of the `n`-th set bit of `mask` counted from the lowest (64 when there is none).
fn nth_set_bit(mut mask: u64, n: u64) -> usize {
    for _ in 0..n {
        mask &= mask.wrapping_sub(1);
    }
    mask.trailing_zeros() as usize
}

/// Vigna's xorshift64* (12, 25, 27, multiplier 0x2545_F491_4F6C_DD1D): xorshift64 with a
/// multiplied output.
#[derive(Clone, Debug)]
pub struct XorShift64Star(u64);

impl XorShift64Star {
    /// A generator from `seed` (0 is replaced by a fixed non-zero constant, xorshift's one bad seed).
    pub fn new(seed: u64) -> Self {
        XorShift64Star(if seed == 0 { GOLDEN } else { seed })
    }

    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (slightly biased by the modulo, negligibly for small `n`).
    ///
    /// # Panics
    /// When `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// The index of one set bit of `mask` (non-zero), the `below(popcount)`-th from the lowest:
    /// a random legal move from a move bitboard.
    pub fn pick_bit(&mut self, mask: u64) -> usize {
        nth_set_bit(mask, self.below(u64::from(mask.count_ones())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_sequences() {
        // first outputs of xorshift64 (13, 7, 17) from seed 1
        let mut r = XorShift64::new(1);
        assert_eq!(r.next(), 1_082_269_761);
        assert_eq!(r.next(), 1_152_992_998_833_853_505);
        assert!(r.below(10) < 10);
        for _ in 0..100 {
            let mask = r.next() | 1;
            assert!(mask >> r.pick_bit(mask) & 1 == 1);
        }
        // SplitMix64 from seed 0 (the reference implementation's first output)
        assert_eq!(SplitMix64::new(0).next(), 0xe220_a839_7b1d_cdaf);
        // xorshift64* from seed 1
        let mut s = XorShift64Star::new(1);
        assert_eq!(s.next(), 0x47e4_ce4b_896c_dd1d);
    }
}
