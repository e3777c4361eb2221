//! Chess rules: bitboards, legal move generation, packed moves, FEN, Zobrist hashing and perft.
#![deny(missing_docs)]
