//! King and pawn against king: an exact win/draw bitbase.
//!
//! `build.rs` classifies all 196,608 placements (two sides to move × 24 pawn squares on files a-d
//! × 64 × 64 king squares) by retrograde analysis and embeds one bit per position here; probing is
//! a mirror, an index computation and one bit test. The recognizer for KPK uses it, and a test
//! compares it with the Syzygy KPvK table position by position.

/// One bit per position, set when the side with the pawn wins (see `build.rs` for the layout).
static BITS: &[u8; 2 * PER_SIDE / 8] = include_bytes!(concat!(env!("OUT_DIR"), "/kpk.bin"));

/// Positions per side to move: 24 pawn slots × 64 × 64 king squares.
const PER_SIDE: usize = 24 * 64 * 64;

/// Whether the side with the pawn wins with best play, ignoring the 50-move rule.
///
/// Squares are 0 = a1 .. 63 = h8, seen from the side with the pawn: its pawn moves up the board
/// (callers with a black pawn flip ranks with `sq ^ 56` first). `strong_to_move` says whether the
/// side with the pawn is to move. The pawn must stand on ranks 2-7 and the three squares must be
/// distinct; other inputs return `false`.
pub fn is_win(strong_king: usize, pawn: usize, weak_king: usize, strong_to_move: bool) -> bool {
    if strong_king > 63 || weak_king > 63 || !(8..56).contains(&pawn) {
        return false;
    }
    // Files e-h mirror onto d-a.
    let mirror = if pawn % 8 > 3 { 7 } else { 0 };
    let (wk, p, bk) = (strong_king ^ mirror, pawn ^ mirror, weak_king ^ mirror);
    let slot = (p / 8 - 1) * 4 + p % 8;
    let i = usize::from(!strong_to_move) * PER_SIDE + slot * 4096 + wk * 64 + bk;
    BITS[i / 8] >> (i % 8) & 1 != 0
}

#[cfg(test)]
mod tests {
    use super::is_win;

    /// Parses a square name such as "e4".
    fn sq(name: &str) -> usize {
        let b = name.as_bytes();
        usize::from(b[1] - b'1') * 8 + usize::from(b[0] - b'a')
    }

    #[test]
    fn textbook_positions() {
        // King on the sixth in front of a centre pawn wins whoever moves.
        assert!(is_win(sq("d6"), sq("d5"), sq("d8"), true));
        assert!(is_win(sq("d6"), sq("d5"), sq("d8"), false));
        // The defender in the corner in front of a rook pawn draws.
        assert!(!is_win(sq("b5"), sq("a5"), sq("a8"), true));
        assert!(!is_win(sq("b5"), sq("a5"), sq("a8"), false));
        // A pawn on the seventh far from the defending king queens.
        assert!(is_win(sq("h8"), sq("a7"), sq("h1"), true));
        // The defender takes an undefended pawn.
        assert!(!is_win(sq("h1"), sq("e4"), sq("e5"), false));
        // Opposition decides when the king stands just in front of its pawn on the fifth: whoever
        // must move gives it up (the pawn has no spare tempo, its square is taken by its own king).
        assert!(!is_win(sq("e5"), sq("e4"), sq("e7"), true));
        assert!(is_win(sq("e5"), sq("e4"), sq("e7"), false));
        // With a spare pawn tempo the stronger side wins whoever moves.
        assert!(is_win(sq("e5"), sq("e3"), sq("e7"), true));
        assert!(is_win(sq("e5"), sq("e3"), sq("e7"), false));
    }

    #[test]
    fn mirror_symmetry() {
        for wk in 0..64 {
            for p in 8..56 {
                for bk in [0usize, 9, 27, 36, 63] {
                    for stm in [true, false] {
                        assert_eq!(is_win(wk, p, bk, stm), is_win(wk ^ 7, p ^ 7, bk ^ 7, stm));
                    }
                }
            }
        }
    }

    #[test]
    fn out_of_range_is_not_a_win() {
        assert!(!is_win(64, 12, 40, true));
        assert!(!is_win(4, 60, 40, true));
        assert!(!is_win(4, 3, 40, true));
    }
}
