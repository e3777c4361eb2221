//! Portable flips: per ray, the nearest square that is not an opponent disc is found with one bit
//! trick (lowest set bit towards higher indices, leading-zero count towards lower ones); if it holds
//! a player disc, the ray squares before it flip.

use crate::lines::RAYS;

/// Discs flipped when the mover (`player`) plays `sq`; 0 if the move flips nothing.
/// Does not check that `sq` is empty. `sq` must be < 64 (it is masked with 63).
#[inline(always)]
pub fn flip(sq: usize, player: u64, opponent: u64) -> u64 {
    let rays = &RAYS[sq & 63];
    let mut flipped = 0u64;
    for &ray in &rays[..4] {
        // Towards higher bits: the nearest non-opponent square is the lowest set bit.
        let stop = !opponent & ray;
        let outflank = stop & stop.wrapping_neg() & player;
        flipped |= outflank.wrapping_sub((outflank != 0) as u64) & ray;
    }
    for &ray in &rays[4..] {
        // Towards lower bits: the highest set bit; `| 1` keeps the shift in range, and bit 0 only
        // counts when it lies on the ray.
        let stop = (!opponent & ray) | 1;
        let outflank = ((1u64 << 63) >> stop.leading_zeros()) & player & ray;
        flipped |= outflank.wrapping_neg().wrapping_shl(1) & ray;
    }
    flipped
}
