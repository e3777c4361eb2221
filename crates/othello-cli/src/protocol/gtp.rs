//! Go Text Protocol for Othello, as GUIs (Quarry) and GRhino's `gtp-rhino` speak it: `play black f5`,
//! `genmove white`, `pass` for passes, 8x8 only. [`GtpSession::handle`] turns one input line into one
//! complete reply (`=id ...` or `?id ...`, ended by a blank line); no input makes it panic.
//! Clocks: `time_settings` (Canadian byo-yomi), `kgs-time_settings` (`none`, `absolute`,
//! `canadian`, `byoyomi`) and `time_left` ([`TimeSystem`], [`SideClock`]); `genmove` plays on
//! its side's clock. Pondering after `genmove`: [`GtpSession::set_ponder`].
//! Engine-specific commands: `ply-strength S`, `ply-loss D R` (or `ply-loss off`) and `ply-seed N`
//! set the loss allowance of `genmove` ([`Weakness`], the named levels of `STRENGTHS`);
//! `ply-book on` or `ply-book off` and `ply-book-randomness N` (0..64) the use of the opening
//! book ([`SessionBook`]: the built-in one, `ply-othello gtp --book FILE`, or none with
//! `--no-book`): `genmove` in a position the book
//! holds answers the book's move at once, with no search (almost no clock time), drawn within
//! the randomness of the best with the seed of `ply-seed`, stepped after every `genmove`.

use super::clock::{Ponder, SideClock, TimeSystem};
use super::format::board_diagram;
use super::{SessionBook, MAX_BOOK_RANDOMNESS};
use ply_cli_support::NotUtf8;
use ply_othello::{color_name, Game, MoveError};
use ply_othello::{Color, Square};
use ply_othello_engine::Weakness;
use ply_othello_engine::{Engine, Limits};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
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
    "kgs-time_settings",
    "time_left",
    "final_score",
    "showboard",
    "set_level",
    "ply-strength",
    "ply-loss",
    "ply-seed",
    "ply-book",
    "ply-book-randomness",
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
    /// `ply-strength` that names none of the engine's `STRENGTHS`.
    #[error("unknown strength (beginner, casual, club, strong, expert, full or 1..6)")]
    BadStrength,
    /// `ply-loss` other than `off` or discs 0..64 and a ratio 0..1.
    #[error("loss must be discs 0..64 and a ratio 0..1, or off")]
    BadLoss,
    /// `ply-seed` that is not a number 0..2^64.
    #[error("seed must be a number 0..2^64")]
    BadSeed,
    /// `ply-book` other than `on` or `off`.
    #[error("ply-book takes on or off")]
    BadBookSwitch,
    /// `ply-book on` without a book (started with `--no-book`, or at a named strength or loss
    /// allowance without `--book FILE`).
    #[error("no opening book (started with --no-book, or at a --strength or --loss without --book FILE)")]
    NoBook,
    /// `ply-book-randomness` beyond 0..64.
    #[error("book randomness must be 0..64 discs")]
    BadRandomness,
    /// A color that is neither `b`/`black` nor `w`/`white`.
    #[error("invalid color {0}")]
    InvalidColor(String),
    /// A vertex that is neither a square nor `pass`.
    #[error("invalid vertex {0}")]
    InvalidVertex(String),
    /// A time that is not a number of seconds in 0..1e9.
    #[error("invalid time {0}")]
    InvalidTime(String),
    /// A number of byo-yomi stones or periods that is not a whole number 0..2^32.
    #[error("invalid stones {0}")]
    InvalidStones(String),
    /// `kgs-time_settings` of a system other than none, absolute, byoyomi or canadian.
    #[error("unknown time system {0} (none, absolute, byoyomi, canadian)")]
    UnknownTimeSystem(String),
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
    /// Loss allowance of `genmove` (`ply-strength`, `ply-loss`, `ply-seed`; off by default).
    weakness: Weakness,
    /// The opening book (`ply-book`, `ply-book-randomness`; none by default).
    book: SessionBook,
    /// The time system of `time_settings` or `kgs-time_settings` (`None`: no time limit).
    time_system: Option<TimeSystem>,
    /// Each side's clock (Black, White), from `time_left` or our own accounting.
    clocks: [Option<SideClock>; 2],
    /// Whether to ponder after `genmove` ([`GtpSession::set_ponder`]).
    pondering: bool,
    /// The search on the opponent's time, stopped by the next command.
    ponder: Option<Ponder>,
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
            weakness: Weakness::default(),
            book: SessionBook::default(),
            time_system: None,
            clocks: [None, None],
            pondering: false,
            ponder: None,
            node_limit: None,
            quit: false,
        }
    }

    /// Caps every search of the session at `nodes` (`None`: the level alone decides), so that
    /// a script or a fuzzer can drive any command, even a level-60 solve, in bounded time.
    pub fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.node_limit = nodes;
    }

    /// Sets the loss allowance of `genmove` (as `ply-loss` and `ply-seed` do).
    pub fn set_weakness(&mut self, weakness: Weakness) {
        self.weakness = weakness;
    }

    /// Sets the opening book of `genmove`.
    pub fn set_book(&mut self, book: SessionBook) {
        self.book = book;
    }

    /// Pondering: after `genmove`, the engine searches the position on the opponent's time
    /// (at the session's level, with no output) until the next command arrives, which stops
    /// it at once; what it finds is left in the tables for the next `genmove`.
    pub fn set_ponder(&mut self, on: bool) {
        self.pondering = on;
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
        // the next command ends the opponent's time
        self.ponder = None;
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
                if let Some(system) = self.time_system {
                    self.clocks = [Some(system.start()); 2];
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
                // GTP 2 requires the stones; ply reads `time_settings M B` as B 0
                let stones = args.get(2).map_or(Ok(0), |s| parse_stones(s))?;
                self.set_time_system(canadian(main, byo, stones));
                Ok(String::new())
            }
            "kgs-time_settings" => {
                let system = match arg(0)?.to_ascii_lowercase().as_str() {
                    "none" => None,
                    "absolute" => canadian(parse_seconds(arg(1)?)?, Duration::ZERO, 0),
                    "canadian" => canadian(
                        parse_seconds(arg(1)?)?,
                        parse_seconds(arg(2)?)?,
                        parse_stones(arg(3)?)?,
                    ),
                    "byoyomi" => Some(TimeSystem::Japanese {
                        main: parse_seconds(arg(1)?)?,
                        byo: parse_seconds(arg(2)?)?,
                        periods: parse_stones(arg(3)?)?,
                    }),
                    _ => return Err(GtpError::UnknownTimeSystem(arg(0)?.to_string())),
                };
                self.set_time_system(system);
                Ok(String::new())
            }
            "time_left" => {
                let color = parse_color(arg(0)?)?;
                let left = parse_seconds(arg(1)?)?;
                let stones = args.get(2).map_or(Ok(0), |s| parse_stones(s))?;
                self.clocks[side_index(color)] = Some(SideClock { left, stones });
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
            // engine-specific: the loss allowance (its level, its discs and ratio, its seed)
            "ply-strength" => {
                let s = ply_othello_engine::strength(arg(0)?).ok_or(GtpError::BadStrength)?;
                self.level = s.level;
                self.weakness = Weakness {
                    seed: self.weakness.seed,
                    ..s.weakness(0)
                };
                Ok(String::new())
            }
            "ply-loss" => {
                let seed = self.weakness.seed;
                self.weakness = if arg(0)?.eq_ignore_ascii_case("off") && args.len() == 1 {
                    Weakness {
                        seed,
                        ..Weakness::default()
                    }
                } else {
                    let d = arg(0)?.parse::<i32>().map_err(|_| GtpError::BadLoss)?;
                    let r = arg(1)?.parse::<f64>().map_err(|_| GtpError::BadLoss)?;
                    Weakness::new(d, r, seed).ok_or(GtpError::BadLoss)?
                };
                Ok(String::new())
            }
            "ply-seed" => {
                self.weakness.seed = arg(0)?.parse().map_err(|_| GtpError::BadSeed)?;
                Ok(String::new())
            }
            // engine-specific: the opening book
            "ply-book" => {
                let on = match arg(0)?.to_ascii_lowercase().as_str() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(GtpError::BadBookSwitch),
                };
                if self.book.set_on(on) {
                    Ok(String::new())
                } else {
                    Err(GtpError::NoBook)
                }
            }
            "ply-book-randomness" => {
                let discs = arg(0)?
                    .parse::<i32>()
                    .ok()
                    .filter(|d| (0..=MAX_BOOK_RANDOMNESS).contains(d))
                    .ok_or(GtpError::BadRandomness)?;
                self.book.set_randomness(discs);
                Ok(String::new())
            }
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "" => Err(GtpError::MissingCommand),
            _ => Err(GtpError::UnknownCommand),
        }
    }

    /// A new time system: both clocks at its start (none without one).
    fn set_time_system(&mut self, system: Option<TimeSystem>) {
        self.time_system = system;
        self.clocks = [system.map(TimeSystem::start); 2];
    }

    fn genmove(&mut self, color: Color) -> Result<String, GtpError> {
        let reply = self.engine_move(color)?;
        if self.pondering && !self.game.position().board.is_game_over() {
            let limits = Limits {
                level: Some(self.level),
                nodes: self.node_limit,
                ..Limits::default()
            };
            let board = self.game.position().board;
            self.ponder = Some(Ponder::start(&self.engine, board, limits));
        }
        Ok(reply)
    }

    fn engine_move(&mut self, color: Color) -> Result<String, GtpError> {
        let start = Instant::now();
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
        if let Some(m) = self.book.choose(&pos.board, self.weakness.seed) {
            // the book's move at once, its seed stepped as after a search
            self.weakness = self.weakness.next();
            self.charge_clock(idx, start);
            self.game.play(m.square)?;
            return Ok(vertex_name(m.square));
        }
        let limits = Limits {
            level: Some(self.level),
            nodes: self.node_limit,
            clock: self.clocks[idx].map(|c| c.engine_clock(self.time_system)),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let weakness = self.weakness;
        self.weakness = weakness.next();
        let outcome =
            self.engine
                .think_weakened(&pos.board, &limits, &weakness, &stop, &mut |_| {});
        self.charge_clock(idx, start);
        let mut sq = outcome.best;
        if !sq.is_pass() && pos.board.moves() & sq.bit() == 0 {
            // Never send an illegal move: fall back to the first legal one.
            sq = Square::first(pos.board.moves()).unwrap_or(Square::PASS);
        }
        self.game.play(sq)?;
        Ok(vertex_name(sq))
    }
}

impl GtpSession {
    /// Takes the time since `start` off side `idx`'s clock, if it has one.
    fn charge_clock(&mut self, idx: usize, start: Instant) {
        if let Some(c) = self.clocks[idx] {
            // without a time system (only `time_left`), the clock runs down as absolute time
            let system = self.time_system.unwrap_or(TimeSystem::Canadian {
                main: c.left,
                byo: Duration::ZERO,
                stones: 0,
            });
            self.clocks[idx] = Some(system.after_move(c, start.elapsed()));
        }
    }
}

/// The time system of `time_settings M B S` (Canadian byo-yomi): none for `B > 0, S = 0` (GTP's
/// "no time limits") and for `0 0`; absolute time for `B = 0`.
fn canadian(main: Duration, byo: Duration, stones: u32) -> Option<TimeSystem> {
    let unlimited = (!byo.is_zero() && stones == 0) || (main.is_zero() && byo.is_zero());
    (!unlimited).then_some(TimeSystem::Canadian { main, byo, stones })
}

fn parse_stones(s: &str) -> Result<u32, GtpError> {
    s.parse()
        .map_err(|_| GtpError::InvalidStones(s.to_string()))
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

    #[test]
    fn ply_strength_loss_and_seed() {
        let mut s = session();
        for c in ["ply-strength", "ply-loss", "ply-seed"] {
            assert!(s.handle("list_commands").unwrap().contains(c));
            let known = s.handle(&format!("known_command {c}")).unwrap();
            assert_eq!(known, "= true\n\n");
        }
        assert_eq!(s.handle("ply-strength club").unwrap(), "=\n\n");
        assert_eq!(s.level, 4);
        assert_eq!(s.weakness, Weakness::new(6, 0.3, 0).unwrap());
        assert_eq!(s.handle("2 ply-loss 64 1").unwrap(), "=2\n\n");
        assert_eq!(s.handle("ply-seed 7").unwrap(), "=\n\n");
        assert_eq!(s.weakness, Weakness::new(64, 1.0, 7).unwrap());
        for bad in [
            "ply-strength",
            "ply-strength grandmaster",
            "ply-strength 0",
            "ply-loss 65 0.5",
            "ply-loss 4",
            "ply-loss 4 -0.1",
            "ply-loss x 1",
            "ply-seed -3",
            "ply-seed",
        ] {
            assert!(s.handle(bad).unwrap().starts_with('?'), "{bad}");
        }
        assert_eq!(s.weakness, Weakness::new(64, 1.0, 7).unwrap());
        // every move drawn within 64 discs: legal, and the seed steps after each genmove
        s.handle("set_level 1");
        let mut color = "black";
        while !s.game().position().board.is_game_over() {
            let r = s.handle(&format!("genmove {color}")).unwrap();
            assert!(r.starts_with("= "), "{r}");
            color = if color == "black" { "white" } else { "black" };
        }
        assert_ne!(s.weakness.seed, 7);
        assert_eq!(s.handle("ply-loss off").unwrap(), "=\n\n");
        assert!(s.weakness.is_off());
    }

    /// What the engine's moves may take beyond its clock in a whole game, all together: the
    /// part of a move its clock cannot see (starting and joining its threads, the abort's
    /// latency) on a loaded machine; the engine keeps 3 ms or more of its clock in reserve.
    const MARGIN: Duration = Duration::from_millis(50);

    #[test]
    fn time_settings_parse_and_bad_values_are_refused() {
        let mut s = session();
        assert!(s
            .handle("list_commands")
            .unwrap()
            .contains("\nkgs-time_settings\n"));
        let secs = Duration::from_secs;
        let ok = |s: &mut GtpSession, line: &str| assert_eq!(s.handle(line).unwrap(), "=\n\n");
        ok(&mut s, "time_settings 300 30 5");
        let canadian = TimeSystem::Canadian {
            main: secs(300),
            byo: secs(30),
            stones: 5,
        };
        assert_eq!(s.time_system, Some(canadian));
        for bad in [
            "time_settings -1 0 0",
            "time_settings 10 x 0",
            "time_settings 10 0 -2",
            "time_settings 10",
            "kgs-time_settings",
            "kgs-time_settings fischer 60 5",
            "kgs-time_settings absolute",
            "kgs-time_settings byoyomi 60 10",
            "kgs-time_settings canadian 60 10 x",
            "time_left black x 0",
            "time_left black 10 1.5",
            "time_left red 10 0",
        ] {
            let r = s.handle(bad).unwrap();
            assert!(r.starts_with("? "), "{bad}: {r}");
        }
        assert!(s
            .handle("time_left black 10 1.5")
            .unwrap()
            .contains("invalid stones 1.5"));
        assert_eq!(s.time_system, Some(canadian), "unchanged");
        assert_eq!(
            s.clocks,
            [Some(SideClock {
                left: secs(300),
                stones: 0
            }); 2]
        );
        // GTP: byo-yomi time without stones is no time limit
        ok(&mut s, "time_settings 0 1 0");
        assert_eq!((s.time_system, s.clocks), (None, [None, None]));
        ok(&mut s, "kgs-time_settings byoyomi 0 10 3");
        assert_eq!(
            s.clocks[0],
            Some(SideClock {
                left: secs(10),
                stones: 3
            })
        );
        ok(&mut s, "kgs-time_settings absolute 60");
        assert_eq!(
            s.clocks[1],
            Some(SideClock {
                left: secs(60),
                stones: 0
            })
        );
        ok(&mut s, "time_left white 20 4");
        let c = s.clocks[1].unwrap().engine_clock(s.time_system);
        assert_eq!((c.remaining, c.moves_to_go), (secs(20), Some(4)));
        ok(&mut s, "kgs-time_settings none");
        assert_eq!(s.clocks, [None, None]);
    }

    #[test]
    fn the_engines_clock_counts_down() {
        let mut s = session();
        s.handle("time_settings 10 0 0");
        s.handle("genmove black");
        let black = s.clocks[0].unwrap().left;
        assert!(black < Duration::from_secs(10), "{black:?}");
        assert_eq!(s.clocks[1].unwrap().left, Duration::from_secs(10));
        s.handle("clear_board");
        assert_eq!(s.clocks[0].unwrap().left, Duration::from_secs(10));
    }

    /// 0.2 s for a whole game at level 60 (only time stops the search): every `genmove` is
    /// answered with a move, and each side's moves, measured around each `genmove`, stay
    /// within the clock (plus [`MARGIN`]), with `time_left` or without.
    #[test]
    fn a_tiny_clock_is_never_exceeded() {
        for tell in [false, true] {
            let mut s = session();
            s.handle("set_level 60");
            s.handle("time_settings 0.2 0 0");
            let mut used = [Duration::ZERO; 2];
            let mut color = Color::Black;
            while !s.game().position().board.is_game_over() {
                let i = side_index(color);
                if tell {
                    let left = Duration::from_millis(200).saturating_sub(used[i]);
                    s.handle(&format!("time_left {color} {:.4} 0", left.as_secs_f64()));
                }
                let t = Instant::now();
                let r = s.handle(&format!("genmove {color}")).unwrap();
                used[i] += t.elapsed();
                assert!(r.starts_with("= "), "{r}");
                color = color.other();
            }
            for u in used {
                assert!(u <= Duration::from_millis(200) + MARGIN, "{used:?}");
            }
        }
    }

    #[test]
    fn the_next_command_stops_pondering_at_once() {
        let mut s = session();
        s.set_ponder(true);
        s.handle("set_level 60");
        s.handle("time_settings 1 0 0");
        let r = s.handle("genmove black").unwrap();
        assert!(r.starts_with("= "), "{r}");
        // a level-60 search of the position after one move: it never ends by itself
        std::thread::sleep(Duration::from_millis(30));
        assert!(s.ponder.as_ref().is_some_and(Ponder::is_running));
        let t = Instant::now();
        assert_eq!(s.handle("name").unwrap(), "= ply\n\n", "no ponder output");
        // a guard against a search that goes on, not a speed target (the stop takes ms)
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
        assert!(s.ponder.is_none());
        // and the game goes on
        let r = s.handle("genmove white").unwrap();
        assert!(r.starts_with("= "), "{r}");
        assert_eq!(s.game().moves().len(), 2);
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
