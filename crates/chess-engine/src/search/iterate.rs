//! Iterative deepening: aspiration windows for each MultiPV line, the time decisions between
//! iterations, and the search of the root moves.

use super::params::*;
use super::worker::Worker;
use crate::history::cont_key;
use crate::tt::Bound;
use crate::value::*;
use ply_chess::Move;

impl<'a, 's> Worker<'a, 's> {
    /// Iterative deepening with aspiration windows, for each MultiPV line.
    pub(super) fn iterate(&mut self) {
        let limits = self.shared.limits;
        // A mate search without other limits gives up at twice the plies the mate needs (plus
        // slack for extensions and pruning).
        let mate_depth = limits.mate.map_or(MAX_PLY as i32, |n| 4 * n as i32 + 4);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .min(mate_depth)
            .clamp(1, MAX_PLY as i32 - 8);
        let mut stability = 0;
        let mut last_best = Move::NULL;
        let mut last_score = -INFINITE;
        let mut depth = 1;
        while depth <= max_depth {
            // Helper threads skip some depths so that the threads spread over the tree.
            if self.id > 0 && depth > 1 && (depth + self.id as i32) % 3 == 0 {
                depth += 1;
                continue;
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                if rm.score != -INFINITE {
                    rm.prev_score = rm.score;
                }
                rm.score = -INFINITE;
                rm.nodes = 0;
            }
            for pv_idx in 0..self.multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = ASPIRATION_DELTA;
                let (mut alpha, mut beta) =
                    if depth >= ASPIRATION_MIN_DEPTH && prev.abs() < KNOWN_WIN {
                        ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                    } else {
                        (-INFINITE, INFINITE)
                    };
                loop {
                    let score = self.root_search(depth, alpha, beta);
                    self.sort_root(pv_idx);
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITE);
                        self.report_if_slow(depth, score, Bound::Upper);
                    } else if score >= beta {
                        beta = (score + delta).min(INFINITE);
                        self.report_if_slow(depth, score, Bound::Lower);
                    } else {
                        break;
                    }
                    delta += delta / 2 + ASPIRATION_GROWTH;
                }
                self.sort_root(0);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if self.id != 0 {
                depth += 1;
                continue;
            }
            self.report_lines(depth);

            let best = self.root_moves[0].mv;
            if best == last_best {
                stability += 1;
            } else {
                stability = 0;
                last_best = best;
            }
            let score = self.root_moves[0].score;
            if let Some(n) = limits.mate {
                if score > MATE - 2 * n as i32 {
                    break;
                }
            }
            if self.shared.control.stopped() {
                break;
            }
            if !self.shared.control.is_pondering() {
                if let Some(soft) = self.shared.budget.soft {
                    // Stop starting iterations once a share of the soft time is used: smaller
                    // when the best move has stayed the same and took most of the nodes, larger
                    // after the score dropped.
                    let stable = TIME_STABILITY[stability.min(TIME_STABILITY.len() - 1)];
                    let all: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
                    let share = self.root_moves[0].nodes as f64 / all.max(1) as f64;
                    let effort = (TIME_EFFORT_BASE - share).clamp(TIME_EFFORT_MIN, TIME_EFFORT_MAX);
                    let drop = if last_score > -INFINITE && score.abs() < KNOWN_WIN {
                        1.0 + f64::from((last_score - score).clamp(0, TIME_DROP_CAP))
                            / TIME_DROP_DIV
                    } else {
                        1.0
                    };
                    if self.root_moves.len() == 1
                        || self.shared.control.elapsed().as_secs_f64()
                            > soft.as_secs_f64() * stable * effort * drop * TIME_SHARE
                    {
                        break;
                    }
                }
            }
            last_score = score;
            depth += 1;
        }
        if self.id == 0 {
            self.report_final();
        }
        self.publish_nodes();
    }

    /// Stable-sorts root moves from `from` on by score (moves not re-searched sort below).
    pub(super) fn sort_root(&mut self, from: usize) {
        self.root_moves[from..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    }

    /// Searches the root moves from `pv_idx` on.
    pub(super) fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let root = self.root;
        let window_alpha = alpha;
        let mut best = -INFINITE;
        if let Some(nn) = &mut self.nnue {
            nn.refresh(0, &root);
        }
        self.stack[0].eval = if root.is_check() {
            -INFINITE
        } else {
            self.static_eval(&root, 0)
        };
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let nodes_before = self.nodes;
            let child = root.play(m);
            self.push_move(0, &root, m);
            self.shared.tt.prefetch(child.hash());
            self.path.push(child.hash());
            self.stack[0].cont = Some(cont_key(root.side_to_move(), m));
            let ext = i32::from(child.is_check());
            let new_depth = depth - 1 + ext;
            let score = if i == self.pv_idx {
                -self.search::<true>(&child, -beta, -alpha, new_depth, 1)
            } else {
                let r = if depth >= 3 && i >= self.pv_idx + 3 && !m.is_tactical() && ext == 0 {
                    1
                } else {
                    0
                };
                let mut s = -self.search::<false>(&child, -alpha - 1, -alpha, new_depth - r, 1);
                if s > alpha && r > 0 {
                    s = -self.search::<false>(&child, -alpha - 1, -alpha, new_depth, 1);
                }
                if s > alpha && s < beta {
                    s = -self.search::<true>(&child, -beta, -alpha, new_depth, 1);
                }
                s
            };
            self.path.pop();
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || score > alpha {
                rm.score = score;
                rm.bound = if score <= window_alpha {
                    Bound::Upper
                } else if score >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }
}
