//! The two sides.

/// A side: Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The first player (`X`, `*`, `B`).
    Black,
    /// The second player (`O`, `W`).
    White,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `'X'` for Black, `'O'` for White (Edax / OBF letters).
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// Reads a side-to-move token: `X`, `*`, `B`, `Black` or `O`, `W`, `White` (case-insensitive).
    pub fn from_token(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "x" | "*" | "b" | "black" => Some(Color::Black),
            "o" | "w" | "white" => Some(Color::White),
            _ => None,
        }
    }
}

impl core::fmt::Display for Color {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}
