//! Othello rules: bitboards, move generation, flips, hashing, text formats and perft.
//!
//! A [`Board`] holds the discs of the side to move (`player`) and of the other side (`opponent`)
//! as two `u64`, bit index = square with A1 = 0, B1 = 1, ..., H1 = 7, A2 = 8, ..., H8 = 63 (Edax).
//!
//! ```
//! use ply_othello::{Board, get_moves, flip, square::parse_square};
//! let mut b = Board::start();
//! assert_eq!(get_moves(b.player, b.opponent).count_ones(), 4);
//! let f5 = parse_square("F5").unwrap();
//! let flipped = flip(f5, b.player, b.opponent);
//! b.play_flips(f5, flipped);
//! assert_eq!(b.opponent.count_ones(), 4); // black, now the opponent, has 4 discs
//! ```
#![deny(missing_docs)]

pub mod board;
pub mod color;
pub mod error;
pub mod flip;
pub mod hash;
pub mod lines;
pub mod movelist;
pub mod moves;
pub mod obf;
pub mod perft;
pub mod position;
pub mod square;
pub mod symmetry;

pub use board::Board;
pub use color::Color;
pub use error::ParseError;
pub use flip::portable::flip;
pub use movelist::{format_moves, parse_and_play, parse_moves, play_moves};
pub use moves::portable::get_moves;
pub use obf::{parse_obf, parse_obf_line, Obf};
pub use perft::{perft, perft_with, Cpu};
pub use position::Position;
pub use square::{parse_square, square_name, PASS};
