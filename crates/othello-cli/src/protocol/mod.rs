//! Text protocols of the Othello engine. Each session turns input lines into replies and never does
//! I/O itself, so the command-line front-ends stay thin and the protocols are testable by transcript.
//!
//! [`format`](mod@format) shared text (variations, depths, the board diagram), [`clock`] shared
//! time (times as typed, game clocks, pondering), [`gtp`] the Go Text Protocol for Othello,
//! [`nboard`] the NBoard protocol, [`text`] the interactive Edax-style console. Their input is
//! read with `ply_cli_support::ByteLines` (a line that is not UTF-8 is reported, not fatal). The
//! game record and GGF are in the rules crate (`ply_othello::Game`, `ply_othello::ggf`).
//! [`SessionBook`] is the opening book the three sessions play from.

pub mod clock;
pub mod format;
pub mod gtp;
pub mod nboard;
pub mod text;

pub use gtp::GtpSession;
pub use nboard::NboardSession;
pub use text::TextSession;

use ply_othello::{Board, Square};
use ply_othello_engine::book::{embedded_book, Book, BookError, BookMove, MAGIC};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The most moves of a book line ([`SessionBook::line`]): the move and its continuation.
pub const BOOK_LINE: usize = 10;

/// The opening book of a session: the book (if any), the file it was read from, whether it is
/// used, and its randomness.
///
/// When the book is on and holds the position, the engine's move is [`Book::choose`]'s (no
/// search, so almost no clock time), drawn among the book moves within `randomness` discs of
/// the best with the session's seed; hints list the book moves first. A position whose mover
/// must pass, or that the book does not hold, is searched as without a book, and so is every
/// position while the book is off. The book is shared ([`Arc`]) until a session changes it
/// (NBoard's `learn`).
///
/// ```
/// use ply_othello::{Board, Square};
/// use ply_othello_cli::protocol::SessionBook;
/// use ply_othello_engine::book::{Book, Entry};
///
/// let mut book = Book::new(4);
/// book.insert(&Board::start(), Entry::new(0, 4, Some((Square::F5, 0))));
/// let session = SessionBook::new(book, None);
/// assert_eq!(session.choose(&Board::start(), 0).map(|m| m.square), Some(Square::F5));
/// assert!(SessionBook::default().choose(&Board::start(), 0).is_none());
/// ```
#[derive(Clone, Debug, Default)]
pub struct SessionBook {
    book: Option<Arc<Book>>,
    /// The file the book was read from.
    file: Option<PathBuf>,
    /// Whether the file is in ply's own format (NBoard's `learn` writes only those back).
    own_format: bool,
    on: bool,
    randomness: i32,
}

/// The widest randomness, in discs (a whole board).
pub const MAX_BOOK_RANDOMNESS: i32 = 64;

impl SessionBook {
    /// A session book of `book`, on, randomness 0; `file` is where it was read from.
    pub fn new(book: impl Into<Arc<Book>>, file: Option<PathBuf>) -> SessionBook {
        SessionBook {
            book: Some(book.into()),
            file,
            own_format: false,
            on: true,
            randomness: 0,
        }
    }

    /// The book shipped with ply ([`embedded_book`]): on, randomness 0, from no file (NBoard's
    /// `learn` does not write it back).
    ///
    /// # Errors
    /// The embedded bytes do not decode (a build defect, which a test guards against).
    pub fn builtin() -> Result<SessionBook, BookError> {
        Ok(SessionBook::new(embedded_book()?, None))
    }

    /// Reads the book of `path` in any form [`Book::from_any`] reads: on, randomness 0.
    ///
    /// # Errors
    /// The file cannot be read, or is not a book: `cannot read PATH: why`.
    pub fn load(path: &Path) -> Result<SessionBook, String> {
        let fail = |why: String| format!("cannot read {}: {why}", path.display());
        let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
        SessionBook::from_bytes(&bytes, path).map_err(|e| fail(e.to_string()))
    }

    /// The book in `bytes`, read from `path` ([`SessionBook::load`] without the reading).
    ///
    /// # Errors
    /// The bytes are not a book.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<SessionBook, BookError> {
        let book = Book::from_any(bytes)?;
        Ok(SessionBook {
            own_format: bytes.starts_with(MAGIC),
            ..SessionBook::new(book, Some(path.to_path_buf()))
        })
    }

    /// The book, shared.
    pub fn shared(&self) -> Option<Arc<Book>> {
        self.book.clone()
    }

    /// The book, whether on or off.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref()
    }

    /// The book to change (the session's own copy from now on).
    pub fn book_mut(&mut self) -> Option<&mut Book> {
        self.book.as_mut().map(Arc::make_mut)
    }

    /// The file the book was read from.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The file to write the book back to: its file when that is in ply's own format.
    pub fn writable_file(&self) -> Option<&Path> {
        self.file.as_deref().filter(|_| self.own_format)
    }

    /// True while a book is loaded and used.
    pub fn is_on(&self) -> bool {
        self.on && self.book.is_some()
    }

    /// Uses the book (`true`) or not; false, and nothing changes, when there is no book to use.
    pub fn set_on(&mut self, on: bool) -> bool {
        if on && self.book.is_none() {
            return false;
        }
        self.on = on;
        true
    }

    /// The randomness in discs.
    pub fn randomness(&self) -> i32 {
        self.randomness
    }

    /// Sets the randomness (clamped to 0..=[`MAX_BOOK_RANDOMNESS`]).
    pub fn set_randomness(&mut self, discs: i32) {
        self.randomness = discs.clamp(0, MAX_BOOK_RANDOMNESS);
    }

    /// The book's moves of `board`, best first, when the book is on, holds the position and its
    /// mover has a move: each legal (empty otherwise).
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        match self.book.as_deref() {
            Some(book) if self.on => Self::legal_moves(book, board),
            _ => Vec::new(),
        }
    }

    /// The book's moves of `board` whether the book is on or off (see [`SessionBook::moves`]).
    pub fn all_moves(&self, board: &Board) -> Vec<BookMove> {
        self.book
            .as_deref()
            .map_or_else(Vec::new, |book| Self::legal_moves(book, board))
    }

    fn legal_moves(book: &Book, board: &Board) -> Vec<BookMove> {
        let legal = board.moves();
        if legal == 0 {
            return Vec::new();
        }
        let mut moves = book.moves(board);
        moves.retain(|m| legal & m.square.bit() != 0);
        moves
    }

    /// The book move to play in `board` ([`Book::choose`] with the randomness and `seed`), when
    /// the book is on, holds the position and its mover has a move; never an illegal move.
    pub fn choose(&self, board: &Board, seed: u64) -> Option<BookMove> {
        let book = self.book.as_deref().filter(|_| self.on)?;
        if board.moves() == 0 {
            return None;
        }
        book.choose(board, self.randomness, seed)
            .filter(|m| board.moves() & m.square.bit() != 0)
    }

    /// The book line of `m` in `board`: the move, then (when it leads into the book) the best
    /// book move of each position after it while the book holds them, at most [`BOOK_LINE`]
    /// moves, passes included.
    pub fn line(&self, board: &Board, m: &BookMove) -> Vec<Square> {
        self.book
            .as_deref()
            .map_or_else(|| vec![m.square], |book| book.line(board, m, BOOK_LINE))
    }

    /// One line about the book: on or off, positions, level, randomness, file.
    pub fn describe(&self) -> String {
        let Some(book) = self.book.as_deref() else {
            return "book: none (book load FILE)".into();
        };
        let file = self.file.as_ref().map_or(", built in".to_string(), |f| {
            format!(", from {}", f.display())
        });
        format!(
            "book {}: {}, level {}, randomness {}{file}",
            if self.on { "on" } else { "off" },
            count(book.len(), "position"),
            book.level(),
            self.randomness
        )
    }
}

/// `1 move`, `3 moves`.
pub(crate) fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
