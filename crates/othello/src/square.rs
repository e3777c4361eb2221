//! Squares and their names: A1 = 0, B1 = 1, ..., H1 = 7, A2 = 8, ..., H8 = 63 (Edax convention:
//! square = 8 * (row - 1) + column, column a..h = 0..7, row 1..8 from top to bottom), and the
//! pass, 64, one past the last square.
//!
//! [`Square`] is the one move type of the crate family: the game record, move lists, OBF and
//! GGF annotations and the engine's answers all use it. The bitboard layer ([`crate::Board`],
//! [`crate::flip()`], the kernels) and hot search loops work on raw indices and convert at their
//! boundary with [`Square::new`] / [`Square::index`]. This module is the bottom layer of the
//! crate: it uses no other module (its [`FromStr`](std::str::FromStr) impl lives beside the
//! error it returns, in `error`).

use std::fmt;

/// Upper-case names of the 64 squares, indexed by square.
const SQUARE_NAMES: [&str; 64] = [
    "A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "A2", "B2", "C2", "D2", "E2", "F2", "G2", "H2",
    "A3", "B3", "C3", "D3", "E3", "F3", "G3", "H3", "A4", "B4", "C4", "D4", "E4", "F4", "G4", "H4",
    "A5", "B5", "C5", "D5", "E5", "F5", "G5", "H5", "A6", "B6", "C6", "D6", "E6", "F6", "G6", "H6",
    "A7", "B7", "C7", "D7", "E7", "F7", "G7", "H7", "A8", "B8", "C8", "D8", "E8", "F8", "G8", "H8",
];

/// A move: one of the 64 squares, or [`Square::PASS`]. One byte (`repr(transparent)` over the
/// index 0..=64), so a line of moves costs what a `Vec<u8>` does.
///
/// ```
/// use ply_othello::Square;
/// let f5: Square = "f5".parse().unwrap();
/// assert_eq!((f5, f5.index(), f5.bit()), (Square::F5, 37, 1 << 37));
/// assert_eq!(f5.to_string(), "F5");
/// assert_eq!(Square::PASS.to_string(), "PS");
/// assert_eq!(Square::new(64), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $index:literal),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("Square ", stringify!($name), ".")]
                pub const $name: Square = Square($index);
            )*
        }
    };
}

square_consts! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The pass: index 64, one past the last square (Edax's `PASS`). The one definition of the
    /// crate family: code that keeps moves as bytes converts with [`Square::code`] and
    /// [`Square::from_code`].
    pub const PASS: Square = Square(64);

    /// The board square `index` (0..=63); `None` for anything else, the pass's 64 included.
    #[inline(always)]
    pub const fn new(index: usize) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The move of a one-byte code 0..=64 as search code stores it (64 = [`Square::PASS`]);
    /// `None` above 64.
    #[inline(always)]
    pub const fn from_code(code: u8) -> Option<Square> {
        if code <= 64 {
            Some(Square(code))
        } else {
            None
        }
    }

    /// The lowest square of `mask`, `None` when the mask is empty.
    #[inline(always)]
    pub const fn first(mask: u64) -> Option<Square> {
        if mask == 0 {
            None
        } else {
            Some(Square(mask.trailing_zeros() as u8))
        }
    }

    /// The squares of `mask`, from A1 to H8.
    pub fn iter(mask: u64) -> impl Iterator<Item = Square> {
        let mut m = mask;
        std::iter::from_fn(move || {
            let sq = Square::first(m)?;
            m &= m - 1;
            Some(sq)
        })
    }

    /// Index 0..=63 of a square, 64 for the pass.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The one-byte code 0..=64 (the inverse of [`Square::from_code`]).
    #[inline(always)]
    pub const fn code(self) -> u8 {
        self.0
    }

    /// True for [`Square::PASS`].
    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.0 == 64
    }

    /// Bit mask of the square, 0 for the pass.
    #[inline(always)]
    pub const fn bit(self) -> u64 {
        if self.0 < 64 {
            1u64 << self.0
        } else {
            0
        }
    }

    /// Upper-case name: "A1".."H8", "PS" for the pass.
    pub const fn name(self) -> &'static str {
        if self.0 < 64 {
            SQUARE_NAMES[self.0 as usize]
        } else {
            "PS"
        }
    }

    /// The square of a two-byte coordinate such as `b"f5"` (column letter, row digit;
    /// case-insensitive); `None` for anything else (a pass is not a coordinate).
    pub const fn from_coordinate(b: &[u8]) -> Option<Square> {
        match b {
            [c, r] => {
                let col = c.to_ascii_lowercase().wrapping_sub(b'a');
                let row = r.wrapping_sub(b'1');
                if col < 8 && row < 8 {
                    Some(Square(8 * row + col))
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    /// "A1".."H8", "PS" for the pass.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_indices_and_bits() {
        for i in 0..64 {
            let sq = Square::new(i).unwrap();
            assert_eq!(sq.index(), i);
            assert_eq!(sq.bit(), 1 << i);
            assert_eq!(Square::from_coordinate(sq.name().as_bytes()), Some(sq));
            assert_eq!(Square::from_code(sq.code()), Some(sq));
        }
        assert_eq!(
            (Square::A1.index(), Square::H1.index(), Square::H8.index()),
            (0, 7, 63)
        );
        assert_eq!(Square::PASS.index(), 64);
        assert_eq!(Square::PASS.bit(), 0);
        assert!(Square::PASS.is_pass() && !Square::H8.is_pass());
        assert_eq!(Square::from_code(64), Some(Square::PASS));
        assert_eq!(Square::from_code(65), None);
        assert_eq!(Square::from_coordinate(b"i1"), None);
        assert_eq!(format!("{:>3}|{:?}", Square::C4, Square::PASS), " C4|PS");
        assert_eq!(
            Square::iter(1 | 1 << 63).collect::<Vec<_>>(),
            [Square::A1, Square::H8]
        );
        assert_eq!(Square::first(0), None);
    }
}
