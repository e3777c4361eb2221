//! Reference move generation: an empty square is legal when it flips something.

/// Legal moves of `player` against `opponent`, as a bitboard.
pub fn get_moves(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    (0..64)
        .filter(|&sq| empty >> sq & 1 != 0 && crate::flip::scalar::flip(sq, player, opponent) != 0)
        .fold(0, |m, sq| m | 1u64 << sq)
}
