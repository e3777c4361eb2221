//! The engine's side of the crate family's CPU dispatch ([`ply_othello::kernel`]), the bottom
//! layer of the crate: the rules crate detects the CPU and hands out the tokens; this module
//! names the kernels the engine compiles copies for ([`engine_kernels!`]) and picks one
//! ([`with_kernel!`]). It names no search: the layers above add to the tokens, each its own
//! trait: the evaluation (`eval::Eval`), the entry points of the endgame copies
//! (`endgame::EndgameSearch`) and of the midgame copies (`midgame::Searches`).
//!
//! Every search of the engine (endgame solver, solver root, midgame tree) is compiled once per
//! kernel by [`engine_kernels!`], which adds the kernel's `#[target_feature]` attribute: each
//! is generic code (`#[inline(always)]` bodies) inlined into a few lines of entry points per
//! kernel, which call each other through a per-kernel trait (`EndgameKernel`, `RootKernel`,
//! `MidgameKernel`), so every call stays in the same kernel's copy.
//! (A plain generic search, compiled without the kernel's features, runs 6-7 % slower.) Inside a copy, the token's methods (moves, flips, hashing, feature update,
//! evaluation) inline with no per-call dispatch. Callers pick the copy with [`with_kernel!`]
//! (one match on the level) and enter it through those entry traits, whose impls hold the
//! crate's only `unsafe` calls into a copy.
//!
//! The engine compiles a portable and an AVX2 copy; on an AVX-512 CPU it runs the AVX2 copy
//! (an AVX-512 copy of the search has never been measured, so it is not shipped).

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
