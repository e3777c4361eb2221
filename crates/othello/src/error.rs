//! The rules crate's errors: [`ParseError`] for every text form (squares, boards, OBF lines, move
//! lists) and [`BoardError`] for bitboards that are no board. They sit on `square` alone, so
//! every other module can use them; reading a [`Square`] from text is here for that reason.

use crate::square::Square;
use std::str::FromStr;
use thiserror::Error;

/// Why two bitboards are not a [`Board`](crate::Board).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum BoardError {
    /// Some squares hold a disc of both sides (the mask of those squares).
    #[error("both sides have a disc on {} ({} square(s) overlap)", Square::first(*.0).unwrap_or(Square::PASS), .0.count_ones())]
    Overlap(u64),
}

/// Why a text could not be read as a square, board, OBF line or move list.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Not a coordinate "A1".."H8".
    #[error("bad square {0:?} (expected A1..H8)")]
    BadSquare(String),
    /// The board part does not have 64 square characters.
    #[error("board has {0} squares, expected 64")]
    BoardLength(usize),
    /// A board character that is neither a disc nor an empty square.
    #[error("bad board character {0:?} at square {1}")]
    BoardChar(char, usize),
    /// Missing side to move after the board.
    #[error("missing side to move")]
    MissingSide,
    /// Side to move that is neither black (`X`/`*`/`B`) nor white (`O`/`W`).
    #[error("bad side to move {0:?}")]
    BadSide(String),
    /// An OBF annotation that is not `<square>:<score>`.
    #[error("bad OBF annotation {0:?}")]
    BadAnnotation(String),
    /// A move that is illegal in the position it is played in.
    #[error("illegal move {0} at ply {1}")]
    IllegalMove(String, usize),
    /// A pass while the side to move has a legal move.
    #[error("illegal pass at ply {0}")]
    IllegalPass(usize),
    /// A move list token that is neither a coordinate nor a pass.
    #[error("bad move {0:?} at ply {1}")]
    BadMove(String, usize),
    /// Text left after a complete item.
    #[error("unexpected trailing text {0:?}")]
    Trailing(String),
    /// An error in a given line (1-based) of a multi-line text.
    #[error("line {0}: {1}")]
    AtLine(usize, Box<ParseError>),
    /// Bitboards with a disc of both sides on a square (only from formats that give the two
    /// sides apart).
    #[error(transparent)]
    Board(#[from] BoardError),
    /// An empty line where an item was expected.
    #[error("empty input")]
    Empty,
}

impl FromStr for Square {
    type Err = ParseError;

    /// Parses a coordinate "A1".."H8" (case-insensitive, surrounding whitespace ignored); a
    /// pass is no coordinate (move lists and GGF read it themselves).
    ///
    /// # Errors
    /// [`ParseError::BadSquare`] when the text is not a coordinate.
    fn from_str(s: &str) -> Result<Square, ParseError> {
        Square::from_coordinate(s.trim().as_bytes())
            .ok_or_else(|| ParseError::BadSquare(s.to_string()))
    }
}
