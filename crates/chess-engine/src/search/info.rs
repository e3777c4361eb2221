//! Progress reports: [`Info`] (one UCI `info` line) and the [`Reporter`] that receives them.

use crate::tt::Bound;
use ply_chess::Move;
use std::time::Duration;

/// One progress report (a UCI `info` line).
#[derive(Clone, Debug)]
pub struct Info {
    /// Depth of the iteration: a completed one for an exact score, the one in progress for a
    /// bound (an aspiration failure, or the line played when the search stopped inside it).
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// 1-based line number (MultiPV).
    pub multipv: usize,
    /// Score from the side to move in centipawns; mate in `n` plies is [`MATE`](crate::MATE)` - n`
    /// (see [`mate_in`](crate::mate_in)).
    pub score: i32,
    /// Exact, or a bound after an aspiration failure.
    pub bound: Bound,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Elapsed time.
    pub time: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// Tablebase hits.
    pub tbhits: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// Receives progress reports from the search.
pub trait Reporter: Sync {
    /// Called for each completed iteration (and each line with MultiPV).
    fn info(&self, info: &Info);
}

/// A reporter that discards everything (bench, tests).
pub struct Silent;

impl Reporter for Silent {
    fn info(&self, _: &Info) {}
}

/// Closures are reporters: `engine.think(.., &|info: &Info| ...)`.
impl<F: Fn(&Info) + Sync> Reporter for F {
    fn info(&self, info: &Info) {
        self(info);
    }
}
