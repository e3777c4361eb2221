//! Castling rights, stored as the set of rooks that may still castle. This one representation
//! covers standard chess and Chess960 (X-FEN / Shredder-FEN) alike, as in shakmaty.

use crate::{Bitboard, Color, File, Rank, Square};

/// Which wing a castling move goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file: king to g, rook to f.
    King,
    /// Towards the a-file: king to c, rook to d.
    Queen,
}

impl CastlingSide {
    /// The king's destination file.
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::King => File::G,
            CastlingSide::Queen => File::C,
        }
    }

    /// The rook's destination file.
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::King => File::F,
            CastlingSide::Queen => File::D,
        }
    }

    /// King's destination square for `color`.
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), back_rank(color))
    }

    /// Rook's destination square for `color`.
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), back_rank(color))
    }
}

/// The first rank for White, the eighth for Black.
pub const fn back_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::First,
        Color::Black => Rank::Eighth,
    }
}

/// The rooks that keep their castling right (at most two per side, on their back rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(pub(crate) Bitboard);

impl CastlingRights {
    /// No rights at all.
    pub const NONE: CastlingRights = CastlingRights(Bitboard::EMPTY);

    /// Whether any side may still castle.
    #[inline]
    pub const fn any(self) -> bool {
        self.0.any()
    }

    /// Whether nobody may castle.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// The rooks holding a castling right.
    #[inline]
    pub const fn rooks(self) -> Bitboard {
        self.0
    }

    /// Whether `color` keeps some castling right.
    #[inline]
    pub fn has_color(self, color: Color) -> bool {
        self.0.intersects(Bitboard::from_rank(back_rank(color)))
    }

    /// The rook square of `color`'s right on `side`, given its king square.
    pub fn rook(self, color: Color, side: CastlingSide, king: Square) -> Option<Square> {
        let rank = self.0 & Bitboard::from_rank(back_rank(color));
        match side {
            CastlingSide::King => rank.iter().rev().find(|r| r.file() > king.file()),
            CastlingSide::Queen => rank.iter().find(|r| r.file() < king.file()),
        }
    }
}
