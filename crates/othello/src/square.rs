//! Square indices and their names: A1 = 0, B1 = 1, ..., H1 = 7, A2 = 8, ..., H8 = 63 (Edax convention:
//! square = 8 * (row - 1) + column, column a..h = 0..7, row 1..8 from top to bottom).

use crate::error::ParseError;

/// Upper-case names of the 64 squares, indexed by square.
pub const SQUARE_NAMES: [&str; 64] = [
    "A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "A2", "B2", "C2", "D2", "E2", "F2", "G2", "H2",
    "A3", "B3", "C3", "D3", "E3", "F3", "G3", "H3", "A4", "B4", "C4", "D4", "E4", "F4", "G4", "H4",
    "A5", "B5", "C5", "D5", "E5", "F5", "G5", "H5", "A6", "B6", "C6", "D6", "E6", "F6", "G6", "H6",
    "A7", "B7", "C7", "D7", "E7", "F7", "G7", "H7", "A8", "B8", "C8", "D8", "E8", "F8", "G8", "H8",
];

/// The move value of a pass in move lists and OBF annotations (one past the last square).
pub const PASS: usize = 64;

/// Name of square `sq` ("A1".."H8"), "PS" for [`PASS`], "--" for anything larger.
pub fn square_name(sq: usize) -> &'static str {
    match sq {
        PASS => "PS",
        _ => SQUARE_NAMES.get(sq).copied().unwrap_or("--"),
    }
}

/// Square of a two-byte coordinate such as `b"f5"` (column letter, row digit; case-insensitive).
pub(crate) fn square_from_bytes(b: &[u8]) -> Option<usize> {
    match b {
        [c, r] => {
            let col = c.to_ascii_lowercase().wrapping_sub(b'a');
            let row = r.wrapping_sub(b'1');
            (col < 8 && row < 8).then_some(8 * row as usize + col as usize)
        }
        _ => None,
    }
}

/// Parses a coordinate "A1".."H8" (case-insensitive, surrounding whitespace ignored).
///
/// # Errors
/// [`ParseError::BadSquare`] when the text is not a coordinate.
pub fn parse_square(s: &str) -> Result<usize, ParseError> {
    square_from_bytes(s.trim().as_bytes()).ok_or_else(|| ParseError::BadSquare(s.to_string()))
}

/// Bit mask of square `sq` (0 when `sq >= 64`).
#[inline(always)]
pub const fn bit(sq: usize) -> u64 {
    if sq < 64 {
        1u64 << sq
    } else {
        0
    }
}
