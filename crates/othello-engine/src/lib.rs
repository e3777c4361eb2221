//! Othello engine: pattern evaluation, endgame solver, midgame search and protocols.
#![deny(missing_docs)]
