//! The opening book: positions up to symmetry, each with its negamax value, the level its best
//! move out of the book was searched at and that move (the *leaf*), as Edax keeps them.
//!
//! - [`Book`] holds the positions; [`Book::moves`] lists a position's book moves (the moves to
//!   positions in the book, each worth minus that position's value, and the leaf),
//!   [`Book::choose`] picks one to play (within a randomness in discs of the best, seeded),
//!   [`Book::negamax`] backs the values up after additions, [`Book::merge`] joins two books.
//! - Building: plans of [`Step`]s ([`Book::game_plan`], [`Book::deviation_plan`],
//!   [`Book::fix_plan`]) run by [`Book::run_step`] with an [`Engine`](crate::Engine) at the
//!   book's level; every step is deterministic for a single-threaded engine. A step's search
//!   ([`Book::step_search`], a [`LeafSearch`]) can be made apart, on another engine or thread,
//!   and its result handed to [`Book::run_step_with`].
//! - Files: ply's own binary form ([`Book::to_bytes`] / [`Book::from_bytes`], versioned, with a
//!   checksum), Edax's `book.dat` ([`Book::to_edax`] / [`Book::from_edax`]) and Edax's text form
//!   ([`Book::to_text`] / [`Book::from_text`]). Every malformed byte is a [`BookError`].
//!
//! **The shipped book.** [`EMBEDDED_BOOK`] is the book built into ply ([`embedded_book`] reads
//! it): made by `ply-othello book` from the start position along the lines strong play reaches
//! (its commands, level and size in `docs/benchmarks/othello-book.md`). The front ends play from
//! it unless told `--book FILE` or `--no-book`.
//!
//! **Symmetry.** A position and its seven images under the symmetries of the board share one
//! entry: the book stores the smallest of the eight `(player, opponent)` pairs (as Edax does, so
//! ply's keys are Edax's keys) and its leaf in that form's coordinates; lookups map moves back
//! to the board asked about.
//!
//! **Passes.** A position whose mover must pass is not stored: it is looked up as the position
//! after the pass (value negated). Finished games are never stored.
//!
//! ```
//! use ply_othello::{Board, Square};
//! use ply_othello_engine::book::{Book, Entry};
//!
//! let mut book = Book::new(10);
//! let start = Board::start();
//! book.insert(&start, Entry::new(0, 10, Some((Square::F5, 0))));
//! // the start position's four images are one entry: D3 (the same move turned) is its leaf too
//! let moves = book.moves(&start);
//! assert_eq!(moves.len(), 1);
//! assert_eq!((moves[0].square, moves[0].score, moves[0].linked), (Square::F5, 0, false));
//! ```

mod build;
mod edax;
mod format;
mod text;

pub use build::{BuildProgress, LeafResult, LeafSearch, Learned, Step, DEFAULT_DEVIATION};
pub use format::{MAGIC, VERSION};

use ply_othello::symmetry::{inverse, symmetry_square};
use ply_othello::{Board, Square};
use std::collections::HashMap;
use thiserror::Error;

/// The opening book shipped with ply, in ply's own format (see the module documentation).
pub static EMBEDDED_BOOK: &[u8] = include_bytes!("default.plybook");

/// Reads the shipped book ([`EMBEDDED_BOOK`]).
///
/// # Errors
/// [`BookError`] if the embedded bytes were corrupted at build time (a test guards this).
pub fn embedded_book() -> Result<Book, BookError> {
    Book::from_bytes(EMBEDDED_BOOK)
}

/// The smallest and largest book value (a whole board, in discs).
pub const MAX_VALUE: i32 = 64;

/// A book position as stored, in the coordinates of its canonical form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Negamax value in discs, from the mover's view: the best of the leaf and the moves to
    /// positions in the book.
    pub value: i8,
    /// The level the leaf was searched at (0: not searched).
    pub level: u8,
    /// The best move to a position not in the book, with its score (mover's view), in the
    /// coordinates of the canonical form; `None` when every legal move stays in the book or
    /// the leaf was not searched yet.
    pub leaf: Option<(Square, i8)>,
}

impl Entry {
    /// An entry of `value` whose leaf `leaf` (in the coordinates of the board it is inserted
    /// with) was searched at `level`. Values are clamped to ±[`MAX_VALUE`].
    pub fn new(value: i32, level: u8, leaf: Option<(Square, i32)>) -> Entry {
        Entry {
            value: clamp_value(value),
            level,
            leaf: leaf.map(|(sq, s)| (sq, clamp_value(s))),
        }
    }
}

fn clamp_value(v: i32) -> i8 {
    v.clamp(-MAX_VALUE, MAX_VALUE) as i8
}

/// One move of a book position, in the coordinates of the board asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move ([`Square::PASS`] for a forced pass).
    pub square: Square,
    /// Its value in discs for the mover.
    pub score: i32,
    /// True when the move leads to a position in the book (its score is minus that position's
    /// value); false for the leaf, the best move leaving the book as searched at `level`.
    pub linked: bool,
    /// The level behind the score: the leaf's, or the position's after the move.
    pub level: u8,
}

/// What went wrong reading a book.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum BookError {
    /// The bytes end before the format says they do.
    #[error("the book is truncated: {0}")]
    Truncated(&'static str),
    /// The file does not start with the format's magic bytes.
    #[error("not a {0} book (wrong magic bytes)")]
    Magic(&'static str),
    /// A format version this build cannot read.
    #[error("book format version {found} is not supported (this build reads {supported})")]
    Version {
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// The checksum does not match the contents.
    #[error("book checksum mismatch: stored {stored:#018x}, computed {computed:#018x}")]
    Checksum {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of the bytes before it.
        computed: u64,
    },
    /// A record breaks the format's rules.
    #[error("book record {index}: {reason}")]
    Record {
        /// The record's number, from 0.
        index: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A line of the text form cannot be read.
    #[error("book text line {line}: {reason}")]
    Text {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

/// An opening book (see the [module documentation](self)).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Book {
    entries: HashMap<(u64, u64), Entry>,
    level: u8,
}

/// The canonical form of `board` and the symmetry that maps `board` onto it.
fn canonical(board: &Board) -> ((u64, u64), usize) {
    let (c, s) = board.canonical();
    ((c.player(), c.opponent()), s)
}

/// `sq` on the board seen through symmetry `s` (the pass stays the pass).
fn map_square(sq: Square, s: usize) -> Square {
    if sq.is_pass() {
        sq
    } else {
        Square::new(symmetry_square(sq.index(), s)).unwrap_or(sq)
    }
}

impl Book {
    /// Reads a book in any of the three forms, told apart by their first bytes: ply's own
    /// ([`MAGIC`]), Edax's `book.dat` (`XADEKOOB`), else Edax's text form.
    pub fn from_any(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.starts_with(MAGIC) {
            Book::from_bytes(bytes)
        } else if bytes.starts_with(b"XADEKOOB") {
            Book::from_edax(bytes)
        } else {
            let text = std::str::from_utf8(bytes).map_err(|e| BookError::Text {
                line: 1 + bytes[..e.valid_up_to()]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count(),
                reason: "not a ply or Edax book, and not UTF-8 text".into(),
            })?;
            Book::from_text(text)
        }
    }

    /// An empty book whose positions are searched at `level` (0..=60) when it grows.
    pub fn new(level: u8) -> Book {
        Book {
            entries: HashMap::new(),
            level: level.min(60),
        }
    }

    /// The level new positions are searched at.
    pub fn level(&self) -> u8 {
        self.level
    }

    /// Sets the level new positions are searched at (0..=60).
    pub fn set_level(&mut self, level: u8) {
        self.level = level.min(60);
    }

    /// The number of positions (each standing for up to eight images).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The stored positions in their canonical form with their entries, in increasing
    /// `(player, opponent)` order.
    pub fn positions(&self) -> Vec<(Board, Entry)> {
        let mut all: Vec<_> = self
            .entries
            .iter()
            .map(|(&(p, o), &e)| (Board::from_bits_unchecked(p, o), e))
            .collect();
        all.sort_by_key(|(b, _)| (b.player(), b.opponent()));
        all
    }

    /// The entry of `board` (any of its images), with its leaf in `board`'s coordinates.
    /// A position whose mover must pass is not in the book (see [`Book::moves`]).
    pub fn get(&self, board: &Board) -> Option<Entry> {
        let (key, s) = canonical(board);
        let e = *self.entries.get(&key)?;
        Some(Entry {
            leaf: e.leaf.map(|(sq, v)| (map_square(sq, inverse(s)), v)),
            ..e
        })
    }

    /// True when `board` (any image) is in the book.
    pub fn contains(&self, board: &Board) -> bool {
        self.entries.contains_key(&canonical(board).0)
    }

    /// Stores `entry` for `board` (its leaf given in `board`'s coordinates), replacing the
    /// entry of any image of it. A board whose mover has no legal move is not stored: the call
    /// returns false and changes nothing.
    pub fn insert(&mut self, board: &Board, entry: Entry) -> bool {
        if board.moves() == 0 {
            return false;
        }
        let (key, s) = canonical(board);
        let leaf = entry.leaf.map(|(sq, v)| (map_square(sq, s), v));
        self.entries.insert(key, Entry { leaf, ..entry });
        true
    }

    /// Removes `board` (any image); its entry, if it was there.
    pub fn remove(&mut self, board: &Board) -> Option<Entry> {
        let (key, _) = canonical(board);
        self.entries.remove(&key)
    }

    /// The book value of `board` from its mover's view: its entry's value, or minus the value
    /// of the position after a forced pass; `None` when neither is in the book.
    pub fn value(&self, board: &Board) -> Option<i32> {
        if board.moves() == 0 {
            if board.is_game_over() {
                return None;
            }
            return self.get(&board.passed()).map(|e| -i32::from(e.value));
        }
        self.get(board).map(|e| i32::from(e.value))
    }

    /// The value of the position after `board` plays `sq`, from `board`'s mover's view, and
    /// its level, when that position (or the one after its forced pass) is in the book. A
    /// finished game is never in the book: the leaf search scores it.
    fn child_score(&self, board: &Board, sq: usize) -> Option<(i32, u8)> {
        let child = board.next(sq, board.flips(sq));
        if child.moves() == 0 {
            if child.is_game_over() {
                return None;
            }
            let e = self.get(&child.passed())?;
            return Some((i32::from(e.value), e.level));
        }
        let e = self.get(&child)?;
        Some((-i32::from(e.value), e.level))
    }

    /// The book moves of `board`, best first (ties: linked before the leaf, then by square):
    /// every legal move whose position is in the book, and the leaf. Empty when `board` is not
    /// in the book. A position whose mover must pass answers the pass alone when the position
    /// after it is in the book.
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        let legal = board.moves();
        if legal == 0 {
            return match self.value(board) {
                Some(score) => vec![BookMove {
                    square: Square::PASS,
                    score,
                    linked: true,
                    level: self.get(&board.passed()).map_or(0, |e| e.level),
                }],
                None => Vec::new(),
            };
        }
        let Some(entry) = self.get(board) else {
            return Vec::new();
        };
        let mut out: Vec<BookMove> = Square::iter(legal)
            .filter_map(|sq| {
                let (score, level) = self.child_score(board, sq.index())?;
                Some(BookMove {
                    square: sq,
                    score,
                    linked: true,
                    level,
                })
            })
            .collect();
        if let Some((sq, score)) = entry.leaf {
            if !out.iter().any(|m| m.square == sq) && legal & sq.bit() != 0 {
                out.push(BookMove {
                    square: sq,
                    score: i32::from(score),
                    linked: false,
                    level: entry.level,
                });
            }
        }
        out.sort_by(|a, b| {
            b.score
                .cmp(&a.score)
                .then(b.linked.cmp(&a.linked))
                .then(a.square.index().cmp(&b.square.index()))
        });
        out
    }

    /// The book line of `first`, a book move of `board`: the move, then, while it leads into
    /// the book, the best book move of each position after it, at most `max` moves, passes
    /// included; it ends after a leaf.
    pub fn line(&self, board: &Board, first: &BookMove, max: usize) -> Vec<Square> {
        let mut line = vec![first.square];
        if !first.linked {
            return line;
        }
        let mut b = after(board, first.square);
        while line.len() < max {
            let Some(next) = self.moves(&b).first().copied() else {
                break;
            };
            if !next.square.is_pass() && b.moves() & next.square.bit() == 0 {
                break;
            }
            line.push(next.square);
            if !next.linked {
                break;
            }
            b = after(&b, next.square);
        }
        line
    }

    /// A book move to play in `board`: drawn uniformly, with `seed` and the position, among the
    /// book moves scored within `randomness` discs of the best (0: among the moves tied for the
    /// best). `None` when `board` is not in the book. The same seed, position and book give the
    /// same move; the position enters the draw by its canonical form and the symmetry, so
    /// images of a position get images of one move.
    pub fn choose(&self, board: &Board, randomness: i32, seed: u64) -> Option<BookMove> {
        let moves = self.moves(board);
        let best = moves.first()?.score;
        let within: Vec<BookMove> = moves
            .into_iter()
            .filter(|m| m.score >= best - randomness.max(0))
            .collect();
        if within.len() == 1 {
            return within.first().copied();
        }
        let (key, _) = canonical(board);
        let draw = splitmix(seed ^ splitmix(key.0 ^ splitmix(key.1)));
        within.get((draw % within.len() as u64) as usize).copied()
    }

    /// Backs the values up the book: each position's value becomes the best of its leaf and
    /// minus the values of the positions its moves lead to, positions with more discs first.
    /// A position with neither a leaf nor a move into the book keeps its value. Returns how
    /// many values changed.
    pub fn negamax(&mut self) -> usize {
        let mut keys: Vec<(u64, u64)> = self.entries.keys().copied().collect();
        // children have more discs (a pass keeps the count but is probed after the pass, a
        // position of the same count processed before: both orders are fine as the passed
        // position's value does not depend on the passing one)
        keys.sort_by_key(|&(p, o)| (std::cmp::Reverse((p | o).count_ones()), p, o));
        let mut changed = 0;
        for key in keys {
            let board = Board::from_bits_unchecked(key.0, key.1);
            let entry = self.entries[&key];
            let mut best = entry.leaf.map(|(_, v)| i32::from(v));
            for sq in Square::iter(board.moves()) {
                if let Some((score, _)) = self.child_score(&board, sq.index()) {
                    best = Some(best.map_or(score, |b| b.max(score)));
                }
            }
            if let Some(v) = best {
                let v = clamp_value(v);
                if v != entry.value {
                    changed += 1;
                    self.entries.insert(key, Entry { value: v, ..entry });
                }
            }
        }
        changed
    }

    /// Adds the positions of `other` this book lacks and, for positions in both, keeps the
    /// entry searched at the higher level (this book's on a tie); then backs the values up.
    /// Returns how many entries were added or replaced.
    pub fn merge(&mut self, other: &Book) -> usize {
        let mut n = 0;
        for (&key, &theirs) in &other.entries {
            match self.entries.get(&key) {
                Some(ours) if ours.level >= theirs.level => {}
                _ => {
                    self.entries.insert(key, theirs);
                    n += 1;
                }
            }
        }
        self.negamax();
        n
    }

    /// The positions whose leaf is missing or whose leaf move now leads into the book (the leaf
    /// must be searched again), or whose leaf was searched below `level`; canonical boards in
    /// increasing order.
    pub fn stale_leaves(&self, level: u8) -> Vec<Board> {
        let mut out: Vec<Board> = self
            .entries
            .iter()
            .filter_map(|(&(p, o), e)| {
                let board = Board::from_bits_unchecked(p, o);
                let unlinked = self.unlinked_moves(&board);
                let stale = match e.leaf {
                    None => unlinked != 0,
                    Some((sq, _)) => unlinked & sq.bit() == 0 || e.level < level,
                };
                stale.then_some(board)
            })
            .collect();
        out.sort_by_key(|b| (b.player(), b.opponent()));
        out
    }

    /// The legal moves of `board` whose position is not in the book (a move that ends the game
    /// among them: the leaf search scores it exactly).
    pub fn unlinked_moves(&self, board: &Board) -> u64 {
        Square::iter(board.moves())
            .filter(|sq| self.child_score(board, sq.index()).is_none())
            .fold(0, |mask, sq| mask | sq.bit())
    }
}

/// `board` after `sq` (a pass included).
fn after(board: &Board, sq: Square) -> Board {
    if sq.is_pass() {
        board.passed()
    } else {
        board.next(sq.index(), board.flips(sq.index()))
    }
}

/// SplitMix64's step and finaliser: a well-mixed 64-bit function of `x`.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests;
