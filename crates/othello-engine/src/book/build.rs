//! Growing a book: plans of [`Step`]s (add a position and search its leaf, search a leaf
//! again) and their execution with an [`Engine`] at the book's level.
//!
//! A long job is a plan executed step by step: [`Book::game_plan`] (a game's positions, last
//! first, as Edax adds games), [`Book::deviation_plan`] (Edax's `deviate`: grow the lines that
//! stay within a window of the best) and [`Book::fix_plan`] (leaves that now lead into the
//! book, or were searched below the book's level). [`Book::run_step`] clears the engine's
//! tables before every search, so a step's result depends only on the book and the step: a
//! job interrupted and resumed with the remaining steps gives the same book as one run
//! through, and a single-threaded engine gives the same book on every machine with the same
//! CPU kernel.

use super::{canonical, Book, Entry};
use crate::engine::Engine;
use crate::request::Limits;
use ply_othello::{Board, Square};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// Edax's default deviations for `deviate`: the mover may play a move up to 2 discs worse than
/// the best (`rel`), and lines stay within 4 discs of the root's value (`abs`).
pub const DEFAULT_DEVIATION: (i32, i32) = (2, 4);

/// One step of a book job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Put the position in the book with its leaf searched (nothing when it is there with a
    /// leaf that is still valid; after a forced pass when its mover must pass; nothing for a
    /// finished game).
    Add(Board),
    /// Search the position's leaf again (the best move that does not lead into the book).
    Leaf(Board),
}

/// What a [`LeafSearch`] found: the best move and its score, `None` when the search found no
/// move among those it was given.
pub type LeafResult = Option<(Square, i32)>;

/// The search of a book position's leaf: its best move among `moves` (those that do not lead
/// into the book) and that move's score, at the book's `level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LeafSearch {
    /// The position.
    pub board: Board,
    /// The moves the leaf may be (never empty).
    pub moves: u64,
    /// The search level.
    pub level: u8,
}

impl LeafSearch {
    /// Runs the search with `engine`, its tables cleared first (so that the result depends
    /// only on the search and the engine's weights and table size, not on what it searched
    /// before): the best move and its score, `None` inside when the search found none among
    /// `moves`; `None` when `stop` was set during the search (nothing is known).
    pub fn run(&self, engine: &mut Engine, stop: &AtomicBool) -> Option<LeafResult> {
        engine.new_game();
        let limits = Limits {
            level: Some(self.level),
            search_moves: Some(self.moves),
            ..Limits::default()
        };
        let out = engine.think(&self.board, &limits, stop, &mut |_| {});
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        Some((self.moves & out.best.bit() != 0).then_some((out.best, out.score)))
    }
}

/// What a job has done so far, for progress reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildProgress {
    /// Steps done.
    pub steps: usize,
    /// Steps in the plan.
    pub total: usize,
    /// Searches made.
    pub searches: usize,
    /// Positions in the book now.
    pub positions: usize,
}

/// What [`Book::learn_game`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    /// Searches made.
    pub searches: usize,
    /// False when `stop` ended it before every step was run.
    pub complete: bool,
}

impl Book {
    /// Adds a game to the book, as NBoard's `learn` does: the positions of all of `moves` from
    /// `start` ([`Book::game_plan`]), then the leaves that became stale ([`Book::fix_plan`]),
    /// each searched with `engine` at the book's level, and the values backed up. A set `stop`
    /// ends it early, keeping the steps done (their values backed up too).
    pub fn learn_game(
        &mut self,
        engine: &mut Engine,
        start: &Board,
        moves: &[Square],
        stop: &AtomicBool,
    ) -> Learned {
        let mut searches = 0;
        let game = self.game_plan(start, moves, 60);
        let complete = self.run_plan(engine, &game, stop, &mut searches)
            && self.run_plan(engine, &self.fix_plan(), stop, &mut searches);
        self.negamax();
        Learned { searches, complete }
    }

    /// Runs `plan`, adding its searches to `searches`; false when `stop` interrupted it.
    fn run_plan(
        &mut self,
        engine: &mut Engine,
        plan: &[Step],
        stop: &AtomicBool,
        searches: &mut usize,
    ) -> bool {
        for step in plan {
            match self.run_step(engine, step, stop) {
                Some(n) => *searches += n,
                None => return false,
            }
        }
        true
    }

    /// The search [`Book::run_step`] would make for `step` with the book as it is now, or
    /// `None` when the step needs none (it changes nothing, or every move of its position leads
    /// into the book). Searches of different steps can run on different engines at once, and
    /// their results be handed to [`Book::run_step_with`]: a step's result depends only on the
    /// book and the step.
    pub fn step_search(&self, step: &Step) -> Option<LeafSearch> {
        self.step_board(step)
            .and_then(|board| self.leaf_search(board))
    }

    /// The searches that [`Book::run_step`] would make for each of `steps`, run in order from
    /// the book as it is now: a step's search depends on which positions the book holds when
    /// it runs, so the positions the steps before it add are counted in (a deviation round's
    /// `Leaf` step, after the `Add` of the position its leaf led to, searches the moves left).
    /// What those steps will find is not known here, so a step whose search hangs on it (a
    /// position added twice in one plan) may come out otherwise; [`Book::run_step_with`] then
    /// needs a search not in this list, and makes it.
    pub fn plan_searches(&self, steps: &[Step]) -> Vec<Option<LeafSearch>> {
        let mut ahead = self.clone();
        steps
            .iter()
            .map(|step| {
                let board = ahead.step_board(step)?;
                let search = ahead.leaf_search(board);
                if !ahead.contains(&board) {
                    ahead.insert(&board, Entry::new(0, ahead.level, None));
                }
                search
            })
            .collect()
    }

    /// The search of `board`'s leaf among its moves that do not lead into the book, or `None`
    /// when every move does.
    fn leaf_search(&self, board: Board) -> Option<LeafSearch> {
        let moves = self.unlinked_moves(&board);
        (moves != 0).then_some(LeafSearch {
            board,
            moves,
            level: self.level,
        })
    }

    /// The position whose leaf `step` searches, or `None` when the step changes nothing.
    fn step_board(&self, step: &Step) -> Option<Board> {
        match *step {
            Step::Add(board) => {
                let board = if board.moves() == 0 {
                    board.passed()
                } else {
                    board
                };
                if board.moves() == 0 {
                    return None; // a finished game
                }
                if let Some(e) = self.get(&board) {
                    let valid = match e.leaf {
                        Some((sq, _)) => self.unlinked_moves(&board) & sq.bit() != 0,
                        None => self.unlinked_moves(&board) == 0,
                    };
                    if valid && e.level >= self.level {
                        return None;
                    }
                }
                Some(board)
            }
            Step::Leaf(board) => self.contains(&board).then_some(board),
        }
    }

    /// Runs one step with `engine` (see [`Step`]). Returns how many searches it made, or `None`
    /// when `stop` interrupted it (the book is then unchanged).
    pub fn run_step(
        &mut self,
        engine: &mut Engine,
        step: &Step,
        stop: &AtomicBool,
    ) -> Option<usize> {
        self.run_step_with(step, &mut |search| search.run(engine, stop))
    }

    /// Runs one step with the leaf search's result from `search` (see [`Book::step_search`]:
    /// `search` is called at most once, with the search the step needs now, and answers
    /// [`LeafSearch::run`]'s result, `None` when it was stopped). Returns how many searches the
    /// step counts, or `None` when the search was stopped (the book is then unchanged).
    pub fn run_step_with(
        &mut self,
        step: &Step,
        search: &mut dyn FnMut(&LeafSearch) -> Option<LeafResult>,
    ) -> Option<usize> {
        let Some(board) = self.step_board(step) else {
            return Some(0);
        };
        let leaf = match self.leaf_search(board) {
            Some(s) => search(&s)?,
            None => None, // every move leads into the book
        };
        let value = match (step, leaf) {
            (_, Some((_, v))) => v,
            (Step::Add(_), None) => 0,
            (Step::Leaf(_), None) => self.get(&board).map_or(0, |e| i32::from(e.value)),
        };
        self.insert(&board, Entry::new(value, self.level, leaf));
        Some(1)
    }

    /// The steps that add the positions of a game from `start`: the position after each of the
    /// first `max_plies` moves and `start` itself, last first (a forced pass in `moves` is
    /// [`Square::PASS`]; an illegal move ends the game there). Positions already in the book
    /// are kept in the plan: [`Book::run_step`] skips them when they need nothing.
    pub fn game_plan(&self, start: &Board, moves: &[Square], max_plies: usize) -> Vec<Step> {
        let mut boards = vec![*start];
        let mut board = *start;
        for &sq in moves.iter().take(max_plies) {
            if sq.is_pass() {
                if board.moves() != 0 {
                    break;
                }
                board = board.passed();
                continue;
            }
            if board.moves() & sq.bit() == 0 {
                break;
            }
            board = board.next(sq.index(), board.flips(sq.index()));
            boards.push(board);
        }
        boards.into_iter().rev().map(Step::Add).collect()
    }

    /// The leaves to search again (see [`Book::stale_leaves`]), as steps.
    pub fn fix_plan(&self) -> Vec<Step> {
        self.stale_leaves(self.level)
            .into_iter()
            .map(Step::Leaf)
            .collect()
    }

    /// One round of Edax's `deviate`, planned: from `root`, follow the book moves each side may
    /// play (the side whose turn it is to deviate any move within `rel` discs of its best, the
    /// other only its best, then the other way round) that stay within `abs` discs of the root's
    /// value, and expand the leaves met that way in positions with at least `min_empties`
    /// empties: the position after the leaf is added ([`Step::Add`]) and the leaf of the
    /// position it left is searched again ([`Step::Leaf`]). Rounds repeat, with
    /// [`Book::negamax`] between them, until a plan is empty. An empty book or a root not in
    /// the book plans the root.
    pub fn deviation_plan(&self, root: &Board, rel: i32, abs: i32, min_empties: u32) -> Vec<Step> {
        let Some(root_value) = self.value(root) else {
            return vec![Step::Add(*root)];
        };
        let mut plan = Vec::new();
        let mut planned = HashSet::new();
        for deviations in [(rel.max(0), 0), (0, rel.max(0))] {
            let mut seen = HashSet::new();
            let window = (root_value - abs.max(0), root_value + abs.max(0));
            self.deviate_from(
                root,
                deviations,
                window,
                min_empties,
                &mut seen,
                &mut planned,
                &mut plan,
            );
        }
        plan
    }

    #[allow(clippy::too_many_arguments)]
    fn deviate_from(
        &self,
        board: &Board,
        (mine, theirs): (i32, i32),
        (lo, hi): (i32, i32),
        min_empties: u32,
        seen: &mut HashSet<(u64, u64)>,
        planned: &mut HashSet<(u64, u64)>,
        plan: &mut Vec<Step>,
    ) {
        if !seen.insert(canonical(board).0) {
            return;
        }
        let moves = self.moves(board);
        let Some(best) = moves.first().map(|m| m.score) else {
            return;
        };
        for m in moves {
            if m.score < best - mine || m.score < lo || m.score > hi {
                continue;
            }
            let child = if m.square.is_pass() {
                board.passed()
            } else {
                board.next(m.square.index(), board.flips(m.square.index()))
            };
            if m.linked {
                // the turn passes to the other side unless the move leaves it without a move
                let (next, swap) = if !m.square.is_pass() && child.moves() == 0 {
                    (child.passed(), false)
                } else {
                    (child, true)
                };
                let (turn, window) = if swap {
                    ((theirs, mine), (-hi, -lo))
                } else {
                    ((mine, theirs), (lo, hi))
                };
                self.deviate_from(&next, turn, window, min_empties, seen, planned, plan);
            } else if board.empty_count() >= min_empties
                && !child.is_game_over()
                && planned.insert(canonical(board).0)
            {
                plan.push(Step::Add(child));
                plan.push(Step::Leaf(*board));
            }
        }
    }
}
