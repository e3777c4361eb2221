//! The pattern features: Edax's 46 (`eval.c`, `EVAL_F2X`), then 16 more of four corner shapes
//! chosen by measurement (docs/benchmarks/othello-training.md); the square lists, the
//! per-square coefficients used by
//! the incremental update, the table layout and the symmetry packing (Edax's kinds first, in
//! `eval.dat`'s layout).
//!
//! A feature is a base-3 number over its squares, first square most significant, each digit
//! 0 (the view's "own" disc), 1 (the other disc) or 2 (empty). Squares: A1 = 0 .. H1 = 7, A2 = 8.
//! Weights whose extra kinds are all zero (Edax's files, the v1 weights) are evaluated on
//! Edax's 46 features alone, with Edax-sized tables.

/// Number of pattern features (bias excluded).
pub const N_FEATURES: usize = 62;
/// Number of Edax's features, the first ones.
pub const N_EDAX_FEATURES: usize = 46;
/// Number of `u16` lanes of a feature vector: the 62 features, a zero lane and the view flag.
pub const N_LANES: usize = 64;
/// Lane holding the view flag: 1 when digit 0 means the side to move.
pub const VIEW_LANE: usize = 63;

/// Square number of a coordinate such as `b"C3"` (evaluated at compile time).
const fn sq(name: &[u8; 2]) -> u8 {
    (name[1] - b'1') * 8 + (name[0] - b'A')
}

/// Builds a square list from coordinate names.
const fn squares<const N: usize>(names: [&[u8; 2]; N]) -> [u8; 10] {
    let mut out = [0u8; 10];
    let mut i = 0;
    while i < N {
        out[i] = sq(names[i]);
        i += 1;
    }
    out
}

/// One feature: its squares (first = most significant digit) and how many there are.
#[derive(Clone, Copy, Debug)]
pub struct Feature {
    /// Number of squares (4..=10).
    pub len: u8,
    /// The squares; only the first `len` are meaningful.
    pub squares: [u8; 10],
}

const fn f<const N: usize>(names: [&[u8; 2]; N]) -> Feature {
    Feature {
        len: N as u8,
        squares: squares(names),
    }
}

/// The features grouped by kind: Edax's 46 in its order (eval.c `EVAL_F2X`), then the extras.
pub const FEATURES: [Feature; N_FEATURES] = [
    // 3x3 corners
    f([
        b"A1", b"B1", b"A2", b"B2", b"C1", b"A3", b"C2", b"B3", b"C3",
    ]),
    f([
        b"H1", b"G1", b"H2", b"G2", b"F1", b"H3", b"F2", b"G3", b"F3",
    ]),
    f([
        b"A8", b"A7", b"B8", b"B7", b"A6", b"C8", b"B6", b"C7", b"C6",
    ]),
    f([
        b"H8", b"H7", b"G8", b"G7", b"H6", b"F8", b"G6", b"F7", b"F6",
    ]),
    // angle + X
    f([
        b"A5", b"A4", b"A3", b"A2", b"A1", b"B2", b"B1", b"C1", b"D1", b"E1",
    ]),
    f([
        b"H5", b"H4", b"H3", b"H2", b"H1", b"G2", b"G1", b"F1", b"E1", b"D1",
    ]),
    f([
        b"A4", b"A5", b"A6", b"A7", b"A8", b"B7", b"B8", b"C8", b"D8", b"E8",
    ]),
    f([
        b"H4", b"H5", b"H6", b"H7", b"H8", b"G7", b"G8", b"F8", b"E8", b"D8",
    ]),
    // edge + 2X
    f([
        b"B2", b"A1", b"B1", b"C1", b"D1", b"E1", b"F1", b"G1", b"H1", b"G2",
    ]),
    f([
        b"B7", b"A8", b"B8", b"C8", b"D8", b"E8", b"F8", b"G8", b"H8", b"G7",
    ]),
    f([
        b"B2", b"A1", b"A2", b"A3", b"A4", b"A5", b"A6", b"A7", b"A8", b"B7",
    ]),
    f([
        b"G2", b"H1", b"H2", b"H3", b"H4", b"H5", b"H6", b"H7", b"H8", b"G7",
    ]),
    // 2x5 block (corners + C, D squares of the edge and the second line)
    f([
        b"A1", b"C1", b"D1", b"C2", b"D2", b"E2", b"F2", b"E1", b"F1", b"H1",
    ]),
    f([
        b"A8", b"C8", b"D8", b"C7", b"D7", b"E7", b"F7", b"E8", b"F8", b"H8",
    ]),
    f([
        b"A1", b"A3", b"A4", b"B3", b"B4", b"B5", b"B6", b"A5", b"A6", b"A8",
    ]),
    f([
        b"H1", b"H3", b"H4", b"G3", b"G4", b"G5", b"G6", b"H5", b"H6", b"H8",
    ]),
    // line 2
    f([b"A2", b"B2", b"C2", b"D2", b"E2", b"F2", b"G2", b"H2"]),
    f([b"A7", b"B7", b"C7", b"D7", b"E7", b"F7", b"G7", b"H7"]),
    f([b"B1", b"B2", b"B3", b"B4", b"B5", b"B6", b"B7", b"B8"]),
    f([b"G1", b"G2", b"G3", b"G4", b"G5", b"G6", b"G7", b"G8"]),
    // line 3
    f([b"A3", b"B3", b"C3", b"D3", b"E3", b"F3", b"G3", b"H3"]),
    f([b"A6", b"B6", b"C6", b"D6", b"E6", b"F6", b"G6", b"H6"]),
    f([b"C1", b"C2", b"C3", b"C4", b"C5", b"C6", b"C7", b"C8"]),
    f([b"F1", b"F2", b"F3", b"F4", b"F5", b"F6", b"F7", b"F8"]),
    // line 4
    f([b"A4", b"B4", b"C4", b"D4", b"E4", b"F4", b"G4", b"H4"]),
    f([b"A5", b"B5", b"C5", b"D5", b"E5", b"F5", b"G5", b"H5"]),
    f([b"D1", b"D2", b"D3", b"D4", b"D5", b"D6", b"D7", b"D8"]),
    f([b"E1", b"E2", b"E3", b"E4", b"E5", b"E6", b"E7", b"E8"]),
    // diagonal 8
    f([b"A1", b"B2", b"C3", b"D4", b"E5", b"F6", b"G7", b"H8"]),
    f([b"A8", b"B7", b"C6", b"D5", b"E4", b"F3", b"G2", b"H1"]),
    // diagonal 7
    f([b"B1", b"C2", b"D3", b"E4", b"F5", b"G6", b"H7"]),
    f([b"H2", b"G3", b"F4", b"E5", b"D6", b"C7", b"B8"]),
    f([b"A2", b"B3", b"C4", b"D5", b"E6", b"F7", b"G8"]),
    f([b"G1", b"F2", b"E3", b"D4", b"C5", b"B6", b"A7"]),
    // diagonal 6
    f([b"C1", b"D2", b"E3", b"F4", b"G5", b"H6"]),
    f([b"A3", b"B4", b"C5", b"D6", b"E7", b"F8"]),
    f([b"F1", b"E2", b"D3", b"C4", b"B5", b"A6"]),
    f([b"H3", b"G4", b"F5", b"E6", b"D7", b"C8"]),
    // diagonal 5
    f([b"D1", b"E2", b"F3", b"G4", b"H5"]),
    f([b"A4", b"B5", b"C6", b"D7", b"E8"]),
    f([b"E1", b"D2", b"C3", b"B4", b"A5"]),
    f([b"H4", b"G5", b"F6", b"E7", b"D8"]),
    // diagonal 4
    f([b"D1", b"C2", b"B3", b"A4"]),
    f([b"A5", b"B6", b"C7", b"D8"]),
    f([b"E1", b"F2", b"G3", b"H4"]),
    f([b"H5", b"G6", b"F7", b"E8"]),
    // fish: corner 2x2, the C2-D2 wing, B3-C3, B4 and D4 (and their diagonal images)
    f([
        b"A1", b"B1", b"A2", b"B2", b"C2", b"D2", b"B3", b"C3", b"B4", b"D4",
    ]),
    f([
        b"H1", b"G1", b"H2", b"G2", b"F2", b"E2", b"G3", b"F3", b"G4", b"E4",
    ]),
    f([
        b"A8", b"B8", b"A7", b"B7", b"C7", b"D7", b"B6", b"C6", b"B5", b"D5",
    ]),
    f([
        b"H8", b"G8", b"H7", b"G7", b"F7", b"E7", b"G6", b"F6", b"G5", b"E5",
    ]),
    // cross: the main diagonal from a corner to the centre with its two neighbours
    f([
        b"A1", b"B2", b"C3", b"D4", b"B1", b"C2", b"D3", b"A2", b"B3", b"C4",
    ]),
    f([
        b"H1", b"G2", b"F3", b"E4", b"G1", b"F2", b"E3", b"H2", b"G3", b"F4",
    ]),
    f([
        b"A8", b"B7", b"C6", b"D5", b"B8", b"C7", b"D6", b"A7", b"B6", b"C5",
    ]),
    f([
        b"H8", b"G7", b"F6", b"E5", b"G8", b"F7", b"E6", b"H7", b"G6", b"F5",
    ]),
    // edge + C2 and F2
    f([
        b"A1", b"B1", b"C1", b"D1", b"E1", b"F1", b"G1", b"H1", b"C2", b"F2",
    ]),
    f([
        b"A8", b"B8", b"C8", b"D8", b"E8", b"F8", b"G8", b"H8", b"C7", b"F7",
    ]),
    f([
        b"A1", b"A2", b"A3", b"A4", b"A5", b"A6", b"A7", b"A8", b"B3", b"B6",
    ]),
    f([
        b"H1", b"H2", b"H3", b"H4", b"H5", b"H6", b"H7", b"H8", b"G3", b"G6",
    ]),
    // 5-square diagonal with the corner 2x2 at its side
    f([
        b"D1", b"E2", b"F3", b"G4", b"H5", b"G1", b"H1", b"G2", b"H2",
    ]),
    f([
        b"E1", b"D2", b"C3", b"B4", b"A5", b"B1", b"A1", b"B2", b"A2",
    ]),
    f([
        b"D8", b"E7", b"F6", b"G5", b"H4", b"G8", b"H8", b"G7", b"H7",
    ]),
    f([
        b"E8", b"D7", b"C6", b"B5", b"A4", b"B8", b"A8", b"B7", b"A7",
    ]),
];

/// How the digits of a pattern kind map onto its mirror image (the symmetry that leaves the
/// pattern's squares in place), used to pack equivalent indices into one weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mirror {
    /// The digit order is reversed (edges, lines, diagonals, edge+2X, 2x5 block).
    Reverse,
    /// 3x3 corner: swap digit pairs (1,2), (4,5), (6,7).
    Corner9,
    /// Angle + X: reverse all but the two middle digits (corner and X square stay).
    Angle10,
    /// Digit `p` moves to position `perm[p]` (an involution; the extra kinds, derived from
    /// their squares by [`self_mirror`]).
    Perm([u8; 10]),
}

/// The digit permutation of a feature's symmetry onto itself: the first board symmetry other
/// than the identity that maps its squares onto themselves (identity if there is none).
pub const fn self_mirror(feat: &Feature) -> [u8; 10] {
    let n = feat.len as usize;
    let mut mask = 0u64;
    let mut i = 0;
    while i < n {
        mask |= 1 << feat.squares[i];
        i += 1;
    }
    let mut perm = [0u8; 10];
    let mut p = 0;
    while p < 10 {
        perm[p] = p as u8;
        p += 1;
    }
    let mut s = 1;
    while s < 8 {
        let mut image = 0u64;
        let mut i = 0;
        while i < n {
            image |= 1 << ply_othello::symmetry::symmetry_square(feat.squares[i] as usize, s);
            i += 1;
        }
        if image == mask {
            let mut p = 0;
            while p < n {
                let to = ply_othello::symmetry::symmetry_square(feat.squares[p] as usize, s);
                let mut q = 0;
                while feat.squares[q] as usize != to {
                    q += 1;
                }
                perm[p] = q as u8;
                p += 1;
            }
            return perm;
        }
        s += 1;
    }
    perm
}

/// One pattern kind: a group of features sharing one weight table, in `eval.dat` order.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    /// Short name, for logs.
    pub name: &'static str,
    /// Number of squares.
    pub len: u8,
    /// First feature of the kind and number of features.
    pub features: (u8, u8),
    /// Mirror symmetry of the digits.
    pub mirror: Mirror,
    /// Number of symmetry classes (size of the kind's section of a packed table).
    pub classes: u32,
    /// Offset of the kind's section in a packed table.
    pub packed_offset: u32,
    /// Offset of the kind's unpacked table (`3^len` entries) in a runtime table.
    pub table_offset: u32,
}

/// 3^n.
pub const fn pow3(n: u32) -> u32 {
    POW3[n as usize]
}

/// Number of symmetry classes of an n-digit pattern under its mirror: the indices the mirror
/// leaves alone (equal digits on each swapped pair) count once, the others pair up.
const fn class_count(len: u32, mirror: Mirror) -> u32 {
    let fixed_digits = match mirror {
        Mirror::Reverse => len.div_ceil(2),
        Mirror::Corner9 => 6,
        Mirror::Angle10 => 6,
        Mirror::Perm(perm) => {
            // fixed points plus swapped pairs
            let mut fixed = 0;
            let mut p = 0;
            while p < len {
                if perm[p as usize] as u32 == p {
                    fixed += 1;
                }
                p += 1;
            }
            (len + fixed) / 2
        }
    };
    (pow3(len) + pow3(fixed_digits)) / 2
}

/// Number of pattern kinds (the bias excluded).
pub const N_KINDS: usize = 16;
/// Number of Edax's kinds, the first ones.
pub const N_EDAX_KINDS: usize = 12;

const fn kind(name: &'static str, len: u8, first: u8, count: u8, mirror: Mirror) -> Kind {
    Kind {
        name,
        len,
        features: (first, count),
        mirror,
        classes: class_count(len as u32, mirror),
        packed_offset: 0,
        table_offset: 0,
    }
}

/// Offset of the bias in a runtime table; it also guards the gather's "read one short early".
pub const BIAS_OFFSET: usize = 0;

/// Kind of the extra features starting at `first`, mirrored by their own symmetry.
const fn extra(name: &'static str, first: u8) -> Kind {
    let feat = &FEATURES[first as usize];
    kind(name, feat.len, first, 4, Mirror::Perm(self_mirror(feat)))
}

/// The 16 kinds: Edax's 12 in `eval.dat` order, then the extras, with their packed and
/// runtime offsets. Runtime tables put two zero guards after Edax's kinds (the end of an
/// Edax-only table) and two more after the extras.
pub const KINDS: [Kind; N_KINDS] = {
    let mut k = [
        kind("corner3x3", 9, 0, 4, Mirror::Corner9),
        kind("angle+X", 10, 4, 4, Mirror::Angle10),
        kind("edge+2X", 10, 8, 4, Mirror::Reverse),
        kind("block2x5", 10, 12, 4, Mirror::Reverse),
        kind("line2", 8, 16, 4, Mirror::Reverse),
        kind("line3", 8, 20, 4, Mirror::Reverse),
        kind("line4", 8, 24, 4, Mirror::Reverse),
        kind("diag8", 8, 28, 2, Mirror::Reverse),
        kind("diag7", 7, 30, 4, Mirror::Reverse),
        kind("diag6", 6, 34, 4, Mirror::Reverse),
        kind("diag5", 5, 38, 4, Mirror::Reverse),
        kind("diag4", 4, 42, 4, Mirror::Reverse),
        extra("fish", 46),
        extra("cross", 50),
        extra("edge+C2F2", 54),
        extra("diag5+corner", 58),
    ];
    let mut packed = 0;
    let mut table = 1; // after the bias
    let mut i = 0;
    while i < N_KINDS {
        if i == N_EDAX_KINDS {
            table += 2; // the zero guards of an Edax-only table
        }
        k[i].packed_offset = packed;
        k[i].table_offset = table;
        packed += k[i].classes;
        table += pow3(k[i].len as u32);
        i += 1;
    }
    k
};

/// Weights of one stage in the packed layout: Edax's kinds, the extra kinds, the bias last.
pub const PACKED_LEN: usize = {
    let last = &KINDS[N_KINDS - 1];
    (last.packed_offset + last.classes + 1) as usize
};

/// Offset of the bias in a packed table.
pub const PACKED_BIAS: usize = PACKED_LEN - 1;

/// Weights of one stage in `eval.dat`'s packed layout: Edax's kinds and the bias (114,364).
pub const EDAX_PACKED_LEN: usize = KINDS[N_EDAX_KINDS].packed_offset as usize + 1;

/// Entries of one runtime (unpacked) table: bias, the 16 kind tables with two zero guards
/// after Edax's and two at the end, read by the gather's unused lanes.
pub const TABLE_LEN: usize = {
    let last = &KINDS[N_KINDS - 1];
    (last.table_offset + pow3(last.len as u32)) as usize + 2
};

/// Entries of a runtime table of weights without extra kinds: the bias, Edax's kinds and
/// their two zero guards (the first [`EDAX_TABLE_LEN`] entries of the full layout).
pub const EDAX_TABLE_LEN: usize = KINDS[N_EDAX_KINDS].table_offset as usize;

/// Index of the first zero guard, present in both table sizes.
pub const ZERO_GUARD: usize = EDAX_TABLE_LEN - 2;

/// Kind of each feature.
pub const FEATURE_KIND: [u8; N_FEATURES] = {
    let mut t = [0u8; N_FEATURES];
    let mut k = 0;
    while k < N_KINDS {
        let (first, count) = KINDS[k].features;
        let mut i = 0;
        while i < count {
            t[(first + i) as usize] = k as u8;
            i += 1;
        }
        k += 1;
    }
    t
};

/// Runtime-table offset each lane's value is relative to (lanes 62, 63 read the zero guards).
pub const LANE_BASE: [u32; N_LANES] = {
    let mut t = [ZERO_GUARD as u32; N_LANES];
    let mut i = 0;
    while i < N_FEATURES {
        t[i] = KINDS[FEATURE_KIND[i] as usize].table_offset;
        i += 1;
    }
    t
};

/// Coefficient (3^position) of each square in each lane: the change of a feature when the
/// square's digit changes by one. Row = square, lane = feature (Edax `eval_sse.c`, `EVAL_FEATURE`).
#[repr(C, align(32))]
#[derive(Clone, Copy, Debug)]
pub struct Coefficients(pub [[u16; N_LANES]; 64]);

/// Per-square coefficient vectors of all features.
pub static COEFFICIENTS: Coefficients = {
    let mut t = [[0u16; N_LANES]; 64];
    let mut i = 0;
    while i < N_FEATURES {
        let feat = &FEATURES[i];
        let mut j = 0;
        while j < feat.len as usize {
            t[feat.squares[j] as usize][i] = pow3(feat.len as u32 - 1 - j as u32) as u16;
            j += 1;
        }
        i += 1;
    }
    Coefficients(t)
};

/// Most features one square belongs to.
pub const MAX_SQUARE_FEATURES: usize = 12;

/// Sparse form of [`COEFFICIENTS`] for the portable update: per square, up to
/// [`MAX_SQUARE_FEATURES`] (lane, coefficient) pairs and their count (Edax's `EVAL_X2F`).
#[derive(Clone, Copy, Debug)]
pub struct SquareFeatures {
    /// Number of features containing the square.
    pub n: u8,
    /// Lane and coefficient of each.
    pub entries: [(u8, u16); MAX_SQUARE_FEATURES],
}

/// Features touched by each square (a square in more than [`MAX_SQUARE_FEATURES`] features
/// fails the build).
pub static SQUARE_FEATURES: [SquareFeatures; 64] = {
    let mut t = [SquareFeatures {
        n: 0,
        entries: [(0, 0); MAX_SQUARE_FEATURES],
    }; 64];
    let mut x = 0;
    while x < 64 {
        let mut i = 0;
        while i < N_FEATURES {
            let c = COEFFICIENTS.0[x][i];
            if c != 0 {
                let n = t[x].n as usize;
                t[x].entries[n] = (i as u8, c);
                t[x].n += 1;
            }
            i += 1;
        }
        x += 1;
    }
    t
};

/// Powers of three, 3^0 ..= 3^10.
pub const POW3: [u32; 11] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683, 59049];

/// Position (0 = most significant) that digit position `p` of a `len`-digit pattern moves to
/// under the kind's mirror.
const fn mirror_position(p: u32, len: u32, mirror: Mirror) -> u32 {
    match mirror {
        Mirror::Perm(perm) => perm[p as usize] as u32,
        Mirror::Reverse => len - 1 - p,
        Mirror::Corner9 => match p {
            1 => 2,
            2 => 1,
            4 => 5,
            5 => 4,
            6 => 7,
            7 => 6,
            _ => p,
        },
        Mirror::Angle10 => match p {
            4 | 5 => p,
            _ => 9 - p,
        },
    }
}

/// Mirror image of an index of a `len`-digit pattern (see [`Mirror`]).
pub const fn mirror_index(index: u32, len: u32, mirror: Mirror) -> u32 {
    let mut out = 0;
    let mut rest = index;
    let mut p = len;
    // walk digits from the least significant (position len - 1) upwards
    while p > 0 {
        p -= 1;
        out += (rest % 3) * POW3[(len - 1 - mirror_position(p, len, mirror)) as usize];
        rest /= 3;
    }
    out
}

/// Swaps digits 0 and 1 (own and other discs) of an index of a `len`-digit pattern: the same
/// pattern seen by the other player.
pub const fn swap_index(index: u32, len: u32) -> u32 {
    let mut out = 0;
    let mut rest = index;
    let mut p = 0;
    while p < len {
        let d = rest % 3;
        out += [1, 0, 2][d as usize] * POW3[p as usize];
        rest /= 3;
        p += 1;
    }
    out
}

/// Symmetry class of every index of a `len`-digit pattern, numbered by ascending index (an
/// index whose mirror is smaller reuses the mirror's number), as in `eval.dat`.
const fn class_table<const N: usize>(len: u32, mirror: Mirror) -> [u16; N] {
    let mut t = [0u16; N];
    let mut n = 0u16;
    let mut l = 0;
    while l < N {
        let k = mirror_index(l as u32, len, mirror) as usize;
        if k < l {
            t[l] = t[k];
        } else {
            t[l] = n;
            n += 1;
        }
        l += 1;
    }
    t
}

/// Classes of the 3x3 corner.
#[allow(long_running_const_eval)]
pub static CLASS_C9: [u16; 19683] = class_table(9, Mirror::Corner9);
/// Classes of the angle + X.
#[allow(long_running_const_eval)]
pub static CLASS_C10: [u16; 59049] = class_table(10, Mirror::Angle10);
/// Classes of the 10-square reversible patterns (edge + 2X, 2x5 block).
#[allow(long_running_const_eval)]
pub static CLASS_S10: [u16; 59049] = class_table(10, Mirror::Reverse);
/// Classes of the 8-square lines.
pub static CLASS_S8: [u16; 6561] = class_table(8, Mirror::Reverse);
/// Classes of the 7-square diagonals.
pub static CLASS_S7: [u16; 2187] = class_table(7, Mirror::Reverse);
/// Classes of the 6-square diagonals.
pub static CLASS_S6: [u16; 729] = class_table(6, Mirror::Reverse);
/// Classes of the 5-square diagonals.
pub static CLASS_S5: [u16; 243] = class_table(5, Mirror::Reverse);
/// Classes of the 4-square diagonals.
pub static CLASS_S4: [u16; 81] = class_table(4, Mirror::Reverse);
/// Classes of the fish.
#[allow(long_running_const_eval)]
pub static CLASS_FISH: [u16; 59049] = class_table(10, KINDS[12].mirror);
/// Classes of the cross.
#[allow(long_running_const_eval)]
pub static CLASS_CROSS: [u16; 59049] = class_table(10, KINDS[13].mirror);
/// Classes of the edge + C2 F2.
#[allow(long_running_const_eval)]
pub static CLASS_EDGE_C: [u16; 59049] = class_table(10, KINDS[14].mirror);
/// Classes of the 5-square diagonal + corner.
#[allow(long_running_const_eval)]
pub static CLASS_DIAG5_CORNER: [u16; 19683] = class_table(9, KINDS[15].mirror);

/// Digit-swap (own <-> other) of a 10-digit index; shorter patterns subtract a constant.
#[allow(long_running_const_eval)]
pub static SWAP10: [u16; 59049] = {
    let mut t = [0u16; 59049];
    let mut i = 0;
    while i < 59049 {
        t[i] = swap_index(i as u32, 10) as u16;
        i += 1;
    }
    t
};

/// Digit swap of an index of a `len`-digit pattern through [`SWAP10`]: the leading zero digits
/// of a short index become ones, which the subtraction removes.
#[inline]
pub fn swap_digits(index: u32, len: u32) -> u32 {
    u32::from(SWAP10[index as usize]) - (pow3(10) - pow3(len)) / 2
}

/// Symmetry-class table of a kind.
pub fn class_of_kind(kind: usize) -> &'static [u16] {
    match kind {
        0 => &CLASS_C9,
        1 => &CLASS_C10,
        2 | 3 => &CLASS_S10,
        4..=7 => &CLASS_S8,
        8 => &CLASS_S7,
        9 => &CLASS_S6,
        10 => &CLASS_S5,
        11 => &CLASS_S4,
        12 => &CLASS_FISH,
        13 => &CLASS_CROSS,
        14 => &CLASS_EDGE_C,
        _ => &CLASS_DIAG5_CORNER,
    }
}

/// The base-3 index of one feature over `squares` (first = most significant digit), digit 0
/// `own`, 1 `other`, 2 empty.
pub fn feature_index(squares: &[u8], own: u64, other: u64) -> u32 {
    squares.iter().fold(0, |v, &x| {
        let d = if own >> x & 1 != 0 {
            0
        } else if other >> x & 1 != 0 {
            1
        } else {
            2
        };
        v * 3 + d
    })
}

/// Computes the 62 features of a position from scratch, digit 0 = `own`, 1 = `other`.
/// The simple reference for the incremental update; also used by training.
pub fn compute(own: u64, other: u64) -> [u16; N_FEATURES] {
    let mut out = [0u16; N_FEATURES];
    for (o, feat) in out.iter_mut().zip(&FEATURES) {
        *o = feature_index(&feat.squares[..feat.len as usize], own, other) as u16;
    }
    out
}

/// Packed-table position (kind offset + class) of each of the 62 features, digit 0 = mover.
pub fn packed_indices(features: &[u16; N_FEATURES]) -> [u32; N_FEATURES] {
    let mut out = [0u32; N_FEATURES];
    for (i, &f) in features.iter().enumerate() {
        let k = FEATURE_KIND[i] as usize;
        out[i] = KINDS[k].packed_offset + u32::from(class_of_kind(k)[f as usize]);
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn class_counts_match_eval_dat() {
        let expected = [
            10206, 29889, 29646, 29646, 3321, 3321, 3321, 3321, 1134, 378, 135, 45, 30618, 30618,
            29646, 10206,
        ];
        for (k, &e) in KINDS.iter().zip(expected.iter()) {
            assert_eq!(k.classes, e, "{}", k.name);
            let table = class_of_kind(KINDS.iter().position(|x| x.name == k.name).unwrap());
            let max = *table.iter().max().unwrap() as u32;
            assert_eq!(max + 1, e, "{} table", k.name);
        }
        assert_eq!(EDAX_PACKED_LEN, 114_364);
        assert_eq!(EDAX_TABLE_LEN, 226_315 + 2);
        assert_eq!(PACKED_LEN, 114_364 + 2 * 30618 + 29646 + 10206);
        assert_eq!(TABLE_LEN, EDAX_TABLE_LEN + 3 * 59049 + 19683 + 2);
    }

    /// The 8 board symmetries as square maps.
    pub(crate) fn symmetries() -> [fn(u8) -> u8; 8] {
        [
            |x| x,
            |x| (x / 8) * 8 + 7 - x % 8,
            |x| (7 - x / 8) * 8 + x % 8,
            |x| 63 - x,
            |x| (x % 8) * 8 + x / 8,
            |x| (7 - x % 8) * 8 + 7 - x / 8,
            |x| (x % 8) * 8 + 7 - x / 8,
            |x| (7 - x % 8) * 8 + x / 8,
        ]
    }

    #[test]
    fn mirror_is_a_board_symmetry() {
        // Each kind's digit mirror must be a board symmetry that maps the first feature of the
        // kind onto itself, square by square.
        for (ki, k) in KINDS.iter().enumerate() {
            let feat = &FEATURES[k.features.0 as usize];
            let sq = &feat.squares[..feat.len as usize];
            let n = feat.len as u32;
            let target: Vec<u8> = (0..n)
                .map(|p| {
                    let q = mirror_index(pow3(n - 1 - p), n, k.mirror);
                    let e = (0..n).find(|&e| pow3(e) == q).unwrap();
                    sq[(n - 1 - e) as usize]
                })
                .collect();
            let found = symmetries()[1..]
                .iter()
                .any(|s| sq.iter().zip(&target).all(|(&a, &b)| s(a) == b));
            assert!(found, "kind {ki} mirror is not a board symmetry");
        }
    }

    #[test]
    fn every_feature_is_an_image_of_its_kind_leader() {
        // Features of one kind are symmetric images of each other, digit by digit.
        for k in KINDS.iter() {
            let lead = &FEATURES[k.features.0 as usize];
            for i in k.features.0..k.features.0 + k.features.1 {
                let feat = &FEATURES[i as usize];
                assert_eq!(feat.len, lead.len);
                let ok = symmetries()
                    .iter()
                    .any(|s| (0..lead.len as usize).all(|j| s(lead.squares[j]) == feat.squares[j]));
                assert!(
                    ok,
                    "feature {i} is not an image of its kind's first feature"
                );
            }
        }
    }

    #[test]
    fn swap_through_table_matches_direct() {
        for len in 4..=10 {
            for i in (0..pow3(len)).step_by(7) {
                assert_eq!(swap_digits(i, len), swap_index(i, len));
            }
        }
    }
}
