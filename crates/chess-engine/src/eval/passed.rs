//! Passed pawns beyond their pawn-structure bonus: the stop square (empty, safe), the kings'
//! distances to it, a free path or a blockade. Depends on the pieces, so not cached.

use super::geometry::*;
use super::layout as at;
use super::params::PASSED_RANK_WEIGHT;
use super::pieces::Attacks;
use super::tracer::{add, Tracer};
use crate::Score;
use ply_chess::{Bitboard, Color, Position, Role};

/// The terms of the passed pawns `passed` (both colors' ones).
pub(super) fn passed_pawns<T: Tracer>(
    pos: &Position,
    passed: Bitboard,
    att: &Attacks,
    t: &mut T,
    acc: &mut [Score; 2],
) {
    let occ = pos.occupied();
    for color in Color::ALL {
        let us = color.index();
        let own_king = pos.king(color);
        let their_king = pos.king(!color);
        for sq in passed & pos.pieces(color, Role::Pawn) {
            let r = relative_rank(color, sq);
            let stop = push_square(color, sq);
            let empty = usize::from(!occ.contains(stop));
            let safe = usize::from(!att.all[1 - us].contains(stop));
            add(
                t,
                acc,
                color,
                at::PASSED_STOP + (2 * empty + safe) * 8 + r,
                1,
            );
            let w = PASSED_RANK_WEIGHT[r];
            if w == 0 {
                continue;
            }
            let them = their_king.distance(stop).min(5) as i32;
            let mine = own_king.distance(stop).min(5) as i32;
            add(t, acc, color, at::PASSED_KING_THEM, them * w);
            add(t, acc, color, at::PASSED_KING_US, mine * w);
            if occ.contains(stop) {
                add(t, acc, color, at::PASSED_BLOCKED, w);
            } else if !FORWARD_FILE[us][sq.index()].intersects(occ | att.all[1 - us]) {
                add(t, acc, color, at::PASSED_FREE_PATH, w);
            }
        }
    }
}
