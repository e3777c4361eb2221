//! Book jobs on files: a book in ply's format ([`ply_othello_engine::book`]) grown by a plan of
//! steps that survives an interruption.
//!
//! A [`BookJob`] holds the book of `FILE` and the steps still to run, kept beside it in
//! `FILE.plan` while a job is under way. [`BookJob::run`] runs the steps with an engine and
//! saves the book and the remaining plan every few steps (each file written to a temporary name
//! and renamed, so a kill leaves the last saved pair). Opening a book whose plan file exists
//! resumes that plan first: as every step clears the engine's tables before it searches, the
//! resumed job ends with the same book as one that was never interrupted.
//! [`BookJob::run_on`] shares the searches among several engines (one thread each) and makes
//! the same book as one engine does.
//!
//! The plan file is text: a first line `# ply-othello book plan`, then one step a line, `add P O`
//! or `leaf P O` with the mover's and the opponent's discs as 16 hexadecimal digits.
//!
//! **Searches made elsewhere.** The searches a pending plan needs
//! ([`BookJob::planned_searches`]) can be made on other machines, a share each
//! ([`run_searches`]), written as text ([`searches_to_text`]: a first line
//! `# ply-othello book searches`, then `P O MOVES LEVEL BEST SCORE` a line, the board and the
//! moves searched as 16 hexadecimal digits, `BEST` a square such as `f5` or `-` when the search
//! found none) and handed to the job ([`BookJob::add_known`]) before it runs: the book is the
//! same as when every search is made in the job.

use ply_othello::Board;
use ply_othello_engine::book::{Book, BookError, BuildProgress, LeafResult, LeafSearch, Step};
use ply_othello_engine::Engine;
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use thiserror::Error;

/// The first line of a plan file.
const PLAN_HEADER: &str = "# ply-othello book plan";
/// The first line of a file of searches.
const SEARCHES_HEADER: &str = "# ply-othello book searches";

/// Errors of a book job.
#[derive(Debug, Error)]
pub enum BookJobError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The book file is malformed.
    #[error("{path}: {source}")]
    Book {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: BookError,
    },
    /// The plan file is malformed.
    #[error("{path} line {line}: {reason}")]
    Plan {
        /// The plan file.
        path: PathBuf,
        /// Its line, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// The plan file of the book `path`: `path` with `.plan` added.
pub fn plan_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".plan");
    PathBuf::from(name)
}

/// The text of a plan (see the [module documentation](self)).
pub fn plan_to_text<'a>(steps: impl IntoIterator<Item = &'a Step>) -> String {
    let mut text = format!("{PLAN_HEADER}\n");
    for step in steps {
        let (kind, b) = match step {
            Step::Add(b) => ("add", b),
            Step::Leaf(b) => ("leaf", b),
        };
        text.push_str(&format!(
            "{kind} {:016x} {:016x}\n",
            b.player(),
            b.opponent()
        ));
    }
    text
}

/// Reads a plan written by [`plan_to_text`]; `Err((line, reason))` for a bad line.
pub fn plan_from_text(text: &str) -> Result<Vec<Step>, (usize, String)> {
    let mut steps = Vec::new();
    for (n, line) in body_lines(text, PLAN_HEADER)? {
        let bad = |reason: String| (n, reason);
        let words: Vec<&str> = line.split_whitespace().collect();
        let [kind, p, o] = words[..] else {
            return Err(bad("expected `add|leaf PLAYER OPPONENT`".into()));
        };
        let board = hex_board(p, o, n)?;
        steps.push(match kind {
            "add" => Step::Add(board),
            "leaf" => Step::Leaf(board),
            other => return Err(bad(format!("unknown step `{other}`"))),
        });
    }
    Ok(steps)
}

/// The lines after the first, which must be `header`, with their numbers (from 1), trimmed,
/// blank ones left out.
fn body_lines<'a>(
    text: &'a str,
    header: &str,
) -> Result<impl Iterator<Item = (usize, &'a str)>, (usize, String)> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, first)) if first.trim() == header => {}
        _ => return Err((1, format!("the first line must be `{header}`"))),
    }
    Ok(lines
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty()))
}

/// A number of 16 hexadecimal digits on line `n`.
fn hex(s: &str, n: usize) -> Result<u64, (usize, String)> {
    u64::from_str_radix(s, 16).map_err(|e| (n, format!("{s}: {e}")))
}

/// The board of the mover's discs `p` and the opponent's `o` (hexadecimal) on line `n`.
fn hex_board(p: &str, o: &str, n: usize) -> Result<Board, (usize, String)> {
    Board::new(hex(p, n)?, hex(o, n)?).map_err(|e| (n, e.to_string()))
}

/// The text of search results (see the [module documentation](self)).
pub fn searches_to_text<'a>(
    results: impl IntoIterator<Item = &'a (LeafSearch, LeafResult)>,
) -> String {
    let mut text = format!("{SEARCHES_HEADER}\n");
    for (search, result) in results {
        let (best, score) = match result {
            Some((sq, score)) => (sq.to_string().to_ascii_lowercase(), *score),
            None => ("-".to_string(), 0),
        };
        text.push_str(&format!(
            "{:016x} {:016x} {:016x} {} {best} {score}\n",
            search.board.player(),
            search.board.opponent(),
            search.moves,
            search.level,
        ));
    }
    text
}

/// Reads search results written by [`searches_to_text`]; `Err((line, reason))` for a bad line
/// (a board that is not one, moves that are not legal there, a level above 60, a best move
/// not among the moves searched, a score beyond ±64).
pub fn searches_from_text(text: &str) -> Result<Vec<(LeafSearch, LeafResult)>, (usize, String)> {
    let mut out = Vec::new();
    for (n, line) in body_lines(text, SEARCHES_HEADER)? {
        let bad = |reason: String| (n, reason);
        let words: Vec<&str> = line.split_whitespace().collect();
        let [p, o, moves, level, best, score] = words[..] else {
            return Err(bad(
                "expected `PLAYER OPPONENT MOVES LEVEL BEST SCORE`".into()
            ));
        };
        let board = hex_board(p, o, n)?;
        let moves = hex(moves, n)?;
        if moves == 0 || moves & !board.moves() != 0 {
            return Err(bad(format!("{moves:016x} are not legal moves there")));
        }
        let level: u8 = level
            .parse()
            .ok()
            .filter(|&l| l <= 60)
            .ok_or_else(|| bad(format!("level {level} is not 0..=60")))?;
        let score: i32 = score
            .parse()
            .ok()
            .filter(|s: &i32| s.abs() <= 64)
            .ok_or_else(|| bad(format!("score {score} is not -64..=64")))?;
        let result = if best == "-" {
            None
        } else {
            let sq: ply_othello::Square = best.parse().map_err(|e| bad(format!("{best}: {e}")))?;
            if sq.is_pass() || moves & sq.bit() == 0 {
                return Err(bad(format!("{best} is not among the moves searched")));
            }
            Some((sq, score))
        };
        out.push((
            LeafSearch {
                board,
                moves,
                level,
            },
            result,
        ));
    }
    Ok(out)
}

/// Makes `searches` on `engines` at once (one thread an engine, each taking the next search
/// not yet taken; give each engine one search thread and the same weights and table size):
/// every search that finished before `stop` was set, by search.
pub fn run_searches(
    searches: &[LeafSearch],
    engines: &mut [Engine],
    stop: &AtomicBool,
) -> HashMap<LeafSearch, LeafResult> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(HashMap::new());
    std::thread::scope(|scope| {
        for engine in engines.iter_mut() {
            let (next, results) = (&next, &results);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(search) = searches.get(i) else {
                    break;
                };
                let Some(result) = search.run(engine, stop) else {
                    break; // stopped
                };
                results
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .insert(*search, result);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Writes `bytes` to `path` whole ([`ply_batch::write_atomically`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), BookJobError> {
    ply_batch::write_atomically(path, bytes).map_err(|source| BookJobError::Io {
        path: path.to_owned(),
        source,
    })
}

/// Reads a book file in any form [`Book::from_any`] knows.
pub fn read_book(path: &Path) -> Result<Book, BookJobError> {
    let bytes = std::fs::read(path).map_err(|source| BookJobError::Io {
        path: path.to_owned(),
        source,
    })?;
    Book::from_any(&bytes).map_err(|source| BookJobError::Book {
        path: path.to_owned(),
        source,
    })
}

/// A book file and the steps still to run on it (see the [module documentation](self)).
#[derive(Debug)]
pub struct BookJob {
    path: PathBuf,
    /// The book.
    pub book: Book,
    plan: VecDeque<Step>,
    /// Searches made elsewhere ([`BookJob::add_known`]), used while the plan runs.
    known: HashMap<LeafSearch, LeafResult>,
    /// How many steps took their search from `known`.
    used_known: usize,
    /// Searches the steps run so far needed (taken from `known` or made).
    searches: usize,
    /// Save the book and the plan after this many searches (and at the end).
    pub save_every: usize,
}

impl BookJob {
    /// A job on a new, empty book of `level` at `path` (nothing is written until a save).
    pub fn create(path: &Path, level: u8) -> BookJob {
        BookJob {
            path: path.to_owned(),
            book: Book::new(level),
            plan: VecDeque::new(),
            known: HashMap::new(),
            used_known: 0,
            searches: 0,
            save_every: 20,
        }
    }

    /// The job on the book at `path` (any form [`Book::from_any`] reads; it is saved in ply's
    /// own form), with the plan left in `path.plan` by an interrupted job, if any.
    pub fn open(path: &Path) -> Result<BookJob, BookJobError> {
        let book = read_book(path)?;
        let plan_file = plan_path(path);
        let plan = match std::fs::read_to_string(&plan_file) {
            Ok(text) => plan_from_text(&text).map_err(|(line, reason)| BookJobError::Plan {
                path: plan_file.clone(),
                line,
                reason,
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(source) => {
                return Err(BookJobError::Io {
                    path: plan_file,
                    source,
                })
            }
        };
        Ok(BookJob {
            path: path.to_owned(),
            book,
            plan: plan.into(),
            known: HashMap::new(),
            used_known: 0,
            searches: 0,
            save_every: 20,
        })
    }

    /// The book's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Steps still to run.
    pub fn pending(&self) -> usize {
        self.plan.len()
    }

    /// Appends steps to the plan.
    pub fn push(&mut self, steps: impl IntoIterator<Item = Step>) {
        self.plan.extend(steps);
    }

    /// The searches the pending plan needs, each once, in the order of its steps
    /// ([`Book::plan_searches`]): what other machines can search for this job.
    pub fn planned_searches(&self) -> Vec<LeafSearch> {
        let steps: Vec<Step> = self.plan.iter().copied().collect();
        let mut seen = HashSet::new();
        self.book
            .plan_searches(&steps)
            .into_iter()
            .flatten()
            .filter(|s| seen.insert(*s))
            .collect()
    }

    /// How many searches the steps run so far needed, made or taken from
    /// [`BookJob::add_known`]'s.
    pub fn searches_made(&self) -> usize {
        self.searches
    }

    /// How many steps run so far took their search from those of [`BookJob::add_known`].
    pub fn used_known(&self) -> usize {
        self.used_known
    }

    /// Search results made elsewhere (e.g. by [`run_searches`] on other machines) for the
    /// steps of the plan: a step that needs one of them takes it instead of searching, a step
    /// that needs another search makes it. They are forgotten when the plan is done.
    pub fn add_known(&mut self, results: impl IntoIterator<Item = (LeafSearch, LeafResult)>) {
        self.known.extend(results);
    }

    /// Writes the book and the plan (the plan file is removed when the plan is empty).
    pub fn save(&self) -> Result<(), BookJobError> {
        write_atomic(&self.path, &self.book.to_bytes())?;
        let plan_file = plan_path(&self.path);
        if self.plan.is_empty() {
            match std::fs::remove_file(&plan_file) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(BookJobError::Io {
                        path: plan_file,
                        source: e,
                    })
                }
                _ => {}
            }
            Ok(())
        } else {
            write_atomic(&plan_file, plan_to_text(&self.plan).as_bytes())
        }
    }

    /// Runs the plan with `engine` until it is empty or `stop` is set, saving every
    /// [`save_every`](Self::save_every) searches and at the end; then, when the plan is done,
    /// backs the values up ([`Book::negamax`]) and saves. `on_progress` hears after every step.
    /// Returns whether the plan was finished.
    pub fn run(
        &mut self,
        engine: &mut Engine,
        stop: &AtomicBool,
        on_progress: &mut dyn FnMut(&BuildProgress),
    ) -> Result<bool, BookJobError> {
        self.run_on(std::slice::from_mut(engine), stop, on_progress)
    }

    /// [`BookJob::run`] with the searches shared among `engines`, one thread each (give each
    /// one search thread and the same weights and table size). The book is the one a single
    /// engine makes: the searches of the next steps are made at once, each against the book
    /// as the steps before it will leave it ([`Book::plan_searches`]), then the steps are run
    /// in order, each taking its precomputed result when the search it needs then is the one
    /// made (one that came out otherwise searches again on the first engine).
    ///
    /// # Panics
    /// If `engines` is empty.
    pub fn run_on(
        &mut self,
        engines: &mut [Engine],
        stop: &AtomicBool,
        on_progress: &mut dyn FnMut(&BuildProgress),
    ) -> Result<bool, BookJobError> {
        assert!(!engines.is_empty(), "a book job needs an engine");
        let mut progress = BuildProgress {
            total: self.plan.len(),
            positions: self.book.len(),
            ..BuildProgress::default()
        };
        let mut unsaved = 0;
        'plan: while !self.plan.is_empty() && !stop.load(Ordering::Relaxed) {
            // several engines: a few searches each at a time, made at once so that the threads
            // stay busy; one engine: a step at a time, searched as it is run
            let (batch, known): (Vec<Step>, _) = if engines.len() > 1 {
                let batch: Vec<Step> = self.plan.iter().take(4 * engines.len()).copied().collect();
                let known = search_all(&self.book, &batch, &self.known, engines, stop);
                (batch, known)
            } else {
                (self.plan.iter().take(1).copied().collect(), HashMap::new())
            };
            for step in &batch {
                if stop.load(Ordering::Relaxed) {
                    break 'plan; // stopped: the steps left wait for the resume
                }
                let (first, _) = engines.split_first_mut().expect("not empty");
                let (elsewhere, used) = (&self.known, &mut self.used_known);
                let ran = self.book.run_step_with(step, &mut |search| {
                    if let Some(&result) = known.get(search) {
                        return Some(result);
                    }
                    if let Some(&result) = elsewhere.get(search) {
                        *used += 1;
                        return Some(result);
                    }
                    search.run(first, stop)
                });
                let Some(searches) = ran else {
                    break 'plan; // stopped during the step: it is run again on resume
                };
                self.plan.pop_front();
                progress.steps += 1;
                progress.searches += searches;
                self.searches += searches;
                progress.positions = self.book.len();
                unsaved += searches;
                on_progress(&progress);
                if unsaved >= self.save_every.max(1) {
                    self.save()?;
                    unsaved = 0;
                }
            }
        }
        let done = self.plan.is_empty();
        if done {
            self.book.negamax();
            self.known.clear();
        }
        self.save()?;
        Ok(done)
    }
}

/// The searches `steps` need run in order from `book` ([`Book::plan_searches`]) that `known`
/// lacks, made on `engines` at once ([`run_searches`]): every search that finished, by search.
fn search_all(
    book: &Book,
    steps: &[Step],
    known: &HashMap<LeafSearch, LeafResult>,
    engines: &mut [Engine],
    stop: &AtomicBool,
) -> HashMap<LeafSearch, LeafResult> {
    let mut searches: Vec<LeafSearch> = Vec::new();
    for s in book.plan_searches(steps).into_iter().flatten() {
        if !known.contains_key(&s) && !searches.contains(&s) {
            searches.push(s);
        }
    }
    run_searches(&searches, engines, stop)
}

#[cfg(test)]
mod tests;
