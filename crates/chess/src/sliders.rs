//! Sliding-piece lookups behind one trait, so hot code is compiled once per method and the choice
//! between fancy magics and BMI2 PEXT is made once (per perft call or search), not per lookup.

use crate::{Bitboard, Square};

/// One square's magic: relevant-occupancy mask, multiplier, shift and offset into the shared table.
/// The PEXT table uses the same mask and offset.
#[derive(Clone, Copy)]
pub(crate) struct MagicEntry {
    pub(crate) mask: u64,
    pub(crate) magic: u64,
    pub(crate) shift: u32,
    pub(crate) offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/sliders.rs"));

/// A way to look up rook and bishop attacks. Implementations are zero-sized tokens.
pub trait Sliders: Copy {
    /// Rook attacks from `sq` given occupancy `occ`.
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard;
    /// Bishop attacks from `sq` given occupancy `occ`.
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard;
    /// Queen attacks: rook | bishop.
    #[inline(always)]
    fn queen(self, sq: Square, occ: Bitboard) -> Bitboard {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }
}

/// Fancy magic bitboards: `(occ & mask) * magic >> shift` indexes a per-square slice. Works everywhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct Magic;

impl Magic {
    #[inline(always)]
    fn lookup(e: &MagicEntry, occ: Bitboard) -> Bitboard {
        let idx = ((occ.0 & e.mask).wrapping_mul(e.magic) >> e.shift) as usize + e.offset;
        debug_assert!(idx < MAGIC_ATTACKS.len());
        // SAFETY: `shift = 64 - bits`, so the product shifted right is below `2^bits`, and build.rs
        // reserves `2^bits` entries from `offset` for every square (the tests walk all squares).
        Bitboard(unsafe { *MAGIC_ATTACKS.get_unchecked(idx) })
    }
}

impl Sliders for Magic {
    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        Magic::lookup(&ROOK_MAGICS[sq.index()], occ)
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        Magic::lookup(&BISHOP_MAGICS[sq.index()], occ)
    }
}

/// BMI2 `pext(occ, mask)` indexes a per-square slice. Only constructible when the CPU has BMI2.
#[derive(Clone, Copy, Debug)]
pub struct Pext {
    _private: (),
}

impl Pext {
    /// The PEXT lookup when this CPU supports BMI2 (detected at run time), else `None`.
    /// Cheap enough to call per move generation (std caches the CPUID result). The token also
    /// promises BMI1, POPCNT and LZCNT (every BMI2 CPU has them), which the crate's PEXT-specific
    /// code (e.g. [`crate::perft`]) is compiled with.
    pub fn detect() -> Option<Pext> {
        #[cfg(target_arch = "x86_64")]
        {
            use std::is_x86_feature_detected as has;
            if has!("bmi2") && has!("bmi1") && has!("popcnt") && has!("lzcnt") {
                return Some(Pext { _private: () });
            }
        }
        None
    }

    #[inline(always)]
    fn lookup(self, e: &MagicEntry, occ: Bitboard) -> Bitboard {
        let idx = pext(occ.0, e.mask) as usize + e.offset;
        debug_assert!(idx < PEXT_ATTACKS.len());
        // SAFETY: `pext` with a mask of `bits` set bits returns a value below `2^bits`, and build.rs
        // reserves `2^bits` entries from `offset` for every square.
        Bitboard(unsafe { *PEXT_ATTACKS.get_unchecked(idx) })
    }
}

/// `pext` through inline assembly, so that it inlines into generic code compiled without the `bmi2`
/// target feature (a `#[target_feature]` intrinsic would not inline there).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pext(value: u64, mask: u64) -> u64 {
    let out: u64;
    // SAFETY: only reached through a `Pext` token, which `Pext::detect` creates only after
    // `is_x86_feature_detected!("bmi2")` returned true; the instruction touches no memory.
    unsafe {
        core::arch::asm!("pext {out}, {v}, {m}", out = lateout(reg) out, v = in(reg) value, m = in(reg) mask,
            options(pure, nomem, nostack, preserves_flags));
    }
    out
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn pext(_value: u64, _mask: u64) -> u64 {
    0 // unreachable: `Pext::detect` never returns a token off x86-64
}

impl Sliders for Pext {
    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        self.lookup(&ROOK_MAGICS[sq.index()], occ)
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        self.lookup(&BISHOP_MAGICS[sq.index()], occ)
    }
}
