//! The search: iterative deepening with aspiration windows over a principal variation search
//! (PVS) with quiescence, run by one or more threads sharing the transposition table (Lazy SMP).
//!
//! Pruning and reductions follow the usual CPW recipes: mate-distance pruning, interior-node
//! recognizers (Heinz's DarkThought recognizers), transposition-table cutoffs, reverse futility
//! pruning, null move, futility and late-move pruning, SEE pruning, late-move reductions, check and
//! singular extensions. Static evaluations are corrected by a pawn-structure correction history
//! (`correction.rs`). The search never prints: it reports through a [`Reporter`].

mod control;
mod info;
mod iterate;
mod job;
mod node;
pub mod params;
mod qsearch;
mod report;
mod shared;
mod tables;
mod threads;
mod worker;

pub use control::Control;
pub use info::{Info, Reporter, Silent};
pub(crate) use job::SearchJob;
pub use job::{Options, SearchResult};
pub(crate) use tables::ThreadTables;
#[cfg(test)]
pub(crate) use threads::search;
pub(crate) use threads::search_with_tables;
pub use threads::STACK;

#[cfg(test)]
mod tests;
