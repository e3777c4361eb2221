//! Attack sets. Leaper tables (pawn, knight, king) and the `between`/`line` tables are built by
//! `const fn` at compile time; sliding attacks come from the build-script tables behind [`crate::Sliders`].
//! The free functions here use the process's slider lookup ([`crate::with_sliders!`], chosen once
//! by [`crate::Pext::detect`]); hot loops take a [`crate::Sliders`] token and dispatch once outside
//! the loop.

use crate::ray::ray;
use crate::sliders::Sliders;
use crate::with_sliders;
use crate::{Bitboard, Color, Role, Square};

/// Attack table of a leaper given by its (file, rank) steps.
const fn leaper_table(steps: &[(i32, i32)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            let f = (sq % 8) as i32 + steps[i].0;
            let r = (sq / 8) as i32 + steps[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                t[sq] |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// `BETWEEN[a][b]`: squares strictly between two aligned squares; `LINE[a][b]`: the whole line
/// through both (edge to edge). Both empty when the squares are not on a common line.
const fn line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRS[d];
            let full = ray(a, df, dr, 0) | ray(a, -df, -dr, 0) | 1 << a;
            let mut f = (a % 8) as i32 + df;
            let mut r = (a / 8) as i32 + dr;
            let mut acc = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                between[a][b] = acc;
                line[a][b] = full;
                acc |= 1 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = line_tables();

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a bishop on `sq` attacks given the occupied squares `occ` (the process's slider lookup,
/// [`Pext::detect`](crate::Pext::detect)).
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    with_sliders!(|s| s.bishop(sq, occ))
}

/// Squares a rook on `sq` attacks given the occupied squares `occ` (the process's slider lookup,
/// [`Pext::detect`](crate::Pext::detect)).
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    with_sliders!(|s| s.rook(sq, occ))
}

/// Squares a queen on `sq` attacks given the occupied squares `occ`.
#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    with_sliders!(|s| s.queen(sq, occ))
}

/// Squares a piece attacks (a pawn's captures for pawns).
pub fn attacks(color: Color, role: Role, sq: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occ),
        Role::Rook => rook_attacks(sq, occ),
        Role::Queen => queen_attacks(sq, occ),
        Role::King => king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// The full line (edge to edge) through `a` and `b` when aligned; empty otherwise.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}

/// Whether `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// Slow reference: rook attacks by walking rays square by square (used to test the fast tables).
pub fn rook_attacks_slow(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    Bitboard(
        ray(s, 1, 0, occ.0) | ray(s, -1, 0, occ.0) | ray(s, 0, 1, occ.0) | ray(s, 0, -1, occ.0),
    )
}

/// Slow reference: bishop attacks by walking rays square by square.
pub fn bishop_attacks_slow(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    Bitboard(
        ray(s, 1, 1, occ.0) | ray(s, 1, -1, occ.0) | ray(s, -1, 1, occ.0) | ray(s, -1, -1, occ.0),
    )
}

const fn empty_board_rays(dirs_from: usize) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = dirs_from;
        while d < dirs_from + 4 {
            t[sq] |= ray(sq, DIRS[d].0, DIRS[d].1, 0);
            d += 1;
        }
        sq += 1;
    }
    t
}

static ROOK_RAYS: [u64; 64] = empty_board_rays(0);
static BISHOP_RAYS: [u64; 64] = empty_board_rays(4);

/// Rook attacks from `sq` on an empty board.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

/// Bishop attacks from `sq` on an empty board.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}
