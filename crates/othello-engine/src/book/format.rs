//! ply's own book file, version 1 (all integers little-endian):
//!
//! | bytes | field |
//! |------:|-------|
//! | 8 | magic `PLYOBOOK` |
//! | 4 | u32 format version (1) |
//! | 1 | u8 the book's level (new positions are searched at it) |
//! | 3 | zero |
//! | 8 | u64 number of records |
//! | 20 × n | records, in strictly increasing `(player, opponent)` order |
//! | 8 | u64 FNV-1a 64 checksum of every byte before it |
//!
//! A record: u64 player (the mover's discs), u64 opponent, i8 value (−64..=64), u8 level
//! (0..=60), u8 leaf move (0..=63, A1 = 0 … H8 = 63, or 64 when there is none), i8 leaf score
//! (−64..=64, 0 without a leaf). The board is its canonical form (the smallest of its eight
//! images), the mover has a legal move, and the leaf is one of them.
//!
//! Reading checks every rule and answers a [`BookError`] for the first one broken.

use super::{Book, BookError, Entry, MAX_VALUE};
use ply_othello::{Board, Square};

/// The first eight bytes of a ply book file.
pub const MAGIC: &[u8; 8] = b"PLYOBOOK";
/// The format version written and read.
pub const VERSION: u32 = 1;
/// Bytes before the first record.
const HEADER: usize = 24;
/// Bytes of a record.
const RECORD: usize = 20;
/// Bytes of the trailing checksum.
const CHECKSUM: usize = 8;

/// FNV-1a 64 of `bytes`.
pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Little-endian reads from a slice whose length the caller has checked.
pub(super) fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

pub(super) fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

/// Checks a stored canonical board: disjoint, canonical, the mover can move.
pub(super) fn check_board(p: u64, o: u64) -> Result<Board, String> {
    let board = Board::new(p, o).map_err(|e| e.to_string())?;
    let (c, _) = board.canonical();
    if (c.player(), c.opponent()) != (p, o) {
        return Err("the board is not in its canonical (smallest) form".into());
    }
    if board.moves() == 0 {
        return Err("the side to move has no legal move".into());
    }
    Ok(board)
}

pub(super) fn check_value(v: i8, what: &str) -> Result<i8, String> {
    if i32::from(v).abs() > MAX_VALUE {
        Err(format!("{what} {v} is outside -64..=64"))
    } else {
        Ok(v)
    }
}

impl Book {
    /// The book in ply's own file format (see the `format` notes in the crate's source and
    /// the book documentation): deterministic, the same book gives the same bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let positions = self.positions();
        let mut out = Vec::with_capacity(HEADER + RECORD * positions.len() + CHECKSUM);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&[self.level, 0, 0, 0]);
        out.extend_from_slice(&(positions.len() as u64).to_le_bytes());
        for (board, e) in positions {
            out.extend_from_slice(&board.player().to_le_bytes());
            out.extend_from_slice(&board.opponent().to_le_bytes());
            let (leaf, leaf_score) = e.leaf.map_or((64, 0), |(sq, v)| (sq.code(), v));
            out.extend_from_slice(&[e.value as u8, e.level, leaf, leaf_score as u8]);
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a book written by [`Book::to_bytes`]; every broken rule is an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(BookError::Magic("ply"));
        }
        if bytes.len() < HEADER + CHECKSUM {
            return Err(BookError::Truncated("the header"));
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(BookError::Version {
                found: version,
                supported: VERSION,
            });
        }
        let level = bytes[12];
        if level > 60 || bytes[13..16] != [0, 0, 0] {
            return Err(BookError::Record {
                index: 0,
                reason: format!("bad header: level {level} (0..=60) or reserved bytes not zero"),
            });
        }
        let count = u64_at(bytes, 16);
        let expected = usize::try_from(count)
            .ok()
            .and_then(|n| n.checked_mul(RECORD))
            .and_then(|n| n.checked_add(HEADER + CHECKSUM));
        match expected {
            Some(len) if len == bytes.len() => {}
            Some(len) if len > bytes.len() => return Err(BookError::Truncated("the records")),
            _ => {
                return Err(BookError::Record {
                    index: 0,
                    reason: format!(
                        "the header counts {count} records but the file holds {} bytes",
                        bytes.len()
                    ),
                })
            }
        }
        let body = bytes.len() - CHECKSUM;
        let stored = u64_at(bytes, body);
        let computed = fnv1a(&bytes[..body]);
        if stored != computed {
            return Err(BookError::Checksum { stored, computed });
        }
        let mut book = Book::new(level);
        let mut last: Option<(u64, u64)> = None;
        for (index, r) in bytes[HEADER..body].chunks_exact(RECORD).enumerate() {
            let bad = |reason: String| BookError::Record { index, reason };
            let (p, o) = (u64_at(r, 0), u64_at(r, 8));
            if last.is_some_and(|l| l >= (p, o)) {
                return Err(bad("records are not in strictly increasing order".into()));
            }
            last = Some((p, o));
            let board = check_board(p, o).map_err(bad)?;
            let value = check_value(r[16] as i8, "value").map_err(bad)?;
            let level = r[17];
            if level > 60 {
                return Err(bad(format!("level {level} is above 60")));
            }
            let leaf = match r[18] {
                64 if r[19] == 0 => None,
                64 => return Err(bad("a leaf score without a leaf move".into())),
                code => {
                    let sq = Square::from_code(code)
                        .filter(|sq| board.moves() & sq.bit() != 0)
                        .ok_or_else(|| bad(format!("leaf move {code} is not a legal move")))?;
                    Some((sq, check_value(r[19] as i8, "leaf score").map_err(bad)?))
                }
            };
            book.entries.insert((p, o), Entry { value, level, leaf });
        }
        Ok(book)
    }
}
