//! Test positions from the games of an external engine, a different player than ply, so that
//! the evaluation is also measured on positions its own self-play never makes. The engine
//! plays both colours over GTP ([`GtpClient`]) after a few uniformly random opening moves
//! ([`random_opening`], the same for the same seed and game index); [`play_engine_game`]
//! records the whole game and checks every move it answers. From the games,
//! [`collect_positions`] takes the position at each chosen number of empties (the side to move
//! has a move there), once each up to the board's symmetries and none of the training data;
//! [`solve_position`] then gives each the exact score and a best move of ply's solver.
//!
//! The games are kept one a line as move lists ([`format_game`], passes written `pa`), so a
//! long run can stop and go on: [`parse_games`] reads them back and checks each game is legal
//! and finished.

use super::{admit, Dropped, TestPosition};
use crate::matchplay::client::{move_word, COMMAND_TIMEOUT};
use crate::matchplay::{GtpClient, GtpError};
use ply_batch::rng::XorShift64Star;
use ply_othello::{color_name, format_moves, parse_moves, Color, ParseError, Position, Square};
use ply_othello_engine::{Mode, Solver};
use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

/// Why a game of the external engine could not be recorded.
#[derive(Debug, thiserror::Error)]
pub enum EngineGameError {
    /// The engine exited, stopped answering or refused a command.
    #[error(transparent)]
    Gtp(#[from] GtpError),
    /// The engine's answer to `genmove` is not a legal move of the position.
    #[error(
        "the engine answered `genmove {color}` with {reply:?}, not a legal move of {position}"
    )]
    Illegal {
        /// The colour asked for.
        color: &'static str,
        /// The reply, as received.
        reply: String,
        /// The position, as `<64 squares> <side>`.
        position: String,
    },
    /// A move of the opening is not legal (an opening given by the caller).
    #[error("opening move {index} ({mv}) is not legal")]
    Opening {
        /// 0-based index in the opening.
        index: usize,
        /// The move.
        mv: String,
    },
}

/// A game of a games file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum GamesFileError {
    /// The line is not a legal move list.
    #[error("line {line}: {source}")]
    Moves {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        source: ParseError,
    },
    /// The moves are legal but the game is not over (a line cut short, e.g. by a stopped run:
    /// delete it and the game is played again).
    #[error("line {line}: the game is not over after its {moves} moves")]
    Unfinished {
        /// 1-based line number.
        line: usize,
        /// Number of moves on the line.
        moves: usize,
    },
}

/// The random opening of game `game` of `seed`: a number of moves drawn uniformly from
/// `random_min..=random_max` (bounds in either order), each drawn uniformly among the legal
/// moves (a pass, written [`Square::PASS`], when the side to move has none; the opening ends
/// early if the game does). The same arguments always give the same opening.
pub fn random_opening(seed: u64, game: u64, random_min: u32, random_max: u32) -> Vec<Square> {
    let (lo, hi) = (random_min.min(random_max), random_min.max(random_max));
    let mut rng = XorShift64Star::new(ply_batch::game_seed(seed, game) | 1);
    let count = lo + rng.below(u64::from(hi - lo) + 1) as u32;
    let mut pos = Position::start();
    let mut moves = Vec::new();
    let mut played = 0;
    while played < count && !pos.board.is_game_over() {
        let legal = pos.board.moves();
        if legal == 0 {
            pos.pass();
            moves.push(Square::PASS);
            continue;
        }
        let sq = Square::new(rng.pick_bit(legal)).unwrap_or(Square::PASS);
        pos.play(sq);
        moves.push(sq);
        played += 1;
    }
    moves
}

/// A position as `<64 squares> <X|O>`, for messages.
fn position_text(pos: &Position) -> String {
    let side = if pos.side == Color::Black { 'X' } else { 'O' };
    format!("{} {side}", pos.board_string())
}

/// Plays one game of `engine` against itself from `opening` (told to it with `play`), asking
/// `genmove` for each side in turn and waiting at most `reply_timeout` for each answer; a side
/// without a move passes (told with `play <colour> pass`, whose refusal is accepted). Returns
/// every move of the game, the opening's first, passes as [`Square::PASS`].
///
/// # Errors
/// [`EngineGameError::Gtp`] when the engine exits, hangs or refuses a command,
/// [`EngineGameError::Illegal`] for an answer that is not a legal move (a pass included while
/// the side has moves), [`EngineGameError::Opening`] for an illegal opening.
pub fn play_engine_game(
    engine: &mut GtpClient,
    opening: &[Square],
    reply_timeout: Duration,
) -> Result<Vec<Square>, EngineGameError> {
    let command_timeout = reply_timeout.min(COMMAND_TIMEOUT);
    engine.send("boardsize 8", command_timeout)?;
    engine.send("clear_board", command_timeout)?;
    let mut pos = Position::start();
    let mut moves = Vec::with_capacity(64);
    for (index, &mv) in opening.iter().enumerate() {
        let side = pos.side;
        if mv.is_pass() && pos.board.moves() == 0 && !pos.board.is_game_over() {
            pos.pass();
        } else if mv.is_pass() || !pos.play(mv) {
            let mv = move_word(mv).to_string();
            return Err(EngineGameError::Opening { index, mv });
        }
        engine.play(side, mv, COMMAND_TIMEOUT)?;
        moves.push(mv);
    }
    while !pos.board.is_game_over() {
        let side = pos.side;
        if pos.board.moves() == 0 {
            engine.play(side, Square::PASS, COMMAND_TIMEOUT)?;
            pos.pass();
            moves.push(Square::PASS);
            continue;
        }
        let color = color_name(side);
        let reply = engine.send(&format!("genmove {color}"), reply_timeout)?;
        let word = reply.trim();
        let mv = word
            .parse::<Square>()
            .ok()
            .filter(|sq| pos.board.moves() & sq.bit() != 0);
        let Some(mv) = mv else {
            return Err(EngineGameError::Illegal {
                color,
                reply: word.to_string(),
                position: position_text(&pos),
            });
        };
        pos.play(mv);
        moves.push(mv);
    }
    Ok(moves)
}

/// One game as a line of a games file: its moves, `pa` for a pass (no line end).
pub fn format_game(moves: &[Square]) -> String {
    format_moves(moves)
}

/// The games of a games file: one move list a line from the start position, blank lines and
/// lines starting with `%` skipped. Each game must be legal and finished.
///
/// # Errors
/// [`GamesFileError`] naming the first bad line.
pub fn parse_games(text: &str) -> Result<Vec<Vec<Square>>, GamesFileError> {
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        let moves = parse_moves(line).map_err(|source| GamesFileError::Moves {
            line: n + 1,
            source,
        })?;
        let end = ply_othello::play_moves(Position::start(), &moves).map_err(|source| {
            GamesFileError::Moves {
                line: n + 1,
                source,
            }
        })?;
        if !end.board.is_game_over() {
            return Err(GamesFileError::Unfinished {
                line: n + 1,
                moves: moves.len(),
            });
        }
        games.push(moves);
    }
    Ok(games)
}

/// The positions of a game (its moves from the start position, passes explicit or implicit)
/// at the numbers of empties in `empties`: for each, the position where a move was played with
/// that many empties (after a pass, the side that plays). Stops at the first illegal move.
pub fn game_positions(moves: &[Square], empties: &[u32]) -> Vec<Position> {
    let mut pos = Position::start();
    let mut out = Vec::new();
    for &mv in moves {
        if mv.is_pass() {
            pos.pass();
            continue;
        }
        if pos.board.moves() == 0 {
            pos.pass();
        }
        let before = pos;
        if !pos.play(mv) {
            break;
        }
        if empties.contains(&before.board.empty_count()) {
            out.push(before);
        }
    }
    out
}

/// A position chosen for the test set, before it is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The position (a move is legal in it).
    pub position: Position,
    /// Index of its game.
    pub game: u64,
}

/// The positions of `games` (move lists, game `i` at index `i`) at the numbers of empties in
/// `empties` ([`game_positions`]), each kept once up to symmetry (the first game that reaches
/// it) and only if its key is not in `training`. Returns them by number of empties, in game
/// order, with what was dropped ([`Dropped::no_move`] stays 0: a kept position always has a
/// move).
pub fn collect_positions(
    games: &[Vec<Square>],
    empties: &[u32],
    training: &HashSet<(u64, u64)>,
) -> (BTreeMap<u32, Vec<Candidate>>, Dropped) {
    let mut out: BTreeMap<u32, Vec<Candidate>> = empties.iter().map(|&e| (e, vec![])).collect();
    let mut seen = HashSet::new();
    let mut dropped = Dropped::default();
    for (game, moves) in games.iter().enumerate() {
        for position in game_positions(moves, empties) {
            if admit(&position.board, training, &mut seen, &mut dropped) {
                out.entry(position.board.empty_count())
                    .or_default()
                    .push(Candidate {
                        position,
                        game: game as u64,
                    });
            }
        }
    }
    (out, dropped)
}

/// The test position of `candidate`: its exact score and the best move of `solver`'s exact
/// solve (if that solve names none, the best of every move's exact score).
pub fn solve_position(solver: &mut Solver, candidate: &Candidate) -> TestPosition {
    let board = candidate.position.board;
    let legal = board.moves();
    let solved = solver.solve(&board, Mode::Exact);
    let (best_move, score) = match solved.best.filter(|m| legal & m.bit() != 0) {
        Some(m) => (m, solved.score),
        None => {
            let all = solver.solve(&board, Mode::AllMoves);
            let first = all.moves.first().copied();
            first.unwrap_or((Square::first(legal).unwrap_or(Square::PASS), all.score))
        }
    };
    TestPosition {
        board,
        black_to_move: candidate.position.side == Color::Black,
        best_move,
        score: score.clamp(-64, 64) as i8,
        game: candidate.game,
    }
}

#[cfg(test)]
mod tests {
    use super::super::key;
    use super::*;

    /// A whole game of uniformly random moves from `seed`.
    fn random_game(seed: u64) -> Vec<Square> {
        random_opening(seed, 0, 80, 80)
    }

    #[test]
    fn openings_are_legal_reproducible_and_of_the_asked_length() {
        for game in 0..50 {
            let a = random_opening(3, game, 2, 9);
            assert_eq!(a, random_opening(3, game, 2, 9));
            assert_eq!(a, random_opening(3, game, 9, 2), "bounds in either order");
            let played = a.iter().filter(|m| !m.is_pass()).count();
            assert!((2..=9).contains(&played), "{played}");
            assert!(ply_othello::play_moves(Position::start(), &a).is_ok());
        }
        assert_ne!(random_opening(3, 0, 8, 8), random_opening(3, 1, 8, 8));
        assert!(random_opening(3, 0, 0, 0).is_empty());
        // a whole random game ends (and its passes are written)
        let g = random_game(7);
        let end = ply_othello::play_moves(Position::start(), &g).unwrap();
        assert!(end.board.is_game_over());
    }

    #[test]
    fn games_file_round_trip_and_errors() {
        let games: Vec<Vec<Square>> = (0..5).map(random_game).collect();
        let text: String = games.iter().map(|g| format_game(g) + "\n").collect();
        let text = format!("% a header\n\n{text}");
        assert_eq!(parse_games(&text).unwrap(), games);
        // a line cut short is unfinished; a move that is no move names its line
        let cut = format!(
            "{}\n{}\n",
            format_game(&games[0]),
            &format_game(&games[1])[..30]
        );
        assert!(matches!(
            parse_games(&cut),
            Err(GamesFileError::Unfinished { line: 2, moves: 15 })
        ));
        assert!(matches!(
            parse_games("f5d6zz\n"),
            Err(GamesFileError::Moves { line: 1, .. })
        ));
        assert!(matches!(
            parse_games("f5f5\n"),
            Err(GamesFileError::Moves { line: 1, .. })
        ));
    }

    #[test]
    fn positions_have_the_asked_empties_a_move_and_no_repeats() {
        let games: Vec<Vec<Square>> = (0..40).map(random_game).collect();
        let empties = [10, 20, 30];
        for g in &games {
            let ps = game_positions(g, &empties);
            let counts: Vec<u32> = ps.iter().map(|p| p.board.empty_count()).collect();
            assert_eq!(
                counts,
                vec![30, 20, 10],
                "one position per number of empties"
            );
            assert!(ps.iter().all(|p| p.board.moves() != 0));
        }
        let (sets, dropped) = collect_positions(&games, &empties, &HashSet::new());
        assert_eq!(
            dropped,
            Dropped::default(),
            "random games do not meet again"
        );
        assert!(sets.values().all(|v| v.len() == 40));
        // the same games again, and their mirror images, add nothing
        let mirror = |g: &Vec<Square>| -> Vec<Square> {
            g.iter()
                .map(|&m| {
                    if m.is_pass() {
                        m
                    } else {
                        // the transpose (a1-h8 diagonal) keeps the start position
                        Square::new((m.index() % 8) * 8 + m.index() / 8).unwrap()
                    }
                })
                .collect()
        };
        let twice: Vec<Vec<Square>> = games
            .iter()
            .cloned()
            .chain(games.iter().map(mirror))
            .collect();
        let (again, d) = collect_positions(&twice, &empties, &HashSet::new());
        assert_eq!(again, sets);
        assert_eq!(d.duplicates, 120);
        // training keys are left out and counted
        let training: HashSet<_> = sets[&20].iter().map(|c| key(&c.position.board)).collect();
        let (without, d) = collect_positions(&games, &empties, &training);
        assert!(without[&20].is_empty());
        assert_eq!(without[&10], sets[&10]);
        assert_eq!(d.in_training, 40);
    }

    #[test]
    fn solved_positions_carry_the_exact_score_and_a_best_move() {
        let games: Vec<Vec<Square>> = (100..106).map(random_game).collect();
        let (sets, _) = collect_positions(&games, &[8, 12], &HashSet::new());
        let mut solver = Solver::new(4, false);
        for c in sets.values().flatten() {
            let p = solve_position(&mut solver, c);
            let all = solver.solve(&c.position.board, Mode::AllMoves);
            assert_eq!(i32::from(p.score), all.score);
            let of_move = all.moves.iter().find(|&&(m, _)| m == p.best_move);
            assert_eq!(of_move.map(|&(_, s)| s), Some(all.score), "a best move");
            assert_eq!(p.black_to_move, c.position.side == Color::Black);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_bad_engine_is_an_error() {
        let scratch = ply_testkit::Scratch::new("testset-engine");
        let dir = scratch.path();
        // accepts every command and answers every genmove with a square that is never legal
        // at the start (d4 is occupied)
        let script = dir.join("garbage.sh");
        std::fs::write(
            &script,
            "while read -r cmd; do case \"$cmd\" in genmove*) printf '= d4\\n\\n';; \
             *) printf '= \\n\\n';; esac; done\n",
        )
        .expect("script written");
        let mut engine = GtpClient::spawn(&format!("sh {}", script.display())).expect("spawn");
        let r = play_engine_game(&mut engine, &[], Duration::from_secs(10));
        assert!(
            matches!(&r, Err(EngineGameError::Illegal { color: "black", reply, .. }) if reply == "d4"),
            "{r:?}"
        );
        // an illegal opening is refused before the engine is asked anything about it
        let r = play_engine_game(&mut engine, &[Square::PASS], Duration::from_secs(10));
        assert!(
            matches!(r, Err(EngineGameError::Opening { index: 0, .. })),
            "{r:?}"
        );
        drop(engine);
        // an engine that exits
        let mut engine = GtpClient::spawn("false").expect("spawn false");
        let r = play_engine_game(&mut engine, &[], Duration::from_secs(10));
        assert!(
            matches!(r, Err(EngineGameError::Gtp(GtpError::Exited(..)))),
            "{r:?}"
        );
        // an engine that hangs on genmove
        let script = dir.join("hang.sh");
        std::fs::write(
            &script,
            "while read -r cmd; do case \"$cmd\" in genmove*) sleep 30;; \
             *) printf '= \\n\\n';; esac; done\n",
        )
        .expect("script written");
        let mut engine = GtpClient::spawn(&format!("sh {}", script.display())).expect("spawn");
        let r = play_engine_game(&mut engine, &[], Duration::from_millis(300));
        assert!(
            matches!(r, Err(EngineGameError::Gtp(GtpError::Timeout(..)))),
            "{r:?}"
        );
        drop(engine);
    }
}
