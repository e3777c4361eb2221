//! Fixed square sets of the evaluation, built at compile time, and small square helpers.

use ply_chess::{Bitboard, Color, Square};

/// Squares strictly in front of `sq` on its file, per color.
const fn forward_file() -> [[Bitboard; 64]; 2] {
    let mut t = [[Bitboard::EMPTY; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let mut s = sq + 8;
        while s < 64 {
            t[0][sq].0 |= 1 << s;
            s += 8;
        }
        let mut s = sq as i32 - 8;
        while s >= 0 {
            t[1][sq].0 |= 1 << s;
            s -= 8;
        }
        sq += 1;
    }
    t
}
pub(super) static FORWARD_FILE: [[Bitboard; 64]; 2] = forward_file();

/// The files beside file `f`.
const fn adjacent_files() -> [Bitboard; 8] {
    let mut t = [Bitboard::EMPTY; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            t[f].0 |= Bitboard::FILE_A.0 << (f - 1);
        }
        if f < 7 {
            t[f].0 |= Bitboard::FILE_A.0 << (f + 1);
        }
        f += 1;
    }
    t
}
pub(super) static ADJACENT_FILES: [Bitboard; 8] = adjacent_files();

/// Squares in front of `sq` on its own and the adjacent files, per color: a pawn is passed when
/// no enemy pawn stands there.
const fn passed_span() -> [[Bitboard; 64]; 2] {
    let ff = forward_file();
    let mut t = [[Bitboard::EMPTY; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let f = sq % 8;
            let mut span = ff[c][sq].0;
            if f > 0 {
                span |= ff[c][sq - 1].0;
            }
            if f < 7 {
                span |= ff[c][sq + 1].0;
            }
            t[c][sq] = Bitboard(span);
            sq += 1;
        }
        c += 1;
    }
    t
}
pub(super) static PASSED_SPAN: [[Bitboard; 64]; 2] = passed_span();

/// The squares of file `f` (0 = a).
#[inline(always)]
pub(super) const fn file_set(f: usize) -> Bitboard {
    Bitboard(Bitboard::FILE_A.0 << f)
}

/// Rank of `sq` seen from `color` (0 = own back rank).
#[inline(always)]
pub(super) fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank().index(),
        Color::Black => 7 - sq.rank().index(),
    }
}

/// `set` moved `n` ranks forward from `color`'s side (squares leaving the board vanish).
#[inline(always)]
pub(super) fn forward(color: Color, set: Bitboard, n: u32) -> Bitboard {
    match color {
        Color::White => set.north(n),
        Color::Black => set.south(n),
    }
}

/// All squares attacked by the pawns `pawns` of `color`.
#[inline(always)]
pub(super) fn pawn_attack_set(color: Color, pawns: Bitboard) -> Bitboard {
    forward(color, pawns.west() | pawns.east(), 1)
}

/// The square in front of `sq` for `color`.
#[inline(always)]
pub(super) fn push_square(color: Color, sq: Square) -> Square {
    match color {
        Color::White => Square::new(sq as u8 + 8),
        Color::Black => Square::new(sq as u8 - 8),
    }
}

/// Index of `sq` seen from `color` (a1 = 0 from its own side: Black's squares are mirrored).
#[inline]
pub(super) fn relative_square(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    }
}

/// The two long diagonals (a1-h8, h1-a8).
pub(super) const LONG_DIAGONALS: Bitboard = Bitboard(0x8040_2010_0804_0201 | 0x0102_0408_1020_4080);
/// d4, e4, d5, e5.
pub(super) const CENTRE: Bitboard = Bitboard((1 << 27) | (1 << 28) | (1 << 35) | (1 << 36));
/// Files c to f on White's ranks 2 to 4 (Black's: mirrored, ranks 7 to 5).
pub(super) const SPACE_AREA: Bitboard = Bitboard(0x3c << 8 | 0x3c << 16 | 0x3c << 24);
