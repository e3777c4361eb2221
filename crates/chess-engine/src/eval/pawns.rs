//! The pawn structure: the part of the evaluation that depends on pawns only (doubled,
//! isolated, backward, connected, passed, candidate pawns), cached per thread by pawn key.

use super::geometry::*;
use super::layout as at;
use super::tracer::{add, NoTrace, Tracer};
use crate::Score;
use ply_chess::{pawn_attacks, Bitboard, Color, Position, Role};

/// A cached pawn-structure evaluation (the part depending on pawns only).
#[derive(Clone, Copy, Default)]
pub(super) struct PawnEntry {
    pub(super) key: u64,
    /// Pawn-structure score per color, from that color's point of view.
    pub(super) score: [Score; 2],
    /// Passed pawns of both colors.
    pub(super) passed: Bitboard,
}

/// A per-thread cache of pawn-structure evaluations keyed by [`Position::pawn_key`].
pub struct PawnTable {
    entries: Vec<PawnEntry>,
}

/// Entries in a pawn table (a power of two; 16,384 × 32 bytes = 512 KiB).
const PAWN_TABLE_SIZE: usize = 1 << 14;

impl Default for PawnTable {
    fn default() -> Self {
        PawnTable::new()
    }
}

impl PawnTable {
    /// An empty table.
    pub fn new() -> PawnTable {
        // The key of an empty entry (0) never matches a real pawn key except the pawnless one, whose
        // cached value (zero) is also correct.
        PawnTable {
            entries: vec![PawnEntry::default(); PAWN_TABLE_SIZE],
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(PawnEntry::default());
    }

    /// The pawn-structure entry of `pos`, computed on a miss.
    #[inline]
    pub(super) fn probe(&mut self, pos: &Position) -> PawnEntry {
        let key = pos.pawn_key();
        let slot = &mut self.entries[(key as usize) & (PAWN_TABLE_SIZE - 1)];
        if slot.key != key {
            *slot = pawn_structure(pos, &mut NoTrace);
        }
        *slot
    }
}

/// Evaluates the pawn structure from scratch (the pawn-hash payload), telling `t` each feature.
pub(super) fn pawn_structure<T: Tracer>(pos: &Position, t: &mut T) -> PawnEntry {
    let mut e = PawnEntry {
        key: pos.pawn_key(),
        ..PawnEntry::default()
    };
    for color in Color::ALL {
        let own = pos.pieces(color, Role::Pawn);
        let theirs = pos.pieces(!color, Role::Pawn);
        let their_attacks = pawn_attack_set(!color, theirs);
        for sq in own {
            let i = sq.index();
            let f = sq.file().index();
            let r = relative_rank(color, sq);
            let adjacent = ADJACENT_FILES[f];
            let stop = push_square(color, sq);
            // the squares of the adjacent files at the pawn's rank or behind it
            let behind_or_level = PASSED_SPAN[(!color).index()][stop.index()] & adjacent;
            if FORWARD_FILE[color.index()][i].intersects(own) {
                add(t, &mut e.score, color, at::DOUBLED + f, 1);
            }
            let supported = pawn_attacks(!color, sq).intersects(own);
            let here = Bitboard::from_square(sq);
            let phalanx = (here.east() | here.west()).intersects(own);
            if !adjacent.intersects(own) {
                add(t, &mut e.score, color, at::ISOLATED + f, 1);
            } else if supported || phalanx {
                add(
                    t,
                    &mut e.score,
                    color,
                    at::CONNECTED + relative_square(color, sq),
                    1,
                );
            } else {
                // Backward: every adjacent own pawn is ahead, and the stop square is contested.
                if !own.intersects(behind_or_level) && their_attacks.contains(stop) {
                    add(t, &mut e.score, color, at::BACKWARD + r, 1);
                }
            }
            if !PASSED_SPAN[color.index()][i].intersects(theirs)
                && !FORWARD_FILE[color.index()][i].intersects(own)
            {
                e.passed.add(sq);
                add(t, &mut e.score, color, at::PASSED + r, 1);
            } else if !FORWARD_FILE[color.index()][i].intersects(own | theirs) {
                // Candidate: an open file ahead, and at least as many own pawns beside or
                // behind on the adjacent files as enemy pawns ahead on them.
                let sentries = PASSED_SPAN[color.index()][i] & theirs;
                let helpers = behind_or_level & own;
                if helpers.count() >= sentries.count() {
                    add(t, &mut e.score, color, at::CANDIDATE + r, 1);
                }
            }
        }
    }
    e
}
