//! Knights, bishops, rooks and queens: their attacks (kept in [`Attacks`] for the later terms),
//! mobility, attacks on the enemy king zone, and the piece terms (outposts, minors behind pawns,
//! closedness, bishop pawns, long diagonals, rooks on open files, the bishop pair).

use super::geometry::*;
use super::layout as at;
use super::tracer::{add, Tracer};
use crate::Score;
use ply_chess::{
    bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks, Bitboard, Color,
    Position, Role, Square,
};

/// Per-color attack maps, gathered while scoring pieces.
pub(super) struct Attacks {
    /// Squares attacked by each color (any piece, pawns and king included).
    pub(super) all: [Bitboard; 2],
    /// Squares attacked by each color's pawns.
    pub(super) pawns: [Bitboard; 2],
    /// Squares attacked by each color's knights and bishops.
    pub(super) minors: [Bitboard; 2],
    /// Squares attacked by each color's rooks.
    pub(super) rooks: [Bitboard; 2],
    /// Per color, per role (knight..queen): squares attacked by that role.
    pub(super) by_role: [[Bitboard; 4]; 2],
    /// Per color: its king and the squares around it.
    pub(super) zone: [Bitboard; 2],
    /// Per color, per role (knight..queen): squares of the enemy king zone attacked, counted
    /// once per attacking piece.
    pub(super) zone_hits: [[i32; 4]; 2],
    /// Pieces of each color attacking the enemy king zone.
    pub(super) king_attackers: [i32; 2],
}

impl Attacks {
    /// The attacks of the pawns and kings, and the king zones; the pieces' are added by
    /// [`pieces`].
    pub(super) fn new(pos: &Position) -> Attacks {
        let mut att = Attacks {
            all: [Bitboard::EMPTY; 2],
            pawns: [Bitboard::EMPTY; 2],
            minors: [Bitboard::EMPTY; 2],
            rooks: [Bitboard::EMPTY; 2],
            by_role: [[Bitboard::EMPTY; 4]; 2],
            zone: [Bitboard::EMPTY; 2],
            zone_hits: [[0; 4]; 2],
            king_attackers: [0; 2],
        };
        for color in Color::ALL {
            let us = color.index();
            att.pawns[us] = pawn_attack_set(color, pos.pieces(color, Role::Pawn));
            let k = pos.king(color);
            att.zone[us] = king_attacks(k) | Bitboard::from_square(k);
            att.all[us] = att.pawns[us] | king_attacks(k);
        }
        att
    }
}

/// How closed the pawn structure is: 0 (open) .. 8 (closed).
fn closedness(pos: &Position) -> usize {
    let white = pos.pieces(Color::White, Role::Pawn);
    let black = pos.pieces(Color::Black, Role::Pawn);
    let locked = (white.north(1) & black).count();
    ((white | black).count() + 2 * locked).div_ceil(3).min(8) as usize
}

/// Mobility, king-zone attacks and piece terms of every knight, bishop, rook and queen, their
/// attacks added to `att`.
pub(super) fn pieces<T: Tracer>(
    pos: &Position,
    att: &mut Attacks,
    t: &mut T,
    acc: &mut [Score; 2],
) {
    let occ = pos.occupied();
    let closedness = closedness(pos);
    for color in Color::ALL {
        let us = color.index();
        let mobility_area = !pos.by_color(color) & !att.pawns[1 - us];
        let enemy_zone = att.zone[1 - us];
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let ri = role.index() - 1;
            for sq in pos.pieces(color, role) {
                let attacks = match role {
                    Role::Knight => knight_attacks(sq),
                    Role::Bishop => bishop_attacks(sq, occ),
                    Role::Rook => rook_attacks(sq, occ),
                    _ => queen_attacks(sq, occ),
                };
                att.by_role[us][ri] |= attacks;
                att.all[us] |= attacks;
                let reach = (attacks & mobility_area).count() as usize;
                add(t, acc, color, at::MOBILITY[ri] + reach, 1);
                let zone_hits = (attacks & enemy_zone).count() as i32;
                if zone_hits > 0 {
                    att.zone_hits[us][ri] += zone_hits;
                    att.king_attackers[us] += 1;
                    add(t, acc, color, at::KING_ZONE_ATTACKS + ri, zone_hits);
                }
                match role {
                    Role::Knight => {
                        minor(pos, color, role, sq, att, t, acc);
                        add(t, acc, color, at::KNIGHT_CLOSEDNESS + closedness, 1);
                    }
                    Role::Bishop => minor(pos, color, role, sq, att, t, acc),
                    Role::Rook => {
                        rook(pos, color, sq, t, acc);
                        add(t, acc, color, at::ROOK_CLOSEDNESS + closedness, 1);
                    }
                    _ => {}
                }
            }
        }
        att.minors[us] = att.by_role[us][0] | att.by_role[us][1];
        att.rooks[us] = att.by_role[us][2];
        if pos.count(color, Role::Bishop) >= 2 {
            add(t, acc, color, at::BISHOP_PAIR, 1);
        }
    }
}

/// A knight or bishop on `sq`: outposts, a minor behind a pawn, and the bishop's own terms.
fn minor<T: Tracer>(
    pos: &Position,
    color: Color,
    role: Role,
    sq: Square,
    att: &Attacks,
    t: &mut T,
    acc: &mut [Score; 2],
) {
    let us = color.index();
    let r = relative_rank(color, sq);
    let their_pawns = pos.pieces(!color, Role::Pawn);
    let unassailable =
        (PASSED_SPAN[us][sq.index()] & ADJACENT_FILES[sq.file().index()] & their_pawns).is_empty();
    if (3..=5).contains(&r) && unassailable {
        let bishop = usize::from(role == Role::Bishop);
        let defended = usize::from(att.pawns[us].contains(sq));
        add(t, acc, color, at::OUTPOST + 2 * bishop + defended, 1);
    }
    if r < 7 && pos.by_role(Role::Pawn).contains(push_square(color, sq)) {
        add(t, acc, color, at::MINOR_BEHIND_PAWN, 1);
    }
    if role == Role::Bishop {
        bishop(pos, color, sq, t, acc);
    }
}

/// A bishop on `sq`: own pawns on its square color, and a long diagonal seeing the centre.
fn bishop<T: Tracer>(pos: &Position, color: Color, sq: Square, t: &mut T, acc: &mut [Score; 2]) {
    let shade = if Bitboard::LIGHT_SQUARES.contains(sq) {
        Bitboard::LIGHT_SQUARES
    } else {
        Bitboard::DARK_SQUARES
    };
    let same = (pos.pieces(color, Role::Pawn) & shade).count() as i32;
    if same > 0 {
        add(t, acc, color, at::BISHOP_PAWNS, same);
    }
    if LONG_DIAGONALS.contains(sq)
        && (bishop_attacks(sq, pos.by_role(Role::Pawn)) & CENTRE).count() >= 2
    {
        add(t, acc, color, at::BISHOP_LONG_DIAGONAL, 1);
    }
}

/// A rook on `sq`: an open or semi-open file.
fn rook<T: Tracer>(pos: &Position, color: Color, sq: Square, t: &mut T, acc: &mut [Score; 2]) {
    let file = file_set(sq.file().index());
    if (file & pos.pieces(color, Role::Pawn)).is_empty() {
        let index = if (file & pos.pieces(!color, Role::Pawn)).is_empty() {
            at::ROOK_OPEN_FILE
        } else {
            at::ROOK_SEMI_OPEN_FILE
        };
        add(t, acc, color, index, 1);
    }
}
