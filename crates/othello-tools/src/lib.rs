//! Offline tools of the ply Othello engine (not meant for crates.io): self-play training data
//! ([`datagen`]: random openings, engine play, exact endings, labelled positions), the training
//! pipeline of
//! the pattern evaluation ([`train`]: samples from WTHOR games, exact labels, per-stage fit,
//! held-out errors), the fit of the Multi-ProbCut predictors ([`mpc`]), and matches against an
//! external GTP engine ([`matchplay`]), the games an external engine plays against itself
//! ([`engine_games`]), and the test sets of the evaluation ([`testset`]: from self-play games,
//! or from an external engine's games). The
//! `ply-othello` program runs them as `datagen`, `train`, `fit-mpc`, `match` and `testset`.
//!
//! Every module is public (the `ply-othello` program drives each): [`datagen`], [`train`] with its
//! `dataset`, `exact`, `fit`, `measure` and `pipeline` steps, [`mpc`], and [`matchplay`] with
//! its `client`, `openings`, `game`, `stats` and `runner` (the match loop) parts.
//!
//! A match's result as an Elo difference (the statistics need no engine and no files):
//!
//! ```
//! use ply_othello_tools::matchplay::{elo_from_score, Tally};
//! let mut tally = Tally::default();
//! for diff in [10, -4, 0, 22] {
//!     tally.add(diff); // final disc differential of each game, from ply's side
//! }
//! assert_eq!((tally.wins, tally.draws, tally.losses), (2, 1, 1));
//! assert_eq!(tally.score(), 0.625);
//! let (elo, half_width) = tally.elo();
//! assert!((elo - elo_from_score(0.625)).abs() < 1e-9 && elo > 88.0 && elo < 89.0);
//! assert!(half_width > 0.0);
//! ```
#![deny(missing_docs)]

pub mod book;
pub mod datagen;
pub mod engine_games;
pub mod matchplay;
pub mod mpc;
pub mod testset;
pub mod train;
