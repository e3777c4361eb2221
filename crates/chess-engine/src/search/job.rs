//! What a search is asked ([`SearchJob`], [`Options`]) and what it answers ([`SearchResult`]).

use super::control::Control;
use super::info::Reporter;
use crate::nnue::Network;
use crate::time::Limits;
use crate::tt::TranspositionTable;
use ply_chess::{Move, Position};
use ply_syzygy::Tablebase;
use std::sync::Arc;

/// Search settings that are not per-move limits.
#[derive(Clone, Debug)]
pub struct Options {
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for communication delays.
    pub move_overhead: u64,
    /// Syzygy tables, probed in search and used to filter root moves.
    pub tablebase: Option<Arc<Tablebase>>,
    /// Minimum remaining depth for WDL probes at interior nodes (`SyzygyProbeDepth`).
    pub probe_depth: i32,
    /// The learned evaluation; `None` searches with the hand-made [`evaluate`](crate::evaluate).
    /// Recognizers and tablebases still come first, and the correction history applies to both.
    pub network: Option<Arc<Network>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 1,
            multipv: 1,
            move_overhead: 10,
            tablebase: None,
            probe_depth: 1,
            network: None,
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Best move (`Move::NULL` when there is no legal move).
    pub best: Move,
    /// Expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

/// What one search is asked to do: the position and its game history (hashes of the earlier
/// positions, oldest first, excluding `pos`), the shared transposition table, the stop control,
/// the limits, the options and where progress is reported.
#[derive(Clone, Copy)]
pub struct SearchJob<'a> {
    /// The position to search.
    pub pos: &'a Position,
    /// Hashes of the game's earlier positions, oldest first (for repetitions).
    pub history: &'a [u64],
    /// The transposition table (shared by the threads, kept between searches).
    pub tt: &'a TranspositionTable,
    /// Stop and ponder-hit signals from the front end.
    pub control: &'a Control,
    /// Depth, node, time and move limits.
    pub limits: &'a Limits,
    /// Threads, MultiPV, tablebases and the other options.
    pub options: &'a Options,
    /// Receives the iteration reports.
    pub reporter: &'a dyn Reporter,
}

impl<'a> SearchJob<'a> {
    /// A search of `pos` with no game history, reporting nothing (set the public fields for more).
    #[cfg(test)]
    pub fn new(
        pos: &'a Position,
        tt: &'a TranspositionTable,
        control: &'a Control,
        limits: &'a Limits,
        options: &'a Options,
    ) -> SearchJob<'a> {
        SearchJob {
            pos,
            history: &[],
            tt,
            control,
            limits,
            options,
            reporter: &super::info::Silent,
        }
    }
}
