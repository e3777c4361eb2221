//! A board with its side to move, and the 64-character text form: squares A1..H8 row by row,
//! `X`/`*`/`B` black, `O`/`W` white, `-`/`.` empty (case-insensitive, whitespace between squares
//! ignored), then the side to move (`X`/`*`/`B`/`Black` or `O`/`W`/`White`).

use crate::{Board, BoardError, Color, ParseError, Square};
use core::fmt;
use core::str::FromStr;

/// A position with its side to move; `board` is from the mover's view.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// Discs from the view of the side to move.
    pub board: Board,
    /// Who is to move.
    pub side: Color,
}

impl Position {
    /// The initial position, Black to move.
    pub const fn start() -> Position {
        Position {
            board: Board::start(),
            side: Color::Black,
        }
    }

    /// Position from black and white discs and the side to move.
    ///
    /// # Errors
    /// [`BoardError::Overlap`] when a square holds a disc of both colours.
    pub const fn from_colors(black: u64, white: u64, side: Color) -> Result<Position, BoardError> {
        let board = match side {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        };
        match board {
            Ok(board) => Ok(Position { board, side }),
            Err(e) => Err(e),
        }
    }

    /// Black's discs.
    pub const fn black(&self) -> u64 {
        match self.side {
            Color::Black => self.board.player(),
            Color::White => self.board.opponent(),
        }
    }

    /// White's discs.
    pub const fn white(&self) -> u64 {
        match self.side {
            Color::Black => self.board.opponent(),
            Color::White => self.board.player(),
        }
    }

    /// Plays `sq` for the side to move; returns false (and changes nothing) if it is illegal
    /// (a pass included: [`Position::pass`] passes).
    pub fn play(&mut self, sq: Square) -> bool {
        let ok = self.board.play(sq.index()) != 0;
        if ok {
            self.side = self.side.other();
        }
        ok
    }

    /// Passes (no legality check).
    pub fn pass(&mut self) {
        self.board.pass();
        self.side = self.side.other();
    }

    /// The 64 square characters (`X`, `O`, `-`) without the side to move.
    pub fn board_string(&self) -> String {
        let (b, w) = (self.black(), self.white());
        (0..64)
            .map(|sq| match (b >> sq & 1, w >> sq & 1) {
                (1, _) => 'X',
                (_, 1) => 'O',
                _ => '-',
            })
            .collect()
    }

    /// Reads the board squares at the start of `s` and returns the position's discs and the rest.
    pub(crate) fn parse_squares(s: &str) -> Result<(u64, u64, &str), ParseError> {
        let (mut black, mut white, mut n) = (0u64, 0u64, 0usize);
        for (i, c) in s.char_indices() {
            if n == 64 {
                return Ok((black, white, &s[i..]));
            }
            match c {
                'X' | 'x' | '*' | 'B' | 'b' => black |= 1 << n,
                'O' | 'o' | 'W' | 'w' => white |= 1 << n,
                '-' | '.' => {}
                c if c.is_whitespace() => continue,
                c => return Err(ParseError::BoardChar(c, n)),
            }
            n += 1;
        }
        if n == 64 {
            Ok((black, white, ""))
        } else if n == 0 {
            Err(ParseError::Empty)
        } else {
            Err(ParseError::BoardLength(n))
        }
    }

    /// Reads the board and side token at the start of `s`; returns the rest after the side token.
    pub(crate) fn parse_prefix(s: &str) -> Result<(Position, &str), ParseError> {
        let (black, white, rest) = Position::parse_squares(s)?;
        let rest = rest.trim_start();
        let end = rest
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(rest.len());
        let token = &rest[..end];
        if token.is_empty() {
            return Err(ParseError::MissingSide);
        }
        let side =
            Color::from_token(token).ok_or_else(|| ParseError::BadSide(token.to_string()))?;
        Ok((Position::from_colors(black, white, side)?, &rest[end..]))
    }
}

impl FromStr for Position {
    type Err = ParseError;

    /// Parses `<64 squares> <side>`, with an optional trailing `;`.
    fn from_str(s: &str) -> Result<Position, ParseError> {
        let (pos, rest) = Position::parse_prefix(s)?;
        let rest = rest.trim();
        let rest = rest.strip_prefix(';').unwrap_or(rest).trim();
        if !rest.is_empty() {
            return Err(ParseError::Trailing(rest.to_string()));
        }
        Ok(pos)
    }
}

impl fmt::Display for Position {
    /// `<64 squares> <X|O>`, the OBF board form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.board_string(), self.side.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let text = "---------------------------OX------XO--------------------------- X";
        let p: Position = text.parse().unwrap();
        assert_eq!(p, Position::start());
        assert_eq!(p.to_string(), text);
        let w: Position = text.replace(" X", " W").parse().unwrap();
        assert_eq!(w.side, Color::White);
        assert_eq!(w.black(), p.black());
    }

    #[test]
    fn errors() {
        assert_eq!("".parse::<Position>(), Err(ParseError::Empty));
        assert_eq!("XO-".parse::<Position>(), Err(ParseError::BoardLength(3)));
        assert_eq!(
            "XOZ".parse::<Position>(),
            Err(ParseError::BoardChar('Z', 2))
        );
        let board = "-".repeat(64);
        assert_eq!(board.parse::<Position>(), Err(ParseError::MissingSide));
        assert_eq!(
            format!("{board} Q").parse::<Position>(),
            Err(ParseError::BadSide("Q".into()))
        );
        assert_eq!(
            format!("{board} X x").parse::<Position>(),
            Err(ParseError::Trailing("x".into()))
        );
    }
}
