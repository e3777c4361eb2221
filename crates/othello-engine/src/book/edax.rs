//! Edax's `book.dat` (Edax 4.x, book version 4), read and written from the layout alone; every
//! integer is little-endian and fields follow each other without padding.
//!
//! | bytes | header field |
//! |------:|--------------|
//! | 4 | u32 `0x45444158` (`XADE` on disk) |
//! | 4 | u32 `0x424f4f4b` (`KOOB` on disk) |
//! | 1 | u8 version, 4 |
//! | 1 | u8 release (ignored) |
//! | 8 | date: i16 year, u8 month, day, hour, minute, second, one padding byte |
//! | 20 | i32 level, n_empties, midgame error, endcut error, verbosity |
//! | 4 | i32 number of records (only a size hint: records run to the end of the file) |
//!
//! A record (40 + 2 × (n_link + 1) bytes): u64 player (the mover's discs), u64 opponent,
//! u32 wins, draws, losses, lines, i16 value, lower, upper, u8 n_link, u8 level, then n_link
//! links {i8 score, u8 move} (a move whose position is in the book, scored minus its value)
//! and the leaf {i8 score, u8 move} ({−127, 65} when there is none). Squares: A1 = 0 …
//! H8 = 63, the pass 64. Boards are stored in their canonical form, as ply keeps them.
//!
//! **Writing** ([`Book::to_edax`]) is deterministic: a fixed date (2026-01-01 00:00:00),
//! release 0, the book's level, `n_empties` one more than the fewest empty squares of any
//! record written (61 for an empty book) as in a book Edax built (`book new L D` sets
//! 61 − D and then adds positions down to D plies, 60 − D empties: Edax reports the depth
//! 61 − n_empties, the plies of the deepest position, and its `deviate` does not grow the book
//! deeper), Edax's default errors 2 and 1, verbosity 0, the record count, then the records in
//! increasing `(player, opponent)` order. Game counts are 0, the bounds equal the value, the
//! links are the position's linked [`Book::moves`], and the leaf is dropped when its move is
//! linked (Edax keeps no leaf on a linked move). A position whose mover must pass is not in a
//! ply book, but Edax walks links through it: each one some book position leads to is written
//! as a record of its own, valued minus the position after the pass, with a single pass link
//! and no leaf.
//!
//! **Reading** ([`Book::from_edax`]) checks the magic and the version, then reads records until
//! the end of the data; a record cut short is [`BookError::Truncated`], discs on both sides, a
//! value outside −64..=64 or more links than legal moves a [`BookError::Record`]. Pass
//! positions (and finished games) are skipped, boards not in canonical form are
//! canonicalised, a leaf is kept only when its move is legal and its score within −64..=64,
//! levels are clamped to 60 and of two records of one position the higher level wins (the
//! first on a tie). Links, game counts and bounds are not kept: ply finds links by probing.

use super::format::{check_value, u32_at, u64_at};
use super::{canonical, map_square, Book, BookError, Entry};
use ply_othello::{Board, Square};
use std::collections::BTreeMap;
use std::collections::HashMap;

/// `XADE` read as a little-endian u32.
const EDAX: u32 = 0x4544_4158;
/// `KOOB` read as a little-endian u32.
const BOOK: u32 = 0x424f_4f4b;
/// The book format version Edax writes and reads.
const VERSION: u8 = 4;
/// Bytes of the header.
const HEADER: usize = 42;
/// Bytes of a record before its links.
const RECORD: usize = 40;
/// Edax's move code for "no move" (an empty leaf).
const NOMOVE: u8 = 65;
/// Edax's score for "unknown" (an empty leaf scores minus it).
const SCORE_INF: i8 = 127;

/// One record to write: value, level, links (score, move) and leaf.
struct Record {
    value: i8,
    level: u8,
    links: Vec<(i8, u8)>,
    leaf: Option<(Square, i8)>,
}

fn push_i32(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_le_bytes());
}

impl Book {
    /// The book as Edax's `book.dat` (see the `edax` notes in the crate's source for every
    /// field written): deterministic, the same book gives the same bytes. Edax loads it with
    /// `book load FILE`.
    pub fn to_edax(&self) -> Vec<u8> {
        let mut records: BTreeMap<(u64, u64), Record> = BTreeMap::new();
        for (board, entry) in self.positions() {
            let moves = self.moves(&board);
            // A leaf whose move has since come to lead into the book (a book read from Edax
            // between its expansion and its next `link`) is written as Edax had it: the leaf,
            // and no link on its move; Edax's own `book fix` relinks it.
            let leaf_square = entry.leaf.map(|(sq, _)| sq);
            let links: Vec<(i8, u8)> = moves
                .iter()
                .filter(|m| m.linked && Some(m.square) != leaf_square)
                .map(|m| (m.score.clamp(-64, 64) as i8, m.square.code()))
                .collect();
            // the positions after a move whose mover must pass, when the book holds the
            // position after the pass: Edax links through a record of their own
            for sq in Square::iter(board.moves()) {
                let child = board.next(sq.index(), board.flips(sq.index()));
                if child.moves() != 0 || child.is_game_over() {
                    continue;
                }
                let Some(after) = self.get(&child.passed()) else {
                    continue;
                };
                let (key, _) = canonical(&child);
                records.entry(key).or_insert(Record {
                    value: after.value.saturating_neg(),
                    level: after.level,
                    links: vec![(after.value.saturating_neg(), Square::PASS.code())],
                    leaf: None,
                });
            }
            records.insert(
                (board.player(), board.opponent()),
                Record {
                    value: entry.value,
                    level: entry.level,
                    links,
                    leaf: entry.leaf,
                },
            );
        }
        // Edax's book depth is 61 - n_empties: the plies of the deepest position
        let n_empties = records
            .keys()
            .map(|&(p, o)| 64 - (p | o).count_ones())
            .min()
            .map_or(61, |e| e + 1);
        let size: usize = records
            .values()
            .map(|r| RECORD + 2 * (r.links.len() + 1))
            .sum();
        let mut out = Vec::with_capacity(HEADER + size);
        out.extend_from_slice(&EDAX.to_le_bytes());
        out.extend_from_slice(&BOOK.to_le_bytes());
        out.extend_from_slice(&[VERSION, 0]);
        out.extend_from_slice(&2026i16.to_le_bytes());
        out.extend_from_slice(&[1, 1, 0, 0, 0, 0]);
        push_i32(&mut out, i32::from(self.level));
        push_i32(&mut out, n_empties as i32);
        push_i32(&mut out, 2);
        push_i32(&mut out, 1);
        push_i32(&mut out, 0);
        push_i32(&mut out, i32::try_from(records.len()).unwrap_or(i32::MAX));
        for (&(p, o), r) in &records {
            out.extend_from_slice(&p.to_le_bytes());
            out.extend_from_slice(&o.to_le_bytes());
            out.extend_from_slice(&[0; 16]);
            for _ in 0..3 {
                out.extend_from_slice(&i16::from(r.value).to_le_bytes());
            }
            // at most 33 legal moves: the count fits a byte
            out.extend_from_slice(&[r.links.len() as u8, r.level]);
            for &(score, mv) in &r.links {
                out.extend_from_slice(&[score as u8, mv]);
            }
            let (score, mv) = r
                .leaf
                .map_or((-SCORE_INF, NOMOVE), |(sq, s)| (s, sq.code()));
            out.extend_from_slice(&[score as u8, mv]);
        }
        out
    }

    /// Reads Edax's `book.dat` (see the `edax` notes in the crate's source for what is kept
    /// and what is checked); every malformed byte is an error, never a panic.
    pub fn from_edax(bytes: &[u8]) -> Result<Book, BookError> {
        match bytes.get(..8) {
            Some(magic) if u32_at(magic, 0) == EDAX && u32_at(magic, 4) == BOOK => {}
            _ => return Err(BookError::Magic("Edax")),
        }
        let version = *bytes.get(8).ok_or(BookError::Truncated("the header"))?;
        if version != VERSION {
            return Err(BookError::Version {
                found: u32::from(version),
                supported: u32::from(VERSION),
            });
        }
        let header = bytes
            .get(..HEADER)
            .ok_or(BookError::Truncated("the header"))?;
        let level = u32_at(header, 18) as i32;
        let hint = u32_at(header, 38) as i32;
        let mut book = Book::new(level.clamp(0, 60) as u8);
        // the count is a hint from the file: never reserve much on its word
        book.entries = HashMap::with_capacity(hint.clamp(0, 1 << 16) as usize);
        let mut at = HEADER;
        let mut index = 0;
        while at < bytes.len() {
            let fixed = bytes
                .get(at..at + RECORD)
                .ok_or(BookError::Truncated("a record"))?;
            let n_link = usize::from(fixed[38]);
            let len = RECORD + 2 * (n_link + 1);
            let record = bytes
                .get(at..at + len)
                .ok_or(BookError::Truncated("a record"))?;
            read_record(&mut book, record, index)?;
            at += len;
            index += 1;
        }
        Ok(book)
    }
}

/// Reads one whole record (its length checked) into `book`.
fn read_record(book: &mut Book, r: &[u8], index: usize) -> Result<(), BookError> {
    let bad = |reason: String| BookError::Record { index, reason };
    let board = Board::new(u64_at(r, 0), u64_at(r, 8)).map_err(|e| bad(e.to_string()))?;
    let value = i16::from_le_bytes([r[32], r[33]]);
    let value = i8::try_from(value)
        .ok()
        .and_then(|v| check_value(v, "value").ok())
        .ok_or_else(|| bad(format!("value {value} is outside -64..=64")))?;
    let n_link = usize::from(r[38]);
    let legal = board.moves();
    // a pass position links the pass alone
    let most = (legal.count_ones() as usize).max(1);
    if n_link > most {
        return Err(bad(format!(
            "{n_link} links but the position has {} legal moves",
            legal.count_ones()
        )));
    }
    if legal == 0 {
        return Ok(());
    }
    let level = r[39].min(60);
    let leaf_at = RECORD + 2 * n_link;
    let (score, mv) = (r[leaf_at] as i8, r[leaf_at + 1]);
    let leaf = Square::from_code(mv)
        .filter(|sq| legal & sq.bit() != 0 && i32::from(score).abs() <= 64)
        .map(|sq| (sq, score));
    let (key, s) = canonical(&board);
    let leaf = leaf.map(|(sq, v)| (map_square(sq, s), v));
    let entry = Entry { value, level, leaf };
    match book.entries.get(&key) {
        Some(old) if old.level >= level => {}
        _ => {
            book.entries.insert(key, entry);
        }
    }
    Ok(())
}
