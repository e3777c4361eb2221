//! The data file of `ply-othello datagen`: one position a line,
//! `<64 squares a1..h8: X black, O white, - empty> <side to move X|O> <score> <game> <kind>`,
//! where `score` is the label in discs from the side to move's view, `game` the index of the
//! game, and `kind` says what the score is ([`Kind`]): `exact`, the position's minimax value;
//! `played`, the game's final disc difference; `searched`, the value of the position's own
//! selective search. The first three fields are the label format `ply-othello train --labels`
//! reads, which also reads the kind (`exact` or not).

use ply_othello::Board;
use std::fmt;

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Black's discs.
    pub black: u64,
    /// White's discs.
    pub white: u64,
    /// Whether Black is to move.
    pub black_to_move: bool,
    /// The label in discs from the mover's side (what it is: [`Label::kind`]).
    pub score: i8,
    /// Index of its game.
    pub game: u64,
    /// What the score is.
    pub kind: Kind,
}

/// What a label's score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The game's final disc difference (`played`).
    Played,
    /// The value of a selective search of the position itself (`searched`).
    Searched,
    /// The position's exact minimax value (`exact`).
    Exact,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 3] = [Kind::Played, Kind::Searched, Kind::Exact];

    /// The word of the data line.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Played => "played",
            Kind::Searched => "searched",
            Kind::Exact => "exact",
        }
    }

    /// The kind a data line's word names.
    pub fn from_word(word: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.word() == word)
    }
}

impl Label {
    /// The position, side to move first.
    pub fn board(&self) -> Board {
        if self.black_to_move {
            Board::from_bits_unchecked(self.black, self.white)
        } else {
            Board::from_bits_unchecked(self.white, self.black)
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let squares: String = (0..64)
            .map(|i| {
                if self.black >> i & 1 != 0 {
                    'X'
                } else if self.white >> i & 1 != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        write!(
            f,
            "{squares} {} {} {} {}",
            if self.black_to_move { 'X' } else { 'O' },
            self.score,
            self.game,
            self.kind.word()
        )
    }
}

/// Why a data line could not be read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Not five space-separated fields.
    #[error("expected `<64 squares> <X|O> <score> <game> <exact|played|searched>`, got {0:?}")]
    Fields(String),
    /// The squares are not 64 of `X`, `O`, `-`.
    #[error("bad squares {0:?}")]
    Squares(String),
    /// The side is not `X` or `O`.
    #[error("bad side {0:?}")]
    Side(String),
    /// The score is not within -64..=64.
    #[error("bad score {0:?}")]
    Score(String),
    /// The game index is not an integer.
    #[error("bad game index {0:?}")]
    Game(String),
    /// The kind is not `exact`, `played` or `searched`.
    #[error("bad kind {0:?} (exact, played or searched)")]
    Kind(String),
}

impl std::str::FromStr for Label {
    type Err = RecordError;

    fn from_str(line: &str) -> Result<Label, RecordError> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [squares, side, score, game, kind] = fields[..] else {
            return Err(RecordError::Fields(line.to_string()));
        };
        let bad_squares = || RecordError::Squares(squares.to_string());
        if squares.len() != 64 {
            return Err(bad_squares());
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in squares.bytes().enumerate() {
            match c {
                b'X' => black |= 1 << i,
                b'O' => white |= 1 << i,
                b'-' => {}
                _ => return Err(bad_squares()),
            }
        }
        let black_to_move = match side {
            "X" => true,
            "O" => false,
            _ => return Err(RecordError::Side(side.to_string())),
        };
        let score: i8 = score
            .parse()
            .ok()
            .filter(|s: &i8| (-64..=64).contains(s))
            .ok_or_else(|| RecordError::Score(score.to_string()))?;
        let game = game
            .parse()
            .map_err(|_| RecordError::Game(game.to_string()))?;
        let kind = Kind::from_word(kind).ok_or_else(|| RecordError::Kind(kind.to_string()))?;
        Ok(Label {
            black,
            white,
            black_to_move,
            score,
            game,
            kind,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back_as_written() {
        let start = Board::start();
        let l = Label {
            black: start.player(),
            white: start.opponent(),
            black_to_move: true,
            score: -6,
            game: 42,
            kind: Kind::Played,
        };
        let line = l.to_string();
        assert_eq!(
            line,
            "---------------------------OX------XO--------------------------- X -6 42 played"
        );
        assert_eq!(line.parse::<Label>(), Ok(l.clone()));
        assert_eq!(l.board(), start);
        for kind in [Kind::Exact, Kind::Searched] {
            let l = Label { kind, ..l.clone() };
            assert!(l.to_string().ends_with(kind.word()));
            assert_eq!(l.to_string().parse::<Label>(), Ok(l));
        }
    }

    #[test]
    fn bad_lines_are_named() {
        let sq = "---------------------------OX------XO---------------------------";
        for (line, want) in [
            (
                format!("{sq} X 0 1"),
                RecordError::Fields(format!("{sq} X 0 1")),
            ),
            (
                format!("{} X 0 1 exact", &sq[1..]),
                RecordError::Squares(sq[1..].into()),
            ),
            (format!("{sq} B 0 1 exact"), RecordError::Side("B".into())),
            (
                format!("{sq} X 65 1 exact"),
                RecordError::Score("65".into()),
            ),
            (format!("{sq} X 0 -1 exact"), RecordError::Game("-1".into())),
            (
                format!("{sq} X 0 1 maybe"),
                RecordError::Kind("maybe".into()),
            ),
        ] {
            assert_eq!(line.parse::<Label>(), Err(want));
        }
    }
}
