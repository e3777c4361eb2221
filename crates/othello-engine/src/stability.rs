//! Stable discs (Edax `board.c`: `get_stable_edge`, `get_stability`; the stability
//! cutoff `search_SC_NWS` of `search.c`).
//!
//! A disc is stable when no sequence of moves can flip it. Edges use an exact table generated
//! by `build.rs`; inner discs are stable when, along each of the four lines through them, the
//! line is full or a neighbour on that line is already stable. The result is a subset of the
//! truly stable discs, which is all the stability cutoff needs.

include!(concat!(env!("OUT_DIR"), "/edge_stability.rs"));

/// Gathers the A-file (`shift` = 0) or H-file (`shift` = 7) into a byte indexed by rank.
#[inline(always)]
fn pack_file(b: u64, shift: u32) -> usize {
    (((b >> shift) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// Spreads bits 1..=6 of a byte (ranks 2..7) onto the A-file; corners come from the rows.
#[inline(always)]
fn unpack_a2a7(x: u64) -> u64 {
    ((x & 0x7e).wrapping_mul(0x0000_0408_1020_4080)) & 0x0001_0101_0101_0100
}

/// Exactly stable discs of `player` on the four edges.
#[inline(always)]
pub fn stable_edges(player: u64, opponent: u64) -> u64 {
    let idx = |p: usize, o: usize| p * 256 + o;
    let bottom =
        u64::from(EDGE_STABILITY[idx((player & 0xff) as usize, (opponent & 0xff) as usize)]);
    let top =
        u64::from(EDGE_STABILITY[idx((player >> 56) as usize, (opponent >> 56) as usize)]) << 56;
    let a = u64::from(EDGE_STABILITY[idx(pack_file(player, 0), pack_file(opponent, 0))]);
    let h = u64::from(EDGE_STABILITY[idx(pack_file(player, 7), pack_file(opponent, 7))]);
    bottom | top | unpack_a2a7(a) | (unpack_a2a7(h) << 7)
}

/// Squares whose row, column and both diagonals are full: (horizontal, vertical, diag9, diag7).
#[inline(always)]
pub fn full_lines(occupied: u64) -> [u64; 4] {
    // horizontal: a row is full when all 8 bits are set
    let mut h = occupied & (occupied >> 1);
    h &= h >> 2;
    h &= h >> 4;
    h &= 0x0101_0101_0101_0101;
    let h = h.wrapping_mul(0xff);

    // vertical: AND of all rows, broadcast
    let mut v = occupied & occupied.rotate_right(8);
    v &= v.rotate_right(16);
    v &= v.rotate_right(32);

    [
        h,
        v,
        full_diagonal::<9>(occupied),
        full_diagonal::<7>(occupied),
    ]
}

/// Number of steps from square `x` to the end of its diagonal in direction `+step` (`up`) or
/// `-step`: 9 goes one rank up and one file right, 7 one rank up and one file left.
const fn steps_to_end(x: u32, step: u32, up: bool) -> u32 {
    let (file, rank) = (x % 8, x / 8);
    // direction 9 moves towards the H-file going up, direction 7 going down
    let towards_h = (step == 9) == up;
    let files = if towards_h { 7 - file } else { file };
    let ranks = if up { 7 - rank } else { rank };
    if files < ranks {
        files
    } else {
        ranks
    }
}

/// `ENDS[d][side][k]`: squares with fewer than `2^k` steps left towards one end of their
/// diagonal (`d` = 0 for direction 9, 1 for 7; `side` = 0 upwards, 1 downwards). A doubling step
/// that would read past the end of the line reads these instead, as if occupied.
static ENDS: [[[u64; 3]; 2]; 2] = {
    let mut t = [[[0u64; 3]; 2]; 2];
    let mut x = 0;
    while x < 64 {
        let mut d = 0;
        while d < 2 {
            let step = if d == 0 { 9 } else { 7 };
            let mut side = 0;
            while side < 2 {
                let n = steps_to_end(x, step, side == 0);
                let mut k = 0;
                while k < 3 {
                    if n < (1 << k) {
                        t[d][side][k] |= 1 << x;
                    }
                    k += 1;
                }
                side += 1;
            }
            d += 1;
        }
        x += 1;
    }
    t
};

/// Squares of full diagonals in direction `S` (9 or 7): each square ANDs in the occupancy of
/// 1, 2 and 4 further squares towards each end (a doubling, or Kogge-Stone, fill), so after three
/// steps each way it holds whether its whole diagonal is occupied.
#[inline(always)]
fn full_diagonal<const S: u32>(occupied: u64) -> u64 {
    let ends = &ENDS[if S == 9 { 0 } else { 1 }];
    let mut up = occupied;
    up &= (up >> S) | ends[0][0];
    up &= (up >> (2 * S)) | ends[0][1];
    up &= (up >> (4 * S)) | ends[0][2];
    let mut down = occupied;
    down &= (down << S) | ends[1][0];
    down &= (down << (2 * S)) | ends[1][1];
    down &= (down << (4 * S)) | ends[1][2];
    up & down
}

/// Discs whose four lines are all full: no move can ever flip them or flank with them.
#[inline(always)]
pub fn solid_discs(occupied: u64) -> u64 {
    let [h, v, d9, d7] = full_lines(occupied);
    occupied & h & v & d9 & d7
}

/// Stable discs of `player` (edges exactly, inner discs by the full-line/neighbour closure).
#[inline(always)]
pub fn stable_discs(player: u64, opponent: u64) -> u64 {
    let occupied = player | opponent;
    let [fh, fv, f9, f7] = full_lines(occupied);
    let inner = player & 0x007e_7e7e_7e7e_7e00;
    let mut stable = stable_edges(player, opponent) | (inner & fh & fv & f9 & f7);
    if stable == 0 {
        return 0;
    }
    loop {
        let sh = (stable >> 1) | (stable << 1) | fh;
        let sv = (stable >> 8) | (stable << 8) | fv;
        let s9 = (stable >> 9) | (stable << 9) | f9;
        let s7 = (stable >> 7) | (stable << 7) | f7;
        let next = stable | (sh & sv & s9 & s7 & inner);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// Number of stable discs of `player`.
#[inline(always)]
pub fn count_stable(player: u64, opponent: u64) -> u32 {
    stable_discs(player, opponent).count_ones()
}

/// Stable discs among the three squares next to each corner the player owns, plus those
/// corners: the cheap "corner stability" used for move ordering (Edax `move.c`, `move_evaluate`).
#[inline(always)]
pub fn corner_stability(player: u64) -> u32 {
    let corners = player & 0x8100_0000_0000_0081;
    let near = ((corners >> 1) & 0x4000_0000_0000_0040)
        | ((corners << 1) & 0x0200_0000_0000_0002)
        | (corners >> 8)
        | (corners << 8);
    (corners | (near & player & 0x4281_0000_0000_8142)).count_ones()
}

/// Minimum score reachable for the side to move given stable discs: used to fail low when
/// `64 - 2 * stable(opponent) <= alpha` (stability cutoff).
#[inline(always)]
pub fn stability_upper_bound(player: u64, opponent: u64) -> i32 {
    64 - 2 * count_stable(opponent, player) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_testkit::XorShift64;

    #[test]
    fn edge_table_basics() {
        // a lone corner disc is stable, a lone B1 disc is not
        assert_eq!(EDGE_STABILITY[256], 0x01);
        assert_eq!(EDGE_STABILITY[0x02 * 256], 0x00);
        // a full edge is stable for both
        assert_eq!(EDGE_STABILITY[0x0f * 256 + 0xf0], 0x0f);
        assert_eq!(EDGE_STABILITY[0xf0 * 256 + 0x0f], 0xf0);
        // corner + adjacent run of own discs
        assert_eq!(EDGE_STABILITY[0x07 * 256 + 0x08], 0x07);
    }

    #[test]
    fn stable_discs_are_never_flipped() {
        use crate::endgame::tests::random_position;
        use crate::kernel::{Kernel, Portable};
        let k = Portable;
        let mut rng = XorShift64::new(0xdead_beef);
        let mut checked = 0;
        for empties in [4u32, 8, 12, 16, 20, 24, 30] {
            for _ in 0..300 {
                let (p, o) = random_position(k, &mut rng, empties);
                for (me, them) in [(p, o), (o, p)] {
                    let stable = stable_discs(me, them);
                    checked += stable.count_ones();
                    // random playouts to the end: stable discs keep their colour
                    for _ in 0..20 {
                        let (mut a, mut b) = (me, them);
                        let mut mine = true;
                        loop {
                            let moves = k.moves(a, b);
                            if moves == 0 {
                                if k.moves(b, a) == 0 {
                                    break;
                                }
                                (a, b, mine) = (b, a, !mine);
                                continue;
                            }
                            let x = rng.pick_bit(moves);
                            let f = k.flip(x, a, b);
                            (a, b, mine) = (b ^ f, a ^ f ^ (1 << x), !mine);
                            let my_discs = if mine { a } else { b };
                            assert_eq!(
                                my_discs & stable,
                                stable,
                                "stable disc flipped: p={me:#x} o={them:#x}"
                            );
                        }
                    }
                }
            }
        }
        assert!(
            checked > 1000,
            "the test must exercise stable discs ({checked})"
        );
    }

    /// Reference: walk each line from every square.
    fn slow_full_lines(occupied: u64) -> [u64; 4] {
        let mut out = [0u64; 4];
        for (i, (df, dr)) in [(1i32, 0i32), (0, 1), (1, 1), (-1, 1)]
            .into_iter()
            .enumerate()
        {
            for x in 0..64i32 {
                let (f0, r0) = (x % 8, x / 8);
                let mut full = true;
                for sign in [1, -1] {
                    let (mut f, mut r) = (f0, r0);
                    while (0..8).contains(&f) && (0..8).contains(&r) {
                        full &= occupied >> (r * 8 + f) & 1 == 1;
                        f += sign * df;
                        r += sign * dr;
                    }
                }
                if full {
                    out[i] |= 1 << x;
                }
            }
        }
        out
    }

    #[test]
    fn full_lines_match_a_line_walk() {
        let mut rng = ply_testkit::XorShift64::new(0x51ab_1e00_0000_0001);
        for _ in 0..20_000 {
            // dense boards, so that many lines are full
            let occupied = rng.next() | rng.next() | rng.next();
            assert_eq!(
                full_lines(occupied),
                slow_full_lines(occupied),
                "{occupied:#x}"
            );
        }
        assert_eq!(full_lines(u64::MAX), [u64::MAX; 4]);
        assert_eq!(full_lines(0), slow_full_lines(0));
    }

    #[test]
    fn full_lines_of_full_board() {
        assert_eq!(full_lines(u64::MAX), [u64::MAX; 4]);
        let [h, v, d9, d7] = full_lines(!1);
        assert_eq!(h & 0xff, 0);
        assert_eq!(v & 0x0101_0101_0101_0101, 0);
        assert_eq!(d9 & 0x8040_2010_0804_0201, 0);
        assert_eq!(d7, !1);
    }
}
