//! Reference flips: step square by square in each of the 8 directions.

use crate::lines::DIRECTIONS;

/// Discs flipped when the mover (`player`) plays `sq`; 0 if the move flips nothing.
/// Does not check that `sq` is empty. `sq` must be < 64.
pub fn flip(sq: usize, player: u64, opponent: u64) -> u64 {
    let mut flipped = 0u64;
    for &(dx, dy) in &DIRECTIONS {
        let (mut x, mut y) = ((sq % 8) as i32 + dx, (sq / 8) as i32 + dy);
        let mut line = 0u64;
        while (0..8).contains(&x) && (0..8).contains(&y) {
            let b = 1u64 << (8 * y + x);
            if opponent & b != 0 {
                line |= b;
            } else {
                if player & b != 0 {
                    flipped |= line;
                }
                break;
            }
            x += dx;
            y += dy;
        }
    }
    flipped
}
