//! Othello rules: bitboards, move generation, flips, hashing, symmetries, text formats and perft.
//!
//! A [`Board`] holds the discs of the side to move (`player`) and of the other side (`opponent`)
//! as two `u64`, bit index = square with A1 = 0, B1 = 1, ..., H1 = 7, A2 = 8, ..., H8 = 63 (Edax).
//! A move XORs the flipped discs in and swaps the sides (seed 003, Edax's representation).
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
//!
//! # CPU variants and dispatching once
//! [`flip()`](flip::portable::flip) and [`get_moves`] at the crate root are the portable versions.
//! Each has a reference and SIMD variants with identical results: [`flip::scalar`],
//! [`flip::portable`], [`flip::avx2`], [`flip::avx512`] and [`moves::scalar`], [`moves::portable`],
//! [`moves::avx2`], [`moves::avx512`]. The SIMD ones are `#[target_feature]` functions: calling them
//! from ordinary code needs `unsafe` and costs a call each time, so a search should pick the level
//! ONCE at its root ([`Cpu::detect`]) and run a copy of itself compiled with the same features, in
//! which those calls are safe and inline:
//!
//! ```
//! # #[cfg(target_arch = "x86_64")] {
//! use ply_othello::{flip, moves, Cpu};
//! #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
//! fn mobility_after_avx2(sq: usize, p: u64, o: u64) -> u32 {
//!     let f = flip::avx2::flip(sq, p, o); // safe and inlined: same features
//!     moves::avx2::get_moves(o ^ f, p ^ f ^ (1 << sq)).count_ones()
//! }
//! if Cpu::detect() != Cpu::Portable {
//!     // SAFETY: AVX2, BMI1/2, POPCNT and LZCNT are present (Cpu::detect checked them).
//!     let n = unsafe { mobility_after_avx2(37, 0x0000_0008_1000_0000, 0x0000_0010_0800_0000) };
//!     assert_eq!(n, 3);
//! }
//! # }
//! ```
//!
//! [`perft()`] does exactly this (one recursive copy per [`Cpu`] level, chosen at the root).
//!
//! # Main entry points
//! - Rules: [`Board`] (`start`, `moves`, `play`, `play_flips`, `next`, `pass`, `is_game_over`,
//!   `final_score`, `hash`, `symmetry`), [`final_score()`] on raw bitboards, [`get_moves`],
//!   [`flip()`](flip::portable::flip), [`symmetry`], [`hash`] (CRC32C, `hash::hash_sse42` /
//!   `hash::hash_portable`).
//! - Game records: [`Game`] (moves with passes, undo/redo), [`ggf`] (GGF, the NBoard/GGS record
//!   format), [`wthor`] (the WTHOR database of the French federation).
//! - Text: [`Position`] (`FromStr`/`Display`: 64 squares + side), [`parse_obf_line`] /
//!   [`parse_obf`] → [`Obf`], [`parse_moves`] / [`play_moves`] / [`parse_and_play`] /
//!   [`format_moves`], [`parse_square`] / [`square_name`]; errors are [`ParseError`].
//! - Perft (issue 5 convention: a forced pass uses a ply, a finished game is one leaf at every greater
//!   depth): [`perft(board, depth) -> u64`](perft()), [`perft_with(board, depth, cpu)`](perft_with),
//!   [`perft_parallel(board, depth, threads)`](perft_parallel), and
//!   [`perft::perft_reference`] (slow, obvious).
#![deny(missing_docs)]

pub mod board;
pub mod color;
pub mod error;
pub mod flip;
pub mod game;
pub mod ggf;
pub mod hash;
pub mod lines;
pub mod movelist;
pub mod moves;
pub mod obf;
pub mod perft;
pub mod position;
pub mod square;
pub mod symmetry;
pub mod wthor;

pub use board::{final_score, Board};
pub use color::Color;
pub use error::ParseError;
pub use flip::portable::flip;
pub use game::{Game, MoveError};
pub use ggf::{parse_ggf, to_ggf, GgfError, GgfGame};
pub use movelist::{format_moves, parse_and_play, parse_moves, play_moves};
pub use moves::portable::get_moves;
pub use obf::{parse_obf, parse_obf_line, Obf, Verdict};
pub use perft::{perft, perft_parallel, perft_with, Cpu};
pub use position::Position;
pub use square::{parse_square, square_name, PASS};
pub use wthor::{WthorError, WthorFile, WthorGame, WthorPly};
