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

use ply_othello::Board;
use ply_othello_engine::book::{Book, BookError, BuildProgress, LeafResult, LeafSearch, Step};
use ply_othello_engine::Engine;
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use thiserror::Error;

/// The first line of a plan file.
const PLAN_HEADER: &str = "# ply-othello book plan";

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
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, first)) if first.trim() == PLAN_HEADER => {}
        _ => return Err((1, format!("the first line must be `{PLAN_HEADER}`"))),
    }
    let mut steps = Vec::new();
    for (i, line) in lines {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let bad = |reason: String| (i + 1, reason);
        let mut words = line.split_whitespace();
        let (kind, p, o) = match (words.next(), words.next(), words.next(), words.next()) {
            (Some(k), Some(p), Some(o), None) => (k, p, o),
            _ => return Err(bad("expected `add|leaf PLAYER OPPONENT`".into())),
        };
        let hex = |s: &str| u64::from_str_radix(s, 16).map_err(|e| bad(format!("{s}: {e}")));
        let board = Board::new(hex(p)?, hex(o)?).map_err(|e| bad(e.to_string()))?;
        steps.push(match kind {
            "add" => Step::Add(board),
            "leaf" => Step::Leaf(board),
            other => return Err(bad(format!("unknown step `{other}`"))),
        });
    }
    Ok(steps)
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
    /// engine makes: the searches of the next steps are made at once against the book as it
    /// is, then the steps are run in order, each taking its precomputed result when the search
    /// it needs then is the one made (a step whose search changed with the steps before it,
    /// which happens only through transpositions, searches again on the first engine).
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
                let known = search_all(&self.book, &batch, engines, stop);
                (batch, known)
            } else {
                (self.plan.iter().take(1).copied().collect(), HashMap::new())
            };
            for step in &batch {
                let (first, _) = engines.split_first_mut().expect("not empty");
                let ran = self
                    .book
                    .run_step_with(step, &mut |search| match known.get(search) {
                        Some(&result) => Some(result),
                        None => search.run(first, stop),
                    });
                let Some(searches) = ran else {
                    break 'plan; // stopped during the step: it is run again on resume
                };
                self.plan.pop_front();
                progress.steps += 1;
                progress.searches += searches;
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
        }
        self.save()?;
        Ok(done)
    }
}

/// The searches `steps` need with `book` as it is, made on `engines` at once (one thread an
/// engine, each taking the next search not yet taken): every search that finished, by search.
fn search_all(
    book: &Book,
    steps: &[Step],
    engines: &mut [Engine],
    stop: &AtomicBool,
) -> HashMap<LeafSearch, LeafResult> {
    let mut searches: Vec<LeafSearch> = Vec::new();
    for step in steps {
        if let Some(s) = book.step_search(step) {
            if !searches.contains(&s) {
                searches.push(s);
            }
        }
    }
    let next = AtomicUsize::new(0);
    let results = Mutex::new(HashMap::new());
    std::thread::scope(|scope| {
        for engine in engines.iter_mut() {
            let (next, results, searches) = (&next, &results, &searches);
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

#[cfg(test)]
mod tests;
