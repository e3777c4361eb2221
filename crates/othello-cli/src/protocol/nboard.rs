//! The NBoard protocol (Chris Welty's NBoard GUI, protocol version 2), engine side.
//!
//! | GUI sends | the session does |
//! |---|---|
//! | `nboard 2` | answers `set myname ply-V` (V: [`VERSION`](crate::VERSION)) |
//! | `set depth N` | plays at level N (1..60), answers `set myname plyN-V` |
//! | `set game <GGF>` | replaces the game ([`ply_othello::ggf`]) and the clocks (its `TI`, `TB`, `TW` and move times) |
//! | `set contempt N` | values a proven draw at -N discs when choosing a move |
//! | `move F5[/eval[/time]]`, or a bare `F5` | plays the move (`PA` passes); its time goes on the mover's clock |
//! | `hint N` | `status`, then a `book <line> <eval> 0 <level>` line for each book move (at most N, best first), then `search <pv> <eval> 0 <depth> <selectivity>` lines for the best of the other moves after every iteration when more are asked, then `status` |
//! | `go` | `status`, `nodestats`, `=== F5/<eval>/<seconds>`, `status`; the move is **not** played (NBoard sends it back with `move`); from the book: `status ply plays from its book`, `nodestats 0 0.00`, `=== F5/<book value>/<seconds>`, `status` |
//! | `ping N` | `pong N` (after stopping any search: see [`NboardSession::interrupts`]) |
//! | `learn` | adds the game to the book and writes the book file back, then `learned` (see below; without a book, only `learned`) |
//! | `analyze` | `analysis <moves played> <eval>` for every position from the end back to the start, then `status` |
//! | `quit` | ends the session |
//!
//! The loss allowance ([`Weakness`], from `ply-othello nboard --strength` or `--loss`: NBoard
//! has no command for it) applies to `go`; `set depth` still sets the level.
//!
//! The opening book ([`SessionBook`]: the built-in one, `ply-othello nboard --book FILE` or none
//! with `--no-book`): `go` in a position
//! the book holds answers the book's move at once ([`SessionBook::choose`], with
//! `--book-randomness` and the seed of `--seed`, stepped after every `go`), with no search,
//! whatever the level, the clock or the loss allowance; `hint` sends the book moves as the
//! protocol's `book` lines (the move and its book line, the book value, 0 games, the level of
//! the value) before searching the other moves. `learn` with a book file in ply's own format
//! adds the game, from its start to the current position, to the book
//! ([`Book::learn_game`](ply_othello_engine::book::Book::learn_game):
//! its positions searched at the book's level, stale leaves again, values backed up) and
//! writes the file back ([`ply_batch::write_atomically`]); a `ping` or `quit` stops it, keeping
//! the positions added so far. With the built-in book, another book format, or no book, `learn`
//! only answers.
//!
//! Clocks: NBoard has no clock command; it sends its game clock in the record of `set game`
//! (`TI[5:00]`, GGS's `time/increment/grace`, or `TB`/`TW` for each side) and each move's time
//! with the move (`B[F5//2.5]`, `move F5/0.00/2.5`). `go` then plays on the mover's clock: the
//! time for the game less its moves' times and the time since the position arrived (for a move
//! sent without a time, the time since the one before counts; increments are budgeted for the
//! moves to come, not credited for those played).
//! `set depth` stays the deepest the engine goes; `hint` and `analyze` are not timed. A clock
//! of zero, or one ply cannot read, is no clock.
//!
//! Pondering ([`NboardSession::set_ponder`], `ply-othello nboard --ponder`): after a `move` or
//! `set game`, the engine searches the position while it waits, silently, until the next
//! line, which stops it at once.
//!
//! Evaluations are in discs from the side to move. A line the session cannot use gets
//! `status error: ...` (NBoard shows it in its status bar) and the session goes on.

use super::clock::{parse_time, Ponder};
use super::format::{nboard_book_line, nboard_depth, nboard_move, pv_compact};
use super::SessionBook;
use ply_cli_support::NotUtf8;
use ply_othello::ggf::{parse_ggf, parse_move, parse_move_time, GgfError};
use ply_othello::{Color, Game, MoveError};
use ply_othello_engine::book::BookMove;
use ply_othello_engine::Weakness;
use ply_othello_engine::{Choice, Clock, Engine, Info, Limits, Outcome};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why an NBoard line could not be used: the text of its `status error: ...` reply. A text
/// argument is quoted as Rust's `{:?}` writes it.
#[derive(Debug, Error)]
pub enum NboardError {
    /// A command the session does not know.
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
    /// `nboard` without a version number.
    #[error("bad protocol version {0:?}")]
    BadProtocolVersion(String),
    /// `hint` without a count of at least 1.
    #[error("bad hint count {0:?}")]
    BadHintCount(String),
    /// `set` of a setting the session does not know.
    #[error("unknown setting {0:?}")]
    UnknownSetting(String),
    /// `set depth` beyond 1..60.
    #[error("bad depth {0:?} (1..60)")]
    BadDepth(String),
    /// `set contempt` that is not a finite number.
    #[error("bad contempt {0:?}")]
    BadContempt(String),
    /// `set game` whose GGF record is malformed.
    #[error(transparent)]
    Ggf(#[from] GgfError),
    /// `move` whose text is not a square or `PA`.
    #[error("bad move {0:?}")]
    BadMove(String),
    /// A move the game refuses.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// `go` in a finished game.
    #[error("the game is over")]
    GameOver,
}

/// One NBoard conversation: the game, the engine, the level and the stop flag.
pub struct NboardSession {
    game: Game,
    engine: Engine,
    level: u8,
    /// Value of a proven draw for the engine is `-contempt` discs.
    contempt: f64,
    /// Loss allowance of `go` ([`NboardSession::set_weakness`]; off by default).
    weakness: Weakness,
    /// The opening book ([`NboardSession::set_book`]; none by default).
    book: SessionBook,
    stop: Arc<AtomicBool>,
    /// Each side's (Black, White) time for the game and increment, from the record's clock.
    clocks: [Option<(Duration, Duration)>; 2],
    /// Time each side's moves took, from the record and the `move` lines.
    used: [Duration; 2],
    /// When the position last changed: the side to move's clock runs since.
    since: Instant,
    /// Whether to ponder while waiting ([`NboardSession::set_ponder`]).
    pondering: bool,
    /// The search on the opponent's time, stopped by the next line.
    ponder: Option<Ponder>,
    /// Node cap of every search ([`NboardSession::set_node_limit`]).
    node_limit: Option<u64>,
    quit: bool,
}

fn side_index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// A GGF clock, `time[/increment[/grace]]` (`15:00`, `05:00//02:00`, `10:00/5`): the time
/// and the increment (the grace after a time-out is not counted on); `None` for a zero or
/// unreadable time.
fn ggf_clock(value: &str) -> Option<(Duration, Duration)> {
    let mut parts = value.split('/');
    let time = parse_time(parts.next()?).filter(|t| !t.is_zero())?;
    let increment = parts.next().and_then(parse_time).unwrap_or_default();
    Some((time, increment))
}

impl NboardSession {
    /// The current game.
    #[cfg(test)]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// A session playing with `engine` at `level` (at most 60) until `set depth` says otherwise.
    pub fn new(engine: Engine, level: u8) -> NboardSession {
        NboardSession {
            game: Game::default(),
            engine,
            level: level.min(60),
            contempt: 0.0,
            weakness: Weakness::default(),
            book: SessionBook::default(),
            stop: Arc::new(AtomicBool::new(false)),
            clocks: [None, None],
            used: [Duration::ZERO; 2],
            since: Instant::now(),
            pondering: false,
            ponder: None,
            node_limit: None,
            quit: false,
        }
    }

    /// Pondering: after a `move` or `set game`, the engine searches the position while it
    /// waits (at the session's level, with no output), until the next line arrives, which
    /// stops it at once; what it finds is left in the tables for the next search.
    pub fn set_ponder(&mut self, on: bool) {
        self.pondering = on;
    }

    /// Caps every search of the session at `nodes` (`None`: the level alone decides), so that
    /// a script or a fuzzer can drive any command, even a level-60 solve, in bounded time.
    pub fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.node_limit = nodes;
    }

    /// Sets the loss allowance of `go` (its seed advanced after every `go`).
    pub fn set_weakness(&mut self, weakness: Weakness) {
        self.weakness = weakness;
    }

    /// Sets the opening book of `go`, `hint` and `learn`.
    pub fn set_book(&mut self, book: SessionBook) {
        self.book = book;
    }

    /// The flag a reader thread sets to stop a running search (see [`Self::interrupts`]).
    /// The front-end clears it before handing over each line.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// True for a line that must stop a running search when it arrives: `ping` (NBoard is
    /// about to change the position and waits for the pong) and `quit`.
    pub fn interrupts(line: &str) -> bool {
        matches!(line.split_whitespace().next(), Some("ping" | "quit"))
    }

    /// True once `quit` was received.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Reports a line that is not UTF-8 as a `status error: ...` line; the session state is
    /// unchanged.
    pub fn reject(&self, line: &NotUtf8, out: &mut dyn FnMut(&str)) {
        out(&format!("status error: {line}"));
    }

    /// Handles one line, writing every reply line (without its newline) to `out` as it comes.
    pub fn handle(&mut self, line: &str, out: &mut dyn FnMut(&str)) {
        // the next line ends the wait
        self.ponder = None;
        let line = line.trim();
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        let result = match command {
            "" => Ok(()),
            "nboard" => rest
                .parse::<u32>()
                .map(|_| out(&format!("set myname ply-{}", crate::VERSION)))
                .map_err(|_| NboardError::BadProtocolVersion(rest.to_string())),
            "set" => self.set(rest, out),
            "move" => self.play(rest),
            "hint" => match rest.parse::<usize>() {
                Ok(n) if n >= 1 => {
                    self.hint(n, out);
                    Ok(())
                }
                _ => Err(NboardError::BadHintCount(rest.to_string())),
            },
            "go" => self.go(out),
            "ping" => {
                out(&format!("pong {rest}"));
                Ok(())
            }
            "learn" => {
                self.learn(out);
                Ok(())
            }
            "analyze" => {
                self.analyze(out);
                Ok(())
            }
            "quit" => {
                self.quit = true;
                Ok(())
            }
            // NBoard 1.1 sends a move as a bare square
            c if c.len() == 2 && rest.is_empty() => self.play(c),
            c => Err(NboardError::UnknownCommand(c.to_string())),
        };
        if let Err(e) = result {
            out(&format!("status error: {e}"));
        }
    }

    fn set(&mut self, rest: &str, out: &mut dyn FnMut(&str)) -> Result<(), NboardError> {
        let (what, value) = match rest.split_once(char::is_whitespace) {
            Some((w, v)) => (w, v.trim()),
            None => (rest, ""),
        };
        match what {
            "depth" => match value.parse::<u8>() {
                Ok(d) if (1..=60).contains(&d) => {
                    self.level = d;
                    out(&format!("set myname ply{d}-{}", crate::VERSION));
                    Ok(())
                }
                _ => Err(NboardError::BadDepth(value.to_string())),
            },
            "game" => {
                let g = parse_ggf(value)?;
                self.game = g.game;
                let clock = |key: &str| {
                    let v = g.properties.iter().find(|(k, _)| k == key);
                    v.and_then(|(_, v)| ggf_clock(v))
                };
                let both = clock("TI");
                self.clocks = [clock("TB").or(both), clock("TW").or(both)];
                self.used = [Duration::ZERO; 2];
                for (c, t) in &g.times {
                    self.used[side_index(*c)] += t.unwrap_or_default();
                }
                self.since = Instant::now();
                self.start_ponder();
                Ok(())
            }
            "contempt" => match value.parse::<f64>() {
                Ok(c) if c.is_finite() => {
                    self.contempt = c;
                    Ok(())
                }
                _ => Err(NboardError::BadContempt(value.to_string())),
            },
            w => Err(NboardError::UnknownSetting(w.to_string())),
        }
    }

    /// `F5`, `f5/1.00/2.5`, `PA`: played for whoever is to move (after a forced pass).
    fn play(&mut self, text: &str) -> Result<(), NboardError> {
        let sq = parse_move(text).ok_or_else(|| NboardError::BadMove(text.to_string()))?;
        self.game.play_after_forced_pass(sq)?;
        // a move hands the turn over: the mover is the side not to move now
        let mover = side_index(self.game.position().side.other());
        self.used[mover] += parse_move_time(text).unwrap_or_else(|| self.since.elapsed());
        self.since = Instant::now();
        self.start_ponder();
        Ok(())
    }

    /// Starts pondering on the current position, when pondering is on and the game goes on.
    fn start_ponder(&mut self) {
        let board = self.game.position().board;
        if self.pondering && !board.is_game_over() {
            self.ponder = Some(Ponder::start(&self.engine, board, self.limits(false)));
        }
    }

    /// The clock of the side to move for `go`: what is left of its time for the game.
    fn clock(&self) -> Option<Clock> {
        let i = side_index(self.game.position().side);
        let (time, increment) = self.clocks[i]?;
        Some(Clock {
            remaining: time
                .saturating_sub(self.used[i])
                .saturating_sub(self.since.elapsed()),
            increment,
            moves_to_go: None,
        })
    }

    fn limits(&self, all_moves: bool) -> Limits {
        Limits {
            level: Some(self.level),
            all_moves,
            nodes: self.node_limit,
            ..Limits::default()
        }
    }

    fn think(&mut self, limits: &Limits, on_info: &mut dyn FnMut(&Info)) -> Option<Outcome> {
        let pos = self.game.position();
        if pos.board.is_game_over() {
            return None;
        }
        let stop = Arc::clone(&self.stop);
        Some(self.engine.think(&pos.board, limits, &stop, on_info))
    }

    fn hint(&mut self, n: usize, out: &mut dyn FnMut(&str)) {
        out("status ply is thinking");
        let board = self.game.position().board;
        let book: Vec<BookMove> = self.book.moves(&board).into_iter().take(n).collect();
        for m in &book {
            out(&nboard_book_line(m, &self.book.line(&board, m)));
        }
        let shown = book.iter().fold(0, |mask, m| mask | m.square.bit());
        let others = board.moves() & !shown;
        let n = n - book.len();
        if n == 0 || (!book.is_empty() && others == 0) {
            out("status");
            return;
        }
        let all = n > 1;
        let limits = Limits {
            search_moves: (!book.is_empty()).then_some(others),
            ..self.limits(all)
        };
        let mut send = |info: &Info| {
            if all {
                for m in info.moves.iter().take(n) {
                    out(&format!(
                        "search {} {:.2} 0 {}",
                        pv_compact(&m.pv),
                        f64::from(m.score),
                        nboard_depth(m.depth, m.selectivity, m.exact)
                    ));
                }
            } else {
                out(&format!(
                    "search {} {:.2} 0 {}",
                    pv_compact(&info.pv),
                    f64::from(info.score),
                    nboard_depth(info.depth, info.selectivity, info.exact)
                ));
            }
        };
        self.think(&limits, &mut send);
        out("status");
    }

    fn go(&mut self, out: &mut dyn FnMut(&str)) -> Result<(), NboardError> {
        let pos = self.game.position();
        if pos.board.is_game_over() {
            return Err(NboardError::GameOver);
        }
        let started = Instant::now();
        if let Some(m) = self.book.choose(&pos.board, self.weakness.seed) {
            // the book's move at once, its seed stepped as after a search
            self.weakness = self.weakness.next();
            out("status ply plays from its book");
            out("nodestats 0 0.00");
            out(&format!(
                "=== {}/{:.2}/{:.2}",
                nboard_move(m.square),
                f64::from(m.score),
                started.elapsed().as_secs_f64()
            ));
            out("status");
            return Ok(());
        }
        out("status ply is thinking");
        let limits = Limits {
            clock: self.clock(),
            ..self.limits(false)
        };
        let stop = Arc::clone(&self.stop);
        let weakness = self.weakness;
        self.weakness = weakness.next();
        let Choice {
            outcome,
            best,
            value: score,
        } = if weakness.fires(&pos.board) {
            // a move drawn by the loss allowance, contempt aside
            let o = self
                .engine
                .think_weakened(&pos.board, &limits, &weakness, &stop, &mut |_| {});
            Choice {
                best: o.best,
                value: f64::from(o.score),
                outcome: o,
            }
        } else {
            self.engine
                .think_with_contempt(&pos.board, &limits, self.contempt, &stop, &mut |_| {})
        };
        out(&format!(
            "nodestats {} {:.2}",
            outcome.nodes,
            outcome.elapsed.as_secs_f64()
        ));
        let mv = nboard_move(best);
        out(&format!(
            "=== {mv}/{:.2}/{:.2}",
            score,
            outcome.elapsed.as_secs_f64()
        ));
        out("status");
        Ok(())
    }

    /// `learn`: with a book file in ply's own format, adds the game from its start to the current
    /// position to the book and writes the file back; `learned` in every case.
    fn learn(&mut self, out: &mut dyn FnMut(&str)) {
        let Some(path) = self.book.writable_file().map(Path::to_path_buf) else {
            if self.book.book().is_some() {
                out("status ply learns only into a book file in ply's own format");
            }
            out("learned");
            return;
        };
        out("status ply is learning");
        let start = self.game.start().board;
        let moves = self.game.moves().to_vec();
        let stop = Arc::clone(&self.stop);
        let engine = &mut self.engine;
        if let Some(book) = self.book.book_mut() {
            book.learn_game(engine, &start, &moves, &stop);
            match ply_batch::write_atomically(&path, &book.to_bytes()) {
                Ok(()) => out("status"),
                Err(e) => out(&format!(
                    "status error: cannot write {}: {e}",
                    path.display()
                )),
            }
        }
        out("learned");
    }

    /// Scores every position of the game from the last back to the first.
    fn analyze(&mut self, out: &mut dyn FnMut(&str)) {
        out("status ply is analysing");
        let positions: Vec<_> = self.game.positions().to_vec();
        let limits = self.limits(false);
        for (i, pos) in positions.iter().enumerate().rev() {
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            let stop = Arc::clone(&self.stop);
            let b = pos.board;
            let score = if b.is_game_over() {
                b.final_score()
            } else {
                self.engine.think(&b, &limits, &stop, &mut |_| {}).score
            };
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            out(&format!("analysis {i} {:.2}", f64::from(score)));
        }
        out("status");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_othello::Square;
    use ply_othello_engine::EngineOptions;
    use proptest::prelude::*;
    use std::time::{Duration, Instant};

    fn session() -> NboardSession {
        NboardSession::new(
            Engine::new(EngineOptions {
                hash_mib: 2,
                ..EngineOptions::default()
            }),
            ply_othello_engine::DEFAULT_LEVEL,
        )
    }

    fn run(s: &mut NboardSession, line: &str) -> Vec<String> {
        let mut lines = Vec::new();
        s.handle(line, &mut |l| lines.push(l.to_string()));
        lines
    }

    const GAME: &str = "(;GM[Othello]PC[NBoard]PB[me]PW[ply]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    #[test]
    fn transcript() {
        let mut s = session();
        let v = crate::VERSION;
        assert_eq!(run(&mut s, "nboard 2"), [format!("set myname ply-{v}")]);
        assert_eq!(run(&mut s, "set depth 4"), [format!("set myname ply4-{v}")]);
        assert!(run(&mut s, &format!("set game {GAME}")).is_empty());
        assert_eq!(s.game().moves().len(), 8);
        assert_eq!(run(&mut s, "ping 1"), ["pong 1"]);
        let go = run(&mut s, "go");
        assert_eq!(
            go.first().map(String::as_str),
            Some("status ply is thinking")
        );
        assert!(go.iter().any(|l| l.starts_with("nodestats ")));
        let reply = go.iter().find(|l| l.starts_with("=== ")).expect("a move");
        let mv = reply[4..].split('/').next().unwrap();
        let sq: Square = mv.parse().unwrap();
        assert!(s.game().position().board.moves() & sq.bit() != 0, "{reply}");
        // go does not play the move; the GUI sends it back
        assert_eq!(s.game().moves().len(), 8);
        assert!(run(&mut s, &format!("move {mv}/0.00/1.2")).is_empty());
        assert_eq!(s.game().moves().len(), 9);
        let hint = run(&mut s, "hint 3");
        assert_eq!(hint.last().map(String::as_str), Some("status"));
        let searches: Vec<_> = hint.iter().filter(|l| l.starts_with("search ")).collect();
        assert!(searches.len() >= 3, "{hint:?}");
        for l in &searches {
            let f: Vec<_> = l.split_whitespace().collect();
            assert!(f[1][..2].parse::<Square>().is_ok(), "{l}");
            assert!(f[2].parse::<f64>().is_ok(), "{l}");
            assert_eq!(f[3], "0", "{l}");
        }
        assert_eq!(run(&mut s, "learn"), ["learned"]);
        assert!(run(&mut s, "quit").is_empty());
        assert!(s.quit_requested());
    }

    #[test]
    fn bare_moves_passes_and_errors() {
        let mut s = session();
        assert!(run(&mut s, "F5").is_empty());
        assert!(run(&mut s, "move d6").is_empty());
        assert_eq!(s.game().moves().len(), 2);
        for bad in [
            "move z9",
            "move a1",
            "move PA",
            "set depth 0",
            "set depth x",
            "set game (;GM[Othello]BO[8 --];)",
            "set contempt nan",
            "set colour red",
            "hint 0",
            "nboard x",
            "frobnicate",
        ] {
            let r = run(&mut s, bad);
            assert_eq!(r.len(), 1, "{bad}: {r:?}");
            assert!(r[0].starts_with("status error: "), "{bad}: {r:?}");
        }
        assert_eq!(s.game().moves().len(), 2);
    }

    #[test]
    fn a_forced_pass_is_searched_from_the_opponents_side() {
        // White a1, Black b1, Black to move: Black must pass, White then takes c1 (64-0)
        let board = format!("O*{} *", "-".repeat(62));
        let mut s = session();
        run(&mut s, "set depth 4");
        assert!(run(&mut s, &format!("set game (;GM[Othello]BO[8 {board}];)")).is_empty());
        let hint = run(&mut s, "hint 1");
        let last = hint
            .iter()
            .rfind(|l| l.starts_with("search "))
            .expect("a search line");
        assert!(last.starts_with("search PAC1 -64.00 0 "), "{hint:?}");
        let r = run(&mut s, "analyze");
        assert_eq!(r[1], "analysis 0 -64.00", "{r:?}");
    }

    #[test]
    fn analyze_scores_every_position_from_the_end() {
        let mut s = session();
        run(&mut s, "set depth 2");
        run(&mut s, &format!("set game {GAME}"));
        let r = run(&mut s, "analyze");
        let numbers: Vec<usize> = r
            .iter()
            .filter_map(|l| l.strip_prefix("analysis "))
            .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(numbers, (0..=8).rev().collect::<Vec<_>>());
        assert_eq!(r.last().map(String::as_str), Some("status"));
    }

    #[test]
    fn a_set_stop_flag_cuts_the_analysis_short() {
        let mut s = session();
        run(&mut s, &format!("set game {GAME}"));
        s.stop_flag().store(true, Ordering::Relaxed);
        let r = run(&mut s, "analyze");
        assert!(!r.iter().any(|l| l.starts_with("analysis ")), "{r:?}");
        assert!(NboardSession::interrupts("ping 7"));
        assert!(!NboardSession::interrupts("move f5"));
    }

    /// Contempt: in a position where one move draws and another loses by 2, a contempt
    /// above 2 (a draw worth less than a 2-disc loss) switches to the loss, and a contempt of 0
    /// keeps the draw. Found among pseudo-random endgames of 8 empties.
    #[test]
    fn contempt_trades_a_draw_for_a_two_disc_result() {
        let mut solver = ply_othello_engine::Solver::new(2, false);
        let mut rng = ply_testkit::XorShift64::new(11);
        let mut found = None;
        'search: for _ in 0..2000 {
            let mut g = Game::default();
            while 64 - (g.position().black() | g.position().white()).count_ones() > 8 {
                let b = g.position().board;
                if b.is_game_over() {
                    continue 'search;
                }
                let moves = b.moves();
                if moves == 0 {
                    g.play(Square::PASS).unwrap();
                    continue;
                }
                let sq = Square::new(rng.pick_bit(moves)).expect("a legal move");
                g.play(sq).unwrap();
            }
            let b = g.position().board;
            if b.moves() == 0 {
                continue;
            }
            let r = solver.solve(&b, ply_othello_engine::Mode::AllMoves);
            let best = r.moves.iter().map(|m| m.1).max();
            if best == Some(0) && r.moves.iter().any(|m| m.1 == -2) {
                found = Some((g, r));
                break;
            }
        }
        let (g, r) = found.expect("a position with a draw and a 2-disc loss");
        let mut s = session();
        s.game = g;
        run(&mut s, "set depth 60");
        let play = |s: &mut NboardSession| {
            let go = run(s, "go");
            let reply = go.iter().find(|l| l.starts_with("=== ")).unwrap().clone();
            let f: Vec<_> = reply[4..].split('/').map(str::to_string).collect();
            (
                f[0].parse::<Square>().unwrap(),
                f[1].parse::<f64>().unwrap(),
            )
        };
        let score_of = |sq: Square| r.moves.iter().find(|m| m.0 == sq).unwrap().1;
        let (mv, eval) = play(&mut s);
        assert_eq!((score_of(mv), eval), (0, 0.0));
        run(&mut s, "set contempt 3");
        let (mv, eval) = play(&mut s);
        assert_eq!((score_of(mv), eval), (-2, -2.0));
        run(&mut s, "set contempt 1");
        let (mv, eval) = play(&mut s);
        assert_eq!((score_of(mv), eval), (0, -1.0));
    }

    /// `go` under a loss allowance drawing every move within 64 discs: a legal move, the same
    /// for a seed, others for other seeds.
    #[test]
    fn go_under_a_loss_allowance() {
        let go = |seed: u64| {
            let mut s = session();
            s.set_weakness(Weakness::new(64, 1.0, seed).unwrap());
            run(&mut s, "set depth 2");
            run(&mut s, &format!("set game {GAME}"));
            let go = run(&mut s, "go");
            let reply = go.iter().find(|l| l.starts_with("=== ")).expect("a move");
            let sq: Square = reply[4..6].parse().unwrap();
            assert!(s.game().position().board.moves() & sq.bit() != 0, "{reply}");
            assert_ne!(s.weakness.seed, seed, "the seed steps");
            sq
        };
        assert_eq!(go(3), go(3));
        let moves: std::collections::BTreeSet<usize> = (0..8).map(|s| go(s).index()).collect();
        assert!(moves.len() > 1, "{moves:?}");
    }

    /// What the engine's moves may take beyond its clock in a whole game, all together: the
    /// part of a move its clock cannot see (starting and joining its threads, the abort's
    /// latency) on a loaded machine; the engine keeps 3 ms or more of its clock in reserve.
    const MARGIN: Duration = Duration::from_millis(50);

    #[test]
    fn the_records_clock_and_move_times_set_the_clocks() {
        let mut s = session();
        let secs = Duration::from_secs;
        let timed = GAME
            .replace("B[F5]", "B[F5//10]")
            .replace("W[F6]", "W[F6/0.5/2.5]");
        assert!(run(&mut s, &format!("set game {timed}")).is_empty());
        assert_eq!(s.clocks, [Some((secs(900), Duration::ZERO)); 2]);
        assert_eq!(s.used, [secs(10), Duration::from_millis(2500)]);
        let black = s.clock().unwrap().remaining;
        assert!(black <= secs(890) && black > secs(880), "{black:?}");
        // a move with its time, then one without: the time since the last one counts
        assert!(run(&mut s, "move D6/-1.00/3").is_empty());
        assert_eq!(s.used[0], secs(13));
        std::thread::sleep(Duration::from_millis(20));
        let sq = Square::first(s.game().position().board.moves()).unwrap();
        assert!(run(&mut s, sq.name()).is_empty());
        assert!(s.used[1] >= Duration::from_millis(2520), "{:?}", s.used);
        // each side's own clock, with an increment; a zero or unreadable clock is none
        let two = GAME.replace("TI[15:00]", "TB[1:00/2]TW[0:30]");
        run(&mut s, &format!("set game {two}"));
        assert_eq!(
            s.clocks,
            [Some((secs(60), secs(2))), Some((secs(30), Duration::ZERO))]
        );
        assert_eq!(s.clock().unwrap().increment, secs(2));
        for clock in ["TI[0]", "TI[soon]", "TI[1:75]"] {
            let g = GAME.replace("TI[15:00]", clock);
            assert!(run(&mut s, &format!("set game {g}")).is_empty(), "{clock}");
            assert_eq!(s.clocks, [None, None], "{clock}");
            assert_eq!(s.game().moves().len(), 8, "the game is set: {clock}");
        }
    }

    /// A GUI's game with 0.2 s a side at depth 60 (only time stops the search): every `go` is
    /// answered, and each side's moves, measured around each `go` and sent back with the
    /// moves as NBoard does, stay within the clock (plus [`MARGIN`]).
    #[test]
    fn a_tiny_clock_is_never_exceeded() {
        let mut s = session();
        run(&mut s, "set depth 60");
        let start = GAME.replace("TI[15:00]", "TI[0:00.2]");
        let start = start.split("B[F5]").next().unwrap().to_string() + ";)";
        run(&mut s, &format!("set game {start}"));
        let mut used = [Duration::ZERO; 2];
        while !s.game().position().board.is_game_over() {
            let i = side_index(s.game().position().side);
            let t = Instant::now();
            let go = run(&mut s, "go");
            let took = t.elapsed();
            used[i] += took;
            let reply = go.iter().find(|l| l.starts_with("=== ")).expect("a move");
            let mv = reply[4..].split('/').next().unwrap();
            let r = run(&mut s, &format!("move {mv}/0.00/{:.4}", took.as_secs_f64()));
            assert!(r.is_empty(), "{mv}: {r:?}");
        }
        for u in used {
            assert!(u <= Duration::from_millis(200) + MARGIN, "{used:?}");
        }
    }

    #[test]
    fn the_next_line_stops_pondering_at_once() {
        let mut s = session();
        s.set_ponder(true);
        run(&mut s, "set depth 60");
        // a level-60 search of the game's position: it never ends by itself
        assert!(
            run(&mut s, &format!("set game {GAME}")).is_empty(),
            "no output"
        );
        std::thread::sleep(Duration::from_millis(30));
        assert!(s.ponder.as_ref().is_some_and(Ponder::is_running));
        let t = Instant::now();
        assert_eq!(run(&mut s, "ping 3"), ["pong 3"]);
        // a guard against a search that goes on, not a speed target (the stop takes ms)
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
        assert!(s.ponder.is_none());
        // a move starts it again, the next line stops it again; answers are as without it
        run(&mut s, "move D6");
        assert!(s.ponder.is_some());
        run(&mut s, "set depth 4");
        let go = run(&mut s, "go");
        assert!(s.ponder.is_none(), "go does not ponder");
        assert_eq!(go.len(), 4, "{go:?}");
        assert!(go[2].starts_with("=== "), "{go:?}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_lines_never_panic(line in "[ -~]{0,60}") {
            let mut s = session();
            run(&mut s, "set depth 1");
            let _ = run(&mut s, &line);
        }

        #[test]
        fn random_arguments_never_panic(
            cmd in proptest::sample::select(vec![
                "nboard", "set depth", "set game", "set contempt", "move", "hint", "go",
                "ping", "learn", "analyze",
            ]),
            args in "[ -~]{0,30}",
        ) {
            let mut s = session();
            run(&mut s, "set depth 1");
            let _ = run(&mut s, &format!("{cmd} {args}"));
        }
    }
}
