//! Othello engine: exact endgame solver (seed 003's Edax optimisations) and its command line.
//!
//! Layout: [`bits`] square masks, [`last_flip`] count of the last move's flips, [`stability`]
//! stable discs, [`tt`] transposition table.
#![deny(missing_docs)]

pub mod bits;
pub mod eval;
pub mod last_flip;
pub mod stability;
pub mod tt;
