//! FEN and EPD text in and out, including X-FEN and Shredder-FEN castling for Chess960.
//! Parsing checks every field and returns a [`FenError`] saying which field is wrong and why;
//! it never panics on any input.

use crate::attacks::pawn_attacks;
use crate::castling::{back_rank, CastlingRights};
use crate::{Bitboard, Color, File, Piece, Position, Rank, Role, Square};
use core::fmt;

/// FEN of the standard start position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN (or the position it describes) was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Fewer than 4 or more than 6 space-separated fields.
    #[error("expected 4 to 6 fields, found {0}")]
    FieldCount(usize),
    /// A character in the placement field that is neither a piece letter, a digit 1-8 nor `/`.
    #[error("bad character {0:?} in the piece placement")]
    BadPieceChar(char),
    /// A rank describes more than 8 squares.
    #[error("rank {0} describes more than 8 squares")]
    RankOverflow(u8),
    /// A rank describes fewer than 8 squares.
    #[error("rank {0} describes fewer than 8 squares")]
    RankUnderflow(u8),
    /// The placement does not have exactly 8 ranks.
    #[error("the piece placement has {0} ranks instead of 8")]
    RankCount(usize),
    /// A side has no king.
    #[error("{0:?} has no king")]
    MissingKing(Color),
    /// A side has more than one king.
    #[error("{0:?} has more than one king")]
    TooManyKings(Color),
    /// A pawn stands on the first or eighth rank.
    #[error("pawn on {0}, on the first or eighth rank")]
    PawnOnBackRank(Square),
    /// The side-to-move field is not `w` or `b`.
    #[error("side to move must be 'w' or 'b'")]
    BadSideToMove,
    /// The side that just moved is in check.
    #[error("the side not to move is in check")]
    OppositeCheck,
    /// A character of the castling field is not one of `KQkq`, `A-H`, `a-h`, or `-` is mixed in.
    #[error("bad character {0:?} in the castling field")]
    BadCastlingChar(char),
    /// A castling right names no rook on its back rank beside the king (or the king is not there).
    #[error("castling right {0:?} has no matching king and rook")]
    ImpossibleCastling(char),
    /// The en passant field is not `-` or a square name.
    #[error("bad en passant field")]
    BadEnPassant,
    /// The en passant square does not follow a double push of the side that just moved.
    #[error("impossible en passant square {0}")]
    ImpossibleEnPassant(Square),
    /// The half-move clock is not a number in 0..=65535.
    #[error("bad half-move clock")]
    BadHalfmoveClock,
    /// The full-move number is not a number in 1..=65535.
    #[error("bad full-move number")]
    BadFullmoveNumber,
}

impl Position {
    /// The standard start position ([`STARTPOS`]).
    pub fn startpos() -> Position {
        Position::from_fen(STARTPOS).unwrap_or_else(|_| unreachable!("the start FEN is valid"))
    }

    /// Parses a FEN with 4 (EPD-style, no move counters), 5 or 6 fields.
    ///
    /// # Errors
    /// A [`FenError`] naming the first problem found.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        Position::from_fields(&fields)
    }

    /// Parses an EPD line: the 4 position fields, then returns the operations that follow (such as
    /// `bm Nf3; id "x";`) untouched.
    ///
    /// # Errors
    /// A [`FenError`] for the position part.
    pub fn from_epd(epd: &str) -> Result<(Position, &str), FenError> {
        let mut rest = epd.trim_start();
        let mut fields = Vec::with_capacity(4);
        for _ in 0..4 {
            let end = rest
                .find(|c: char| c.is_ascii_whitespace())
                .unwrap_or(rest.len());
            if end == 0 {
                return Err(FenError::FieldCount(fields.len()));
            }
            fields.push(&rest[..end]);
            rest = rest[end..].trim_start();
        }
        Ok((Position::from_fields(&fields)?, rest))
    }

    fn from_fields(fields: &[&str]) -> Result<Position, FenError> {
        let mut pos = Position::empty();
        parse_placement(&mut pos, fields[0])?;
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(FenError::BadSideToMove),
        };
        for color in Color::ALL {
            match pos.pieces(color, Role::King).count() {
                0 => return Err(FenError::MissingKing(color)),
                1 => {}
                _ => return Err(FenError::TooManyKings(color)),
            }
        }
        if let Some(sq) = (pos.by_role(Role::Pawn) & Bitboard::BACK_RANKS).first() {
            return Err(FenError::PawnOnBackRank(sq));
        }
        parse_castling(&mut pos, fields[2])?;
        parse_ep(&mut pos, fields[3])?;
        if let Some(h) = fields.get(4) {
            pos.halfmove = h.parse::<u16>().map_err(|_| FenError::BadHalfmoveClock)?;
        }
        if let Some(f) = fields.get(5) {
            pos.fullmove = f
                .parse::<u16>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or(FenError::BadFullmoveNumber)?;
        }
        if pos.attackers(pos.king(!pos.side), pos.side).any() {
            return Err(FenError::OppositeCheck);
        }
        pos.refresh();
        Ok(pos)
    }

    /// The FEN of this position (6 fields). Castling uses `KQkq` for the outermost rooks and file
    /// letters otherwise (X-FEN), so standard positions print as usual.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::new(rank * 8 + file);
                match self.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side.char());
        s.push(' ');
        let before = s.len();
        for color in Color::ALL {
            let king = self.king(color);
            let rank = Bitboard::from_rank(back_rank(color));
            let ours_rooks = self.pieces(color, Role::Rook) & rank;
            let mut rights: Vec<Square> = (self.castling.rooks() & rank).iter().collect();
            rights.reverse(); // h-side first, as in "KQ"
            for rook in rights {
                let outer = if rook.file() > king.file() {
                    ours_rooks.iter().find(|r| r.file() > rook.file()).is_none()
                } else {
                    ours_rooks.iter().find(|r| r.file() < rook.file()).is_none()
                };
                let c = if outer {
                    if rook.file() > king.file() {
                        'k'
                    } else {
                        'q'
                    }
                } else {
                    rook.file().char()
                };
                s.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
        if s.len() == before {
            s.push('-');
        }
        s.push(' ');
        match self.ep {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    /// Whether the castling rights need Chess960 notation (a king or castling rook off its standard square).
    pub fn is_chess960(&self) -> bool {
        self.castling.rooks().iter().any(|rook| {
            let color = Color::from_white(rook.rank() == Rank::First);
            let king = self.king(color);
            king.file() != File::E || (rook.file() != File::A && rook.file() != File::H)
        })
    }
}

fn parse_placement(pos: &mut Position, field: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as u8;
            } else if let Some(piece) = Piece::from_char(c) {
                if file >= 8 {
                    return Err(FenError::RankOverflow(rank + 1));
                }
                let bb = Bitboard::from_square(Square::new(rank * 8 + file));
                pos.by_color[piece.color.index()] |= bb;
                pos.by_role[piece.role.index()] |= bb;
                file += 1;
            } else {
                return Err(FenError::BadPieceChar(c));
            }
            if file > 8 {
                return Err(FenError::RankOverflow(rank + 1));
            }
        }
        if file < 8 {
            return Err(FenError::RankUnderflow(rank + 1));
        }
    }
    Ok(())
}

fn parse_castling(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let mut rooks = Bitboard::EMPTY;
    for c in field.chars() {
        let color = Color::from_white(c.is_ascii_uppercase());
        let rank = back_rank(color);
        let king = pos.king(color);
        if king.rank() != rank {
            return Err(if c.is_ascii_alphabetic() {
                FenError::ImpossibleCastling(c)
            } else {
                FenError::BadCastlingChar(c)
            });
        }
        let candidates = pos.pieces(color, Role::Rook) & Bitboard::from_rank(rank);
        let rook = match c.to_ascii_lowercase() {
            'k' => candidates.iter().rev().find(|r| r.file() > king.file()),
            'q' => candidates.iter().find(|r| r.file() < king.file()),
            'a'..='h' => {
                let file = File::from_char(c).ok_or(FenError::BadCastlingChar(c))?;
                Some(Square::from_coords(file, rank))
                    .filter(|&sq| candidates.contains(sq) && file != king.file())
            }
            _ => return Err(FenError::BadCastlingChar(c)),
        };
        let rook = rook.ok_or(FenError::ImpossibleCastling(c))?;
        // At most one right per wing.
        let same_wing = (rooks & Bitboard::from_rank(rank))
            .iter()
            .any(|r| r != rook && (r.file() > king.file()) == (rook.file() > king.file()));
        if same_wing {
            return Err(FenError::ImpossibleCastling(c));
        }
        rooks.add(rook);
    }
    pos.castling = CastlingRights(rooks);
    Ok(())
}

fn parse_ep(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let ep = Square::from_name(field).ok_or(FenError::BadEnPassant)?;
    let us = pos.side;
    let them = !us;
    let (ep_rank, pawn_sq, origin) = match us {
        Color::White => (Rank::Sixth, ep.offset(-8), ep.offset(8)),
        Color::Black => (Rank::Third, ep.offset(8), ep.offset(-8)),
    };
    let occ = pos.occupied();
    let ok = ep.rank() == ep_rank
        && !occ.contains(ep)
        && pawn_sq.is_some_and(|p| pos.pieces(them, Role::Pawn).contains(p))
        && origin.is_some_and(|o| !occ.contains(o));
    if !ok {
        return Err(FenError::ImpossibleEnPassant(ep));
    }
    // Keep it only when a pawn can (pseudo-legally) capture, so equal positions compare and hash equal.
    if (pawn_attacks(them, ep) & pos.pieces(us, Role::Pawn)).any() {
        pos.ep = Some(ep);
    }
    Ok(())
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl core::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}
