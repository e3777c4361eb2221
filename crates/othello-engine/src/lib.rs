//! The ply Othello engine as a library, without I/O: pattern evaluation, exact endgame solver and
//! midgame search in the manner of Edax (see [Sources](#sources)).
//!
//! - [`Engine`] plays: iterative deepening with Multi-ProbCut, Edax-like levels, game clocks,
//!   threads, the exact solver near the end ([`Engine::think`] with [`Limits`];
//!   [`Engine::think_with_contempt`] when a draw is not worth zero; [`Engine::think_weakened`]
//!   with a loss allowance, [`Weakness`], for weaker play, and the named levels [`STRENGTHS`]).
//! - [`Solver`] solves a position exactly ([`Mode::Exact`], [`Mode::AllMoves`], [`Mode::Wdl`]).
//! - [`review()`] judges every move of a game by the discs it gives away ([`GameReview`],
//!   [`Judgement`]), one search per position; with the feature `serde`, `ReviewReport` is the
//!   review as serialisable data (the JSON of `ply-othello review --json` and of the web page).
//! - Both take a checked [`ply_othello::Board`] (built with `Board::new`, which rejects
//!   overlapping discs); inside, the search works on raw bitboard pairs.
//!
//! # Modules
//! The modules form layers: a module uses only modules on lower lines, or on its own line
//! along an arrow (`tools/modcheck` checks that no crate of the workspace has a module cycle).
//!
//! ```text
//! drivers            bench, contempt, review, weakness ─> engine (Engine)      solver (Solver)
//! searches           midgame (levels, MPC, think, worker) ─> endgame (solvers, root search)
//! request, answer    request (Limits, Clock, Info, Outcome, MoveScore)
//! search primitives  split ─> moveorder ─> tt, stability, bits;  search (scores, PV lines,
//!                    thresholds);  watch (abort flag, deadline)
//! evaluation         eval (patterns, weights, feature update; the `Eval` trait per kernel)
//! per-CPU kernels    kernel (the tokens of `ply_othello::kernel`, the copy list, the match)
//! ```
//!
//! The midgame search sits on the endgame solver (it solves exactly near the end); the
//! request and answer types lie below the midgame's `think`, which reads the limits and
//! reports progress, and below both drivers.
//!
//! Public, because callers reach items inside them:
//! - [`eval`]: the pattern evaluation and its weight formats (ply's own and Edax's `eval.dat`),
//!   used by the training pipeline of `ply-othello-tools`.
//! - [`midgame`]: the level table ([`midgame::level`](mod@midgame::level)), the Multi-ProbCut tables
//!   ([`midgame::mpc`], fitted by the tools crate from [`midgame::depth_scores`]).
//! - [`bench`](mod@bench): the fixed benchmark (also re-exported here).
//!
//! Private, their public items re-exported here: `engine` ([`Engine`], [`EngineOptions`]),
//! `review` ([`review()`], [`ReviewOptions`], [`GameReview`], [`MoveReview`], [`Judgement`]:
//! game review and its thresholds; `ReviewReport` and `MoveReport` with the feature `serde`),
//! `request` ([`Limits`], [`Clock`], [`Info`], [`Outcome`], [`MoveScore`]), `contempt`
//! ([`Choice`]), `weakness` ([`Weakness`], [`Strength`], [`STRENGTHS`], [`strength()`],
//! [`MAX_LOSS`]: the loss allowance and the named strength levels), `solver` ([`Solver`],
//! [`ITERATED_FROM`]), `endgame` ([`Mode`], [`RootResult`]:
//! the null-window solvers and the root search), `tt` ([`TableError`], [`MAX_HASH_MIB`], [`hash_limit_mib`]:
//! the limits of the transposition tables). Internal only: `search` scores and PV lines, `bits`
//! square masks, `tt` the transposition table itself, `stability` stable discs, `moveorder` move
//! ordering, `split` the threads' young-brothers-wait splitting (solver and midgame tree),
//! `watch` the abort flag and deadline of a search, `kernel` the CPU kernels (below).
//!
//! CPU dispatch follows the one scheme of the crate family (`ply_othello::kernel`): the rules
//! crate detects the CPU once and hands out kernel tokens; `kernel` names the kernels the
//! engine compiles for and names no search. Each layer above adds its own trait to the tokens:
//! `eval::Eval` (feature update and pattern sums, AVX2 or portable), `endgame::EndgameKernel`
//! and `midgame::MidgameKernel` (the entry points of the search copies, each search's one
//! list, expanded per kernel by `kernel::search_copies!`). The endgame solver with its root and
//! the midgame tree are each compiled once per kernel
//! (`ply_othello::for_each_kernel!`, which holds the only target-feature strings), and
//! [`Solver::new`], [`Engine::think`] and [`midgame::depth_scores`] pick the copy with one match
//! on the detected level. Inside a copy nothing is dispatched per call.
//!
//! ```
//! use ply_othello::{Board, Square};
//! use ply_othello_engine::{Mode, Solver};
//! // White (to move) owns everything but A1 (empty) and B1 (Black): A1 takes B1, 64-0.
//! let board = Board::new(!0b11, 0b10)?;
//! let mut solver = Solver::new(4, false);
//! let r = solver.solve(&board, Mode::Exact);
//! assert_eq!((r.score, r.best), (64, Some(Square::A1)));
//! # Ok::<(), ply_othello::BoardError>(())
//! ```
//!
//! # Sources
//! The comments cite Edax (Richard Delorme, <https://github.com/abulmo/edax-reversi>) by file and
//! function (`endgame.c` `board_score_1`, `move.c` `movelist_evaluate`, ...), and "the Edax-AVX
//! notes": Toshihiko Okuhara's notes on his optimisations of Edax (edax-reversi-AVX), "Edax AVX - bitboard 以外の最適化",
//! <http://www.amy.hi-ho.ne.jp/okuhara/edaxopt.htm>, whose numbers (4.4.5, 4.5.0, ...) are the
//! edax-reversi-AVX releases that brought each change.
#![deny(missing_docs)]

pub mod bench;
mod bits;
pub mod book;
mod contempt;
mod endgame;
mod engine;
pub mod eval;
mod kernel;
pub mod midgame;
mod moveorder;
pub mod node_stats;
pub mod platform;
mod request;
mod review;
mod search;
mod solver;
mod split;
mod stability;
mod tt;
mod watch;
mod weakness;

pub use bench::{BenchLine, BENCH_GAMES, BENCH_LEVEL};
pub use contempt::Choice;
pub use endgame::{Mode, RootResult};
pub use engine::{Engine, EngineOptions};
pub use midgame::{level, Level, DEFAULT_LEVEL, SELECTIVITIES};
pub use request::{Clock, Info, Limits, MoveScore, Outcome};
pub use review::{
    review, GameReview, Judgement, MoveReview, PerSide, ReviewError, ReviewOptions, BLUNDER,
    DEFAULT_EXACT_FROM, DEFAULT_REVIEW_LEVEL, INACCURACY, MISTAKE,
};
#[cfg(feature = "serde")]
pub use review::{MoveReport, ReviewReport};
pub use solver::{Solver, ITERATED_FROM};
pub use tt::{hash_limit_mib, TableError, MAX_HASH_MIB};
pub use weakness::{strength, Strength, Weakness, MAX_LOSS, STRENGTHS};
