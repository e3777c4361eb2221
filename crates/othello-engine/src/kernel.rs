//! CPU kernels: move generation, flips and hashing, chosen ONCE at the root.
//!
//! The search is instantiated per kernel (see `endgame.rs`), the AVX2 copy compiled with
//! `#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]`, so every inlined helper (popcount,
//! flips, CRC32C) uses those instructions without a per-call dispatch.

/// Move generation, flips and hashing for one CPU level. Implementors are zero-sized tokens:
/// holding one proves the CPU supports its instructions.
pub trait Kernel: Copy + Send + Sync + 'static {
    /// Legal moves of `player`.
    fn moves(self, player: u64, opponent: u64) -> u64;
    /// Discs flipped by `player` playing `x` (0 if illegal).
    fn flip(self, x: usize, player: u64, opponent: u64) -> u64;
    /// Hash of a board for the transposition table.
    fn hash(self, player: u64, opponent: u64) -> u64;
    /// Name for reports.
    fn name(self) -> &'static str;
}

/// Portable kernel: runs on any CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

/// AVX2 + BMI2 + POPCNT + LZCNT kernel; only constructed by [`Avx2::detect`].
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

impl Avx2 {
    /// The token if the running CPU has the features.
    pub fn detect() -> Option<Avx2> {
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("bmi2")
                && is_x86_feature_detected!("popcnt")
                && is_x86_feature_detected!("lzcnt")
                && is_x86_feature_detected!("sse4.2")
            {
                return Some(Avx2(()));
            }
        }
        None
    }
}

impl Kernel for Portable {
    #[inline(always)]
    fn moves(self, player: u64, opponent: u64) -> u64 {
        ply_othello::moves::portable::get_moves(player, opponent)
    }
    #[inline(always)]
    fn flip(self, x: usize, player: u64, opponent: u64) -> u64 {
        ply_othello::flip::portable::flip(x, player, opponent)
    }
    #[inline(always)]
    fn hash(self, player: u64, opponent: u64) -> u64 {
        ply_othello::hash::hash_portable(player, opponent)
    }
    fn name(self) -> &'static str {
        "portable"
    }
}

// SAFETY (all three methods): an `Avx2` value exists only after `Avx2::detect` confirmed
// AVX2, BMI2, POPCNT, LZCNT and SSE4.2; the search copy that calls these is compiled with them,
// so the target_feature functions inline there.
#[cfg(target_arch = "x86_64")]
impl Kernel for Avx2 {
    #[inline(always)]
    fn moves(self, player: u64, opponent: u64) -> u64 {
        // SAFETY: see the impl comment: the token proves AVX2.
        unsafe { ply_othello::moves::avx2::get_moves(player, opponent) }
    }
    #[inline(always)]
    fn flip(self, x: usize, player: u64, opponent: u64) -> u64 {
        // SAFETY: see the impl comment: the token proves AVX2.
        unsafe { ply_othello::flip::avx2::flip(x, player, opponent) }
    }
    #[inline(always)]
    fn hash(self, player: u64, opponent: u64) -> u64 {
        // SAFETY: see the impl comment: the token proves SSE4.2.
        unsafe { ply_othello::hash::hash_sse42(player, opponent) }
    }
    fn name(self) -> &'static str {
        "avx2"
    }
}

/// Off x86-64 no `Avx2` token is ever created; these only keep the search generic code compiling.
#[cfg(not(target_arch = "x86_64"))]
impl Kernel for Avx2 {
    #[inline(always)]
    fn moves(self, player: u64, opponent: u64) -> u64 {
        Portable.moves(player, opponent)
    }
    #[inline(always)]
    fn flip(self, x: usize, player: u64, opponent: u64) -> u64 {
        Portable.flip(x, player, opponent)
    }
    #[inline(always)]
    fn hash(self, player: u64, opponent: u64) -> u64 {
        Portable.hash(player, opponent)
    }
    fn name(self) -> &'static str {
        "avx2"
    }
}
