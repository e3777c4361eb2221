//! Fully legal move generation with check and pin masks (CPW "Move Generation", "Pin"):
//! in double check only the king moves; otherwise every non-king move must land on the check mask
//! and pinned pieces stay on the line through their king. En passant is verified by recomputing
//! slider attacks after the capture (covers the horizontal discovered-check case), castling checks
//! the king's whole path with king and rook lifted (covers Chess960).
//!
//! The generator reports sets of moves to a [`MoveSink`]: a list builder expands them into packed
//! moves, a counter only adds popcounts (perft's bulk counting at the last ply).

use crate::attacks::{between, king_attacks, knight_attacks, line, pawn_attacks};
use crate::castling::CastlingSide;
use crate::sliders::Sliders;
use crate::with_sliders;
use crate::{Bitboard, Color, Move, MoveKind, MoveList, Position, Role, Square};

/// Kinds of set-wise pawn moves reported to a sink.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum PawnSet {
    /// Single pushes (promotions when landing on the last rank).
    Push,
    /// Double pushes.
    Double,
    /// Captures (promotions when landing on the last rank).
    Capture,
}

/// Receives legal moves as sets.
pub(crate) trait MoveSink {
    /// A piece of `role` on `from` may go to each square of `targets`.
    fn piece(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard);
    /// Pawns may go to each square of `targets`, coming from `to - delta`.
    fn pawns(&mut self, pos: &Position, targets: Bitboard, delta: i32, set: PawnSet);
    /// One en passant or castling move.
    fn special(&mut self, m: Move);
}

/// Counts moves without creating them.
pub(crate) struct Counter(pub(crate) u64);

impl MoveSink for Counter {
    #[inline(always)]
    fn piece(&mut self, _: &Position, _: Role, _: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn pawns(&mut self, _: &Position, targets: Bitboard, _: i32, set: PawnSet) {
        if set == PawnSet::Double {
            self.0 += targets.count() as u64;
        } else {
            let promo = targets & Bitboard::BACK_RANKS;
            self.0 += (targets.count() + 3 * promo.count()) as u64;
        }
    }
    #[inline(always)]
    fn special(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Captured-role code (role + 1, 0 for none) of the piece on `to`.
#[inline(always)]
fn capture_code(pos: &Position, to: Square) -> u32 {
    if !pos.occupied().contains(to) {
        return 0;
    }
    for (code, r) in (1..).zip(&pos.by_role[..5]) {
        if r.contains(to) {
            return code;
        }
    }
    6
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn piece(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new_raw(
                from,
                to,
                role,
                capture_code(pos, to),
                MoveKind::Normal,
            ));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, pos: &Position, targets: Bitboard, delta: i32, set: PawnSet) {
        for to in targets {
            let from = Square::new((to as i32 - delta) as u8);
            let cap = if set == PawnSet::Capture {
                capture_code(pos, to)
            } else {
                0
            };
            if set == PawnSet::Double {
                self.push(Move::new_raw(from, to, Role::Pawn, 0, MoveKind::DoublePush));
            } else if Bitboard::BACK_RANKS.contains(to) {
                for kind in [
                    MoveKind::PromoteQueen,
                    MoveKind::PromoteKnight,
                    MoveKind::PromoteRook,
                    MoveKind::PromoteBishop,
                ] {
                    self.push(Move::new_raw(from, to, Role::Pawn, cap, kind));
                }
            } else {
                self.push(Move::new_raw(from, to, Role::Pawn, cap, MoveKind::Normal));
            }
        }
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.push(m);
    }
}

/// Keeps only the moves of one origin square (for `is_legal`).
struct FromFilter<'a> {
    from: Bitboard,
    list: &'a mut MoveList,
}

impl MoveSink for FromFilter<'_> {
    #[inline]
    fn piece(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard) {
        if self.from.contains(from) {
            self.list.piece(pos, role, from, targets);
        }
    }
    #[inline]
    fn pawns(&mut self, pos: &Position, targets: Bitboard, delta: i32, set: PawnSet) {
        let keep = self.from.shift(delta) & targets;
        self.list.pawns(pos, keep, delta, set);
    }
    #[inline]
    fn special(&mut self, m: Move) {
        if self.from.contains(m.from()) {
            self.list.push(m);
        }
    }
}

/// Keeps only captures and promotions (the "tactical" moves of quiescence search).
struct TacticalFilter<'a> {
    list: &'a mut MoveList,
}

impl MoveSink for TacticalFilter<'_> {
    #[inline(always)]
    fn piece(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard) {
        self.list
            .piece(pos, role, from, targets & pos.by_color[!pos.side as usize]);
    }
    #[inline(always)]
    fn pawns(&mut self, pos: &Position, targets: Bitboard, delta: i32, set: PawnSet) {
        match set {
            PawnSet::Capture => self.list.pawns(pos, targets, delta, set),
            PawnSet::Push => self
                .list
                .pawns(pos, targets & Bitboard::BACK_RANKS, delta, set),
            PawnSet::Double => {}
        }
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        if m.is_en_passant() {
            self.list.push(m);
        }
    }
}

/// Keeps only the moves that are neither captures nor promotions (castling included).
struct QuietFilter<'a> {
    list: &'a mut MoveList,
}

impl MoveSink for QuietFilter<'_> {
    #[inline(always)]
    fn piece(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard) {
        self.list.piece(
            pos,
            role,
            from,
            targets.without(pos.by_color[!pos.side as usize]),
        );
    }
    #[inline(always)]
    fn pawns(&mut self, pos: &Position, targets: Bitboard, delta: i32, set: PawnSet) {
        match set {
            PawnSet::Push => {
                self.list
                    .pawns(pos, targets.without(Bitboard::BACK_RANKS), delta, set)
            }
            PawnSet::Double => self.list.pawns(pos, targets, delta, set),
            PawnSet::Capture => {}
        }
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        if m.is_castle() {
            self.list.push(m);
        }
    }
}

impl Position {
    /// Generates every legal move into `sink`.
    #[inline(always)]
    pub(crate) fn generate<S: Sliders, V: MoveSink>(&self, s: S, sink: &mut V) {
        let us = self.side;
        let them = !us;
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occ = ours | theirs;
        let ksq = self.king(us);

        // King steps: each target checked with the king lifted (so sliders see through it).
        let occ_no_king = occ ^ Bitboard::from_square(ksq);
        let mut king_targets = Bitboard::EMPTY;
        for to in king_attacks(ksq).without(ours) {
            if !self.is_attacked(to, them, occ_no_king, s) {
                king_targets.add(to);
            }
        }
        sink.piece(self, Role::King, ksq, king_targets);

        let checkers = self.checkers;
        if checkers.more_than_one() {
            return;
        }
        let (mask, pinned_movers) = if let Some(checker) = checkers.first() {
            (between(ksq, checker) | checkers, Bitboard::EMPTY)
        } else {
            (!ours, self.pinned)
        };
        let pinned = self.pinned;
        let targets = mask.without(ours);

        for from in self.pieces(us, Role::Knight).without(pinned) {
            sink.piece(self, Role::Knight, from, knight_attacks(from) & targets);
        }
        let bishops = self.pieces(us, Role::Bishop);
        let rooks = self.pieces(us, Role::Rook);
        let queens = self.pieces(us, Role::Queen);
        for from in bishops.without(pinned) {
            sink.piece(self, Role::Bishop, from, s.bishop(from, occ) & targets);
        }
        for from in rooks.without(pinned) {
            sink.piece(self, Role::Rook, from, s.rook(from, occ) & targets);
        }
        for from in queens.without(pinned) {
            sink.piece(self, Role::Queen, from, s.queen(from, occ) & targets);
        }
        let pinned_sliders = (bishops | rooks | queens) & pinned_movers;
        for from in pinned_sliders {
            let role = if bishops.contains(from) {
                Role::Bishop
            } else if rooks.contains(from) {
                Role::Rook
            } else {
                Role::Queen
            };
            let att = match role {
                Role::Bishop => s.bishop(from, occ),
                Role::Rook => s.rook(from, occ),
                _ => s.queen(from, occ),
            };
            sink.piece(self, role, from, att & targets & line(ksq, from));
        }

        // Pawns, set-wise for the unpinned ones.
        let pawns = self.pieces(us, Role::Pawn);
        let free = pawns.without(pinned);
        let empty = !occ;
        let (up, third) = match us {
            Color::White => (8, Bitboard::from_rank(crate::Rank::Third)),
            Color::Black => (-8, Bitboard::from_rank(crate::Rank::Sixth)),
        };
        let single = free.shift(up) & empty;
        let double = (single & third).shift(up) & empty & mask;
        sink.pawns(self, single & mask, up, PawnSet::Push);
        sink.pawns(self, double, 2 * up, PawnSet::Double);
        let left = free.without(Bitboard::FILE_A).shift(up - 1) & theirs & mask;
        sink.pawns(self, left, up - 1, PawnSet::Capture);
        let right = free.without(Bitboard::FILE_H).shift(up + 1) & theirs & mask;
        sink.pawns(self, right, up + 1, PawnSet::Capture);
        for from in pawns & pinned_movers {
            let pin_line = line(ksq, from);
            let bb = Bitboard::from_square(from);
            let one = bb.shift(up) & empty & pin_line;
            sink.pawns(self, one, up, PawnSet::Push);
            let two = (one & third).shift(up) & empty;
            sink.pawns(self, two, 2 * up, PawnSet::Double);
            for to in pawn_attacks(us, from) & theirs & pin_line {
                sink.pawns(
                    self,
                    Bitboard::from_square(to),
                    to as i32 - from as i32,
                    PawnSet::Capture,
                );
            }
        }

        if let Some(ep) = self.ep {
            let cap_sq = Square::new(ep as u8 ^ 8);
            for from in pawn_attacks(them, ep) & pawns {
                let after = occ ^ Bitboard::from_square(from) ^ Bitboard::from_square(cap_sq)
                    | Bitboard::from_square(ep);
                let attackers = self
                    .attackers_with(ksq, them, after, s)
                    .without(Bitboard::from_square(cap_sq));
                if attackers.is_empty() {
                    sink.special(Move::new(
                        from,
                        ep,
                        Role::Pawn,
                        Some(Role::Pawn),
                        MoveKind::EnPassant,
                    ));
                }
            }
        }

        if checkers.is_empty() && self.castling.any() {
            for rook in self.castling.rooks() & ours {
                let side = if rook.file() > ksq.file() {
                    CastlingSide::King
                } else {
                    CastlingSide::Queen
                };
                let (kto, rto) = (side.king_to(us), side.rook_to(us));
                let king_path = between(ksq, kto) | Bitboard::from_square(kto);
                let rook_path = between(rook, rto) | Bitboard::from_square(rto);
                let movers = Bitboard::from_square(ksq) | Bitboard::from_square(rook);
                if (king_path | rook_path).without(movers).intersects(occ) {
                    continue;
                }
                let lifted = occ ^ movers;
                if king_path
                    .iter()
                    .any(|sq| self.is_attacked(sq, them, lifted, s))
                {
                    continue;
                }
                let kind = if side == CastlingSide::King {
                    MoveKind::CastleKing
                } else {
                    MoveKind::CastleQueen
                };
                sink.special(Move::new(ksq, rook, Role::King, None, kind));
            }
        }
    }

    /// All legal moves (PEXT lookups when the CPU has BMI2, else magics).
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        with_sliders!(|s| self.legal_moves_with(s))
    }

    /// All legal moves, using the given slider lookup.
    #[inline]
    pub fn legal_moves_with<S: Sliders>(&self, s: S) -> MoveList {
        let mut list = MoveList::new();
        self.generate(s, &mut list);
        list
    }

    /// Legal captures (en passant included) and promotions: the moves for which
    /// [`Move::is_tactical`] holds, generated without the quiet ones.
    #[inline]
    pub fn tactical_moves(&self) -> MoveList {
        with_sliders!(|s| self.tactical_moves_with(s))
    }

    /// [`Position::tactical_moves`] with the given slider lookup.
    #[inline]
    pub fn tactical_moves_with<S: Sliders>(&self, s: S) -> MoveList {
        let mut list = MoveList::new();
        self.generate(s, &mut TacticalFilter { list: &mut list });
        list
    }

    /// Appends the legal tactical moves (see [`Position::tactical_moves`]) to `list`: the first
    /// half of a staged generation.
    #[inline]
    pub fn push_tactical_moves_with<S: Sliders>(&self, s: S, list: &mut MoveList) {
        self.generate(s, &mut TacticalFilter { list });
    }

    /// Appends the legal moves that are neither captures nor promotions (castling included) to
    /// `list`: the second half of a staged generation. Together with
    /// [`Position::push_tactical_moves_with`] it gives every legal move exactly once.
    #[inline]
    pub fn push_quiet_moves_with<S: Sliders>(&self, s: S, list: &mut MoveList) {
        self.generate(s, &mut QuietFilter { list });
    }

    /// [`Position::legal_moves_with`], always inlined (for callers compiled with extra target
    /// features, which a shared out-of-line copy would not have).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn legal_moves_inline<S: Sliders>(&self, s: S) -> MoveList {
        let mut list = MoveList::new();
        self.generate(s, &mut list);
        list
    }

    /// [`Position::count_legal_moves_with`], always inlined (see [`Position::legal_moves_inline`]).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn count_legal_moves_inline<S: Sliders>(&self, s: S) -> u64 {
        let mut c = Counter(0);
        self.generate(s, &mut c);
        c.0
    }

    /// Number of legal moves, counted without creating them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        with_sliders!(|s| self.count_legal_moves_with(s))
    }

    /// Number of legal moves with the given slider lookup.
    #[inline]
    pub fn count_legal_moves_with<S: Sliders>(&self, s: S) -> u64 {
        let mut c = Counter(0);
        self.generate(s, &mut c);
        c.0
    }

    /// Legal moves starting on `from`.
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut list = MoveList::new();
        let mut sink = FromFilter {
            from: Bitboard::from_square(from),
            list: &mut list,
        };
        with_sliders!(|s| self.generate(s, &mut sink));
        list
    }

    /// Whether `m` (with all its packed fields) is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves_from(m.from()).contains(m)
    }

    /// Whether the legal move `m` gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        self.play(m).is_check()
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.count_legal_moves() == 0
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.count_legal_moves() == 0
    }
}
