//! `ply-othello train`: fits the pattern evaluation on the WTHOR games (or only measures a
//! weight file) and reports the held-out mean absolute errors.

use super::CliError;
use clap::Args;
use ply_othello_engine::train::pipeline::{self, Options};
use ply_othello_engine::train::FitConfig;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `train`.
#[derive(Args)]
pub struct TrainArgs {
    /// Directory of the WTHOR `*.wtb` files.
    #[arg(long, default_value = "../shared/othello/wthor")]
    wthor: PathBuf,
    /// Extra training positions with exact scores (`<64 squares> <X|O> <score>` a line).
    #[arg(long)]
    labels: Vec<PathBuf>,
    /// Write the weights in ply's compressed format.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write the weights in Edax's `eval.dat` format.
    #[arg(long)]
    edax_out: Option<PathBuf>,
    /// Save each fitted stage here and skip stages already saved (resume).
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Do not fit: measure this weight file (ply or Edax format) on the held-out games.
    #[arg(long)]
    measure: Option<PathBuf>,
    /// Full-batch Adam epochs of the first stage.
    #[arg(long, default_value_t = 60)]
    epochs_first: usize,
    /// Epochs of the later, warm-started stages.
    #[arg(long, default_value_t = 40)]
    epochs: usize,
    /// Adam step size in discs.
    #[arg(long, default_value_t = 0.5)]
    lr: f32,
    /// Adam step size at the last epoch of each stage (geometric decay).
    #[arg(long, default_value_t = 0.5)]
    lr_end: f32,
    /// L2 regularisation coefficient.
    #[arg(long, default_value_t = 1e-5)]
    l2: f32,
    /// A stage trains on positions within this many empties of its own.
    #[arg(long, default_value_t = 2)]
    window: u32,
    /// Quantum of the stored weights, in 1/128 disc.
    #[arg(long, default_value_t = 4)]
    quantum: u16,
    /// Hide the progress bars.
    #[arg(long)]
    quiet: bool,
    /// Numbers of empties at which positions are solved exactly (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "14,20")]
    exact_empties: Vec<u8>,
    /// Solve this many held-out positions per number of empties and report the error.
    #[arg(long, default_value_t = 0)]
    solve_test: usize,
    /// Solve this many training positions per number of empties and train on them too.
    #[arg(long, default_value_t = 0)]
    solve_train: usize,
    /// Write the solved training positions to this label file.
    #[arg(long)]
    label_out: Option<PathBuf>,
    /// Weight of the label-file samples (each enters the training set this many times).
    #[arg(long, default_value_t = 1)]
    label_repeat: usize,
    /// Stop once the label file is written.
    #[arg(long)]
    labels_only: bool,
    /// Below this many empties, train only on exact labels (solver label files); 0 = off.
    #[arg(long, default_value_t = 0)]
    exact_below: u8,
}

/// Runs `train`.
pub fn run(a: &TrainArgs) -> Result<ExitCode, CliError> {
    let opts = Options {
        wthor: a.wthor.clone(),
        labels: a.labels.clone(),
        out: a.out.clone(),
        edax_out: a.edax_out.clone(),
        checkpoint: a.checkpoint.clone(),
        measure_only: a.measure.clone(),
        fit: FitConfig {
            epochs_first: a.epochs_first,
            epochs: a.epochs,
            lr: a.lr,
            lr_end: a.lr_end,
            l2: a.l2,
            window: a.window,
            quantum: a.quantum,
        },
        progress: !a.quiet,
        exact_empties: a.exact_empties.clone(),
        solve_test: a.solve_test,
        solve_train: a.solve_train,
        label_out: a.label_out.clone(),
        labels_only: a.labels_only,
        label_repeat: a.label_repeat,
        exact_below: a.exact_below,
    };
    pipeline::run(&opts, &mut std::io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}
