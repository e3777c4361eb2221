//! Reader of the WTHOR game database of the French Othello Federation (`WTH_YYYY.wtb`): a
//! 16-byte header (byte 14 = depth of the theoretical score), then 68 bytes a game: tournament,
//! black and white player (u16 each), black's final disc count, black's theoretical disc count
//! (perfect play from `depth` empties), 60 moves `10 * row + col` (1-based; 0 = none).
//!
//! The records leave passes out: [`replay`] puts them back (see [`Replay`] for the rule).

use crate::{Position, Square};
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
    /// The moves (never [`Square::PASS`]: passes are implicit); `None` past the end of the game.
    pub moves: [Option<Square>; 60],
}

impl WthorGame {
    /// Replays the game's moves from the start position (see [`Replay`]).
    pub fn replay(&self) -> Replay<'_> {
        replay(&self.moves)
    }
}

/// A recorded move that the side to move (after its pass, if it had no move) cannot play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {square} at ply {ply} of a WTHOR record")]
pub struct IllegalMove {
    /// Index of the move in the record (0 = the first move).
    pub ply: usize,
    /// The square it names.
    pub square: Square,
}

/// One position of a replayed game: where the game stands after some moves, and what comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WthorPly {
    /// The position after the moves played so far, before any pass.
    pub position: Position,
    /// The record's next move (a square), `None` where the record ends.
    pub next: Option<Square>,
    /// True when the side to move has no legal move, so it passes before the other side plays
    /// `next` (only ever set when `next` is a move).
    pub pass_first: bool,
}

impl WthorPly {
    /// The position from which `next` is played: [`WthorPly::position`], after the pass when
    /// [`WthorPly::pass_first`] is set.
    pub fn mover_position(&self) -> Position {
        let mut pos = self.position;
        if self.pass_first {
            pos.pass();
        }
        pos
    }
}

/// Replays a WTHOR move list (see [`Replay`]).
pub fn replay(moves: &[Option<Square>; 60]) -> Replay<'_> {
    Replay {
        moves,
        position: Position::start(),
        played: 0,
        error: None,
        done: false,
    }
}

/// Iterator over the positions of a WTHOR record, the start position first. The record ends at
/// its first empty move (or after 60 moves). Passes are implicit: a recorded move is played by
/// the side to move when that side has a legal move, otherwise the side to move passes first
/// and the other side plays it (the rule of [`crate::play_moves`] for lists without passes).
/// So a game of `n` recorded moves yields `n + 1` plies: `Ok` ones for the positions reached,
/// the last with `next == None`. A move that is illegal even so yields one `Err` in place of
/// the position it would reach, and the iteration ends there.
#[derive(Clone, Debug)]
pub struct Replay<'a> {
    moves: &'a [Option<Square>; 60],
    position: Position,
    played: usize,
    error: Option<IllegalMove>,
    done: bool,
}

impl Iterator for Replay<'_> {
    type Item = Result<WthorPly, IllegalMove>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if let Some(e) = self.error.take() {
            self.done = true;
            return Some(Err(e));
        }
        let next = self.moves.get(self.played).copied().flatten();
        let ply = WthorPly {
            position: self.position,
            next,
            pass_first: next.is_some() && self.position.board.moves() == 0,
        };
        match next {
            None => self.done = true,
            Some(square) => {
                let mut pos = ply.mover_position();
                if pos.play(square) {
                    self.position = pos;
                    self.played += 1;
                } else {
                    self.error = Some(IllegalMove {
                        ply: self.played,
                        square,
                    });
                }
            }
        }
        Some(Ok(ply))
    }
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
                    *m = Square::new(usize::from((row - 1) * 8 + col - 1));
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
    use crate::Color;

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
        assert_eq!(f.games[0].moves[0], Some(Square::F5));
        assert_eq!(f.games[0].moves[1], None);
    }

    fn record(moves: &str) -> [Option<Square>; 60] {
        let mut g = [None; 60];
        for (slot, sq) in g.iter_mut().zip(crate::parse_moves(moves).unwrap()) {
            *slot = Some(sq);
        }
        g
    }

    #[test]
    fn replay_inserts_forced_passes() {
        // From a WTHOR game: after 15 moves White has no move, so Black plays c6 (after White's
        // pass) and then White c7.
        let g = record("f5f6e6f4g6d6g4f7e8h6h5f8h7h3g8c6c7");
        let plies: Vec<WthorPly> = replay(&g).map(Result::unwrap).collect();
        assert_eq!(plies.len(), 18);
        let passes: Vec<usize> = (0..plies.len()).filter(|&i| plies[i].pass_first).collect();
        assert_eq!(passes, vec![15]);
        let at_pass = plies[15];
        assert_eq!(at_pass.position.side, Color::White);
        assert_eq!(at_pass.position.board.moves(), 0);
        assert_eq!(at_pass.next, Some(Square::C6));
        assert_eq!(at_pass.mover_position().side, Color::Black);
        assert_eq!(plies[16].position.side, Color::White);
        assert_eq!(plies[17].next, None);
        assert_eq!(plies[17].position.side, Color::Black);
        assert_eq!(plies[17].position.board.empty_count(), 60 - 17);
        // Without the pass the same move would be White's, and illegal there.
        let mut white = at_pass.position;
        assert!(!white.play(Square::C6));
    }

    #[test]
    fn replay_stops_at_an_illegal_move_and_at_the_end() {
        let g = record("f5a1");
        let plies: Vec<_> = replay(&g).collect();
        assert_eq!(plies.len(), 3);
        let first = plies[0].unwrap();
        assert_eq!(first.position, Position::start());
        assert_eq!(first.next, Some(Square::F5));
        assert!(!first.pass_first);
        assert_eq!(plies[1].unwrap().next, Some(Square::A1));
        assert_eq!(
            plies[2],
            Err(IllegalMove {
                ply: 1,
                square: Square::A1
            })
        );
        let g = record("f5d6");
        let plies: Vec<_> = replay(&g).map(Result::unwrap).collect();
        assert_eq!(plies.len(), 3);
        assert_eq!(plies[2].next, None);
        assert_eq!(plies[2].position.side, Color::Black);
        assert_eq!(plies[2].position.board.empty_count(), 58);
    }
}
