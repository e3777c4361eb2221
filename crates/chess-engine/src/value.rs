//! Search score conventions: centipawns from the side to move, mate scores counted in plies from
//! the root, and a "known win" band for recognised endgames (Heinz's DarkThought recognizers) below
//! the mate range.

/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// Score of delivering mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Deepest search path (plies) the engine tracks.
pub const MAX_PLY: usize = 128;
/// Scores at least this large (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Tablebase win (converted by distance from the root like mates, but below them).
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at least this large are tablebase wins or mates.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// Base of the band used by recognizers for won endgames (KPK won, KQK, KBNK ...).
pub const KNOWN_WIN: i32 = 10_000;

/// Whether `v` is a mate score (for either side).
#[inline]
pub const fn is_mate(v: i32) -> bool {
    v.abs() >= MATE_BOUND
}

/// Full moves to mate of a mate score, as protocols print it: positive when the side to move
/// mates (`MATE - 1` and `MATE - 2` are both "mate in 1"), negative when it is mated
/// (`-MATE` and `-(MATE - 2)` are "mated in 0" and "mated in 1"); `None` for other scores.
pub const fn mate_in(v: i32) -> Option<i32> {
    if !is_mate(v) {
        None
    } else if v > 0 {
        Some((MATE - v + 1) / 2)
    } else {
        Some(-(MATE + v) / 2)
    }
}

/// Converts a score for storage in the transposition table: mate and tablebase scores become
/// relative to the node (`ply` plies from the root) instead of the root.
#[inline]
pub const fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= TB_WIN_BOUND {
        v + ply as i32
    } else if v <= -TB_WIN_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// Inverse of [`to_tt`].
#[inline]
pub const fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= TB_WIN_BOUND {
        v - ply as i32
    } else if v <= -TB_WIN_BOUND {
        v + ply as i32
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_in_counts_full_moves() {
        assert_eq!(mate_in(35), None);
        assert_eq!(mate_in(KNOWN_WIN), None);
        assert_eq!(mate_in(MATE - 1), Some(1));
        assert_eq!(mate_in(MATE - 3), Some(2));
        assert_eq!(mate_in(-(MATE - 2)), Some(-1));
        assert_eq!(mate_in(-(MATE - 4)), Some(-2));
    }

    #[test]
    fn tt_conversion_round_trips() {
        for v in [
            0,
            5,
            -7,
            KNOWN_WIN,
            MATE - 3,
            -(MATE - 9),
            TB_WIN - 4,
            -(TB_WIN - 2),
        ] {
            for ply in [0, 1, 17, 60] {
                assert_eq!(from_tt(to_tt(v, ply), ply), v);
            }
        }
        assert!(is_mate(MATE - 1) && is_mate(-(MATE - 100)) && !is_mate(KNOWN_WIN));
        assert_eq!(to_tt(MATE - 10, 4), MATE - 6);
    }
}
