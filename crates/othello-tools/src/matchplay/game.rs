//! One game of a match: ply (in process, through [`Engine::think`]) against a GTP engine, from
//! an opening, with a clock per side charged by measured wall time. Going over the clock,
//! an illegal move, a refused command or a dead engine ends the game and is recorded.

use super::client::{GtpClient, GtpError};
use ply_othello::{parse_square, square_name, Color, Position, PASS};
use ply_othello_engine::{Clock, Engine, Limits};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Per-game settings.
#[derive(Clone, Debug)]
pub struct GameOptions {
    /// ply's clock for the whole game (`None`: no clock, play by level).
    pub ply_time: Option<Duration>,
    /// The opponent's clock for the whole game (`None`: unlimited, only measured).
    pub opponent_time: Option<Duration>,
    /// ply's level (`None`: the engine default, or clock-only when a clock is set).
    pub level: Option<u8>,
    /// How long past its clock an opponent reply is awaited before it is declared hung.
    pub grace: Duration,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Played to the end.
    Normal,
    /// ply went over its clock (loss for ply).
    PlyTimeLoss,
    /// ply returned an illegal move (loss for ply).
    PlyIllegal(String),
    /// The opponent went over its clock (loss for the opponent).
    OpponentTimeLoss,
    /// The opponent played an illegal or unreadable move (loss for the opponent).
    OpponentIllegal(String),
    /// The opponent crashed, hung or refused a command (loss for the opponent).
    OpponentCrash(String),
}

/// The result of one game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// ply's colour.
    pub ply_color: Color,
    /// Every move from the start, opening included ([`PASS`] for passes).
    pub moves: Vec<usize>,
    /// Final disc differential from ply's view (empties to the winner; ±64 on forfeits).
    pub ply_diff: i32,
    /// How it ended.
    pub termination: Termination,
    /// Wall time ply used.
    pub ply_used: Duration,
    /// Wall time the opponent used.
    pub opponent_used: Duration,
}

fn color_word(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn move_word(sq: usize) -> &'static str {
    if sq == PASS {
        "pass"
    } else {
        square_name(sq)
    }
}

/// Plays one game from `opening` with ply as `ply_color`. Errors talking to the opponent
/// end the game as an opponent crash rather than aborting the match.
pub fn play_game(
    engine: &mut Engine,
    opponent: &mut GtpClient,
    opening: &[usize],
    ply_color: Color,
    opts: &GameOptions,
) -> GameRecord {
    let mut rec = GameRecord {
        ply_color,
        moves: Vec::new(),
        ply_diff: 0,
        termination: Termination::Normal,
        ply_used: Duration::ZERO,
        opponent_used: Duration::ZERO,
    };
    let crash = |e: GtpError| Termination::OpponentCrash(e.to_string());
    let setup = Duration::from_secs(10);
    let mut pos = Position::start();
    engine.new_game();
    let mut setup_cmds = vec!["boardsize 8".to_string(), "clear_board".to_string()];
    for &m in opening {
        setup_cmds.push(format!("play {} {}", color_word(pos.side), move_word(m)));
        if m == PASS {
            pos.pass();
        } else if !pos.play(m) {
            rec.termination = Termination::PlyIllegal(format!("opening move {}", move_word(m)));
            return rec;
        }
        rec.moves.push(m);
    }
    for c in &setup_cmds {
        if let Err(e) = opponent.send(c, setup) {
            rec.termination = crash(e);
            rec.ply_diff = 64;
            return rec;
        }
    }
    let mut ply_left = opts.ply_time;
    let mut opp_left = opts.opponent_time;
    let stop = AtomicBool::new(false);
    while !pos.board.is_game_over() {
        let side = pos.side;
        let legal = pos.board.moves();
        let mv = if side == ply_color {
            let mv = if legal == 0 {
                PASS
            } else {
                let limits = Limits {
                    level: opts.level,
                    clock: ply_left.map(|remaining| Clock {
                        remaining,
                        increment: Duration::ZERO,
                        moves_to_go: None,
                    }),
                    ..Limits::default()
                };
                let t0 = Instant::now();
                let out = engine.think(
                    pos.board.player,
                    pos.board.opponent,
                    &limits,
                    &stop,
                    &mut |_| {},
                );
                let used = t0.elapsed();
                rec.ply_used += used;
                if let Some(left) = ply_left.as_mut() {
                    if used > *left {
                        rec.termination = Termination::PlyTimeLoss;
                        rec.ply_diff = -64;
                        return rec;
                    }
                    *left -= used;
                }
                let sq = usize::from(out.best);
                if sq >= 64 || legal & (1u64 << sq) == 0 {
                    rec.termination = Termination::PlyIllegal(move_word(sq).to_string());
                    rec.ply_diff = -64;
                    return rec;
                }
                sq
            };
            let cmd = format!("play {} {}", color_word(side), move_word(mv));
            match opponent.send(&cmd, setup) {
                Ok(_) => {}
                // Some engines take a pass implicitly and refuse it explicitly.
                Err(GtpError::Refused(..)) if mv == PASS => {}
                Err(e) => {
                    rec.termination = crash(e);
                    rec.ply_diff = 64;
                    return rec;
                }
            }
            mv
        } else {
            let wait = opp_left.map_or(Duration::from_secs(3600), |l| l + opts.grace);
            let t0 = Instant::now();
            let reply = opponent.send(&format!("genmove {}", color_word(side)), wait);
            let used = t0.elapsed();
            rec.opponent_used += used;
            let reply = match reply {
                Ok(r) => r,
                Err(GtpError::Timeout(..)) => {
                    rec.termination = Termination::OpponentTimeLoss;
                    rec.ply_diff = 64;
                    return rec;
                }
                Err(e) => {
                    rec.termination = crash(e);
                    rec.ply_diff = 64;
                    return rec;
                }
            };
            if let Some(left) = opp_left.as_mut() {
                if used > *left {
                    rec.termination = Termination::OpponentTimeLoss;
                    rec.ply_diff = 64;
                    return rec;
                }
                *left -= used;
            }
            let word = reply.trim();
            let sq = if word.eq_ignore_ascii_case("pass") {
                PASS
            } else {
                parse_square(word).unwrap_or(usize::MAX)
            };
            let ok = if sq == PASS {
                legal == 0
            } else {
                sq < 64 && legal & (1u64 << sq) != 0
            };
            if !ok {
                rec.termination = Termination::OpponentIllegal(word.to_string());
                rec.ply_diff = 64;
                return rec;
            }
            sq
        };
        if mv == PASS {
            pos.pass();
        } else {
            pos.play(mv);
        }
        rec.moves.push(mv);
    }
    let d = ply_othello::final_score(pos.black(), pos.white());
    rec.ply_diff = if ply_color == Color::Black { d } else { -d };
    rec
}
