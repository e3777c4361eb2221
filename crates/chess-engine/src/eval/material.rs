//! Material and piece-square tables, and the game phase.

use super::geometry::relative_square;
use super::layout as at;
use super::params::{MAX_PHASE, PHASE_WEIGHT};
use super::tracer::{add, Tracer};
use crate::Score;
use ply_chess::{Color, Position, Role};

/// Material (every piece but the kings) and the piece-square table entry of every piece.
pub(super) fn material_and_psqt<T: Tracer>(pos: &Position, t: &mut T, acc: &mut [Score; 2]) {
    for color in Color::ALL {
        for role in Role::ALL {
            let set = pos.pieces(color, role);
            if role != Role::King {
                add(
                    t,
                    acc,
                    color,
                    at::MATERIAL + role.index(),
                    set.count() as i32,
                );
            }
            for sq in set {
                let index = at::PSQT + role.index() * 64 + relative_square(color, sq);
                add(t, acc, color, index, 1);
            }
        }
    }
}

/// The game phase of `pos` (`MAX_PHASE` with all pieces, 0 with pawns and kings only).
pub fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for color in Color::ALL {
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            p += PHASE_WEIGHT[role.index()] * pos.count(color, role) as i32;
        }
    }
    p.min(MAX_PHASE)
}
