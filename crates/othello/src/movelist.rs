//! Move lists: coordinates one after another (`f5d6c3`, optionally separated by spaces, commas or
//! dashes), `PA`/`PS` for a pass (case-insensitive). Passes may also be left out: a move played when
//! the side to move has none is taken after an implicit pass (as in game records such as WTHOR).

use crate::{ParseError, Position, Square};

/// Reads the moves of a list (squares, or [`Square::PASS`]) without checking legality.
///
/// # Errors
/// [`ParseError::BadMove`] for a token that is neither a coordinate nor a pass.
pub fn parse_moves(s: &str) -> Result<Vec<Square>, ParseError> {
    let bytes: Vec<u8> = s
        .bytes()
        .filter(|b| !(b.is_ascii_whitespace() || *b == b',' || *b == b'-'))
        .collect();
    let mut out = Vec::with_capacity(bytes.len() / 2);
    for (ply, pair) in bytes.chunks(2).enumerate() {
        let m = match pair {
            [a, b]
                if matches!(
                    (a.to_ascii_lowercase(), b.to_ascii_lowercase()),
                    (b'p', b'a' | b's')
                ) =>
            {
                Square::PASS
            }
            _ => Square::from_coordinate(pair).ok_or_else(|| {
                ParseError::BadMove(String::from_utf8_lossy(pair).into_owned(), ply)
            })?,
        };
        out.push(m);
    }
    Ok(out)
}

/// Plays a list of moves (squares or [`Square::PASS`]) from `start`, checking each for legality and
/// inserting a pass when a move comes while the side to move has none.
///
/// # Errors
/// [`ParseError::IllegalMove`] / [`ParseError::IllegalPass`] with the 0-based index in `moves`.
pub fn play_moves(start: Position, moves: &[Square]) -> Result<Position, ParseError> {
    let mut pos = start;
    for (ply, &m) in moves.iter().enumerate() {
        let own = pos.board.moves();
        if m.is_pass() {
            if own != 0 || pos.board.opponent_moves() == 0 {
                return Err(ParseError::IllegalPass(ply));
            }
            pos.pass();
            continue;
        }
        if own == 0 && pos.board.opponent_moves() != 0 {
            pos.pass();
        }
        if !pos.play(m) {
            return Err(ParseError::IllegalMove(m.to_string(), ply));
        }
    }
    Ok(pos)
}

/// Parses a move list and plays it from `start`.
///
/// # Errors
/// As [`parse_moves`] and [`play_moves`].
pub fn parse_and_play(start: Position, s: &str) -> Result<Position, ParseError> {
    play_moves(start, &parse_moves(s)?)
}

/// Writes moves as lower-case coordinates without separators (`f5d6c3`), `pa` for a pass.
pub fn format_moves(moves: &[Square]) -> String {
    moves
        .iter()
        .map(|&m| {
            if m.is_pass() {
                "pa".to_string()
            } else {
                m.name().to_ascii_lowercase()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_format() {
        let m = parse_moves("f5d6 C3,pa-PS").unwrap();
        assert_eq!(
            m,
            [
                Square::F5,
                Square::D6,
                Square::C3,
                Square::PASS,
                Square::PASS
            ]
        );
        assert_eq!(format_moves(&m), "f5d6c3papa");
        assert_eq!(parse_moves("f5d"), Err(ParseError::BadMove("d".into(), 1)));
        assert_eq!(
            parse_moves("f5z1"),
            Err(ParseError::BadMove("z1".into(), 1))
        );
    }

    #[test]
    fn play() {
        let p = parse_and_play(Position::start(), "f5d6c3d3c4").unwrap();
        assert_eq!(p.side, crate::Color::White);
        assert_eq!(p.board.empty_count(), 55);
        assert_eq!(
            parse_and_play(Position::start(), "a1"),
            Err(ParseError::IllegalMove("A1".into(), 0))
        );
        assert_eq!(
            parse_and_play(Position::start(), "pa"),
            Err(ParseError::IllegalPass(0))
        );
    }
}
