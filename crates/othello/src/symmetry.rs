//! The 8 symmetries of the board (dihedral group of the square) on bitboards and squares.
//!
//! Symmetry `s` in 0..8 is: transpose (A1-H8 diagonal) if `s & 4`, then mirror left-right if `s & 1`,
//! then flip top-bottom if `s & 2`. Symmetry 0 is the identity.

use crate::Board;

/// Swaps columns a..h with h..a (bit reversal within each byte).
#[inline(always)]
pub const fn mirror_horizontal(x: u64) -> u64 {
    x.reverse_bits().swap_bytes()
}

/// Swaps rows 1..8 with 8..1.
#[inline(always)]
pub const fn flip_vertical(x: u64) -> u64 {
    x.swap_bytes()
}

/// Reflects on the A1-H8 diagonal (square (col, row) goes to (row, col)): three delta swaps.
#[inline(always)]
pub const fn transpose(mut x: u64) -> u64 {
    let mut t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// Applies symmetry `s` (0..8, taken modulo 8) to a bitboard.
#[inline]
pub const fn symmetry(x: u64, s: usize) -> u64 {
    let mut y = if s & 4 != 0 { transpose(x) } else { x };
    if s & 1 != 0 {
        y = mirror_horizontal(y);
    }
    if s & 2 != 0 {
        y = flip_vertical(y);
    }
    y
}

/// Applies symmetry `s` to square `sq` (< 64).
#[inline]
pub const fn symmetry_square(sq: usize, s: usize) -> usize {
    let (mut col, mut row) = (sq % 8, sq / 8);
    if s & 4 != 0 {
        (col, row) = (row, col);
    }
    if s & 1 != 0 {
        col = 7 - col;
    }
    if s & 2 != 0 {
        row = 7 - row;
    }
    8 * row + col
}

/// The symmetry that undoes `s`: every symmetry is its own inverse except the two quarter turns
/// (5 and 6), which undo each other.
#[inline]
pub const fn inverse(s: usize) -> usize {
    match s & 7 {
        5 => 6,
        6 => 5,
        t => t,
    }
}

impl Board {
    /// The board transformed by symmetry `s` (see [`crate::symmetry`]).
    #[inline]
    pub const fn symmetry(&self, s: usize) -> Board {
        // A symmetry permutes squares, so disjoint bitboards stay disjoint.
        Board::from_bits_unchecked(symmetry(self.player(), s), symmetry(self.opponent(), s))
    }

    /// The smallest of the 8 symmetric boards (by `(player, opponent)`) and the symmetry giving it:
    /// a canonical form for opening books and symmetric transposition lookups.
    pub fn canonical(&self) -> (Board, usize) {
        let mut best = (*self, 0);
        for s in 1..8 {
            let b = self.symmetry(s);
            if (b.player(), b.opponent()) < (best.0.player(), best.0.opponent()) {
                best = (b, s);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_bitboards_agree() {
        for s in 0..8 {
            for sq in 0..64 {
                assert_eq!(
                    symmetry(1u64 << sq, s),
                    1u64 << symmetry_square(sq, s),
                    "s={s} sq={sq}"
                );
                assert_eq!(symmetry_square(symmetry_square(sq, s), inverse(s)), sq);
            }
        }
        // The 8 images of B1 are distinct: the symmetries are all different.
        let mut seen: Vec<usize> = (0..8).map(|s| symmetry_square(1, s)).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 8);
    }

    #[test]
    fn moves_commute_with_symmetries() {
        let mut b = Board::start();
        for sq in [37, 43, 34, 29, 20] {
            b.play(sq);
        }
        for s in 0..8 {
            let t = b.symmetry(s);
            assert_eq!(t.moves(), symmetry(b.moves(), s));
            let mv = b.moves().trailing_zeros() as usize;
            assert_eq!(t.flips(symmetry_square(mv, s)), symmetry(b.flips(mv), s));
            assert_eq!(t.hash() == b.hash(), s == 0 || t == b);
        }
        assert_eq!(b.canonical().0, b.symmetry(b.canonical().1));
    }
}
