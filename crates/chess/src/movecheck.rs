//! One move checked on its own, without generating the others: the test a search runs on the move
//! from its transposition table, or a killer move found in a sibling node, before trying it.
//!
//! The check follows the generator's rules piece by piece (the piece's attack or push pattern, the
//! check mask, the pin line, a king that must not step into an attack) and returns the same packed
//! move the generator would. Castling and en passant, rare in tables and with more conditions, are
//! answered by generating the moving piece's moves. A test compares the answer with the legal move
//! list for every compact code on the shared perft positions.

use crate::attacks::{between, king_attacks, knight_attacks, line, pawn_attacks};
use crate::sliders::Sliders;
use crate::with_sliders;
use crate::{Bitboard, Color, Move, MoveKind, Position, Rank, Role};

impl Position {
    /// The legal move with this 16-bit compact form ([`Move::compact`]), if there is one here.
    /// Same answer as [`Position::decompress`], without generating the other moves.
    #[inline]
    pub fn legal_from_compact(&self, compact: u16) -> Option<Move> {
        with_sliders!(|s| self.legal_from_compact_with(s, compact))
    }

    /// [`Position::legal_from_compact`] with the given slider lookup.
    pub fn legal_from_compact_with<S: Sliders>(&self, s: S, compact: u16) -> Option<Move> {
        let (from, to, kind) = Move::split_compact(compact);
        let kind = kind?;
        let us = self.side;
        let them = !us;
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        if !ours.contains(from) {
            return None;
        }
        if matches!(
            kind,
            MoveKind::EnPassant | MoveKind::CastleKing | MoveKind::CastleQueen
        ) {
            return self
                .legal_moves_from(from)
                .iter()
                .copied()
                .find(|m| m.to() == to && m.kind() == kind);
        }
        if ours.contains(to) || from == to {
            return None;
        }
        let role = self.role_at(from)?;
        let occ = ours | theirs;
        let captured = if theirs.contains(to) {
            match self.role_at(to)? {
                Role::King => return None,
                r => Some(r),
            }
        } else {
            None
        };

        // The piece's own pattern.
        let reaches = if role == Role::Pawn {
            let up = match us {
                Color::White => 8,
                Color::Black => -8,
            };
            let push = from.offset(up) == Some(to) && captured.is_none();
            let takes = captured.is_some() && pawn_attacks(us, from).contains(to);
            let last = Bitboard::BACK_RANKS.contains(to);
            match kind {
                MoveKind::Normal => !last && (push || takes),
                MoveKind::DoublePush => {
                    let start = match us {
                        Color::White => Rank::Second,
                        Color::Black => Rank::Seventh,
                    };
                    from.rank() == start
                        && from.offset(2 * up) == Some(to)
                        && !occ.contains(to)
                        && from.offset(up).is_some_and(|mid| !occ.contains(mid))
                }
                _ => last && (push || takes),
            }
        } else {
            kind == MoveKind::Normal
                && match role {
                    Role::Knight => knight_attacks(from),
                    Role::Bishop => s.bishop(from, occ),
                    Role::Rook => s.rook(from, occ),
                    Role::Queen => s.queen(from, occ),
                    _ => king_attacks(from),
                }
                .contains(to)
        };
        if !reaches {
            return None;
        }

        // Legality: the king may not step into an attack; other pieces must answer a check and
        // stay on their pin line.
        let ksq = self.king(us);
        if role == Role::King {
            if self.is_attacked(to, them, occ ^ Bitboard::from_square(from), s) {
                return None;
            }
        } else {
            let checkers = self.checkers;
            if checkers.more_than_one() {
                return None;
            }
            if let Some(checker) = checkers.first() {
                if !(between(ksq, checker) | checkers).contains(to) {
                    return None;
                }
            }
            if self.pinned.contains(from) && !line(ksq, from).contains(to) {
                return None;
            }
        }
        Some(Move::new(from, to, role, captured, kind))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Move, Position};

    fn check_all_codes(pos: &Position) {
        let legal = pos.legal_moves();
        for code in 0..=u16::MAX {
            let want = legal.iter().copied().find(|m| m.compact() == code);
            assert_eq!(
                pos.legal_from_compact(code),
                want,
                "{} code {code:#06x}",
                pos.to_fen()
            );
        }
    }

    #[test]
    fn every_compact_code_matches_the_generator() {
        let fens = [
            crate::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            // Checks, pins, en passant, promotions by capture and push, both sides.
            "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 2",
            "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1",
            "4k3/8/8/8/1b6/8/3P4/4K2R w K - 0 1",
            "3rk3/8/8/8/8/8/3B4/3K4 w - - 0 1",
            "4k3/4r3/8/8/8/8/4N3/2B1K3 w - - 0 1",
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            check_all_codes(&pos);
            // And one ply further, to reach the other side's moves from each position.
            for &m in pos.legal_moves().iter().step_by(5) {
                check_all_codes(&pos.play(m));
            }
        }
        assert_eq!(
            Position::startpos().legal_from_compact(Move::NULL.compact()),
            None
        );
    }
}
