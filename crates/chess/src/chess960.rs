//! Chess960 start positions from their numbers, 0 to 959, in the usual (Scharnagl) numbering.
//!
//! A number `n` is read as mixed-radix digits that place the pieces on the empty first rank in
//! turn: `n % 4` picks the light-squared bishop's file (b, d, f, h), the next base-4 digit the
//! dark-squared bishop's (a, c, e, g), the next base-6 digit the queen's among the six squares
//! left, and what remains (0 to 9) one of the ten ways to put two knights on the five squares
//! left. The last three squares take rook, king, rook from left to right, so the king always
//! stands between its rooks. Number 518 is the usual start, `RNBQKBNR`.

use thiserror::Error;

/// How many start positions there are.
pub const COUNT: u16 = 960;

/// The number of the usual start position.
pub const STANDARD: u16 = 518;

/// A start position number outside `0..960`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("no Chess960 start position number {0} (they run from 0 to 959)")]
pub struct BadNumber(pub u64);

/// The knight placements of the last digit: the two of the five free squares (counted from the
/// left) that take the knights.
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// Puts `piece` on the `k`-th empty square (from the left) of `rank`.
fn put_on_free(rank: &mut [Option<char>; 8], k: usize, piece: char) {
    if let Some(slot) = rank.iter_mut().filter(|s| s.is_none()).nth(k) {
        *slot = Some(piece);
    }
}

/// White's first rank of start position `n`, file a first (`"RNBQKBNR"` for 518).
///
/// # Errors
/// [`BadNumber`] when `n` is 960 or more.
pub fn back_rank(n: u64) -> Result<String, BadNumber> {
    if n >= u64::from(COUNT) {
        return Err(BadNumber(n));
    }
    let n = n as usize;
    let mut rank: [Option<char>; 8] = [None; 8];
    rank[2 * (n % 4) + 1] = Some('B');
    let n = n / 4;
    rank[2 * (n % 4)] = Some('B');
    let n = n / 4;
    put_on_free(&mut rank, n % 6, 'Q');
    let (first, second) = KNIGHTS[n / 6];
    // the second knight's square counts the free squares before the first knight is placed
    put_on_free(&mut rank, second, 'N');
    put_on_free(&mut rank, first, 'N');
    for piece in ['R', 'K', 'R'] {
        put_on_free(&mut rank, 0, piece);
    }
    Ok(rank.iter().map(|s| s.unwrap_or('?')).collect())
}

/// The FEN of start position `n`: both sides' pieces mirrored, pawns in front, White to move,
/// all four castling rights (`KQkq`: each side's outer rooks, which are its only rooks).
///
/// # Errors
/// [`BadNumber`] when `n` is 960 or more.
pub fn start_fen(n: u64) -> Result<String, BadNumber> {
    let white = back_rank(n)?;
    let black = white.to_ascii_lowercase();
    Ok(format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_numbers() {
        for (n, rank) in [
            (0, "BBQNNRKR"),
            (1, "BQNBNRKR"),
            (2, "BQNNRBKR"),
            (518, "RNBQKBNR"),
            (959, "RKRNNQBB"),
        ] {
            assert_eq!(back_rank(n).unwrap(), rank, "{n}");
        }
        assert_eq!(start_fen(u64::from(STANDARD)).unwrap(), crate::STARTPOS);
        assert_eq!(back_rank(960), Err(BadNumber(960)));
        assert!(back_rank(u64::MAX).is_err());
    }

    #[test]
    fn all_960_are_different_legal_starts() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..u64::from(COUNT) {
            let rank = back_rank(n).unwrap();
            let files = |c: char| -> Vec<usize> {
                rank.char_indices()
                    .filter(|&(_, p)| p == c)
                    .map(|(i, _)| i)
                    .collect()
            };
            let (b, r, k) = (files('B'), files('R'), files('K'));
            assert_eq!(b.len(), 2);
            assert_ne!(b[0] % 2, b[1] % 2, "{n} {rank}: bishops on one colour");
            assert!(r[0] < k[0] && k[0] < r[1], "{n} {rank}");
            assert_eq!(files('Q').len(), 1);
            assert_eq!(files('N').len(), 2);
            assert!(seen.insert(rank.clone()), "{n} {rank} twice");
            let pos = crate::Position::from_fen(&start_fen(n).unwrap()).unwrap();
            assert!(pos.legal_moves().len() >= 18, "{n}");
            let standard_castling = rank.starts_with('R') && rank.ends_with('R') && k[0] == 4;
            assert_eq!(pos.is_chess960(), !standard_castling, "{n} {rank}");
        }
    }
}
