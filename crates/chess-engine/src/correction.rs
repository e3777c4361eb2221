//! Static-evaluation correction history: a per-thread table, indexed by side to move and pawn
//! structure, of how far the search result of recent nodes landed from their static evaluation.
//! Adding the running average back to the evaluation makes pruning decisions (reverse futility,
//! null move, futility) follow what the search keeps finding for that pawn structure (the
//! "correction history" idea of modern engines, CPW "Static Evaluation Correction History").

use ply_chess::Position;

/// Table entries per side (a power of two).
const SIZE: usize = 16_384;
/// Fixed-point scale of the stored corrections (entries are centipawns × `GRAIN`).
const GRAIN: i32 = 256;
/// Largest correction, in centipawns.
const LIMIT: i32 = 64;
/// Weight denominator of the running average.
const WEIGHT_SCALE: i32 = 256;

/// Corrections per (side to move, pawn key) slot.
pub struct Correction {
    table: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

impl Correction {
    /// A zeroed table.
    pub fn new() -> Correction {
        Correction {
            table: vec![0; 2 * SIZE],
        }
    }

    #[inline(always)]
    fn index(pos: &Position) -> usize {
        pos.side_to_move().index() * SIZE + (pos.pawn_key() as usize & (SIZE - 1))
    }

    /// The correction to add to the static evaluation of `pos`, in centipawns.
    #[inline]
    pub fn get(&self, pos: &Position) -> i32 {
        self.table[Self::index(pos)] / GRAIN
    }

    /// Moves the slot of `pos` toward `diff` (search result minus static evaluation), weighted by
    /// the depth of the search that produced it.
    pub fn update(&mut self, pos: &Position, diff: i32, depth: i32) {
        let slot = &mut self.table[Self::index(pos)];
        let weight = (depth + 1).min(16);
        let target = diff.clamp(-LIMIT, LIMIT) * GRAIN;
        *slot = (*slot * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converges_toward_the_observed_difference_and_stays_bounded() {
        let pos = Position::startpos();
        let mut c = Correction::new();
        assert_eq!(c.get(&pos), 0);
        for _ in 0..2000 {
            c.update(&pos, 1000, 20);
        }
        assert!(c.get(&pos) > LIMIT - 3 && c.get(&pos) <= LIMIT);
        for _ in 0..2000 {
            c.update(&pos, -30, 20);
        }
        assert!((c.get(&pos) + 30).abs() <= 2, "{}", c.get(&pos));
        let other = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        assert_eq!(c.get(&other), 0);
    }
}
