//! Material signatures: which pieces a table holds, parsed from file names like `KRvKP`.
//!
//! Pieces are nibble codes as in the table headers: role 1 = pawn .. 6 = king, plus 8 for black.
//! A material key packs the count of each of the 16 codes into 4 bits, so swapping colours is a
//! 32-bit rotation.

use crate::encoding::MAX_PIECES;

/// Nibble code of a pawn (white); black pieces add [`BLACK`].
pub(crate) const PAWN: u8 = 1;
/// Nibble code of a king (white).
pub(crate) const KING: u8 = 6;
/// Colour bit of a nibble code.
pub(crate) const BLACK: u8 = 8;

const LETTERS: [u8; 7] = *b"?PNBRQK";

#[cfg(test)]
/// Material key of a multiset of piece codes: count of code `c` in bits `4c..4c+4`.
#[inline]
pub(crate) fn key_of(codes: &[u8]) -> u64 {
    codes
        .iter()
        .fold(0u64, |k, &c| k.wrapping_add(1u64 << (4 * (c & 15))))
}

/// The key with white and black exchanged.
#[inline]
pub(crate) const fn flip_key(key: u64) -> u64 {
    key.rotate_left(32)
}

/// The pieces of one table, white being the side named first in the file name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Material {
    /// Count of each nibble code.
    pub(crate) counts: [u8; 16],
}

impl Material {
    /// Parse a table name such as `KQvKR` (both sides need exactly one king, at most 7 pieces).
    pub(crate) fn from_name(name: &str) -> Option<Material> {
        let (white, black) = name.split_once('v')?;
        let mut counts = [0u8; 16];
        for (side, colour) in [(white, 0u8), (black, BLACK)] {
            for ch in side.bytes() {
                let role = LETTERS.iter().position(|&l| l == ch).filter(|&r| r > 0)? as u8;
                counts[usize::from(role | colour)] += 1;
            }
        }
        let material = Material { counts };
        let total = material.piece_count();
        (counts[usize::from(KING)] == 1
            && counts[usize::from(KING | BLACK)] == 1
            && total <= MAX_PIECES)
            .then_some(material)
    }

    /// The material key (see [`key_of`]).
    pub(crate) fn key(&self) -> u64 {
        (0..16).fold(0u64, |k, c| k + (u64::from(self.counts[c]) << (4 * c)))
    }

    /// Number of pieces including kings.
    pub(crate) fn piece_count(&self) -> usize {
        self.counts.iter().map(|&c| usize::from(c)).sum()
    }

    /// Whether either side has a pawn.
    pub(crate) fn has_pawns(&self) -> bool {
        self.counts[usize::from(PAWN)] + self.counts[usize::from(PAWN | BLACK)] > 0
    }

    /// Whether some non-king piece occurs exactly once: then the "111" leading-group encoding is used,
    /// otherwise the "K2" king-pair encoding (de Man, "Question to syzygy author").
    pub(crate) fn has_unique_pieces(&self) -> bool {
        (1..KING)
            .any(|r| self.counts[usize::from(r)] == 1 || self.counts[usize::from(r | BLACK)] == 1)
    }

    /// Whether both sides have the same pieces (then only one orientation is stored).
    pub(crate) fn is_symmetric(&self) -> bool {
        self.counts[..8] == self.counts[8..]
    }

    /// Name such as `KRvKP`, pieces in the conventional order K Q R B N P.
    pub(crate) fn name(&self) -> String {
        let mut s = String::new();
        for colour in [0u8, BLACK] {
            if colour == BLACK {
                s.push('v');
            }
            for role in (1..=KING).rev() {
                for _ in 0..self.counts[usize::from(role | colour)] {
                    s.push(char::from(LETTERS[usize::from(role)]));
                }
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_keys() {
        let m = Material::from_name("KRvKP").unwrap();
        assert_eq!(m.piece_count(), 4);
        assert!(m.has_pawns());
        assert!(m.has_unique_pieces());
        assert!(!m.is_symmetric());
        assert_eq!(m.name(), "KRvKP");
        assert_eq!(m.key(), key_of(&[6, 4, 14, 9]));
        assert_eq!(
            flip_key(m.key()),
            Material::from_name("KPvKR").unwrap().key()
        );
        assert!(!Material::from_name("KRRvK").unwrap().has_unique_pieces());
        assert!(Material::from_name("KNvKN").unwrap().is_symmetric());
        assert!(Material::from_name("KRvR").is_none());
        assert!(Material::from_name("KXvK").is_none());
        assert!(Material::from_name("KQQQQQQvK").is_none());
    }
}
