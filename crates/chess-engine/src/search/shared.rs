//! [`Shared`]: what the threads of one search share (the root, the game, the table, the
//! control, the limits and budget, the node counters, the tablebases and the network).

use super::control::Control;
use crate::nnue::{Kernel, Network};
use crate::time::{Budget, Limits};
use crate::tt::TranspositionTable;
use ply_chess::Position;
use ply_syzygy::Tablebase;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// State shared by the threads of one search.
pub(super) struct Shared<'a> {
    /// The root position and the game's earlier positions (hashes, oldest first).
    pub(super) root: &'a Position,
    pub(super) game: &'a [u64],
    pub(super) tt: &'a TranspositionTable,
    pub(super) control: &'a Control,
    pub(super) limits: &'a Limits,
    pub(super) budget: Budget,
    pub(super) nodes: Vec<AtomicU64>,
    pub(super) tbhits: Vec<AtomicU64>,
    pub(super) tablebase: Option<&'a Tablebase>,
    /// Largest piece count probed (0 without tables).
    pub(super) tb_pieces: u32,
    pub(super) probe_depth: i32,
    pub(super) network: Option<&'a Arc<Network>>,
    /// The CPU level of the network's loops, detected once per search.
    pub(super) kernel: Kernel,
}

impl Shared<'_> {
    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    pub(super) fn total_tbhits(&self) -> u64 {
        self.tbhits.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}
