//! The small table of one search thread for the null-window nodes near the leaves (the
//! Edax-AVX notes on `endgame.c`: Edax keeps a thread-local table of 1024 entries below 10 empties).
//!
//! Most table probes of an exact solve happen a few empties above the hash-less `shallow`
//! layer. In the shared table each of them is a cache (and often TLB) miss; here the whole
//! table (24 KiB) stays in the core's cache, no other thread writes to it, and an entry is
//! simply overwritten by the next board that maps to its slot.

use crate::search::SCORE_INF;
use crate::tt::NO_MOVE;

/// Up to this many empties the null-window search uses the thread's [`LocalTt`] instead of the
/// shared table (and no enhanced transposition cutoff).
pub const LOCAL_TT_DEPTH: u32 = 10;

/// Number of slots (a power of two).
const SLOTS: usize = 1 << 10;

/// One stored result: the board (so there are no false hits), score bounds and best move.
#[derive(Clone, Copy)]
struct Slot {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
    best: u8,
}

/// The empty slot: no legal position has both sides' discs on every square at once.
const EMPTY: Slot = Slot {
    player: u64::MAX,
    opponent: u64::MAX,
    lower: -SCORE_INF as i8,
    upper: SCORE_INF as i8,
    best: NO_MOVE,
};

/// A direct-mapped table owned by one thread.
#[derive(Clone)]
pub struct LocalTt {
    slots: Box<[Slot; SLOTS]>,
}

/// What [`LocalTt::probe`] finds: score bounds and the best move ([`NO_MOVE`] if none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalProbe {
    /// Lower bound of the exact score.
    pub lower: i32,
    /// Upper bound of the exact score.
    pub upper: i32,
    /// Best move found by the search that stored the bounds.
    pub best: u8,
}

impl Default for LocalTt {
    fn default() -> Self {
        LocalTt::new()
    }
}

impl LocalTt {
    /// An empty table.
    pub fn new() -> LocalTt {
        LocalTt {
            slots: Box::new([EMPTY; SLOTS]),
        }
    }

    #[inline(always)]
    fn index(hash: u64) -> usize {
        (hash as usize) & (SLOTS - 1)
    }

    /// The bounds stored for the board `player`/`opponent` (whose hash is `hash`), if any.
    #[inline(always)]
    pub fn probe(&self, hash: u64, player: u64, opponent: u64) -> Option<LocalProbe> {
        let s = &self.slots[Self::index(hash)];
        (s.player == player && s.opponent == opponent).then(|| LocalProbe {
            lower: i32::from(s.lower),
            upper: i32::from(s.upper),
            best: s.best,
        })
    }

    /// Stores the result `score` of a fail-soft search of the board with window
    /// (`alpha`, `beta`) and its best move: merged with the bounds already there for the same
    /// board, otherwise replacing whatever the slot held.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        hash: u64,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        score: i32,
        best: u8,
    ) {
        let s = &mut self.slots[Self::index(hash)];
        if s.player != player || s.opponent != opponent {
            *s = Slot {
                player,
                opponent,
                ..EMPTY
            };
        }
        let score = score.clamp(-SCORE_INF, SCORE_INF) as i8;
        if i32::from(score) < beta && score < s.upper {
            s.upper = score;
        }
        if i32::from(score) > alpha && score > s.lower {
            s.lower = score;
        }
        s.best = best;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_merge_for_the_same_board_and_reset_for_another() {
        let mut t = LocalTt::new();
        assert_eq!(t.probe(5, 1, 2), None);
        // fail low at window (3, 4): the score is at most 2
        t.store(5, 1, 2, 3, 4, 2, 7);
        assert_eq!(
            t.probe(5, 1, 2),
            Some(LocalProbe {
                lower: -SCORE_INF,
                upper: 2,
                best: 7
            })
        );
        // fail high at window (-3, -2): at least 0; both bounds kept
        t.store(5, 1, 2, -3, -2, 0, 9);
        assert_eq!(
            t.probe(5, 1, 2),
            Some(LocalProbe {
                lower: 0,
                upper: 2,
                best: 9
            })
        );
        // another board in the same slot replaces it
        t.store(5 + SLOTS as u64, 3, 4, 0, 1, 10, 1);
        assert_eq!(t.probe(5, 1, 2), None);
        assert_eq!(
            t.probe(5, 3, 4),
            Some(LocalProbe {
                lower: 10,
                upper: SCORE_INF,
                best: 1
            })
        );
    }
}
