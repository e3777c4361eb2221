//! CPU dispatch for the whole Othello crate family: the CPU is detected once ([`Cpu::detect`]),
//! and a search runs in a copy of itself compiled for the detected level.
//!
//! - [`Cpu`] names the levels; [`Cpu::detect`] finds the best one and caches it.
//! - [`Kernel`] is the level as a zero-sized token ([`Portable`], [`Avx2`], [`Avx512`]) with the
//!   move generation, flips and hashing of that level. A token other than `Portable` can only be
//!   made by its `detect`, so holding one proves the CPU has the features.
//! - [`for_each_kernel!`](crate::for_each_kernel) instantiates a search once per kernel with the
//!   kernel's `#[target_feature]` attribute: the feature strings are written there and nowhere
//!   else. Inside such a copy the token's methods inline with no per-call dispatch.
//! - [`with_kernel!`](crate::with_kernel) matches a level once and runs generic code with the
//!   matching token; that code enters its copy through one `SAFETY`-commented call per copy.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// CPU levels a search can be compiled for, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cpu {
    /// AVX-512 F/VL/CD (+ everything of [`Cpu::Avx2`]).
    Avx512,
    /// AVX2, BMI1, BMI2, POPCNT, LZCNT (and SSE4.2, which AVX2 implies, for CRC32C hashing).
    Avx2,
    /// Any CPU.
    Portable,
}

/// [`Cpu::detect`]'s answer: 0 = not asked yet, otherwise 1 + the level's index in [`Cpu::ALL`].
static DETECTED: AtomicU8 = AtomicU8::new(0);

impl Cpu {
    /// Every level, best first.
    pub const ALL: [Cpu; 3] = [Cpu::Avx512, Cpu::Avx2, Cpu::Portable];

    /// The best level the running CPU supports (asked once, then cached).
    pub fn detect() -> Cpu {
        match DETECTED.load(Relaxed) {
            0 => {
                let cpu = Cpu::probe();
                let index = Cpu::ALL.iter().position(|&c| c == cpu).unwrap_or(2);
                DETECTED.store(index as u8 + 1, Relaxed);
                cpu
            }
            i => Cpu::ALL[(i - 1) as usize],
        }
    }

    /// From now on [`Cpu::detect`] answers at most `max` (the lower of it and the CPU's best):
    /// for measuring a lower level on a CPU that has a higher one (`ply-othello bench
    /// --portable`). Call it before the first search.
    pub fn restrict(max: Cpu) {
        let index = |c: Cpu| Cpu::ALL.iter().position(|&x| x == c).unwrap_or(2);
        let lower = index(Cpu::detect()).max(index(max));
        DETECTED.store(lower as u8 + 1, Relaxed);
    }

    /// Asks the CPU (no cache).
    fn probe() -> Cpu {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let avx2 = has!("avx2")
                && has!("bmi1")
                && has!("bmi2")
                && has!("popcnt")
                && has!("lzcnt")
                && has!("sse4.2");
            if avx2 && has!("avx512f") && has!("avx512vl") && has!("avx512cd") {
                return Cpu::Avx512;
            }
            if avx2 {
                return Cpu::Avx2;
            }
        }
        Cpu::Portable
    }

    /// Whether the running CPU supports this level.
    pub fn is_supported(self) -> bool {
        let best = Cpu::detect();
        match self {
            Cpu::Portable => true,
            Cpu::Avx2 => best != Cpu::Portable,
            Cpu::Avx512 => best == Cpu::Avx512,
        }
    }

    /// Lower-case name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Cpu::Avx512 => "avx512",
            Cpu::Avx2 => "avx2",
            Cpu::Portable => "portable",
        }
    }
}

/// Move generation, flips and hashing for one CPU level. Implementors are zero-sized tokens:
/// holding one proves the CPU supports its instructions. The methods are `#[inline(always)]`:
/// inside the kernel's search copy (see [`for_each_kernel!`](crate::for_each_kernel)) they
/// compile to the SIMD instructions themselves.
pub trait Kernel: Copy + Send + Sync + 'static {
    /// The level this token stands for.
    const CPU: Cpu;
    /// Legal moves of `player`.
    fn moves(self, player: u64, opponent: u64) -> u64;
    /// Discs flipped by `player` playing `x` (0 if illegal).
    fn flip(self, x: usize, player: u64, opponent: u64) -> u64;
    /// Hash of a board for a transposition table (CRC32C, same value at every level).
    fn hash(self, player: u64, opponent: u64) -> u64;
    /// Name for reports.
    fn name(self) -> &'static str {
        Self::CPU.name()
    }
}

/// Portable kernel: runs on any CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

/// AVX2 + BMI1/2 + POPCNT + LZCNT kernel; only made by [`Avx2::detect`].
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

/// AVX-512 F/VL/CD kernel (with everything of [`Avx2`]); only made by [`Avx512::detect`].
#[derive(Clone, Copy, Debug)]
pub struct Avx512(());

impl Avx2 {
    /// The token if the running CPU has the features.
    pub fn detect() -> Option<Avx2> {
        Cpu::Avx2.is_supported().then_some(Avx2(()))
    }
}

impl Avx512 {
    /// The token if the running CPU has the features.
    pub fn detect() -> Option<Avx512> {
        Cpu::Avx512.is_supported().then_some(Avx512(()))
    }
}

impl Kernel for Portable {
    const CPU: Cpu = Cpu::Portable;
    #[inline(always)]
    fn moves(self, player: u64, opponent: u64) -> u64 {
        crate::moves::portable::get_moves(player, opponent)
    }
    #[inline(always)]
    fn flip(self, x: usize, player: u64, opponent: u64) -> u64 {
        crate::flip::portable::flip(x, player, opponent)
    }
    #[inline(always)]
    fn hash(self, player: u64, opponent: u64) -> u64 {
        crate::hash::hash_portable(player, opponent)
    }
}

// SAFETY (every method of the two impls below): an `Avx2` or `Avx512` value exists only after
// `detect` confirmed every feature its level names (SSE4.2 included), and the functions called
// need a subset of them.
#[cfg(target_arch = "x86_64")]
impl Kernel for Avx2 {
    const CPU: Cpu = Cpu::Avx2;
    #[inline(always)]
    fn moves(self, player: u64, opponent: u64) -> u64 {
        // SAFETY: see the impl comment: the token proves AVX2.
        unsafe { crate::moves::avx2::get_moves(player, opponent) }
    }
    #[inline(always)]
    fn flip(self, x: usize, player: u64, opponent: u64) -> u64 {
        // SAFETY: see the impl comment: the token proves AVX2.
        unsafe { crate::flip::avx2::flip(x, player, opponent) }
    }
    #[inline(always)]
    fn hash(self, player: u64, opponent: u64) -> u64 {
        // SAFETY: see the impl comment: the token proves SSE4.2.
        unsafe { crate::hash::hash_sse42(player, opponent) }
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernel for Avx512 {
    const CPU: Cpu = Cpu::Avx512;
    #[inline(always)]
    fn moves(self, player: u64, opponent: u64) -> u64 {
        // SAFETY: see the impl comment above `Avx2`: the token proves AVX-512 F/VL.
        unsafe { crate::moves::avx512::get_moves(player, opponent) }
    }
    #[inline(always)]
    fn flip(self, x: usize, player: u64, opponent: u64) -> u64 {
        // SAFETY: see the impl comment above `Avx2`: the token proves AVX-512 F/VL/CD.
        unsafe { crate::flip::avx512::flip(x, player, opponent) }
    }
    #[inline(always)]
    fn hash(self, player: u64, opponent: u64) -> u64 {
        // SAFETY: see the impl comment above `Avx2`: the token proves SSE4.2.
        unsafe { crate::hash::hash_sse42(player, opponent) }
    }
}

/// Off x86-64 no SIMD token is ever made; these impls only keep generic code compiling.
#[cfg(not(target_arch = "x86_64"))]
macro_rules! portable_fallback {
    ($($k:ident),*) => {$(
        impl Kernel for $k {
            const CPU: Cpu = Cpu::$k;
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
        }
    )*};
}
#[cfg(not(target_arch = "x86_64"))]
portable_fallback!(Avx2, Avx512);

/// Instantiates `$m!(token type, attributes)` once per kernel: `#[inline]` for
/// [`Portable`](crate::kernel::Portable), and for each SIMD token the `#[target_feature]`
/// attribute of its level. These strings are written here and nowhere else, so every search
/// copy of the crate family is compiled for exactly what [`Cpu::detect`](crate::Cpu::detect)
/// checked.
///
/// `$m` receives `($k:ty, $(#[$attr:meta])*)` and typically writes `impl Search<$k> { ... }`
/// with `$(#[$attr])*` on each method. An optional list after a `;` restricts the kernels
/// (`for_each_kernel!(m; Portable, Avx2)`). Off x86-64 the SIMD copies are not compiled.
#[macro_export]
macro_rules! for_each_kernel {
    ($m:ident) => {
        $crate::for_each_kernel!($m; Portable, Avx2, Avx512);
    };
    ($m:ident; $($k:ident),+ $(,)?) => {
        $($crate::for_each_kernel!(@one $m $k);)+
    };
    (@one $m:ident Portable) => {
        $m!($crate::kernel::Portable, #[inline]);
    };
    (@one $m:ident Avx2) => {
        #[cfg(target_arch = "x86_64")]
        $m!(
            $crate::kernel::Avx2,
            #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
        );
    };
    (@one $m:ident Avx512) => {
        #[cfg(target_arch = "x86_64")]
        $m!(
            $crate::kernel::Avx512,
            #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512cd")]
        );
    };
}

/// Runs `$body` with `$k` bound to the token of the level `$cpu` (an expression of type
/// [`Cpu`](crate::Cpu) that must be supported, e.g. from [`Cpu::detect`](crate::Cpu::detect)):
/// the one match on the level. `$body` is compiled once per token, so it can call generic
/// code; an optional list after the body restricts the kernels (the others then run the best
/// listed one below them, which must include `Portable`).
///
/// # Panics
/// If the running CPU does not support `$cpu`.
#[macro_export]
macro_rules! with_kernel {
    ($cpu:expr, |$k:ident| $body:expr) => {
        $crate::with_kernel!($cpu, |$k| $body; Portable, Avx2, Avx512)
    };
    ($cpu:expr, |$k:ident| $body:expr; Portable, Avx2) => {
        match $cpu {
            #[cfg(target_arch = "x86_64")]
            $crate::Cpu::Avx512 | $crate::Cpu::Avx2 => {
                let $k = $crate::kernel::Avx2::detect().expect("the CPU lacks AVX2");
                $body
            }
            _ => {
                let $k = $crate::kernel::Portable;
                $body
            }
        }
    };
    ($cpu:expr, |$k:ident| $body:expr; Portable, Avx2, Avx512) => {
        match $cpu {
            #[cfg(target_arch = "x86_64")]
            $crate::Cpu::Avx512 => {
                let $k = $crate::kernel::Avx512::detect().expect("the CPU lacks AVX-512");
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $crate::Cpu::Avx2 => {
                let $k = $crate::kernel::Avx2::detect().expect("the CPU lacks AVX2");
                $body
            }
            _ => {
                let $k = $crate::kernel::Portable;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_is_cached_and_consistent() {
        let best = Cpu::detect();
        assert_eq!(Cpu::detect(), best);
        assert_eq!(Cpu::probe(), best);
        assert!(best.is_supported() && Cpu::Portable.is_supported());
        assert_eq!(Avx2::detect().is_some(), Cpu::Avx2.is_supported());
        assert_eq!(Avx512::detect().is_some(), Cpu::Avx512.is_supported());
        with_kernel!(best, |k| assert_eq!(k.name(), best.name()));
    }

    /// Every token the CPU allows against the scalar reference (`tests/variants.rs` checks the
    /// SIMD functions themselves).
    #[test]
    fn tokens_match_the_scalar_reference() {
        fn check<K: Kernel>(k: K, p: u64, o: u64) {
            assert_eq!(
                k.moves(p, o),
                crate::moves::scalar::get_moves(p, o),
                "{}",
                k.name()
            );
            assert_eq!(
                k.hash(p, o),
                crate::hash::hash_portable(p, o),
                "{}",
                k.name()
            );
            for x in 0..64 {
                if (p | o) >> x & 1 == 0 {
                    let want = crate::flip::scalar::flip(x, p, o);
                    assert_eq!(k.flip(x, p, o), want, "{} {x} {p:#x} {o:#x}", k.name());
                }
            }
        }
        let mut rng = ply_testkit::XorShift64::new(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2000 {
            let (a, b) = (rng.next(), rng.next());
            let (p, o) = (a & !b, b & !a & rng.next());
            check(Portable, p, o);
            if let Some(k) = Avx2::detect() {
                check(k, p, o);
            }
            if let Some(k) = Avx512::detect() {
                check(k, p, o);
            }
        }
        eprintln!("checked up to {}", Cpu::detect().name());
    }
}
