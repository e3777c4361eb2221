//! Square masks shared by the solver: neighbours, lines through a square, quadrants and the
//! fixed square order of the empty list. All are `const` tables built by `const fn`.
//!
//! Square numbering follows Edax (`board.c`): A1 = bit 0 .. H1 = bit 7, A2 = bit 8 .. H8 = bit 63.

/// Bit of square `x`.
#[inline(always)]
pub const fn bit(x: usize) -> u64 {
    1u64 << x
}

/// The eight neighbours of each square: a move there can only flip if one holds an opponent disc.
pub static NEIGHBOUR: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut x = 0;
    while x < 64 {
        let (f, r) = ((x % 8) as i32, (x / 8) as i32);
        let mut m = 0u64;
        let mut df = -1;
        while df <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (nf, nr) = (f + df, r + dr);
                if (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                    m |= 1u64 << (nr * 8 + nf);
                }
                dr += 1;
            }
            df += 1;
        }
        t[x] = m;
        x += 1;
    }
    t
};

/// Builds the mask of the diagonal (`step` = 9, rising to the right) or anti-diagonal
/// (`step` = 7, rising to the left) through every square.
const fn diagonal_masks(step: i32) -> [u64; 64] {
    let mut t = [0u64; 64];
    let df = if step == 9 { 1 } else { -1 };
    let mut x = 0;
    while x < 64 {
        let (f0, r0) = ((x % 8) as i32, (x / 8) as i32);
        let mut m = 0u64;
        let mut k = -7;
        while k <= 7 {
            let (f, r) = (f0 + k * df, r0 + k);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                m |= 1u64 << (r * 8 + f);
            }
            k += 1;
        }
        t[x] = m;
        x += 1;
    }
    t
}

/// Diagonal (A1-H8 direction) through each square.
pub static DIAG9: [u64; 64] = diagonal_masks(9);
/// Anti-diagonal (H1-A8 direction) through each square.
pub static DIAG7: [u64; 64] = diagonal_masks(7);

/// Quadrant bit of each square (bit 0: A1-D4, bit 1: E1-H4, bit 2: A5-D8, bit 3: E5-H8), used for
/// parity: the parity word has the bit of each quadrant holding an odd number of empties.
pub static QUADRANT_ID: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut x = 0;
    while x < 64 {
        t[x] = 1 << ((x % 8 >= 4) as u32 + 2 * (x / 8 >= 4) as u32);
        x += 1;
    }
    t
};

/// Squares of the quadrants selected by a parity word (Edax `endgame.c`, `quadrant_mask`).
pub static QUADRANT_MASK: [u64; 16] = {
    let q = [
        0x0000_0000_0F0F_0F0Fu64,
        0x0000_0000_F0F0_F0F0,
        0x0F0F_0F0F_0000_0000,
        0xF0F0_F0F0_0000_0000,
    ];
    let mut t = [0u64; 16];
    let mut i = 0;
    while i < 16 {
        let mut j = 0;
        while j < 4 {
            if i & (1 << j) != 0 {
                t[i] |= q[j];
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Fixed order in which empties are listed (corners first, X-squares last), as Edax does: with
/// equal parity the earlier square is tried first.
pub const PRESORTED: [u8; 64] = [
    // corners
    0, 7, 56, 63, //
    // A/H-squares
    2, 5, 16, 23, 40, 47, 58, 61, //
    // centre 4x4 border
    18, 21, 42, 45, //
    // B-squares
    3, 4, 24, 31, 32, 39, 59, 60, //
    // inner edges
    19, 20, 26, 29, 34, 37, 43, 44, //
    27, 28, 35, 36, //
    // C-squares
    1, 6, 8, 15, 48, 55, 57, 62, //
    // inner ring
    10, 13, 17, 22, 41, 46, 50, 53, //
    11, 12, 25, 30, 33, 38, 51, 52, //
    // X-squares
    9, 14, 49, 54,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presorted_is_a_permutation() {
        let mut seen = 0u64;
        for &x in &PRESORTED {
            seen |= bit(x as usize);
        }
        assert_eq!(seen, u64::MAX);
    }

    #[test]
    fn masks_have_expected_shapes() {
        assert_eq!(NEIGHBOUR[0], 0x302);
        assert_eq!(NEIGHBOUR[63].count_ones(), 3);
        assert_eq!(NEIGHBOUR[27].count_ones(), 8);
        assert_eq!(DIAG9[0], 0x8040_2010_0804_0201);
        assert_eq!(DIAG7[7], 0x0102_0408_1020_4080);
        assert_eq!(QUADRANT_ID[0], 1);
        assert_eq!(QUADRANT_ID[63], 8);
        assert_eq!(QUADRANT_MASK[15], u64::MAX);
    }
}
