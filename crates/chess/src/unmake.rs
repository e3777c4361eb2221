//! Make/unmake, the alternative to copy-make: [`Position::make`] applies a move in place and returns
//! an [`Undo`] record (the "open question" of the Mediocre chess blog's "New move representation":
//! undo state kept outside the packed move); [`Position::unmake`] reverses the bitboard changes
//! from the move itself and restores the rest from the record. Perft measured it slightly faster
//! than copying the 128-byte position (see docs/benchmarks/chess-speed.md), so
//! [`crate::perft_with`] uses it;
//! [`Position::play`] stays as the convenient copy-make form. ([`crate::perft`] itself uses a
//! lighter perft-only update; see `perft.rs`.)

use crate::castling::{CastlingRights, CastlingSide};
use crate::{Bitboard, Move, MoveKind, Position, Role, Square};

/// Everything a move changes that cannot be recomputed from the move itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    checkers: Bitboard,
    pinned: Bitboard,
    castling: CastlingRights,
    hash: u64,
    pawn_key: u64,
    counts: [[u8; 6]; 2],
    signature: [u8; 2],
    ep: Option<Square>,
    halfmove: u16,
    fullmove: u16,
}

impl Position {
    /// Applies the legal move `m` in place and returns what [`Position::unmake`] needs to take it back.
    #[inline(always)]
    pub fn make(&mut self, m: Move) -> Undo {
        let undo = Undo {
            checkers: self.checkers,
            pinned: self.pinned,
            castling: self.castling,
            hash: self.hash,
            pawn_key: self.pawn_key,
            counts: self.counts,
            signature: self.signature,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        };
        self.play_in_place(m);
        undo
    }

    /// Takes back `m`, which must be the last move made with [`Position::make`] that returned `undo`.
    #[inline(always)]
    pub fn unmake(&mut self, m: Move, undo: &Undo) {
        let them = self.side;
        let us = !them;
        let from = Bitboard::from_square(m.from());
        let to = Bitboard::from_square(m.to());
        match m.kind() {
            MoveKind::CastleKing | MoveKind::CastleQueen => {
                let side = if m.kind() == MoveKind::CastleKing {
                    CastlingSide::King
                } else {
                    CastlingSide::Queen
                };
                let kto = Bitboard::from_square(side.king_to(us));
                let rto = Bitboard::from_square(side.rook_to(us));
                let c = &mut self.by_color[us.index()];
                *c = c.without(kto | rto) | from | to;
                let k = &mut self.by_role[Role::King.index()];
                *k = k.without(kto) | from;
                let r = &mut self.by_role[Role::Rook.index()];
                *r = r.without(rto) | to;
            }
            MoveKind::EnPassant => {
                let cap = Bitboard::from_square(Square::new(m.to() as u8 ^ 8));
                self.by_color[us.index()] ^= from | to;
                self.by_role[Role::Pawn.index()] ^= from | to | cap;
                self.by_color[them.index()] ^= cap;
            }
            _ => {
                self.by_color[us.index()] ^= from | to;
                match m.promotion() {
                    Some(p) => {
                        self.by_role[Role::Pawn.index()] ^= from;
                        self.by_role[p.index()] ^= to;
                    }
                    None => self.by_role[m.role().index()] ^= from | to,
                }
                if let Some(cap) = m.captured() {
                    self.by_color[them.index()] ^= to;
                    self.by_role[cap.index()] ^= to;
                }
            }
        }
        self.side = us;
        self.checkers = undo.checkers;
        self.pinned = undo.pinned;
        self.castling = undo.castling;
        self.hash = undo.hash;
        self.pawn_key = undo.pawn_key;
        self.counts = undo.counts;
        self.signature = undo.signature;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
    }
}
