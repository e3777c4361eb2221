//! The engine's side of the crate family's CPU dispatch ([`ply_othello::kernel`]), the bottom
//! layer of the crate: the rules crate detects the CPU and hands out the tokens; this module
//! names the kernels the engine compiles copies for ([`engine_kernels!`]), picks one
//! ([`with_kernel!`]) and declares a search's entry points once ([`search_copies!`]). It names
//! no search: the layers above add to the tokens, each its own trait: the evaluation
//! (`eval::Eval`), the endgame solver with its root (`endgame::EndgameKernel`) and the midgame
//! tree (`midgame::MidgameKernel`).
//!
//! Every search of the engine is compiled once per kernel: its bodies are generic
//! `#[inline(always)]` methods, and [`search_copies!`] gives each listed body one entry per
//! kernel, a function with the kernel's `#[target_feature]` attribute into which the body
//! inlines. The bodies call each other through these entries (`K::nws(self, ...)`), so every
//! call stays in the same kernel's copy. (A plain generic search, compiled without the
//! kernel's features, runs 6-7 % slower.) Inside a copy, the token's methods (moves, flips,
//! hashing, feature update, evaluation) inline with no per-call dispatch. Callers pick the
//! copy with [`with_kernel!`] (one match on the level) and enter it through the same entries,
//! whose one `unsafe` call per entry, written once in [`search_copies!`], is the crate's only
//! `unsafe` call into a copy.
//!
//! The engine compiles a portable, an AVX2 and an AVX-512 copy; the AVX-512 one differs from the
//! AVX2 one by the rules crate's AVX-512 move generation and flips, and by what the compiler
//! does with the wider instruction set in the rest of the search.

#[cfg(target_arch = "x86_64")]
pub(crate) use ply_othello::kernel::{Avx2, Avx512};
pub(crate) use ply_othello::kernel::{Cpu, Kernel, Portable};

/// Instantiates `$m!(token type, attributes)` for each kernel the engine compiles a search
/// copy for (see [`ply_othello::for_each_kernel!`]).
macro_rules! engine_kernels {
    ($m:ident) => {
        ply_othello::for_each_kernel!($m; Portable, Avx2, Avx512);
    };
}
pub(crate) use engine_kernels;

/// Runs `$body` with `$k` bound to the token of the engine's copy for the level `$cpu` (the
/// one match on the level; see [`ply_othello::with_kernel!`]).
macro_rules! with_kernel {
    ($cpu:expr, |$k:ident| $body:expr) => {
        ply_othello::with_kernel!($cpu, |$k| $body; Portable, Avx2, Avx512)
    };
}
pub(crate) use with_kernel;

/// Declares the entry points of one search, each named once: the trait as written, every
/// function taking the search's state first (`s: &mut Search<Self>`), and its impl for each
/// kernel of [`engine_kernels!`]. There the entry `K::name(s, args)` runs `s.name(args)`, the
/// search's generic `#[inline(always)]` body of the same name, inside a function compiled
/// with the kernel's attributes.
///
/// Bodies recurse through the entries (`K::name(self, ...)`), never through `self.name(...)`:
/// that inlines the body instead, and a recursive one would fall out of the copy.
macro_rules! search_copies {
    (
        $(#[$doc:meta])*
        $vis:vis trait $name:ident: $sup:path {
            $(
                $(#[$fattr:meta])*
                fn $f:ident($s:ident: &mut $state:ident<Self> $(, $arg:ident: $ty:ty)* $(,)?)
                    $(-> $ret:ty)?;
            )+
        }
    ) => {
        $(#[$doc])*
        $vis trait $name: $sup {
            $(
                $(#[$fattr])*
                fn $f($s: &mut $state<Self> $(, $arg: $ty)*) $(-> $ret)?;
            )+
        }
        // the per-kernel impl is a macro for `engine_kernels!`; `($)` hands it its `$`
        $crate::kernel::search_copies!(@impl ($) $name {
            $($f ($s: $state) ($($arg: $ty),*) ($($ret)?);)+
        });
    };
    (@impl ($d:tt) $name:ident {
        $($f:ident ($s:ident: $state:ident) ($($arg:ident: $ty:ty),*) ($($ret:ty)?);)+
    }) => {
        macro_rules! search_copy {
            ($d k:ty, $d(#[$d attr:meta])*) => {
                impl $name for $d k {
                    $(
                        fn $f($s: &mut $state<$d k> $(, $arg: $ty)*) $(-> $ret)? {
                            #[allow(clippy::too_many_arguments)]
                            $d(#[$d attr])*
                            fn copy($s: &mut $state<$d k> $(, $arg: $ty)*) $(-> $ret)? {
                                $s.$f($($arg),*)
                            }
                            // SAFETY: the state holds a token of the kernel (its field `k`),
                            // which exists only after `Cpu::detect` proved the features `copy`
                            // is compiled with (none for the portable copy: a safe call).
                            #[allow(unused_unsafe)]
                            unsafe {
                                copy($s $(, $arg)*)
                            }
                        }
                    )+
                }
            };
        }
        $crate::kernel::engine_kernels!(search_copy);
    };
}
pub(crate) use search_copies;
