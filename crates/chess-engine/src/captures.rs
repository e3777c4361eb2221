//! Captures and queen promotions only, for the quiescence search of a position not in check.
//!
//! The rules crate generates every legal move; quiescence needs only the tactical ones, so this
//! generator walks the attacks of each piece onto enemy pieces (and pawn pushes to the last rank)
//! and checks legality with the pin and king-safety facts the position already keeps. En passant
//! and under-promotions are left out (quiescence does not try them). A test compares the output
//! with the rules crate's legal moves on the shared perft positions.

use ply_chess::attacks::line;
use ply_chess::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks, Bitboard, Color,
    Magic, Move, MoveKind, MoveList, Position, Role,
};

/// Legal captures (except en passant) and queen promotions of `pos`, which must not be in check.
pub fn tactical_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    push_tactical_moves(pos, &mut list);
    list
}

/// [`tactical_moves`], appended to `list` (which a move picker reuses from node to node).
pub fn push_tactical_moves(pos: &Position, list: &mut MoveList) {
    debug_assert!(!pos.is_check());
    let us = pos.side_to_move();
    let them = !us;
    let occ = pos.occupied();
    let enemies = pos.by_color(them) & !pos.pieces(them, Role::King);
    let ksq = pos.king(us);
    let pinned = pos.pinned();
    let last_rank = match us {
        Color::White => Bitboard::RANK_8,
        Color::Black => Bitboard::RANK_1,
    };
    let legal_for_pin = |from, to| !pinned.contains(from) || line(ksq, from).contains(to);
    let captured = |to| pos.role_at(to);

    for role in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ] {
        for from in pos.pieces(us, role) {
            let targets = match role {
                Role::Pawn => pawn_attacks(us, from),
                Role::Knight => knight_attacks(from),
                Role::Bishop => bishop_attacks(from, occ),
                Role::Rook => rook_attacks(from, occ),
                _ => bishop_attacks(from, occ) | rook_attacks(from, occ),
            } & enemies;
            for to in targets {
                if !legal_for_pin(from, to) {
                    continue;
                }
                let kind = if role == Role::Pawn && last_rank.contains(to) {
                    MoveKind::PromoteQueen
                } else {
                    MoveKind::Normal
                };
                list.push(Move::new(from, to, role, captured(to), kind));
            }
            if role == Role::Pawn {
                let push = match us {
                    Color::White => from.offset(8),
                    Color::Black => from.offset(-8),
                };
                if let Some(to) = push {
                    if last_rank.contains(to) && !occ.contains(to) && legal_for_pin(from, to) {
                        list.push(Move::new(from, to, role, None, MoveKind::PromoteQueen));
                    }
                }
            }
        }
    }
    // King captures: the target must not be defended (seen with the king lifted off its square).
    let lifted = occ ^ Bitboard::from_square(ksq);
    for to in king_attacks(ksq) & enemies {
        if pos.attackers_with(to, them, lifted, Magic).is_empty() {
            list.push(Move::new(
                ksq,
                to,
                Role::King,
                captured(to),
                MoveKind::Normal,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(pos: &Position) {
        if pos.is_check() {
            return;
        }
        let mut expected: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| {
                (m.is_capture()
                    && !m.is_en_passant()
                    && m.promotion().is_none_or(|r| r == Role::Queen))
                    || m.promotion() == Some(Role::Queen)
            })
            .collect();
        let mut got: Vec<Move> = tactical_moves(pos).iter().copied().collect();
        expected.sort_by_key(|m| m.bits());
        got.sort_by_key(|m| m.bits());
        assert_eq!(got, expected, "{}", pos.to_fen());
    }

    #[test]
    fn matches_the_legal_move_generator() {
        let mut positions = Vec::new();
        // A missing file is a visible skip of that part (a failure under PLY_STRICT=1); the
        // bench positions below are checked either way.
        for file in [
            "chess/perft/perftsuite.epd",
            "chess/perft/cpw_positions.epd",
            "chess/suites/wac.epd",
        ] {
            let Some(text) = ply_testkit::shared_text(file) else {
                continue;
            };
            for line in text.lines() {
                let fen = line.split(';').next().unwrap_or("");
                if let Ok(p) = Position::from_fen(fen.trim()) {
                    positions.push(p);
                } else if let Ok((p, _)) = Position::from_epd(line) {
                    positions.push(p);
                }
            }
        }
        for fen in crate::bench::POSITIONS {
            positions.push(Position::from_fen(fen).unwrap());
        }
        // Walk a few plies from each position to reach pins, promotions and king captures.
        let mut n = 0;
        for root in positions {
            let mut frontier = vec![root];
            for _ in 0..2 {
                let mut next = Vec::new();
                for p in &frontier {
                    check(p);
                    n += 1;
                    for m in p.legal_moves().iter().take(12) {
                        next.push(p.play(*m));
                    }
                }
                frontier = next;
            }
        }
        assert!(n > 100);
    }
}
