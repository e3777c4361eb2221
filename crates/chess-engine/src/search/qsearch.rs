//! The quiescence search: captures and promotions, or all evasions in check.

use super::params::*;
use super::worker::Worker;
use crate::history::cont_key;
use crate::recognizer::recognize;
use crate::see::see_ge;
use crate::tt::Bound;
use crate::value::*;
use ply_chess::{Move, Position, Role};

impl<'a, 's> Worker<'a, 's> {
    /// Quiescence search: captures and promotions (all evasions when in check), with stand pat,
    /// delta pruning and SEE pruning.
    pub(super) fn qsearch<const PV: bool>(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if !self.enter_node::<PV>(ply) {
            return 0;
        }
        if pos.is_insufficient_material() {
            return 0;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 4 {
            return if in_check {
                0
            } else {
                self.static_eval(pos, ply)
            };
        }
        if let Some(r) = recognize(pos) {
            if let Some(v) = r.cutoff(alpha, beta) {
                return v;
            }
        }
        let key = pos.hash();
        let entry = self.shared.tt.probe(key);
        if let Some(e) = entry {
            let v = from_tt(e.score, ply);
            if !PV && e.bound.cuts(v, alpha, beta) {
                return v;
            }
        }
        let tt_move = entry.map_or(0, |e| e.mv);
        let mut best;
        let eval;
        let raw_eval;
        if in_check {
            best = -INFINITE;
            eval = -INFINITE;
            raw_eval = -INFINITE;
        } else {
            raw_eval = match entry {
                Some(en) if en.eval.abs() < INFINITE => en.eval,
                _ => self.fresh_eval(pos, ply),
            };
            eval = self.corrected(pos, raw_eval);
            if eval >= beta {
                return eval;
            }
            best = eval;
            alpha = alpha.max(eval);
        }
        // A quiescence node never shares a ply with an open search node: take that ply's picker.
        let slot = 2 * ply;
        if in_check {
            self.pickers[slot].reset(pos, tt_move, [Move::NULL; 2], [None, None]);
        } else {
            self.pickers[slot].reset_qsearch(pos, tt_move);
        }
        let mut best_move = Move::NULL;
        let mut legal = 0;
        while let Some((m, _)) = self.pickers[slot].next(pos, &self.tables.history) {
            legal += 1;
            if !in_check {
                if m.promotion().is_some_and(|r| r != Role::Queen) {
                    continue;
                }
                // Delta pruning: even winning the piece outright cannot reach alpha.
                if eval + crate::see::capture_gain(m) + QS_DELTA_MARGIN <= alpha
                    && m.promotion().is_none()
                {
                    continue;
                }
                if !see_ge(pos, m, 0) {
                    continue;
                }
            }
            let child = pos.play(m);
            self.push_move(ply, pos, m);
            self.shared.tt.prefetch(child.hash());
            self.stack[ply].cont = Some(cont_key(pos.side_to_move(), m));
            let score = -self.qsearch::<PV>(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if self.raise::<PV>(ply, m, score, &mut best, &mut best_move, &mut alpha)
                && score >= beta
            {
                break;
            }
        }
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move.compact(),
            to_tt(best, ply),
            if in_check { INFINITE } else { raw_eval },
            0,
            bound,
        );
        best
    }
}
