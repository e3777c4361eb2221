//! Squares, files and ranks: `0 = a1, 1 = b1, .., 63 = h8` (little-endian rank-file mapping, as on the
//! Chess Programming Wiki), so that a square index is also the bit index in a [`crate::Bitboard`].

use core::fmt;

/// A file (column) a..h.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

/// A rank (row) 1..8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    First,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl File {
    /// All files from a to h.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index `i & 7` (0 = a).
    #[inline]
    pub const fn new(i: u8) -> File {
        File::ALL[(i & 7) as usize]
    }

    /// Index 0..8 (a = 0).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file of a lowercase or uppercase letter `a..h`.
    pub fn from_char(c: char) -> Option<File> {
        match c.to_ascii_lowercase() {
            c @ 'a'..='h' => Some(File::new(c as u8 - b'a')),
            _ => None,
        }
    }

    /// The lowercase letter of the file.
    pub fn char(self) -> char {
        (b'a' + self as u8) as char
    }
}

impl Rank {
    /// All ranks from 1 to 8.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index `i & 7` (0 = first rank).
    #[inline]
    pub const fn new(i: u8) -> Rank {
        Rank::ALL[(i & 7) as usize]
    }

    /// Index 0..8 (first rank = 0).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank of a digit `1..8`.
    pub fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::new(c as u8 - b'1')),
            _ => None,
        }
    }

    /// The digit of the rank.
    pub fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The same rank seen from the other side (1 <-> 8).
    #[inline]
    pub const fn flip(self) -> Rank {
        Rank::new(7 - self as u8)
    }
}

/// A square of the board, `A1 = 0 .. H8 = 63`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[rustfmt::skip]
#[allow(missing_docs)]
pub enum Square {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

impl Square {
    /// The square with index `i & 63`.
    #[inline(always)]
    pub const fn new(i: u8) -> Square {
        // SAFETY: `Square` is `repr(u8)` with the 64 discriminants 0..=63, and `i & 63` is in that range.
        unsafe { core::mem::transmute::<u8, Square>(i & 63) }
    }

    /// The square with index `i`, or `None` when `i >= 64`.
    #[inline]
    pub const fn try_new(i: usize) -> Option<Square> {
        if i < 64 {
            Some(Square::new(i as u8))
        } else {
            None
        }
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::new(rank as u8 * 8 + file as u8)
    }

    /// Index 0..64 (`a1 = 0`).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file of the square.
    #[inline]
    pub const fn file(self) -> File {
        File::new(self as u8 & 7)
    }

    /// The rank of the square.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::new(self as u8 >> 3)
    }

    /// Mirror top-bottom (a1 <-> a8): the same square seen from the other side.
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square::new(self as u8 ^ 56)
    }

    /// Mirror left-right (a1 <-> h1).
    #[inline]
    pub const fn flip_horizontal(self) -> Square {
        Square::new(self as u8 ^ 7)
    }

    /// The square `delta` steps further along the index (`+8` is one rank up), if on the board.
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self as i32 + delta;
        if 0 <= i && i < 64 {
            Some(Square::new(i as u8))
        } else {
            None
        }
    }

    /// Chebyshev (king-move) distance between two squares.
    pub const fn distance(self, other: Square) -> u32 {
        let df = (self as i32 & 7) - (other as i32 & 7);
        let dr = (self as i32 >> 3) - (other as i32 >> 3);
        let (df, dr) = (df.unsigned_abs(), dr.unsigned_abs());
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// Parses a square name such as `e4`.
    pub fn from_name(name: &str) -> Option<Square> {
        let mut chars = name.chars();
        let file = File::from_char(chars.next()?)?;
        let rank = Rank::from_char(chars.next()?)?;
        if chars.next().is_some() || name.as_bytes()[0].is_ascii_uppercase() {
            return None;
        }
        Some(Square::from_coords(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
