//! The games an external engine plays against itself over GTP, a player other than ply: the
//! out-of-distribution test set ([`crate::testset::external`]) and training positions of
//! another player ([`crate::datagen::run_engine_games`]) come from them. The engine plays
//! both colours ([`GtpClient`]) after a few uniformly random opening moves ([`random_opening`],
//! the same for the same seed and game index); [`play_engine_game`] records the whole game and
//! checks every move it answers.
//!
//! The games are kept one a line as move lists ([`format_game`], passes written `pa`) after a
//! header that names what made them ([`GamesHeader`]), so a long run can stop and go on:
//! [`parse_games`] reads them back and checks each game is legal and finished.

use crate::matchplay::client::{move_word, COMMAND_TIMEOUT};
use crate::matchplay::{GtpClient, GtpError};
use ply_batch::rng::XorShift64Star;
use ply_othello::{color_name, format_moves, parse_moves, Color, ParseError, Position, Square};
use std::fmt;
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

/// What made the games of a games file, its first line:
/// `% ply-othello testset games: engine "<command>", seed <S>, <A>-<B> random opening moves`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamesHeader {
    /// The engine's command line.
    pub engine: String,
    /// Seed of the random openings.
    pub seed: u64,
    /// Fewest random opening moves.
    pub random_min: u32,
    /// Most random opening moves.
    pub random_max: u32,
}

/// The header's words before the engine's quoted command line.
const HEADER_START: &str = "% ply-othello testset games: engine ";

impl fmt::Display for GamesHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{HEADER_START}{:?}, seed {}, {}-{} random opening moves",
            self.engine, self.seed, self.random_min, self.random_max
        )
    }
}

impl GamesHeader {
    /// The header a games file's first line gives, if it is one. The engine's command line is
    /// read back as written (Rust's quoting: `\"` and `\\` are its only escapes that a command
    /// line is expected to need; others are kept as written).
    pub fn parse(line: &str) -> Option<GamesHeader> {
        let rest = line
            .trim_end()
            .strip_prefix(HEADER_START)?
            .strip_prefix('"')?;
        let (quoted, tail) = rest.rsplit_once("\", seed ")?;
        let tail = tail.strip_suffix(" random opening moves")?;
        let (seed, range) = tail.split_once(", ")?;
        let (random_min, random_max) = range.split_once('-')?;
        let mut engine = String::with_capacity(quoted.len());
        let mut chars = quoted.chars();
        while let Some(c) = chars.next() {
            match (c, c == '\\') {
                (_, true) => match chars.next() {
                    Some(e @ ('"' | '\\')) => engine.push(e),
                    Some(e) => {
                        engine.push(c);
                        engine.push(e);
                    }
                    None => engine.push(c),
                },
                _ => engine.push(c),
            }
        }
        Some(GamesHeader {
            engine,
            seed: seed.parse().ok()?,
            random_min: random_min.parse().ok()?,
            random_max: random_max.parse().ok()?,
        })
    }

    /// The random opening of game `game` of these games ([`random_opening`]).
    pub fn opening(&self, game: u64) -> Vec<Square> {
        random_opening(self.seed, game, self.random_min, self.random_max)
    }
}

/// A whole game of uniformly random moves from `seed`, for the tests.
#[cfg(test)]
pub(crate) fn random_game(seed: u64) -> Vec<Square> {
    random_opening(seed, 0, 80, 80)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn headers_read_back() {
        for engine in [
            "edax -gtp -l 12",
            "/opt/my engine/bin \"x\" \\ -q",
            "",
            "odd \\n escape",
        ] {
            let h = GamesHeader {
                engine: engine.to_string(),
                seed: 201,
                random_min: 2,
                random_max: 14,
            };
            let line = h.to_string();
            assert!(line.starts_with(HEADER_START), "{line}");
            assert_eq!(GamesHeader::parse(&line), Some(h.clone()), "{line}");
            assert_eq!(h.opening(3), random_opening(201, 3, 2, 14));
        }
        assert_eq!(GamesHeader::parse("% something else"), None);
        assert_eq!(
            GamesHeader::parse(
                "% ply-othello testset games: engine \"x\", seed z, 1-2 random opening moves"
            ),
            None
        );
        assert_eq!(GamesHeader::parse("c4c3"), None);
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
