//! Zobrist keys (A. Zobrist, "A New Hashing Method with Application for Game Playing", 1970),
//! produced at compile time by a SplitMix64 stream.

/// SplitMix64 step (Steele, Lea, Flood 2014): returns the next state and its output.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// All keys: 12 × 64 piece-square keys, 64 castling-rook keys, 8 en passant file keys, 1 side key.
pub(crate) struct Keys {
    pub(crate) piece: [[u64; 64]; 12],
    pub(crate) castling: [u64; 64],
    pub(crate) ep_file: [u64; 8],
    pub(crate) black_to_move: u64,
}

const fn make_keys() -> Keys {
    let mut k = Keys {
        piece: [[0; 64]; 12],
        castling: [0; 64],
        ep_file: [0; 8],
        black_to_move: 0,
    };
    let mut state = 0x0123_4567_89ab_cdef_u64;
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            let (s, v) = splitmix(state);
            state = s;
            k.piece[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        let (s, v) = splitmix(state);
        state = s;
        k.castling[sq] = v;
        sq += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (s, v) = splitmix(state);
        state = s;
        k.ep_file[f] = v;
        f += 1;
    }
    k.black_to_move = splitmix(state).1;
    k
}

/// The key tables.
pub(crate) static KEYS: Keys = make_keys();
