//! The packed training record: one position in 32 bytes, for files of tens of millions of
//! positions that the trainer reads straight into memory (`ply-chess nnue-data convert` writes
//! them from `datagen` text lines).
//!
//! # Byte layout (all little-endian)
//!
//! ```text
//!  offset size  field
//!   0      8    occupancy: u64, bit s set when square s (a1 = 0 .. h8 = 63) holds a piece
//!   8     16    piece codes: one 4-bit code per occupied square, in ascending square order;
//!               the i-th code is the low nibble of byte 8 + i/2 when i is even, the high nibble
//!               when i is odd; nibbles past the last piece are 0
//!               code = 8 * colour (White 0, Black 1) + role (pawn 0 .. king 5)
//!  24      2    score: i16, search score in centipawns from White's side
//!  26      1    flags: bit 0 side to move (0 White, 1 Black),
//!               bits 1-2 game result from White's side (0 Black won, 1 draw, 2 White won),
//!               bits 3-7 zero
//!  27      1    en-passant square (0..63), 64 when there is none
//!  28      4    game index: u32
//! ```
//!
//! Castling rights and move counters are not kept: the network does not see them. A record
//! with more than 32 pieces, an unknown piece code, a set unused bit, not exactly one king a
//! side, a pawn on the first or last rank, or an en-passant square off the third and sixth
//! ranks is a [`PackedError`], never a panic.

use ply_chess::{Bitboard, Color, Piece, Position, Role, Square};

/// Bytes a record.
pub const RECORD_BYTES: usize = 32;

/// The en-passant byte of a position without an en-passant square.
const NO_EP: u8 = 64;

/// Why 32 bytes are not a record, or a position cannot be packed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PackedError {
    /// More than 32 occupied squares.
    #[error("{0} occupied squares (at most 32)")]
    TooManyPieces(u32),
    /// A piece code that names no piece (6, 7, 14 or 15).
    #[error("bad piece code {code} on square {square}")]
    PieceCode {
        /// The code.
        code: u8,
        /// Its square.
        square: u8,
    },
    /// A nibble past the last piece, or an unused flag bit, is not zero.
    #[error("unused bits are set")]
    UnusedBits,
    /// The result field is 3.
    #[error("bad result code {0}")]
    Result(u8),
    /// The en-passant byte is neither 64 nor a square of the third or sixth rank.
    #[error("bad en-passant square {0}")]
    EnPassant(u8),
    /// Not exactly one king of each colour.
    #[error("not exactly one king a side")]
    Kings,
    /// A pawn on the first or last rank.
    #[error("pawn on a back rank")]
    BackRankPawn,
    /// The score does not fit an i16.
    #[error("score {0} does not fit in 16 bits")]
    Score(i32),
    /// The game index does not fit a u32.
    #[error("game index {0} does not fit in 32 bits")]
    Game(u64),
    /// A game result other than 0, 0.5 or 1.
    #[error("game result {0} is not 0, 0.5 or 1")]
    GameResult(f32),
}

/// Game result from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Black won.
    BlackWin = 0,
    /// Draw.
    Draw = 1,
    /// White won.
    WhiteWin = 2,
}

impl Outcome {
    /// White's score of the game: 0, 0.5 or 1.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// The outcome of White's score 0, 0.5 or 1.
    ///
    /// # Errors
    /// [`PackedError::GameResult`] for any other number.
    pub fn from_white_score(r: f32) -> Result<Outcome, PackedError> {
        if r == 0.0 {
            Ok(Outcome::BlackWin)
        } else if r == 0.5 {
            Ok(Outcome::Draw)
        } else if r == 1.0 {
            Ok(Outcome::WhiteWin)
        } else {
            Err(PackedError::GameResult(r))
        }
    }
}

/// One training position, unpacked: what the trainer needs of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedPosition {
    /// Occupied squares.
    pub occupied: u64,
    /// The piece of each occupied square, in ascending square order.
    pub pieces: Vec<(Square, Piece)>,
    /// Side to move.
    pub stm: Color,
    /// En-passant square.
    pub ep: Option<Square>,
    /// Search score, centipawns, White's side.
    pub score: i16,
    /// Game result.
    pub outcome: Outcome,
    /// Index of the game.
    pub game: u32,
}

fn piece_code(p: Piece) -> u8 {
    8 * p.color.index() as u8 + p.role.index() as u8
}

/// The 4-bit code of the `i`-th occupied square of `record`.
#[inline]
pub fn nibble(record: &[u8; RECORD_BYTES], i: usize) -> u8 {
    (record[8 + i / 2] >> (4 * (i & 1))) & 15
}

impl PackedPosition {
    /// Takes the board of `pos` with its score and result.
    ///
    /// # Errors
    /// A score out of i16, a game index out of u32, a position with more than 32 pieces.
    pub fn from_position(
        pos: &Position,
        score: i32,
        outcome: Outcome,
        game: u64,
    ) -> Result<PackedPosition, PackedError> {
        let occ = pos.occupied();
        if occ.count() > 32 {
            return Err(PackedError::TooManyPieces(occ.count()));
        }
        let pieces = occ
            .into_iter()
            .filter_map(|sq| pos.piece_at(sq).map(|p| (sq, p)))
            .collect();
        Ok(PackedPosition {
            occupied: occ.0,
            pieces,
            stm: pos.side_to_move(),
            ep: pos.ep_square(),
            score: i16::try_from(score).map_err(|_| PackedError::Score(score))?,
            outcome,
            game: u32::try_from(game).map_err(|_| PackedError::Game(game))?,
        })
    }

    /// The 32 bytes of the record.
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[0..8].copy_from_slice(&self.occupied.to_le_bytes());
        for (i, &(_, p)) in self.pieces.iter().enumerate().take(32) {
            b[8 + i / 2] |= piece_code(p) << (4 * (i & 1));
        }
        b[24..26].copy_from_slice(&self.score.to_le_bytes());
        b[26] = (self.stm == Color::Black) as u8 | (self.outcome as u8) << 1;
        b[27] = self.ep.map_or(NO_EP, |s| s.index() as u8);
        b[28..32].copy_from_slice(&self.game.to_le_bytes());
        b
    }

    /// Reads a record, checking every field.
    ///
    /// # Errors
    /// A [`PackedError`] naming the first bad field.
    pub fn decode(b: &[u8; RECORD_BYTES]) -> Result<PackedPosition, PackedError> {
        let occupied = u64::from_le_bytes(b[0..8].try_into().unwrap_or_default());
        let n = occupied.count_ones();
        if n > 32 {
            return Err(PackedError::TooManyPieces(n));
        }
        if (n as usize..32).any(|i| nibble(b, i) != 0) || b[26] >> 3 != 0 {
            return Err(PackedError::UnusedBits);
        }
        let mut pieces = Vec::with_capacity(n as usize);
        let mut kings = [0; 2];
        for (i, sq) in Bitboard(occupied).into_iter().enumerate() {
            let code = nibble(b, i);
            let (color, role) = (
                Color::from_white(code < 8),
                Role::from_index(code as usize & 7),
            );
            let role = match role {
                Some(r) => r,
                None => {
                    return Err(PackedError::PieceCode {
                        code,
                        square: sq.index() as u8,
                    })
                }
            };
            if role == Role::King {
                kings[color.index()] += 1;
            }
            if role == Role::Pawn && (sq.index() < 8 || sq.index() >= 56) {
                return Err(PackedError::BackRankPawn);
            }
            pieces.push((sq, Piece { color, role }));
        }
        if kings != [1, 1] {
            return Err(PackedError::Kings);
        }
        let outcome = match (b[26] >> 1) & 3 {
            0 => Outcome::BlackWin,
            1 => Outcome::Draw,
            2 => Outcome::WhiteWin,
            r => return Err(PackedError::Result(r)),
        };
        let ep = match b[27] {
            NO_EP => None,
            s @ (16..24 | 40..48) => Some(Square::new(s)),
            s => return Err(PackedError::EnPassant(s)),
        };
        Ok(PackedPosition {
            occupied,
            pieces,
            stm: Color::from_white(b[26] & 1 == 0),
            ep,
            score: i16::from_le_bytes([b[24], b[25]]),
            outcome,
            game: u32::from_le_bytes([b[28], b[29], b[30], b[31]]),
        })
    }

    /// The board as a FEN (no castling rights, move counters `0 1`): enough for an evaluation.
    pub fn fen(&self) -> String {
        let mut board = [None; 64];
        for &(sq, p) in &self.pieces {
            board[sq.index()] = Some(p);
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(p) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let ep = self.ep.map_or("-".to_string(), |s| s.to_string());
        format!("{fen} {} - {ep} 0 1", self.stm.char())
    }
}
