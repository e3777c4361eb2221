//! Move-ordering statistics learnt during the search (CPW "History Heuristic", "Killer Heuristic",
//! continuation history): bonuses for quiet moves that caused cutoffs, maluses for the quiet moves
//! tried before them, with "gravity" so values saturate at ±[`HISTORY_MAX`].

use ply_chess::{Color, Move};

/// Saturation bound of every history value.
pub const HISTORY_MAX: i32 = 16_384;

/// Index of a coloured piece (colour × 6 + role).
#[inline(always)]
pub fn piece_index(color: Color, m: Move) -> usize {
    color.index() * 6 + m.role().index()
}

/// Applies a bonus (or malus when negative) with gravity toward zero.
#[inline(always)]
fn update(v: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let cur = *v as i32;
    *v = (cur + b - cur * b.abs() / HISTORY_MAX) as i16;
}

/// The bonus for a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16 + 32 * depth).min(1600)
}

/// Butterfly history (side, from, to) and continuation history (previous piece and destination,
/// current piece and destination), one set per search thread.
pub struct History {
    butterfly: Vec<i16>,
    continuation: Vec<i16>,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    /// Zeroed tables.
    pub fn new() -> History {
        History {
            butterfly: vec![0; 2 * 64 * 64],
            continuation: vec![0; 12 * 64 * 12 * 64],
        }
    }

    #[inline(always)]
    fn bf_index(color: Color, m: Move) -> usize {
        color.index() * 4096 + m.from().index() * 64 + m.to().index()
    }

    /// Continuation slot for (previous piece, previous destination) and the current move.
    #[inline(always)]
    fn cont_index(prev: usize, color: Color, m: Move) -> usize {
        prev * 768 + piece_index(color, m) * 64 + m.to().index()
    }

    /// Butterfly history of a quiet move.
    #[inline]
    pub fn quiet(&self, color: Color, m: Move) -> i32 {
        self.butterfly[Self::bf_index(color, m)] as i32
    }

    /// Continuation history after the previous move identified by `prev` (see [`cont_key`]).
    #[inline]
    pub fn continuation(&self, prev: Option<usize>, color: Color, m: Move) -> i32 {
        prev.map_or(0, |p| {
            self.continuation[Self::cont_index(p, color, m)] as i32
        })
    }

    /// Rewards `best` and punishes the other quiet moves `tried` before it.
    pub fn reward(
        &mut self,
        color: Color,
        prevs: [Option<usize>; 2],
        best: Move,
        tried: &[Move],
        depth: i32,
    ) {
        let b = bonus(depth);
        for &m in tried {
            let sign = if m == best { 1 } else { -1 };
            update(&mut self.butterfly[Self::bf_index(color, m)], sign * b);
            for p in prevs.into_iter().flatten() {
                update(
                    &mut self.continuation[Self::cont_index(p, color, m)],
                    sign * b,
                );
            }
        }
    }
}

/// The continuation key of a move just played by `color`: piece index × 64 + destination.
#[inline(always)]
pub fn cont_key(color: Color, m: Move) -> usize {
    piece_index(color, m) * 64 + m.to().index()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_chess::Position;

    #[test]
    fn rewards_saturate_and_punish() {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        let (a, b) = (moves[0], moves[1]);
        let mut h = History::new();
        let prev = Some(cont_key(Color::Black, moves[2]));
        for _ in 0..1000 {
            h.reward(Color::White, [prev, None], a, &[b, a], 20);
        }
        assert!(h.quiet(Color::White, a) > 0 && h.quiet(Color::White, a) <= HISTORY_MAX);
        assert!(h.quiet(Color::White, b) < 0 && h.quiet(Color::White, b) >= -HISTORY_MAX);
        assert!(h.continuation(prev, Color::White, a) > 0);
        assert_eq!(h.quiet(Color::Black, a), 0);
    }
}
