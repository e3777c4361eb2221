//! Perft: counts the leaf nodes of the legal move tree to a fixed depth (CPW "Perft"), the standard
//! correctness and speed test of a move generator. The last ply is bulk-counted: leaves are counted
//! by popcounts of target sets, never generated or played.

use crate::sliders::{Magic, Pext, Sliders};
use crate::{Move, Position};

/// Leaf count of the move tree of depth `depth`, using PEXT lookups when the CPU has BMI2; that
/// copy of the recursion is compiled with BMI1/BMI2/POPCNT/LZCNT enabled (see [`Pext::detect`]),
/// so popcounts and bit scans are single instructions even in a portable build.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match Pext::detect() {
        Some(p) => match depth {
            0 => 1,
            // SAFETY: `p` exists, so `Pext::detect` found every feature `perft_pext` is compiled for.
            _ => unsafe { perft_pext(&mut pos.clone(), depth, p) },
        },
        None => perft_with(pos, depth, Magic),
    }
}

/// Perft for the PEXT token, compiled with the features that [`Pext::detect`] checks. Entered
/// only through [`perft`]. Each move is played with the light `apply::<false>`, which leaves hash,
/// pawn key, material and move counters alone (perft never reads them), and taken back by copying
/// the saved position over the board. Measured against the alternatives
/// (docs/benchmarks/chess-speed.md): faster
/// than make/unmake with the full update, and the only form that is fastest both in a portable
/// build and with AVX2 enabled (`-C target-cpu=native`), where copy-making into a fresh child was
/// about 5 % slower.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
fn perft_pext(pos: &mut Position, depth: u32, s: Pext) -> u64 {
    if depth <= 1 {
        return pos.count_legal_moves_inline(s);
    }
    let mut nodes = 0;
    let saved = *pos;
    for &m in saved.legal_moves_inline(s).iter() {
        pos.apply::<false>(m);
        nodes += if depth == 2 {
            pos.count_legal_moves_inline(s)
        } else {
            perft_pext(pos, depth - 1, s)
        };
        *pos = saved;
    }
    nodes
}

#[cfg(not(target_arch = "x86_64"))]
unsafe fn perft_pext(pos: &mut Position, depth: u32, s: Pext) -> u64 {
    perft_with(pos, depth, s)
}

/// Perft with an explicit slider lookup. Uses make/unmake on one board, measured a little faster
/// than copy-make here (see docs/benchmarks/chess-speed.md and
/// `examples/perft_vs_cozy.rs --variants`).
pub fn perft_with<S: Sliders>(pos: &Position, depth: u32, s: S) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves_with(s),
        _ => perft_inner(&mut pos.clone(), depth, s),
    }
}

/// Recursion for depth >= 2; the last ply is bulk-counted.
fn perft_inner<S: Sliders>(pos: &mut Position, depth: u32, s: S) -> u64 {
    let moves = pos.legal_moves_with(s);
    let mut nodes = 0;
    for &m in moves.iter() {
        let undo = pos.make(m);
        nodes += if depth == 2 {
            pos.count_legal_moves_with(s)
        } else {
            perft_inner(pos, depth - 1, s)
        };
        pos.unmake(m, &undo);
    }
    nodes
}

/// Perft by copy-make ([`Position::play`]), kept as the measured alternative to [`perft_with`].
pub fn perft_copy_make<S: Sliders>(pos: &Position, depth: u32, s: S) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves_with(s),
        _ => pos
            .legal_moves_with(s)
            .iter()
            .map(|&m| perft_copy_make(&pos.play(m), depth - 1, s))
            .sum(),
    }
}

/// Perft split by root move ("divide"), in move-generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let depth = depth.max(1);
    pos.legal_moves()
        .iter()
        .map(|&m| (m, perft(&pos.play(m), depth - 1)))
        .collect()
}
