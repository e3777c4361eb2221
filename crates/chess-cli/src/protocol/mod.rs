//! Text protocols of the chess engine. A session turns input lines into replies written through a
//! caller-supplied sink, so the command-line front end stays thin and the protocol is testable by
//! transcript.
//!
//! [`uci`] the Universal Chess Interface: its session and the byte-line reader of its input (a line
//! that is not UTF-8 is reported, not fatal).

pub mod uci;

pub use uci::UciSession;
