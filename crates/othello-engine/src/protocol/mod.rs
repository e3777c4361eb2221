//! Text protocols of the Othello engine. Each session turns input lines into replies and never does
//! I/O itself, so the command-line front-ends stay thin and the protocols are testable by transcript.
//!
//! [`game`] the game record shared by the protocols, [`ggf`] GGF game records, [`format`] shared
//! text (variations, depths, the board diagram), [`gtp`] the Go Text Protocol for Othello,
//! [`nboard`] the NBoard protocol, [`text`] the interactive Edax-style console.

pub mod format;
pub mod game;
pub mod ggf;
pub mod gtp;
pub mod nboard;
pub mod text;

pub use game::{Game, MoveError};
pub use ggf::{parse_ggf, GgfError, GgfGame};
pub use gtp::GtpSession;
pub use nboard::NboardSession;
pub use text::TextSession;
