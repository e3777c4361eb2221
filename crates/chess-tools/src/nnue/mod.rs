//! NNUE training (`ply-chess nnue-data`, `ply-chess train-nnue`): the compact training-data
//! format ([`packed`], which lives with `datagen` that writes it), the data in memory ([`dataset`]), the float network ([`model`]), AdamW
//! ([`optim`]), the training loop ([`train`]) and the quantised `PLYNNUE2` file ([`quantise`]),
//! following the network layout of `ply_chess_engine::nnue` (the contract with the engine's inference).
//!
//! A tiny network trained on a few positions and written as a network file:
//!
//! ```
//! use ply_chess::Position;
//! use ply_chess_tools::nnue::{dataset::Dataset, model::Shape, packed::*, quantise::Quantised, train::*};
//! let pos = Position::startpos();
//! let rec = PackedPosition::from_position(&pos, 20, Outcome::Draw, 0).unwrap().encode();
//! let data = Dataset::from_records(vec![rec; 64]).unwrap();
//! let config = Config { shape: Shape { hidden: 16, buckets: 1 }, batch: 16, epochs: 1, ..Config::default() };
//! let mut trainer = Trainer::new(config).unwrap();
//! let (train, held) = data.split(0.0);
//! let report = trainer.run_epoch(&data, &train, &held, |_| {}).unwrap();
//! assert_eq!(report.positions, 64);
//! let bytes = Quantised::from_model(&trainer.model).to_bytes();
//! assert_eq!(Quantised::from_bytes(&bytes).unwrap(), Quantised::from_model(&trainer.model));
//! ```

pub mod dataset;
pub mod model;
pub mod optim;
pub use crate::datagen::packed;
pub mod quantise;
pub mod train;

#[cfg(test)]
mod tests;
