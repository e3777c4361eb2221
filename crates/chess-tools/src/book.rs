//! Opening books: one EPD or FEN position a line (`../shared/chess/books/8mvs_+90_+99.epd`).

use ply_chess::{FenError, Position};
use std::path::{Path, PathBuf};

/// Why a book could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read.
    #[error("cannot read the book {path}: {source}")]
    Io {
        /// The book's path.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A line is not a position.
    #[error("{path}:{line}: {source}")]
    Position {
        /// The book's path.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        source: FenError,
    },
    /// No position at all.
    #[error("the book {0} holds no position")]
    Empty(PathBuf),
}

/// The positions of the book `text` (blank lines and `#` comments skipped); `path` names it in
/// errors.
///
/// # Errors
/// [`BookError::Position`] for a line that is not an EPD/FEN position, [`BookError::Empty`].
pub fn parse(text: &str, path: &Path) -> Result<Vec<Position>, BookError> {
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = Position::from_epd(line)
            .map(|(pos, _)| pos)
            .map_err(|source| BookError::Position {
                path: path.to_path_buf(),
                line: i + 1,
                source,
            })?;
        positions.push(pos);
    }
    if positions.is_empty() {
        return Err(BookError::Empty(path.to_path_buf()));
    }
    Ok(positions)
}

/// Reads the book at `path`.
///
/// # Errors
/// [`BookError::Io`], and those of [`parse`].
pub fn read(path: &Path) -> Result<Vec<Position>, BookError> {
    let text = std::fs::read_to_string(path).map_err(|source| BookError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse(&text, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_and_fen_lines_are_read_and_bad_lines_named() {
        let p = Path::new("b.epd");
        let book = parse(
            "# comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\n8/8/8/8/8/8/8/K1k5 w - -\n",
            p,
        )
        .expect("a valid book");
        assert_eq!(book.len(), 2);
        let e = parse("8/8/8/8/8/8/8/K1k5 w - -\nnot a position\n", p).unwrap_err();
        assert!(matches!(e, BookError::Position { line: 2, .. }), "{e}");
        assert!(matches!(parse("\n# only\n", p), Err(BookError::Empty(_))));
    }

    #[test]
    fn the_shared_book_reads() {
        let Some(path) = ply_testkit::shared("chess/books/8mvs_+90_+99.epd") else {
            return;
        };
        assert_eq!(read(&path).expect("the shared book").len(), 8533);
    }
}
