//! `ply-chess review`: every move of the games of a PGN file judged by the engine
//! (`ply_chess_engine::review`), printed as a table, as JSON lines or as annotated PGN.

use ply_chess::pgn::{self, PgnGame};
use ply_chess::Color;
use ply_chess_cli::evalfile;
use ply_chess_engine::review::{self, GameReview, ReviewError, ReviewReport};
use ply_chess_engine::{mate_in, Engine, EngineOptions, Limits};
use ply_syzygy::Tablebase;
use serde_json::{json, Value};
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// Nodes a position when no limit is given: a 40-move game (81 positions) in about half a
/// minute of one core here (see docs/benchmarks/review.md).
pub const DEFAULT_NODES: u64 = 250_000;

/// Plies of the engine's line kept in the PGN variation of a marked move.
const VARIATION_PLIES: usize = 10;

/// Arguments of `ply-chess review`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("limit").args(["nodes", "movetime", "depth"])))]
pub struct ReviewArgs {
    /// The PGN file (`-` for standard input); every game is reviewed unless `--game` picks one.
    input: PathBuf,
    /// Review only the N-th game of the file (from 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    game: Option<u64>,
    /// Nodes searched in each position (default 250000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Milliseconds of search in each position.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Depth searched in each position (1 to 100).
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=100))]
    depth: Option<i32>,
    /// Search threads (1 to 256); more than one makes the review faster but not repeatable.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Transposition table size in MiB (1 to 65536).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Syzygy table directories (`:`-separated): positions in the tables are judged by them.
    #[arg(long)]
    syzygy: Option<String>,
    /// Network file for the evaluation (default: the built-in network; `<empty>`: the hand-made
    /// evaluation).
    #[arg(long)]
    eval_file: Option<String>,
    /// One JSON object a game, a line each.
    #[arg(long, conflicts_with = "pgn")]
    json: bool,
    /// The games written back as PGN with `[%eval]` comments, `?!`/`?`/`??` and the better lines.
    #[arg(long)]
    pgn: bool,
}

/// What can stop `review`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input cannot be read.
    #[error("cannot read {0}: {1}")]
    Input(String, #[source] std::io::Error),
    /// `--game` names a game the file does not have.
    #[error("{file} has {games} games, not {asked}")]
    NoSuchGame {
        /// The file.
        file: String,
        /// Games in it.
        games: usize,
        /// The number asked for.
        asked: u64,
    },
    /// The `--eval-file` gives no network.
    #[error("--eval-file {0}")]
    EvalFile(#[from] evalfile::EvalFileError),
    /// The tables cannot be opened.
    #[error("cannot open the Syzygy tables {0}: {1}")]
    Syzygy(String, #[source] std::io::Error),
    /// The table path holds no table.
    #[error("no Syzygy table (*.rtbw) found in {0}")]
    NoTables(String),
    /// The hash table cannot be allocated.
    #[error("cannot allocate {0} MiB for the hash table")]
    Hash(u32),
    /// Writing the output failed.
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
    /// Some games could not be read or reviewed (each was reported); the others were reviewed.
    #[error("{0} of the games could not be reviewed")]
    BadGames(usize),
}

/// Runs the subcommand.
///
/// # Errors
/// Input, tables or network that cannot be read, and [`Error::BadGames`] after the last game when
/// some games had an illegal move or an unreadable line (each is reported as it is met).
pub fn run(a: &ReviewArgs) -> Result<(), Error> {
    let name = a.input.display().to_string();
    let mut bytes = Vec::new();
    let read = if name == "-" {
        std::io::stdin().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(&a.input).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    read.map_err(|e| Error::Input(name.clone(), e))?;
    // PGN files in the wild are not always UTF-8: a stray byte should not lose the game
    let text = String::from_utf8_lossy(&bytes);
    let games: Vec<Result<PgnGame, pgn::PgnError>> = pgn::read(&text).collect();
    let picked: Vec<usize> = match a.game {
        Some(n) if n as usize > games.len() => {
            return Err(Error::NoSuchGame {
                file: name,
                games: games.len(),
                asked: n,
            })
        }
        Some(n) => vec![n as usize - 1],
        None => (0..games.len()).collect(),
    };
    let mut engine = make_engine(a)?;
    let limits = limits(a);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut bad = 0;
    for i in picked {
        let game = match &games[i] {
            Ok(g) => g,
            Err(e) => {
                eprintln!("ply-chess: {e}");
                bad += 1;
                continue;
            }
        };
        let bar = ply_batch::progress_bar(
            game.line.moves.len() as u64 + 1,
            std::io::stderr().is_terminal(),
            &format!(
                "game {} {{bar:30}} {{pos}}/{{len}} positions [{{elapsed}}]",
                i + 1
            ),
        );
        let reviewed = review::review(
            &mut engine,
            &game.game(),
            &limits,
            &review::Cancel::new(),
            &mut |done, _| bar.set_position(done as u64),
        );
        bar.finish_and_clear();
        let r = match reviewed {
            Ok(r) => r,
            // nothing cancels here; a cancelled review would only lose this game
            Err(e @ ReviewError::Cancelled) => {
                eprintln!("ply-chess: game {}: {e}", i + 1);
                bad += 1;
                continue;
            }
        };
        if a.json {
            writeln!(out, "{}", game_json(i + 1, game, &r))?;
        } else if a.pgn {
            let annotator = format!("ply-chess {}", ply_chess_cli::VERSION);
            writeln!(out, "{}", annotate(game, &r, &annotator))?;
        } else {
            write_table(&mut out, i + 1, game, &r)?;
        }
        out.flush()?;
    }
    if bad > 0 {
        return Err(Error::BadGames(bad));
    }
    Ok(())
}

fn make_engine(a: &ReviewArgs) -> Result<Engine, Error> {
    let network = evalfile::load_or_default(a.eval_file.as_deref())?;
    let mut engine = Engine::try_new(EngineOptions {
        hash_mib: a.hash as usize,
        threads: a.threads as usize,
        network,
    })
    .map_err(|_| Error::Hash(a.hash))?;
    if let Some(path) = &a.syzygy {
        let tb = Tablebase::open(path).map_err(|e| Error::Syzygy(path.clone(), e))?;
        if tb.max_pieces() == 0 {
            return Err(Error::NoTables(path.clone()));
        }
        engine.set_tablebase(Some(Arc::new(tb)));
    }
    Ok(engine)
}

fn limits(a: &ReviewArgs) -> Limits {
    let mut limits = Limits {
        nodes: a.nodes,
        movetime: a.movetime,
        depth: a.depth,
        ..Limits::default()
    };
    if a.nodes.is_none() && a.movetime.is_none() && a.depth.is_none() {
        limits.nodes = Some(DEFAULT_NODES);
    }
    limits
}

/// `game` annotated, the variations cut to [`VARIATION_PLIES`].
fn annotate(game: &PgnGame, r: &GameReview, annotator: &str) -> PgnGame {
    let mut short = r.clone();
    for m in &mut short.moves {
        m.pv.truncate(VARIATION_PLIES);
    }
    review::annotate(game, &short, annotator)
}

/// A score as text from White's view: `+0.35`, `#3`, `#-2`.
fn score_text(score: i32, stm: Color) -> String {
    let sign = if stm == Color::White { 1 } else { -1 };
    match mate_in(score) {
        Some(m) => format!("#{}", sign * m),
        None => format!("{:+.2}", f64::from(sign * score) / 100.0),
    }
}

fn game_json(number: usize, game: &PgnGame, r: &GameReview) -> Value {
    let report = ReviewReport::of(r);
    json!({
        "game": number,
        "white": game.tag("White").unwrap_or("?"),
        "black": game.tag("Black").unwrap_or("?"),
        "result": game.result.as_str(),
        "moves": report.moves,
        "accuracy": report.accuracy,
        "acpl": report.acpl,
    })
}

fn write_table(
    out: &mut impl Write,
    number: usize,
    game: &PgnGame,
    r: &GameReview,
) -> std::io::Result<()> {
    writeln!(
        out,
        "Game {number}: {} - {}, {} ({} moves; scores from White's view)",
        game.tag("White").unwrap_or("?"),
        game.tag("Black").unwrap_or("?"),
        game.result.as_str(),
        r.moves.len()
    )?;
    writeln!(
        out,
        "{:>4} {:<9} {:<11} {:>7} {:>7} {:<9} {:>6}",
        "ply", "move", "judgement", "played", "best", "best move", "loss"
    )?;
    for m in &r.moves {
        let stm = m.mover();
        let move_number = if stm == Color::White {
            format!("{}.", m.before.fullmove_number())
        } else {
            format!("{}...", m.before.fullmove_number())
        };
        writeln!(
            out,
            "{:>4} {:<9} {:<11} {:>7} {:>7} {:<9} {:>6.3}",
            m.ply,
            format!(
                "{move_number}{}{}",
                m.before.san(m.played),
                m.judgement.mark()
            ),
            m.judgement.name(),
            score_text(m.score_played, stm),
            score_text(m.score_best, stm),
            m.before.san(m.best),
            m.loss
        )?;
    }
    for color in [Color::White, Color::Black] {
        let i = color.index();
        let (Some(acc), Some(acpl)) = (r.accuracy[i], r.acpl[i]) else {
            continue;
        };
        writeln!(
            out,
            "{}: accuracy {acc:.1} %, average centipawn loss {acpl:.0}, {} inaccuracies, {} mistakes, {} blunders",
            if color == Color::White { "White" } else { "Black" },
            r.count(color, review::Judgement::Inaccuracy),
            r.count(color, review::Judgement::Mistake),
            r.count(color, review::Judgement::Blunder),
        )?;
    }
    writeln!(out)
}
