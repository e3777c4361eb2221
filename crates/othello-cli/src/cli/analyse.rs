//! `ply-othello analyse <moves or board>`: the score of every legal move at a level, as a table
//! (or, with `--json`, one JSON object). The moves of a position the opening book (the built-in
//! one, `--book FILE`, none with `--no-book`) holds come first with their book values, marked
//! `book`, and only the other moves are searched.

use super::engine::{BookArgs, EngineArgs};
use super::CliError;
use clap::Args;
use ply_othello::{parse_and_play, Position, Square};
use ply_othello_cli::protocol::format::score_text;
use ply_othello_cli::protocol::format::{board_diagram, book_row, move_row, move_table_header};
use ply_othello_engine::book::BookMove;
use ply_othello_engine::{Limits, MoveScore};
use serde::Serialize;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// Arguments of `analyse`.
#[derive(Args)]
pub struct AnalyseArgs {
    /// A move list from the start (`f5d6c3`, `pa` for a pass) or a board in quotes: 64
    /// squares (`X`/`*` Black, `O` White, `-` empty; A1..H8) and the side to move.
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// Print one JSON object instead of the board and the table: `position`, `empties`,
    /// `level`, `nodes`, `seconds`, `game_over`, `must_pass`, `final_score` and `moves` (each
    /// with `move`, `score`, `depth`, `selectivity`, `exact` and `pv`; a book move also with
    /// `"book": true`, its level as its depth and its book line as its pv).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    book: BookArgs,
}

/// One scored move in the JSON output.
#[derive(Serialize)]
struct MoveJson {
    /// The move (`f5`).
    #[serde(rename = "move")]
    mv: String,
    /// Score in discs, side to move's view.
    score: i32,
    /// Midgame depth, or the empties when the score is exact.
    depth: u8,
    /// Selectivity percent (100: no pruning).
    selectivity: u8,
    /// Whether the score is proven exact.
    exact: bool,
    /// Principal variation from this move (`ps` for a pass); a book move's book line.
    pv: Vec<String>,
    /// A move of the opening book, its score the book value (absent for searched moves).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    book: bool,
}

/// The JSON output of `--json`.
#[derive(Serialize)]
struct AnalysisJson {
    position: String,
    empties: u32,
    level: u8,
    game_over: bool,
    must_pass: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    final_score: Option<i32>,
    nodes: u64,
    seconds: f64,
    moves: Vec<MoveJson>,
}

/// A move's name in the JSON output: lower case, `ps` for a pass.
fn move_name(sq: Square) -> String {
    sq.name().to_ascii_lowercase()
}

impl MoveJson {
    fn new(m: &MoveScore) -> MoveJson {
        MoveJson {
            mv: move_name(m.square),
            score: m.score,
            depth: m.depth,
            selectivity: m.selectivity,
            exact: m.exact,
            pv: m.pv.iter().map(|&x| move_name(x)).collect(),
            book: false,
        }
    }

    fn book(m: &BookMove, line: &[Square]) -> MoveJson {
        MoveJson {
            mv: move_name(m.square),
            score: m.score,
            depth: m.level,
            selectivity: 100,
            exact: false,
            pv: line.iter().map(|&x| move_name(x)).collect(),
            book: true,
        }
    }
}

/// Prints `value` as one JSON line.
fn print_json(value: &AnalysisJson) -> Result<(), CliError> {
    let line = serde_json::to_string(value).map_err(|e| CliError::Json(e.to_string()))?;
    println!("{line}");
    Ok(())
}

/// Reads a board, or else a move list played from the start.
pub(super) fn read_position(text: &str) -> Result<Position, CliError> {
    text.parse::<Position>()
        .or_else(|board_err| {
            parse_and_play(Position::start(), text).map_err(|moves_err| {
                // a text with 64 or more characters was meant as a board
                if text.chars().filter(|c| !c.is_whitespace()).count() >= 64 {
                    board_err
                } else {
                    moves_err
                }
            })
        })
        .map_err(CliError::Board)
}

/// Runs `analyse`.
pub fn run(a: &AnalyseArgs) -> Result<ExitCode, CliError> {
    let pos = read_position(&a.position)?;
    let b = pos.board;
    let empties = b.empty_count();
    let mut json = AnalysisJson {
        position: pos.to_string(),
        empties,
        level: a.engine.level(),
        game_over: b.is_game_over(),
        must_pass: !b.is_game_over() && b.moves() == 0,
        final_score: b.is_game_over().then(|| b.final_score()),
        nodes: 0,
        seconds: 0.0,
        moves: Vec::new(),
    };
    if !a.json {
        println!("{}", board_diagram(&pos));
        println!("{pos}");
    }
    if json.game_over {
        if a.json {
            print_json(&json)?;
        } else {
            println!("game over: {}", score_text(b.final_score()));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if json.must_pass && !a.json {
        println!("the side to move must pass");
    }
    let mut engine = a.engine.engine()?;
    let book = a.book.session_book()?;
    let book_moves = book.moves(&b);
    let lines: Vec<Vec<Square>> = book_moves.iter().map(|m| book.line(&b, m)).collect();
    let booked = book_moves.iter().fold(0, |mask, m| mask | m.square.bit());
    let others = b.moves() & !booked;
    // the moves the book does not give are searched (all of them without the book)
    let o = (book_moves.is_empty() || others != 0).then(|| {
        let limits = Limits {
            level: Some(a.engine.level()),
            all_moves: true,
            search_moves: (!book_moves.is_empty()).then_some(others),
            ..Limits::default()
        };
        engine.think(&b, &limits, &AtomicBool::new(false), &mut |_| {})
    });
    let searched = o.as_ref().map_or(&[][..], |o| &o.moves[..]);
    let (nodes, seconds) = o
        .as_ref()
        .map_or((0, 0.0), |o| (o.nodes, o.elapsed.as_secs_f64()));
    if a.json {
        json.nodes = nodes;
        json.seconds = (seconds * 1e6).round() / 1e6;
        json.moves = book_moves
            .iter()
            .zip(&lines)
            .map(|(m, l)| MoveJson::book(m, l))
            .chain(searched.iter().map(MoveJson::new))
            .collect();
        print_json(&json)?;
        return Ok(ExitCode::SUCCESS);
    }
    let from_book = match book_moves.len() {
        0 => String::new(),
        1 => ", 1 book move".into(),
        k => format!(", {k} book moves"),
    };
    println!(
        "level {}, {empties} empties, {nodes} nodes, {seconds:.2} s{from_book}",
        a.engine.level(),
    );
    for l in move_table_header() {
        println!("{l}");
    }
    for (m, l) in book_moves.iter().zip(&lines) {
        println!("{}", book_row(m, l));
    }
    for m in searched {
        println!("{}", move_row(m));
    }
    Ok(ExitCode::SUCCESS)
}
