//! Sharded, resumable batch runs of independent, numbered games: what ply's data generators
//! (`ply-chess datagen`, `ply-othello datagen`) share.
//!
//! A run plays games `0..G` of a seed; a [`Shard`] `K/N` plays only those whose index is K
//! modulo N, so the shards together are exactly the unsharded run and can go to different
//! machines (`tools/cluster/run.py`). Each game appends its lines, all at once, to a text file
//! whose every line names its game; [`run_games`] on an existing file resumes it: the last game
//! the file holds is cut off (its lines may be incomplete) and played again, with the games
//! after it. The options that decide the games' content ([`RunParams`]) are recorded beside the
//! file ([`params_path`]), and a resume with other options is refused; nothing is removed
//! without the returned [`Resumed`] saying so, and a file that already holds the games asked for
//! is left as it is.
//!
//! ```
//! use ply_batch::{params_path, run_games, RunParams, Shard};
//! let path = std::env::temp_dir().join(format!("ply-batch-doc-{}.txt", std::process::id()));
//! let _ = std::fs::remove_file(&path);
//! let _ = std::fs::remove_file(params_path(&path));
//! // every game writes one line `game;square of the game index`
//! let game_of = |line: &str| line.split(';').next().unwrap().parse::<u64>().map_err(|e| e.to_string());
//! let play = |g: u64| (format!("{g};{}\n", g * g), ());
//! let shard: Shard = "1/2".parse().unwrap();
//! let params = RunParams::new().with("seed", 1);
//! let resumed = run_games(shard, 6, &path, &params, game_of, play, |_, _| {}).unwrap();
//! assert_eq!(resumed.games, 0);
//! assert_eq!(std::fs::read_to_string(&path).unwrap(), "1;1\n3;9\n5;25\n");
//! // the same run with another seed is refused, and the file is left as it was
//! let other = RunParams::new().with("seed", 2);
//! assert!(run_games(shard, 6, &path, &other, game_of, play, |_, _| {}).is_err());
//! # std::fs::remove_file(&path).unwrap();
//! # std::fs::remove_file(params_path(&path)).unwrap();
//! ```
#![deny(missing_docs)]

mod display;
mod params;
pub mod rng;

pub use display::{progress_bar, RunBar};
pub use params::{params_path, ParamsRecord, RunParams};
pub use rng::splitmix;

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The games of a run: those whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, below `count`.
    pub index: u64,
    /// N, at least 1.
    pub count: u64,
}

impl Shard {
    /// The whole run (0/1).
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether game `game` belongs to this shard.
    pub fn owns(self, game: u64) -> bool {
        game % self.count == self.index
    }
}

impl std::str::FromStr for Shard {
    type Err = BatchError;

    /// `K/N` with K < N.
    fn from_str(s: &str) -> Result<Shard, BatchError> {
        let bad = || BatchError::Shard(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index = k.trim().parse().map_err(|_| bad())?;
        let count = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// The seed of game `game` of a run seeded `seed`: the same whichever shard plays the game, and
/// unrelated for neighbouring games.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    splitmix(seed ^ splitmix(game))
}

/// Why a batch run stopped.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// A shard that is not `K/N` with K < N.
    #[error("bad shard {0:?}: expected K/N with 0 <= K < N")]
    Shard(String),
    /// The output file could not be read, written or truncated.
    #[error("{path}: {source}")]
    Io {
        /// The output file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The existing output is not a file of this kind.
    #[error("{path} is not a data file of this command (line {line}: {message}), not resuming it")]
    NotData {
        /// The output file.
        path: PathBuf,
        /// 1-based number of the first bad line.
        line: usize,
        /// Why it is not a record.
        message: String,
    },
    /// The existing output was written by a run with other parameters.
    #[error(
        "{path} was written with other options ({differences}); give the same options to resume \
         it, or write to another file"
    )]
    OtherRun {
        /// The output file.
        path: PathBuf,
        /// What differs, `key: recorded, given` separated by `; `.
        differences: String,
    },
    /// The parameter record beside the output is not one.
    #[error("{path}: line {line} is not `key=value`; not resuming")]
    BadParams {
        /// The record file.
        path: PathBuf,
        /// 1-based number of the bad line.
        line: usize,
    },
    /// The existing output holds a game of another shard.
    #[error("{path} holds game {game}, which is not in shard {shard}/{count}")]
    OtherShard {
        /// The output file.
        path: PathBuf,
        /// The game found.
        game: u64,
        /// This run's K.
        shard: u64,
        /// This run's N.
        count: u64,
    },
}

/// Progress of a run, after each game.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Games of the shard done, those of an earlier run included.
    pub done: u64,
    /// Games of the shard in all.
    pub total: u64,
    /// Lines written by this run.
    pub lines: u64,
    /// At the starting point only: what the program should tell its user about the existing
    /// output ([`Resumed::notice`]).
    pub notice: Option<String>,
}

/// How a run found its output file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resumed {
    /// Games of the shard found done in the file and not played again.
    pub games: u64,
    /// The game whose lines were cut off to be played again (its lines may have been
    /// incomplete), and how many lines were removed with it (an unfinished last line included).
    pub replayed: Option<(u64, u64)>,
    /// The file already held games up to this index, at or beyond the run's last: nothing was
    /// played and nothing removed.
    pub beyond: Option<u64>,
    /// How the parameter record stood.
    pub params: ParamsRecord,
}

impl Resumed {
    /// What a program should tell its user about the file `out` before playing, if anything:
    /// lines removed, games already there beyond the run's end, a record written for a file
    /// that had none.
    pub fn notice(&self, out: &Path) -> Option<String> {
        let mut parts = Vec::new();
        if self.params == ParamsRecord::Adopted {
            parts.push(format!(
                "{} had no record of its run's options; recorded this run's in {} (unchecked)",
                out.display(),
                params_path(out).display()
            ));
        }
        if let Some((game, lines)) = self.replayed {
            parts.push(format!(
                "resuming {} after {} games: removed the {lines} line(s) of game {game} (possibly \
                 incomplete) to play it again",
                out.display(),
                self.games
            ));
        }
        if let Some(last) = self.beyond {
            parts.push(format!(
                "{} already holds games up to {last}, at or beyond this run's end: nothing played, \
                 nothing removed",
                out.display()
            ));
        }
        (!parts.is_empty()).then(|| parts.join("\n"))
    }
}

/// Where to resume a file whose text is `text`, each line naming its game through `game_of`:
/// the byte length to keep and the first game to play again. The last game found is played
/// again (its lines may be incomplete), so its lines are dropped; so is an unfinished last
/// line. `None` for a file without a complete line.
///
/// # Errors
/// The 1-based number of the first complete line `game_of` refuses, with its message.
pub fn resume_point(
    text: &str,
    game_of: impl Fn(&str) -> Result<u64, String>,
) -> Result<Option<(usize, u64)>, (usize, String)> {
    let mut last: Option<(usize, u64)> = None;
    let mut offset = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if !line.ends_with('\n') {
            break;
        }
        let game = game_of(line.trim_end()).map_err(|m| (n + 1, m))?;
        if last.is_none_or(|(_, g)| g != game) {
            last = Some((offset, game));
        }
        offset += line.len();
    }
    Ok(last)
}

/// Plays the games `0..games` of `shard` with `play` (which returns a game's lines, each
/// ending in a newline, and whatever the caller wants to tally) and appends them to `out`,
/// resuming after the games an existing `out` holds; `each` gets every played game's tally and
/// the progress after it (it is first called with no tally, for the starting point).
/// `params` are recorded beside a new `out` and checked against the record of an existing one.
/// Returns how the file was found (games already done, lines removed).
///
/// # Errors
/// I/O errors on `out` and its record, an existing `out` whose lines `game_of` refuses, that
/// holds another shard's games or that was written with other parameters; the file is left as
/// it was in each case.
pub fn run_games<T>(
    shard: Shard,
    games: u64,
    out: &Path,
    params: &RunParams,
    game_of: impl Fn(&str) -> Result<u64, String>,
    mut play: impl FnMut(u64) -> (String, T),
    mut each: impl FnMut(Option<&T>, &Progress),
) -> Result<Resumed, BatchError> {
    let io = |source| BatchError::Io {
        path: out.to_path_buf(),
        source,
    };
    let (first, mut resumed) = resume(out, shard, games, params, &game_of)?;
    let mut file = OpenOptions::new()
        .append(true)
        .create(true)
        .open(out)
        .map_err(io)?;
    let owned = |range: std::ops::Range<u64>| range.filter(|&g| shard.owns(g)).count() as u64;
    let mut state = Progress {
        done: owned(0..first.min(games)),
        total: owned(0..games),
        lines: 0,
        notice: None,
    };
    resumed.games = state.done;
    state.notice = resumed.notice(out);
    each(None, &state);
    state.notice = None;
    for g in (first..games).filter(|&g| shard.owns(g)) {
        let (text, tally) = play(g);
        file.write_all(text.as_bytes()).map_err(io)?;
        file.flush().map_err(io)?;
        state.done += 1;
        state.lines += text.matches('\n').count() as u64;
        each(Some(&tally), &state);
    }
    Ok(resumed)
}

/// One line of a batch file: it reads back from its `Display` text and names its game.
pub trait Record: std::fmt::Display + std::str::FromStr<Err: std::fmt::Display> {
    /// The index of the game the line belongs to.
    fn game(&self) -> u64;
}

/// [`run_games`] for games that produce [`Record`]s: `play` plays a game, `records` gives its
/// lines (one record a line), `each` sees the progress first with no game, then after every
/// played game with it.
///
/// # Errors
/// As [`run_games`].
pub fn run_records<R: Record, G>(
    shard: Shard,
    games: u64,
    out: &Path,
    params: &RunParams,
    mut play: impl FnMut(u64) -> G,
    records: impl Fn(&G) -> &[R],
    each: impl FnMut(Option<&G>, &Progress),
) -> Result<Resumed, BatchError> {
    let game_of = |line: &str| {
        line.parse::<R>()
            .map(|r| r.game())
            .map_err(|e| e.to_string())
    };
    let play = |g: u64| {
        let game = play(g);
        let text: String = records(&game).iter().map(|r| format!("{r}\n")).collect();
        (text, game)
    };
    run_games(shard, games, out, params, game_of, play, each)
}

/// The first game to play for `out` and how the file was found: 0 for a new file, else the last
/// game the file holds, whose lines are cut off, unless that game is at or beyond `games` (then
/// nothing is cut and nothing will be played). A file holding any game of another shard, or
/// written with other parameters, is refused before anything is changed.
fn resume(
    out: &Path,
    shard: Shard,
    games: u64,
    params: &RunParams,
    game_of: &impl Fn(&str) -> Result<u64, String>,
) -> Result<(u64, Resumed), BatchError> {
    let io = |source| BatchError::Io {
        path: out.to_path_buf(),
        source,
    };
    let mut resumed = Resumed {
        games: 0,
        replayed: None,
        beyond: None,
        params: ParamsRecord::Written,
    };
    let text = match std::fs::read_to_string(out) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            resumed.params = params::check_or_record(out, params, false)?;
            return Ok((0, resumed));
        }
        Err(e) => return Err(io(e)),
    };
    let point = resume_point(&text, game_of).map_err(|(line, message)| BatchError::NotData {
        path: out.to_path_buf(),
        line,
        message,
    })?;
    let (keep, first) = point.unwrap_or((0, 0));
    // every game already there must be this shard's (resume_point has checked each line)
    let foreign = text[..keep]
        .lines()
        .filter_map(|line| game_of(line).ok())
        .chain(point.map(|(_, g)| g))
        .find(|&g| !shard.owns(g));
    if let Some(game) = foreign {
        return Err(BatchError::OtherShard {
            path: out.to_path_buf(),
            game,
            shard: shard.index,
            count: shard.count,
        });
    }
    resumed.params = params::check_or_record(out, params, !text.is_empty())?;
    if point.is_some() && first >= games {
        resumed.beyond = Some(first);
        return Ok((first, resumed));
    }
    let removed = text[keep..].split_inclusive('\n').count() as u64;
    if removed > 0 {
        let file = OpenOptions::new().write(true).open(out).map_err(io)?;
        file.set_len(keep as u64).map_err(io)?;
        resumed.replayed = Some((first, removed));
    }
    Ok((first, resumed))
}

#[cfg(test)]
mod tests;
