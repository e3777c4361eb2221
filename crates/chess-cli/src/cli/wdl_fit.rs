//! `ply-chess wdl-fit`: fits the engine's win/draw/loss model to packed self-play records and
//! prints its calibration on held-out games (`ply_chess_tools::wdl`).

use ply_chess_engine::{WdlModel, MATERIAL_RANGE, WDL_MODEL};
use ply_chess_tools::nnue::dataset::DataError;
use ply_chess_tools::wdl::{self, Bin, Counts, FitOptions, WDL_START};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `ply-chess wdl-fit`.
#[derive(clap::Args)]
pub struct WdlFitArgs {
    /// Packed record files (`datagen --format bin`), one or more.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Share of each file's games held out of the fit to measure it.
    #[arg(long, default_value_t = 0.1, value_parser = fraction)]
    holdout: f64,
    /// Read at most this many records a file (the first ones).
    #[arg(long)]
    limit: Option<u64>,
    /// Adam steps.
    #[arg(long, default_value_t = FitOptions::default().steps)]
    steps: usize,
    /// Write the model as the Rust source the engine includes (`crates/chess-engine/src/wdl_model.in`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Only measure the built-in model on the files' held-out games; fit nothing.
    #[arg(long, conflicts_with = "out")]
    check: bool,
}

fn fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(f) if (0.0..1.0).contains(&f) => Ok(f),
        _ => Err(format!(
            "{s} is not a fraction from 0 up to (not including) 1"
        )),
    }
}

/// Runs the subcommand.
///
/// # Errors
/// Unreadable files and bad records ([`DataError`]), or the output file that could not be
/// written.
pub fn run(a: &WdlFitArgs) -> Result<(), DataError> {
    let start = Instant::now();
    let split = wdl::count_files(&a.inputs, a.holdout, a.limit)?;
    eprintln!(
        "{} positions to fit, {} held out, counted in {:.1} s",
        split.train.records(),
        split.held.records(),
        start.elapsed().as_secs_f64()
    );
    let model = if a.check {
        WDL_MODEL
    } else {
        let options = FitOptions {
            steps: a.steps,
            ..FitOptions::default()
        };
        let model = wdl::fit(&split.train, WDL_START, options, |step, loss| {
            if step % 1000 == 0 {
                eprintln!("step {step}: log-loss {loss:.5}");
            }
        })?;
        println!("{}", wdl::model_source(&model, &[]));
        model
    };
    report(&model, &split.train, &split.held);
    if let Some(out) = &a.out {
        let files: Vec<String> = a
            .inputs
            .iter()
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect();
        let provenance = [
            "Written by `ply-chess wdl-fit` (see docs/training.md); do not edit.".to_string(),
            format!(
                "Data: {} ({} positions fitted, {} held out).",
                files.join(", "),
                split.train.records(),
                split.held.records()
            ),
        ];
        std::fs::write(out, wdl::model_source(&model, &provenance))
            .map_err(|e| DataError::Io(out.clone(), e))?;
        eprintln!("model written to {}", out.display());
    }
    Ok(())
}

/// Prints the log-losses and the calibration tables of `model`.
fn report(model: &WdlModel, train: &Counts, held: &Counts) {
    println!(
        "log-loss: fitted games {:.5}, held-out games {:.5}",
        wdl::log_loss(model, train),
        wdl::log_loss(model, held)
    );
    let classes = [
        ("all material", MATERIAL_RANGE),
        ("material 17-30", (0, 30)),
        ("material 31-50", (31, 50)),
        ("material 51-78", (51, 78)),
    ];
    for (name, range) in classes {
        println!("\nheld-out games, {name}: predicted / observed per mille");
        println!(
            "{:>13} {:>9}  {:>11} {:>11} {:>11}  {:>6}",
            "score", "positions", "win", "draw", "loss", "error"
        );
        for bin in wdl::calibration(model, held, range) {
            if bin.positions > 0 {
                println!("{}", row(&bin));
            }
        }
    }
}

fn row(bin: &Bin) -> String {
    let pair = |k: usize| {
        format!(
            "{:>4.0} / {:>4.0}",
            1000.0 * bin.predicted[k],
            1000.0 * bin.observed[k]
        )
    };
    format!(
        "{:>6}..{:<5} {:>9}  {} {} {}  {:>+6.3}",
        bin.low,
        bin.high,
        bin.positions,
        pair(0),
        pair(1),
        pair(2),
        bin.error()
    )
}
