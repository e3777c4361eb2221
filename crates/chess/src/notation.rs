//! Move text in and out: UCI long algebraic (`e2e4`, `e7e8q`; castling as `e1g1`, or king-takes-rook
//! `e1h1` in Chess960 mode) and Standard Algebraic Notation (`Nf3`, `exd5`, `O-O`, `e8=Q+`).

use crate::castling::CastlingSide;
use crate::{Bitboard, File, Move, MoveKind, Position, Rank, Role, Square};
use core::fmt;

/// Why move text could not be turned into a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// The text is not well-formed UCI or SAN.
    #[error("malformed move text")]
    Syntax,
    /// Well-formed, but no legal move matches.
    #[error("illegal move")]
    Illegal,
    /// Several legal moves match a SAN text.
    #[error("ambiguous move")]
    Ambiguous,
}

/// Displays a move in UCI notation (see [`Move::uci`]).
#[derive(Clone, Copy, Debug)]
pub struct Uci {
    m: Move,
    chess960: bool,
}

impl Move {
    /// UCI text of the move. Castling prints the king's destination (`e1g1`) unless `chess960`, where it
    /// prints king-takes-rook (`e1h1`). The null move prints `0000`.
    pub fn uci(self, chess960: bool) -> Uci {
        Uci { m: self, chess960 }
    }

    /// The king's destination for a castling move (`to()` holds the rook square).
    pub fn castle_king_to(self) -> Option<Square> {
        let color = if self.from().rank() == Rank::First {
            crate::Color::White
        } else {
            crate::Color::Black
        };
        match self.kind() {
            MoveKind::CastleKing => Some(CastlingSide::King.king_to(color)),
            MoveKind::CastleQueen => Some(CastlingSide::Queen.king_to(color)),
            _ => None,
        }
    }
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.m;
        if m == Move::NULL {
            return f.write_str("0000");
        }
        let to = match m.castle_king_to() {
            Some(kto) if !self.chess960 => kto,
            _ => m.to(),
        };
        write!(f, "{}{}", m.from(), to)?;
        if let Some(p) = m.promotion() {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

impl fmt::Display for Move {
    /// UCI text in standard-chess form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.uci(false), f)
    }
}

impl Position {
    /// Parses UCI text into the legal move it names. Castling is accepted both as the king's
    /// destination (`e1g1`) and as king-takes-rook (`e1h1`).
    ///
    /// # Errors
    /// [`MoveParseError::Syntax`] for malformed text, [`MoveParseError::Illegal`] when no legal move matches.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveParseError> {
        let b = text.as_bytes();
        if !(4..=5).contains(&b.len()) || !text.is_ascii() {
            return Err(MoveParseError::Syntax);
        }
        let from = Square::from_name(&text[0..2]).ok_or(MoveParseError::Syntax)?;
        let to = Square::from_name(&text[2..4]).ok_or(MoveParseError::Syntax)?;
        let promo = match b.get(4) {
            Some(&c) => Some(
                Role::from_char(c as char)
                    .filter(|r| matches!(r, Role::Knight | Role::Bishop | Role::Rook | Role::Queen))
                    .ok_or(MoveParseError::Syntax)?,
            ),
            None => None,
        };
        self.legal_moves_from(from)
            .iter()
            .copied()
            .find(|m| {
                m.promotion() == promo
                    && (m.to() == to
                        || (m.castle_king_to() == Some(to) && !self.is_ambiguous_castle(*m)))
            })
            .ok_or(MoveParseError::Illegal)
    }

    /// A castling move whose king destination is also a plain king move's destination (Chess960 only).
    fn is_ambiguous_castle(&self, m: Move) -> bool {
        m.castle_king_to().is_some_and(|kto| {
            self.legal_moves_from(m.from())
                .iter()
                .any(|o| !o.is_castle() && o.to() == kto)
        })
    }

    /// SAN text of the legal move `m`, with `+` or `#` when it checks or mates.
    pub fn san(&self, m: Move) -> String {
        let mut s = self.san_plain(m);
        let after = self.play(m);
        if after.is_check() {
            s.push(if after.count_legal_moves() == 0 {
                '#'
            } else {
                '+'
            });
        }
        s
    }

    /// SAN without the check suffix.
    fn san_plain(&self, m: Move) -> String {
        match m.kind() {
            MoveKind::CastleKing => return "O-O".into(),
            MoveKind::CastleQueen => return "O-O-O".into(),
            _ => {}
        }
        let mut s = String::with_capacity(8);
        let role = m.role();
        if role == Role::Pawn {
            if m.is_capture() {
                s.push(m.from().file().char());
            }
        } else {
            s.push(role.upper_char());
            // Disambiguate among other pieces of the same role reaching the same square.
            let others: Bitboard = self
                .legal_moves()
                .iter()
                .filter(|o| {
                    o.role() == role && o.to() == m.to() && o.from() != m.from() && !o.is_castle()
                })
                .map(|o| o.from())
                .collect();
            if others.any() {
                let same_file = others.intersects(Bitboard::from_file(m.from().file()));
                let same_rank = others.intersects(Bitboard::from_rank(m.from().rank()));
                if !same_file {
                    s.push(m.from().file().char());
                } else if !same_rank {
                    s.push(m.from().rank().char());
                } else {
                    s.push_str(&m.from().to_string());
                }
            }
        }
        if m.is_capture() {
            s.push('x');
        }
        s.push_str(&m.to().to_string());
        if let Some(p) = m.promotion() {
            s.push('=');
            s.push(p.upper_char());
        }
        s
    }

    /// Parses SAN (lenient: accepts `0-0`, missing or extra `x`/`=`, check and annotation marks,
    /// and over-disambiguated origins).
    ///
    /// # Errors
    /// Syntax, illegal or ambiguous text.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveParseError> {
        let t = text.trim_end_matches(['+', '#', '!', '?']);
        if t.is_empty() || !t.is_ascii() {
            return Err(MoveParseError::Syntax);
        }
        let castle = match t {
            "O-O" | "0-0" => Some(MoveKind::CastleKing),
            "O-O-O" | "0-0-0" => Some(MoveKind::CastleQueen),
            _ => None,
        };
        let moves = self.legal_moves();
        if let Some(kind) = castle {
            return moves
                .iter()
                .copied()
                .find(|m| m.kind() == kind)
                .ok_or(MoveParseError::Illegal);
        }
        let mut chars: Vec<char> = t
            .chars()
            .filter(|&c| c != 'x' && c != '=' && c != '-' && c != ':')
            .collect();
        let role = match chars.first() {
            Some(&c) if c.is_ascii_uppercase() => {
                chars.remove(0);
                match c {
                    'N' => Role::Knight,
                    'B' => Role::Bishop,
                    'R' => Role::Rook,
                    'Q' => Role::Queen,
                    'K' => Role::King,
                    'P' => Role::Pawn,
                    _ => return Err(MoveParseError::Syntax),
                }
            }
            _ => Role::Pawn,
        };
        let promo = match chars.last() {
            Some(&c) if c.is_ascii_alphabetic() && !('a'..='h').contains(&c) => {
                chars.pop();
                Some(match c.to_ascii_uppercase() {
                    'N' => Role::Knight,
                    'B' => Role::Bishop,
                    'R' => Role::Rook,
                    'Q' => Role::Queen,
                    _ => return Err(MoveParseError::Syntax),
                })
            }
            // A lowercase `b` promotion ("e8b") is read as a bishop only for pawn moves to the last rank.
            _ => None,
        };
        if chars.len() < 2 {
            return Err(MoveParseError::Syntax);
        }
        let n = chars.len();
        let to_name: String = chars[n - 2..].iter().collect();
        let to = Square::from_name(&to_name).ok_or(MoveParseError::Syntax)?;
        let (mut from_file, mut from_rank) = (None::<File>, None::<Rank>);
        for &c in &chars[..n - 2] {
            if let Some(f) = File::from_char(c).filter(|_| c.is_ascii_lowercase()) {
                from_file = Some(f);
            } else if let Some(r) = Rank::from_char(c) {
                from_rank = Some(r);
            } else {
                return Err(MoveParseError::Syntax);
            }
        }
        let mut found = None;
        for &m in moves.iter() {
            if m.is_castle()
                || m.role() != role
                || m.to() != to
                || m.promotion() != promo
                || from_file.is_some_and(|f| m.from().file() != f)
                || from_rank.is_some_and(|r| m.from().rank() != r)
            {
                continue;
            }
            if found.is_some() {
                return Err(MoveParseError::Ambiguous);
            }
            found = Some(m);
        }
        found.ok_or(MoveParseError::Illegal)
    }

    /// Restores a full move from its 16-bit compact form, if it is legal here.
    pub fn decompress(&self, compact: u16) -> Option<Move> {
        self.legal_from_compact(compact)
    }
}
