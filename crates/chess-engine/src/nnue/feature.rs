//! The input side of the network: which of the 768 inputs a piece switches on for each
//! perspective, and which output bucket a position uses.

use ply_chess::{Color, Role, Square};

/// Inputs per perspective: 2 colours x 6 piece types x 64 squares.
pub const FEATURES: usize = 768;

/// The input a `color` `role` on `sq` switches on in `perspective`'s accumulator: own pieces
/// first (384 * [not own]), then 64 per piece type, then the square, mirrored top to bottom
/// (`sq ^ 56`) for Black so that each side sees the board from its own back rank.
#[inline(always)]
pub fn feature_index(perspective: Color, color: Color, role: Role, sq: Square) -> usize {
    let side = usize::from(color != perspective);
    let square = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    384 * side + 64 * role.index() + square
}

/// The output bucket of a position with `pieces` pieces (kings included) for a network of
/// `buckets` buckets: `min((pieces - 2) / (32 / buckets), buckets - 1)`. `buckets` must be 1,
/// 2, 4 or 8 (what [`crate::Network::from_bytes`] accepts); fewer than two pieces count as two.
#[inline(always)]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let per_bucket = (32 / buckets.max(1)).max(1);
    (pieces.saturating_sub(2) as usize / per_bucket).min(buckets.max(1) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_follow_the_contract() {
        // White's own pawn on a2 (8) and Black's pawn on a7 seen by Black: the same input.
        assert_eq!(
            feature_index(Color::White, Color::White, Role::Pawn, Square::A2),
            8
        );
        assert_eq!(
            feature_index(Color::Black, Color::Black, Role::Pawn, Square::A7),
            8
        );
        // The opponent's king on h8 for White: 384 + 5 * 64 + 63.
        assert_eq!(
            feature_index(Color::White, Color::Black, Role::King, Square::H8),
            767
        );
        assert_eq!(
            feature_index(Color::Black, Color::White, Role::King, Square::H8),
            384 + 320 + 7
        );
    }

    #[test]
    fn buckets_by_piece_count() {
        assert_eq!(output_bucket(32, 8), 7);
        assert_eq!(output_bucket(2, 8), 0);
        assert_eq!(output_bucket(5, 8), 0);
        assert_eq!(output_bucket(6, 8), 1);
        assert_eq!(output_bucket(33, 8), 7);
        assert_eq!(output_bucket(32, 1), 0);
        assert_eq!(output_bucket(17, 2), 0);
        assert_eq!(output_bucket(18, 2), 1);
        assert_eq!(output_bucket(0, 4), 0);
    }
}
