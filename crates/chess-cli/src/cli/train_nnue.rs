//! `ply-chess train-nnue`: trains the NNUE network on packed data files
//! (`ply_chess_tools::nnue`) and writes the quantised `PLYNNUE2` file, with a checkpoint every
//! epoch and a check of the quantised network against the float one at the end; `--init` starts
//! from an existing network.

use super::cpu_seconds;
use ply_chess_tools::nnue::dataset::{DataError, Dataset};
use ply_chess_tools::nnue::model::{Shape, Target};
use ply_chess_tools::nnue::optim::AdamW;
use ply_chess_tools::nnue::quantise::{NetworkError, Quantised};
use ply_chess_tools::nnue::train::{Config, EpochReport, QuantCheck, TrainError, Trainer};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Positions of the quantisation check at most.
const CHECK_POSITIONS: usize = 20_000;

/// Arguments of `ply-chess train-nnue`.
#[derive(clap::Args)]
pub struct TrainNnueArgs {
    /// Packed data files (`ply-chess nnue-data convert` output), one or more.
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// The network file to write (`PLYNNUE2`: the layout of `ply_chess_engine::nnue`).
    #[arg(long)]
    out: PathBuf,
    /// Accumulator width H (a multiple of 16, 16..=2048) [default: 256, or the --init network's].
    #[arg(long)]
    hidden: Option<usize>,
    /// Output buckets by piece count (1, 2, 4 or 8) [default: 8, or the --init network's].
    #[arg(long)]
    buckets: Option<usize>,
    /// Start from this network (a `PLYNNUE2` file, or `<embedded>` for the built-in one) instead
    /// of weights drawn from the seed: fine-tuning it on new data, usually with a smaller --lr.
    #[arg(long, value_name = "NET")]
    init: Option<PathBuf>,
    /// Passes over the training positions (at least 1).
    #[arg(long, default_value_t = Config::default().epochs,
          value_parser = clap::value_parser!(u32).range(1..))]
    epochs: u32,
    /// Positions a batch (at least 1).
    #[arg(long, default_value_t = Config::default().batch as u64,
          value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    batch: u64,
    /// AdamW learning rate (a number > 0); times 0.3 from 70 % of the run, 0.09 from 90 %.
    #[arg(long, default_value_t = AdamW::default().lr, value_parser = positive)]
    lr: f32,
    /// AdamW's decoupled weight decay (>= 0).
    #[arg(long, default_value_t = AdamW::default().weight_decay, value_parser = non_negative)]
    weight_decay: f32,
    /// Share of the search score in the target (0 to 1); the rest is the game result.
    #[arg(long, default_value_t = Config::default().target.lambda, value_parser = fraction)]
    lambda: f32,
    /// Sigmoid scale K in centipawns (a number > 0).
    #[arg(long, default_value_t = Config::default().target.k, value_parser = positive)]
    k: f32,
    /// Threads, 1 to 256 (default: all cores). The result depends on the seed and this number.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Seed of the initial weights and the shuffling.
    #[arg(long, default_value_t = Config::default().seed)]
    seed: u64,
    /// Share of the games held out for the validation loss (0 to 0.5).
    #[arg(long, default_value_t = Config::default().val_fraction, value_parser = val_fraction)]
    val_fraction: f64,
    /// Train each position mirrored (files a <-> h) or as it is, drawn anew each epoch: twice
    /// the distinct examples from the same games.
    #[arg(long)]
    mirror: bool,
    /// Checkpoint written after every epoch (default: the output with `.ckpt` appended).
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Continue the run of this checkpoint (same data and options); default: a new run.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Also write the quantised network after every epoch (output with `.epochN` appended).
    #[arg(long)]
    save_every_epoch: bool,
}

/// What can stop `train-nnue`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The data cannot be read.
    #[error(transparent)]
    Data(#[from] DataError),
    /// Training cannot start or resume.
    #[error(transparent)]
    Train(#[from] TrainError),
    /// A file cannot be read or written.
    #[error("{0}: {1}")]
    Io(PathBuf, #[source] std::io::Error),
    /// The --init file is not a network.
    #[error("{0}: {1}")]
    Network(PathBuf, #[source] NetworkError),
    /// The checkpoint has already done more epochs than asked for.
    #[error("the checkpoint has done {0} epochs, more than --epochs asks for")]
    Done(u32),
    /// The integer evaluation is too far from the float one on the same rounded weights (an
    /// i32 sum that wraps, or a bug); the file is written all the same.
    #[error(
        "the integer evaluation differs from the float one with the same rounded weights by up to \
         {0:.1} cp (tolerance {tol} cp); the network was written but is suspect",
        tol = QuantCheck::ARITHMETIC_TOLERANCE
    )]
    Quantisation(f64),
}

fn number(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("'{text}' is not a number")),
    }
}

fn positive(text: &str) -> Result<f32, String> {
    let x = number(text)?;
    if x > 0.0 {
        Ok(x)
    } else {
        Err(format!("{x} is not a number > 0"))
    }
}

fn non_negative(text: &str) -> Result<f32, String> {
    let x = number(text)?;
    if x >= 0.0 {
        Ok(x)
    } else {
        Err(format!("{x} is not a number >= 0"))
    }
}

fn fraction(text: &str) -> Result<f32, String> {
    let x = number(text)?;
    if (0.0..=1.0).contains(&x) {
        Ok(x)
    } else {
        Err(format!("{x} is not within 0..=1"))
    }
}

fn val_fraction(text: &str) -> Result<f64, String> {
    let x = number(text)?;
    if (0.0..=0.5).contains(&x) {
        Ok(f64::from(x))
    } else {
        Err(format!("{x} is not within 0..=0.5"))
    }
}

/// Writes `bytes` to `path` through a temporary file beside it, so a crash never leaves half
/// a file.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(|e| Error::Io(tmp.clone(), e))?;
    std::fs::rename(&tmp, path).map_err(|e| Error::Io(path.to_path_buf(), e))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

/// The epoch's line: losses, positions per wall-clock second, and per CPU second of the
/// process (the rate a core gives when the machine is shared).
fn describe(r: &EpochReport, epochs: u32, cpu: Option<f64>) -> String {
    format!(
        "epoch {}/{epochs}: train loss {:.6}, val loss {}, {} positions in {:.1} s ({:.0} positions/s{})",
        r.epoch,
        r.train_loss,
        r.val_loss.map_or("-".to_string(), |v| format!("{v:.6}")),
        r.positions,
        r.seconds,
        r.positions as f64 / r.seconds.max(1e-9),
        cpu.map_or(String::new(), |c| format!(
            ", {:.1} CPU s, {:.0} positions per CPU second",
            c,
            r.positions as f64 / c.max(1e-9)
        )),
    )
}

/// Runs the subcommand.
///
/// # Errors
/// Unreadable or bad data, a bad checkpoint, unwritable outputs, a failed quantisation check.
pub fn run(a: &TrainNnueArgs) -> Result<(), Error> {
    let threads = a
        .threads
        .map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // the starting network, read before the data so that a bad file is named at once
    let init = match &a.init {
        None => None,
        Some(path) => {
            let bytes = if path.as_os_str() == ply_chess_cli::evalfile::EMBEDDED_NAME {
                ply_chess_engine::nnue::EMBEDDED.to_vec()
            } else {
                std::fs::read(path).map_err(|e| Error::Io(path.clone(), e))?
            };
            let net = Quantised::from_bytes(&bytes).map_err(|e| Error::Network(path.clone(), e))?;
            Some((path, net))
        }
    };
    let defaults = init
        .as_ref()
        .map_or(Config::default().shape, |(_, net)| net.shape);
    let shape = Shape {
        hidden: a.hidden.unwrap_or(defaults.hidden),
        buckets: a.buckets.unwrap_or(defaults.buckets),
    };
    let config = Config {
        shape,
        epochs: a.epochs,
        batch: a.batch as usize,
        threads,
        seed: a.seed,
        val_fraction: a.val_fraction,
        mirror: a.mirror,
        target: Target {
            k: a.k,
            lambda: a.lambda,
        },
        optim: AdamW {
            lr: a.lr,
            weight_decay: a.weight_decay,
            ..AdamW::default()
        },
    };
    if !config.shape.is_valid() {
        return Err(TrainError::Shape.into());
    }
    let checkpoint = a
        .checkpoint
        .clone()
        .unwrap_or_else(|| with_suffix(&a.out, ".ckpt"));
    let tty = std::io::stderr().is_terminal();
    let start = Instant::now();
    let data = Dataset::load(&a.data, |_| {})?;
    let (train, held) = data.split(a.val_fraction);
    eprintln!(
        "{} positions from {} file(s) in {:.1} s: {} training, {} held out",
        data.len(),
        a.data.len(),
        start.elapsed().as_secs_f64(),
        train.len(),
        held.len()
    );
    let mut trainer = match &a.resume {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| Error::Io(path.clone(), e))?;
            let t = Trainer::resume(config, &bytes)?;
            eprintln!("resumed from {} after epoch {}", path.display(), t.epoch);
            t
        }
        None => match &init {
            Some((path, net)) => {
                let t = Trainer::from_network(config, net)?;
                eprintln!("starting from the network {}", path.display());
                t
            }
            None => Trainer::new(config)?,
        },
    };
    // A checkpoint that has done exactly the epochs asked for is written out again (its network
    // quantised by this program, e.g. in a newer file format); one that has done more is refused.
    if trainer.epoch > a.epochs || (trainer.epoch == a.epochs && a.resume.is_none()) {
        return Err(Error::Done(trainer.epoch));
    }
    if trainer.epoch == a.epochs {
        eprintln!(
            "the checkpoint has done all {} epochs: writing its network",
            a.epochs
        );
    }
    eprintln!(
        "network (768 -> {}) x 2 -> 1, {} buckets, {} parameters; {} threads, batch {}, lr {}, lambda {}, K {}, seed {}{}",
        shape.hidden,
        shape.buckets,
        config.shape.params(),
        threads,
        a.batch,
        a.lr,
        a.lambda,
        a.k,
        a.seed,
        if a.mirror { ", mirrored positions" } else { "" }
    );
    while trainer.epoch < a.epochs {
        let bar = ply_batch::progress_bar(
            train.len() as u64,
            tty,
            "{bar:40} {pos}/{len} positions [{elapsed} < {eta}] {per_sec}",
        );
        let cpu = cpu_seconds();
        let report = trainer.run_epoch(&data, &train, &held, |n| bar.set_position(n))?;
        let cpu = cpu.zip(cpu_seconds()).map(|(a, b)| b - a);
        bar.finish_and_clear();
        eprintln!("{}", describe(&report, a.epochs, cpu));
        write_atomic(&checkpoint, &trainer.checkpoint())?;
        if a.save_every_epoch {
            let path = with_suffix(&a.out, &format!(".epoch{}", trainer.epoch));
            write_atomic(&path, &Quantised::from_model(&trainer.model).to_bytes())?;
        }
    }
    let net = Quantised::from_model(&trainer.model);
    write_atomic(&a.out, &net.to_bytes())?;
    let command: Vec<String> = std::env::args().collect();
    write_atomic(
        &with_suffix(&a.out, ".cmd"),
        format!("{}\n", command.join(" ")).as_bytes(),
    )?;
    let sample = if held.is_empty() { &train } else { &held };
    let check = QuantCheck::measure(
        &trainer.model,
        &net,
        &data,
        &sample[..sample.len().min(CHECK_POSITIONS)],
    );
    eprintln!(
        "network written to {} (checkpoint {}); quantised vs float on {} {} positions: mean |diff| {:.2} cp, \
         max {:.1} cp; integer vs float on the rounded weights: max {:.2} cp",
        a.out.display(),
        checkpoint.display(),
        check.positions,
        if held.is_empty() { "training" } else { "held-out" },
        check.mean,
        check.max,
        check.arithmetic_max
    );
    if !check.passes() {
        return Err(Error::Quantisation(check.arithmetic_max));
    }
    Ok(())
}
