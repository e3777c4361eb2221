//! Node counts by number of empties and by search stage: where a search tree spends its nodes,
//! level by level, to compare it with another program's (Edax counts its nodes per function;
//! issue 61 compares the two trees per empties level and per selective stage).
//!
//! The counters exist only in builds with the `node-stats` feature. Without it [`ENABLED`] is
//! false, the counting calls are empty and inline to nothing, and [`take`] returns no stages,
//! so the search pays nothing for them. With it, each thread counts the nodes it visits
//! itself (a thread-local table): a solve on one thread is counted whole, while the nodes that
//! helper threads of a split search visit are not.
//!
//! A node is counted where the search counts it in its own node total (the figure `solve`
//! and `bench` report), at the number of empties of the position searched: the sum of a
//! stage's counts is that stage's share of the total.

/// Whether this build counts nodes by empties (the `node-stats` feature).
pub const ENABLED: bool = cfg!(feature = "node-stats");

/// Nodes counted since the previous stage ended (or since the last [`take`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageNodes {
    /// The iteration of the iterated search that visited these nodes, as (depth in plies,
    /// selectivity in percent), or `None` for nodes outside the iterations (a solve of few
    /// empties that goes to the solver at once, or a part of a stage cut short).
    pub stage: Option<(u8, u8)>,
    /// `by_empties[n]`: nodes visited with `n` empty squares on the board.
    pub by_empties: [u64; 65],
}

impl StageNodes {
    /// All nodes of the stage.
    pub fn total(&self) -> u64 {
        self.by_empties.iter().sum()
    }
}

#[cfg(feature = "node-stats")]
mod counters {
    use super::StageNodes;
    use std::cell::{Cell, RefCell};

    thread_local! {
        static COUNTS: Cell<[u64; 65]> = const { Cell::new([0; 65]) };
        static STAGES: RefCell<Vec<StageNodes>> = const { RefCell::new(Vec::new()) };
    }

    pub fn count(empties: u32) {
        COUNTS.with(|c| {
            let mut a = c.get();
            a[(empties as usize).min(64)] += 1;
            c.set(a);
        });
    }

    pub fn end_stage(stage: Option<(u8, u8)>) {
        let by_empties = COUNTS.with(|c| c.replace([0; 65]));
        if by_empties.iter().any(|&n| n != 0) {
            STAGES.with(|s| s.borrow_mut().push(StageNodes { stage, by_empties }));
        }
    }

    pub fn take() -> Vec<StageNodes> {
        end_stage(None);
        STAGES.with(|s| std::mem::take(&mut *s.borrow_mut()))
    }
}

/// Counts one node at `empties` empty squares (nothing without the `node-stats` feature).
#[inline(always)]
pub(crate) fn count(empties: u32) {
    #[cfg(feature = "node-stats")]
    counters::count(empties);
    #[cfg(not(feature = "node-stats"))]
    let _ = empties;
}

/// Closes the counts of the current stage under `stage` (depth in plies, selectivity in
/// percent).
#[inline]
pub(crate) fn end_stage(stage: (u8, u8)) {
    #[cfg(feature = "node-stats")]
    counters::end_stage(Some(stage));
    #[cfg(not(feature = "node-stats"))]
    let _ = stage;
}

/// The calling thread's stages counted since the previous call, oldest first; nodes counted
/// after the last completed stage come last, with `stage: None`. Always empty without the
/// `node-stats` feature.
pub fn take() -> Vec<StageNodes> {
    #[cfg(feature = "node-stats")]
    return counters::take();
    #[cfg(not(feature = "node-stats"))]
    Vec::new()
}

#[cfg(all(test, feature = "node-stats"))]
mod tests {
    use super::*;
    use crate::{Mode, Solver, ITERATED_FROM};

    /// FFO #40 (20 empties, A2 +38).
    const FFO_40: &str =
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;";

    #[test]
    fn the_counts_by_empties_add_up_to_the_solves_nodes() {
        let obf = ply_othello::parse_obf_line(FFO_40).unwrap().unwrap();
        let board = obf.position.board;
        assert!(board.empty_count() >= ITERATED_FROM);
        take();
        let mut solver = Solver::new(16, false);
        let r = solver.solve(&board, Mode::Exact);
        assert_eq!(r.score, 38);
        let stages = take();
        let total: u64 = stages.iter().map(StageNodes::total).sum();
        assert_eq!(total, r.nodes);
        // an iterated solve: midgame iterations, then a selective and the exact stage
        let exact = stages
            .iter()
            .find(|s| s.stage == Some((20, 100)))
            .expect("the exact stage");
        assert!(stages.iter().any(|s| s.stage == Some((20, 73))));
        // the exact stage reaches every level from its root's children down to one empty
        assert!((1..20).all(|n| exact.by_empties[n] > 0));
        assert!(exact.by_empties[21..].iter().all(|&n| n == 0));
        assert!(take().is_empty());
    }
}
