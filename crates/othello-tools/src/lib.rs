//! Offline tools of the ply Othello engine (not meant for crates.io): the training pipeline of
//! the pattern evaluation ([`train`]: samples from WTHOR games, exact labels, per-stage fit,
//! held-out errors), the fit of the Multi-ProbCut predictors ([`mpc`]), and matches against an
//! external GTP engine ([`matchplay`]). The `ply-othello` program runs them as `train`,
//! `fit-mpc` and `match`.
#![deny(missing_docs)]

pub mod matchplay;
pub mod mpc;
pub mod train;
