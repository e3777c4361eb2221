//! Offline tools of the ply chess engine (not meant for crates.io): [`datagen`], the self-play
//! generator of evaluation training data (`ply-chess datagen`); [`book`], the EPD opening books
//! it starts its games from, and [`openings`], the small opening set built in; [`tune`], the Texel-style tuner of the evaluation weights
//! (`ply-chess tune`); [`nnue`], the NNUE trainer and its packed data format (`ply-chess
//! nnue-data`, `ply-chess train-nnue`); [`wdl`], the fit of the engine's win/draw/loss model to
//! self-play results (`ply-chess wdl-fit`).
//!
//! A few self-play games at a tiny node budget, kept in memory:
//!
//! ```
//! use ply_chess::Position;
//! use ply_chess_tools::datagen::{play_game, Config};
//! let config = Config { nodes: 400, per_game: Some(3), ..Config::default() };
//! let book = [Position::startpos()];
//! let game = play_game(&config, &book, None, 3);
//! assert!(game.samples.len() <= 3);
//! for s in &game.samples {
//!     assert!(Position::from_fen(&s.fen).is_ok());
//!     assert!([0.0, 0.5, 1.0].contains(&s.result));
//! }
//! ```
#![deny(missing_docs)]

pub mod book;
pub mod datagen;
pub mod nnue;
pub mod openings;
pub mod tune;
pub mod wdl;
