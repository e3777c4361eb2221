//! Othello engine: exact endgame solver (seed 003's Edax optimisations) and its command line.
//!
//! Layout: [`bits`] square masks, [`last_flip`] count of the last move's flips, [`stability`]
//! stable discs, [`tt`] transposition table, [`empties`] empty list and parity, [`kernel`]
//! CPU kernels, [`moveorder`] move ordering, [`endgame`] null-window solvers, [`root`] root
//! search and the [`Solver`] API.
#![deny(missing_docs)]

pub mod bits;
pub mod empties;
pub mod endgame;
pub mod eval;
pub mod kernel;
pub mod last_flip;
pub mod matchplay;
pub mod moveorder;
pub mod protocol;
pub mod root;
pub mod search;
pub mod stability;
pub mod train;
pub mod tt;

pub use root::{Mode, RootResult, Solver, PASS};
pub use search::{Clock, Engine, EngineOptions, Info, Limits, MoveScore, Outcome};
