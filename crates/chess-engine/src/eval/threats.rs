//! Threats (pieces attacked by lesser pieces, hanging pieces and pawns, attacks after a safe
//! pawn push) and space.

use super::geometry::*;
use super::layout as at;
use super::pieces::Attacks;
use super::tracer::{add, Tracer};
use crate::Score;
use ply_chess::{king_attacks, Bitboard, Color, Position, Role};

/// `color`'s threats against the enemy.
pub(super) fn threats<T: Tracer>(
    pos: &Position,
    color: Color,
    att: &Attacks,
    t: &mut T,
    acc: &mut [Score; 2],
) {
    let (us, them) = (color.index(), 1 - color.index());
    let theirs = pos.by_color(!color);
    let their_pieces = theirs & !pos.by_role(Role::Pawn) & !pos.by_role(Role::King);
    let their_rooks_queens = theirs & (pos.by_role(Role::Rook) | pos.by_role(Role::Queen));
    let their_minors = theirs & (pos.by_role(Role::Knight) | pos.by_role(Role::Bishop));
    let their_pawns = pos.pieces(!color, Role::Pawn);
    let own_pawns = pos.pieces(color, Role::Pawn);
    let pushes = forward(color, own_pawns, 1) & !pos.occupied();
    let safe_pushes = pushes & !att.pawns[them] & (att.all[us] | !att.all[them]);
    for (index, set) in [
        (at::THREAT_BY_PAWN, att.pawns[us] & their_pieces),
        (at::THREAT_BY_MINOR, att.minors[us] & their_rooks_queens),
        (
            at::THREAT_BY_ROOK,
            att.rooks[us] & pos.pieces(!color, Role::Queen),
        ),
        (at::HANGING, att.all[us] & their_pieces & !att.all[them]),
        (at::THREAT_MINOR_BY_MINOR, att.minors[us] & their_minors),
        (
            at::THREAT_BY_KING,
            king_attacks(pos.king(color)) & their_pieces,
        ),
        (at::WEAK_PAWN, att.all[us] & their_pawns & !att.all[them]),
        (
            at::PAWN_PUSH_THREAT,
            pawn_attack_set(color, safe_pushes) & their_pieces,
        ),
    ] {
        let n = set.count() as i32;
        if n > 0 {
            add(t, acc, color, index, n);
        }
    }
}

/// `color`'s space: the safe central squares on its side, twice when behind an own pawn.
pub(super) fn space<T: Tracer>(
    pos: &Position,
    color: Color,
    att: &Attacks,
    t: &mut T,
    acc: &mut [Score; 2],
) {
    let own_pawns = pos.pieces(color, Role::Pawn);
    let (area, behind): (Bitboard, Bitboard) = match color {
        Color::White => (
            SPACE_AREA,
            own_pawns.south(1) | own_pawns.south(2) | own_pawns.south(3),
        ),
        Color::Black => (
            SPACE_AREA.flip_vertical(),
            own_pawns.north(1) | own_pawns.north(2) | own_pawns.north(3),
        ),
    };
    let safe = area & !own_pawns & !att.pawns[1 - color.index()];
    let space = (safe.count() + (safe & behind).count()) as i32;
    if space > 0 {
        add(t, acc, color, at::SPACE, space);
    }
}
