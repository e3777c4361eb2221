//! The ply chess engine: a handcrafted tapered evaluation whose middlegame/endgame pair is one
//! packed integer ([`Score`], seed 000), interior-node recognizers indexed by material signatures
//! (seed 001), and the search behind the `ply-chess` UCI binary.
#![deny(missing_docs)]

mod kpk;
mod score;

pub use kpk::is_win as kpk_is_win;
pub use score::Score;
