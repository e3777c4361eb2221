//! PGN, the Portable Game Notation: games with their tags, comments, annotation glyphs (NAGs) and
//! variations, read from what GUIs and lichess export and written back in export format.
//!
//! [`read`] goes through a text of any number of games and yields each as a [`PgnGame`] or the
//! [`PgnError`] that names the game, the line and the move that could not be read; the games
//! after a bad one are still read. Every move is checked against the rules as it is read, from
//! the `FEN` tag's position when there is one. [`PgnGame`]'s `Display` writes the game back:
//! the seven-tag roster first, SAN moves, `{}` comments, `$n` glyphs, `( )` variations, lines of
//! at most 80 characters. [`PgnGame::tree`] and [`PgnGame::from_tree`] turn the moves and
//! variations into the flat move tree a GUI keeps and back.
//!
//! ```
//! use ply_chess::pgn;
//! let text = r#"[Event "Casual game"]
//! [Result "1-0"]
//!
//! 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? { 3... g6 holds } (3... g6 4. Qf3 Nf6) 4. Qxf7# 1-0"#;
//! let game = pgn::read(text).next().unwrap().unwrap();
//! assert_eq!(game.tag("Event"), Some("Casual game"));
//! assert_eq!(game.line.moves.len(), 7);
//! assert_eq!(game.line.moves[5].nags, [4]);
//! assert_eq!(game.line.moves[5].variations[0].moves.len(), 3);
//! assert!(game.game().position().is_checkmate());
//! // written back (with the rest of the seven-tag roster) and read again: the same moves
//! let again = pgn::read(&game.to_string()).next().unwrap().unwrap();
//! assert_eq!((&again.line, again.result), (&game.line, game.result));
//! assert_eq!(again.tag("White"), Some("?"));
//! ```

mod read;
mod tree;
mod write;

pub use read::{read, Reader};
pub use tree::{TreeError, TreeMove, MAX_NESTING};

use crate::{FenError, Game, GameResult, Move, MoveParseError, Position};

/// One game of a PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs in the order read (`Event`, `White`, `FEN`...).
    pub tags: Vec<(String, String)>,
    /// The position the moves start from: the `FEN` tag's, else the usual start.
    pub start: Position,
    /// The moves played, with the comments and variations met on the way.
    pub line: Line,
    /// The result written after the moves (the `Result` tag's when the moves end without one).
    pub result: GameResult,
}

/// A sequence of moves: a game's main line or a variation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The moves.
    pub moves: Vec<PgnMove>,
}

/// A move with what was written after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The move (legal in the position it was played from).
    pub mv: Move,
    /// Numeric annotation glyphs: `$1` or `!` is 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6.
    pub nags: Vec<u8>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Other moves that could have been played instead of this one (from the same position).
    pub variations: Vec<Line>,
}

impl PgnMove {
    /// A move with no annotation.
    pub fn new(mv: Move) -> PgnMove {
        PgnMove {
            mv,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

impl PgnGame {
    /// The value of tag `name` (names compare exactly, as PGN's do).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` (replacing its value where it is, else adding it at the end).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The main line as a [`Game`].
    pub fn game(&self) -> Game {
        let mut game = Game::new(self.start);
        for m in &self.line.moves {
            // every move was checked when read or built
            if game.play(m.mv).is_err() {
                break;
            }
        }
        game
    }

    /// A game record of `game`: the seven-tag roster with unknown values (`?`), its result by
    /// the rules, and `SetUp`/`FEN` (and `Variant`, for Chess960) when it does not start from
    /// the usual position.
    pub fn from_game(game: &Game) -> PgnGame {
        let result = game.result();
        let mut tags: Vec<(String, String)> = write::ROSTER
            .iter()
            .map(|&(n, unknown)| {
                let value = if n == "Result" {
                    result.as_str()
                } else {
                    unknown
                };
                (n.to_string(), value.to_string())
            })
            .collect();
        if game.chess960() {
            tags.push(("Variant".into(), "Chess960".into()));
        }
        let fen = game.start().to_fen();
        if fen != crate::STARTPOS {
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), fen));
        }
        PgnGame {
            tags,
            start: *game.start(),
            line: Line {
                comments: Vec::new(),
                moves: game.moves().iter().map(|&m| PgnMove::new(m)).collect(),
            },
            result,
        }
    }
}

/// Why a game of a PGN text could not be read: where, and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, line {line}: {kind}")]
pub struct PgnError {
    /// The game's number in the text (from 1).
    pub game: usize,
    /// The line of the text (from 1).
    pub line: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// What is wrong in a PGN game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnErrorKind {
    /// A tag pair that is not `[Name "value"]`.
    #[error("malformed tag pair: {0}")]
    Tag(String),
    /// The `FEN` tag is not a position.
    #[error("FEN tag: {0}")]
    Fen(FenError),
    /// A move that is not legal (or not readable) where it stands.
    #[error("move {number} {text}: {source}")]
    Move {
        /// The move's number as PGN writes it before the move (`12.` or `12...`).
        number: String,
        /// The move as written.
        text: String,
        /// Why it is not a move of that position.
        source: MoveParseError,
    },
    /// A `{` comment that never closes.
    #[error("a comment that never closes")]
    OpenComment,
    /// A variation that never closes.
    #[error("a variation that never closes")]
    OpenVariation,
    /// A `)` with no variation open.
    #[error("')' with no variation open")]
    StrayClose,
    /// A variation before any move of its line (it would replace nothing).
    #[error("a variation before any move")]
    VariationFirst,
    /// A token that is none of the above.
    #[error("unexpected '{0}'")]
    Unexpected(String),
}
