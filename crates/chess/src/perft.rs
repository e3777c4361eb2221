//! Perft: counts the leaf nodes of the legal move tree to a fixed depth (CPW "Perft"), the standard
//! correctness and speed test of a move generator. The last ply is bulk-counted: leaves are counted
//! by popcounts of target sets, never generated or played.

use crate::sliders::{Magic, Pext, Sliders};
use crate::{Move, Position};

/// Leaf count of the move tree of depth `depth`, using PEXT lookups when the CPU has BMI2.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match Pext::detect() {
        Some(p) => perft_with(pos, depth, p),
        None => perft_with(pos, depth, Magic),
    }
}

/// Perft with an explicit slider lookup. Uses make/unmake on one board, measured a little faster
/// than copy-make here (see BENCHMARKS.md and `examples/perft_vs_cozy.rs --variants`).
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
