//! The request and answer of one search, shared by the drivers ([`Engine`](crate::Engine),
//! [`Solver`](crate::Solver)) and the midgame search below them: [`Limits`] and [`Clock`] ask,
//! [`Info`] reports progress, [`Outcome`] and [`MoveScore`] answer.

use ply_othello::Square;
use std::time::Duration;

/// What limits a search. With nothing set, the [`DEFAULT_LEVEL`](crate::DEFAULT_LEVEL) is used.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Edax-like level 0..=60 (see [`crate::midgame::level()`]).
    pub level: Option<u8>,
    /// Fixed midgame depth (overrides the level's midgame depth).
    pub depth: Option<u8>,
    /// Game clock of the side to move: the engine budgets its time and never exceeds it.
    pub clock: Option<Clock>,
    /// Fixed time for this move.
    pub move_time: Option<Duration>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Score every root move (fills [`Outcome::moves`]).
    pub all_moves: bool,
    /// Search only these root moves (a mask of squares, as UCI's `searchmoves`); `None`, or a
    /// mask holding no legal move, searches them all. An opening book's leaf search uses it to
    /// find the best move that leaves the book.
    pub search_moves: Option<u64>,
}

/// A game clock.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// Score of one root move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveScore {
    /// The move ([`Square::PASS`] when the mover must pass).
    pub square: Square,
    /// Score in discs from the mover's view.
    pub score: i32,
    /// Midgame depth, or empties when exact.
    pub depth: u8,
    /// Selectivity percent (100 = no pruning).
    pub selectivity: u8,
    /// True for a proven exact score.
    pub exact: bool,
    /// Principal variation starting with this move.
    pub pv: Vec<Square>,
}

/// Progress report after an iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Midgame depth, or empties when searching to the end.
    pub depth: u8,
    /// Selectivity percent.
    pub selectivity: u8,
    /// Score in discs.
    pub score: i32,
    /// True for a proven exact score.
    pub exact: bool,
    /// Principal variation.
    pub pv: Vec<Square>,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Root move scores (all-moves searches).
    pub moves: Vec<MoveScore>,
}

/// Result of [`Engine::think`](crate::Engine::think).
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Best move, [`Square::PASS`] when the mover must pass or the game is over.
    pub best: Square,
    /// Score in discs.
    pub score: i32,
    /// Midgame depth, or empties when searched to the end.
    pub depth: u8,
    /// Selectivity percent.
    pub selectivity: u8,
    /// True for a proven exact score.
    pub exact: bool,
    /// Principal variation.
    pub pv: Vec<Square>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time used.
    pub elapsed: Duration,
    /// Root move scores, best first (all-moves searches).
    pub moves: Vec<MoveScore>,
}
