//! What the main thread reports and when: a line per completed iteration and MultiPV line, a
//! bound after a slow aspiration failure, and a last line when the search stops inside an
//! iteration whose best line was never shown.

use super::info::Info;
use super::worker::Worker;
use crate::tt::Bound;
use crate::value::INFINITE;
use std::time::Duration;

impl<'a, 's> Worker<'a, 's> {
    pub(super) fn report_if_slow(&mut self, depth: i32, score: i32, bound: Bound) {
        if self.id == 0 && self.shared.control.elapsed() > Duration::from_secs(3) {
            self.report(depth, 0, score, bound);
        }
    }

    pub(super) fn report_lines(&mut self, depth: i32) {
        for i in 0..self.multipv {
            let score = self.root_moves[i].score;
            self.report(depth, i, score, Bound::Exact);
        }
    }

    pub(super) fn report(&mut self, depth: i32, line: usize, score: i32, bound: Bound) {
        if line == 0 {
            self.reported.clone_from(&self.root_moves[0].pv);
        }
        self.reporter.info(&self.info(depth, line, score, bound));
    }

    /// When the search stops inside an iteration whose best line was never reported (a move
    /// beat the previous best, failed high, or the best move's line changed, and the limit came
    /// before the iteration ended), one more line reports it, so that the last line a GUI reads
    /// is the one played: its move is `bestmove`, its second move the ponder move.
    pub(super) fn report_final(&mut self) {
        let best = &self.root_moves[0];
        if best.pv == self.reported {
            return;
        }
        let (depth, score, bound) = if best.score != -INFINITE {
            (self.root_depth, best.score, best.bound)
        } else if best.prev_score != -INFINITE {
            (self.completed_depth.max(1), best.prev_score, Bound::Exact)
        } else {
            return;
        };
        self.report(depth, 0, score, bound);
    }

    pub(super) fn info(&self, depth: i32, line: usize, score: i32, bound: Bound) -> Info {
        self.publish_nodes();
        Info {
            depth,
            seldepth: self.seldepth.max(depth as usize),
            multipv: line + 1,
            score,
            bound,
            nodes: self.shared.total_nodes(),
            time: self.shared.control.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            tbhits: self.shared.total_tbhits(),
            pv: self.root_moves[line].pv.clone(),
        }
    }
}
