//! Othello rules: bitboards, move generation, flips, text formats and perft.
#![deny(missing_docs)]
