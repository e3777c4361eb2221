//! Text protocols of the Othello engine. Each session turns input lines into replies and never does
//! I/O itself, so the command-line front-ends stay thin and the protocols are testable by transcript.
//!
//! [`format`](mod@format) shared text (variations, depths, the board diagram), [`clock`] shared
//! time (times as typed, game clocks, pondering), [`gtp`] the Go Text Protocol for Othello,
//! [`nboard`] the NBoard protocol, [`text`] the interactive Edax-style console. Their input is
//! read with `ply_cli_support::ByteLines` (a line that is not UTF-8 is reported, not fatal). The
//! game record and GGF are in the rules crate (`ply_othello::Game`, `ply_othello::ggf`).

pub mod clock;
pub mod format;
pub mod gtp;
pub mod nboard;
pub mod text;

pub use gtp::GtpSession;
pub use nboard::NboardSession;
pub use text::TextSession;
