//! Subcommands of the `ply-chess` program, one module each; each only translates arguments into
//! library calls and prints results.

pub mod bench;
pub mod completions;
pub mod datagen;
pub mod eval;
pub mod nnue_data;
pub mod perft;
pub mod probe;
pub mod review;
pub mod train_nnue;
pub mod tune;
pub mod wdl_fit;

/// CPU seconds used by the process so far (all threads), where the system tells.
pub(crate) fn cpu_seconds() -> Option<f64> {
    ply_batch::cputime::process().map(|d| d.as_secs_f64())
}
