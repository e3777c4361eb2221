//! `Position`: piece placement as bitboards plus side to move, castling rooks, en passant square,
//! move counters, Zobrist hash, pawn key and material bookkeeping. Moves are applied by copy-make
//! ([`Position::play`], the convenient form: the position is 128 bytes) or by make/unmake
//! ([`Position::make`] / [`Position::unmake`], which perft measured slightly faster;
//! docs/benchmarks/chess-speed.md).
//! Perft's own update (`apply::<false>`) skips the hash and material bookkeeping it never reads.

use crate::attacks::{between, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_rays};
use crate::castling::{back_rank, CastlingRights, CastlingSide};
use crate::sliders::Sliders;
use crate::with_sliders;
use crate::zobrist::KEYS;
use crate::{Bitboard, Color, Move, MoveKind, Piece, Role, Square};

/// A chess position (standard or Chess960). Built from FEN ([`Position::from_fen`]) or
/// [`Position::startpos`]; always holds exactly one king per side and a side not to move that is not
/// in check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) by_role: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
    pub(crate) castling: CastlingRights,
    pub(crate) hash: u64,
    pub(crate) pawn_key: u64,
    pub(crate) counts: [[u8; 6]; 2],
    pub(crate) signature: [u8; 2],
    pub(crate) side: Color,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
}

/// A move that is not legal in the position it was played in ([`Position::try_play`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move")]
pub struct IllegalMoveError;

/// Zobrist key of a piece on a square.
#[inline(always)]
pub(crate) fn piece_key(color: Color, role: Role, sq: Square) -> u64 {
    KEYS.piece[color.index() * 6 + role.index()][sq.index()]
}

/// Material signature bit of a role (Ernst Heinz's interior-node recognition in DarkThought): P=1,
/// N=2, B=4, R=8, Q=16; kings 0.
#[inline(always)]
pub(crate) const fn signature_bit(role: Role) -> u8 {
    match role {
        Role::King => 0,
        r => 1 << r as u8,
    }
}

impl Position {
    /// An empty board (no kings) used while building a position; not a valid position by itself.
    pub(crate) fn empty() -> Position {
        Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            castling: CastlingRights::NONE,
            hash: 0,
            pawn_key: 0,
            counts: [[0; 6]; 2],
            signature: [0; 2],
            side: Color::White,
            ep: None,
            halfmove: 0,
            fullmove: 1,
        }
    }

    // ----- accessors -----

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Pieces of one colour and role.
    #[inline(always)]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// All pieces of a colour.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All pieces of a role, both colours.
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The king square of `color`.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King).single()
    }

    /// The role on a square, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|r| self.by_role[r.index()].contains(sq))
    }

    /// The piece on a square, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = Color::from_white(self.by_color[0].contains(sq));
        Some(Piece { color, role })
    }

    /// The en passant target square, present only when a pawn of the side to move stands ready to
    /// capture there (pseudo-legally), so that equal positions hash equally.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Castling rights (the rooks that may still castle).
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// Half-moves since the last capture or pawn move (50-move rule).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }

    /// Full move number, starting at 1 and incremented after Black's move.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove as u32
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// Pieces of the side to move pinned to their own king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// Zobrist hash of the position (placement, side, castling rooks, capturable en passant file).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Zobrist hash of the pawns of both sides only.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// Material signature of one side (Heinz's DarkThought recognizers): bit 0 pawn, 1 knight, 2
    /// bishop, 3 rook, 4 queen, set when that side has at least one such piece. Kept up to date
    /// incrementally.
    #[inline(always)]
    pub fn material_signature(&self, color: Color) -> u8 {
        self.signature[color.index()]
    }

    /// Number of pieces of one colour and role, kept up to date incrementally.
    #[inline(always)]
    pub fn count(&self, color: Color, role: Role) -> u32 {
        self.counts[color.index()][role.index()] as u32
    }

    // ----- attacks -----

    /// Pieces of `attacker` that attack `sq` given occupancy `occ`.
    #[inline(always)]
    pub fn attackers_with<S: Sliders>(
        &self,
        sq: Square,
        attacker: Color,
        occ: Bitboard,
        s: S,
    ) -> Bitboard {
        let them = self.by_color[attacker.index()];
        let queens = self.by_role[Role::Queen.index()];
        (knight_attacks(sq) & self.by_role[Role::Knight.index()]
            | pawn_attacks(!attacker, sq) & self.by_role[Role::Pawn.index()]
            | king_attacks(sq) & self.by_role[Role::King.index()]
            | s.rook(sq, occ) & (self.by_role[Role::Rook.index()] | queens)
            | s.bishop(sq, occ) & (self.by_role[Role::Bishop.index()] | queens))
            & them
    }

    /// Pieces of `attacker` attacking `sq` in this position.
    pub fn attackers(&self, sq: Square, attacker: Color) -> Bitboard {
        with_sliders!(|s| self.attackers_with(sq, attacker, self.occupied(), s))
    }

    /// Whether `attacker` attacks `sq` with occupancy `occ` (early exit version of `attackers_with`).
    #[inline(always)]
    pub(crate) fn is_attacked<S: Sliders>(
        &self,
        sq: Square,
        attacker: Color,
        occ: Bitboard,
        s: S,
    ) -> bool {
        let them = self.by_color[attacker.index()];
        if (knight_attacks(sq) & self.by_role[Role::Knight.index()]
            | pawn_attacks(!attacker, sq) & self.by_role[Role::Pawn.index()]
            | king_attacks(sq) & self.by_role[Role::King.index()])
        .intersects(them)
        {
            return true;
        }
        let queens = self.by_role[Role::Queen.index()] & them;
        let rooks = (self.by_role[Role::Rook.index()] & them) | queens;
        let bishops = (self.by_role[Role::Bishop.index()] & them) | queens;
        (rook_rays(sq).intersects(rooks) && s.rook(sq, occ).intersects(rooks))
            || (bishop_rays(sq).intersects(bishops) && s.bishop(sq, occ).intersects(bishops))
    }

    /// Recomputes checkers and pinned pieces for the side to move.
    #[inline(always)]
    pub(crate) fn update_check_info(&mut self) {
        let us = self.side;
        let them = !us;
        let ksq = self.king(us);
        let occ = self.occupied();
        let theirs = self.by_color[them.index()];
        let queens = self.by_role[Role::Queen.index()];
        let mut checkers = (knight_attacks(ksq) & self.by_role[Role::Knight.index()]
            | pawn_attacks(us, ksq) & self.by_role[Role::Pawn.index()])
            & theirs;
        let snipers = (rook_rays(ksq) & (self.by_role[Role::Rook.index()] | queens)
            | bishop_rays(ksq) & (self.by_role[Role::Bishop.index()] | queens))
            & theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(ksq, sniper) & occ;
            if blockers.is_empty() {
                checkers.add(sniper);
            } else if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        self.checkers = checkers;
        self.pinned = pinned & self.by_color[us.index()];
    }

    // ----- making moves -----

    /// Copy-make: the position after the legal move `m` (use [`Position::try_play`] for untrusted
    /// moves; an illegal `m` gives an unspecified, but memory-safe, position).
    #[inline(always)]
    pub fn play(&self, m: Move) -> Position {
        let mut p = *self;
        p.play_in_place(m);
        p
    }

    /// The position after `m`, or an error when `m` is not legal here.
    ///
    /// # Errors
    /// [`IllegalMoveError`] when `m` is not a legal move of this position.
    pub fn try_play(&self, m: Move) -> Result<Position, IllegalMoveError> {
        if self.is_legal(m) {
            Ok(self.play(m))
        } else {
            Err(IllegalMoveError)
        }
    }

    /// Toggles a piece on a square; with `KEYED`, also updates hash and pawn key.
    #[inline(always)]
    fn toggle<const KEYED: bool>(&mut self, color: Color, role: Role, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.by_color[color.index()] ^= bb;
        self.by_role[role.index()] ^= bb;
        if KEYED {
            self.hash ^= piece_key(color, role, sq);
            if role == Role::Pawn {
                self.pawn_key ^= piece_key(color, role, sq);
            }
        }
    }

    /// Removes a captured piece; with `FULL`, keeps keys and material bookkeeping up to date.
    #[inline(always)]
    fn remove_material<const FULL: bool>(&mut self, color: Color, role: Role, sq: Square) {
        self.toggle::<FULL>(color, role, sq);
        if FULL {
            let c = &mut self.counts[color.index()][role.index()];
            *c = c.saturating_sub(1);
            if *c == 0 {
                self.signature[color.index()] &= !signature_bit(role);
            }
        }
    }

    /// Adds a promoted piece; with `FULL`, keeps keys and material bookkeeping up to date.
    #[inline(always)]
    fn add_material<const FULL: bool>(&mut self, color: Color, role: Role, sq: Square) {
        self.toggle::<FULL>(color, role, sq);
        if FULL {
            let c = &mut self.counts[color.index()][role.index()];
            *c = c.saturating_add(1);
            self.signature[color.index()] |= signature_bit(role);
        }
    }

    /// Applies the legal move `m` in place (copy-make's "make" half).
    #[inline(always)]
    pub fn play_in_place(&mut self, m: Move) {
        self.apply::<true>(m);
    }

    /// Applies the legal move `m` in place. With `FULL`, everything is updated; without, only what
    /// move generation reads (pieces, side, castling rooks, en passant square, checkers, pins):
    /// hash, pawn key, counts, signatures and move counters go stale. The light form is perft's
    /// (which restores a saved copy afterwards), measured faster there than the full one.
    #[inline(always)]
    pub(crate) fn apply<const FULL: bool>(&mut self, m: Move) {
        let us = self.side;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let role = m.role();
        if FULL {
            let mut hash = self.hash ^ KEYS.black_to_move;
            if let Some(ep) = self.ep {
                hash ^= KEYS.ep_file[ep.file().index()];
            }
            self.hash = hash;
            self.halfmove = self.halfmove.saturating_add(1);
            if us == Color::Black {
                self.fullmove = self.fullmove.saturating_add(1);
            }
        }
        self.ep = None;
        let kind = m.kind();
        match kind {
            MoveKind::CastleKing | MoveKind::CastleQueen => {
                let side = if kind == MoveKind::CastleKing {
                    CastlingSide::King
                } else {
                    CastlingSide::Queen
                };
                // `to` is the rook's square ("king takes rook").
                let (kto, rto) = (side.king_to(us), side.rook_to(us));
                let bb_us = &mut self.by_color[us.index()];
                *bb_us ^= Bitboard::from_square(from) | Bitboard::from_square(to);
                *bb_us |= Bitboard::from_square(kto) | Bitboard::from_square(rto);
                let kings = &mut self.by_role[Role::King.index()];
                *kings = kings.without(Bitboard::from_square(from)) | Bitboard::from_square(kto);
                let rooks = &mut self.by_role[Role::Rook.index()];
                *rooks ^= Bitboard::from_square(to);
                *rooks |= Bitboard::from_square(rto);
                if FULL {
                    self.hash ^= piece_key(us, Role::King, from)
                        ^ piece_key(us, Role::King, kto)
                        ^ piece_key(us, Role::Rook, to)
                        ^ piece_key(us, Role::Rook, rto);
                }
                self.clear_castling::<FULL>(Bitboard::from_rank(back_rank(us)));
            }
            MoveKind::EnPassant => {
                let cap_sq = Square::new(to as u8 ^ 8);
                self.remove_material::<FULL>(them, Role::Pawn, cap_sq);
                self.toggle::<FULL>(us, Role::Pawn, from);
                self.toggle::<FULL>(us, Role::Pawn, to);
                if FULL {
                    self.halfmove = 0;
                }
            }
            _ => {
                if let Some(cap) = m.captured() {
                    self.remove_material::<FULL>(them, cap, to);
                    if FULL {
                        self.halfmove = 0;
                    }
                }
                self.toggle::<FULL>(us, role, from);
                if let Some(promo) = m.promotion() {
                    if FULL {
                        let c = &mut self.counts[us.index()][Role::Pawn.index()];
                        *c = c.saturating_sub(1);
                        if *c == 0 {
                            self.signature[us.index()] &= !signature_bit(Role::Pawn);
                        }
                    }
                    self.add_material::<FULL>(us, promo, to);
                } else {
                    self.toggle::<FULL>(us, role, to);
                }
                if role == Role::Pawn {
                    if FULL {
                        self.halfmove = 0;
                    }
                    if kind == MoveKind::DoublePush {
                        let ep = Square::new((from as u8 + to as u8) / 2);
                        if (pawn_attacks(us, ep)
                            & self.by_role[Role::Pawn.index()]
                            & self.by_color[them.index()])
                        .any()
                        {
                            self.ep = Some(ep);
                            if FULL {
                                self.hash ^= KEYS.ep_file[ep.file().index()];
                            }
                        }
                    }
                } else if role == Role::King {
                    self.clear_castling::<FULL>(Bitboard::from_rank(back_rank(us)));
                }
                let touched = Bitboard::from_square(from) | Bitboard::from_square(to);
                if self.castling.0.intersects(touched) {
                    self.clear_castling::<FULL>(touched);
                }
            }
        }
        self.side = them;
        self.update_check_info();
    }

    /// Removes the castling rights of the rooks in `squares`, updating the hash with `KEYED`.
    #[inline(always)]
    fn clear_castling<const KEYED: bool>(&mut self, squares: Bitboard) {
        let lost = self.castling.0 & squares;
        if lost.any() {
            if KEYED {
                for sq in lost {
                    self.hash ^= KEYS.castling[sq.index()];
                }
            }
            self.castling.0 ^= lost;
        }
    }

    /// The position with the other side to move (a "null move"); `None` when in check.
    pub fn null_move(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        let mut p = *self;
        if let Some(ep) = p.ep.take() {
            p.hash ^= KEYS.ep_file[ep.file().index()];
        }
        p.side = !p.side;
        p.hash ^= KEYS.black_to_move;
        p.halfmove = p.halfmove.saturating_add(1);
        p.update_check_info();
        Some(p)
    }

    // ----- full recomputation (reference for the incremental updates) -----

    /// Zobrist hash recomputed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in self.pieces(color, role) {
                    h ^= piece_key(color, role, sq);
                }
            }
        }
        for sq in self.castling.0 {
            h ^= KEYS.castling[sq.index()];
        }
        if let Some(ep) = self.ep {
            h ^= KEYS.ep_file[ep.file().index()];
        }
        if self.side == Color::Black {
            h ^= KEYS.black_to_move;
        }
        h
    }

    /// Pawn key recomputed from scratch.
    pub fn compute_pawn_key(&self) -> u64 {
        let mut h = 0;
        for color in Color::ALL {
            for sq in self.pieces(color, Role::Pawn) {
                h ^= piece_key(color, Role::Pawn, sq);
            }
        }
        h
    }

    /// Material signature recomputed from the bitboards.
    pub fn compute_material_signature(&self, color: Color) -> u8 {
        Role::ALL
            .into_iter()
            .filter(|&r| self.pieces(color, r).any())
            .fold(0, |s, r| s | signature_bit(r))
    }

    /// Recomputes hash, pawn key, counts, signatures and check info (after building a position).
    pub(crate) fn refresh(&mut self) {
        for color in Color::ALL {
            for role in Role::ALL {
                self.counts[color.index()][role.index()] =
                    self.pieces(color, role).count().min(255) as u8;
            }
            self.signature[color.index()] = self.compute_material_signature(color);
        }
        self.hash = self.compute_hash();
        self.pawn_key = self.compute_pawn_key();
        self.update_check_info();
    }
}
