//! `ply-othello review (GAME.ggf | MOVES | --wthor FILE --game N)`: every move of a game judged
//! by the discs it gives away ([`ply_othello_engine::review`]), as a table or JSON lines.

use super::engine::EngineArgs;
use super::CliError;
use clap::builder::RangedU64ValueParser;
use clap::Args;
use indicatif::ProgressBar;
use ply_othello::ggf::{parse_ggf, split_records};
use ply_othello::{color_name, parse_moves, Color, ParseError, Position, Square};
use ply_othello_cli::protocol::format::score_text;
use ply_othello_engine::{
    review, Engine, GameReview, Judgement, MoveReview, ReviewOptions, ReviewReport,
    DEFAULT_EXACT_FROM, DEFAULT_REVIEW_LEVEL,
};
use serde::Serialize;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `review`.
#[derive(Args)]
pub struct ReviewArgs {
    /// The game: a GGF file (every record in it, or `--game N`), a file of move lists (one
    /// game a line), or a move list from the start position (`f5d6c3...`, passes `pa` or left
    /// out).
    #[arg(
        value_name = "GAME",
        required_unless_present = "wthor",
        conflicts_with = "wthor"
    )]
    game: Option<String>,
    /// A WTHOR database file (`WTH_YYYY.wtb`); `--game N` picks the game.
    #[arg(long, value_name = "FILE", requires = "game_number")]
    wthor: Option<PathBuf>,
    /// Review only the Nth game (1-based) of the GGF, move-list or WTHOR file.
    #[arg(long = "game", id = "game_number", value_name = "N",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    game_number: Option<usize>,
    /// Midgame search level 1..=60: its midgame depth, made even (odd depths count Othello's
    /// odd-even effect as lost discs), and selectivity; the exact solves are set by --exact.
    #[arg(long, default_value_t = DEFAULT_REVIEW_LEVEL,
          value_parser = clap::value_parser!(u8).range(1..=60))]
    level: u8,
    /// Solve positions with at most this many empties exactly, 0..=60 (from 26 on an exact
    /// solve takes many seconds a position).
    #[arg(long, default_value_t = DEFAULT_EXACT_FROM,
          value_parser = clap::value_parser!(u32).range(0..=60))]
    exact: u32,
    /// Search threads, 1..=1024.
    #[arg(long, default_value_t = 1,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=super::MAX_THREADS))]
    threads: usize,
    /// Transposition tables in MiB, 1..=1048576.
    #[arg(long, default_value_t = 64,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=super::MAX_HASH_MIB))]
    hash: usize,
    /// Evaluation weights instead of the built-in ones (ply or Edax `eval.dat` format).
    #[arg(long)]
    eval_file: Option<PathBuf>,
    /// One JSON object per game instead of the table: `game`, `moves` (each with `ply`,
    /// `side`, `move`, `empties`, `forced`, `score_played`, `score_best`, `best`, `pv`,
    /// `loss`, `exact`, `judgement`), `loss` and `mean_loss` (`black`, `white`), `level`,
    /// `exact_from`, `seconds`.
    #[arg(long)]
    json: bool,
}

/// One game to review: its number in the input, and its start and moves or why it cannot be
/// read.
pub(super) struct Input {
    /// The game's number in its file, from 1.
    pub(super) number: usize,
    /// Its start and moves, or why it cannot be read.
    pub(super) game: Result<(Position, Vec<Square>), String>,
}

/// The games of a GGF text, or of a text of move lists (one a line, blank lines skipped).
fn games_of_text(text: &str) -> Vec<Input> {
    if text.contains("(;") {
        return split_records(text)
            .into_iter()
            .enumerate()
            .map(|(i, record)| Input {
                number: i + 1,
                game: parse_ggf(record)
                    .map(|g| (g.game.start(), g.game.moves().to_vec()))
                    .map_err(|e| e.to_string()),
            })
            .collect();
    }
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, line)| Input {
            number: i + 1,
            game: moves_from_start(line),
        })
        .collect()
}

/// A move list played from the start position; a token that is no move is named by its
/// 1-based number, as the review names an illegal move.
fn moves_from_start(text: &str) -> Result<(Position, Vec<Square>), String> {
    parse_moves(text)
        .map(|moves| (Position::start(), moves))
        .map_err(|e| match e {
            ParseError::BadMove(token, index) => format!("move {}: bad move {token:?}", index + 1),
            other => other.to_string(),
        })
}

/// The games of a WTHOR database file, each from the start position.
pub(super) fn wthor_games(path: &Path) -> Result<Vec<Input>, CliError> {
    let file = ply_othello::wthor::parse(&super::read(path)?, path)?;
    Ok(file
        .games
        .iter()
        .enumerate()
        .map(|(i, g)| Input {
            number: i + 1,
            game: Ok((
                Position::start(),
                g.moves.iter().map_while(|m| *m).collect(),
            )),
        })
        .collect())
}

/// The games of a game argument: a GGF file or a file of move lists, or a move list (a name
/// with `.`, `/` or `\` that is not a move list names a file, and a missing one is an error).
pub(super) fn games_of_argument(text: &str) -> Result<Vec<Input>, CliError> {
    let path = Path::new(text);
    if path.is_file() {
        Ok(games_of_text(&super::read_text(path)?))
    } else if parse_moves(text).is_err() && text.contains(['.', '/', '\\']) {
        // a file name that names no file, rather than moves
        super::read_text(path)?;
        Ok(Vec::new())
    } else {
        Ok(vec![Input {
            number: 1,
            game: moves_from_start(text),
        }])
    }
}

/// The games the arguments name.
fn inputs(a: &ReviewArgs) -> Result<Vec<Input>, CliError> {
    let games = match &a.wthor {
        Some(path) => wthor_games(path)?,
        None => games_of_argument(a.game.as_deref().unwrap_or_default())?,
    };
    let source = a.wthor.as_ref().map_or_else(
        || a.game.clone().unwrap_or_default(),
        |p| p.display().to_string(),
    );
    if games.is_empty() {
        return Err(CliError::Refused(format!("no game in {source}")));
    }
    match a.game_number {
        None => Ok(games),
        Some(n) if n <= games.len() => Ok(games.into_iter().skip(n - 1).take(1).collect()),
        Some(n) => Err(CliError::Refused(format!(
            "{source} holds {} game(s): there is no game {n}",
            games.len()
        ))),
    }
}

/// A move's name in the table: lower case.
fn move_name(sq: Square) -> String {
    sq.name().to_ascii_lowercase()
}

/// One game in the JSON output: its number and time around the engine's report.
#[derive(Serialize)]
struct GameJson {
    game: usize,
    #[serde(flatten)]
    report: ReviewReport,
    seconds: f64,
}

/// Prints the review of game `number` as one JSON line.
fn print_json(
    number: usize,
    options: &ReviewOptions,
    r: &GameReview,
    seconds: f64,
) -> Result<(), CliError> {
    let game = GameJson {
        game: number,
        report: ReviewReport::of(r, options),
        seconds: (seconds * 1e3).round() / 1e3,
    };
    let line = serde_json::to_string(&game).map_err(|e| CliError::Json(e.to_string()))?;
    println!("{line}");
    Ok(())
}

/// `f5`, `f5?!`: the move with its mark.
fn marked(m: &MoveReview) -> String {
    format!("{}{}", move_name(m.mv), m.judgement.nag())
}

/// Prints the review of game `number` as a table and each side's totals.
fn print_table(number: usize, a: &ReviewArgs, r: &GameReview, seconds: f64) {
    println!(
        "game {number}: {} moves, level {}, exact from {} empties, {seconds:.1} s",
        r.moves.len(),
        a.level,
        a.exact
    );
    println!(" ply side move   played  best   score  loss  judgement   notes");
    for m in &r.moves {
        let side = match m.side {
            Color::Black => "X",
            Color::White => "O",
        };
        let notes = [(m.exact, "exact"), (m.forced, "forced")]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, word)| *word)
            .collect::<Vec<_>>()
            .join(" ");
        println!(
            "{:4} {side:4} {:6} {:>6}  {:5} {:>5} {:5}  {:10}  {notes}",
            m.ply,
            marked(m),
            score_text(m.score_played),
            move_name(m.best),
            score_text(m.score_best),
            m.loss,
            m.judgement.name(),
        );
    }
    for color in [Color::Black, Color::White] {
        let counts: Vec<String> = [
            (Judgement::Inaccuracy, "inaccuracies"),
            (Judgement::Mistake, "mistakes"),
            (Judgement::Blunder, "blunders"),
        ]
        .iter()
        .map(|&(j, word)| format!("{word} {}", r.count(color, j)))
        .collect();
        println!(
            "{}: loss {} discs, mean {:.2} over {} moves with a choice; {}",
            color_name(color),
            r.loss.get(color),
            r.mean_loss.get(color),
            r.choices.get(color),
            counts.join(", ")
        );
    }
}

/// A progress bar on a terminal, else a hidden one.
fn progress_bar() -> ProgressBar {
    let show = std::io::stderr().is_terminal();
    let bar = ply_batch::progress_bar(0, show, "{bar:40} {pos}/{len} searches {elapsed} {msg}");
    if show {
        bar.enable_steady_tick(std::time::Duration::from_millis(250));
    }
    bar
}

/// Reviews one game and prints it; the error names the move.
fn review_one(
    engine: &mut Engine,
    a: &ReviewArgs,
    number: usize,
    (start, moves): &(Position, Vec<Square>),
) -> Result<(), String> {
    let options = ReviewOptions {
        level: a.level,
        exact_from: a.exact,
    };
    let bar = progress_bar();
    bar.set_message(format!("game {number}"));
    let t = Instant::now();
    let result = review(
        engine,
        *start,
        moves,
        &options,
        &AtomicBool::new(false),
        &mut |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    let r = result.map_err(|e| e.to_string())?;
    let seconds = t.elapsed().as_secs_f64();
    if a.json {
        print_json(number, &options, &r, seconds).map_err(|e| e.to_string())?;
    } else {
        print_table(number, a, &r, seconds);
    }
    Ok(())
}

/// Runs `review`: every game is reviewed, one that cannot be read or played is reported
/// (naming the game and the move) and makes the exit status 1.
pub fn run(a: &ReviewArgs) -> Result<ExitCode, CliError> {
    let games = inputs(a)?;
    // made at the first game that could be read (the weights take a moment to decode)
    let mut engine: Option<Engine> = None;
    let mut failed = 0;
    for input in &games {
        let result = match &input.game {
            Err(e) => Err(e.clone()),
            Ok(game) => {
                let engine = match &mut engine {
                    Some(engine) => engine,
                    None => engine.insert(
                        EngineArgs {
                            level: a.level,
                            hash: a.hash,
                            threads: a.threads,
                            eval_file: a.eval_file.clone(),
                        }
                        .engine()?,
                    ),
                };
                review_one(engine, a, input.number, game)
            }
        };
        if let Err(e) = result {
            failed += 1;
            eprintln!("ply-othello: game {}: {e}", input.number);
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
