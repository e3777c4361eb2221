//! `ply-chess datagen`: self-play training positions for the evaluation
//! (`ply_chess_tools::datagen`), with a progress bar and a summary on standard error.

use super::cpu_seconds;
use ply_chess_cli::evalfile::{self, EvalFileError};
use ply_chess_tools::book::{self, BookError};
use ply_chess_tools::datagen::{self, Config, DatagenError, Format, RunBar, Shard};
use ply_chess_tools::openings;
use ply_syzygy::Tablebase;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Arguments of `ply-chess datagen`.
#[derive(clap::Args)]
pub struct DatagenArgs {
    /// Number of games of the seed (game indices 0..G; at least 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Seed: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only the games whose index is K modulo N (`K/N`); the shards of a seed together
    /// are the unsharded run.
    #[arg(long, default_value = "0/1")]
    shard: Shard,
    /// Output file (`FEN;score;result;game` a line, or 32-byte records with `--format bin`);
    /// an existing one is resumed.
    #[arg(long)]
    out: PathBuf,
    /// Output format: `text` (`FEN;score;result;game` lines, for `tune` and `nnue-data
    /// convert`) or `bin` (the packed 32-byte records `train-nnue` reads).
    #[arg(long, default_value = "text")]
    format: Format,
    /// Nodes searched a move, the hard limit where a search is cut off (at least 1).
    #[arg(long, default_value_t = Config::default().nodes,
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Soft node limit: no iteration is started once a search has used this many nodes
    /// (at least 1, at most `--nodes`; default: none, only `--nodes`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    soft_nodes: Option<u64>,
    /// Play and score the games with this evaluation: a network file, `<embedded>` (the
    /// built-in network) or `<empty>` (the hand-made evaluation); recorded beside the output
    /// by its size and checksum [default: <embedded>]
    #[arg(long, value_name = "NET")]
    eval_file: Option<String>,
    /// Games played at once, one thread each (1 to 256); the output is the same for any count.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Opening book (EPD or FEN), one position a line (default: the built-in set of
    /// `crates/chess-tools/data/openings.epd`).
    #[arg(long)]
    book: Option<PathBuf>,
    /// At most this many random plies after the book position (0 to 200; random play from a
    /// bare ending may never end by itself).
    #[arg(long, default_value_t = Config::default().random_plies,
          value_parser = clap::value_parser!(u32).range(0..=200))]
    random_plies: u32,
    /// Positions kept a game, at most, drawn at random from its usable ones (at least 1;
    /// default: all of them).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    per_game: Option<u64>,
    /// Positions fewer than this many plies after the book position (random plies included)
    /// are not kept (0 to 1000).
    #[arg(long, default_value_t = Config::default().skip_plies,
          value_parser = clap::value_parser!(u32).range(0..=1000))]
    skip_plies: u32,
    /// Positions whose search score is this far from zero or further (centipawns) are not kept
    /// (1 to 32000).
    #[arg(long, default_value_t = Config::default().max_score as i64,
          value_parser = clap::value_parser!(i64).range(1..=32000))]
    max_score: i64,
    /// Syzygy table directories (`:`-separated): adjudicate and search with them; default: none.
    #[arg(long)]
    syzygy: Option<String>,
}

/// What can stop `datagen`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The book cannot be read.
    #[error(transparent)]
    Book(#[from] BookError),
    /// The run failed (shard, output file).
    #[error(transparent)]
    Datagen(#[from] DatagenError),
    /// The `--eval-file` gives no network.
    #[error("--eval-file {0}")]
    EvalFile(#[from] EvalFileError),
    /// The tables cannot be opened.
    #[error("cannot open the Syzygy tables {0}: {1}")]
    Syzygy(String, #[source] std::io::Error),
    /// The table path holds no table (a mistyped path would otherwise go unnoticed).
    #[error("no Syzygy table (*.rtbw) found in {0}")]
    NoTables(String),
}

/// Runs the subcommand.
pub fn run(a: &DatagenArgs) -> Result<(), Error> {
    let shard = a.shard;
    let book = match &a.book {
        Some(path) => book::read(path)?,
        None => openings::builtin(),
    };
    let tablebase = match &a.syzygy {
        Some(path) => {
            let tb = Tablebase::open(path).map_err(|e| Error::Syzygy(path.clone(), e))?;
            if tb.max_pieces() == 0 {
                return Err(Error::NoTables(path.clone()));
            }
            Some(Arc::new(tb))
        }
        None => None,
    };
    let network = evalfile::load_or_default(a.eval_file.as_deref())?;
    if let Some(net) = network.as_deref() {
        eprintln!("evaluation: {}", evalfile::describe(Some(net)));
    }
    let config = Config {
        seed: a.seed,
        nodes: a.nodes,
        soft_nodes: a.soft_nodes,
        random_plies: a.random_plies,
        per_game: a.per_game.map(|n| n as usize),
        skip_plies: a.skip_plies,
        max_score: a.max_score as i32,
        network,
        format: a.format,
        threads: a.threads as usize,
        ..Config::default()
    };
    let bar = RunBar::new("positions");
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let s = datagen::run(
        &config,
        shard,
        a.games,
        &book,
        tablebase.as_ref(),
        &a.out,
        |p| bar.show(p),
    )?;
    bar.finish();
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu_start).map(|(end, begin)| end - begin);
    eprintln!(
        "shard {}/{} of seed {}: {} games played ({} already in {}), {} positions kept of {} \
         usable{}, {:.1} plies a game, White +{} ={} -{}, {:.1} s ({:.2} games/s, {:.0} \
         positions/h{})",
        shard.index,
        shard.count,
        a.seed,
        s.games,
        s.resumed.games,
        a.out.display(),
        s.samples,
        s.candidates,
        if s.unpacked > 0 {
            format!(" ({} left out: they do not pack)", s.unpacked)
        } else {
            String::new()
        },
        s.plies as f64 / s.games.max(1) as f64,
        s.white[0],
        s.white[1],
        s.white[2],
        secs,
        s.games as f64 / secs.max(1e-9),
        s.samples as f64 * 3600.0 / secs.max(1e-9),
        match cpu {
            Some(c) if s.samples > 0 => format!(
                ", {c:.1} CPU s, {:.2} CPU ms a position",
                c * 1000.0 / s.samples as f64
            ),
            _ => String::new(),
        },
    );
    let endings: Vec<String> = s
        .endings
        .iter()
        .map(|(e, n)| format!("{e:?} {n}"))
        .collect();
    eprintln!("endings: {}", endings.join(", "));
    Ok(())
}
