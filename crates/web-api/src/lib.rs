//! The requests of ply's web pages, without a transport: what `ply serve` answers over HTTP and
//! what the browser build (WebAssembly, in a worker) answers to the same page.
//!
//! Each request is a function of its game module ([`othello`], [`chess`]) taking the request's
//! fields (the JSON body or the query string, deserialized) and checking the game before
//! anything else: a bad position or move is an [`ApiError`] at once. A request that needs no
//! search returns its reply; one that does returns a [`Job`] (its reply after a search) or a
//! [`Stream`] (events sent to a [`Sink`] while it searches), which the caller runs with the
//! [`Engines`] of a search slot (the server, on a thread of its own) or of its worker (the
//! browser). Limits are clamped on the way in ([`limits`]).
//!
//! | function | HTTP route of the server |
//! |---|---|
//! | [`othello::state`], [`othello::load`] | `POST /api/othello/state`, `/load` |
//! | [`othello::play`], [`othello::solve`] (jobs) | `POST /api/othello/play`, `/solve` |
//! | [`othello::hint`], [`othello::review`] (streams) | `GET /api/othello/hint`, `/review` |
//! | [`chess::state`], [`chess::load`], [`chess::export`], [`chess::chess960`] | `POST /api/chess/state`, `/load`, `/pgn`, `/chess960` |
//! | [`chess::play`] (job) | `POST /api/chess/play` |
//! | [`chess::analyse`], [`chess::review`] (streams) | `GET /api/chess/analyse`, `/review` |
//! | [`chess::probe`] | `GET /api/chess/probe` |
//! | [`health()`] | `GET /api/health` |
//!
//! # Modules
//! In layers: a module uses only modules on lower lines.
//!
//! ```text
//! requests   othello, chess (each: request and reply types, checks, planned searches)
//! services   job (Engines, Job, Stream, Sink), health (the health reply) ─> book (the Othello
//!            opening book), tablebase (Syzygy tables: opening, probing)
//! base       limits (clamps), error (ApiError)
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod book;
pub mod chess;
pub mod error;
pub mod health;
pub mod job;
pub mod limits;
pub mod othello;
pub mod tablebase;

pub use error::ApiError;
pub use health::health;
pub use job::{Engines, Job, Sink, Stream, StreamSearch};
