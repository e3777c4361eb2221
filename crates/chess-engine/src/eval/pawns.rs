//! The pawn structure: the part of the evaluation that depends on pawns only (doubled,
//! isolated, backward, connected, passed, candidate pawns), cached per thread by pawn key.

use super::geometry::*;
use super::layout as at;
use super::{add, NoTrace, Tracer};
use crate::Score;
use ply_chess::{pawn_attacks, Bitboard, Color, Position, Role};

/// A cached pawn-structure evaluation (the part depending on pawns only).
#[derive(Clone, Copy, Default)]
pub(super) struct PawnEntry {
    pub(super) key: u64,
    /// Pawn-structure score per colour, from that colour's point of view.
    pub(super) score: [Score; 2],
    /// Passed pawns of both colours.
    pub(super) passed: u64,
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
        let own = pos.pieces(color, Role::Pawn).0;
        let theirs = pos.pieces(!color, Role::Pawn).0;
        let their_attacks = pawn_attack_set(!color, theirs);
        for sq in Bitboard(own) {
            let i = sq.index();
            let f = sq.file().index();
            let r = relative_rank(color, sq);
            let adjacent = ADJACENT_FILES[f];
            let stop = push_square(color, sq);
            // the squares of the adjacent files at the pawn's rank or behind it
            let behind_or_level = PASSED_SPAN[(!color).index()][stop.index()] & adjacent;
            if FORWARD_FILE[color.index()][i] & own != 0 {
                add(t, &mut e.score, color, at::DOUBLED + f, 1);
            }
            let supported = pawn_attacks(!color, sq).0 & own != 0;
            let phalanx = (Bitboard::from_square(sq).east().0 | Bitboard::from_square(sq).west().0)
                & own
                != 0;
            if adjacent & own == 0 {
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
                if own & behind_or_level == 0 && their_attacks & (1 << stop.index()) != 0 {
                    add(t, &mut e.score, color, at::BACKWARD + r, 1);
                }
            }
            if PASSED_SPAN[color.index()][i] & theirs == 0
                && FORWARD_FILE[color.index()][i] & own == 0
            {
                e.passed |= 1 << i;
                add(t, &mut e.score, color, at::PASSED + r, 1);
            } else if FORWARD_FILE[color.index()][i] & (own | theirs) == 0 {
                // Candidate: an open file ahead, and at least as many own pawns beside or
                // behind on the adjacent files as enemy pawns ahead on them.
                let sentries = PASSED_SPAN[color.index()][i] & theirs;
                let helpers = behind_or_level & own;
                if helpers.count_ones() >= sentries.count_ones() {
                    add(t, &mut e.score, color, at::CANDIDATE + r, 1);
                }
            }
        }
    }
    e
}
