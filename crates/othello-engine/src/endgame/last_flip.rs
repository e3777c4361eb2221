//! Flip count of the very last move, computed without making it (Edax `count_last_flip*.c`).
//!
//! With a single empty square every other square is occupied, so along each of the four lines
//! through the square only the player's discs matter: the opponent owns every other square.
//! Each line is gathered into one byte (by shift or by a carry-free multiplication) and looked
//! up in [`COUNT_FLIP`], indexed by the square's position on the line.

use crate::bits::{DIAG7, DIAG9};

/// Number of discs flipped by playing at position `pos` of a full 8-square line whose player
/// discs are `line` (every other square belongs to the opponent).
const fn line_flips(pos: u32, line: u32) -> u8 {
    let mut n = 0;
    // lower side
    let mut y = pos as i32 - 1;
    while y >= 0 && line & (1 << y) == 0 {
        y -= 1;
    }
    if y >= 0 {
        n += pos as i32 - y - 1;
    }
    // higher side
    let mut y = pos + 1;
    while y < 8 && line & (1 << y) == 0 {
        y += 1;
    }
    if y < 8 {
        n += (y - pos - 1) as i32;
    }
    n as u8
}

/// `COUNT_FLIP[pos][line]`: discs flipped on one line (see [`line_flips`]).
///
/// Squares beyond the end of a short diagonal read as opponent discs; they never end in a
/// player disc, so they never produce a flip, and one table serves every line length.
pub static COUNT_FLIP: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            t[pos][line] = line_flips(pos as u32, line as u32);
            line += 1;
        }
        pos += 1;
    }
    t
};

/// Gathers the A-file bits of `b` (bit 8r) into bits r of a byte.
#[inline(always)]
const fn pack_file_a(b: u64) -> usize {
    ((b & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// Gathers a diagonal (one square per file) into a byte indexed by file.
#[inline(always)]
const fn pack_diagonal(b: u64) -> usize {
    (b.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
}

/// Number of opponent discs flipped if the player (owning `player`) plays the last empty
/// square `x`; every square other than `x` and the player's is the opponent's.
#[inline(always)]
pub fn count_last_flip(x: usize, player: u64) -> u32 {
    let file = x & 7;
    let rank = x >> 3;
    let row = ((player >> (x & 56)) & 0xff) as usize;
    let col = pack_file_a(player >> file);
    let d9 = pack_diagonal(player & DIAG9[x]);
    let d7 = pack_diagonal(player & DIAG7[x]);
    u32::from(COUNT_FLIP[file][row])
        + u32::from(COUNT_FLIP[rank][col])
        + u32::from(COUNT_FLIP[file][d9])
        + u32::from(COUNT_FLIP[file][d7])
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_testkit::XorShift64;

    /// Reference: walk the eight directions on the board.
    fn slow_count(x: usize, player: u64) -> u32 {
        let mut n = 0;
        let (f0, r0) = ((x % 8) as i32, (x / 8) as i32);
        for (df, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ] {
            let (mut f, mut r, mut k) = (f0 + df, r0 + dr, 0);
            while (0..8).contains(&f) && (0..8).contains(&r) && player & (1 << (r * 8 + f)) == 0 {
                f += df;
                r += dr;
                k += 1;
            }
            if (0..8).contains(&f) && (0..8).contains(&r) {
                n += k;
            }
        }
        n
    }

    #[test]
    fn matches_ply_othello_flip_on_last_moves() {
        use crate::endgame::tests::random_position;
        use crate::kernel::Portable;
        let mut rng = XorShift64::new(0x5eed);
        for _ in 0..5_000 {
            let (p, o) = random_position(Portable, &mut rng, 1);
            let x = (!(p | o)).trailing_zeros() as usize;
            for (a, b) in [(p, o), (o, p)] {
                let reference = ply_othello::flip::scalar::flip(x, a, b).count_ones();
                assert_eq!(count_last_flip(x, a), reference, "x={x} p={a:#x} o={b:#x}");
            }
        }
    }

    #[test]
    fn matches_direction_walk() {
        let mut rng = XorShift64::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200_000 {
            let x = (rng.next() >> 58) as usize;
            let player = rng.next() & !(1u64 << x);
            assert_eq!(
                count_last_flip(x, player),
                slow_count(x, player),
                "x={x} p={player:x}"
            );
        }
    }
}
