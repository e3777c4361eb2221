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
//! | `mode N` | who the engine plays: 0 White, 1 Black, 2 both, 3 neither (default) |
//! | `board`, `moves` | shows the board / the moves played |
//! | `help`, `quit` | |
//!
//! Every line gets an answer; a line the session cannot use gets `error: ...` and the game is
//! unchanged.

use super::format::{board_diagram, depth_text, move_table, pv_spaced, score_text};
use ply_cli_support::NotUtf8;
use ply_othello::{format_moves, parse_moves, Color, Position, Square};
use ply_othello::{Game, MoveError, ParseError};
use ply_othello_engine::{Engine, Info, Limits, MoveScore, Outcome, DEFAULT_LEVEL};
use std::sync::atomic::AtomicBool;
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
  mode N                 engine plays 0: White, 1: Black, 2: both, 3: neither (now {mode})
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
    /// `mode` other than 0..3.
    #[error("bad mode {0:?} (0..3)")]
    BadMode(String),
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
    mode: Mode,
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
            mode: Mode::Neither,
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
                out(&HELP
                    .replace("{level}", &self.level.to_string())
                    .replace("{mode}", &self.mode.number().to_string()));
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
            Ok(true) => self.show(out),
            Ok(false) => {}
            Err(e) => out(&format!("error: {e}")),
        }
    }

    fn new_game(&mut self, start: Position) {
        self.game = Game::new(start);
        self.redo.clear();
        self.engine.new_game();
    }

    fn show(&self, out: &mut dyn FnMut(&str)) {
        out(&board_diagram(&self.game.position()));
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
            return Ok(self.game.play(Square::PASS)?);
        }
        let limits = Limits {
            level: Some(self.level),
            nodes: self.node_limit,
            ..Limits::default()
        };
        let o = self.search(&limits, &mut |_| {});
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
        Ok(self.game.play(o.best)?)
    }

    fn hint(&mut self, n: usize, out: &mut dyn FnMut(&str)) -> Result<(), TextError> {
        let pos = self.game.position();
        if pos.board.is_game_over() {
            return Err(TextError::GameOver);
        }
        if pos.board.moves() == 0 {
            out(&format!("{} must pass", side_name(pos.side)));
        }
        let limits = Limits {
            level: Some(self.level),
            all_moves: n > 1,
            nodes: self.node_limit,
            ..Limits::default()
        };
        let o = self.search(&limits, &mut |_| {});
        out(&format!(
            "level {}: {} nodes, {:.2} s",
            self.level,
            o.nodes,
            o.elapsed.as_secs_f64()
        ));
        let rows = if o.moves.is_empty() {
            vec![MoveScore {
                square: o.best,
                score: o.score,
                depth: o.depth,
                selectivity: o.selectivity,
                exact: o.exact,
                pv: o.pv,
            }]
        } else {
            o.moves.into_iter().take(n).collect()
        };
        for l in move_table(&rows) {
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_lines_never_panic(line in "[ -~]{0,60}") {
            let mut s = session();
            let _ = run(&mut s, &line);
        }
    }
}
