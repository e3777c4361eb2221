//! The whole training run behind `ply-othello train`: read WTHOR, build the splits, fit every
//! stage (with progress bars and per-epoch logs), write the weights in ply's and optionally
//! Edax's format, and report the held-out errors. Without WTHOR games the label files (or, with
//! none, the built-in self-play labels of [`super::builtin`]) are split into training,
//! validation and test positions instead.

use super::builtin;
use super::dataset::{merge_symmetric, read_labels, split_of, Dataset, LabelError, Sample, Split};
use super::exact;
use super::fit::{fit_all, FitConfig, FitError, Model};
use super::measure::{measure, MaeRow};
use super::patterns::PatternSet;
use ply_batch::progress_bar as bar;
use ply_othello::wthor::{self, WthorError};
use ply_othello_engine::eval::{self, EdaxFile, LoadError, PackedWeights};
use ply_othello_engine::Solver;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// What to do: where the data comes from, which positions are solved, how to fit, and where the
/// results go.
#[derive(Clone, Debug)]
pub struct Options {
    /// Training data.
    pub data: DataOptions,
    /// Positions solved exactly (for training labels and for measurements).
    pub solving: SolveOptions,
    /// Fit hyper-parameters.
    pub fit: FitConfig,
    /// The pattern set fitted: the engine's or Edax's, optionally with candidate shapes (whose
    /// weights can be measured and checkpointed but not written as a weight file).
    pub patterns: PatternSet,
    /// Instead of fitting, only measure these weights (either format).
    pub measure_only: Option<PathBuf>,
    /// Where the weights go.
    pub outputs: OutputOptions,
    /// Show progress bars.
    pub progress: bool,
}

/// Where the training samples come from.
#[derive(Clone, Debug)]
pub struct DataOptions {
    /// Directory of `WTH_*.wtb` files; `None`: no games, the label files are split into
    /// training, validation and test positions (see [`read_data`]).
    pub wthor: Option<PathBuf>,
    /// Extra labelled positions (exact scores), added to the training set.
    pub labels: Vec<PathBuf>,
    /// Each label-file sample enters the training set this many times (its weight).
    pub label_repeat: usize,
    /// Train only on exact labels below this number of empties (0: keep every sample).
    pub exact_below: u8,
    /// Merge the label files' positions that repeat up to symmetry into one sample with their
    /// mean label ([`merge_symmetric`]); the WTHOR games' positions are left as they are.
    pub dedup: bool,
}

/// Which positions are solved exactly, and where the solved ones are written or read.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Numbers of empties at which positions are solved exactly.
    pub exact_empties: Vec<u8>,
    /// Held-out positions solved per number of empties to measure against perfect play.
    pub solve_test: usize,
    /// Training positions solved per number of empties and added as exact labels.
    pub solve_train: usize,
    /// Offset of the solved training positions (see [`exact::pick`]): successive offsets
    /// label disjoint sets.
    pub solve_offset: usize,
    /// Where to write the solved held-out positions (`solve_test`) as a label file.
    pub test_label_out: Option<PathBuf>,
    /// Solved held-out positions to measure against (label files from `test_label_out`).
    pub test_labels: Vec<PathBuf>,
    /// Where to write the solved training positions as a label file.
    pub label_out: Option<PathBuf>,
    /// Stop after writing the label file (no fit, no measurement).
    pub labels_only: bool,
}

/// Where the fitted weights go.
#[derive(Clone, Debug)]
pub struct OutputOptions {
    /// Output in ply's compressed format.
    pub out: Option<PathBuf>,
    /// Output in Edax's `eval.dat` format.
    pub edax_out: Option<PathBuf>,
    /// Directory of per-stage checkpoints (makes the run resumable).
    pub checkpoint: Option<PathBuf>,
}

/// Errors of a training run.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// WTHOR files could not be read.
    #[error(transparent)]
    Wthor(#[from] WthorError),
    /// A label file could not be read.
    #[error(transparent)]
    Labels(#[from] LabelError),
    /// A checkpoint could not be written.
    #[error(transparent)]
    Fit(#[from] FitError),
    /// Weights to measure could not be read.
    #[error("cannot read {0}: {1}")]
    Read(PathBuf, std::io::Error),
    /// Weights to measure do not parse.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// Output could not be written.
    #[error("cannot write {0}: {1}")]
    Write(PathBuf, std::io::Error),
    /// Weights of candidate patterns were asked for in a weight file, or weights beyond Edax's
    /// patterns in an `eval.dat`.
    #[error(
        "these weights cannot be written in that format: ply's files hold the engine's patterns \
         (no candidates; --checkpoint keeps the fitted stages), eval.dat Edax's alone"
    )]
    NoFormat,
}

/// Runs the pipeline, writing logs and the final error table to `log`; returns the table rows
/// (20..=24 empties) of the held-out test set. The steps, in order: [`read_data`], then
/// [`label_train`] (which may end the run with `labels_only`), [`keep_exact_below`],
/// [`fit_or_load`], [`write_weights`], [`measure_test`], [`solved_test_sets`] and
/// [`report_solved`].
///
/// # Errors
/// [`PipelineError`] on unreadable inputs or unwritable outputs.
pub fn run(opts: &Options, log: &mut dyn Write) -> Result<Vec<MaeRow>, PipelineError> {
    check_outputs(opts)?;
    let writes = opts.outputs.out.is_some() || opts.outputs.edax_out.is_some();
    if writes && !opts.patterns.is_storable() && opts.measure_only.is_none() {
        return Err(PipelineError::NoFormat);
    }
    let mut ds = read_data(opts, log)?;
    // one solver (and transposition table) for the training and the held-out solves
    let mut solver = (opts.solving.solve_test > 0 || opts.solving.solve_train > 0)
        .then(|| Solver::new(64, false));
    if let (Some(solver), true) = (solver.as_mut(), opts.solving.solve_train > 0) {
        label_train(opts, &mut ds, solver, log)?;
        if opts.solving.labels_only {
            return Ok(Vec::new());
        }
    }
    keep_exact_below(opts, &mut ds, log);
    let _ = writeln!(
        log,
        "games {} (rejected {}), samples: train {}, validation {}, test {}",
        ds.games,
        ds.rejected,
        ds.train.len(),
        ds.validation.len(),
        ds.test.len()
    );
    let weights = fit_or_load(opts, &ds, log)?;
    write_weights(opts, &weights, log)?;
    let rows = measure_test(&weights, &ds, log);
    let solved_test = solved_test_sets(opts, &ds, solver.as_mut(), log)?;
    report_solved(&weights, &solved_test, log);
    Ok(rows)
}

/// Refuses, before any work, an output file whose folder does not exist or that is a folder:
/// otherwise a whole fit would run only to fail at the end.
///
/// # Errors
/// [`PipelineError::Write`] naming the first such output.
pub fn check_outputs(opts: &Options) -> Result<(), PipelineError> {
    let outputs = [
        &opts.outputs.out,
        &opts.outputs.edax_out,
        &opts.solving.label_out,
        &opts.solving.test_label_out,
    ];
    for path in outputs.into_iter().flatten() {
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => std::path::Path::new("."),
        };
        let problem = if path.is_dir() {
            Some("it is a folder")
        } else if !folder.is_dir() {
            Some("its folder does not exist")
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(PipelineError::Write(
                path.clone(),
                std::io::Error::new(std::io::ErrorKind::NotFound, problem),
            ));
        }
    }
    Ok(())
}

/// Step 1, read data: replays the WTHOR games into the splits (only the test split when
/// measuring), reads the test label files into [`Dataset::test_labels`] and adds the label
/// files' positions to the training set (with `dedup`, repeats up to symmetry merged first),
/// each replacing the game-labelled sample of the same position and entering `label_repeat`
/// times; test positions, up to symmetry, are left out of training.
///
/// Without a WTHOR directory there are no games: the label files' positions (the built-in
/// self-play labels when no label file is given either, which is logged) are split by a hash
/// of the board, a tenth to the test set, a tenth to validation, the rest to training.
///
/// # Errors
/// Unreadable WTHOR or label files.
pub fn read_data(opts: &Options, log: &mut dyn Write) -> Result<Dataset, PipelineError> {
    let mut ds = match &opts.data.wthor {
        Some(dir) => read_wthor(dir, opts)?,
        None => Dataset::default(),
    };
    let mut labelled = Vec::new();
    for path in &opts.data.labels {
        labelled.extend(read_labels(path)?);
    }
    if opts.data.dedup {
        let read = labelled.len();
        let merged = merge_symmetric(&mut labelled);
        let _ = writeln!(
            log,
            "--dedup: {read} label-file positions, {} after merging {merged} repeats up to symmetry",
            labelled.len()
        );
    }
    if opts.data.wthor.is_none() {
        if opts.data.labels.is_empty() {
            labelled = builtin::samples()?;
            let _ = writeln!(
                log,
                "no --wthor and no --labels: training on the {} {} (`{}`), a demonstration \
                 far too small for useful weights",
                labelled.len(),
                builtin::NAME,
                builtin::COMMAND
            );
        }
        split_labels(&mut ds, &mut labelled, opts.measure_only.is_some());
        let _ = writeln!(
            log,
            "no WTHOR games: label positions split by board into train {}, validation {}, test {}",
            labelled.len(),
            ds.validation.len(),
            ds.test.len()
        );
    }
    for path in &opts.solving.test_labels {
        ds.test_labels.extend(read_labels(path)?);
    }
    if !ds.test_labels.is_empty() {
        // test positions stay out of training, up to symmetry (the strong-play test set's
        // games are disjoint from the training games; this also covers repeated positions)
        let test: std::collections::HashSet<_> = ds
            .test_labels
            .iter()
            .map(|s| crate::testset::key(&s.board))
            .collect();
        let before = ds.train.len() + labelled.len();
        ds.train
            .retain(|s| !test.contains(&crate::testset::key(&s.board)));
        labelled.retain(|s| !test.contains(&crate::testset::key(&s.board)));
        let dropped = before - ds.train.len() - labelled.len();
        if dropped > 0 {
            let _ = writeln!(
                log,
                "{dropped} training positions are test positions (up to symmetry): left out"
            );
        }
    }
    if !labelled.is_empty() {
        // an exact label replaces the game label of the same training position
        let solved: std::collections::HashSet<ply_othello::Board> =
            labelled.iter().map(|s| s.board).collect();
        let before = ds.train.len();
        ds.train.retain(|s| !solved.contains(&s.board));
        let _ = writeln!(
            log,
            "label files: {} positions ({} replace a game-labelled training position)",
            labelled.len(),
            before - ds.train.len()
        );
        for _ in 0..opts.data.label_repeat.max(1) {
            ds.train.extend_from_slice(&labelled);
        }
    }
    Ok(ds)
}

/// Replays the WTHOR games of `dir` into the splits (only the test split when measuring).
fn read_wthor(dir: &std::path::Path, opts: &Options) -> Result<Dataset, PipelineError> {
    let files = wthor::read_dir(dir)?;
    let total: usize = files.iter().map(|(_, f)| f.games.len()).sum();
    let pb = bar(
        total as u64,
        opts.progress,
        "replay {bar:40} {pos}/{len} games {elapsed}",
    );
    let keep: &[Split] = if opts.measure_only.is_some() {
        &[Split::Test]
    } else {
        &[Split::Train, Split::Validation, Split::Test]
    };
    let ds = Dataset::from_wthor(&files, keep, |n| pb.inc(n as u64));
    pb.finish_and_clear();
    Ok(ds)
}

/// Without games, moves the label positions whose board hash falls in the test or validation
/// tenth ([`split_of`]) out of `labelled` into `ds` (only the test ones, dropping the rest,
/// when `measure_only`).
fn split_labels(ds: &mut Dataset, labelled: &mut Vec<Sample>, measure_only: bool) {
    let mut train = Vec::with_capacity(labelled.len());
    for s in labelled.drain(..) {
        match split_of((s.board.hash() % 10) as usize) {
            Split::Test => ds.test.push(s),
            Split::Validation if !measure_only => ds.validation.push(s),
            Split::Train if !measure_only => train.push(s),
            _ => {}
        }
    }
    *labelled = train;
}

/// Step 2, label: solves `solve_train` training positions per number of `exact_empties`,
/// writes them to `label_out` if asked, and adds them to the training set.
///
/// # Errors
/// An unwritable label file.
pub fn label_train(
    opts: &Options,
    ds: &mut Dataset,
    solver: &mut Solver,
    log: &mut dyn Write,
) -> Result<(), PipelineError> {
    let n = opts.solving.solve_train * opts.solving.exact_empties.len();
    let pb = bar(
        n as u64,
        opts.progress,
        "solve train {bar:40} {pos}/{len} {elapsed} eta {eta}",
    );
    let mut solved = Vec::with_capacity(n);
    for &e in &opts.solving.exact_empties {
        solved.extend(exact::solve_samples(
            &ds.train,
            e,
            opts.solving.solve_train,
            opts.solving.solve_offset,
            solver,
            || pb.inc(1),
        ));
    }
    pb.finish_and_clear();
    if let Some(path) = &opts.solving.label_out {
        let mut f =
            std::fs::File::create(path).map_err(|e| PipelineError::Write(path.clone(), e))?;
        exact::write_labels(&mut f, &solved).map_err(|e| PipelineError::Write(path.clone(), e))?;
        let _ = writeln!(
            log,
            "wrote {} solved training positions to {}",
            solved.len(),
            path.display()
        );
    }
    ds.train.extend(solved);
    Ok(())
}

/// With `exact_below` set, drops the training samples below that many empties that are not
/// exact, and the validation samples below it.
pub fn keep_exact_below(opts: &Options, ds: &mut Dataset, log: &mut dyn Write) {
    if opts.data.exact_below == 0 {
        return;
    }
    ds.train
        .retain(|s| s.exact || s.empties >= opts.data.exact_below);
    ds.validation.retain(|s| s.empties >= opts.data.exact_below);
    let _ = writeln!(
        log,
        "training on exact labels only below {} empties: {} samples",
        opts.data.exact_below,
        ds.train.len()
    );
}

/// Step 3, fit: fits every stage (logging each epoch), or loads `measure_only` instead.
///
/// # Errors
/// Unloadable weights or an unwritable checkpoint.
pub fn fit_or_load(
    opts: &Options,
    ds: &Dataset,
    log: &mut dyn Write,
) -> Result<Model, PipelineError> {
    if let Some(path) = &opts.measure_only {
        let bytes = std::fs::read(path).map_err(|e| PipelineError::Read(path.clone(), e))?;
        return Ok(Model::engine(eval::parse_weights(&bytes)?));
    }
    let cfg = opts.fit;
    let per_stage = |e: usize| {
        let robust = cfg.method == super::fit::Method::Cg && cfg.huber > 0.0;
        e + if robust {
            cfg.robust_rounds * super::fit::robust_iterations(e)
        } else {
            0
        }
    };
    let epochs_total = (per_stage(cfg.epochs_first)
        + (super::fit::n_stages(cfg.plies) - 1) * per_stage(cfg.epochs))
        as u64;
    let pb = bar(
        epochs_total,
        opts.progress,
        "fit {bar:40} {pos}/{len} epochs {elapsed} eta {eta} {msg}",
    );
    let mut on_epoch = |e: super::fit::EpochLog| {
        pb.inc(1);
        pb.set_message(format!(
            "stage {} mse {:.2} mae {:.3} val-mae {:.3}",
            e.stage, e.train_mse, e.train_mae, e.validation_mae
        ));
        // a stage without validation positions (a small label set) has no validation error
        let validation = if e.validation_mae.is_finite() {
            format!("{:.3}", e.validation_mae)
        } else {
            "n/a".to_string()
        };
        let _ = writeln!(
            log,
            "stage {:2} epoch {:3} train-mse {:8.3} train-mae {:.3} validation-mae {validation}",
            e.stage, e.epoch, e.train_mse, e.train_mae
        );
    };
    let w = fit_all(
        &opts.patterns,
        &ds.train,
        &ds.validation,
        &cfg,
        opts.outputs.checkpoint.as_deref(),
        &mut on_epoch,
    )?;
    pb.finish_and_clear();
    Ok(w)
}

/// Step 4, write: the weights in ply's format (`out`) and in Edax's (`edax_out`).
///
/// # Errors
/// An unwritable output file.
pub fn write_weights(
    opts: &Options,
    model: &Model,
    log: &mut dyn Write,
) -> Result<(), PipelineError> {
    if opts.outputs.out.is_none() && opts.outputs.edax_out.is_none() {
        return Ok(());
    }
    let weights = &model.packed().ok_or(PipelineError::NoFormat)?;
    if let Some(path) = &opts.outputs.out {
        let bytes = eval::format::encode(weights, quantum_of(weights));
        std::fs::write(path, &bytes).map_err(|e| PipelineError::Write(path.clone(), e))?;
        let _ = writeln!(log, "wrote {} ({} bytes)", path.display(), bytes.len());
    }
    if let Some(path) = &opts.outputs.edax_out {
        let bytes = EdaxFile::new(weights.clone())
            .map_err(|_| PipelineError::NoFormat)?
            .to_bytes();
        std::fs::write(path, bytes).map_err(|e| PipelineError::Write(path.clone(), e))?;
        let _ = writeln!(log, "wrote {}", path.display());
    }
    Ok(())
}

/// Step 5, measure: the mean absolute error on the held-out games at 20..=24 empties, logged
/// as a table and returned.
pub fn measure_test(weights: &Model, ds: &Dataset, log: &mut dyn Write) -> Vec<MaeRow> {
    let rows = measure(weights, &ds.test, 20..=24);
    let _ = writeln!(
        log,
        "held-out test set (every 10th game, or a tenth of the label positions without \
         games): mean absolute error in discs"
    );
    let _ = writeln!(log, "empties | exact labels: n, MAE | game labels: n, MAE");
    for r in &rows {
        let _ = writeln!(
            log,
            "{:7} | {:7} {:6.2} | {:7} {:6.2}",
            r.empties, r.exact.0, r.exact.1, r.all.0, r.all.1
        );
    }
    rows
}

/// Held-out positions with exact labels, as (empties, samples, seconds spent solving them).
type SolvedSets = Vec<(u8, Vec<Sample>, f64)>;

/// Step 5, measure (continued): held-out positions solved now (`solve_test` per number of
/// `exact_empties`, compared with the WTHOR perfect-play labels and written to
/// `test_label_out` if asked) and those read from `test_labels`, grouped by empties.
///
/// # Errors
/// Unreadable label files or an unwritable output.
pub fn solved_test_sets(
    opts: &Options,
    ds: &Dataset,
    solver: Option<&mut Solver>,
    log: &mut dyn Write,
) -> Result<SolvedSets, PipelineError> {
    let mut solved_test: SolvedSets = Vec::new();
    if let (Some(solver), true) = (solver, opts.solving.solve_test > 0) {
        for &e in &opts.solving.exact_empties {
            let t = Instant::now();
            let pb = bar(
                opts.solving.solve_test as u64,
                opts.progress,
                "solve test {bar:40} {pos}/{len} {elapsed} eta {eta}",
            );
            let solved =
                exact::solve_samples(&ds.test, e, opts.solving.solve_test, 0, solver, || {
                    pb.inc(1)
                });
            pb.finish_and_clear();
            let (n, equal, diff) = exact::label_agreement(
                &exact::pick(&ds.test, e, opts.solving.solve_test, 0),
                &solved,
            );
            if n > 0 {
                let _ = writeln!(
                    log,
                    "WTHOR perfect-play labels vs solver at {e} empties: {equal}/{n} equal, \
                     mean |difference| {diff:.2} discs"
                );
            }
            solved_test.push((e, solved, t.elapsed().as_secs_f64()));
        }
        if let Some(path) = &opts.solving.test_label_out {
            let mut f =
                std::fs::File::create(path).map_err(|e| PipelineError::Write(path.clone(), e))?;
            for (_, solved, _) in &solved_test {
                exact::write_labels(&mut f, solved)
                    .map_err(|e| PipelineError::Write(path.clone(), e))?;
            }
        }
    }
    if !ds.test_labels.is_empty() {
        // solved held-out positions from earlier runs (`--test-label-out`), read by `read_data`
        let held_out: std::collections::HashSet<ply_othello::Board> =
            ds.test.iter().map(|s| s.board).collect();
        let all = &ds.test_labels;
        let outside = all.iter().filter(|s| !held_out.contains(&s.board)).count();
        if outside > 0 {
            let _ = writeln!(
                log,
                "warning: {outside} test-label positions are not from held-out games"
            );
        }
        let mut empties: Vec<u8> = all.iter().map(|s| s.empties).collect();
        empties.sort_unstable();
        empties.dedup();
        for e in empties {
            let at: Vec<Sample> = all.iter().filter(|s| s.empties == e).copied().collect();
            solved_test.push((e, at, 0.0));
        }
    }
    Ok(solved_test)
}

/// Logs the error of `weights` on each solved held-out set, next to that of a zero evaluation.
pub fn report_solved(weights: &Model, solved_test: &SolvedSets, log: &mut dyn Write) {
    if !solved_test.is_empty() {
        let _ = writeln!(
            log,
            "held-out positions solved exactly: empties | n | MAE | zero-evaluation MAE | solve time"
        );
    }
    for (e, solved, seconds) in solved_test {
        let zero = solved
            .iter()
            .map(|s| f64::from(s.label.unsigned_abs()))
            .sum::<f64>()
            / solved.len().max(1) as f64;
        let _ = writeln!(
            log,
            "{:7} | {:5} | {:6.2} | {:6.2} | {:.1} s",
            e,
            solved.len(),
            exact::mae(weights, solved),
            zero,
            seconds
        );
    }
}

/// Largest power-of-two quantum that all weights are multiples of (at most 64).
fn quantum_of(w: &PackedWeights) -> u16 {
    let mut q = 64u16;
    while q > 1
        && w.stages
            .iter()
            .flatten()
            .any(|&v| i32::from(v) % i32::from(q) != 0)
    {
        q /= 2;
    }
    q
}
