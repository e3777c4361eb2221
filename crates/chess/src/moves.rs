//! Packed moves (the Mediocre chess blog's "New move representation") and fixed-capacity move
//! lists.
//!
//! A [`Move`] is one `u32`; undo information lives outside it (copy-make, see [`crate::Position::play`]).
//!
//! ```text
//! bits  0..6   from square (0 = a1 .. 63 = h8)
//! bits  6..12  to square (for castling: the castling rook's square, "king takes rook")
//! bits 12..16  moving role (0 = pawn .. 5 = king)
//! bits 16..20  captured role + 1 (0 = no capture)
//! bits 20..24  kind (see MoveKind)
//! bits 24..32  zero
//! ```
//!
//! The 16-bit compact form (for transposition tables) keeps from (6), to (6) and kind (4 bits);
//! [`crate::Position::decompress`] restores the roles from the position.

use crate::{Role, Square};
use core::fmt;
use core::mem::MaybeUninit;

/// What kind of move this is; stored in 4 bits of a [`Move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// Any move not listed below (including single pawn pushes and captures).
    Normal = 0,
    /// A pawn's two-square advance.
    DoublePush = 1,
    /// En passant capture.
    EnPassant = 2,
    /// Castling towards the h-file.
    CastleKing = 3,
    /// Castling towards the a-file.
    CastleQueen = 4,
    /// Promotion to a knight.
    PromoteKnight = 5,
    /// Promotion to a bishop.
    PromoteBishop = 6,
    /// Promotion to a rook.
    PromoteRook = 7,
    /// Promotion to a queen.
    PromoteQueen = 8,
}

impl MoveKind {
    const ALL: [MoveKind; 9] = [
        MoveKind::Normal,
        MoveKind::DoublePush,
        MoveKind::EnPassant,
        MoveKind::CastleKing,
        MoveKind::CastleQueen,
        MoveKind::PromoteKnight,
        MoveKind::PromoteBishop,
        MoveKind::PromoteRook,
        MoveKind::PromoteQueen,
    ];

    /// The kind with code `i`, if valid.
    #[inline]
    pub const fn from_code(i: u32) -> Option<MoveKind> {
        if i < 9 {
            Some(MoveKind::ALL[i as usize])
        } else {
            None
        }
    }

    /// The promotion kind for a role (knight, bishop, rook or queen).
    #[inline]
    pub const fn promotion(role: Role) -> Option<MoveKind> {
        match role {
            Role::Knight => Some(MoveKind::PromoteKnight),
            Role::Bishop => Some(MoveKind::PromoteBishop),
            Role::Rook => Some(MoveKind::PromoteRook),
            Role::Queen => Some(MoveKind::PromoteQueen),
            _ => None,
        }
    }
}

/// A move packed into one `u32` (layout in the module docs). `Move::NULL` (all zero) is no move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

const TO_SHIFT: u32 = 6;
const ROLE_SHIFT: u32 = 12;
const CAPTURED_SHIFT: u32 = 16;
const KIND_SHIFT: u32 = 20;
const SQUARE_MASK: u32 = 63;
const NIBBLE_MASK: u32 = 15;

impl Move {
    /// The null move (a1a1): used as "no move".
    pub const NULL: Move = Move(0);

    /// Packs a move.
    #[inline(always)]
    pub const fn new(
        from: Square,
        to: Square,
        role: Role,
        captured: Option<Role>,
        kind: MoveKind,
    ) -> Move {
        let cap = match captured {
            Some(r) => r as u32 + 1,
            None => 0,
        };
        Move(
            from as u32
                | (to as u32) << TO_SHIFT
                | (role as u32) << ROLE_SHIFT
                | cap << CAPTURED_SHIFT
                | (kind as u32) << KIND_SHIFT,
        )
    }

    /// Packs a move with the captured role given as `role + 1` (0 for none): the generator's form.
    #[inline(always)]
    pub(crate) const fn new_raw(
        from: Square,
        to: Square,
        role: Role,
        cap_code: u32,
        kind: MoveKind,
    ) -> Move {
        Move(
            from as u32
                | (to as u32) << TO_SHIFT
                | (role as u32) << ROLE_SHIFT
                | cap_code << CAPTURED_SHIFT
                | (kind as u32) << KIND_SHIFT,
        )
    }

    /// The raw 32 bits.
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & SQUARE_MASK) as u8)
    }

    /// Destination square (the rook's square for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> TO_SHIFT & SQUARE_MASK) as u8)
    }

    /// The moving piece's role.
    #[inline(always)]
    pub const fn role(self) -> Role {
        match Role::from_index((self.0 >> ROLE_SHIFT & NIBBLE_MASK) as usize) {
            Some(r) => r,
            None => Role::Pawn,
        }
    }

    /// The captured role (a pawn for en passant), if any.
    #[inline(always)]
    pub const fn captured(self) -> Option<Role> {
        let c = (self.0 >> CAPTURED_SHIFT & NIBBLE_MASK) as usize;
        if c == 0 {
            None
        } else {
            Role::from_index(c - 1)
        }
    }

    /// The move kind.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match MoveKind::from_code(self.0 >> KIND_SHIFT & NIBBLE_MASK) {
            Some(k) => k,
            None => MoveKind::Normal,
        }
    }

    /// Whether it captures (including en passant).
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 >> CAPTURED_SHIFT & NIBBLE_MASK != 0
    }

    /// Whether it is an en passant capture.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> KIND_SHIFT & NIBBLE_MASK == MoveKind::EnPassant as u32
    }

    /// Whether it is castling (either side).
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        let k = self.0 >> KIND_SHIFT & NIBBLE_MASK;
        k == MoveKind::CastleKing as u32 || k == MoveKind::CastleQueen as u32
    }

    /// The promotion role, if it promotes.
    #[inline(always)]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind() {
            MoveKind::PromoteKnight => Some(Role::Knight),
            MoveKind::PromoteBishop => Some(Role::Bishop),
            MoveKind::PromoteRook => Some(Role::Rook),
            MoveKind::PromoteQueen => Some(Role::Queen),
            _ => None,
        }
    }

    /// Whether it captures or promotes (a "tactical" move in search terms).
    #[inline]
    pub const fn is_tactical(self) -> bool {
        self.is_capture() || self.promotion().is_some()
    }

    /// The 16-bit form: from (bits 0..6), to (6..12), kind (12..16).
    #[inline]
    pub const fn compact(self) -> u16 {
        ((self.0 & 0xfff) | (self.0 >> KIND_SHIFT & NIBBLE_MASK) << 12) as u16
    }

    /// The origin, destination and kind stored in a compact move (kind `None` for a code above 8).
    pub const fn split_compact(c: u16) -> (Square, Square, Option<MoveKind>) {
        (
            Square::new((c & 63) as u8),
            Square::new((c >> 6 & 63) as u8),
            MoveKind::from_code(c as u32 >> 12),
        )
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}{} {:?}", self.from(), self.to(), self.role())?;
        if let Some(c) = self.captured() {
            write!(f, "x{c:?}")?;
        }
        write!(f, " {:?})", self.kind())
    }
}

/// Capacity of a [`MoveList`]: more than the 218 moves of the richest legal position, and the 270 of the
/// richest known position with too much material.
pub const MAX_MOVES: usize = 320;

/// A fixed-capacity list of moves on the stack (no heap allocation per node).
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [MaybeUninit::uninit(); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move; silently ignored when the list is full (cannot happen for real positions).
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            slot.write(m);
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no moves.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes all moves.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self[i];
            if f(m) {
                self.moves[j].write(m);
                j += 1;
            }
        }
        self.len = j;
    }

    /// Swaps two entries.
    #[inline]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.as_mut_slice().swap(a, b);
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`/`retain`, `len <= MAX_MOVES`, and
        // `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { core::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// The moves as a mutable slice.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { core::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    /// Iterates the moves.
    #[inline]
    pub fn iter(&self) -> core::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether the list holds `m`.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Clone for MoveList {
    fn clone(&self) -> MoveList {
        let mut out = MoveList::new();
        for &m in self.iter() {
            out.push(m);
        }
        out
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl core::ops::DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
