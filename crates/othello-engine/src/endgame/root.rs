//! Root of the exact solver: principal-variation search with aspiration, exact score, best
//! move and principal variation; all-moves mode; win/draw/loss-only mode.
//!
//! The [`Solver`](crate::Solver) driver picks the CPU kernel once and runs the whole search in
//! that kernel's copy, entered through [`EndgameKernel::solve_root`]; the entries of this file
//! (`pvs`, `solve_root`) are listed with the solver's in `EndgameKernel`.

use super::{EndgameKernel, Search};
use crate::bits::{bit, QUADRANT_ID};
use crate::moveorder::MoveList;
use crate::search::{final_score, set_pv, square, SCORE_INF};
use crate::tt::{EXACT, NO_MOVE};
use ply_othello::Square;

/// What to compute at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Exact score, best move and principal variation.
    Exact,
    /// Exact score of every legal move (and the best of them).
    AllMoves,
    /// Only win (> 0), draw (0) or loss (< 0): the score is a bound of the right sign.
    Wdl,
}

/// Result of a root search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootResult {
    /// Score for the side to move (in [`Mode::Wdl`] only its sign is exact).
    pub score: i32,
    /// Best move, `None` when the side to move must pass or the game is over.
    pub best: Option<Square>,
    /// Principal variation ([`Square::PASS`] for a pass); may stop early.
    pub pv: Vec<Square>,
    /// Exact score of each legal move, best first ([`Mode::AllMoves`] only).
    pub moves: Vec<(Square, i32)>,
    /// Nodes searched.
    pub nodes: u64,
}

/// The root search, written once for every kernel: its bodies are `#[inline(always)]`, so
/// each inlines into the kernel's [`EndgameKernel`] entry of the same name and is compiled
/// with its features.
impl<K: EndgameKernel> Search<K> {
    /// Principal-variation search with window (alpha, beta), fail-soft; fills `pv`.
    #[inline(always)]
    pub(super) fn pvs(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        pv: &mut Vec<Square>,
    ) -> i32 {
        let k = self.k;
        pv.clear();
        let n = self.n_empties;
        if n == 0 {
            self.visit(0);
            return final_score(p, o);
        }
        self.visit(n);
        let nodes0 = self.nodes;
        let moves = k.moves(p, o);
        if moves == 0 {
            if k.moves(o, p) == 0 {
                return final_score(p, o);
            }
            let mut child = Vec::new();
            let s = -K::pvs(self, o, p, -beta, -alpha, &mut child);
            pv.push(Square::PASS);
            pv.extend_from_slice(&child);
            return s;
        }
        let hash = k.hash(p, o);
        let hash_moves = self.tt.probe(hash, p, o).map_or([NO_MOVE; 2], |e| e.moves);
        let mut list = MoveList::new(k, p, o, moves);
        list.evaluate(k, p, o, hash_moves, self.parity);
        let mut best = -SCORE_INF;
        let mut best_move = NO_MOVE;
        let mut a = alpha;
        let mut child = Vec::new();
        self.n_empties -= 1;
        for i in 0..list.len() {
            let m = list.pick(i);
            let x = m.x as usize;
            let (cp, co) = (o ^ m.flipped, p ^ m.flipped ^ bit(x));
            self.empties.remove(x);
            self.parity ^= QUADRANT_ID[x];
            child.clear();
            let s = if i == 0 {
                -K::pvs(self, cp, co, -beta, -a, &mut child)
            } else {
                let s = -K::nws_any(self, cp, co, -a - 1);
                // an aborted child looks like a fail high: never re-search it
                if s > a && s < beta && !self.aborted() {
                    -K::pvs(self, cp, co, -beta, -a, &mut child)
                } else {
                    s
                }
            };
            self.parity ^= QUADRANT_ID[x];
            self.empties.restore(x);
            if s > best {
                best = s;
                best_move = m.x;
                if s > a {
                    a = s;
                    set_pv(pv, m.x, &child);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.n_empties += 1;
        if self.aborted() {
            return best;
        }
        self.tt.store(
            hash,
            p,
            o,
            n as u8,
            EXACT,
            alpha,
            beta,
            best,
            best_move,
            self.nodes - nodes0,
        );
        best
    }

    /// Exact score with aspiration: a window around `guess`, widened on failure.
    #[inline(always)]
    fn aspiration(&mut self, p: u64, o: u64, guess: i32, pv: &mut Vec<Square>) -> i32 {
        const DELTA: i32 = 4;
        let mut alpha = (guess - DELTA).max(-64);
        let mut beta = (guess + DELTA).min(64);
        loop {
            let s = K::pvs(self, p, o, alpha, beta, pv);
            if self.aborted() {
                return s;
            }
            if s <= alpha && alpha > -64 {
                beta = s + 1;
                alpha = -64;
            } else if s >= beta && beta < 64 {
                alpha = s - 1;
                beta = 64;
            } else {
                return s;
            }
        }
    }

    /// Root entry: the whole solve in this kernel.
    #[inline(always)]
    pub(super) fn solve_root(&mut self, p: u64, o: u64, mode: Mode) -> RootResult {
        let k = self.k;
        self.set_root(p, o);
        self.tt.new_search();
        let nodes0 = self.nodes;
        let mut pv = Vec::new();
        let mut moves_scores = Vec::new();
        let score = match mode {
            Mode::Wdl => K::pvs(self, p, o, -1, 1, &mut pv),
            Mode::Exact => {
                let guess = self.tt.probe(k.hash(p, o), p, o).map_or(0, |e| {
                    if e.lower > -64 {
                        e.lower
                    } else if e.upper < 64 {
                        e.upper
                    } else {
                        0
                    }
                });
                self.aspiration(p, o, guess, &mut pv)
            }
            Mode::AllMoves => {
                let moves = k.moves(p, o);
                if moves == 0 {
                    self.aspiration(p, o, 0, &mut pv)
                } else {
                    let mut list = MoveList::new(k, p, o, moves);
                    list.evaluate(k, p, o, [NO_MOVE; 2], self.parity);
                    let mut best = -SCORE_INF;
                    let mut child = Vec::new();
                    self.n_empties -= 1;
                    for i in 0..list.len() {
                        let m = list.pick(i);
                        let x = m.x as usize;
                        self.empties.remove(x);
                        self.parity ^= QUADRANT_ID[x];
                        let guess = if best > -SCORE_INF { -best } else { 0 };
                        let s = -self.aspiration(
                            o ^ m.flipped,
                            p ^ m.flipped ^ bit(x),
                            guess,
                            &mut child,
                        );
                        self.parity ^= QUADRANT_ID[x];
                        self.empties.restore(x);
                        moves_scores.push((square(m.x), s));
                        if s > best {
                            best = s;
                            set_pv(&mut pv, m.x, &child);
                        }
                    }
                    self.n_empties += 1;
                    moves_scores.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
                    best
                }
            }
        };
        let best = pv.first().copied().filter(|x| !x.is_pass());
        RootResult {
            score,
            best,
            pv,
            moves: moves_scores,
            nodes: self.nodes - nodes0,
        }
    }
}
