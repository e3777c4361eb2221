//! `ply serve`: a browser front end for the ply engines, served by ply itself.
//!
//! The server is an [axum](https://docs.rs/axum) router on a tokio runtime. The pages
//! (`/`, `/chess`, `/othello`) and their scripts are embedded in the binary ([`assets`]); no file
//! is ever read from disk. What each request does is [`ply_web_api`]'s (the browser build runs
//! the same requests in a worker): the routes read a request, hand it over, and run the search
//! it plans on a thread of its own with a search slot. The game state lives in the browser:
//! every request carries the start position and the moves, which are checked before anything
//! else.
//!
//! | route | what it does |
//! |---|---|
//! | `GET /`, `/chess`, `/othello`, `/assets/*` | the embedded pages |
//! | `POST /api/othello/state`, `/api/othello/load` | checks a position and moves (or loads OBF, GGF, a move list) |
//! | `POST /api/othello/play`, `/api/othello/solve` | the engine's move; the exact scores of every move |
//! | `GET /api/othello/hint` | server-sent events: every legal square's score after each iteration |
//! | `GET /api/othello/review` | server-sent events: progress, then every move of the game judged in discs |
//! | `POST /api/othello/learn` | adds the game to the server's opening book (`--othello-book`, ply's own format) |
//! | `POST /api/chess/state`, `/api/chess/load` | checks a FEN and moves (or loads a FEN or PGN moves) |
//! | `POST /api/chess/pgn` | the PGN of a move tree (the main line and its variations) |
//! | `POST /api/chess/play` | the engine's move |
//! | `GET /api/chess/analyse` | server-sent events: depth, score and principal variations |
//! | `GET /api/chess/review` | server-sent events: progress, then every move of the game judged (accuracy, ACPL) |
//! | `GET /api/chess/probe` | Syzygy WDL and DTZ of the position and of each legal move |
//! | `POST /api/chess/chess960` | the Chess960 start position of a number (0 to 959) |
//! | `GET /api/health` | the search slots, all and free; the tables; the Othello book |
//!
//! Bad input gets a JSON error (`{"error": ...}`) with a 4xx status ([`ApiError`]); time and
//! node limits are clamped ([`limits`]); at most [`Config::max_searches`] searches run at once,
//! and a request that finds them all busy for [`Config::queue_wait`] gets 503 ([`pool`]). A
//! stream (analysis, hints, review) holds its slot until it ends or the client goes away.
//!
//! # Modules
//! In layers: a module uses only modules on lower lines, or on its own line along an arrow.
//!
//! ```text
//! front      cli (the command line), server (router, listener)
//! handlers   api::othello, api::chess (each: extract, hand to ply_web_api, run on a slot)
//! services   assets (embedded files), state (AppState) ─> pool (search slots), stream (SSE)
//! base       limits (Config; the clamps are ply_web_api's), error (HttpError)
//! ```
//!
//! `book` (the Othello opening book) and `tablebase` (Syzygy tables: opening, probing) are
//! [`ply_web_api`]'s, re-exported.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod api;
pub mod assets;
pub mod cli;
pub mod error;
pub mod limits;
pub mod pool;
pub mod server;
pub mod state;
pub mod stream;

pub use error::{ApiError, HttpError};
pub use limits::Config;
pub use ply_web_api::{book, tablebase};
pub use server::{router, serve};
pub use state::AppState;
