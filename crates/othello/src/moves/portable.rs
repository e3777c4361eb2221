//! Portable move generation: for each line direction, grow runs of opponent discs adjacent to
//! player discs (one step, then doubling steps), one step further gives the candidate squares.

/// Opponent discs that may be crossed horizontally or diagonally (the A and H files cannot).
const INNER: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Squares reached from `player` through at least one `mask` disc, in both directions of `shift`.
#[inline(always)]
fn both_ways(player: u64, mask: u64, shift: u32) -> u64 {
    let pair = mask & (mask << shift);
    let mut up = mask & (player << shift);
    up |= mask & (up << shift);
    up |= pair & (up << (2 * shift));
    up |= pair & (up << (2 * shift));
    let pair = mask & (mask >> shift);
    let mut down = mask & (player >> shift);
    down |= mask & (down >> shift);
    down |= pair & (down >> (2 * shift));
    down |= pair & (down >> (2 * shift));
    (up << shift) | (down >> shift)
}

/// Legal moves of `player` against `opponent`, as a bitboard.
#[inline(always)]
pub fn get_moves(player: u64, opponent: u64) -> u64 {
    let inner = opponent & INNER;
    let m = both_ways(player, inner, 1)
        | both_ways(player, opponent, 8)
        | both_ways(player, inner, 7)
        | both_ways(player, inner, 9);
    m & !(player | opponent)
}
