//! `ply-othello analyse <moves or board>`: the score of every legal move at a level, as a table.

use super::engine::EngineArgs;
use super::CliError;
use clap::Args;
use ply_othello::{parse_and_play, Position};
use ply_othello_cli::protocol::format::{board_diagram, move_table, score_text};
use ply_othello_engine::Limits;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// Arguments of `analyse`.
#[derive(Args)]
pub struct AnalyseArgs {
    /// A move list from the start (`f5d6c3`, `pa` for a pass) or a board in quotes: 64
    /// squares (`X`/`*` Black, `O` White, `-` empty; A1..H8) and the side to move.
    #[arg(allow_hyphen_values = true)]
    position: String,
    #[command(flatten)]
    engine: EngineArgs,
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
    println!("{}", board_diagram(&pos));
    println!("{pos}");
    let b = pos.board;
    if b.is_game_over() {
        println!("game over: {}", score_text(b.final_score()));
        return Ok(ExitCode::SUCCESS);
    }
    if b.moves() == 0 {
        println!("the side to move must pass");
    }
    let mut engine = a.engine.engine()?;
    let limits = Limits {
        level: Some(a.engine.level()),
        all_moves: true,
        ..Limits::default()
    };
    let o = engine.think(&b, &limits, &AtomicBool::new(false), &mut |_| {});
    println!(
        "level {}, {} empties, {} nodes, {:.2} s",
        a.engine.level(),
        64 - (b.player() | b.opponent()).count_ones(),
        o.nodes,
        o.elapsed.as_secs_f64()
    );
    for l in move_table(&o.moves) {
        println!("{l}");
    }
    Ok(ExitCode::SUCCESS)
}
