//! The NBoard protocol (Chris Welty's NBoard GUI, protocol version 2), engine side.
//!
//! | GUI sends | the session does |
//! |---|---|
//! | `nboard 2` | answers `set myname ply-V` (V: [`VERSION`](crate::VERSION)) |
//! | `set depth N` | plays at level N (1..60), answers `set myname plyN-V` |
//! | `set game <GGF>` | replaces the game ([`ply_othello::ggf`]) |
//! | `set contempt N` | values a proven draw at -N discs when choosing a move |
//! | `move F5[/eval[/time]]`, or a bare `F5` | plays the move (`PA` passes) |
//! | `hint N` | `status`, then `search <pv> <eval> 0 <depth> <selectivity>` lines for the N best moves after every iteration, then `status` |
//! | `go` | `status`, `nodestats`, `=== F5/<eval>/<seconds>`, `status`; the move is **not** played (NBoard sends it back with `move`) |
//! | `ping N` | `pong N` (after stopping any search: see [`NboardSession::interrupts`]) |
//! | `learn` | `learned` (ply has no book to add the game to) |
//! | `analyze` | `analysis <moves played> <eval>` for every position from the end back to the start, then `status` |
//! | `quit` | ends the session |
//!
//! Evaluations are in discs from the side to move. A line the session cannot use gets
//! `status error: ...` (NBoard shows it in its status bar) and the session goes on.

use super::format::{nboard_depth, nboard_move, pv_compact};
use ply_cli_support::NotUtf8;
use ply_othello::ggf::{parse_ggf, parse_move, GgfError};
use ply_othello::{Game, MoveError};
use ply_othello_engine::{Choice, Engine, Info, Limits, Outcome};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
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
    stop: Arc<AtomicBool>,
    /// Node cap of every search ([`NboardSession::set_node_limit`]).
    node_limit: Option<u64>,
    quit: bool,
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
            stop: Arc::new(AtomicBool::new(false)),
            node_limit: None,
            quit: false,
        }
    }

    /// Caps every search of the session at `nodes` (`None`: the level alone decides), so that
    /// a script or a fuzzer can drive any command, even a level-60 solve, in bounded time.
    pub fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.node_limit = nodes;
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
                out("learned");
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
        Ok(self.game.play_after_forced_pass(sq)?)
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
        let all = n > 1;
        let limits = self.limits(all);
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
        out("status ply is thinking");
        let limits = self.limits(false);
        let stop = Arc::clone(&self.stop);
        let Choice {
            outcome,
            best,
            value: score,
        } = self
            .engine
            .think_with_contempt(&pos.board, &limits, self.contempt, &stop, &mut |_| {});
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
