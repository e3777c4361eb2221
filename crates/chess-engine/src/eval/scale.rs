//! The endgame half's last adjustments: the complexity (how much play is left) and the endgame
//! scale factor for drawish material.

use super::layout::Term;
use super::layout::{self as at, COMPLEXITY_LEN};
use super::nonlinear;
use super::params::*;
use super::tracer::Tracer;
use super::weights::WEIGHTS;
use crate::Score;
use ply_chess::{Bitboard, Color, Position, Role};

/// The complexity adjustment of White's sum `total`, reported to `t` (for the side it favours)
/// and added to `total`.
pub(super) fn complexity<T: Tracer>(pos: &Position, t: &mut T, total: &mut Score) {
    const QUEENSIDE: Bitboard = Bitboard(0x0f0f_0f0f_0f0f_0f0f);
    let pawns = pos.by_role(Role::Pawn);
    let both_wings = pawns.intersects(QUEENSIDE) && pawns.intersects(!QUEENSIDE);
    let pieces = pos.occupied() & !pawns & !pos.by_role(Role::King);
    let counts: [i32; COMPLEXITY_LEN] = [
        pawns.count() as i32,
        i32::from(both_wings),
        i32::from(pieces.is_empty()),
        1,
    ];
    t.complexity(&counts);
    let adjust = nonlinear::complexity(&counts, total.eg() as i32, &WEIGHTS);
    if adjust != 0 {
        let (side, s) = if adjust > 0 {
            (Color::White, Score::new(0, adjust as i16))
        } else {
            (Color::Black, Score::new(0, -adjust as i16))
        };
        t.value(Term::Complexity, side, s);
        *total += Score::new(0, adjust as i16);
    }
}

/// The material weight of `role` (not the king).
fn material(role: Role) -> Score {
    WEIGHTS[at::MATERIAL + role.index()]
}

/// Endgame scale factor (out of `SCALE_NORMAL`) for material that wins less often than it looks.
pub(super) fn endgame_scale(pos: &Position, total: Score) -> i32 {
    let strong = if total.eg() >= 0 {
        Color::White
    } else {
        Color::Black
    };
    let weak = !strong;
    let non_pawn = |c: Color| -> i32 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| material(r).eg() as i32 * pos.count(c, r) as i32)
            .sum()
    };
    if pos.count(strong, Role::Pawn) == 0
        && non_pawn(strong) - non_pawn(weak) <= material(Role::Bishop).eg() as i32
    {
        return SCALE_NO_PAWNS_MINOR_UP;
    }
    let count = |c: Color, r: Role| pos.count(c, r) as i32;
    // `c`'s knights, bishops, rooks and queens that are not `r`
    let others = |c: Color, r: Role| {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .filter(|&&x| x != r)
            .map(|&x| count(c, x))
            .sum::<i32>()
    };
    let b = pos.by_role(Role::Bishop);
    let opposite_bishops = count(Color::White, Role::Bishop) == 1
        && count(Color::Black, Role::Bishop) == 1
        && b.intersects(Bitboard::LIGHT_SQUARES)
        && b.intersects(Bitboard::DARK_SQUARES);
    if opposite_bishops {
        let rest = |c: Color| others(c, Role::Bishop);
        if rest(Color::White) == 0 && rest(Color::Black) == 0 {
            return SCALE_OCB;
        }
        // one more knight or rook each (the bishop is the one other piece), nothing else
        for r in [Role::Knight, Role::Rook] {
            let only = |c: Color| count(c, r) == 1 && others(c, r) == 1;
            if only(Color::White) && only(Color::Black) {
                return if r == Role::Knight {
                    SCALE_OCB_KNIGHTS
                } else {
                    SCALE_OCB_ROOKS
                };
            }
        }
    }
    // the fewer pawns the stronger side has left, the harder it is to win
    (SCALE_FEW_PAWNS + SCALE_PER_PAWN * count(strong, Role::Pawn)).min(SCALE_NORMAL)
}
