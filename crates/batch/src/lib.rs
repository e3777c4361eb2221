//! Sharded, resumable batch runs of independent, numbered games: what ply's data generators
//! (`ply-chess datagen`, `ply-othello datagen`) share.
//!
//! A run plays games `0..G` of a seed; a [`Shard`] `K/N` plays only those whose index is K
//! modulo N, so the shards together are exactly the unsharded run and can go to different
//! machines (`tools/cluster/run.py`). Each game appends its records, all at once and in game
//! order, to a file whose every record names its game: text lines ([`Framing::Lines`]) or
//! binary records of a fixed size ([`Framing::Fixed`]). [`run_games`] and [`run_framed`] on an
//! existing file resume it: the last game the file holds is cut off (its records may be
//! incomplete, and an unfinished last line or record goes with them) and played again, with the
//! games after it. [`run_framed`] can play games on several threads; they are still written in
//! index order (a reorder buffer holds the games that finish early), so the file is the same for
//! any number of threads as long as each game depends only on its index. The options that decide the games' content ([`RunParams`]) are recorded beside the
//! file ([`params_path`]), and a resume with other options is refused; nothing is removed
//! without the returned [`Resumed`] saying so, and a file that already holds the games asked for
//! is left as it is.
//!
//! Beside the runs, small things the tools and programs share: [`rng`], the seeded generators,
//! [`cputime`], the CPU clocks every measurement reads, and [`files`], whole-file writes
//! ([`write_atomically`]).
//!
//! ```
//! use ply_batch::{params_path, run_games, RunParams, Shard};
//! let dir = tempfile::tempdir().unwrap(); // removed, with the files, when dropped
//! let path = dir.path().join("games.txt");
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
//! assert!(params_path(&path).exists()); // the options recorded beside the file
//! ```
#![deny(missing_docs)]

pub mod cputime;
mod display;
pub mod files;
mod params;
pub mod rng;

pub use display::{progress_bar, RunBar};
pub use files::write_atomically;
pub use params::{params_path, ParamsRecord, RunParams};
pub use rng::splitmix;

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex};

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

/// How the records of a batch file are delimited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Framing {
    /// Text, one record a line, each line ending in `\n`.
    #[default]
    Lines,
    /// Binary records of this many bytes each (at least 1).
    Fixed(usize),
}

impl Framing {
    /// What a record is called in messages: `line` or `record`.
    pub fn unit(self) -> &'static str {
        match self {
            Framing::Lines => "line",
            Framing::Fixed(_) => "record",
        }
    }

    /// The number of records in `bytes` (whole lines, or whole records; a partial one counts).
    fn count(self, bytes: &[u8]) -> u64 {
        match self {
            Framing::Lines => bytes.iter().filter(|&&b| b == b'\n').count() as u64,
            Framing::Fixed(n) => bytes.len().div_ceil(n.max(1)) as u64,
        }
    }
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
    #[error(
        "{path} is not a data file of this command ({unit} {record}: {message}), not resuming it"
    )]
    NotData {
        /// The output file.
        path: PathBuf,
        /// `line` or `record`.
        unit: &'static str,
        /// 1-based number of the first bad line or record.
        record: u64,
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
    /// Records (lines of a text file) written by this run.
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
    /// The game whose records were cut off to be played again (they may have been
    /// incomplete), and how many records were removed with it (an unfinished last line or
    /// record included).
    pub replayed: Option<(u64, u64)>,
    /// Bytes of an unfinished last line or record that were cut off (0: none); counted in
    /// `replayed` too.
    pub truncated: u64,
    /// The file already held games up to this index, at or beyond the run's last: nothing was
    /// played and nothing removed.
    pub beyond: Option<u64>,
    /// How the parameter record stood.
    pub params: ParamsRecord,
    /// How the file's records are delimited.
    pub framing: Framing,
}

impl Resumed {
    /// What a program should tell its user about the file `out` before playing, if anything:
    /// records removed, games already there beyond the run's end, a record written for a file
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
        let unit = self.framing.unit();
        if let Some((game, n)) = self.replayed {
            let tail = match (self.truncated, self.framing) {
                (0, _) => String::new(),
                (t, Framing::Fixed(size)) => {
                    format!("; the last record was truncated ({t} of {size} bytes)")
                }
                (t, Framing::Lines) => format!("; the last line was unfinished ({t} bytes)"),
            };
            parts.push(format!(
                "resuming {} after {} games: removed the {n} {unit}(s) of game {game} (possibly \
                 incomplete){tail} to play it again",
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

/// The last game of a scanned file: where its first record starts, its index, its records.
#[derive(Clone, Copy, Debug)]
struct LastGame {
    offset: u64,
    game: u64,
    records: u64,
}

/// What a pass over an existing file found.
#[derive(Debug, Default)]
struct Scan {
    last: Option<LastGame>,
    /// The first game of another shard.
    foreign: Option<u64>,
    /// Bytes after the last complete record.
    tail: u64,
}

enum ScanError {
    /// 1-based record number and why `game_of` refused it.
    Record(u64, String),
    Io(std::io::Error),
}

/// Reads the records of `reader` one by one (memory does not grow with the file), naming each
/// one's game with `game_of` (a line is given without its `\n`).
fn scan(
    reader: &mut impl Read,
    framing: Framing,
    game_of: impl Fn(&[u8]) -> Result<u64, String>,
    shard: Shard,
) -> Result<Scan, ScanError> {
    let mut reader = BufReader::with_capacity(1 << 16, reader);
    let mut found = Scan::default();
    let mut offset = 0u64;
    let mut number = 0u64;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let complete = match framing {
            Framing::Lines => {
                reader.read_until(b'\n', &mut buf).map_err(ScanError::Io)?;
                buf.last() == Some(&b'\n')
            }
            Framing::Fixed(size) => {
                (&mut reader)
                    .take(size.max(1) as u64)
                    .read_to_end(&mut buf)
                    .map_err(ScanError::Io)?;
                buf.len() == size.max(1)
            }
        };
        if !complete {
            found.tail = buf.len() as u64;
            return Ok(found);
        }
        number += 1;
        let record = match framing {
            Framing::Lines => &buf[..buf.len() - 1],
            Framing::Fixed(_) => &buf[..],
        };
        let game = game_of(record).map_err(|m| ScanError::Record(number, m))?;
        if !shard.owns(game) && found.foreign.is_none() {
            found.foreign = Some(game);
        }
        match &mut found.last {
            Some(last) if last.game == game => last.records += 1,
            last => {
                *last = Some(LastGame {
                    offset,
                    game,
                    records: 1,
                })
            }
        }
        offset += buf.len() as u64;
    }
}

/// Where a run writes: the file, how its records are delimited, the parameters recorded beside
/// it, and how many threads play its games.
#[derive(Clone, Copy, Debug)]
pub struct Output<'a> {
    /// The data file (resumed when it exists).
    pub path: &'a Path,
    /// How its records are delimited.
    pub framing: Framing,
    /// The options that decide the games, recorded beside the file ([`params_path`]).
    pub params: &'a RunParams,
    /// Threads playing games at once (at least 1; 0 counts as 1). The file does not depend on it.
    pub threads: usize,
}

/// Plays the games `0..games` of `shard` with `play` (which returns a game's records, in the
/// framing of `out`, and whatever the caller wants to tally) and appends them to `out.path`,
/// resuming after the games an existing file holds; `each` gets every played game's tally and
/// the progress after it, in game order (it is first called with no tally, for the starting
/// point). With `out.threads` above 1 the games are played on that many threads and written in
/// index order, so the file is the same whatever the thread count. `game_of` names the game of
/// one record of an existing file (a line without its `\n`, or `size` bytes). Returns how the
/// file was found (games already done, records removed).
///
/// # Errors
/// I/O errors on the file and its record, an existing file with a record `game_of` refuses,
/// that holds another shard's games or that was written with other parameters; the file is left
/// as it was in each case.
pub fn run_framed<T: Send>(
    shard: Shard,
    games: u64,
    out: &Output<'_>,
    game_of: impl Fn(&[u8]) -> Result<u64, String>,
    play: impl Fn(u64) -> (Vec<u8>, T) + Sync,
    each: impl FnMut(Option<&T>, &Progress),
) -> Result<Resumed, BatchError> {
    let threads = out.threads.max(1);
    drive(shard, games, out, game_of, each, |todo, sink| {
        if threads == 1 || todo.len() < 2 {
            for &g in todo {
                let (bytes, tally) = play(g);
                sink(bytes, tally)?;
            }
            Ok(())
        } else {
            play_parallel(todo, threads, &play, sink)
        }
    })
}

/// Stack of a worker thread: a game's search recurses deeply (the chess engine gives its own
/// search threads the same).
const WORKER_STACK: usize = 16 << 20;

/// Plays `todo` on `threads` threads and hands the games to `sink` in the order of `todo`; at
/// most a few games a thread wait in the reorder buffer. A thread that cannot be started leaves
/// fewer workers (none: the games are played on the calling thread). A failing `sink` stops the handing out
/// of games (the games under way are finished and dropped); a game that panics stops the run
/// the same way, then its panic goes on up, as it would have with one thread.
fn play_parallel<T: Send>(
    todo: &[u64],
    threads: usize,
    play: &(impl Fn(u64) -> (Vec<u8>, T) + Sync),
    sink: &mut dyn FnMut(Vec<u8>, T) -> Result<(), BatchError>,
) -> Result<(), BatchError> {
    type Played<T> = std::thread::Result<(Vec<u8>, T)>;
    let window = 4 * threads;
    let (job_tx, job_rx) = mpsc::channel::<usize>();
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, Played<T>)>();
    let mut panicked = None;
    let mut started = 0;
    let outcome = std::thread::scope(|scope| {
        for _ in 0..threads {
            let (job_rx, done_tx) = (&job_rx, done_tx.clone());
            let worker = std::thread::Builder::new().stack_size(WORKER_STACK);
            let spawned = worker.spawn_scoped(scope, move || loop {
                let job = match job_rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                let Ok(i) = job else { return };
                let played =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| play(todo[i])));
                if done_tx.send((i, played)).is_err() {
                    return;
                }
            });
            started += usize::from(spawned.is_ok());
        }
        drop(done_tx);
        if started == 0 {
            // no thread could be started: play here, one game after the other
            for &g in todo {
                let (bytes, tally) = play(g);
                sink(bytes, tally)?;
            }
            return Ok(());
        }
        let mut sent = 0;
        while sent < todo.len().min(window) {
            let _ = job_tx.send(sent);
            sent += 1;
        }
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        while next < todo.len() {
            let Ok((i, played)) = done_rx.recv() else {
                break;
            };
            match played {
                Ok(game) => waiting.insert(i, game),
                Err(payload) => {
                    panicked = Some(payload);
                    break;
                }
            };
            while let Some((bytes, tally)) = waiting.remove(&next) {
                sink(bytes, tally)?;
                next += 1;
                if sent < todo.len() {
                    let _ = job_tx.send(sent);
                    sent += 1;
                }
            }
        }
        // dropping `job_tx` here (also on the early returns) lets the workers end
        drop(job_tx);
        Ok(())
    });
    if let Some(payload) = panicked {
        std::panic::resume_unwind(payload);
    }
    outcome
}

/// Plays the games `0..games` of `shard` with `play` (which returns a game's lines, each
/// ending in a newline, and whatever the caller wants to tally) and appends them to `out`,
/// resuming after the games an existing `out` holds; `each` gets every played game's tally and
/// the progress after it (it is first called with no tally, for the starting point).
/// `params` are recorded beside a new `out` and checked against the record of an existing one.
/// Returns how the file was found (games already done, lines removed). One game at a time:
/// [`run_framed`] plays several at once.
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
    each: impl FnMut(Option<&T>, &Progress),
) -> Result<Resumed, BatchError> {
    let output = Output {
        path: out,
        framing: Framing::Lines,
        params,
        threads: 1,
    };
    drive(
        shard,
        games,
        &output,
        text_game_of(game_of),
        each,
        |todo, sink| {
            for &g in todo {
                let (text, tally) = play(g);
                sink(text.into_bytes(), tally)?;
            }
            Ok(())
        },
    )
}

/// A `game_of` for the lines of a text file: UTF-8, trailing white space ignored.
pub fn text_game_of(
    game_of: impl Fn(&str) -> Result<u64, String>,
) -> impl Fn(&[u8]) -> Result<u64, String> {
    move |line: &[u8]| {
        let line = std::str::from_utf8(line).map_err(|e| format!("not UTF-8: {e}"))?;
        game_of(line.trim_end())
    }
}

/// The body every run shares: finds the resume point, then lets `produce` play the games of
/// the shard left to play, in order, handing each to the sink, which appends it to the file
/// and reports the progress.
fn drive<T>(
    shard: Shard,
    games: u64,
    out: &Output<'_>,
    game_of: impl Fn(&[u8]) -> Result<u64, String>,
    mut each: impl FnMut(Option<&T>, &Progress),
    produce: impl FnOnce(
        &[u64],
        &mut dyn FnMut(Vec<u8>, T) -> Result<(), BatchError>,
    ) -> Result<(), BatchError>,
) -> Result<Resumed, BatchError> {
    let path = out.path;
    let io = |source| BatchError::Io {
        path: path.to_path_buf(),
        source,
    };
    let (first, mut resumed) = resume(out, shard, games, &game_of)?;
    let mut file = OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(io)?;
    let owned = |range: std::ops::Range<u64>| range.filter(|&g| shard.owns(g)).count() as u64;
    let mut state = Progress {
        done: owned(0..first.min(games)),
        total: owned(0..games),
        lines: 0,
        notice: None,
    };
    resumed.games = state.done;
    state.notice = resumed.notice(path);
    each(None, &state);
    state.notice = None;
    let todo: Vec<u64> = (first..games).filter(|&g| shard.owns(g)).collect();
    let framing = out.framing;
    produce(&todo, &mut |bytes: Vec<u8>, tally: T| {
        file.write_all(&bytes).map_err(io)?;
        file.flush().map_err(io)?;
        state.done += 1;
        state.lines += framing.count(&bytes);
        each(Some(&tally), &state);
        Ok(())
    })?;
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
/// game the file holds, whose records are cut off, unless that game is at or beyond `games`
/// (then nothing is cut and nothing will be played). A file holding any game of another shard,
/// or written with other parameters, is refused before anything is changed.
fn resume(
    out: &Output<'_>,
    shard: Shard,
    games: u64,
    game_of: &impl Fn(&[u8]) -> Result<u64, String>,
) -> Result<(u64, Resumed), BatchError> {
    let path = out.path;
    let io = |source| BatchError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut resumed = Resumed {
        framing: out.framing,
        ..Resumed::default()
    };
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            resumed.params = params::check_or_record(path, out.params, false)?;
            return Ok((0, resumed));
        }
        Err(e) => return Err(io(e)),
    };
    let len = file.metadata().map_err(io)?.len();
    if len > 0 {
        params::check_recorded(path, out.params)?;
    }
    let found = scan(&mut file, out.framing, game_of, shard).map_err(|e| match e {
        ScanError::Io(e) => io(e),
        ScanError::Record(record, message) => BatchError::NotData {
            path: path.to_path_buf(),
            unit: out.framing.unit(),
            record,
            message,
        },
    })?;
    if let Some(game) = found.foreign {
        return Err(BatchError::OtherShard {
            path: path.to_path_buf(),
            game,
            shard: shard.index,
            count: shard.count,
        });
    }
    resumed.params = params::check_or_record(path, out.params, len > 0)?;
    let (keep, first, records) = found
        .last
        .map_or((0, 0, 0), |l| (l.offset, l.game, l.records));
    if found.last.is_some() && first >= games {
        resumed.beyond = Some(first);
        return Ok((first, resumed));
    }
    let removed = records + u64::from(found.tail > 0);
    if removed > 0 {
        let file = OpenOptions::new().write(true).open(path).map_err(io)?;
        file.set_len(keep).map_err(io)?;
        resumed.replayed = Some((first, removed));
        resumed.truncated = found.tail;
    }
    Ok((first, resumed))
}

#[cfg(test)]
mod tests;
