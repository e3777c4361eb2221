//! Parse errors of every text form (squares, boards, OBF lines, move lists).

use thiserror::Error;

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
    Board(#[from] crate::BoardError),
    /// An empty line where an item was expected.
    #[error("empty input")]
    Empty,
}
