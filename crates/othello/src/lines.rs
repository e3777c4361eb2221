//! Ray masks: for each square, the squares in each of the 8 directions (excluding the square itself),
//! built at compile time. Directions 0..4 go towards higher bit indices (E, S, SW, SE: +1, +8, +7, +9),
//! 4..8 towards lower ones (W, N, NE, NW: -1, -8, -7, -9), so the nearest square of a ray is its lowest
//! bit in the first half and its highest bit in the second half.

/// Column and row steps of the 8 directions, in the order described in the module docs.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (-1, 1),
    (1, 1),
    (-1, 0),
    (0, -1),
    (1, -1),
    (-1, -1),
];

/// Bit shift of each direction (positive: towards higher bits), same order as [`DIRECTIONS`].
pub const SHIFTS: [i32; 8] = [1, 8, 7, 9, -1, -8, -7, -9];

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = DIRECTIONS[d];
            let mut x = (sq % 8) as i32 + dx;
            let mut y = (sq / 8) as i32 + dy;
            let mut m = 0u64;
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                m |= 1u64 << (y * 8 + x);
                x += dx;
                y += dy;
            }
            rays[sq][d] = m;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// `RAYS[sq][d]`: squares seen from `sq` in direction `d` (see [`DIRECTIONS`]).
pub static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_neighbours() -> [u64; 64] {
    let mut n = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let r = RAYS_CONST[sq][d];
            // Nearest square of the ray: lowest bit for directions 0..4, highest for 4..8.
            n[sq] |= if d < 4 {
                r & r.wrapping_neg()
            } else if r != 0 {
                1u64 << (63 - r.leading_zeros())
            } else {
                0
            };
            d += 1;
        }
        sq += 1;
    }
    n
}

const RAYS_CONST: [[u64; 8]; 64] = build_rays();

/// `NEIGHBOURS[sq]`: the up to 8 squares adjacent to `sq`.
pub static NEIGHBOURS: [u64; 64] = build_neighbours();
