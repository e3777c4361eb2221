//! Root move ranking for engines: which moves keep the tablebase result under the 50-move rule.
//!
//! Each legal root move gets a DTZ counted from the root (zeroing moves ±1/±101, others the child's DTZ
//! plus one ply, a mating move 1) and a rank: wins that convert before the 50-move counter reaches 100
//! rank highest and shorter first, then wins spoilt by the counter, draws, losses the counter will save,
//! and real losses (longer first). Without DTZ tables the moves are ranked by WDL alone. The ranking
//! follows the scheme Stockfish uses for its root moves (tbRank).

use ply_chess::{Move, Position, Role};

use crate::error::ProbeError;
use crate::tablebase::Tablebase;
use crate::wdl::{Dtz, Wdl};

/// Rank of a win reached well before the 50-move limit (Stockfish's `MAX_DTZ`).
const MAX_RANK: i32 = 1 << 18;

/// A legal root move with its tablebase verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Result after the move, from the mover's point of view.
    pub wdl: Wdl,
    /// DTZ from the root position when DTZ tables were available.
    pub dtz: Option<Dtz>,
    /// Higher is better; equal ranks are equally good for the engine.
    pub rank: i32,
}

/// Rank of a root move from its DTZ and the root's 50-move counter.
fn dtz_rank(dtz: i32, halfmove: i32) -> i32 {
    if dtz > 0 {
        if dtz + halfmove <= 99 {
            MAX_RANK - dtz
        } else {
            MAX_RANK / 2 - (dtz + halfmove)
        }
    } else if dtz < 0 {
        if -2 * dtz + halfmove < 100 {
            -MAX_RANK - dtz
        } else {
            -MAX_RANK / 2 + (-dtz + halfmove)
        }
    } else {
        0
    }
}

/// Rank of a root move from its WDL alone.
fn wdl_rank(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Loss => -MAX_RANK,
        Wdl::BlessedLoss => -MAX_RANK + 101,
        Wdl::Draw => 0,
        Wdl::CursedWin => MAX_RANK - 101,
        Wdl::Win => MAX_RANK,
    }
}

impl Tablebase {
    /// Every legal move of `pos` with its rank, best first. Uses DTZ and the position's 50-move counter
    /// when DTZ tables are present, otherwise falls back to WDL ranking (`dtz` is then `None`).
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`].
    pub fn root_moves(&self, pos: &Position) -> Result<Vec<RootMove>, ProbeError> {
        self.check_probeable(pos)?;
        let moves = pos.legal_moves();
        let mut out = Vec::with_capacity(moves.len());
        match self.rank_by_dtz(pos, &moves, &mut out) {
            Ok(()) => {}
            Err(ProbeError::MissingTable(name)) if name.ends_with(".rtbz") => {
                out.clear();
                for &mv in moves.iter() {
                    let wdl = Wdl::from_i8(-(self.wdl(&pos.play(mv))? as i8));
                    out.push(RootMove {
                        mv,
                        wdl,
                        dtz: None,
                        rank: wdl_rank(wdl),
                    });
                }
            }
            Err(e) => return Err(e),
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.rank));
        Ok(out)
    }

    /// The root moves that share the best rank: the fastest conversion of a win, or every move that
    /// keeps the best achievable result.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`].
    pub fn best_root_moves(&self, pos: &Position) -> Result<Vec<RootMove>, ProbeError> {
        let mut moves = self.root_moves(pos)?;
        if let Some(best) = moves.first().map(|m| m.rank) {
            moves.retain(|m| m.rank == best);
        }
        Ok(moves)
    }

    fn rank_by_dtz(
        &self,
        pos: &Position,
        moves: &ply_chess::MoveList,
        out: &mut Vec<RootMove>,
    ) -> Result<(), ProbeError> {
        let halfmove = pos.halfmove_clock().min(1000) as i32;
        for &mv in moves.iter() {
            let child = pos.play(mv);
            let wdl = Wdl::from_i8(-(self.wdl(&child)? as i8));
            let zeroing = mv.is_capture() || mv.role() == Role::Pawn;
            let mut dtz = if zeroing {
                wdl.dtz_before_zeroing().0
            } else {
                let d = -self.probe_dtz(&child)?.0;
                d + d.signum()
            };
            if dtz == 2 && child.is_checkmate() {
                dtz = 1;
            }
            out.push(RootMove {
                mv,
                wdl,
                dtz: Some(Dtz(dtz)),
                rank: dtz_rank(dtz, halfmove),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_order_results() {
        assert!(dtz_rank(1, 0) > dtz_rank(5, 0));
        assert!(dtz_rank(5, 0) > dtz_rank(60, 60)); // spoilt by the counter
        assert!(dtz_rank(60, 60) > 0);
        assert!(dtz_rank(-60, 0) < 0 && dtz_rank(-60, 0) > dtz_rank(-10, 0));
        assert!(wdl_rank(Wdl::Win) > wdl_rank(Wdl::CursedWin));
    }
}
