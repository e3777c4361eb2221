//! Move ordering for the endgame search (Edax `move.c`, `movelist_evaluate`): wipe-outs, then the
//! transposition-table moves, then "fastest first" (fewest replies for the opponent), with
//! potential mobility, corner stability, square type and quadrant parity as tie-breakers.

use crate::bits::{bit, CORNERS, QUADRANT_ID};
use crate::kernel::Kernel;
use crate::stability::corner_stability;
use crate::tt::NO_MOVE;

// Ordering weights, the one table of them for the endgame and the midgame. Bit layout of a
// score, from the top: wipe-out (bit 30), table moves (bits 29, 28), then the main term of the
// node's ordering, then the tie-breakers.

/// Score of a move that captures every opponent disc.
pub const W_WIPEOUT: i32 = 1 << 30;
/// Score of the transposition table's best move.
pub const W_HASH_1: i32 = 1 << 29;
/// Score of the transposition table's second move.
pub const W_HASH_2: i32 = 1 << 28;
/// Fastest first (endgame, and midgame nodes too shallow for a sorting search): weight of each
/// opponent reply removed (corners count twice), the main term.
const W_MOBILITY: i32 = 1 << 15;
/// Weight of each own disc made stable around the corners.
const W_CORNER_STABILITY: i32 = 1 << 11;
/// Weight of each empty square next to the mover's discs removed (opponent's potential moves).
const W_POTENTIAL_MOBILITY: i32 = 1 << 5;
/// Weight of 1/128 disc of a child's evaluation before the shift: one disc weighs one reply.
const W_EVAL_PER_128: i32 = W_MOBILITY / 128;
/// Bonus for playing into a quadrant with an odd number of empties.
const W_PARITY: i32 = 1 << 3;
/// Midgame nodes ordered by shallow searches (`midgame::worker`): weight of one disc of the
/// child's shallow score, the main term there (Edax: `w_eval`).
pub const W_SHALLOW_SCORE: i32 = 1 << 15;
/// Midgame nodes ordered by shallow searches: weight of each opponent reply removed (corners
/// twice). A different weight from [`W_MOBILITY`] on purpose: there mobility only breaks ties
/// below the searched score (one reply weighs half a disc of it), whereas in the fastest-first
/// ordering it is the main term (and outweighs an evaluation, see [`W_EVAL_PER_128`]).
pub const W_SHALLOW_MOBILITY: i32 = 1 << 14;

/// Endgame nodes (searched to the end) ordered by shallow searches: the sorting search's window
/// starts this many discs below the node's alpha (Edax's `SORT_ALPHA_DELTA`).
pub const SORT_ALPHA_DELTA: i32 = 8;

/// Sort score of a move at an endgame node ordered by a shallow search of depth `sd`: `score`
/// the child's shallow score from the mover's view, `mobility` the opponent's replies (corners
/// twice), `potential` the opponent's potential moves. Unlike the midgame weights
/// ([`W_SHALLOW_SCORE`], [`W_SHALLOW_MOBILITY`]) a reply weighs as much as a disc of a deep
/// sorting score and four times one of an evaluation, as in Edax: fastest-first pays where the
/// tree goes to the end (FFO #20-49 about −3 % nodes).
#[inline(always)]
pub fn end_sort_score(score: i32, sd: u32, mobility: i32, potential: u64) -> i32 {
    let w_score = match sd {
        0 => W_SHALLOW_SCORE >> 2,
        1 | 2 => W_SHALLOW_SCORE >> 1,
        _ => W_SHALLOW_SCORE,
    };
    (score + 64) * w_score
        + (36 - mobility) * W_MOBILITY
        + (36 - potential.count_ones() as i32) * W_POTENTIAL_MOBILITY
}

/// Static square value: corners best, X- and C-squares worst (small tie-breaker).
const SQUARE_VALUE: [i32; 64] = {
    let v8 = [
        [18, 4, 16, 12, 12, 16, 4, 18],
        [4, 2, 6, 8, 8, 6, 2, 4],
        [16, 6, 14, 10, 10, 14, 6, 16],
        [12, 8, 10, 0, 0, 10, 8, 12],
        [12, 8, 10, 0, 0, 10, 8, 12],
        [16, 6, 14, 10, 10, 14, 6, 16],
        [4, 2, 6, 8, 8, 6, 2, 4],
        [18, 4, 16, 12, 12, 16, 4, 18],
    ];
    let mut t = [0i32; 64];
    let mut x = 0;
    while x < 64 {
        t[x] = v8[x / 8][x % 8];
        x += 1;
    }
    t
};

/// Ordering score of a move already known to fail low: sorted last, and never searched.
pub const REFUTED: i32 = i32::MIN;

/// A move with its flips and ordering score.
#[derive(Clone, Copy, Debug, Default)]
pub struct Move {
    /// Square.
    pub x: u8,
    /// Flipped discs.
    pub flipped: u64,
    /// Ordering score (higher first).
    pub score: i32,
}

/// Up to 32 moves (more legal moves than that never occur in Othello... but 33 is the safe max).
#[derive(Clone, Debug)]
pub struct MoveList {
    moves: [Move; 34],
    len: usize,
}

impl MoveList {
    /// The moves of bitboard `moves` with their flips.
    #[inline(always)]
    pub fn new<K: Kernel>(k: K, player: u64, opponent: u64, mut moves: u64) -> MoveList {
        let mut l = MoveList {
            moves: [Move::default(); 34],
            len: 0,
        };
        while moves != 0 {
            let x = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            l.moves[l.len] = Move {
                x: x as u8,
                flipped: k.flip(x, player, opponent),
                score: 0,
            };
            l.len += 1;
        }
        l
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The moves.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves, mutably.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Moves the best-scored move among `i..` to position `i` and returns it (selection sort,
    /// lazily: a cutoff usually comes before the list is fully sorted).
    #[inline(always)]
    pub fn pick(&mut self, i: usize) -> Move {
        let mut b = i;
        for j in i + 1..self.len {
            if self.moves[j].score > self.moves[b].score {
                b = j;
            }
        }
        self.moves.swap(i, b);
        self.moves[i]
    }

    /// Adds an evaluation term to the moves not already ranked by the table or a wipe-out
    /// (Edax `move.c`, `movelist_evaluate` at high empties): `eval(child)` is the child's score in
    /// 1/128 disc from the opponent's view; one disc weighs one reply, shifted right by `shift`
    /// (Edax: 2 for an evaluation, 1 for a one-ply search).
    #[inline(always)]
    pub fn add_evaluation(&mut self, mut eval: impl FnMut(&Move) -> i32, shift: u32) {
        for m in self.as_mut_slice() {
            if m.score < W_HASH_2 && m.score != REFUTED {
                let e = eval(m).clamp(-64 * 128, 64 * 128);
                m.score += ((64 * 128 - e) * W_EVAL_PER_128) >> shift;
            }
        }
    }

    /// Marks the moves on the squares of `squares` as [`REFUTED`].
    pub fn demote(&mut self, squares: u64) {
        for m in self.as_mut_slice() {
            if squares & bit(m.x as usize) != 0 {
                m.score = REFUTED;
            }
        }
    }

    /// The moves from `i` on, fully sorted best first (for handing out to threads).
    pub fn sorted_from(&mut self, i: usize) -> &[Move] {
        let rest = &mut self.moves[i..self.len];
        rest.sort_unstable_by_key(|m| std::cmp::Reverse(m.score));
        rest
    }

    /// Scores every move for an endgame node (fastest first).
    #[inline(always)]
    pub fn evaluate<K: Kernel>(
        &mut self,
        k: K,
        player: u64,
        opponent: u64,
        hash_moves: [u8; 2],
        parity: u32,
    ) {
        for m in self.as_mut_slice() {
            m.score = score_move(k, player, opponent, m, hash_moves, parity);
        }
    }
}

/// Empty squares next to `player`'s discs: where the opponent may some day play.
#[inline(always)]
pub fn potential_moves(player: u64, opponent: u64) -> u64 {
    let e = !(player | opponent);
    let not_a = 0xfefe_fefe_fefe_fefe;
    let not_h = 0x7f7f_7f7f_7f7f_7f7f;
    let n = (player << 8)
        | (player >> 8)
        | ((player << 1) & not_a)
        | ((player >> 1) & not_h)
        | ((player << 9) & not_a)
        | ((player >> 9) & not_h)
        | ((player << 7) & not_h)
        | ((player >> 7) & not_a);
    n & e
}

/// Ordering score of move `m` (see the module doc).
#[inline(always)]
pub fn score_move<K: Kernel>(
    k: K,
    player: u64,
    opponent: u64,
    m: &Move,
    hash_moves: [u8; 2],
    parity: u32,
) -> i32 {
    let x = m.x as usize;
    if m.flipped == opponent {
        return W_WIPEOUT;
    }
    if m.x == hash_moves[0] && m.x != NO_MOVE {
        return W_HASH_1;
    }
    if m.x == hash_moves[1] && m.x != NO_MOVE {
        return W_HASH_2;
    }
    // the child position, from the opponent's side
    let cp = opponent ^ m.flipped;
    let co = player ^ m.flipped ^ bit(x);
    let replies = k.moves(cp, co);
    let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
    let mut s = SQUARE_VALUE[x];
    if parity & QUADRANT_ID[x] != 0 {
        s += W_PARITY;
    }
    s += (36 - potential_moves(co, cp).count_ones() as i32) * W_POTENTIAL_MOBILITY;
    s += corner_stability(co) as i32 * W_CORNER_STABILITY;
    s += (36 - mobility) * W_MOBILITY;
    s
}
