//! Text protocols of the Othello engine. Each session turns input lines into replies and never does
//! I/O itself, so the command-line front-ends stay thin and the protocols are testable by transcript.
//!
//! [`game`] the game record shared by the protocols, [`gtp`] the Go Text Protocol for Othello.

pub mod game;
pub mod gtp;

pub use game::{Game, MoveError};
pub use gtp::GtpSession;
