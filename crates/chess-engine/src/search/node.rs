//! The principal variation search of an interior node, and its late-move reduction table.

use super::params::*;
use super::worker::Worker;
use crate::history::cont_key;
use crate::nnue::Delta;
use crate::picker::Stage;
use crate::recognizer::recognize;
use crate::see::see_ge;
use crate::tt::Bound;
use crate::value::*;
use ply_chess::{Move, Position, Role};

/// Late-move reduction table, `lmr(depth, moves) ≈ 0.75 + ln(depth)·ln(moves)/2.25` (in plies),
/// built at compile time with a fixed-point logarithm.
pub(super) static LMR: [[u8; 64]; 64] = lmr_table();

/// `log2(x)` in 8.8 fixed point, for `x >= 1`.
pub(super) const fn log2_q8(x: u32) -> u32 {
    let n = 31 - x.leading_zeros();
    // Mantissa in [1, 2) as Q16, then 8 rounds of squaring extract the fraction bits.
    let mut m = ((x as u64) << 16) >> n;
    let mut frac = 0;
    let mut i = 0;
    while i < 8 {
        m = (m * m) >> 16;
        frac <<= 1;
        if m >= 2 << 16 {
            m >>= 1;
            frac |= 1;
        }
        i += 1;
    }
    (n << 8) | frac
}

pub(super) const fn lmr_table() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    let mut d = 1;
    while d < 64 {
        let mut m = 1;
        while m < 64 {
            let ld = log2_q8(d as u32) as u64;
            let lm = log2_q8(m as u32) as u64;
            let r = LMR_BASE_Q8 + ((ld * lm * LMR_SCALE_Q8) >> 16);
            t[d][m] = (r >> 8) as u8;
            m += 1;
        }
        d += 1;
    }
    t
}

impl<'a, 's> Worker<'a, 's> {
    /// Principal variation search. `PV` nodes have an open window.
    pub(super) fn search<const PV: bool>(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 {
            // The quiescence search sees no repetitions nor the fifty-move rule (its moves are
            // captures and evasions, not on the path); the move that led here may have drawn.
            if self.drawn_by_rule(pos) {
                self.enter_node::<PV>(ply);
                return 0;
            }
            return self.qsearch::<PV>(pos, alpha, beta, ply);
        }
        if !self.enter_node::<PV>(ply) {
            return 0;
        }
        let in_check = pos.is_check();

        // Draws, mate distance, recognizers.
        if self.drawn_by_rule(pos) {
            return 0;
        }
        if ply >= MAX_PLY - 4 {
            return if in_check {
                0
            } else {
                self.static_eval(pos, ply)
            };
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        // Tablebases take precedence over recognizers within their piece count; WDL is only
        // trusted right after a capture or pawn move (the 50-move counter is zero).
        let pieces = pos.occupied().count();
        if pieces <= self.shared.tb_pieces && pos.halfmove_clock() == 0 {
            if let Some(r) = self.probe_wdl(pos, depth, ply) {
                if let Some(v) = r.cutoff(alpha, beta) {
                    return v;
                }
            }
        }
        if let Some(r) = recognize(pos) {
            if let Some(v) = r.cutoff(alpha, beta) {
                return v;
            }
        }

        // Transposition table (a singular verification search of this node uses only its
        // evaluation: the stored score and move belong to the full node).
        let excluded = self.stack[ply].excluded;
        let singular_search = excluded != Move::NULL;
        let key = pos.hash();
        let entry = self.shared.tt.probe(key);
        let tt_move = if singular_search {
            0
        } else {
            entry.map_or(0, |e| e.mv)
        };
        if let Some(e) = entry {
            let v = from_tt(e.score, ply);
            if !PV && !singular_search && e.depth >= depth && e.bound.cuts(v, alpha, beta) {
                return v;
            }
        }

        // Static evaluation (the raw value is what the table keeps), corrected by the history of
        // search results for this pawn structure, then sharpened by a fitting table bound.
        let raw_eval = if in_check {
            -INFINITE
        } else {
            match entry {
                Some(en) if en.eval.abs() < INFINITE => en.eval,
                _ => self.fresh_eval(pos, ply),
            }
        };
        self.stack[ply].raw = raw_eval;
        let corrected = self.corrected(pos, raw_eval);
        let eval = if in_check {
            -INFINITE
        } else {
            let mut e = corrected;
            if let Some(en) = entry.filter(|_| !singular_search) {
                let v = from_tt(en.score, ply);
                let fits = match en.bound {
                    Bound::Lower => v > e,
                    Bound::Upper => v < e,
                    Bound::Exact => true,
                    Bound::None => false,
                };
                if fits && v.abs() < KNOWN_WIN {
                    e = v;
                }
            }
            e
        };
        self.stack[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;
        self.killers[ply + 1] = [Move::NULL; 2];

        let us = pos.side_to_move();
        let has_pieces = pos.count(us, Role::Knight)
            + pos.count(us, Role::Bishop)
            + pos.count(us, Role::Rook)
            + pos.count(us, Role::Queen)
            > 0;

        if !PV && !in_check && !singular_search {
            // Reverse futility pruning.
            if depth <= RFP_MAX_DEPTH
                && eval.abs() < KNOWN_WIN
                && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
            // Null move pruning.
            if depth >= NMP_MIN_DEPTH
                && eval >= beta
                && has_pieces
                && self.stack[ply - 1].cont.is_some()
                && beta.abs() < TB_WIN_BOUND
            {
                if let Some(null) = pos.null_move() {
                    let r = NMP_BASE
                        + depth / NMP_DEPTH_DIV
                        + ((eval - beta) / NMP_EVAL_DIV).min(NMP_EVAL_MAX);
                    self.stack[ply].cont = None;
                    self.stack[ply].null_move = true;
                    if let Some(nn) = &mut self.nnue {
                        nn.push(ply + 1, Delta::NULL);
                    }
                    self.path.push(null.hash());
                    let v = -self.search::<false>(&null, -beta, -beta + 1, depth - r, ply + 1);
                    self.path.pop();
                    self.stack[ply].null_move = false;
                    if self.stopped {
                        return 0;
                    }
                    if v >= beta {
                        return if v >= TB_WIN_BOUND { beta } else { v };
                    }
                }
            }
        }

        // Internal iterative reduction: without a hash move, search a little shallower.
        let depth = if tt_move == 0 && depth >= IIR_MIN_DEPTH && PV {
            depth - 1
        } else {
            depth
        };

        let prevs = [
            self.stack[ply - 1].cont,
            if ply >= 2 {
                self.stack[ply - 2].cont
            } else {
                None
            },
        ];
        let slot = 2 * ply + usize::from(singular_search);
        self.pickers[slot].reset(pos, tt_move, self.killers[ply], prevs);

        let mut best = -INFINITE;
        let mut best_move = Move::NULL;
        let mut quiets = [Move::NULL; 64];
        let mut n_quiets = 0;
        let mut searched = 0;
        let mut legal = 0;
        while let Some((m, stage)) = self.pickers[slot].next(pos, &self.tables.history) {
            legal += 1;
            if m == excluded {
                continue;
            }
            let quiet = !m.is_tactical();
            let child = pos.play(m);
            let gives_check = child.is_check();
            if ply > 0 && best > -TB_WIN_BOUND && has_pieces {
                if quiet && !in_check && !gives_check {
                    // Late move pruning.
                    let limit = (LMP_BASE + depth * depth) / (2 - i32::from(improving));
                    if !PV && depth <= LMP_MAX_DEPTH && n_quiets as i32 >= limit {
                        self.pickers[slot].skip_quiets();
                        continue;
                    }
                    // Continuation-history pruning: at low depth, a quiet move that has done
                    // badly right after the previous move (or the one before) is skipped.
                    if !PV
                        && depth <= CMH_PRUNE_DEPTH[usize::from(improving)]
                        && searched > 0
                        && (self.tables.history.continuation(prevs[0], us, m)
                            < CMH_PRUNE_LIMIT[usize::from(improving)]
                            || self.tables.history.continuation(prevs[1], us, m)
                                < FMH_PRUNE_LIMIT[usize::from(improving)])
                    {
                        continue;
                    }
                    // Futility pruning.
                    if depth <= FUTILITY_MAX_DEPTH
                        && eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha
                        && searched > 0
                    {
                        self.pickers[slot].skip_quiets();
                        continue;
                    }
                }
                // SEE pruning.
                if depth <= SEE_PRUNE_MAX_DEPTH && searched > 0 {
                    let margin = if quiet {
                        -SEE_QUIET_MARGIN * depth
                    } else {
                        -SEE_CAPTURE_MARGIN * depth * depth
                    };
                    if !see_ge(pos, m, margin) {
                        continue;
                    }
                }
            }

            // Singular extension (Anantharaman et al.; CPW "Singular Extensions"): when every
            // other move fails clearly below the table score, the table move is extended; when even
            // that reduced bound holds beta, the node is cut (multi-cut); when only the table move
            // was expected to hold beta, it is reduced instead.
            let mut singular = 0;
            if let Some(e) = entry {
                if !singular_search
                    && tt_move != 0
                    && m.compact() == tt_move
                    && depth >= SE_MIN_DEPTH
                    && e.depth >= depth - SE_TT_DEPTH_MARGIN
                    && matches!(e.bound, Bound::Lower | Bound::Exact)
                    && from_tt(e.score, ply).abs() < KNOWN_WIN
                    && (ply as i32) < 2 * self.root_depth
                {
                    let tt_score = from_tt(e.score, ply);
                    let s_beta = tt_score - SE_MARGIN_PER_DEPTH * depth;
                    self.stack[ply].excluded = m;
                    let v = self.search::<false>(pos, s_beta - 1, s_beta, (depth - 1) / 2, ply);
                    self.stack[ply].excluded = Move::NULL;
                    if self.stopped {
                        return 0;
                    }
                    if v < s_beta {
                        singular = 1;
                    } else if s_beta >= beta {
                        return s_beta;
                    } else if tt_score >= beta {
                        singular = -1;
                    }
                }
            }
            self.push_move(ply, pos, m);
            self.shared.tt.prefetch(child.hash());
            let check_ext = i32::from(gives_check && (ply as i32) < 2 * self.root_depth);
            let ext = if singular != 0 { singular } else { check_ext };
            let new_depth = depth - 1 + ext;
            self.stack[ply].cont = Some(cont_key(us, m));
            self.path.push(child.hash());
            let mut score;
            if searched == 0 {
                score = -self.search::<PV>(&child, -beta, -alpha, new_depth, ply + 1);
            } else {
                // Late move reductions.
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH
                    && searched > 2 * usize::from(PV)
                    && (quiet || stage == Stage::BadCapture)
                {
                    r = LMR[depth.min(63) as usize][searched.min(63)] as i32;
                    r += i32::from(!PV) + i32::from(!improving) - i32::from(gives_check);
                    if quiet {
                        let h = self.tables.history.quiet(us, m)
                            + self.tables.history.continuation(prevs[0], us, m);
                        r -= (h / LMR_HISTORY_DIV).clamp(-LMR_HISTORY_MAX, LMR_HISTORY_MAX);
                        // Killers reduce less; king moves out of check reduce more.
                        r -= i32::from(self.killers[ply].contains(&m));
                        r += i32::from(in_check && m.role() == Role::King);
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search::<false>(&child, -alpha - 1, -alpha, new_depth - r, ply + 1);
                if score > alpha && r > 0 {
                    score = -self.search::<false>(&child, -alpha - 1, -alpha, new_depth, ply + 1);
                }
                if PV && score > alpha && score < beta {
                    score = -self.search::<true>(&child, -beta, -alpha, new_depth, ply + 1);
                }
            }
            self.path.pop();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = m;
                n_quiets += 1;
            }
            if self.raise::<PV>(ply, m, score, &mut best, &mut best_move, &mut alpha)
                && score >= beta
            {
                if quiet {
                    let k = &mut self.killers[ply];
                    if k[0] != m {
                        k[1] = k[0];
                        k[0] = m;
                    }
                    self.tables
                        .history
                        .reward(us, prevs, m, &quiets[..n_quiets], depth);
                }
                break;
            }
        }
        if legal == 0 {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if searched == 0 {
            // Every move was pruned (or the only move was excluded): report a fail low.
            return alpha;
        }
        if singular_search {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best_move != Move::NULL {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A bound says something about the evaluation's error only when it lies beyond it.
        let informative = match bound {
            Bound::Lower => best > corrected,
            Bound::Upper => best < corrected,
            Bound::Exact => true,
            Bound::None => false,
        };
        if informative && !in_check && !best_move.is_tactical() && best.abs() < KNOWN_WIN {
            self.tables.correction.update(pos, best - raw_eval, depth);
        }
        self.shared.tt.store(
            key,
            best_move.compact(),
            to_tt(best, ply),
            if in_check { INFINITE } else { raw_eval },
            depth,
            bound,
        );
        best
    }
}
