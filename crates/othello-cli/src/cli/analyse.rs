//! `ply-othello analyse <moves or board>`: the score of every legal move at a level, as a table
//! (or, with `--json`, one JSON object).

use super::engine::EngineArgs;
use super::CliError;
use clap::Args;
use ply_othello::{parse_and_play, Position, Square};
use ply_othello_cli::protocol::format::{board_diagram, move_table, score_text};
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
    /// with `move`, `score`, `depth`, `selectivity`, `exact` and `pv`).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArgs,
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
    /// Principal variation from this move (`ps` for a pass).
    pv: Vec<String>,
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
fn read_position(text: &str) -> Result<Position, CliError> {
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
    let limits = Limits {
        level: Some(a.engine.level()),
        all_moves: true,
        ..Limits::default()
    };
    let o = engine.think(&b, &limits, &AtomicBool::new(false), &mut |_| {});
    if a.json {
        json.nodes = o.nodes;
        json.seconds = (o.elapsed.as_secs_f64() * 1e6).round() / 1e6;
        json.moves = o.moves.iter().map(MoveJson::new).collect();
        print_json(&json)?;
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "level {}, {empties} empties, {} nodes, {:.2} s",
        a.engine.level(),
        o.nodes,
        o.elapsed.as_secs_f64()
    );
    for l in move_table(&o.moves) {
        println!("{l}");
    }
    Ok(ExitCode::SUCCESS)
}
