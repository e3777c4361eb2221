//! WDL and DTZ of real positions: capture resolution, en passant and the one-ply DTZ search.
//!
//! The tables store "don't care" values wherever a capture already achieves the result (de Man,
//! "Question to syzygy author"), so a position's WDL is the best of its captures (searched
//! recursively, alpha-beta style: `probe_ab`) and the stored value. En passant is never encoded: ep
//! captures are tried separately, and a position whose only legal moves are ep captures must take
//! the best of them. DTZ tables store one side to move; for the other a one-ply search over the
//! stored side's values gives the answer. Zeroing moves (captures and pawn moves) count as DTZ ±1
//! (±101 when the 50-move rule spoils the result).

use ply_chess::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks, Color, Position, Role,
};

use crate::error::{ProbeError, TableError};
use crate::tablebase::{RawPosition, Tablebase};
use crate::wdl::{Dtz, Wdl};

/// Plain bitboards of a position, for the table layer.
impl From<&Position> for RawPosition {
    #[inline]
    fn from(pos: &Position) -> RawPosition {
        let mut raw = RawPosition {
            white_to_move: pos.side_to_move() == Color::White,
            ..RawPosition::default()
        };
        for (i, &role) in Role::ALL.iter().enumerate() {
            raw.white[i] = pos.pieces(Color::White, role).0;
            raw.black[i] = pos.pieces(Color::Black, role).0;
        }
        raw
    }
}

/// Whether the side to move attacks an enemy piece (other than the king) at all: a cheap test that lets
/// most positions skip move generation in the capture search. En passant is not counted.
#[inline]
fn may_capture(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let targets = pos.by_color(!us).0 & !pos.pieces(!us, Role::King).0;
    if targets == 0 {
        return false;
    }
    let mut attacked = 0u64;
    for sq in pos.pieces(us, Role::Pawn) {
        attacked |= pawn_attacks(us, sq).0;
    }
    for sq in pos.pieces(us, Role::Knight) {
        attacked |= knight_attacks(sq).0;
    }
    for sq in pos.pieces(us, Role::Bishop) | pos.pieces(us, Role::Queen) {
        attacked |= bishop_attacks(sq, occ).0;
    }
    for sq in pos.pieces(us, Role::Rook) | pos.pieces(us, Role::Queen) {
        attacked |= rook_attacks(sq, occ).0;
    }
    attacked |= king_attacks(pos.king(us)).0;
    attacked & targets != 0
}

/// The WDL `v` of the capture search combined with the en passant captures (see
/// [`Tablebase::ep_captures`]).
#[inline]
fn with_ep_wdl(v: i32, (best_ep, only_ep): (i32, bool)) -> i32 {
    if best_ep > -3 && (best_ep >= v || (v == 0 && only_ep)) {
        // Better than the stored value, or (without the ep capture this would be stalemate) forced.
        best_ep
    } else {
        v
    }
}

/// The DTZ `v` without en passant combined with the en passant captures.
fn with_ep_dtz(v: i32, (best_ep, only_ep): (i32, bool)) -> i32 {
    if best_ep == -3 {
        return v;
    }
    let v1 = before_zeroing(best_ep);
    let better = if v < -100 {
        v1 >= 0
    } else if v < 0 {
        !(-100..0).contains(&v1)
    } else if v > 100 {
        v1 > 0
    } else if v > 0 {
        v1 == 1
    } else {
        v1 >= 0 || only_ep
    };
    if better {
        v1
    } else {
        v
    }
}

/// DTZ of a position whose best move zeroes the counter, as a plain integer.
#[inline]
fn before_zeroing(wdl: i32) -> i32 {
    Wdl::from_i8(wdl as i8).dtz_before_zeroing().0
}

impl Tablebase {
    /// Win/draw/loss of `pos` for the side to move, with captures and en passant resolved.
    ///
    /// # Errors
    /// [`ProbeError::CastlingRights`] for positions with castling rights (never in tables),
    /// [`ProbeError::TooManyPieces`], and missing or corrupted tables (including those of positions
    /// reached by captures).
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        self.check_probeable(pos)?;
        Ok(Wdl::from_i8(self.wdl(pos)? as i8))
    }

    /// Distance to zeroing of `pos` for the side to move (see [`Dtz`]), with the WDL sign.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`]; DTZ tables are needed as well as WDL tables.
    pub fn probe_dtz(&self, pos: &Position) -> Result<Dtz, ProbeError> {
        self.check_probeable(pos)?;
        Ok(Dtz(self.dtz(pos, 0)?))
    }

    /// WDL and DTZ of `pos` together: the same values and errors as [`Tablebase::probe_wdl`]
    /// followed by [`Tablebase::probe_dtz`], with the work they share (the capture search of the
    /// position and its en passant captures) done once.
    ///
    /// # Errors
    /// The error `probe_wdl` would give, else the one `probe_dtz` would give.
    pub fn probe_wdl_dtz(&self, pos: &Position) -> Result<(Wdl, Dtz), ProbeError> {
        self.check_probeable(pos)?;
        let root = self.probe_ab(pos, -2, 2)?;
        let ep = self.ep_captures(pos)?;
        let wdl = with_ep_wdl(root.0, ep);
        let dtz = with_ep_dtz(self.dtz_no_ep_from(pos, 0, root)?, ep);
        Ok((Wdl::from_i8(wdl as i8), Dtz(dtz)))
    }

    /// Reject positions that no table can hold.
    pub(crate) fn check_probeable(&self, pos: &Position) -> Result<(), ProbeError> {
        if pos.castling_rights().any() {
            return Err(ProbeError::CastlingRights);
        }
        let pieces = pos.occupied().count() as usize;
        if pieces > 7 {
            return Err(ProbeError::TooManyPieces(pieces));
        }
        Ok(())
    }

    /// Stored WDL of the position as an integer.
    #[inline]
    fn table_wdl(&self, pos: &Position) -> Result<i32, ProbeError> {
        Ok(self.probe_wdl_table(&RawPosition::from(pos))? as i32)
    }

    /// Best of the non-ep captures (searched recursively within the window) and the stored value.
    /// The flag is 2 when a capture reaches `beta` or a capture achieves a positive result at least as
    /// good as the stored one (so the best move zeroes the counter), 1 otherwise.
    fn probe_ab(&self, pos: &Position, mut alpha: i32, beta: i32) -> Result<(i32, u8), ProbeError> {
        // Most table positions have no capture at all; otherwise only captures matter here, and the
        // tactical generator skips the quiet moves.
        if may_capture(pos) {
            for &m in pos.tactical_moves().iter() {
                if !m.is_capture() || m.is_en_passant() {
                    continue;
                }
                let child = pos.play(m);
                let v = -self.probe_ab(&child, -beta, -alpha)?.0;
                if v > alpha {
                    if v >= beta {
                        return Ok((v, 2));
                    }
                    alpha = v;
                }
            }
        }
        let v = self.table_wdl(pos)?;
        if alpha >= v {
            Ok((alpha, 1 + u8::from(alpha > 0)))
        } else {
            Ok((v, 1))
        }
    }

    /// WDL with en passant: ep captures are not in the tables, so take them into account here.
    pub(crate) fn wdl(&self, pos: &Position) -> Result<i32, ProbeError> {
        let (v, _) = self.probe_ab(pos, -2, 2)?;
        Ok(with_ep_wdl(v, self.ep_captures(pos)?))
    }

    /// The en passant captures of `pos`: the best of their values (-3 when there is none) and
    /// whether they are the only legal moves.
    fn ep_captures(&self, pos: &Position) -> Result<(i32, bool), ProbeError> {
        if pos.ep_square().is_none() {
            return Ok((-3, false));
        }
        let moves = pos.legal_moves();
        let mut best = -3;
        for &m in moves.iter().filter(|m| m.is_en_passant()) {
            let v = -self.probe_ab(&pos.play(m), -2, 2)?.0;
            best = best.max(v);
        }
        Ok((best, moves.iter().all(|m| m.is_en_passant())))
    }

    /// DTZ with en passant resolution. `depth` counts nested side-to-move changes.
    fn dtz(&self, pos: &Position, depth: u32) -> Result<i32, ProbeError> {
        let v = self.dtz_no_ep(pos, depth)?;
        Ok(with_ep_dtz(v, self.ep_captures(pos)?))
    }

    /// DTZ ignoring en passant: zeroing moves first, then the table, then (if the table stores the
    /// other side to move) a one-ply search.
    fn dtz_no_ep(&self, pos: &Position, depth: u32) -> Result<i32, ProbeError> {
        let root = self.probe_ab(pos, -2, 2)?;
        self.dtz_no_ep_from(pos, depth, root)
    }

    /// [`Tablebase::dtz_no_ep`] given the result of `probe_ab(pos, -2, 2)`.
    fn dtz_no_ep_from(
        &self,
        pos: &Position,
        depth: u32,
        (wdl, flag): (i32, u8),
    ) -> Result<i32, ProbeError> {
        if wdl == 0 {
            return Ok(0);
        }
        if flag == 2 {
            return Ok(before_zeroing(wdl));
        }
        let moves = pos.legal_moves();
        if wdl > 0 {
            // A pawn push that keeps the result zeroes the counter at once.
            for &m in moves
                .iter()
                .filter(|m| m.role() == Role::Pawn && !m.is_capture())
            {
                if -self.wdl(&pos.play(m))? == wdl {
                    return Ok(before_zeroing(wdl));
                }
            }
        }
        if let Some(stored) =
            self.probe_dtz_table(&RawPosition::from(pos), Wdl::from_i8(wdl as i8))?
        {
            let stored = stored as i32;
            return Ok(before_zeroing(wdl) + if wdl > 0 { stored } else { -stored });
        }
        if depth > 0 {
            return Err(ProbeError::BadTable {
                name: "DTZ".to_owned(),
                error: TableError::Corrupted("DTZ table stores neither side to move"),
            });
        }
        if wdl > 0 {
            let mut best = i32::MAX;
            for &m in moves
                .iter()
                .filter(|m| m.role() != Role::Pawn && !m.is_capture())
            {
                let child = pos.play(m);
                let v = -self.dtz(&child, depth + 1)?;
                if v == 1 && child.is_checkmate() {
                    best = 1;
                } else if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            }
            if best == i32::MAX {
                // A won position must have a winning move; the tables contradict each other.
                return Err(ProbeError::BadTable {
                    name: "DTZ".to_owned(),
                    error: TableError::Corrupted("no winning move in a won position"),
                });
            }
            Ok(best)
        } else {
            let mut best = -1;
            for &m in moves.iter() {
                let child = pos.play(m);
                let v = if m.is_capture() || m.role() == Role::Pawn {
                    if wdl == -2 {
                        -1
                    } else if self.probe_ab(&child, 1, 2)?.0 == 2 {
                        0
                    } else {
                        -101
                    }
                } else {
                    -self.dtz(&child, depth + 1)? - 1
                };
                best = best.min(v);
            }
            Ok(best)
        }
    }
}
