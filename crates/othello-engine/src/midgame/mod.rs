//! Midgame search and the engine's `think` (Edax's `midgame.c` and `root.c`): iterative
//! deepening principal-variation search on the pattern evaluation, Multi-ProbCut, a
//! transposition table, the exact solver near the end of the game, Edax-like levels, a game
//! clock and Lazy-SMP threads.
//!
//! Layout: [`mod@level`] the level table, [`mpc`] the fitted probcut predictors (fitted by the
//! `ply-othello fit-mpc` command of the tools crate) and [`depth_scores()`] the unpruned scores behind that fit are public; inside are `worker` the
//! tree search of one thread, `time` the clock budget and the timer, `think` the root
//! (iterations, aspiration, threads). The public entry is [`crate::Engine`].

mod depth_scores;
pub mod level;
pub mod mpc;
pub(crate) mod think;
pub(crate) mod time;
pub(crate) mod worker;

#[cfg(test)]
mod tests;

pub use depth_scores::{depth_scores, DepthScores};
pub use level::{level, Level, DEFAULT_LEVEL, SELECTIVITIES};
pub(crate) use worker::MidgameKernel;
