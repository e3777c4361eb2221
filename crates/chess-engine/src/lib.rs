//! The ply chess engine as a library: a tapered evaluation (hand-written terms, weights tuned by
//! `ply-chess tune`) whose middlegame/endgame pair is one packed integer ([`Score`], the chess
//! wiki's "Packed Evaluation"), interior-node recognizers indexed by material signatures (Heinz's
//! DarkThought recognizers), and an alpha-beta search (PVS, Lazy SMP) with optional Syzygy probing.
//!
//! The crate does no I/O of its own: the search reports progress through a [`Reporter`] and
//! returns a [`SearchResult`]; protocols (UCI in `ply-chess-cli`), the web server and the tools
//! all search through one [`Engine`].
//!
//! - [`Engine`] ([`EngineOptions`]): the front door. It keeps the transposition table, each
//!   search thread's histories and caches, the evaluation and the tablebases from one search to
//!   the next; [`Engine::think`] searches a position within its [`Limits`], stops on the
//!   caller's [`Control`] (stop, ponderhit) and sends progress ([`Info`]) to a [`Reporter`]
//!   (any `Fn(&Info)`), answering a [`SearchResult`]. Moves come from a staged picker (table
//!   move, captures by victim with a lazy exchange test, killers, quiet moves by history, losing
//!   captures), which generates the quiet moves only when the search gets to them.
//! - [`evaluate`] / [`trace`]: the static evaluation and its per-term breakdown ([`Term`]);
//!   [`evaluate_with`] and a [`Tracer`] give each tunable weight ([`WEIGHTS`], named by
//!   [`layout`]) with its count; the [`Coefficients`] tracer keeps them, which is what the
//!   evaluation tests check and the tuner fits ([`king_danger_penalty`] and
//!   [`complexity_adjustment`], the two non-linear steps, are written once for both);
//!   [`quiescence`] / [`quiescence_with`]: the quiet position behind a position on the hand-made
//!   or another evaluation (training data).
//! - [`recognize`]: the recognizer table for known endgames; [`kpk_is_win`]: the KPK bitbase.
//! - [`Network`] ([`nnue`]): a learned evaluation read from a network file's bytes, which the
//!   search uses instead of [`evaluate`] when [`Options::network`] holds one.
//! - [`wdl`] ([`WdlModel`], [`WDL_MODEL`]): winning chances of a score with the material on the
//!   board, fitted to the engine's own self-play; [`expected_score`] for judging moves.
//! - [`review`]: a finished game's moves judged one by one (`best` to `blunder`) by the drop in
//!   expected score, with accuracy per side and the PGN annotation of the result.
//! - [`Strength`]: playing below full strength (skill levels 0 to 20, or an Elo fitted on matches against Stockfish),
//!   set on an engine with [`Engine::set_strength`]: a capped search that now and then plays
//!   one of its other best lines, seeded.
//! - [`bench()`]: the fixed node-count benchmark whose count identifies the search behaviour.
//!
//! # Example
//!
//! Search a mate in one to a fixed depth with one thread:
//!
//! ```
//! use ply_chess::Position;
//! use ply_chess_engine::{mate_in, Control, Engine, EngineOptions, Limits, Silent};
//!
//! // White to move mates with Qg7#.
//! let pos = Position::from_fen("7k/8/5K2/6Q1/8/8/8/8 w - - 0 1").unwrap();
//! let mut engine = Engine::new(EngineOptions { hash_mib: 1, ..EngineOptions::default() });
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! let result = engine.think(&pos, &[], &limits, &Control::new(), &Silent);
//! assert!(pos.legal_moves().iter().any(|&m| m == result.best));
//! assert_eq!(mate_in(result.score), Some(1));
//! assert!(pos.play(result.best).is_checkmate());
//! ```
#![deny(missing_docs)]

mod bench;
mod captures;
mod correction;
mod engine;
mod eval;
mod history;
mod kpk;
pub mod nnue;
mod picker;
mod platform;
mod quiet;
mod recognizer;
pub mod review;
mod score;
mod search;
mod see;
mod strength;
mod time;
mod tt;
mod value;
mod wdl;

pub use bench::{
    bench, bench_with, BenchResult, DEFAULT_DEPTH as BENCH_DEPTH, POSITIONS as BENCH_POSITIONS,
};
pub use engine::{embedded_network, Engine, EngineOptions};
pub use eval::nonlinear::{complexity_adjustment, king_danger_penalty, Units};
pub use eval::params::{
    KING_DANGER_EG_DIV, KING_DANGER_MAX, KING_DANGER_MG_DIV, MAX_PHASE, SCALE_NORMAL,
};
pub use eval::weights::WEIGHTS;
pub use eval::{
    evaluate, evaluate_with, layout, phase, trace, Coefficients, NoTrace, PawnTable, Term, Trace,
    Tracer,
};
pub use kpk::is_win as kpk_is_win;
pub use nnue::{Network, NnueError};
pub use quiet::{quiescence, quiescence_with};
pub use recognizer::{recognize, Recognition};
pub use score::Score;
pub use search::params as search_params;
pub use search::{Control, Info, Options, Reporter, SearchResult, Silent, STACK as SEARCH_STACK};
pub use see::see_ge;
pub use strength::Strength;
pub use time::Limits;
pub use tt::{AllocError, Bound};
pub use value::{is_mate, mate_in, MATE};
pub use wdl::{
    expected_score, material, role_material, wdl, Wdl, WdlModel, MATERIAL_RANGE, MATERIAL_SCALE,
    SCORE_CLAMP, WDL_MODEL,
};
