//! What ply's command-line programs (`ply-chess`, `ply-othello`) share, so each is written once:
//!
//! - [`lines`]: protocol input read as lines of bytes ([`ByteLines`]): a line that is not UTF-8 is
//!   handed on as an error ([`NotUtf8`]) for the session to answer in its protocol's own form,
//!   instead of ending the input as `BufRead::lines` does; a read error ends the lines and is kept
//!   for the session to report ([`ByteLines::take_error`]).
//! - [`program`]: the exit statuses of both programs ([`RUNTIME_ERROR`], [`USAGE_ERROR`]), clap's
//!   usage errors under the program's own prefix ([`usage_error`]), and the default handling of a
//!   closed standard output ([`quiet_on_closed_pipe`]).
#![deny(missing_docs)]

pub mod lines;
pub mod program;

pub use lines::{decode, ByteLines, NotUtf8};
pub use program::{quiet_on_closed_pipe, usage_error, RUNTIME_ERROR, USAGE_ERROR};
