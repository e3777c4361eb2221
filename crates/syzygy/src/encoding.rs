//! Index encoding of Syzygy tables: the constant maps that turn a placement of pieces into a table index.
//!
//! Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63. The scheme (Ronald de Man's explanation in
//! the talkchess thread "Question to syzygy author"): the leading piece is mirrored into the
//! a1-d1-d4 triangle, pieces on the a1-h8 diagonal force the next piece on or below it, like pieces
//! are placed together with binomial coefficients, and tables with pawns are split by the file
//! (a-d) of the leading pawn. All tables here are `const` and built at compile time.

/// Rank (0..8) minus file (0..8): zero on the a1-h8 diagonal, negative below it.
#[inline]
pub(crate) const fn off_diagonal(sq: u8) -> i8 {
    (sq >> 3) as i8 - (sq & 7) as i8
}

/// Mirror a square in the a1-h8 diagonal (a3 <-> c1).
#[inline]
pub(crate) const fn flip_diagonal(sq: u8) -> u8 {
    ((sq >> 3) | (sq << 3)) & 63
}

/// Squares below the a1-h8 diagonal (b1-h1-h7 triangle) numbered 0..28 in square order.
pub(crate) const MAP_B1H1H7: [u8; 64] = {
    let mut map = [0u8; 64];
    let mut code = 0;
    let mut sq = 0;
    while sq < 64 {
        if off_diagonal(sq as u8) < 0 {
            map[sq] = code;
            code += 1;
        }
        sq += 1;
    }
    map
};

/// The a1-d1-d4 triangle numbered 0..10: the six squares below the diagonal first (b1 = 0), then the
/// diagonal a1, b2, c3, d4 as 6..10. Squares outside the triangle map to 0 and are never looked up.
pub(crate) const MAP_A1D1D4: [u8; 64] = {
    let mut map = [0u8; 64];
    let mut code = 0;
    let mut sq = 0;
    while sq <= 27 {
        if off_diagonal(sq as u8) < 0 && (sq & 7) <= 3 {
            map[sq] = code;
            code += 1;
        }
        sq += 1;
    }
    sq = 0;
    while sq <= 27 {
        if off_diagonal(sq as u8) == 0 && (sq & 7) <= 3 {
            map[sq] = code;
            code += 1;
        }
        sq += 1;
    }
    map
};

const fn kings_touch(a: usize, b: usize) -> bool {
    let df = (a & 7) as i32 - (b & 7) as i32;
    let dr = (a >> 3) as i32 - (b >> 3) as i32;
    df >= -1 && df <= 1 && dr >= -1 && dr <= 1
}

/// The 462 legal placements of two kings with the first king in the a1-d1-d4 triangle (indexed by
/// [`MAP_A1D1D4`]) and, when it is on the diagonal, the second king on or below the diagonal. Placements with
/// both kings on the diagonal come last. Unused entries are 0.
pub(crate) const MAP_KK: [[u16; 64]; 10] = {
    let mut map = [[0u16; 64]; 10];
    let mut code: u16 = 0;
    // (triangle index, second square) pairs with both kings on the diagonal, numbered at the end.
    let mut both = [(0usize, 0usize); 64];
    let mut n_both = 0;
    let mut idx = 0;
    while idx < 10 {
        let mut s1 = 0;
        while s1 <= 27 {
            let in_triangle = (s1 & 7) <= 3 && off_diagonal(s1 as u8) <= 0;
            if in_triangle && MAP_A1D1D4[s1] as usize == idx {
                let mut s2 = 0;
                while s2 < 64 {
                    let on1 = off_diagonal(s1 as u8) == 0;
                    if kings_touch(s1, s2) || (on1 && off_diagonal(s2 as u8) > 0) {
                        // illegal or mirrored away
                    } else if on1 && off_diagonal(s2 as u8) == 0 {
                        both[n_both] = (idx, s2);
                        n_both += 1;
                    } else {
                        map[idx][s2] = code;
                        code += 1;
                    }
                    s2 += 1;
                }
            }
            s1 += 1;
        }
        idx += 1;
    }
    let mut i = 0;
    while i < n_both {
        map[both[i].0][both[i].1] = code;
        code += 1;
        i += 1;
    }
    assert!(code == 462);
    map
};

/// Maximum number of pieces in a table this prober accepts (7-piece Syzygy).
pub(crate) const MAX_PIECES: usize = 7;

/// `BINOMIAL[k][n]` = n choose k, for k < 7 and n < 64.
pub(crate) const BINOMIAL: [[u64; 64]; MAX_PIECES] = {
    let mut b = [[0u64; 64]; MAX_PIECES];
    let mut n = 0;
    while n < 64 {
        let mut k = 0;
        while k < MAX_PIECES {
            b[k][n] = if k == 0 {
                1
            } else if n == 0 {
                0
            } else {
                b[k - 1][n - 1] + b[k][n - 1]
            };
            k += 1;
        }
        n += 1;
    }
    b
};

/// For a pawn square (a2..h7): how many squares remain for the other leading pawns when this pawn is the
/// leading one. The leading pawn is the one with the highest value: nearest the edge, then lowest rank.
pub(crate) const MAP_PAWNS: [u8; 64] = {
    let mut map = [0u8; 64];
    let mut avail = 47u8;
    let mut file = 0;
    while file < 4 {
        let mut rank = 1;
        while rank <= 6 {
            let sq = rank * 8 + file;
            map[sq] = avail;
            avail = avail.wrapping_sub(1);
            map[sq ^ 7] = avail;
            avail = avail.wrapping_sub(1);
            rank += 1;
        }
        file += 1;
    }
    map
};

/// `LEAD_PAWN_IDX[count][sq]`: index offset of a leading pawn group of `count` pawns whose leading pawn
/// stands on `sq` (file a-d), and `LEAD_PAWNS_SIZE[count][file]` the size of that file's sub-table.
pub(crate) const LEAD_PAWN_IDX: [[u64; 64]; 7] = lead_pawn_tables().0;
/// See [`LEAD_PAWN_IDX`].
pub(crate) const LEAD_PAWNS_SIZE: [[u64; 4]; 7] = lead_pawn_tables().1;

const fn lead_pawn_tables() -> ([[u64; 64]; 7], [[u64; 4]; 7]) {
    let mut idx_table = [[0u64; 64]; 7];
    let mut size = [[0u64; 4]; 7];
    let mut count = 1;
    while count < 7 {
        let mut file = 0;
        while file < 4 {
            let mut idx = 0u64;
            let mut rank = 1;
            while rank <= 6 {
                let sq = rank * 8 + file;
                idx_table[count][sq] = idx;
                idx += BINOMIAL[count - 1][MAP_PAWNS[sq] as usize];
                rank += 1;
            }
            size[count][file] = idx;
            file += 1;
        }
        count += 1;
    }
    (idx_table, size)
}

/// Number of "111" placements of three unique leading pieces (de Man, "Question to syzygy author").
pub(crate) const UNIQUE3_SIZE: u64 = 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + 4 * 7 * 6;

/// Index of three unique leading pieces ("111" encoding; de Man, "Question to syzygy author"),
/// squares already normalised: the first in the a1-d1-d4 triangle, and each piece on the diagonal
/// forcing the next on or below it.
#[inline]
pub(crate) fn encode_unique3(s0: u8, s1: u8, s2: u8) -> u64 {
    let adjust1 = u64::from(s1 > s0);
    let adjust2 = u64::from(s2 > s0) + u64::from(s2 > s1);
    let (s0, s1, s2) = (s0 as usize, s1 as usize, s2 as usize);
    let rank = |s: usize| (s >> 3) as u64;
    if off_diagonal(s0 as u8) != 0 {
        (u64::from(MAP_A1D1D4[s0]) * 63 + (s1 as u64 - adjust1)) * 62 + s2 as u64 - adjust2
    } else if off_diagonal(s1 as u8) != 0 {
        (6 * 63 + rank(s0) * 28 + u64::from(MAP_B1H1H7[s1])) * 62 + s2 as u64 - adjust2
    } else if off_diagonal(s2 as u8) != 0 {
        6 * 63 * 62
            + 4 * 28 * 62
            + rank(s0) * 7 * 28
            + (rank(s1) - adjust1) * 28
            + u64::from(MAP_B1H1H7[s2])
    } else {
        6 * 63 * 62
            + 4 * 28 * 62
            + 4 * 7 * 28
            + rank(s0) * 7 * 6
            + (rank(s1) - adjust1) * 6
            + (rank(s2) - adjust2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangle_and_lower_maps() {
        assert_eq!(MAP_A1D1D4[1], 0); // b1
        assert_eq!(MAP_A1D1D4[19], 5); // d3
        assert_eq!(MAP_A1D1D4[0], 6); // a1
        assert_eq!(MAP_A1D1D4[27], 9); // d4
        assert_eq!(MAP_B1H1H7[1], 0);
        assert_eq!(MAP_B1H1H7[55], 27); // h7
    }

    #[test]
    fn binomials_and_pawn_sizes() {
        assert_eq!(BINOMIAL[2][62], 62 * 61 / 2);
        assert_eq!(BINOMIAL[3][10], 120);
        // One leading pawn: six ranks per file, so six placements per file.
        assert_eq!(LEAD_PAWNS_SIZE[1], [6, 6, 6, 6]);
        assert_eq!(MAP_PAWNS[8], 47); // a2
        assert_eq!(MAP_PAWNS[15], 46); // h2
    }

    #[test]
    fn unique3_covers_its_range() {
        // The largest index is reached with all three pieces on the diagonal, in descending order.
        let max = encode_unique3(27, 63, 54);
        assert!(max < UNIQUE3_SIZE);
    }
}
