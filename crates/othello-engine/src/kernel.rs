//! The engine's side of the crate family's CPU dispatch ([`ply_othello::kernel`]): the rules
//! crate detects the CPU and hands out the tokens; this module adds the evaluation to them
//! ([`Eval`]) and names the entry points of the search copies ([`Searches`]).
//!
//! Every search of the engine (endgame solver, solver root, midgame tree) is a macro
//! instantiated per kernel by [`engine_kernels!`], which adds the kernel's `#[target_feature]`
//! attribute. Inside a copy, the token's methods (moves, flips, hashing, feature update,
//! evaluation) inline with no per-call dispatch. Callers pick the copy with [`with_kernel!`]
//! (one match on the level) and enter it through [`Searches`], whose impl below holds the
//! crate's only `unsafe` calls into a copy.
//!
//! The engine compiles a portable and an AVX2 copy; on an AVX-512 CPU it runs the AVX2 copy
//! (an AVX-512 copy of the search has never been measured, so it is not shipped).

use crate::endgame::{Mode, RootResult, Search};
use crate::eval::{Features, Weights};
use crate::midgame::worker::Worker;
#[cfg(target_arch = "x86_64")]
pub(crate) use ply_othello::kernel::Avx2;
pub(crate) use ply_othello::kernel::{Cpu, Kernel, Portable};

/// Instantiates `$m!(token type, attributes)` for each kernel the engine compiles a search
/// copy for (see [`ply_othello::for_each_kernel!`]).
macro_rules! engine_kernels {
    ($m:ident) => {
        ply_othello::for_each_kernel!($m; Portable, Avx2);
    };
}
pub(crate) use engine_kernels;

/// Runs `$body` with `$k` bound to the token of the engine's copy for the level `$cpu` (the
/// one match on the level; see [`ply_othello::with_kernel!`]).
macro_rules! with_kernel {
    ($cpu:expr, |$k:ident| $body:expr) => {
        ply_othello::with_kernel!($cpu, |$k| $body; Portable, Avx2)
    };
}
pub(crate) use with_kernel;

/// The pattern evaluation of one kernel: the AVX2 token uses the AVX2 feature update and the
/// gathered evaluation, the portable one the portable code. Both give identical results.
pub trait Eval: Kernel {
    /// Features after the mover plays `x` flipping `flipped` (see [`Features::update`]).
    fn update(self, f: &Features, x: usize, flipped: u64) -> Features;
    /// Evaluation of `f` at `n_empties` empties (see [`Weights::evaluate`]).
    fn evaluate(self, w: &Weights, f: &Features, n_empties: usize) -> i32;
}

impl Eval for Portable {
    #[inline(always)]
    fn update(self, f: &Features, x: usize, flipped: u64) -> Features {
        f.update_portable(x, flipped)
    }
    #[inline(always)]
    fn evaluate(self, w: &Weights, f: &Features, n_empties: usize) -> i32 {
        w.evaluate_scalar(f, n_empties)
    }
}

#[cfg(target_arch = "x86_64")]
impl Eval for Avx2 {
    #[inline(always)]
    fn update(self, f: &Features, x: usize, flipped: u64) -> Features {
        // SAFETY: the token proves AVX2.
        unsafe { f.update_avx2(x, flipped) }
    }
    #[inline(always)]
    fn evaluate(self, w: &Weights, f: &Features, n_empties: usize) -> i32 {
        // SAFETY: the token proves AVX2.
        unsafe { w.evaluate_avx2(f, n_empties) }
    }
}

/// Entry points of the search copies of one kernel, callable from generic code.
pub trait Searches: Eval {
    /// The root solver ([`Search::solve_root`]).
    fn solve_root(s: &mut Search<Self>, p: u64, o: u64, mode: Mode) -> RootResult;
    /// The midgame principal-variation search ([`Worker::pvs`]), window `alpha..beta`.
    #[allow(clippy::too_many_arguments)]
    fn midgame_pvs(
        worker: &mut Worker<Self>,
        player: u64,
        opponent: u64,
        features: &Features,
        alpha: i32,
        beta: i32,
        depth: u32,
        pv: &mut Vec<u8>,
    ) -> i32;
    /// The midgame null-window search ([`Worker::nws`]), window `alpha..alpha + 1`.
    fn midgame_nws(
        worker: &mut Worker<Self>,
        player: u64,
        opponent: u64,
        features: &Features,
        alpha: i32,
        depth: u32,
    ) -> i32;
    /// The endgame null-window solver at any number of empties ([`Search::nws_any`]).
    #[cfg(test)]
    fn endgame_nws(s: &mut Search<Self>, p: u64, o: u64, alpha: i32) -> i32;
}

/// The entries of kernel `$k`'s copies: each calls a function compiled with `$attr`.
macro_rules! searches {
    ($k:ty, $(#[$attr:meta])*) => {
        // SAFETY (every `unsafe` below): the search holds a token of `$k` (`s.k`, `w.k`), and
        // a token exists only after `Cpu::detect` proved the features the copy is compiled
        // with (none for the portable copy, whose calls are safe).
        impl Searches for $k {
            fn solve_root(s: &mut Search<$k>, p: u64, o: u64, mode: Mode) -> RootResult {
                // SAFETY: see the impl comment: `s.k` proves the features.
                #[allow(unused_unsafe)]
                unsafe {
                    s.solve_root(p, o, mode)
                }
            }
            fn midgame_pvs(
                w: &mut Worker<$k>,
                p: u64,
                o: u64,
                f: &Features,
                alpha: i32,
                beta: i32,
                depth: u32,
                pv: &mut Vec<u8>,
            ) -> i32 {
                // SAFETY: see the impl comment: `w.k` proves the features.
                #[allow(unused_unsafe)]
                unsafe {
                    w.pvs(p, o, f, alpha, beta, depth, pv)
                }
            }
            fn midgame_nws(
                w: &mut Worker<$k>,
                p: u64,
                o: u64,
                f: &Features,
                alpha: i32,
                depth: u32,
            ) -> i32 {
                // SAFETY: see the impl comment: `w.k` proves the features.
                #[allow(unused_unsafe)]
                unsafe {
                    w.nws(p, o, f, alpha, depth)
                }
            }
            #[cfg(test)]
            fn endgame_nws(s: &mut Search<$k>, p: u64, o: u64, alpha: i32) -> i32 {
                // SAFETY: see the impl comment: `s.k` proves the features.
                #[allow(unused_unsafe)]
                unsafe {
                    s.nws_any(p, o, alpha)
                }
            }
        }
    };
}

engine_kernels!(searches);
