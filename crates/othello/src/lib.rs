//! Othello rules: bitboards, move generation, flips, hashing, symmetries, text formats and perft.
//!
//! A [`Board`] holds the discs of the side to move (`player`) and of the other side (`opponent`)
//! as two `u64`, bit index = square with A1 = 0, B1 = 1, ..., H1 = 7, A2 = 8, ..., H8 = 63 (Edax).
//! A move XORs the flipped discs in and swaps the sides (Edax's representation, `board.c`).
//!
//! ```
//! use ply_othello::{Board, get_moves, flip, Square};
//! let mut b = Board::start();
//! assert_eq!(get_moves(b.player(), b.opponent()).count_ones(), 4);
//! let f5: Square = "F5".parse().unwrap();
//! let flipped = flip(f5.index(), b.player(), b.opponent());
//! b.play_flips(f5.index(), flipped);
//! assert_eq!(b.opponent().count_ones(), 4); // black, now the opponent, has 4 discs
//! ```
//!
//! # CPU variants and dispatching once
//! [`flip()`](flip::portable::flip) and [`get_moves`] at the crate root are the portable versions.
//! Each has a reference and SIMD variants with identical results: [`flip::scalar`],
//! [`flip::portable`], [`flip::avx2`], [`flip::avx512`] and [`moves::scalar`], [`moves::portable`],
//! [`moves::avx2`], [`moves::avx512`]. The SIMD ones are `#[target_feature]` functions: calling them
//! from ordinary code needs `unsafe` and costs a call each time. This crate is the one place of
//! the crate family that detects the CPU and hands out [`kernel`] tokens:
//!
//! 1. [`Cpu::detect`] finds the best level once (cached); a token ([`kernel::Portable`],
//!    [`kernel::Avx2`], [`kernel::Avx512`]) exists only where its level is supported, and its
//!    [`Kernel`] methods (`moves`, `flip`, `hash`) use that level's instructions.
//! 2. A search is written once, generic over the token's type, and instantiated per kernel by
//!    [`for_each_kernel!`], which adds the kernel's `#[target_feature]` attribute (the feature
//!    strings live only there). Inside a copy the token's methods inline.
//! 3. [`with_kernel!`] matches the level once and enters the copy through one
//!    `SAFETY`-commented call per copy (the token proves the features).
//!
//! ```
//! use ply_othello::{for_each_kernel, with_kernel, Cpu, Kernel};
//! trait Mobility: Kernel {
//!     fn mobility_after(self, sq: usize, p: u64, o: u64) -> u32;
//! }
//! macro_rules! mobility_copy {
//!     ($k:ty, $(#[$attr:meta])*) => {
//!         impl Mobility for $k {
//!             fn mobility_after(self, sq: usize, p: u64, o: u64) -> u32 {
//!                 $(#[$attr])*
//!                 fn copy(k: $k, sq: usize, p: u64, o: u64) -> u32 {
//!                     let f = k.flip(sq, p, o); // inlined: same features
//!                     k.moves(o ^ f, p ^ f ^ (1 << sq)).count_ones()
//!                 }
//!                 // SAFETY: the token `self` proves the features `copy` is compiled with.
//!                 #[allow(unused_unsafe)]
//!                 unsafe { copy(self, sq, p, o) }
//!             }
//!         }
//!     };
//! }
//! for_each_kernel!(mobility_copy);
//! let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000); // start, Black to move
//! let n = with_kernel!(Cpu::detect(), |k| k.mobility_after(37, p, o));
//! assert_eq!(n, 3);
//! ```
//!
//! [`perft()`] does exactly this (one recursive copy per [`Cpu`] level, chosen at the root), and
//! so do the solver and the midgame search of `ply-othello-engine`.
//!
//! # Main entry points
//! - Rules: [`Board`] (`new` checked, `start`, `moves`, `play`, `play_flips`, `next`, `pass`,
//!   `is_game_over`, `final_score`, `hash`, `symmetry`) with [`BoardError`], [`final_score()`]
//!   on raw bitboards, [`get_moves`], [`flip()`](flip::portable::flip), [`symmetry`], [`hash`]
//!   (CRC32C, `hash::hash_sse42` / `hash::hash_portable`).
//! - Game records: [`Game`] (moves with passes, undo/redo), [`ggf`] (GGF, the NBoard/GGS record
//!   format), [`wthor`] (the WTHOR database of the French federation).
//! - Text: [`Position`] (`FromStr`/`Display`: 64 squares + side), [`parse_obf_line`] /
//!   [`parse_obf`] → [`Obf`], [`parse_moves`] / [`play_moves`] / [`parse_and_play`] /
//!   [`format_moves`]; errors are [`ParseError`].
//! - Moves: [`Square`] (`A1`..`H8` and [`Square::PASS`]; `Display`/`FromStr`, `index`, `bit`), the
//!   one move type of the crate family. The bitboard layer ([`Board`], [`flip()`], the kernels)
//!   takes raw square indices (`Square::index`).
//! - Perft (issue 5 convention: a forced pass uses a ply, a finished game is one leaf at every greater
//!   depth): [`perft(board, depth) -> u64`](perft()), [`perft_with(board, depth, cpu)`](perft_with),
//!   [`perft_parallel(board, depth, threads)`](perft_parallel), and [`perft_reference`] (slow,
//!   obvious).
//!
//! # Modules
//! Public, because callers reach items inside them:
//! - [`flip`](mod@flip) and [`moves`]: one submodule per CPU variant (`scalar` reference, `portable`,
//!   `avx2`, `avx512`), all tested against the reference.
//! - [`kernel`]: the CPU level ([`Cpu`]) and its tokens (`Portable`, `Avx2`, `Avx512`), the
//!   [`Kernel`] trait and the macros [`for_each_kernel!`] / [`with_kernel!`].
//! - [`hash`]: CRC32C of a board, with its SSE4.2 and portable versions.
//! - [`symmetry`]: the 8 symmetries of the board on bitboards and squares.
//! - [`lines`]: the geometry the flip variants share (directions, ray masks, neighbours), for
//!   callers writing their own move generators.
//! - [`ggf`] and [`wthor`]: the two game-record formats, each with its reader's helpers (GGF
//!   move tokens; WTHOR replay and directory reading).
//!
//! Private, their items re-exported here: `board` ([`Board`], [`final_score()`]),
//! `color` ([`Color`]), `error` ([`ParseError`], [`BoardError`]), `square` ([`Square`]), `game` ([`Game`], [`MoveError`],
//! [`color_name`]), `movelist` (move-list text), `obf` ([`Obf`], [`Verdict`], the OBF readers),
//! `position` ([`Position`]), `perft` (the perft functions).
#![deny(missing_docs)]

mod board;
mod color;
mod error;
pub mod flip;
mod game;
pub mod ggf;
pub mod hash;
pub mod kernel;
pub mod lines;
mod movelist;
pub mod moves;
mod obf;
mod perft;
mod position;
mod square;
pub mod symmetry;
pub mod wthor;

pub use board::{final_score, Board};
pub use color::Color;
pub use error::{BoardError, ParseError};
pub use flip::portable::flip;
pub use game::{color_name, Game, MoveError};
pub use ggf::{parse_ggf, to_ggf, GgfError, GgfGame};
pub use kernel::{Cpu, Kernel};
pub use movelist::{format_moves, parse_and_play, parse_moves, play_moves};
pub use moves::portable::get_moves;
pub use obf::{parse_obf, parse_obf_line, Obf, Verdict};
pub use perft::{perft, perft_parallel, perft_reference, perft_with};
pub use position::Position;
pub use square::Square;
pub use wthor::{WthorError, WthorFile, WthorGame, WthorPly};
