//! The Othello opening book of the pages ([`ServerBook`]): read once at startup
//! (`ply serve --othello-book FILE`, or the book shipped with ply, [`default_book`], which is
//! also the browser build's), shared by every request, and grown by `POST /api/othello/learn`
//! when it was read from a file in ply's own format.
//!
//! The book follows the command-line front ends (`ply_othello_cli::protocol::SessionBook`):
//! while it holds a position, ply plays [`Book::choose`]'s move at once, without a search,
//! drawn among the book moves within a randomness in discs of the best with the request's seed;
//! hints list the book moves and search only the others. A position whose mover must pass, or
//! that the book does not hold, is searched.
//!
//! **Sharing.** The book is an [`Arc`] behind a lock held only to copy or swap the `Arc`: a
//! request reads the book it found, learning works on a copy of its own and swaps it in when
//! the file is written, so no request waits for a learn. One learn runs at a time
//! ([`ServerBook::start_learning`]).

use ply_othello::{Board, Square};
use ply_othello_engine::book::{Book, BookError, BookMove, Learned, EMBEDDED_BOOK, MAGIC};
use ply_othello_engine::Engine;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, PoisonError, RwLock};
use thiserror::Error;

/// The most moves of a book line ([`ServerBook::line`]): the move and its continuation (as
/// the command-line front ends show them).
pub const BOOK_LINE: usize = 10;

/// Why a book file could not be used.
#[derive(Debug, Error)]
pub enum BookLoadError {
    /// The file cannot be read.
    #[error("cannot read the Othello book {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not a book in any form ply reads.
    #[error("cannot read the Othello book {path}: {source}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: BookError,
    },
}

/// The server's opening book (see the [module documentation](self)).
#[derive(Debug)]
pub struct ServerBook {
    book: RwLock<Arc<Book>>,
    /// The file the book was read from.
    file: Option<PathBuf>,
    /// True when the file is in ply's own format (the only form learning writes back).
    own_format: bool,
    learning: AtomicBool,
}

/// What the server says about its book (`GET /api/health`, field `othello_book`).
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct BookInfo {
    /// Positions in the book.
    pub positions: usize,
    /// The level its positions are searched at when it grows.
    pub level: u8,
    /// True when `POST /api/othello/learn` can add games (a file in ply's own format).
    pub learnable: bool,
}

/// What a learn did.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct LearnReport {
    /// Positions in the book before.
    pub before: usize,
    /// Positions in the book now.
    pub positions: usize,
    /// Positions added.
    pub added: usize,
    /// Searches made.
    pub searches: usize,
    /// False when the learn was stopped before its end (what was added is kept).
    pub complete: bool,
}

/// The book of a server started without `--othello-book`: the book shipped with ply
/// ([`EMBEDDED_BOOK`]), not learnable (it has no file).
///
/// # Errors
/// The embedded bytes do not decode (a build defect, which a test guards against).
pub fn default_book() -> Result<ServerBook, BookError> {
    ServerBook::from_bytes(EMBEDDED_BOOK, None)
}

/// The moment a learn runs; dropping it lets the next one start.
pub struct Learning(Arc<ServerBook>);

impl Drop for Learning {
    fn drop(&mut self) {
        self.0.learning.store(false, Ordering::Release);
    }
}

impl ServerBook {
    /// Reads the book of `path` in any form [`Book::from_any`] reads (ply's own, Edax's
    /// `book.dat`, Edax's text form).
    ///
    /// # Errors
    /// [`BookLoadError`] naming the file: it cannot be read, or is not a book.
    pub fn load(path: &Path) -> Result<ServerBook, BookLoadError> {
        let bytes = std::fs::read(path).map_err(|source| BookLoadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        ServerBook::from_bytes(&bytes, Some(path.to_path_buf())).map_err(|source| {
            BookLoadError::Format {
                path: path.to_path_buf(),
                source,
            }
        })
    }

    /// The book in `bytes` (any form [`Book::from_any`] reads), read from `file` when it came
    /// from one; learnable when `file` is given and the bytes are in ply's own format.
    ///
    /// # Errors
    /// The bytes are not a book.
    pub fn from_bytes(bytes: &[u8], file: Option<PathBuf>) -> Result<ServerBook, BookError> {
        let book = Book::from_any(bytes)?;
        Ok(ServerBook {
            book: RwLock::new(Arc::new(book)),
            own_format: file.is_some() && bytes.starts_with(MAGIC),
            file,
            learning: AtomicBool::new(false),
        })
    }

    /// The book as it is now (a learn that ends later does not change it).
    pub fn snapshot(&self) -> Arc<Book> {
        Arc::clone(&self.book.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// The file the book was read from.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The file learning writes the book back to: its file when that is in ply's own format.
    pub fn writable_file(&self) -> Option<&Path> {
        self.file.as_deref().filter(|_| self.own_format)
    }

    /// Positions, level and whether it learns.
    pub fn info(&self) -> BookInfo {
        let book = self.snapshot();
        BookInfo {
            positions: book.len(),
            level: book.level(),
            learnable: self.writable_file().is_some(),
        }
    }

    /// The book moves of `board`, best first, each legal; empty when the book does not hold
    /// the position or its mover must pass.
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        let legal = board.moves();
        if legal == 0 {
            return Vec::new();
        }
        let mut moves = self.snapshot().moves(board);
        moves.retain(|m| legal & m.square.bit() != 0);
        moves
    }

    /// The book move to play in `board` ([`Book::choose`]: drawn with `seed` among the moves
    /// within `randomness` discs of the best), when the book holds the position and its mover
    /// has a move; never an illegal move.
    pub fn choose(&self, board: &Board, randomness: i32, seed: u64) -> Option<BookMove> {
        if board.moves() == 0 {
            return None;
        }
        self.snapshot()
            .choose(board, randomness, seed)
            .filter(|m| board.moves() & m.square.bit() != 0)
    }

    /// The book line of `m` in `board`: the move, then (when it leads into the book) the best
    /// book move of each position after it while the book holds them, at most [`BOOK_LINE`]
    /// moves, passes included.
    pub fn line(&self, board: &Board, m: &BookMove) -> Vec<Square> {
        self.snapshot().line(board, m, BOOK_LINE)
    }

    /// Marks a learn as running: `None` while another one runs.
    pub fn start_learning(self: &Arc<Self>) -> Option<Learning> {
        self.learning
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .ok()
            .map(|_| Learning(Arc::clone(self)))
    }

    /// Adds the game `moves` from `start` to a copy of the book (each new position's best move
    /// out of the book searched at the book's level with `engine`, then the stale leaves
    /// searched again and the values backed up), writes it to the book's file with `write`
    /// (the server writes a temporary file and renames it over the book) and makes it the
    /// server's book. A set `stop` ends the searches early,
    /// keeping the positions added. Call it while holding [`ServerBook::start_learning`]'s
    /// guard, so that two learns do not overwrite each other.
    ///
    /// # Errors
    /// The book has no file in ply's own format, or the file cannot be written (the server's
    /// book is then unchanged).
    pub fn learn(
        &self,
        engine: &mut Engine,
        start: &Board,
        moves: &[Square],
        stop: &AtomicBool,
        write: impl FnOnce(&Path, &[u8]) -> std::io::Result<()>,
    ) -> Result<LearnReport, String> {
        let path = self
            .writable_file()
            .ok_or("the book was not read from a file in ply's own format")?
            .to_path_buf();
        let mut book = (*self.snapshot()).clone();
        let before = book.len();
        let Learned { searches, complete } = book.learn_game(engine, start, moves, stop);
        write(&path, &book.to_bytes())
            .map_err(|e| format!("cannot write the book {}: {e}", path.display()))?;
        let positions = book.len();
        *self.book.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(book);
        Ok(LearnReport {
            before,
            positions,
            added: positions.saturating_sub(before),
            searches,
            complete,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_othello_engine::book::Entry;

    fn after_f5() -> Board {
        let b = Board::start();
        b.next(Square::F5.index(), b.flips(Square::F5.index()))
    }

    fn sample() -> Vec<u8> {
        let mut book = Book::new(1);
        book.insert(&after_f5(), Entry::new(0, 1, Some((Square::F6, 0))));
        book.to_bytes()
    }

    #[test]
    fn books_from_bytes_learn_only_from_a_file_of_plys_own_format() {
        let bytes = sample();
        let b = ServerBook::from_bytes(&bytes, Some("x.ply".into())).unwrap();
        assert!(b.info().learnable);
        assert_eq!(b.info().positions, 1);
        assert!(
            !ServerBook::from_bytes(&bytes, None)
                .unwrap()
                .info()
                .learnable
        );
        let text = Book::from_bytes(&bytes).unwrap().to_text();
        let t = ServerBook::from_bytes(text.as_bytes(), Some("x.txt".into())).unwrap();
        assert!(!t.info().learnable);
        assert_eq!(
            t.choose(&after_f5(), 0, 1).map(|m| m.square),
            Some(Square::F6)
        );
        assert!(ServerBook::from_bytes(b"PLYOBOOK nonsense", None).is_err());
        let shipped = default_book().expect("the shipped book decodes");
        assert!(!shipped.info().learnable);
        assert!(shipped.info().positions >= 1000);
        assert!(shipped.choose(&Board::start(), 0, 1).is_some());
    }

    #[test]
    fn one_learn_at_a_time() {
        let b = Arc::new(ServerBook::from_bytes(&sample(), None).unwrap());
        let first = b.start_learning().expect("free");
        assert!(b.start_learning().is_none());
        drop(first);
        assert!(b.start_learning().is_some());
    }
}
