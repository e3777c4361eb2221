//! The interactive text mode (what `ply-othello` runs with no arguments), in the manner of
//! Edax's console: a board diagram after every change, moves typed as coordinates.
//!
//! | command | what |
//! |---|---|
//! | `f5d6c3`, `play f5d6c3` | plays the moves (`pa`/`ps` for a pass) |
//! | `go` | the engine plays a move for the side to move |
//! | `hint [N]` | the N best moves (default 1) with scores, depths and variations |
//! | `solve` | solves the position exactly: score, best move, variation |
//! | `undo`, `redo` | takes back / replays a move |
//! | `init`, `new` | a new game from the start position |
//! | `setboard <64 squares> <side>` | a new game from a board (`X`/`*` Black, `O` White, `-` empty) |
//! | `level N` | search level 0..60 (Edax's levels: midgame depth N, exact endgame later) |
//! | `strength S` | a named strength level ([`STRENGTHS`]: `beginner` .. `full`, or 1..6): its level and loss allowance; alone, lists them |
//! | `loss D R` | the engine's moves lose up to D discs (0..64) with probability R (0..1) ([`Weakness`]); `loss off`; alone, shows it |
//! | `seed N` | the seed of those draws and of the book's (advanced after every engine move) |
//! | `book on`, `book off` | plays from the opening book or not; `book` alone describes it |
//! | `book load FILE` | reads an opening book ([`Book::from_any`]: ply's, Edax's `book.dat` or text form) |
//! | `book randomness N` | plays any book move within N discs (0..64) of the best, drawn with the seed |
//! | `book show` | the book moves of the position with their values |
//! | `mode N` | who the engine plays: 0 White, 1 Black, 2 both, 3 neither (default) |
//! | `game-time T` | each side's time for the game (`5:00`, `90`, `0.2`; `off` or `0`: none) |
//! | `move-time T` | the engine's time for each move (`off` or `0`: none) |
//! | `clock` | each side's time left (also shown under the board while a game time is set) |
//! | `board`, `moves` | shows the board / the moves played |
//! | `help`, `quit` | |
//!
//! Every line gets an answer; a line the session cannot use gets `error: ...` and the game is
//! unchanged.
//!
//! The opening book ([`SessionBook`]: the built-in one, `--book FILE` or `book load FILE`; none
//! with `--no-book`): while it is on
//! and holds the position, the engine's move is the book's (`Black plays F5: -2 (book) F5 D6`,
//! the book value and line), with no search and almost no clock time, also under a loss
//! allowance; `hint` lists the book moves first (`book` in the depth column), then searches the
//! other moves if more are asked.
//!
//! Time, as Edax keeps it (`set game-time T` and `set move-time T` are read too): with a game
//! time, each side's clock runs while it is to move, from when its turn began (a human's as the
//! engine's), and the engine plays on its clock ([`Clock`]: an even share of what is left for
//! its moves to come, never more than the clock holds); with a move time, each of its moves
//! takes at most that. `level` stays the deepest the engine goes (`level 60`: only time stops
//! it); `hint` and `solve` are not timed. A side whose time runs out is told so and plays on.

use super::clock::{parse_time, time_text, Clocks};
use super::format::{board_diagram, book_row, depth_text, move_row, move_table_header};
use super::format::{pv_spaced, score_text};
use super::{SessionBook, MAX_BOOK_RANDOMNESS};
use ply_cli_support::NotUtf8;
use ply_othello::{format_moves, parse_moves, Color, Position, Square};
use ply_othello::{Game, MoveError, ParseError};
use ply_othello_engine::book::Book;
use ply_othello_engine::{Clock, Engine, Info, Limits, MoveScore, Outcome, DEFAULT_LEVEL};
use ply_othello_engine::{Weakness, STRENGTHS};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use thiserror::Error;

/// Help text of the text mode.
pub const HELP: &str = "\
commands:
  f5d6c3 | play f5d6c3   play moves (pa = pass)
  go                     the engine plays a move
  hint [N]               the N best moves with their scores
  solve                  exact score, best move and variation of the position
  undo | redo            take back / replay a move
  init | new             new game
  setboard <board>       new game from 64 squares and the side to move (X/* black, O white, - empty)
  level N                search level 0..60 (now {level})
  strength S             strength level beginner, casual, club, strong, expert, full (1..6); alone: the list
  loss D R               engine moves lose up to D discs with probability R (0..1), or off; alone: shown
  seed N                 seed of the loss and book draws
  book on|off            play from the opening book or not (now {book}); book alone: its state
  book load FILE         read an opening book (ply, Edax book.dat or Edax text form)
  book randomness N      play any book move within N discs of the best, 0..64 (now {randomness})
  book show              the book moves of the position with their values
  mode N                 engine plays 0: White, 1: Black, 2: both, 3: neither (now {mode})
  game-time T            each side's time for the game: seconds, mm:ss or off (now {game_time})
  move-time T            the engine's time for each move: seconds or off (now {move_time})
  clock                  each side's time left
  board | moves          show the board / the moves played
  quit";

/// Why a text-mode line could not be used: the text of its `error: ...` reply. A text argument
/// is quoted as Rust's `{:?}` writes it.
#[derive(Debug, Error)]
pub enum TextError {
    /// A command the session does not know.
    #[error("unknown command {0:?} (type help)")]
    UnknownCommand(String),
    /// `hint` with a count that is not a number of at least 1.
    #[error("bad count {0:?}")]
    BadCount(String),
    /// `level` beyond 0..60.
    #[error("bad level {0:?} (0..60)")]
    BadLevel(String),
    /// `strength` that names none of [`STRENGTHS`].
    #[error("unknown strength {0:?} (beginner, casual, club, strong, expert, full or 1..6)")]
    BadStrength(String),
    /// `loss` other than `off` or discs 0..64 and a ratio 0..1.
    #[error("bad loss {0:?} (discs 0..64 and a ratio 0..1, or off)")]
    BadLoss(String),
    /// `seed` that is not a number 0..2^64.
    #[error("bad seed {0:?}")]
    BadSeed(String),
    /// `mode` other than 0..3.
    #[error("bad mode {0:?} (0..3)")]
    BadMode(String),
    /// `game-time` or `move-time` with a value that is not a time.
    #[error("bad time {0:?} (seconds, mm:ss or hh:mm:ss up to a year, or off)")]
    BadTime(String),
    /// `book on` (or `book show`) with no book loaded.
    #[error("no opening book (book load FILE)")]
    NoBook,
    /// `book load` of a file that is not a readable book.
    #[error("{0}")]
    BookFile(String),
    /// `book randomness` beyond 0..64.
    #[error("bad book randomness {0:?} (0..64)")]
    BadRandomness(String),
    /// `book` with an unknown subcommand.
    #[error("unknown book command {0:?} (on, off, load FILE, randomness N, show)")]
    UnknownBookCommand(String),
    /// `set` of something other than `game-time` or `move-time`.
    #[error("unknown setting {0:?} (game-time, move-time)")]
    UnknownSetting(String),
    /// A malformed `setboard` board or move list.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// `play` without a move.
    #[error("no move given")]
    NoMove,
    /// A move of a typed list that the game refuses (the list is taken back).
    #[error("move {} ({square}): {source}", .index + 1)]
    MoveInList {
        /// Where in the list, from 0.
        index: usize,
        /// The move.
        square: Square,
        /// Why the game refuses it.
        source: MoveError,
    },
    /// A move the game refuses.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// `go` or `hint` in a finished game.
    #[error("the game is over")]
    GameOver,
    /// `undo` with no move played.
    #[error("nothing to undo")]
    NothingToUndo,
    /// `redo` with no move taken back.
    #[error("nothing to redo")]
    NothingToRedo,
}

/// Who the engine plays in the text mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The engine answers Black's moves (mode 0).
    White,
    /// The engine plays Black (mode 1).
    Black,
    /// The engine plays both sides (mode 2).
    Both,
    /// The engine only moves on `go` (mode 3, the default).
    Neither,
}

impl Mode {
    fn plays(self, c: Color) -> bool {
        match self {
            Mode::White => c == Color::White,
            Mode::Black => c == Color::Black,
            Mode::Both => true,
            Mode::Neither => false,
        }
    }

    fn number(self) -> u8 {
        match self {
            Mode::White => 0,
            Mode::Black => 1,
            Mode::Both => 2,
            Mode::Neither => 3,
        }
    }
}

/// One text-mode session: the game, the moves that can be redone, the engine and its settings.
pub struct TextSession {
    game: Game,
    redo: Vec<Square>,
    engine: Engine,
    level: u8,
    /// Loss allowance of the engine's moves (`strength`, `loss`, `seed`; off by default).
    weakness: Weakness,
    /// The opening book (none by default).
    book: SessionBook,
    mode: Mode,
    /// Each side's time for the game (`game-time`), `None` for untimed games.
    game_time: Option<Duration>,
    /// The engine's time for each move (`move-time`).
    move_time: Option<Duration>,
    /// Both clocks while a game time is set.
    clocks: Option<Clocks>,
    /// Node cap of every search ([`TextSession::set_node_limit`]).
    node_limit: Option<u64>,
    quit: bool,
}

impl TextSession {
    /// A session at [`DEFAULT_LEVEL`] where the engine moves only on `go` (see
    /// [`TextSession::set_level`]).
    pub fn new(engine: Engine) -> TextSession {
        TextSession {
            game: Game::default(),
            redo: Vec::new(),
            engine,
            level: DEFAULT_LEVEL,
            weakness: Weakness::default(),
            book: SessionBook::default(),
            mode: Mode::Neither,
            game_time: None,
            move_time: None,
            clocks: None,
            node_limit: None,
            quit: false,
        }
    }

    /// Caps every search of the session at `nodes` (`None`: the level alone decides), so that
    /// a script or a fuzzer can drive any command, even a level-60 solve, in bounded time.
    pub fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.node_limit = nodes;
    }

    /// What to show when the session starts: the board.
    pub fn banner(&self) -> String {
        format!(
            "ply-othello {} (type help for the commands)\n{}",
            crate::VERSION,
            board_diagram(&self.game.position())
        )
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

    /// Sets the level (clamped to 60).
    pub fn set_level(&mut self, level: u8) {
        self.level = level.min(60);
    }

    /// Reports a line that is not UTF-8 as an `error: ...` line; the game is unchanged.
    pub fn reject(&self, line: &NotUtf8, out: &mut dyn FnMut(&str)) {
        out(&format!("error: {line}"));
    }

    /// Handles one line, writing the answer (lines without their newline) to `out`.
    pub fn handle(&mut self, line: &str, out: &mut dyn FnMut(&str)) {
        let line = line.trim();
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c.to_ascii_lowercase(), r.trim()),
            None => (line.to_ascii_lowercase(), ""),
        };
        let result = match command.as_str() {
            "" => Ok(false),
            "help" | "?" => {
                let setting = |t: Option<Duration>| t.map_or("off".into(), time_text);
                out(&HELP
                    .replace("{level}", &self.level.to_string())
                    .replace("{mode}", &self.mode.number().to_string())
                    .replace("{game_time}", &setting(self.game_time))
                    .replace("{move_time}", &setting(self.move_time))
                    .replace("{book}", self.book_state())
                    .replace("{randomness}", &self.book.randomness().to_string()));
                Ok(false)
            }
            "quit" | "q" | "exit" => {
                self.quit = true;
                Ok(false)
            }
            "init" | "new" | "i" => {
                self.new_game(Position::start());
                Ok(true)
            }
            "setboard" => rest
                .parse::<Position>()
                .map(|p| {
                    self.new_game(p);
                    true
                })
                .map_err(TextError::from),
            "play" | "p" => self.play_text(rest, out),
            "go" => self.engine_move(out).map(|_| true),
            "hint" | "h" => {
                let n = if rest.is_empty() {
                    Ok(1)
                } else {
                    rest.parse::<usize>()
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| TextError::BadCount(rest.to_string()))
                };
                n.and_then(|n| self.hint(n, out)).map(|_| false)
            }
            "solve" => self.solve(out).map(|_| false),
            "undo" | "u" => self.undo().map(|_| true),
            "redo" | "r" => self.redo().map(|_| true),
            "strength" => self.set_strength(rest, out).map(|_| false),
            "loss" => self.set_loss(rest, out).map(|_| false),
            "seed" => self.set_seed(rest, out).map(|_| false),
            "book" => self.book_command(rest, out).map(|_| false),
            "level" | "l" => match rest.parse::<u8>() {
                Ok(l) if l <= 60 => {
                    self.level = l;
                    out(&format!("level {l}"));
                    Ok(false)
                }
                _ => Err(TextError::BadLevel(rest.to_string())),
            },
            "mode" | "m" => {
                let mode = match rest {
                    "0" => Ok(Mode::White),
                    "1" => Ok(Mode::Black),
                    "2" => Ok(Mode::Both),
                    "3" => Ok(Mode::Neither),
                    _ => Err(TextError::BadMode(rest.to_string())),
                };
                mode.and_then(|m| {
                    self.mode = m;
                    out(&format!("mode {}", m.number()));
                    self.engine_turns(out)
                })
            }
            "game-time" | "move-time" => self.set_time(&command, rest, out),
            "set" => {
                let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                // Edax also reads `set game-time = 5:00`
                let value = value.trim().trim_start_matches('=').trim();
                match what.to_ascii_lowercase().as_str() {
                    w @ ("game-time" | "move-time") => self.set_time(w, value, out),
                    _ => Err(TextError::UnknownSetting(what.to_string())),
                }
            }
            "clock" => {
                out(&self.clock_text());
                Ok(false)
            }
            "board" | "b" => Ok(true),
            "moves" => {
                out(&format!("moves: {}", format_moves(self.game.moves())));
                Ok(false)
            }
            // a bare move list
            _ if parse_moves(line).is_ok() => self.play_text(line, out),
            c => Err(TextError::UnknownCommand(c.to_string())),
        };
        match result {
            Ok(true) => {
                self.sync_clocks(out);
                self.show(out);
            }
            Ok(false) => {}
            Err(e) => out(&format!("error: {e}")),
        }
    }

    /// `game-time T` or `move-time T` (`off` or `0`: none). A new game time sets both clocks.
    fn set_time(
        &mut self,
        what: &str,
        value: &str,
        out: &mut dyn FnMut(&str),
    ) -> Result<bool, TextError> {
        let t = if value.eq_ignore_ascii_case("off") {
            None
        } else {
            let t = parse_time(value).ok_or_else(|| TextError::BadTime(value.to_string()))?;
            Some(t).filter(|t| !t.is_zero())
        };
        let shown = t.map_or("off".into(), time_text);
        if what == "game-time" {
            self.game_time = t;
            self.clocks = t.map(Clocks::new);
            self.sync_clocks(out);
            out(&format!("game time {shown}"));
        } else {
            self.move_time = t;
            out(&format!("move time {shown}"));
        }
        Ok(false)
    }

    /// The `clock` reply: both clocks and the move time.
    fn clock_text(&self) -> String {
        let move_time = self
            .move_time
            .map(|t| format!("move time {}", time_text(t)));
        match (&self.clocks, move_time) {
            (Some(c), Some(m)) => format!("clock: {}; {m}", c.text()),
            (Some(c), None) => format!("clock: {}", c.text()),
            (None, Some(m)) => format!("clock: no game time; {m}"),
            (None, None) => "clock: none (see game-time, move-time)".into(),
        }
    }

    /// After the game changed: the clock of the side that was to move stops (the time since
    /// its turn began is taken off it, and a flag that falls with it is told) and the side to
    /// move's starts, unless the game is over. With the same side to move, the clock runs on.
    fn sync_clocks(&mut self, out: &mut dyn FnMut(&str)) {
        let pos = self.game.position();
        let Some(clocks) = self.clocks.as_mut() else {
            return;
        };
        let flagged = if pos.board.is_game_over() {
            clocks.stop()
        } else {
            clocks.start(pos.side)
        };
        if let Some(side) = flagged {
            out(&format!("{} is out of time", side_name(side)));
        }
    }

    fn new_game(&mut self, start: Position) {
        self.game = Game::new(start);
        self.redo.clear();
        self.engine.new_game();
        // fresh clocks, started by the caller's `sync_clocks`
        self.clocks = self.game_time.map(Clocks::new);
    }

    fn show(&self, out: &mut dyn FnMut(&str)) {
        out(&board_diagram(&self.game.position()));
        if let Some(c) = &self.clocks {
            out(&format!("clock: {}", c.text()));
        }
        let pos = self.game.position();
        if pos.board.is_game_over() {
            let s = self.game.final_score();
            let (b, w) = (pos.black().count_ones(), pos.white().count_ones());
            out(&match s {
                0 => format!("game over: draw {b}-{w}"),
                s if s > 0 => format!("game over: Black wins {b}-{w} ({s:+})"),
                s => format!("game over: White wins {w}-{b} ({:+})", -s),
            });
        }
    }

    /// Plays a move list, then lets the engine answer if the mode says so.
    fn play_text(&mut self, text: &str, out: &mut dyn FnMut(&str)) -> Result<bool, TextError> {
        let moves = parse_moves(text)?;
        if moves.is_empty() {
            return Err(TextError::NoMove);
        }
        let before = self.game.moves().len();
        for (i, &m) in moves.iter().enumerate() {
            if let Err(source) = self.game.play_after_forced_pass(m) {
                while self.game.moves().len() > before {
                    self.game.undo();
                }
                return Err(TextError::MoveInList {
                    index: i,
                    square: m,
                    source,
                });
            }
        }
        self.redo.clear();
        self.sync_clocks(out);
        self.engine_turns(out)
    }

    /// While it is the engine's turn (by the mode), it moves; passes are played for it.
    fn engine_turns(&mut self, out: &mut dyn FnMut(&str)) -> Result<bool, TextError> {
        loop {
            let pos = self.game.position();
            if pos.board.is_game_over() || !self.mode.plays(pos.side) {
                return Ok(true);
            }
            self.show(out);
            self.engine_move(out)?;
        }
    }

    fn search(&mut self, limits: &Limits, on_info: &mut dyn FnMut(&Info)) -> Outcome {
        let b = self.game.position().board;
        self.engine
            .think(&b, limits, &AtomicBool::new(false), on_info)
    }

    /// The engine plays one move (or its forced pass) for the side to move.
    fn engine_move(&mut self, out: &mut dyn FnMut(&str)) -> Result<(), TextError> {
        let pos = self.game.position();
        if pos.board.is_game_over() {
            return Err(TextError::GameOver);
        }
        if pos.board.moves() == 0 {
            out(&format!("{} passes", side_name(pos.side)));
            self.game.play(Square::PASS)?;
            self.sync_clocks(out);
            return Ok(());
        }
        if let Some(m) = self.book.choose(&pos.board, self.weakness.seed) {
            // the book's move, its seed stepped as after a search
            self.weakness = self.weakness.next();
            out(&format!(
                "{} plays {}: {} (book) {}",
                side_name(pos.side),
                m.square.name(),
                score_text(m.score),
                pv_spaced(&self.book.line(&pos.board, &m))
            ));
            self.redo.clear();
            self.game.play(m.square)?;
            self.sync_clocks(out);
            return Ok(());
        }
        let limits = Limits {
            level: Some(self.level),
            nodes: self.node_limit,
            move_time: self.move_time,
            // what is left on the clock now, the wait for `go` taken off
            clock: self.clocks.as_ref().map(|c| Clock {
                remaining: c.left(pos.side),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        // the loss allowance, its seed stepped for the next move
        let o = self.engine.think_weakened(
            &pos.board,
            &limits,
            &self.weakness,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        self.weakness = self.weakness.next();
        out(&format!(
            "{} plays {}: {} ({}{}, {} nodes, {:.2} s) {}",
            side_name(pos.side),
            o.best.name(),
            score_text(o.score),
            depth_text(o.depth, o.selectivity),
            if o.exact { " exact" } else { "" },
            o.nodes,
            o.elapsed.as_secs_f64(),
            pv_spaced(&o.pv)
        ));
        self.redo.clear();
        self.game.play(o.best)?;
        self.sync_clocks(out);
        Ok(())
    }

    /// The `n` best moves: the book's first (while the book is on and holds the position),
    /// then the best of the other moves by a search.
    fn hint(&mut self, n: usize, out: &mut dyn FnMut(&str)) -> Result<(), TextError> {
        let pos = self.game.position();
        if pos.board.is_game_over() {
            return Err(TextError::GameOver);
        }
        if pos.board.moves() == 0 {
            out(&format!("{} must pass", side_name(pos.side)));
        }
        let book: Vec<_> = self.book.moves(&pos.board).into_iter().take(n).collect();
        let mut rows: Vec<String> = book
            .iter()
            .map(|m| book_row(m, &self.book.line(&pos.board, m)))
            .collect();
        let shown = book.iter().fold(0, |mask, m| mask | m.square.bit());
        let others = pos.board.moves() & !shown;
        let wanted = n - book.len();
        let (mut nodes, mut seconds) = (0, 0.0);
        if wanted > 0 && (book.is_empty() || others != 0) {
            let limits = Limits {
                level: Some(self.level),
                all_moves: wanted > 1,
                nodes: self.node_limit,
                search_moves: (!book.is_empty()).then_some(others),
                ..Limits::default()
            };
            let o = self.search(&limits, &mut |_| {});
            (nodes, seconds) = (o.nodes, o.elapsed.as_secs_f64());
            if o.moves.is_empty() {
                rows.push(move_row(&MoveScore {
                    square: o.best,
                    score: o.score,
                    depth: o.depth,
                    selectivity: o.selectivity,
                    exact: o.exact,
                    pv: o.pv,
                }));
            } else {
                rows.extend(o.moves.iter().take(wanted).map(move_row));
            }
        }
        let from_book = match book.len() {
            0 => String::new(),
            k => format!("; {} first", super::count(k, "book move")),
        };
        out(&format!(
            "level {}: {nodes} nodes, {seconds:.2} s{from_book}",
            self.level
        ));
        for l in move_table_header().into_iter().chain(rows) {
            out(&l);
        }
        Ok(())
    }

    fn solve(&mut self, out: &mut dyn FnMut(&str)) -> Result<(), TextError> {
        let pos = self.game.position();
        if pos.board.is_game_over() {
            out(&format!(
                "game over: {}",
                score_text(pos.board.final_score())
            ));
            return Ok(());
        }
        let limits = Limits {
            level: Some(60),
            nodes: self.node_limit,
            ..Limits::default()
        };
        let o = self.search(&limits, &mut |_| {});
        out(&format!(
            "{} to move: {} exact, best {} ({} nodes, {:.2} s) {}",
            side_name(pos.side),
            score_text(o.score),
            o.best.name(),
            o.nodes,
            o.elapsed.as_secs_f64(),
            pv_spaced(&o.pv)
        ));
        Ok(())
    }

    fn undo(&mut self) -> Result<(), TextError> {
        let last = *self.game.moves().last().ok_or(TextError::NothingToUndo)?;
        self.game.undo();
        self.redo.push(last);
        Ok(())
    }

    fn redo(&mut self) -> Result<(), TextError> {
        let m = self.redo.pop().ok_or(TextError::NothingToRedo)?;
        Ok(self.game.play(m)?)
    }
}

/// The loss allowance settings: `strength`, `loss`, `seed`.
impl TextSession {
    /// Sets the loss allowance of the engine's moves (as `loss` and `seed` do).
    pub fn set_weakness(&mut self, weakness: Weakness) {
        self.weakness = weakness;
    }

    /// `strength S`: the level and loss allowance of a named strength (the seed is kept);
    /// alone, the list.
    fn set_strength(&mut self, rest: &str, out: &mut dyn FnMut(&str)) -> Result<(), TextError> {
        if rest.is_empty() {
            for (i, s) in STRENGTHS.iter().enumerate() {
                out(&format!(
                    "strength {} {}: level {}, {} (plays like {})",
                    i + 1,
                    s.name,
                    s.level,
                    loss_text(&s.weakness(0)),
                    s.approx
                ));
            }
            return Ok(());
        }
        let s = ply_othello_engine::strength(rest)
            .ok_or_else(|| TextError::BadStrength(rest.to_string()))?;
        self.level = s.level;
        self.weakness = Weakness {
            seed: self.weakness.seed,
            ..s.weakness(0)
        };
        out(&format!(
            "strength {} {}: level {}, {}",
            s.number(),
            s.name,
            s.level,
            loss_text(&self.weakness)
        ));
        Ok(())
    }

    /// `loss D R` or `loss off` (the seed is kept); alone, the allowance.
    fn set_loss(&mut self, rest: &str, out: &mut dyn FnMut(&str)) -> Result<(), TextError> {
        let seed = self.weakness.seed;
        if rest.eq_ignore_ascii_case("off") {
            self.weakness = Weakness {
                seed,
                ..Weakness::default()
            };
        } else if !rest.is_empty() {
            let mut words = rest.split_whitespace();
            let (d, r) = (words.next(), words.next());
            self.weakness = match (d, r, words.next()) {
                (Some(d), Some(r), None) => d
                    .parse::<i32>()
                    .ok()
                    .zip(r.parse::<f64>().ok())
                    .and_then(|(d, r)| Weakness::new(d, r, seed)),
                _ => None,
            }
            .ok_or_else(|| TextError::BadLoss(rest.to_string()))?;
        }
        out(&loss_text(&self.weakness));
        Ok(())
    }

    /// `seed N`.
    fn set_seed(&mut self, rest: &str, out: &mut dyn FnMut(&str)) -> Result<(), TextError> {
        let seed = rest
            .parse::<u64>()
            .map_err(|_| TextError::BadSeed(rest.to_string()))?;
        self.weakness.seed = seed;
        out(&format!("seed {seed}"));
        Ok(())
    }
}

/// The opening book: `book on|off`, `book load FILE`, `book randomness N`, `book show`.
impl TextSession {
    /// Sets the opening book (as `book load` does, with its randomness and state).
    pub fn set_book(&mut self, book: SessionBook) {
        self.book = book;
    }

    /// `on`, `off` or `none`: the book's state for `help`.
    fn book_state(&self) -> &'static str {
        match (self.book.book(), self.book.is_on()) {
            (None, _) => "none",
            (Some(_), true) => "on",
            (Some(_), false) => "off",
        }
    }

    fn book_command(&mut self, rest: &str, out: &mut dyn FnMut(&str)) -> Result<(), TextError> {
        let (what, arg) = match rest.split_once(char::is_whitespace) {
            Some((w, a)) => (w.to_ascii_lowercase(), a.trim()),
            None => (rest.to_ascii_lowercase(), ""),
        };
        match (what.as_str(), arg) {
            ("", _) => {}
            ("on", "") => {
                if !self.book.set_on(true) {
                    return Err(TextError::NoBook);
                }
            }
            ("off", "") => {
                self.book.set_on(false);
            }
            ("load", file) if !file.is_empty() => {
                let mut book =
                    SessionBook::load(std::path::Path::new(file)).map_err(TextError::BookFile)?;
                book.set_randomness(self.book.randomness());
                self.book = book;
            }
            ("randomness", n) => {
                let discs = n
                    .parse::<i32>()
                    .ok()
                    .filter(|d| (0..=MAX_BOOK_RANDOMNESS).contains(d))
                    .ok_or_else(|| TextError::BadRandomness(n.to_string()))?;
                self.book.set_randomness(discs);
                out(&format!("book randomness {discs}"));
                return Ok(());
            }
            ("show", "") => return self.book_show(out),
            _ => return Err(TextError::UnknownBookCommand(rest.to_string())),
        }
        out(&self.book.describe());
        Ok(())
    }

    /// `book show`: the position's book moves, best first, with their values and lines (whether
    /// the book is on or off).
    fn book_show(&self, out: &mut dyn FnMut(&str)) -> Result<(), TextError> {
        let book: &Book = self.book.book().ok_or(TextError::NoBook)?;
        let board = self.game.position().board;
        let moves = self.book.all_moves(&board);
        if moves.is_empty() {
            out("book: the position is not in the book");
            return Ok(());
        }
        let value = book.value(&board).unwrap_or(moves[0].score);
        out(&format!(
            "book: value {}, {}{}",
            score_text(value),
            super::count(moves.len(), "move"),
            if self.book.is_on() { "" } else { " (book off)" }
        ));
        for l in move_table_header() {
            out(&l);
        }
        for m in &moves {
            let row = book_row(m, &self.book.line(&board, m));
            // the leaf (the best move out of the book) is marked as searched at its level
            out(&if m.linked {
                row
            } else {
                format!("{row} (leaf, level {})", m.level)
            });
        }
        Ok(())
    }
}

/// `loss off` or `loss D R`: the allowance as the `loss` command reads it.
fn loss_text(w: &Weakness) -> String {
    if w.is_off() {
        "loss off".into()
    } else {
        format!("loss {} {}", w.max_loss, w.ratio)
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_othello_engine::EngineOptions;
    use proptest::prelude::*;

    fn session() -> TextSession {
        let mut s = TextSession::new(Engine::new(EngineOptions {
            hash_mib: 2,
            ..EngineOptions::default()
        }));
        s.set_level(2);
        s
    }

    fn run(s: &mut TextSession, line: &str) -> String {
        let mut text = String::new();
        s.handle(line, &mut |l| {
            text.push_str(l);
            text.push('\n');
        });
        text
    }

    #[test]
    fn a_node_limit_bounds_even_a_solve_of_the_opening() {
        let mut s = session();
        s.set_node_limit(Some(2_000));
        // an exact solve of 60 empties would never end; capped, it answers with the nodes spent
        let r = run(&mut s, "solve");
        let nodes: u64 = r
            .split(" nodes")
            .next()
            .and_then(|t| t.rsplit(['(', ' ']).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no node count in {r:?}"));
        assert!(nodes <= 20_000, "{nodes} nodes with a cap of 2,000: {r}");
    }

    #[test]
    fn play_undo_redo_and_errors() {
        let mut s = session();
        assert!(s.banner().contains("A B C D E F G H"));
        let r = run(&mut s, "f5d6");
        assert!(r.contains("A B C D E F G H"), "{r}");
        assert_eq!(format_moves(s.game().moves()), "f5d6");
        run(&mut s, "play c3");
        assert_eq!(s.game().moves().len(), 3);
        run(&mut s, "undo");
        run(&mut s, "undo");
        assert_eq!(format_moves(s.game().moves()), "f5");
        run(&mut s, "redo");
        assert_eq!(format_moves(s.game().moves()), "f5d6");
        // a list with an illegal move changes nothing
        let r = run(&mut s, "c3a1");
        assert!(r.starts_with("error: move 2 (A1)"), "{r}");
        assert_eq!(s.game().moves().len(), 2);
        for bad in ["level 61", "mode 7", "hint x", "setboard xyz", "frobnicate"] {
            assert!(run(&mut s, bad).starts_with("error: "), "{bad}");
        }
        assert!(run(&mut s, "moves").contains("f5d6"));
        run(&mut s, "new");
        assert!(s.game().moves().is_empty());
        assert!(run(&mut s, "undo").starts_with("error: nothing to undo"));
        assert!(run(&mut s, "redo").starts_with("error: nothing to redo"));
        assert!(run(&mut s, "help").contains("setboard"));
        run(&mut s, "quit");
        assert!(s.quit_requested());
    }

    #[test]
    fn go_hint_and_solve() {
        let mut s = session();
        let r = run(&mut s, "go");
        assert!(r.starts_with("Black plays "), "{r}");
        assert_eq!(s.game().moves().len(), 1);
        let r = run(&mut s, "hint 3");
        assert_eq!(r.lines().count(), 6, "{r}");
        // FFO #1-like late position: a board with few empties is solved exactly
        let board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
        run(&mut s, &format!("setboard {board}"));
        let r = run(&mut s, "solve");
        assert!(r.contains("+18 exact, best G8"), "{r}");
        // Black must pass; White then takes c1 and wipes Black out
        run(&mut s, &format!("setboard OX{} X", "-".repeat(62)));
        let r = run(&mut s, "solve");
        assert!(r.contains("-64 exact, best PS"), "{r}");
        assert!(r.trim_end().ends_with("PS C1"), "{r}");
    }

    #[test]
    fn the_engine_answers_in_mode_0_and_plays_whole_games_in_mode_2() {
        let mut s = session();
        run(&mut s, "mode 0");
        run(&mut s, "f5");
        assert_eq!(s.game().moves().len(), 2, "White answered");
        assert_eq!(s.game().position().side, Color::Black);
        let r = run(&mut s, "mode 2");
        assert!(s.game().position().board.is_game_over());
        assert!(r.contains("game over"), "{r}");
    }

    /// What a timed search may take beyond its clock in a whole game, all moves together: the
    /// part of a move the engine cannot see on its clock (starting and joining its threads, the
    /// abort's latency: the search looks at the time every 64 nodes, its timer about every
    /// millisecond) on a loaded machine. The engine keeps 3 ms or more of its clock in
    /// reserve, so this is rarely touched.
    const MARGIN: Duration = Duration::from_millis(50);

    #[test]
    fn time_settings_parse_and_bad_values_are_refused() {
        let mut s = session();
        assert_eq!(run(&mut s, "game-time 5:00"), "game time 5:00.0\n");
        assert!(run(&mut s, "clock").starts_with("clock: Black "), "running");
        assert_eq!(run(&mut s, "set move-time = 2"), "move time 0:02.0\n");
        assert!(run(&mut s, "help").contains("(now 5:00.0)"));
        for bad in [
            "game-time",
            "game-time x",
            "game-time -1",
            "game-time 1:75",
            "game-time 1e9",
            "move-time soon",
            "set game-time",
            "set ponder on",
            "set",
        ] {
            let r = run(&mut s, bad);
            assert!(r.starts_with("error: "), "{bad}: {r}");
            assert_eq!(r.lines().count(), 1, "{bad}: {r}");
        }
        assert!(run(&mut s, "move-time x").contains("bad time \"x\""));
        assert!(run(&mut s, "set frob 1").contains("unknown setting \"frob\""));
        // the settings are as they were
        assert_eq!(s.game_time, Some(Duration::from_secs(300)));
        assert_eq!(s.move_time, Some(Duration::from_secs(2)));
        assert_eq!(run(&mut s, "move-time off"), "move time off\n");
        assert_eq!(run(&mut s, "GAME-TIME 0"), "game time off\n");
        assert_eq!(
            run(&mut s, "clock"),
            "clock: none (see game-time, move-time)\n"
        );
        assert!(!run(&mut s, "board").contains("clock:"));
    }

    #[test]
    fn the_clock_of_the_side_to_move_counts_down() {
        let mut s = session();
        run(&mut s, "game-time 10");
        let left = |s: &TextSession, c: Color| s.clocks.as_ref().unwrap().left(c);
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(
            left(&s, Color::White),
            Duration::from_secs(10),
            "White waits"
        );
        let r = run(&mut s, "f5");
        assert!(r.contains("clock: Black 0:09."), "{r}");
        let black = left(&s, Color::Black);
        assert!(black <= Duration::from_millis(9970), "{black:?}");
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(left(&s, Color::Black), black, "Black's clock stopped");
        assert!(
            left(&s, Color::White) <= Duration::from_millis(9980),
            "White's runs"
        );
        // the engine's move is timed on its own clock
        run(&mut s, "go");
        assert!(left(&s, Color::White) < Duration::from_secs(10));
        assert_eq!(s.game().moves().len(), 2);
        // undo gives White the turn again (its clock runs), a new game both full clocks
        run(&mut s, "undo");
        assert_eq!(s.clocks.as_ref().unwrap().running(), Some(Color::White));
        run(&mut s, "new");
        assert_eq!(left(&s, Color::White), Duration::from_secs(10));
        // a finished game stops both clocks
        run(&mut s, &format!("setboard OX{} X", "-".repeat(62)));
        run(&mut s, "mode 2");
        assert!(s.game().position().board.is_game_over());
        assert!(s.clocks.as_ref().unwrap().running().is_none());
    }

    /// 0.2 s for a whole game at level 60 (only time stops the search): the engine answers
    /// every move, and the time each side's moves take, measured around each `go`, stays
    /// within its clock (plus [`MARGIN`]).
    #[test]
    fn a_tiny_game_time_is_never_exceeded() {
        let mut s = session();
        run(&mut s, "level 60");
        run(&mut s, "game-time 0.2");
        let mut used = [Duration::ZERO; 2];
        for _ in 0..70 {
            let pos = s.game().position();
            if pos.board.is_game_over() {
                break;
            }
            let t = std::time::Instant::now();
            let r = run(&mut s, "go");
            used[usize::from(pos.side == Color::White)] += t.elapsed();
            assert!(r.contains(" plays ") || r.contains(" passes"), "{r}");
        }
        assert!(s.game().position().board.is_game_over());
        for u in used {
            assert!(u <= Duration::from_millis(200) + MARGIN, "{used:?}");
        }
    }

    #[test]
    fn a_tiny_move_time_is_never_exceeded() {
        let mut s = session();
        run(&mut s, "level 60");
        run(&mut s, "move-time 0.01");
        for _ in 0..6 {
            let t = std::time::Instant::now();
            let r = run(&mut s, "go");
            let took = t.elapsed();
            assert!(r.contains(" plays "), "{r}");
            assert!(took <= Duration::from_millis(10) + MARGIN, "{took:?}");
        }
    }

    #[test]
    fn strength_loss_and_seed_set_the_allowance() {
        let mut s = session();
        assert_eq!(run(&mut s, "loss"), "loss off\n");
        assert_eq!(run(&mut s, "strength").lines().count(), STRENGTHS.len());
        assert_eq!(
            run(&mut s, "strength club"),
            "strength 3 club: level 4, loss 6 0.3\n"
        );
        assert_eq!(s.level, 4);
        let full = run(&mut s, "Strength 6");
        assert_eq!(full, "strength 6 full: level 21, loss off\n");
        assert_eq!(run(&mut s, "loss 8 0.5"), "loss 8 0.5\n");
        assert_eq!(run(&mut s, "seed 42"), "seed 42\n");
        assert_eq!(s.weakness, Weakness::new(8, 0.5, 42).unwrap());
        for bad in [
            "strength grandmaster",
            "strength 7",
            "loss 65 0.5",
            "loss 4",
            "loss 4 1.5",
            "loss 4 0.5 1",
            "loss x y",
            "seed -1",
            "seed",
        ] {
            let r = run(&mut s, bad);
            assert!(r.starts_with("error: "), "{bad}: {r}");
            assert_eq!(r.lines().count(), 1, "{bad}: {r}");
        }
        assert_eq!(s.weakness, Weakness::new(8, 0.5, 42).unwrap());
        assert_eq!(run(&mut s, "loss off"), "loss off\n");
        assert_eq!(s.level, 21);
        assert_eq!(s.weakness.seed, 42);
        assert!(run(&mut s, "help").contains("strength S"));
    }

    /// Whole games in mode 2 at level 1 with every move drawn within 64 discs: all legal (an
    /// illegal one would stop the game), the same for a seed, another for another seed.
    #[test]
    fn a_weak_engine_plays_legal_games_that_its_seed_repeats() {
        let game = |seed: u64| {
            let mut s = session();
            run(&mut s, "level 1");
            run(&mut s, "loss 64 1");
            run(&mut s, &format!("seed {seed}"));
            run(&mut s, "mode 2");
            assert!(s.game().position().board.is_game_over());
            format_moves(s.game().moves())
        };
        assert_eq!(game(1), game(1));
        assert_ne!(game(1), game(2));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_lines_never_panic(line in "[ -~]{0,60}") {
            let mut s = session();
            let _ = run(&mut s, &line);
        }
    }
}
