//! `ply-othello train`: fits the pattern evaluation on the WTHOR games and label files (or only
//! measures a weight file) and reports the held-out mean absolute errors. With neither
//! `--wthor` nor `--labels` it runs on the small built-in set of ply's own self-play labels.

use super::CliError;
use clap::Args;
use ply_othello_tools::train::patterns::{candidate, Shape, CANDIDATES};
use ply_othello_tools::train::pipeline::{self, DataOptions, Options, OutputOptions, SolveOptions};
use ply_othello_tools::train::{FitConfig, Method, PatternSet};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `train`.
#[derive(Args)]
pub struct TrainArgs {
    /// Directory of the WTHOR `*.wtb` files (e.g. `../shared/othello/wthor`); without it the
    /// label files are split into training, validation and test positions, and with no label
    /// file either a small built-in set of ply's self-play labels is used.
    #[arg(long)]
    wthor: Option<PathBuf>,
    /// Training positions with scores (`<64 squares> <X|O> <score>` a line, `datagen` output,
    /// or OBF lines); several files may follow.
    #[arg(long, num_args = 1..)]
    labels: Vec<PathBuf>,
    /// Write the weights in ply's compressed format.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write the weights in Edax's `eval.dat` format.
    #[arg(long)]
    edax_out: Option<PathBuf>,
    /// Save each fitted stage here and skip stages already saved (resume); default: none.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Do not fit: measure this weight file (ply or Edax format) on the held-out games.
    #[arg(long)]
    measure: Option<PathBuf>,
    /// Least-squares solver: `cg` (conjugate gradient, ridge) or `adam` (full-batch Adam, L2).
    #[arg(long, default_value = "cg", value_parser = parse_method)]
    method: Method,
    /// CG ridge strength, in samples (each weight is pulled toward zero like that many samples
    /// with a zero residual).
    #[arg(long, default_value_t = 3.0)]
    ridge: f32,
    /// Weight of a sample d empties away from the stage's own: neighbour_weight^d.
    #[arg(long, default_value_t = 1.0)]
    neighbour_weight: f32,
    /// Huber threshold in discs (CG only; 0 = least squares): residuals beyond it are
    /// down-weighted by iteratively reweighted least squares, since MAE is what is measured.
    #[arg(long, default_value_t = 4.0)]
    huber: f32,
    /// Reweighting rounds of a Huber fit (each of half the stage's iterations).
    #[arg(long, default_value_t = 2)]
    robust_rounds: usize,
    /// Numbers of empties per stage table: 2 (Edax's layout) or 1.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=2))]
    plies: u8,
    /// Fit only these stages (comma-separated; with `--plies 2` stage s serves 2s+11 and
    /// 2s+12 empties, with `--plies 1` s+11); default: every stage.
    #[arg(long, value_delimiter = ',')]
    stages: Vec<u32>,
    /// Iterations (CG) or full-batch epochs (Adam) of the first stage.
    #[arg(long, default_value_t = 120)]
    epochs_first: usize,
    /// Iterations (CG) or epochs (Adam) of the later, warm-started stages.
    #[arg(long, default_value_t = 80)]
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
    /// Offset of the solved training positions: offsets 0, 1, 2 ... solve disjoint sets.
    #[arg(long, default_value_t = 0)]
    solve_offset: usize,
    /// Write the solved held-out positions (`--solve-test`) to this label file.
    #[arg(long)]
    test_label_out: Option<PathBuf>,
    /// Measure against these solved held-out positions (files from `--test-label-out`).
    #[arg(long, num_args = 1..)]
    test_labels: Vec<PathBuf>,
    /// Write the solved training positions to this label file.
    #[arg(long)]
    label_out: Option<PathBuf>,
    /// Weight of the label-file samples (each enters the training set this many times).
    #[arg(long, default_value_t = 1)]
    label_repeat: usize,
    /// Stop once the label file is written.
    #[arg(long)]
    labels_only: bool,
    /// Merge the label files' positions that repeat up to the 8 symmetries into one, labelled
    /// with their mean (exact labels, when some are, outweigh game results); deterministic
    /// self-play repeats whole games. WTHOR's positions are not merged.
    #[arg(long)]
    dedup: bool,
    /// Below this many empties, train only on exact labels (solver label files); 0 = off.
    #[arg(long, default_value_t = 0)]
    exact_below: u8,
    /// Pattern set fitted: `full` (the engine's 62 features: Edax's 46 and the fish, cross,
    /// edge+C2F2 and diagonal+corner kinds) or `edax` (Edax's 46, storable as eval.dat).
    #[arg(long, default_value = "full", value_parser = ["full", "edax"])]
    pattern_set: String,
    /// Candidate shapes fitted besides the set's patterns, to choose new patterns by their
    /// measured errors (comma-separated: triangle, cross, narrow, fish, edgey, diag5x). Such
    /// weights are measured and checkpointed; weight files cannot hold them. Default: none.
    #[arg(long, value_delimiter = ',', value_parser = parse_shape)]
    extra_patterns: Vec<&'static Shape>,
}

/// Runs `train`.
pub fn run(a: &TrainArgs) -> Result<ExitCode, CliError> {
    let opts = Options {
        data: DataOptions {
            wthor: a.wthor.clone(),
            labels: a.labels.clone(),
            label_repeat: a.label_repeat,
            exact_below: a.exact_below,
            dedup: a.dedup,
        },
        solving: SolveOptions {
            exact_empties: a.exact_empties.clone(),
            solve_test: a.solve_test,
            solve_train: a.solve_train,
            solve_offset: a.solve_offset,
            test_label_out: a.test_label_out.clone(),
            test_labels: a.test_labels.clone(),
            label_out: a.label_out.clone(),
            labels_only: a.labels_only,
        },
        fit: FitConfig {
            method: a.method,
            ridge: a.ridge,
            neighbour_weight: a.neighbour_weight,
            stage_mask: if a.stages.is_empty() {
                u64::MAX
            } else {
                a.stages
                    .iter()
                    .fold(0, |m, &s| m | 1u64.checked_shl(s).unwrap_or(0))
            },
            plies: a.plies,
            huber: a.huber,
            robust_rounds: a.robust_rounds,
            epochs_first: a.epochs_first,
            epochs: a.epochs,
            lr: a.lr,
            lr_end: a.lr_end,
            l2: a.l2,
            window: a.window,
            quantum: a.quantum,
        },
        patterns: if a.pattern_set == "edax" {
            PatternSet::edax()
        } else {
            PatternSet::engine()
        }
        .with(&a.extra_patterns),
        measure_only: a.measure.clone(),
        outputs: OutputOptions {
            out: a.out.clone(),
            edax_out: a.edax_out.clone(),
            checkpoint: a.checkpoint.clone(),
        },
        progress: !a.quiet,
    };
    pipeline::run(&opts, &mut std::io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}

fn parse_shape(s: &str) -> Result<&'static Shape, String> {
    candidate(s).ok_or_else(|| {
        let names: Vec<&str> = CANDIDATES.iter().map(|c| c.name).collect();
        format!("unknown pattern {s:?} (one of {})", names.join(", "))
    })
}

fn parse_method(s: &str) -> Result<Method, String> {
    match s {
        "cg" => Ok(Method::Cg),
        "adam" => Ok(Method::Adam),
        _ => Err(format!("unknown method {s:?} (cg or adam)")),
    }
}
