//! Go Text Protocol for Othello, as GUIs (Quarry) and GRhino's `gtp-rhino` speak it: `play black f5`,
//! `genmove white`, `pass` for passes, 8x8 only. [`GtpSession::handle`] turns one input line into one
//! complete reply (`=id ...` or `?id ...`, ended by a blank line); no input makes it panic.

use super::format::board_diagram;
use ply_cli_support::NotUtf8;
use ply_othello::{color_name, Game, MoveError};
use ply_othello::{Color, Square};
use ply_othello_engine::{Clock, Engine, Limits};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use thiserror::Error;

/// Commands this session answers, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "time_settings",
    "time_left",
    "final_score",
    "showboard",
    "set_level",
    "quit",
];

/// Why a GTP command failed: the text of its `?` reply.
#[derive(Debug, Error)]
pub enum GtpError {
    /// The command has no name (a line of only a command id).
    #[error("missing command")]
    MissingCommand,
    /// The command is not one of [`COMMANDS`].
    #[error("unknown command")]
    UnknownCommand,
    /// The command lacks an argument.
    #[error("missing argument")]
    MissingArgument,
    /// `boardsize` other than 8.
    #[error("unacceptable size")]
    UnacceptableSize,
    /// `komi` whose argument is not a number.
    #[error("komi not a float")]
    KomiNotFloat,
    /// `set_level` beyond 0..60.
    #[error("level must be 0..60")]
    BadLevel,
    /// A color that is neither `b`/`black` nor `w`/`white`.
    #[error("invalid color {0}")]
    InvalidColor(String),
    /// A vertex that is neither a square nor `pass`.
    #[error("invalid vertex {0}")]
    InvalidVertex(String),
    /// A time that is not a number of seconds in 0..1e9.
    #[error("invalid time {0}")]
    InvalidTime(String),
    /// `undo` with no move played.
    #[error("cannot undo")]
    CannotUndo,
    /// `genmove` for the side not to move, which has a move.
    #[error("it is not {}'s turn", color_name(*.0))]
    NotTheirTurn(Color),
    /// A move the game refuses.
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// One GTP conversation: the game, the engine and the clocks.
pub struct GtpSession {
    game: Game,
    engine: Engine,
    level: u8,
    /// Main time per side from `time_settings` (`None`: no time limit).
    main_time: Option<Duration>,
    /// Remaining time per side (Black, White), from `time_left` or our own accounting.
    remaining: [Option<Duration>; 2],
    /// Node cap of every search ([`GtpSession::set_node_limit`]).
    node_limit: Option<u64>,
    quit: bool,
}

fn side_index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

fn parse_color(s: &str) -> Result<Color, GtpError> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(GtpError::InvalidColor(s.to_string())),
    }
}

fn parse_vertex(s: &str) -> Result<Square, GtpError> {
    if s.eq_ignore_ascii_case("pass") || s.eq_ignore_ascii_case("ps") {
        return Ok(Square::PASS);
    }
    s.parse()
        .map_err(|_| GtpError::InvalidVertex(s.to_string()))
}

fn vertex_name(sq: Square) -> String {
    if sq.is_pass() {
        "pass".to_string()
    } else {
        sq.name().to_ascii_lowercase()
    }
}

impl GtpSession {
    /// A session playing with `engine` at `level` when no clock is set.
    pub fn new(engine: Engine, level: u8) -> GtpSession {
        GtpSession {
            game: Game::default(),
            engine,
            level,
            main_time: None,
            remaining: [None, None],
            node_limit: None,
            quit: false,
        }
    }

    /// Caps every search of the session at `nodes` (`None`: the level alone decides), so that
    /// a script or a fuzzer can drive any command, even a level-60 solve, in bounded time.
    pub fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.node_limit = nodes;
    }

    /// True once `quit` was received.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// The current game.
    #[cfg(test)]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Answers one line; `None` for blank and comment lines (GTP sends nothing back for them).
    pub fn handle(&mut self, line: &str) -> Option<String> {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            return None;
        }
        let mut words = line.split_whitespace();
        let first = words.next()?;
        let (id, command) = match first.parse::<u64>() {
            Ok(n) => (n.to_string(), words.next().unwrap_or("")),
            Err(_) => (String::new(), first),
        };
        let args: Vec<&str> = words.collect();
        Some(match self.command(command, &args) {
            Ok(text) => format!("={id} {text}").trim_end().to_string() + "\n\n",
            Err(text) => format!("?{id} {text}\n\n"),
        })
    }

    /// The failure reply to a line that is not UTF-8 (with the line's command id when it starts
    /// with one); the session state is unchanged.
    pub fn reject(&self, line: &NotUtf8) -> String {
        let id = line
            .lossy
            .split_whitespace()
            .next()
            .and_then(|w| w.parse::<u64>().ok())
            .map(|n| n.to_string())
            .unwrap_or_default();
        format!("?{id} {line}\n\n")
    }

    fn command(&mut self, command: &str, args: &[&str]) -> Result<String, GtpError> {
        let arg = |i: usize| args.get(i).copied().ok_or(GtpError::MissingArgument);
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("ply".into()),
            "version" => Ok(crate::VERSION.into()),
            "known_command" => Ok(COMMANDS.contains(&arg(0)?).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "boardsize" => match arg(0)?.parse::<u32>() {
                Ok(8) => Ok(String::new()),
                _ => Err(GtpError::UnacceptableSize),
            },
            "clear_board" => {
                self.game = Game::default();
                self.engine.new_game();
                if let Some(t) = self.main_time {
                    self.remaining = [Some(t), Some(t)];
                }
                Ok(String::new())
            }
            "komi" => arg(0)?
                .parse::<f64>()
                .map(|_| String::new())
                .map_err(|_| GtpError::KomiNotFloat),
            "play" => {
                let color = parse_color(arg(0)?)?;
                let sq = parse_vertex(arg(1)?)?;
                self.game.play_as(color, sq)?;
                Ok(String::new())
            }
            "genmove" => self.genmove(parse_color(arg(0)?)?),
            "undo" => {
                if self.game.undo() {
                    Ok(String::new())
                } else {
                    Err(GtpError::CannotUndo)
                }
            }
            "time_settings" => {
                let main = parse_seconds(arg(0)?)?;
                let byo = parse_seconds(arg(1)?)?;
                self.main_time = if main.is_zero() && byo.is_zero() {
                    None
                } else {
                    Some(main.max(byo))
                };
                self.remaining = [self.main_time, self.main_time];
                Ok(String::new())
            }
            "time_left" => {
                let color = parse_color(arg(0)?)?;
                let secs = parse_seconds(arg(1)?)?;
                self.remaining[side_index(color)] = Some(secs);
                Ok(String::new())
            }
            "final_score" => {
                let s = self.game.final_score();
                Ok(match s {
                    0 => "0".into(),
                    s if s > 0 => format!("B+{s}"),
                    s => format!("W+{}", -s),
                })
            }
            "showboard" => Ok(format!("\n{}", board_diagram(&self.game.position()))),
            "set_level" => match arg(0)?.parse::<u8>() {
                Ok(l) if l <= 60 => {
                    self.level = l;
                    Ok(String::new())
                }
                _ => Err(GtpError::BadLevel),
            },
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "" => Err(GtpError::MissingCommand),
            _ => Err(GtpError::UnknownCommand),
        }
    }

    fn genmove(&mut self, color: Color) -> Result<String, GtpError> {
        let pos = self.game.position();
        if pos.board.is_game_over() {
            return Ok("pass".into());
        }
        if pos.side != color {
            if pos.board.moves() == 0 {
                self.game.play(Square::PASS)?;
            } else {
                return Err(GtpError::NotTheirTurn(color));
            }
        }
        let pos = self.game.position();
        if pos.board.moves() == 0 {
            self.game.play(Square::PASS)?;
            return Ok("pass".into());
        }
        let idx = side_index(color);
        let mut limits = Limits {
            level: Some(self.level),
            nodes: self.node_limit,
            ..Limits::default()
        };
        if let Some(remaining) = self.remaining[idx] {
            limits.clock = Some(Clock {
                remaining,
                increment: Duration::ZERO,
                moves_to_go: None,
            });
        }
        let stop = AtomicBool::new(false);
        let outcome = self.engine.think(&pos.board, &limits, &stop, &mut |_| {});
        if let Some(r) = self.remaining[idx] {
            self.remaining[idx] = Some(r.saturating_sub(outcome.elapsed));
        }
        let mut sq = outcome.best;
        if !sq.is_pass() && pos.board.moves() & sq.bit() == 0 {
            // Never send an illegal move: fall back to the first legal one.
            sq = Square::first(pos.board.moves()).unwrap_or(Square::PASS);
        }
        self.game.play(sq)?;
        Ok(vertex_name(sq))
    }
}

fn parse_seconds(s: &str) -> Result<Duration, GtpError> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..1e9).contains(&x) => Ok(Duration::from_secs_f64(x)),
        _ => Err(GtpError::InvalidTime(s.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_othello_engine::EngineOptions;
    use proptest::prelude::*;

    fn session() -> GtpSession {
        GtpSession::new(
            Engine::new(EngineOptions {
                hash_mib: 1,
                ..EngineOptions::default()
            }),
            2,
        )
    }

    #[test]
    fn transcript() {
        let mut s = session();
        assert_eq!(s.handle("1 protocol_version").unwrap(), "=1 2\n\n");
        let version = format!("= {}\n\n", crate::VERSION);
        assert_eq!(s.handle("version").unwrap(), version);
        assert_eq!(s.handle("boardsize 8").unwrap(), "=\n\n");
        assert_eq!(s.handle("boardsize 9").unwrap(), "? unacceptable size\n\n");
        assert_eq!(s.handle("known_command genmove").unwrap(), "= true\n\n");
        assert_eq!(s.handle("known_command foo").unwrap(), "= false\n\n");
        assert!(s.handle("# a comment").is_none());
        assert_eq!(s.handle("clear_board").unwrap(), "=\n\n");
        assert_eq!(s.handle("play black f5").unwrap(), "=\n\n");
        assert!(s.handle("play black d6").unwrap().starts_with('?'));
        assert!(s.handle("play white a1").unwrap().starts_with('?'));
        let reply = s.handle("genmove white").unwrap();
        let mv = reply.trim_start_matches("= ").trim();
        let sq: Square = mv.parse().expect("a square");
        assert_eq!(s.game().moves(), &[Square::F5, sq]);
        assert_eq!(s.handle("undo").unwrap(), "=\n\n");
        assert_eq!(s.game().moves().len(), 1);
        assert!(s.handle("showboard").unwrap().contains("A B C D E F G H"));
        assert_eq!(s.handle("final_score").unwrap(), "= B+3\n\n");
        assert!(s.handle("frobnicate").unwrap().starts_with("? unknown"));
        assert_eq!(s.handle("quit").unwrap(), "=\n\n");
        assert!(s.quit_requested());
    }

    #[test]
    fn a_whole_game_against_itself_with_a_clock() {
        let mut s = session();
        s.handle("time_settings 2 0 0");
        let mut color = "black";
        for _ in 0..70 {
            if s.game().position().board.is_game_over() {
                break;
            }
            let r = s.handle(&format!("genmove {color}")).unwrap();
            assert!(r.starts_with("= "), "{r}");
            color = if color == "black" { "white" } else { "black" };
        }
        assert!(s.game().position().board.is_game_over());
        assert!(s.handle("final_score").unwrap().starts_with('='));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_lines_never_panic(line in "[ -~]{0,40}") {
            let mut s = session();
            // Keep the search cheap whatever the line says.
            s.handle("set_level 1");
            let _ = s.handle(&line);
        }

        #[test]
        fn random_commands_with_random_args_never_panic(
            cmd in proptest::sample::select(COMMANDS.to_vec()),
            args in "[ -~]{0,20}",
        ) {
            let mut s = session();
            s.handle("set_level 1");
            let _ = s.handle(&format!("{cmd} {args}"));
        }
    }
}
