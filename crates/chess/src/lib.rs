//! Chess rules for ply: bitboards, attack tables, fully legal move generation, packed moves, FEN,
//! Zobrist hashing, SAN/UCI text, draw rules and perft. Standard chess and Chess960.
//!
//! # API summary
//! - Board coordinates: [`Square`] (`A1 = 0 .. H8 = 63`; `file()`, `rank()`, `index()`,
//!   `flip_vertical()`), [`File`], [`Rank`], [`Color`] (`!color`), [`Role`] (`Pawn = 0 .. King = 5`),
//!   [`Piece`] `{ color, role }`.
//! - [`Bitboard`] (`u64` newtype): `&`, `|`, `^`, `!`, `count()`, `first()`, `pop()`, iteration over
//!   squares, `north/south/east/west/shift`, `contains`, `more_than_one`.
//! - Attacks ([`attacks`]): `pawn_attacks(color, sq)`, `knight_attacks(sq)`, `king_attacks(sq)`,
//!   `bishop_attacks(sq, occ)`, `rook_attacks(sq, occ)`, `queen_attacks(sq, occ)`, `between`, `line`.
//!   Sliding lookups are fancy magics ([`Magic`]) or BMI2 PEXT ([`Pext`]) behind [`Sliders`].
//!   The choice has one home, [`Pext::detect`]: the CPU is asked once per process, at first use,
//!   and the answer cached in a `static`; the attack functions, `attackers`, `legal_moves`,
//!   `tactical_moves`, `count_legal_moves`, `legal_moves_from`, `legal_from_compact` and `perft`
//!   (and the chess engine's move picker) all dispatch on it. Every generator also has a
//!   `*_with(sliders)` form, taking the token explicitly (tests compare both lookups).
//! - [`Position`]: `from_fen` / `to_fen` ([`FenError`]), `from_epd`, `startpos`, `side_to_move`,
//!   `pieces(color, role)`, `by_color`, `by_role`, `occupied`, `piece_at`, `king`, `ep_square`,
//!   `castling_rights` ([`CastlingRights::any`]), `halfmove_clock`, `fullmove_number`, `checkers`,
//!   `is_check`, `pinned`, `attackers`, `legal_moves` ([`MoveList`]), `tactical_moves`,
//!   `count_legal_moves`, `legal_moves_from`, `is_legal`, `gives_check`, `play` (copy-make, returns the
//!   new position), `play_in_place`, `try_play`, `make`/`unmake` ([`Undo`]), `null_move`,
//!   `hash` (Zobrist), `pawn_key`, `material_signature(color)` (Heinz's DarkThought recognizers),
//!   `count(color, role)`, `is_checkmate`, `is_stalemate`, `is_insufficient_material`,
//!   `is_fifty_move_draw`, `san` / `parse_san`, `parse_uci`, `decompress`, `legal_from_compact`
//!   (one move checked without generating the others), `push_tactical_moves_with` /
//!   `push_quiet_moves_with` (the two halves of a staged generation).
//! - [`Move`]: one packed `u32` (as in the Mediocre chess blog's "New move representation"):
//!   `from() to() role() captured() kind() is_capture() is_en_passant() is_castle() promotion()`,
//!   `compact()` (16 bits), `uci(chess960)`. Castling moves are encoded king-takes-rook (`to()` is
//!   the rook's square).
//! - [`perft()`], [`divide`], [`repetitions`] (hash history).
//! - [`chess960`]: the Chess960 start positions by their (Scharnagl) numbers, 0 to 959.
//!
//! ```
//! use ply_chess::{perft, Position};
//! let pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 20);
//! assert_eq!(perft(&pos, 3), 8902);
//! let m = pos.parse_san("Nf3").unwrap();
//! assert_eq!(m.to_string(), "g1f3");
//! ```
#![deny(missing_docs)]

pub mod attacks;
mod bitboard;
mod castling;
pub mod chess960;
mod color;
mod draw;
mod fen;
mod game;
mod movecheck;
mod movegen;
mod moves;
mod notation;
mod perft;
pub mod pgn;
mod piece;
mod position;
mod ray;
mod sliders;
mod square;
mod unmake;
mod zobrist;

pub use attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
pub use bitboard::{Bitboard, Squares};
pub use castling::{CastlingRights, CastlingSide};
pub use color::Color;
pub use draw::repetitions;
pub use fen::{FenError, STARTPOS};
pub use game::{Game, GameResult, Status};
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use notation::{MoveParseError, Uci};
pub use perft::{divide, perft, perft_copy_make, perft_with};
pub use piece::{Piece, Role};
pub use position::{IllegalMoveError, Position};
pub use sliders::{Magic, Pext, Sliders};
pub use square::{File, Rank, Square};
pub use unmake::Undo;
