//! `ply-chess datagen`: self-play training positions for the evaluation
//! (`ply_chess_tools::datagen`), with a progress bar and a summary on standard error.

use ply_chess_tools::book::{self, BookError};
use ply_chess_tools::datagen::{self, Config, DatagenError, RunBar, Shard};
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
    /// Output file (`FEN;score;result;game` a line); an existing one is resumed.
    #[arg(long)]
    out: PathBuf,
    /// Nodes searched a move (at least 1).
    #[arg(long, default_value_t = Config::default().nodes,
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Opening book (EPD or FEN), one position a line (default: the built-in set of
    /// `crates/chess-tools/data/openings.epd`).
    #[arg(long)]
    book: Option<PathBuf>,
    /// At most this many random plies after the book position (0 to 200; random play from a
    /// bare ending may never end by itself).
    #[arg(long, default_value_t = Config::default().random_plies,
          value_parser = clap::value_parser!(u32).range(0..=200))]
    random_plies: u32,
    /// Positions kept a game, at most (at least 1).
    #[arg(long, default_value_t = Config::default().per_game as u64,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    per_game: u64,
    /// Syzygy table directories (`:`-separated): adjudicate and search with them.
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
    let config = Config {
        seed: a.seed,
        nodes: a.nodes,
        random_plies: a.random_plies,
        per_game: a.per_game as usize,
        ..Config::default()
    };
    let bar = RunBar::new("positions");
    let start = Instant::now();
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
    eprintln!(
        "shard {}/{} of seed {}: {} games played ({} already in {}), {} positions kept of {} quiet, \
         {:.1} plies a game, White +{} ={} -{}, {:.1} s ({:.2} games/s)",
        shard.index,
        shard.count,
        a.seed,
        s.games,
        s.resumed.games,
        a.out.display(),
        s.samples,
        s.candidates,
        s.plies as f64 / s.games.max(1) as f64,
        s.white[0],
        s.white[1],
        s.white[2],
        secs,
        s.games as f64 / secs.max(1e-9),
    );
    let endings: Vec<String> = s
        .endings
        .iter()
        .map(|(e, n)| format!("{e:?} {n}"))
        .collect();
    eprintln!("endings: {}", endings.join(", "));
    Ok(())
}
