//! Piece kinds (`Role`) and coloured pieces (`Piece`).

use crate::Color;

/// A kind of piece, ordered by usual value; `Pawn = 0 .. King = 5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Role {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// Index 0..6 (`Pawn = 0`).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The role with index `i` (0..6), if any.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Role> {
        if i < 6 {
            Some(Role::ALL[i])
        } else {
            None
        }
    }

    /// The lowercase letter (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The uppercase letter used in SAN (`P N B R Q K`).
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// The role of a letter, either case.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            _ => return None,
        })
    }
}

/// A piece of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: uppercase for White.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// The piece of a FEN letter.
    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        Some(Piece {
            color: Color::from_white(c.is_ascii_uppercase()),
            role,
        })
    }

    /// Index 0..12: `color * 6 + role`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color as usize * 6 + self.role as usize
    }
}
