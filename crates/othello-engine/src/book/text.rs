//! Edax's text form of a book (`book export` / `book import`): one line per position,
//!
//! ```text
//! <64 squares> X,<level>,<leaf move>,<leaf score>
//! ```
//!
//! The squares run A1, B1 … H8 over the canonical board: `X` the mover's discs, `O` the
//! opponent's, `-` an empty square; the letter after the space is the colour to move (always
//! `X`, the mover). The leaf move is upper case (`F5`), `--` when there is none (Edax then
//! writes the score −127) and `PA` for a pass. Links, game counts and bounds are not part of
//! the form: reading rebuilds the values with [`Book::negamax`].
//!
//! **Writing** ([`Book::to_text`]) gives the positions in increasing `(player, opponent)`
//! order, each line as Edax writes it.
//!
//! **Reading** ([`Book::from_text`]) ignores blank lines and lines starting with `#`, and
//! takes what Edax's reader takes for a board: `X`, `x`, `B`, `b` or `*` for the first colour,
//! `O`, `o`, `W` or `w` for the second, `-` or `.` for an empty square, then the colour to
//! move (`O`/`W` meaning the second colour moves). Boards are canonicalised (the leaf mapped
//! with them); a position whose mover must pass, or a finished game, is skipped (ply keeps no
//! such position); of two lines of one position the higher level wins (the first on a tie).
//! Each entry's value is its leaf's score (0 without a leaf) until [`Book::negamax`] backs
//! the values up, which reading does last. The book's level is the highest level read (0 for
//! an empty text). Anything else is a [`BookError::Text`] with its line number.

use super::{canonical, map_square, Book, BookError, Entry, MAX_VALUE};
use ply_othello::{Board, Square};
use std::fmt::Write;

/// The leaf score Edax writes with an empty leaf.
const NO_LEAF_SCORE: i32 = -127;

impl Book {
    /// The book in Edax's text form (see the `text` notes in the crate's source): one line per
    /// position, deterministic.
    pub fn to_text(&self) -> String {
        let positions = self.positions();
        let mut out = String::with_capacity(80 * positions.len());
        for (board, e) in positions {
            for i in 0..64 {
                let bit = 1u64 << i;
                out.push(if board.player() & bit != 0 {
                    'X'
                } else if board.opponent() & bit != 0 {
                    'O'
                } else {
                    '-'
                });
            }
            let (mv, score) = e
                .leaf
                .map_or(("--", NO_LEAF_SCORE), |(sq, v)| (sq.name(), i32::from(v)));
            // writing to a String cannot fail
            let _ = writeln!(out, " X,{},{mv},{score}", e.level);
        }
        out
    }

    /// Reads Edax's text form (see the `text` notes in the crate's source); the values are
    /// backed up with [`Book::negamax`] before the book is returned.
    pub fn from_text(text: &str) -> Result<Book, BookError> {
        let mut book = Book::new(0);
        let mut level_max = 0;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |reason: String| BookError::Text {
                line: i + 1,
                reason,
            };
            let Some((board, level, leaf)) = parse_line(line).map_err(bad)? else {
                continue;
            };
            level_max = level_max.max(level);
            let (key, s) = canonical(&board);
            let entry = Entry {
                value: leaf.map_or(0, |(_, v)| v),
                level,
                leaf: leaf.map(|(sq, v)| (map_square(sq, s), v)),
            };
            match book.entries.get(&key) {
                Some(old) if old.level >= level => {}
                _ => {
                    book.entries.insert(key, entry);
                }
            }
        }
        book.level = level_max;
        book.negamax();
        Ok(book)
    }
}

/// A line's board, level and leaf (in the line's coordinates); `None` for a position the
/// book does not keep (the mover must pass, or the game is over).
#[allow(clippy::type_complexity)]
fn parse_line(line: &str) -> Result<Option<(Board, u8, Option<(Square, i8)>)>, String> {
    let mut fields = line.split(',');
    let board_field = fields.next().unwrap_or("").trim();
    let board = parse_board(board_field)?;
    let level_field = fields
        .next()
        .ok_or("missing ',' and level after the board")?
        .trim();
    let level: u8 = level_field
        .parse()
        .ok()
        .filter(|&l| l <= 60)
        .ok_or_else(|| format!("level {level_field:?} is not a number in 0..=60"))?;
    let move_field = fields
        .next()
        .ok_or("missing the leaf move after the level")?
        .trim();
    let score_field = fields
        .next()
        .ok_or("missing the leaf score after the leaf move")?
        .trim();
    if let Some(extra) = fields.next() {
        return Err(format!("unexpected field {extra:?} after the leaf score"));
    }
    let score: i32 = score_field
        .parse()
        .map_err(|_| format!("leaf score {score_field:?} is not a number"))?;
    let legal = board.moves();
    if legal == 0 {
        return Ok(None);
    }
    let leaf = match move_field.to_ascii_uppercase().as_str() {
        "--" => None,
        "PA" | "PS" => return Err("the leaf is a pass but the mover has legal moves".into()),
        name => {
            let sq = Square::from_coordinate(name.as_bytes())
                .ok_or_else(|| format!("leaf move {move_field:?} is not a square"))?;
            if legal & sq.bit() == 0 {
                return Err(format!("leaf move {sq} is not a legal move"));
            }
            if score.abs() > MAX_VALUE {
                return Err(format!("leaf score {score} is outside -64..=64"));
            }
            Some((sq, score as i8))
        }
    };
    Ok(Some((board, level, leaf)))
}

/// The 64 squares and the colour to move, as Edax reads them.
fn parse_board(field: &str) -> Result<Board, String> {
    let mut chars = field.chars();
    let (mut first, mut second) = (0u64, 0u64);
    for i in 0..64 {
        match chars.next() {
            Some('X' | 'x' | 'B' | 'b' | '*') => first |= 1 << i,
            Some('O' | 'o' | 'W' | 'w') => second |= 1 << i,
            Some('-' | '.') => {}
            Some(c) => return Err(format!("square {} is {c:?}, not X, O or -", i + 1)),
            None => return Err(format!("the board has {i} squares, not 64")),
        }
    }
    let to_move = chars.as_str().trim();
    let (player, opponent) = match to_move {
        "X" | "x" | "B" | "b" | "*" => (first, second),
        "O" | "o" | "W" | "w" => (second, first),
        "" => return Err("missing the colour to move after the 64 squares".into()),
        other => return Err(format!("colour to move {other:?} is not X or O")),
    };
    Board::new(player, opponent).map_err(|e| e.to_string())
}
