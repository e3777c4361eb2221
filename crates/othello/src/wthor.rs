//! Reader of the WTHOR game database of the French Othello Federation (`WTH_YYYY.wtb`): a
//! 16-byte header (byte 14 = depth of the theoretical score), then 68 bytes a game: tournament,
//! black and white player (u16 each), black's final disc count, black's theoretical disc count
//! (perfect play from `depth` empties), 60 moves `10 * row + col` (1-based; 0 = none).

use std::path::{Path, PathBuf};

/// Header length of a `.wtb` file.
const HEADER_LEN: usize = 16;
/// Record length of one game.
const GAME_LEN: usize = 68;

/// Errors reading WTHOR files.
#[derive(Debug, thiserror::Error)]
pub enum WthorError {
    /// The file or directory could not be read.
    #[error("WTHOR I/O on {0}: {1}")]
    Io(PathBuf, std::io::Error),
    /// The file is not header + whole game records, or is not an 8x8 database.
    #[error("{0} is not a WTHOR 8x8 game file")]
    Malformed(PathBuf),
}

/// One game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WthorGame {
    /// Black's disc count at the end of the game.
    pub black_final: u8,
    /// Black's disc count with perfect play from the file's `depth` empties.
    pub black_theoretical: u8,
    /// Moves as square numbers (A1 = 0 .. H8 = 63); `None` past the end of the game.
    pub moves: [Option<u8>; 60],
}

/// The games of one file and the depth (number of empties) of their theoretical scores.
#[derive(Clone, Debug)]
pub struct WthorFile {
    /// Number of empties at which the theoretical score applies (0: none).
    pub depth: u8,
    /// The games, in file order.
    pub games: Vec<WthorGame>,
}

/// Parses the bytes of a `.wtb` file (`path` only names it in errors).
///
/// # Errors
/// [`WthorError::Malformed`] when the length or board size is wrong.
pub fn parse(bytes: &[u8], path: &Path) -> Result<WthorFile, WthorError> {
    let bad = || WthorError::Malformed(path.to_path_buf());
    if bytes.len() < HEADER_LEN || !(bytes.len() - HEADER_LEN).is_multiple_of(GAME_LEN) {
        return Err(bad());
    }
    if bytes[12] != 0 && bytes[12] != 8 {
        return Err(bad());
    }
    let depth = bytes[14];
    let games = bytes[HEADER_LEN..]
        .chunks_exact(GAME_LEN)
        .map(|g| {
            let mut moves = [None; 60];
            for (m, &b) in moves.iter_mut().zip(&g[8..]) {
                let (row, col) = (b / 10, b % 10);
                if (1..=8).contains(&row) && (1..=8).contains(&col) {
                    *m = Some((row - 1) * 8 + col - 1);
                }
            }
            WthorGame {
                black_final: g[6],
                black_theoretical: g[7],
                moves,
            }
        })
        .collect();
    Ok(WthorFile { depth, games })
}

/// Reads every `*.wtb` file of a directory, sorted by file name (so game numbering is stable).
///
/// # Errors
/// I/O errors and malformed files.
pub fn read_dir(dir: &Path) -> Result<Vec<(PathBuf, WthorFile)>, WthorError> {
    let io = |e| WthorError::Io(dir.to_path_buf(), e);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wtb")))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).map_err(|e| WthorError::Io(p.clone(), e))?;
            let file = parse(&bytes, &p)?;
            Ok((p, file))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_input_is_an_error() {
        let p = Path::new("x.wtb");
        assert!(parse(&[0u8; 10], p).is_err());
        assert!(parse(&[0u8; 16 + 67], p).is_err());
        let mut ok = vec![0u8; 16 + 68];
        ok[14] = 24;
        ok[16 + 8] = 56; // F5 = row 5, col 6
        let f = parse(&ok, p).unwrap();
        assert_eq!(f.depth, 24);
        assert_eq!(f.games[0].moves[0], Some(4 * 8 + 5));
        assert_eq!(f.games[0].moves[1], None);
    }
}
