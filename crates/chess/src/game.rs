//! A game: the start position, the moves played and every position on the way, with where it
//! stands by the rules ([`Status`]) and its result as PGN writes it ([`GameResult`]).

use crate::{repetitions, Color, IllegalMoveError, Move, Position};
use std::fmt;

/// Where a game stands by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The side to move has a move and no draw rule applies.
    Playing,
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no move and is not in check.
    Stalemate,
    /// Neither side can mate.
    InsufficientMaterial,
    /// Fifty moves of each side without a capture or a pawn move.
    FiftyMoves,
    /// The position has occurred for the third time.
    Repetition,
}

impl Status {
    /// Whether the game is over.
    pub fn is_over(self) -> bool {
        self != Status::Playing
    }

    /// A short English name: `playing`, `checkmate`, `stalemate`, `insufficient material`,
    /// `fifty-move rule` or `threefold repetition`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Playing => "playing",
            Status::Checkmate => "checkmate",
            Status::Stalemate => "stalemate",
            Status::InsufficientMaterial => "insufficient material",
            Status::FiftyMoves => "fifty-move rule",
            Status::Repetition => "threefold repetition",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game's result as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Undecided,
}

impl GameResult {
    /// The PGN text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Undecided => "*",
        }
    }

    /// Reads a PGN result token.
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Undecided),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game from a start position, every move checked when played.
///
/// ```
/// use ply_chess::{Game, GameResult, Status};
/// let mut game = Game::startpos();
/// for san in ["f3", "e5", "g4", "Qh4#"] {
///     game.play_san(san).unwrap();
/// }
/// assert_eq!(game.status(), Status::Checkmate);
/// assert_eq!(game.result(), GameResult::BlackWins);
/// assert_eq!(game.san_moves(), ["f3", "e5", "g4", "Qh4#"]);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    /// The position before each move, then the current one (never empty).
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// A game from the usual start position.
    pub fn startpos() -> Game {
        Game::new(Position::startpos())
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.positions[self.positions.len() - 1]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position before each move, then the current one.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Whether the game started from a Chess960 position (castling written as the king taking
    /// its rook in UCI).
    pub fn chess960(&self) -> bool {
        self.start().is_chess960()
    }

    /// Hashes of the positions before the current one, oldest first (what a search needs to see
    /// repetitions).
    pub fn history(&self) -> Vec<u64> {
        let n = self.positions.len() - 1;
        self.positions[..n].iter().map(Position::hash).collect()
    }

    /// Plays `m` in the current position.
    ///
    /// # Errors
    /// [`IllegalMoveError`] when `m` is not legal there; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        let next = self.position().try_play(m)?;
        self.moves.push(m);
        self.positions.push(next);
        Ok(())
    }

    /// Plays a move written in SAN.
    ///
    /// # Errors
    /// [`MoveParseError`](crate::MoveParseError) when the text is no legal move here.
    pub fn play_san(&mut self, san: &str) -> Result<Move, crate::MoveParseError> {
        let m = self.position().parse_san(san)?;
        self.moves.push(m);
        self.positions.push(self.position().play(m));
        Ok(m)
    }

    /// Takes the last move back; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// The moves in SAN.
    pub fn san_moves(&self) -> Vec<String> {
        self.positions
            .iter()
            .zip(&self.moves)
            .map(|(p, &m)| p.san(m))
            .collect()
    }

    /// Where the game stands by the rules. Draws are by the rules that end a game without a
    /// claim: stalemate, insufficient material, the fifty-move rule (unless the move that
    /// reached it mated) and a third repetition.
    pub fn status(&self) -> Status {
        let pos = self.position();
        let mut hashes = self.history();
        hashes.push(pos.hash());
        if pos.is_checkmate() {
            Status::Checkmate
        } else if pos.is_stalemate() {
            Status::Stalemate
        } else if pos.is_insufficient_material() {
            Status::InsufficientMaterial
        } else if pos.is_fifty_move_draw() {
            Status::FiftyMoves
        } else if repetitions(&hashes, pos.halfmove_clock()) >= 2 {
            Status::Repetition
        } else {
            Status::Playing
        }
    }

    /// The result by the rules: a win for the mating side, a draw, or `*` while playing.
    pub fn result(&self) -> GameResult {
        match self.status() {
            Status::Playing => GameResult::Undecided,
            Status::Checkmate if self.position().side_to_move() == Color::White => {
                GameResult::BlackWins
            }
            Status::Checkmate => GameResult::WhiteWins,
            _ => GameResult::Draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_and_illegal_moves_leave_a_consistent_game() {
        let mut game = Game::startpos();
        let e4 = game.play_san("e4").unwrap();
        assert!(game.play(e4).is_err(), "e2e4 again is not legal for Black");
        assert_eq!(game.moves().len(), 1);
        assert_eq!(game.undo(), Some(e4));
        assert_eq!(game.undo(), None);
        assert_eq!(game.position(), &Position::startpos());
        assert_eq!(game.history(), Vec::<u64>::new());
    }

    #[test]
    fn repetition_and_stalemate() {
        let mut game = Game::startpos();
        for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
            game.play_san(san).unwrap();
            assert_eq!(game.status(), Status::Playing);
        }
        game.play_san("Ng8").unwrap();
        assert_eq!(game.status(), Status::Repetition);
        assert_eq!(game.result(), GameResult::Draw);
        let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(Game::new(stalemate).status(), Status::Stalemate);
    }
}
