//! Training samples: every position of the WTHOR games before each move (replayed by
//! [`ply_othello::wthor::replay`], forced passes put back): the position (side to move first) and
//! a label in discs from the mover's view, plus optional
//! externally labelled positions (e.g. exact solver scores).
//!
//! Labels: the perfect-play score from the file's theoretical depth (24 empties) for positions
//! with at least [`THEORETICAL_MIN_EMPTIES`] empties, the final score below. Human endgames lose
//! 11.5 discs on average against perfect play from 24 empties (measured over all 129,485 WTHOR
//! games), so the final score is a poor label until the last few moves, while the theoretical
//! score drifts from a later position's exact value only by the errors made in between. Games are numbered in file-name order; game `g` goes to the test set when
//! `g % 10 == 0`, to the validation set when `g % 10 == 1`, else to training.

use crate::datagen::Kind;
use ply_othello::wthor::WthorFile;
use ply_othello::{Board, Color};
use std::path::{Path, PathBuf};

/// Fewest empties at which a position is labelled with its game's theoretical score.
pub const THEORETICAL_MIN_EMPTIES: u32 = 12;

/// One labelled position (a fit computes its pattern indices, see `train::patterns`).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Number of empty squares.
    pub empties: u8,
    /// Score in discs from the side to move's view.
    pub label: i8,
    /// Whether the label is an exact (perfect-play) score.
    pub exact: bool,
    /// The position (side to move first), kept for exact solving.
    pub board: Board,
}

impl Sample {
    /// Sample of a board with a label from its mover's view.
    pub fn new(board: &Board, label: i8, exact: bool) -> Sample {
        Sample {
            empties: board.empty_count() as u8,
            label,
            exact,
            board: *board,
        }
    }
}

/// Which part of the data a game belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Used for fitting.
    Train,
    /// Used for the per-epoch validation loss.
    Validation,
    /// Never used in training; only for the final measurements.
    Test,
}

/// Split of the game with global number `g`.
pub fn split_of(g: usize) -> Split {
    match g % 10 {
        0 => Split::Test,
        1 => Split::Validation,
        _ => Split::Train,
    }
}

/// Samples of all three splits and replay statistics.
#[derive(Debug, Default)]
pub struct Dataset {
    /// Training samples.
    pub train: Vec<Sample>,
    /// Validation samples.
    pub validation: Vec<Sample>,
    /// Test samples.
    pub test: Vec<Sample>,
    /// Solved test positions read from label files (`--test-labels`), kept out of training.
    pub test_labels: Vec<Sample>,
    /// Games replayed.
    pub games: usize,
    /// Games dropped because a move was illegal.
    pub rejected: usize,
}

impl Dataset {
    /// Replays the games of WTHOR files (in the given order) into samples, keeping only the
    /// games of the listed splits.
    pub fn from_wthor(
        files: &[(PathBuf, WthorFile)],
        keep: &[Split],
        mut progress: impl FnMut(usize),
    ) -> Dataset {
        let mut ds = Dataset::default();
        let mut g = 0usize;
        let mut positions = Vec::with_capacity(64);
        for (_, file) in files {
            for game in &file.games {
                let split = split_of(g);
                g += 1;
                progress(1);
                if !keep.contains(&split) {
                    continue;
                }
                positions.clear();
                let mut ok = true;
                for ply in game.replay() {
                    match ply {
                        Ok(ply) if ply.next.is_some() => positions.push(ply.mover_position()),
                        Ok(_) => {}
                        Err(_) => ok = false,
                    }
                }
                if !ok || game.black_final > 64 {
                    ds.rejected += 1;
                    continue;
                }
                ds.games += 1;
                let final_diff = 2 * i32::from(game.black_final) - 64;
                let theo_diff = 2 * i32::from(game.black_theoretical) - 64;
                let depth = u32::from(file.depth);
                let theo_ok = depth > 0 && game.black_theoretical <= 64;
                let out = match split {
                    Split::Train => &mut ds.train,
                    Split::Validation => &mut ds.validation,
                    Split::Test => &mut ds.test,
                };
                for pos in &positions {
                    let (b, black) = (pos.board, pos.side == Color::Black);
                    let e = b.empty_count();
                    let (diff, exact) = if theo_ok && e >= THEORETICAL_MIN_EMPTIES.min(depth) {
                        (theo_diff, e == depth)
                    } else {
                        (final_diff, false)
                    };
                    let label = if black { diff } else { -diff };
                    out.push(Sample::new(&b, label as i8, exact));
                }
            }
        }
        ds
    }
}

/// Merges the samples that are the same position up to the 8 symmetries into one, labelled
/// with the mean of their labels (rounded to the nearest disc; of the exact labels only, when
/// some are exact, and then exact). Deterministic self-play repeats whole games (every short
/// random opening that two games share leads to the same moves and the same final score), so
/// without this a handful of positions would weigh thousands of times; positions reached by
/// different games get the average of their results, a less noisy label. Keeps the first
/// occurrence's order; returns how many samples were merged away.
pub fn merge_symmetric(samples: &mut Vec<Sample>) -> usize {
    use std::collections::hash_map::Entry;
    let before = samples.len();
    /// Of one canonical position: its index in `out`, label sums and counts (game, exact).
    type Repeats = (usize, [i64; 2], [u32; 2]);
    let mut seen: std::collections::HashMap<(u64, u64), Repeats> =
        std::collections::HashMap::with_capacity(samples.len());
    let mut out: Vec<Sample> = Vec::with_capacity(samples.len());
    for s in samples.drain(..) {
        let e = usize::from(s.exact);
        match seen.entry(crate::testset::key(&s.board)) {
            Entry::Occupied(mut o) => {
                let (_, sum, n) = o.get_mut();
                sum[e] += i64::from(s.label);
                n[e] += 1;
            }
            Entry::Vacant(v) => {
                let (mut sum, mut n) = ([0; 2], [0; 2]);
                sum[e] = i64::from(s.label);
                n[e] = 1;
                v.insert((out.len(), sum, n));
                out.push(s);
            }
        }
    }
    for (i, sum, n) in seen.into_values() {
        let (sum, n, exact) = if n[1] > 0 {
            (sum[1], i64::from(n[1]), true)
        } else {
            (sum[0], i64::from(n[0]), false)
        };
        // round half away from zero, so that a symmetric pair of labels stays symmetric
        let mean = (2 * sum + sum.signum() * n) / (2 * n);
        out[i].label = mean.clamp(-64, 64) as i8;
        out[i].exact = exact;
    }
    let merged = before - out.len();
    *samples = out;
    merged
}

/// Errors reading a label file.
#[derive(Debug, thiserror::Error)]
pub enum LabelError {
    /// The file could not be read.
    #[error("cannot read label file {0}: {1}")]
    Io(PathBuf, std::io::Error),
    /// A line does not parse.
    #[error("{0}:{1}: expected `<64 squares X/O/-> <X|O> <score>` or an annotated OBF line")]
    Syntax(PathBuf, usize),
}

/// Reads a label file: one position a line, `<64 chars a1..h8: X black, O white, - empty>
/// <side to move X|O> <score from the side to move's view>`, optionally followed by a game
/// index and `exact`, `played` or `searched` (the lines of `ply-othello datagen`); `%` or `#`
/// starts a comment line. A sample is exact unless its line says `played` or `searched`. OBF lines
/// (`<board> <side>; <move>:<score>; ...`, as `ply-othello testset` writes) are read too, with
/// their best annotated score as an exact label.
///
/// # Errors
/// [`LabelError`] on I/O errors or a malformed line.
pub fn read_labels(path: &Path) -> Result<Vec<Sample>, LabelError> {
    let text = std::fs::read_to_string(path).map_err(|e| LabelError::Io(path.to_path_buf(), e))?;
    parse_labels(&text, path)
}

/// Parses the text of a label file (the format of [`read_labels`]); `path` names it in errors.
///
/// # Errors
/// [`LabelError::Syntax`] on the first malformed line.
pub fn parse_labels(text: &str, path: &Path) -> Result<Vec<Sample>, LabelError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') || line.starts_with('#') {
            continue;
        }
        let bad = || LabelError::Syntax(path.to_path_buf(), n + 1);
        if line.contains(';') {
            let obf = ply_othello::parse_obf_line(line).map_err(|_| bad())?;
            let (board, score) = obf
                .and_then(|o| Some((o.position.board, o.best_score()?)))
                .ok_or_else(bad)?;
            out.push(Sample::new(&board, score as i8, true));
            continue;
        }
        let mut it = line.split_whitespace();
        let (squares, side, score) = (
            it.next().ok_or_else(bad)?,
            it.next().ok_or_else(bad)?,
            it.next().ok_or_else(bad)?,
        );
        if squares.len() != 64 {
            return Err(bad());
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in squares.bytes().enumerate() {
            match c {
                b'X' | b'x' | b'*' => black |= 1 << i,
                b'O' | b'o' => white |= 1 << i,
                b'-' | b'.' => {}
                _ => return Err(bad()),
            }
        }
        let board = match side {
            "X" | "x" | "*" => Board::new(black, white),
            "O" | "o" => Board::new(white, black),
            _ => return Err(bad()),
        }
        .map_err(|_| bad())?;
        let score: i8 = score.parse().map_err(|_| bad())?;
        if !(-64..=64).contains(&score) {
            return Err(bad());
        }
        // `ply-othello datagen` lines go on with the game index and the kind of label
        let exact = match (it.next(), it.next().map(Kind::from_word)) {
            (None, _) => true,
            (Some(_), Some(Some(kind))) => kind == Kind::Exact,
            _ => return Err(bad()),
        };
        out.push(Sample::new(&board, score, exact));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_lines_parse() {
        let scratch = ply_testkit::Scratch::new("labels");
        let dir = scratch.file("labels.txt");
        std::fs::write(
            &dir,
            "% comment\n---------------------------OX------XO--------------------------- X 0\n",
        )
        .unwrap();
        let s = read_labels(&dir).unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].empties, 60);
        assert_eq!(s[0].board, Board::start());
        std::fs::write(
            &dir,
            "---------------------------OX------XO--------------------------- X -4 7 played\n\
             ---------------------------OX------XO--------------------------- X 2 7 exact\n\
             ---------------------------OX------XO--------------------------- X 3 7 searched\n",
        )
        .unwrap();
        let s = read_labels(&dir).unwrap();
        assert_eq!((s[0].exact, s[1].exact, s[2].exact), (false, true, false));
        assert_eq!(s[2].label, 3);
        std::fs::write(&dir, "---- X 0\n").unwrap();
        assert!(matches!(read_labels(&dir), Err(LabelError::Syntax(_, 1))));
        // an annotated OBF line gives its best score, exact; one without annotations is an error
        let obf = "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X";
        std::fs::write(&dir, format!("{obf}; G6:-2; H5:+6;\n")).unwrap();
        let s = read_labels(&dir).unwrap();
        assert_eq!((s[0].label, s[0].exact, s[0].empties), (6, true, 6));
        std::fs::write(&dir, format!("{obf};\n")).unwrap();
        assert!(matches!(read_labels(&dir), Err(LabelError::Syntax(_, 1))));
    }

    #[test]
    fn symmetric_repeats_merge_into_their_mean_label() {
        let mut b = Board::start();
        b.play(19); // d3
        let other = {
            let mut o = Board::start();
            o.play(37); // f5: the same position up to symmetry
            o
        };
        assert_ne!(b, other);
        let mut c = b;
        c.play(18); // c3, another position
        let mut samples = vec![
            Sample::new(&b, 4, false),
            Sample::new(&c, -7, false),
            Sample::new(&other, 9, false),
            Sample::new(&b, 2, false),
            Sample::new(&c, -8, false),
        ];
        assert_eq!(merge_symmetric(&mut samples), 3);
        assert_eq!(samples.len(), 2);
        // first occurrence's board and order; labels 4, 9, 2 -> 5; -7, -8 -> -7.5 -> -8
        assert_eq!((samples[0].board, samples[0].label), (b, 5));
        assert_eq!((samples[1].board, samples[1].label), (c, -8));
        assert!(!samples[0].exact);
        // an exact label outweighs any number of game results
        let mut samples = vec![
            Sample::new(&b, 10, false),
            Sample::new(&other, -2, true),
            Sample::new(&b, 10, false),
        ];
        assert_eq!(merge_symmetric(&mut samples), 2);
        assert_eq!((samples[0].label, samples[0].exact), (-2, true));
        // distinct positions stay as they are
        let mut samples = vec![Sample::new(&b, 1, true), Sample::new(&c, 3, false)];
        assert_eq!(merge_symmetric(&mut samples), 0);
        assert_eq!((samples[0].label, samples[1].label), (1, 3));
    }
}
