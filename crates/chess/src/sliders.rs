//! Sliding-piece lookups behind one trait, so hot code is compiled once per method.
//!
//! The choice between fancy magics and BMI2 PEXT has one home: [`Pext::detect`], which asks the CPU
//! once per process (at first use) and answers from a cached `static` afterwards. Every entry point
//! without an explicit lookup (the attack functions of [`crate::attacks`], [`crate::Position`]'s
//! generators, [`crate::perft()`], the chess engine's move picker) dispatches on that one answer,
//! once per call, to code monomorphised for the chosen [`Sliders`] token; inside, no lookup branches.
//! The dispatch itself is written once, as [`with_sliders!`](crate::with_sliders).

use core::sync::atomic::{AtomicU8, Ordering};

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

/// Evaluates `body` with `s` bound to the process's slider lookup ([`Pext::detect`]): the PEXT token
/// where the CPU has BMI2, else [`Magic`]. The body is compiled once for each token, so the choice
/// costs one cached load per call and none inside.
///
/// ```
/// use ply_chess::{with_sliders, Bitboard, Sliders, Square};
/// let e4 = Square::try_new(28).unwrap();
/// let attacks = with_sliders!(|s| s.rook(e4, Bitboard::EMPTY));
/// assert_eq!(attacks.count(), 14);
/// ```
#[macro_export]
macro_rules! with_sliders {
    (|$s:ident| $body:expr) => {
        match $crate::Pext::detect() {
            Some($s) => $body,
            None => {
                let $s = $crate::Magic;
                $body
            }
        }
    };
}

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

/// The process-wide slider choice: [`UNKNOWN`] until the first [`Pext::detect`], then [`MAGIC`] or
/// [`PEXT`] for the rest of the process.
static CHOICE: AtomicU8 = AtomicU8::new(UNKNOWN);
const UNKNOWN: u8 = 0;
const MAGIC: u8 = 1;
const PEXT: u8 = 2;

impl Pext {
    /// The slider lookup of this process: the PEXT token when the CPU supports BMI2, else `None`
    /// (use [`Magic`]). The CPU is asked once, at the first call; later calls read the cached answer
    /// (one relaxed load), so callers may dispatch on it per move generation. The token also
    /// promises BMI1, POPCNT and LZCNT (every BMI2 CPU has them), which the crate's PEXT-specific
    /// code (e.g. [`crate::perft()`]) is compiled with.
    #[inline(always)]
    pub fn detect() -> Option<Pext> {
        match CHOICE.load(Ordering::Relaxed) {
            PEXT => Some(Pext { _private: () }),
            MAGIC => None,
            _ => Pext::choose(),
        }
    }

    /// From now on [`Pext::detect`] answers `None` (the magic lookup) whatever the CPU: for
    /// measuring the portable path on a CPU with BMI2 (`ply-chess bench --portable`). Call it
    /// before the first search; a token already held stays valid (the CPU still has BMI2).
    pub fn disable() {
        CHOICE.store(MAGIC, Ordering::Relaxed);
    }

    /// Asks the CPU and records the answer in [`CHOICE`]. Racing first calls store the same value.
    #[cold]
    #[inline(never)]
    fn choose() -> Option<Pext> {
        #[cfg(target_arch = "x86_64")]
        let found = {
            use std::is_x86_feature_detected as has;
            has!("bmi2") && has!("bmi1") && has!("popcnt") && has!("lzcnt")
        };
        #[cfg(not(target_arch = "x86_64"))]
        let found = false;
        CHOICE.store(if found { PEXT } else { MAGIC }, Ordering::Relaxed);
        found.then_some(Pext { _private: () })
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
