//! One search thread ([`Worker`]): its path, stacks, killers, pickers and accumulators, and the
//! small steps every node takes (counting, the stop poll, static evaluation, draws by rule,
//! tablebase probes, the principal variation).

use super::info::Reporter;
use super::params::*;
use super::shared::Shared;
use super::tables::ThreadTables;
use crate::eval;
use crate::nnue::{AccumulatorStack, Delta};
use crate::picker::MovePicker;
use crate::recognizer::{recognize, Recognition};
use crate::tt::Bound;
use crate::value::*;
use ply_chess::{Move, Position};
use ply_syzygy::Wdl;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub(super) mv: Move,
    pub(super) score: i32,
    pub(super) prev_score: i32,
    pub(super) pv: Vec<Move>,
    /// What `score` is: exact, or a bound after the move failed low or high in its window.
    pub(super) bound: Bound,
    /// Nodes searched under this move in the current iteration.
    pub(super) nodes: u64,
}

/// Per-ply search stack entry.
#[derive(Clone, Copy, Default)]
pub(super) struct Frame {
    pub(super) eval: i32,
    /// Uncorrected static evaluation of the node (`-INFINITE` in check).
    pub(super) raw: i32,
    /// Whether the move being searched from this node is a null move.
    pub(super) null_move: bool,
    pub(super) cont: Option<usize>,
    /// Move left out by a singular-extension verification search of this node.
    pub(super) excluded: Move,
}

/// One search thread.
pub(super) struct Worker<'a, 's> {
    pub(super) id: usize,
    pub(super) shared: &'s Shared<'a>,
    pub(super) reporter: &'s dyn Reporter,
    pub(super) root: Position,
    pub(super) path: Vec<u64>,
    pub(super) root_moves: Vec<RootMove>,
    pub(super) multipv: usize,
    pub(super) pv_idx: usize,
    /// The thread's histories, correction history and pawn cache (kept between searches).
    pub(super) tables: &'s mut ThreadTables,
    pub(super) killers: Vec<[Move; 2]>,
    /// Move pickers of the nodes on the current path: slot `2 * ply`, and `2 * ply + 1` for a
    /// singular verification search of the same node.
    pub(super) pickers: Vec<MovePicker>,
    pub(super) stack: Vec<Frame>,
    /// The network's accumulators of the current path (with a network).
    pub(super) nnue: Option<AccumulatorStack>,
    pub(super) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(super) pv_len: Vec<usize>,
    pub(super) nodes: u64,
    pub(super) tbhits: u64,
    pub(super) seldepth: usize,
    pub(super) root_depth: i32,
    pub(super) completed_depth: i32,
    pub(super) stopped: bool,
    /// The last line reported for the best move (empty before any).
    pub(super) reported: Vec<Move>,
}

impl<'a, 's> Worker<'a, 's> {
    pub(super) fn new(
        id: usize,
        shared: &'s Shared<'a>,
        root_moves: Vec<RootMove>,
        multipv: usize,
        reporter: &'s dyn Reporter,
        tables: &'s mut ThreadTables,
    ) -> Self {
        let (root, history) = (shared.root, shared.game);
        let mut path = Vec::with_capacity(history.len() + MAX_PLY + 8);
        path.extend_from_slice(history);
        path.push(root.hash());
        Worker {
            id,
            shared,
            reporter,
            root: *root,
            path,
            root_moves,
            multipv,
            pv_idx: 0,
            tables,
            killers: vec![[Move::NULL; 2]; MAX_PLY + 4],
            pickers: (0..2 * (MAX_PLY + 4)).map(|_| MovePicker::new()).collect(),
            stack: vec![Frame::default(); MAX_PLY + 8],
            nnue: shared
                .network
                .map(|net| AccumulatorStack::new(Arc::clone(net), shared.kernel, MAX_PLY + 8)),
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            nodes: 0,
            tbhits: 0,
            seldepth: 0,
            root_depth: 0,
            completed_depth: 0,
            stopped: false,
            reported: Vec::new(),
        }
    }

    pub(super) fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if self.tbhits > 0 {
            self.shared.tbhits[self.id].store(self.tbhits, Ordering::Relaxed);
        }
    }

    /// Polls the clock and the stop flag (every 1024 nodes).
    #[inline]
    pub(super) fn check_stop(&mut self) {
        if self.nodes & 1023 != 0 {
            return;
        }
        self.publish_nodes();
        let control = self.shared.control;
        if control.stopped() {
            self.stopped = true;
            return;
        }
        if self.id != 0 || self.root_depth <= 1 {
            return;
        }
        if let Some(n) = self.shared.limits.nodes {
            if self.shared.total_nodes() >= n {
                self.stopped = true;
            }
        }
        if let Some(hard) = self.shared.budget.hard {
            if !control.is_pondering() && control.elapsed() >= hard {
                self.stopped = true;
            }
        }
        if self.stopped {
            control.stop.store(true, Ordering::SeqCst);
        }
    }

    /// A WDL tablebase probe at an interior node (`SyzygyProbeDepth` and below the table size),
    /// as a bound in the tablebase score band: wins are lower bounds, losses upper bounds.
    pub(super) fn probe_wdl(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
    ) -> Option<Recognition> {
        let tb = self.shared.tablebase?;
        if (depth < self.shared.probe_depth && pos.occupied().count() == self.shared.tb_pieces)
            || pos.castling_rights().any()
        {
            return None;
        }
        let wdl = tb.probe_wdl(pos).ok()?;
        self.tbhits += 1;
        let p = ply as i32;
        Some(match wdl {
            Wdl::Win => Recognition::Lower(TB_WIN - p),
            Wdl::Loss => Recognition::Upper(-TB_WIN + p),
            Wdl::CursedWin => Recognition::Exact(1),
            Wdl::BlessedLoss => Recognition::Exact(-1),
            Wdl::Draw => Recognition::Exact(0),
        })
    }

    /// Static evaluation of `pos` at `ply` of the current path: a recognizer's when one applies,
    /// else the network's (kept below the known-win bound) or the hand-made evaluation.
    #[inline]
    pub(super) fn static_eval(&mut self, pos: &Position, ply: usize) -> i32 {
        match recognize(pos) {
            Some(r) => r.value(),
            None => match &mut self.nnue {
                Some(nn) => nn.evaluate(ply, pos).clamp(-KNOWN_WIN + 1, KNOWN_WIN - 1),
                None => eval::evaluate(pos, &mut self.tables.pawns),
            },
        }
    }

    /// Records for the network's accumulators that `m`, played in `pos` at `ply`, leads to the
    /// next ply (nothing without a network). Called right before the child is searched, after
    /// any verification search of `pos` that used the next ply for other moves.
    #[inline(always)]
    pub(super) fn push_move(&mut self, ply: usize, pos: &Position, m: Move) {
        if let Some(nn) = &mut self.nnue {
            nn.push(ply + 1, Delta::of(pos, m));
        }
    }

    /// Static evaluation of a node the table knows nothing about. Right after a null move it is
    /// the parent's with the sign turned and the tempo bonus moved to the other side (the board
    /// is the same), which saves a full evaluation. (The network has no tempo term: its
    /// accumulators are copied over a null move and only the output is computed.)
    #[inline]
    pub(super) fn fresh_eval(&mut self, pos: &Position, ply: usize) -> i32 {
        if ply > 0 && self.stack[ply - 1].null_move && self.nnue.is_none() {
            let parent = self.stack[ply - 1].raw;
            if parent.abs() < KNOWN_WIN {
                return -parent + 2 * NULL_MOVE_TEMPO;
            }
        }
        self.static_eval(pos, ply)
    }

    /// `raw` plus the correction history of `pos`, for ordinary (not recognised, not in check)
    /// evaluations.
    #[inline]
    pub(super) fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        if raw.abs() >= KNOWN_WIN {
            raw
        } else {
            (raw + self.tables.correction.get(pos)).clamp(-KNOWN_WIN + 1, KNOWN_WIN - 1)
        }
    }

    /// Whether the current position (last in `path`) repeats an earlier one within the reach of
    /// the half-move clock.
    #[inline]
    pub(super) fn is_repetition(&self, pos: &Position) -> bool {
        let n = self.path.len();
        let window = (pos.halfmove_clock() as usize).min(n - 1);
        let current = self.path[n - 1];
        let mut i = 2;
        while i <= window {
            if self.path[n - 1 - i] == current {
                return true;
            }
            i += 2;
        }
        false
    }

    /// Whether the current position (last in `path`) is drawn by rule: a repetition, too
    /// little material to mate, or the fifty-move rule (unless the mover is mated).
    #[inline]
    pub(super) fn drawn_by_rule(&self, pos: &Position) -> bool {
        self.is_repetition(pos)
            || pos.is_insufficient_material()
            || (pos.halfmove_clock() >= 100 && !(pos.is_check() && pos.count_legal_moves() == 0))
    }

    /// Counts a node, polls the clock and clears the node's variation; false when the search
    /// has been stopped and must unwind.
    #[inline]
    pub(super) fn enter_node<const PV: bool>(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return false;
        }
        self.pv_len[ply] = 0;
        if PV && ply > self.seldepth {
            self.seldepth = ply;
        }
        true
    }

    /// Takes the `score` of move `m` into the node's `best`; true when it also raised `alpha`
    /// (then `m` is the node's best move and, at PV nodes, heads its variation). A caller whose
    /// score reached beta cuts off; `alpha` is then not used again.
    #[inline]
    pub(super) fn raise<const PV: bool>(
        &mut self,
        ply: usize,
        m: Move,
        score: i32,
        best: &mut i32,
        best_move: &mut Move,
        alpha: &mut i32,
    ) -> bool {
        if score <= *best {
            return false;
        }
        *best = score;
        if score <= *alpha {
            return false;
        }
        *best_move = m;
        if PV {
            self.update_pv(ply, m);
        }
        *alpha = score;
        true
    }

    /// Makes `m` followed by the child's variation the principal variation at `ply`.
    #[inline]
    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = m;
        let n = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }
}
