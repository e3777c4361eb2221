//! The data file: one training position a line, `FEN;score;result;game`, where
//! - `FEN` is the position (six fields),
//! - `score` the search score of the position in centipawns from White's side,
//! - `result` the game's result from White's side: `1` (White won), `0.5` or `0`,
//! - `game` the index of the game it comes from (games of one seed are numbered from 0).
//!
//! A game's lines are written together and in the order of the game; a file is resumed from
//! the last game it holds (`ply_batch::run_framed`).

use std::fmt;

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position (FEN).
    pub fen: String,
    /// Search score, centipawns, from White's side.
    pub score: i32,
    /// Game result from White's side: 1, 0.5 or 0.
    pub result: f32,
    /// Index of its game.
    pub game: u64,
}

impl fmt::Display for Sample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{};{};{};{}",
            self.fen, self.score, self.result, self.game
        )
    }
}

/// Why a data line could not be read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Not four `;`-separated fields.
    #[error("expected FEN;score;result;game, got {0:?}")]
    Fields(String),
    /// The position is not a valid FEN.
    #[error("bad position {0:?}")]
    Position(String),
    /// The score is not an integer.
    #[error("bad score {0:?}")]
    Score(String),
    /// The result is not 1, 0.5 or 0.
    #[error("bad result {0:?} (1, 0.5 or 0)")]
    Result(String),
    /// The game index is not an integer.
    #[error("bad game index {0:?}")]
    Game(String),
}

impl std::str::FromStr for Sample {
    type Err = RecordError;

    fn from_str(line: &str) -> Result<Sample, RecordError> {
        let fields: Vec<&str> = line.trim_end().split(';').collect();
        let [fen, score, result, game] = fields[..] else {
            return Err(RecordError::Fields(line.to_string()));
        };
        if ply_chess::Position::from_fen(fen).is_err() {
            return Err(RecordError::Position(fen.to_string()));
        }
        let score = score
            .parse()
            .map_err(|_| RecordError::Score(score.to_string()))?;
        let result = match result {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            r => return Err(RecordError::Result(r.to_string())),
        };
        let game = game
            .parse()
            .map_err(|_| RecordError::Game(game.to_string()))?;
        Ok(Sample {
            fen: fen.to_string(),
            score,
            result,
            game,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

    fn sample(game: u64) -> Sample {
        Sample {
            fen: FEN.into(),
            score: -31,
            result: 0.5,
            game,
        }
    }

    #[test]
    fn a_line_reads_back_as_written() {
        let s = sample(7);
        let line = s.to_string();
        assert_eq!(line, format!("{FEN};-31;0.5;7"));
        assert_eq!(line.parse::<Sample>(), Ok(s));
    }

    #[test]
    fn bad_lines_are_named() {
        for (line, want) in [
            ("x;1;0;0", RecordError::Position("x".into())),
            (
                &format!("{FEN};1;0"),
                RecordError::Fields(format!("{FEN};1;0")),
            ),
            (&format!("{FEN};a;0;0"), RecordError::Score("a".into())),
            (&format!("{FEN};1;2;0"), RecordError::Result("2".into())),
            (&format!("{FEN};1;1;-1"), RecordError::Game("-1".into())),
        ] {
            assert_eq!(line.parse::<Sample>(), Err(want));
        }
    }
}
