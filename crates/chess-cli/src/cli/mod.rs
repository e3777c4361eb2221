//! Subcommands of the `ply-chess` program, one module each; each only translates arguments into
//! library calls and prints results.

pub mod bench;
pub mod datagen;
pub mod eval;
pub mod nnue_data;
pub mod perft;
pub mod probe;
pub mod train_nnue;
pub mod tune;
