//! Unpruned scores of one position at every depth: the raw data of the Multi-ProbCut fit
//! (`ply-othello fit-mpc` in the tools crate regresses deep scores on shallow ones).

use super::worker::{MidgameKernel, Worker};
use crate::eval::{Features, Weights};
use crate::kernel::{with_kernel, Cpu};
use crate::tt::Tt;
use ply_othello::Board;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Scores of one position from the side to move, searched without selectivity.
#[derive(Clone, Debug)]
pub struct DepthScores {
    /// Empties of the position.
    pub empties: u32,
    /// Score at each depth `0, 1, ...` up to the requested depth (fewer when the empties run out).
    pub by_depth: Vec<i32>,
    /// Exact score, when the position has at most the requested number of empties.
    pub exact: Option<i32>,
}

/// Searches `board` (from the mover's view) at every depth `0..=max_depth` below its empties, without
/// selectivity, and solves it exactly when it has at most `exact_max` empties. Each call uses
/// fresh tables (16 MiB each), so the result does not depend on earlier calls.
pub fn depth_scores(
    weights: &Arc<Weights>,
    board: &Board,
    max_depth: u32,
    exact_max: u32,
) -> DepthScores {
    let (player, opponent) = (board.player(), board.opponent());
    with_kernel!(Cpu::detect(), |k| scores_with(
        k, weights, player, opponent, max_depth, exact_max
    ))
}

fn scores_with<K: MidgameKernel>(
    k: K,
    w: &Arc<Weights>,
    p: u64,
    o: u64,
    max_depth: u32,
    exact_max: u32,
) -> DepthScores {
    let empties = 64 - (p | o).count_ones();
    let abort = Arc::new(AtomicBool::new(false));
    let mut wk = Worker::new(
        k,
        Arc::clone(w),
        Arc::new(Tt::new(16)),
        Arc::new(Tt::new(16)),
        abort,
    );
    let f = Features::new(p, o);
    let mut pv = Vec::new();
    let by_depth = (0..=max_depth)
        .take_while(|&d| d < empties)
        .map(|d| K::pvs(&mut wk, p, o, &f, -64, 64, d, &mut pv))
        .collect();
    let exact =
        (empties <= exact_max).then(|| K::pvs(&mut wk, p, o, &f, -64, 64, empties, &mut pv));
    DepthScores {
        empties,
        by_depth,
        exact,
    }
}
