//! `ply-chess tune`: Texel-style tuning of the evaluation weights on `datagen` files
//! (`ply_chess_tools::tune`), written back as the engine's `eval/weights.rs`.

use ply_chess_engine::layout;
use ply_chess_tools::tune::{self, Config, Epoch, TuneError};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `ply-chess tune`.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// Training files (`ply-chess datagen` output), one or more.
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// Where to write the tuned weights as Rust source (the engine compiles
    /// `crates/chess-engine/src/eval/weights.rs`).
    #[arg(long)]
    out: PathBuf,
    /// Adam steps over the whole training set (at least 1).
    #[arg(long, default_value_t = Config::default().epochs,
          value_parser = clap::value_parser!(u32).range(1..))]
    epochs: u32,
    /// Adam step size (centipawns, roughly the most a weight moves a step; a number > 0).
    #[arg(long, default_value_t = Config::default().lr, value_parser = positive)]
    lr: f64,
    /// Share of the game result in the target (0 to 1); the rest is the search score.
    #[arg(long, default_value_t = Config::default().lambda, value_parser = fraction)]
    lambda: f64,
    /// Sigmoid scale K, a number > 0 (default: fitted to the results).
    #[arg(long, value_parser = positive)]
    k: Option<f64>,
    /// Threads, 1 to 1024 (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Hold out one game in N (N >= 2) to measure the loss on unseen positions (0: none).
    #[arg(long, default_value_t = Config::default().holdout_every, value_parser = holdout)]
    holdout_every: u64,
    /// Print the losses every N epochs.
    #[arg(long, default_value_t = Config::default().report_every)]
    report_every: u32,
    /// L2 pull toward the compiled weights (`reg × Σ (w − w₀)²` added to the loss; >= 0).
    #[arg(long, default_value_t = Config::default().reg, value_parser = non_negative)]
    reg: f64,
    /// Keep the last weights, not those with the lowest held-out loss.
    #[arg(long)]
    last: bool,
}

/// What can stop `tune`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or tuning failed.
    #[error(transparent)]
    Tune(#[from] TuneError),
    /// The weights cannot be written (checked before any work, and when writing them).
    #[error("cannot write {0}: {1}")]
    Write(PathBuf, #[source] std::io::Error),
}

/// A finite number, for the value parsers below.
fn number(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("'{text}' is not a number")),
    }
}

/// A number > 0.
fn positive(text: &str) -> Result<f64, String> {
    let x = number(text)?;
    if x > 0.0 {
        Ok(x)
    } else {
        Err(format!("{x} is not a number > 0"))
    }
}

/// A number >= 0.
fn non_negative(text: &str) -> Result<f64, String> {
    let x = number(text)?;
    if x >= 0.0 {
        Ok(x)
    } else {
        Err(format!("{x} is not a number >= 0"))
    }
}

/// A number from 0 to 1.
fn fraction(text: &str) -> Result<f64, String> {
    let x = number(text)?;
    if (0.0..=1.0).contains(&x) {
        Ok(x)
    } else {
        Err(format!("{x} is not within 0..=1"))
    }
}

/// 0 (no hold-out) or a number >= 2 (1 would hold out every game and train on none).
fn holdout(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(1) => Err("1 would hold out every game: use 0 (none) or a number >= 2".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is not 0 or a whole number >= 2")),
    }
}

/// Checks, before any work, that `out` can be written: its folder exists and a file can be
/// created in it (a scratch file beside `out`, removed again), `out` is not a folder, and an
/// existing `out` opens for writing.
fn check_writable(out: &std::path::Path) -> Result<(), Error> {
    let fail = |e: std::io::Error| Error::Write(out.to_path_buf(), e);
    if out.is_dir() {
        return Err(fail(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "it is a folder",
        )));
    }
    let folder = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    let name = out.file_name().map_or_else(
        || "weights".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let scratch = folder.join(format!(".{name}.{}.check", std::process::id()));
    std::fs::File::create(&scratch).map_err(fail)?;
    let _ = std::fs::remove_file(&scratch);
    if out.exists() {
        // an existing file must be writable too (opened without truncating it)
        std::fs::OpenOptions::new()
            .write(true)
            .open(out)
            .map_err(fail)?;
    }
    Ok(())
}

fn describe(e: &Epoch) -> String {
    match e.holdout {
        Some(h) => format!("epoch {}: loss {:.6}, held out {:.6}", e.epoch, e.train, h),
        None => format!("epoch {}: loss {:.6}", e.epoch, e.train),
    }
}

/// Runs the subcommand.
pub fn run(a: &TuneArgs) -> Result<(), Error> {
    check_writable(&a.out)?;
    let threads = a
        .threads
        .map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let config = Config {
        epochs: a.epochs,
        lr: a.lr,
        lambda: a.lambda,
        k: a.k,
        threads,
        holdout_every: a.holdout_every,
        report_every: a.report_every,
        reg: a.reg,
        keep_best: !a.last,
    };
    let tty = std::io::stderr().is_terminal();
    let start = Instant::now();
    let entries = tune::load(&a.data, threads, |n| {
        if tty {
            eprintln!("read {n} positions");
        }
    })?;
    let loaded = start.elapsed().as_secs_f64();
    eprintln!(
        "{} positions from {} file(s) in {loaded:.1} s",
        entries.len(),
        a.data.len()
    );
    let bar = ply_batch::progress_bar(
        a.epochs as u64,
        tty,
        "{bar:40} {pos}/{len} epochs [{elapsed} < {eta}] {msg}",
    );
    let outcome = tune::tune(&config, entries, |e| {
        bar.set_position(e.epoch as u64);
        bar.set_message(describe(e));
        bar.suspend(|| eprintln!("{}", describe(e)));
    })?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64() - loaded;
    let files: Vec<String> = a.data.iter().map(|p| p.display().to_string()).collect();
    let header = format!(
        "Generated by `ply-chess tune` (crates/chess-tools/src/tune): do not edit by hand.\n\
         Data: {files}; {train} training and {held} held-out positions (one game in {every}).\n\
         Options: --epochs {epochs} --lr {lr} --lambda {lambda} --reg {reg}{last} (K {k:.4}{fitted}), \
         starting from the weights compiled in.\n\
         Loss: {start} -> {end}.",
        files = files.join(" "),
        train = outcome.positions.0,
        held = outcome.positions.1,
        every = a.holdout_every,
        epochs = a.epochs,
        lr = a.lr,
        lambda = a.lambda,
        reg = a.reg,
        last = if a.last { " --last" } else { "" },
        k = outcome.k,
        fitted = if a.k.is_some() { "" } else { ", fitted" },
        start = describe(&outcome.start),
        end = describe(&outcome.end),
    );
    std::fs::write(&a.out, layout::source(&outcome.weights, &header))
        .map_err(|e| Error::Write(a.out.clone(), e))?;
    eprintln!(
        "K {:.4}; {}; {} -> {}; {:.1} s; weights written to {}",
        outcome.k,
        format_args!("{} weights", outcome.weights.len()),
        describe(&outcome.start),
        describe(&outcome.end),
        secs,
        a.out.display()
    );
    Ok(())
}
