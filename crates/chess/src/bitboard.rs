//! `Bitboard`: a set of squares as one `u64`, bit `i` standing for square `i` (a1 = bit 0).

use crate::{File, Rank, Square};
use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares, one bit per square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The h-file.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// The first rank.
    pub const RANK_1: Bitboard = Bitboard(0xff);
    /// The eighth rank.
    pub const RANK_8: Bitboard = Bitboard(0xff << 56);
    /// Rank 1 and rank 8 together (where pawns may not stand).
    pub const BACK_RANKS: Bitboard = Bitboard(0xff | 0xff << 56);
    /// The 32 light squares (h1 is light).
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The 32 dark squares (a1 is dark).
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq as u8)
    }

    /// All squares of a file.
    #[inline]
    pub const fn from_file(file: File) -> Bitboard {
        Bitboard(Bitboard::FILE_A.0 << file as u8)
    }

    /// All squares of a rank.
    #[inline]
    pub const fn from_rank(rank: Rank) -> Bitboard {
        Bitboard(0xff << (8 * rank as u8))
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq as u8 & 1 != 0
    }

    /// Number of squares (population count).
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether the set holds two or more squares.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest square, if any.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(63 - self.0.leading_zeros() as u8))
        }
    }

    /// The only square of a one-square set (the lowest square otherwise; a1 when empty).
    #[inline(always)]
    pub const fn single(self) -> Square {
        Square::new(self.0.trailing_zeros() as u8)
    }

    /// Adds a square.
    #[inline(always)]
    pub fn add(&mut self, sq: Square) {
        self.0 |= 1 << sq as u8;
    }

    /// Removes a square.
    #[inline(always)]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1 << sq as u8);
    }

    /// Toggles a square.
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq as u8;
    }

    /// Removes and returns the lowest square.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<Square> {
        let sq = self.first();
        self.0 &= self.0.wrapping_sub(1);
        sq
    }

    /// Shifts every square `n` ranks up (towards rank 8); squares leaving the board vanish.
    #[inline(always)]
    pub const fn north(self, n: u32) -> Bitboard {
        Bitboard(self.0 << (n * 8))
    }

    /// Shifts every square `n` ranks down (towards rank 1).
    #[inline(always)]
    pub const fn south(self, n: u32) -> Bitboard {
        Bitboard(self.0 >> (n * 8))
    }

    /// Shifts one file towards h (squares on the h-file vanish).
    #[inline(always)]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::FILE_H.0) << 1)
    }

    /// Shifts one file towards a (squares on the a-file vanish).
    #[inline(always)]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::FILE_A.0) >> 1)
    }

    /// Shifts by a signed index delta (`+8` = one rank up); no file wrap handling.
    #[inline(always)]
    pub const fn shift(self, delta: i32) -> Bitboard {
        if delta >= 0 {
            Bitboard(self.0 << delta)
        } else {
            Bitboard(self.0 >> -delta)
        }
    }

    /// Mirrors top-bottom (rank 1 <-> rank 8).
    #[inline]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// Whether the two sets share a square.
    #[inline(always)]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// The squares of `self` not in `other`.
    #[inline(always)]
    pub const fn without(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Iterates the squares of a bitboard from a1 upwards.
#[derive(Clone, Copy, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::new(self.0.trailing_zeros() as u8);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl DoubleEndedIterator for Squares {
    #[inline]
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::new(63 - self.0.leading_zeros() as u8);
            self.0 ^= 1 << sq as u8;
            Some(sq)
        }
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    #[inline(always)]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

impl Bitboard {
    /// Iterates the squares from a1 upwards.
    #[inline(always)]
    pub fn iter(self) -> Squares {
        Squares(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for sq in iter {
            bb.add(sq);
        }
        bb
    }
}

impl fmt::Debug for Bitboard {
    /// Eight lines, rank 8 first, `X` for members.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = if self.contains(Square::new(rank * 8 + file)) {
                    'X'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
