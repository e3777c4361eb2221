//! `ply-othello book ...`: make, grow, inspect, merge and convert opening books
//! ([`ply_othello_engine::book`]; jobs on files: [`ply_othello_tools::book`]).

use super::analyse::read_position;
use super::review::{games_of_argument, wthor_games, Input};
use super::CliError;
use clap::builder::RangedU64ValueParser;
use clap::{Args, Subcommand, ValueEnum};
use indicatif::ProgressBar;
use ply_othello::{Board, Position, Square};
use ply_othello_engine::book::{
    BookMove, BuildProgress, LeafResult, LeafSearch, DEFAULT_DEVIATION,
};
use ply_othello_engine::eval::parse_weights;
use ply_othello_engine::{Engine, EngineOptions, Limits};
use ply_othello_tools::book::{
    plan_path, read_book, run_searches, searches_from_text, searches_to_text, write_atomic,
    BookJob, BookJobError,
};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The level a new book searches its positions at unless told otherwise.
pub const DEFAULT_BOOK_LEVEL: u8 = 16;

/// Arguments of `book`.
#[derive(Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand)]
enum BookCommand {
    /// Create an empty book that searches its positions at LEVEL.
    New {
        /// The book file to create (ply's format).
        file: PathBuf,
        /// Search level 1..=60 of the positions added.
        #[arg(long, default_value_t = DEFAULT_BOOK_LEVEL,
              value_parser = clap::value_parser!(u8).range(1..=60))]
        level: u8,
        /// Replace an existing file.
        #[arg(long)]
        force: bool,
    },
    /// Size, level, depth and value of the start position of a book (any form).
    Info {
        /// The book file.
        file: PathBuf,
    },
    /// Every legal move of a position with its book value, or a search's where it leaves the
    /// book.
    Show {
        /// The book file (any form).
        file: PathBuf,
        /// The position: a move list from the start (`f5d6`) or a board (64 squares `X`, `O`,
        /// `-` from A1 to H8, then the side to move `X` (Black) or `O`); default the start.
        #[arg(allow_hyphen_values = true)]
        position: Option<String>,
        /// Level of the search of the moves that leave the book (0: do not search them).
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u8).range(0..=60))]
        level: u8,
        #[command(flatten)]
        engine: JobEngineArgs,
    },
    /// Add the positions of games (GGF files, files of move lists, WTHOR files, or a move list)
    /// with their best moves out of the book searched at the book's level.
    #[command(alias = "learn")]
    Add {
        /// The book file (created at --level when it does not exist).
        file: PathBuf,
        /// The games: GGF files, files of move lists (one game a line), WTHOR `.wtb` files, or
        /// move lists from the start.
        #[arg(required = true)]
        games: Vec<String>,
        /// Add the positions of the first PLIES moves of each game.
        #[arg(long, default_value_t = 30, value_parser = RangedU64ValueParser::<usize>::new().range(1..=60))]
        plies: usize,
        /// Level of a book created by this command.
        #[arg(long, default_value_t = DEFAULT_BOOK_LEVEL,
              value_parser = clap::value_parser!(u8).range(1..=60))]
        level: u8,
        #[command(flatten)]
        engine: JobArgs,
    },
    /// Grow the lines the book's own values say are worth playing (Edax's `deviate`): rounds
    /// until no leaf within the windows is left, or --rounds.
    #[command(alias = "deviate", alias = "expand")]
    Deepen {
        /// The book file (created at --level when it does not exist).
        file: PathBuf,
        #[command(flatten)]
        lines: DeviationArgs,
        /// Stop after this many rounds (default: until no round adds a position).
        #[arg(long)]
        rounds: Option<usize>,
        /// Level of a book created by this command.
        #[arg(long, default_value_t = DEFAULT_BOOK_LEVEL,
              value_parser = clap::value_parser!(u8).range(1..=60))]
        level: u8,
        #[command(flatten)]
        engine: JobArgs,
    },
    /// Plan the next round of `deepen` without running it (FILE.plan), so that its searches
    /// can be made elsewhere: `book searches` on each machine, then `book apply`.
    Plan {
        /// The book file (ply's form; no other job may be pending on it).
        file: PathBuf,
        #[command(flatten)]
        lines: DeviationArgs,
    },
    /// Make a shard of the searches of the job pending on FILE (its FILE.plan) and write them
    /// to OUT (an existing OUT is resumed): the shards of a plan, given to `book apply`, make
    /// the same book as running the job in one place. Takes `--shard K/N --out FILE` as the
    /// other batch commands do, for tools/cluster/run.py.
    Searches {
        /// The book file whose pending plan is searched (read only).
        file: PathBuf,
        /// Make only the searches whose index in the plan is K modulo N (`K/N`).
        #[arg(long, default_value = "0/1")]
        shard: ply_batch::Shard,
        /// The file of results to write.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        engine: JobArgs,
    },
    /// Run the job pending on FILE with the searches of RESULTS (files of `book searches`),
    /// making any other search it needs, then back the values up.
    Apply {
        /// The book file.
        file: PathBuf,
        /// Files written by `book searches`.
        results: Vec<PathBuf>,
        #[command(flatten)]
        engine: JobArgs,
    },
    /// Search again the leaves that now lead into the book or were searched below the book's
    /// level, then back the values up.
    Fix {
        /// The book file.
        file: PathBuf,
        #[command(flatten)]
        engine: JobArgs,
    },
    /// Add other books' positions to FILE (the entry searched at the higher level wins), then
    /// back the values up.
    Merge {
        /// The book file to add to (ply's format).
        file: PathBuf,
        /// The books to add (any form).
        #[arg(required = true)]
        others: Vec<PathBuf>,
    },
    /// Write a book in another form.
    Export {
        /// The book file (any form).
        file: PathBuf,
        /// The file to write.
        out: PathBuf,
        /// The form to write.
        #[arg(long, value_enum, default_value_t = Form::Text)]
        format: Form,
    },
    /// Read a book in any form (Edax's `book.dat`, Edax's text, ply's) into ply's form.
    Import {
        /// The book to read.
        input: PathBuf,
        /// The ply book to write.
        file: PathBuf,
        /// Replace an existing file.
        #[arg(long)]
        force: bool,
    },
}

/// The lines a `deepen` round grows (Edax's `deviate` windows).
#[derive(Args, Clone, Copy, Debug)]
struct DeviationArgs {
    /// Each side in turn may deviate from its best book move by up to REL discs.
    #[arg(long, default_value_t = DEFAULT_DEVIATION.0, value_parser = clap::value_parser!(i32).range(0..=64))]
    rel: i32,
    /// Lines stay within ABS discs of the start position's value.
    #[arg(long, default_value_t = DEFAULT_DEVIATION.1, value_parser = clap::value_parser!(i32).range(0..=64))]
    abs: i32,
    /// Grow lines to this many moves from the start (positions up to that ply).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=60))]
    plies: u32,
}

impl DeviationArgs {
    /// The plan of the next round on `book` ([`Book::deviation_plan`] from the start).
    ///
    /// [`Book::deviation_plan`]: ply_othello_engine::book::Book::deviation_plan
    fn plan(&self, book: &ply_othello_engine::book::Book) -> Vec<ply_othello_engine::book::Step> {
        let min_empties = 61u32.saturating_sub(self.plies); // children up to PLIES moves in
        book.deviation_plan(&Board::start(), self.rel, self.abs, min_empties)
    }
}

/// The forms `book export` writes.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Form {
    /// Edax's text form: one line a position, `<64 squares> X,<level>,<leaf>,<score>`.
    Text,
    /// Edax's binary `book.dat` (Edax's `book load`, Egaroucid's import).
    Edax,
    /// ply's own binary form.
    Ply,
}

/// The engine of the searches of a book command.
#[derive(Args, Clone, Debug)]
struct JobEngineArgs {
    /// Transposition tables in MiB, 1..=1048576 (cleared before every search).
    #[arg(long, default_value_t = 64,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=super::MAX_HASH_MIB))]
    hash: usize,
    /// Search threads, 1..=1024 (more than one makes the book depend on timing).
    #[arg(long, default_value_t = 1,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=super::MAX_THREADS))]
    threads: usize,
    /// Evaluation weights instead of the built-in ones (ply or Edax `eval.dat` format).
    #[arg(long)]
    eval_file: Option<PathBuf>,
}

/// The engines of the searches of a book job.
#[derive(Args, Clone, Debug)]
struct JobArgs {
    #[command(flatten)]
    engine: JobEngineArgs,
    /// Searches made at once, each on an engine of its own (--threads threads and --hash MiB
    /// each), 1..=1024: the book is the same as with one.
    #[arg(long, default_value_t = 1,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=super::MAX_THREADS))]
    jobs: usize,
}

impl JobArgs {
    /// `--jobs` engines.
    fn engines(&self) -> Result<Vec<Engine>, CliError> {
        (0..self.jobs).map(|_| self.engine.engine()).collect()
    }
}

impl JobEngineArgs {
    fn engine(&self) -> Result<Engine, CliError> {
        let weights = match &self.eval_file {
            Some(p) => Some(parse_weights(&super::read(p)?)?),
            None => None,
        };
        Ok(Engine::try_new(EngineOptions {
            hash_mib: self.hash,
            threads: self.threads,
            weights,
        })?)
    }
}

impl From<BookJobError> for CliError {
    fn from(e: BookJobError) -> CliError {
        CliError::Refused(e.to_string())
    }
}

/// Runs `book`.
///
/// # Errors
/// Files that cannot be read or written, malformed books, bad arguments.
pub fn run(a: &BookArgs) -> Result<(), CliError> {
    match &a.command {
        BookCommand::New { file, level, force } => {
            refuse_existing(file, *force)?;
            BookJob::create(file, *level).save()?;
            println!("{}: a new book, level {level}", file.display());
            Ok(())
        }
        BookCommand::Info { file } => info(file),
        BookCommand::Show {
            file,
            position,
            level,
            engine,
        } => show(file, position.as_deref(), *level, engine),
        BookCommand::Add {
            file,
            games,
            plies,
            level,
            engine,
        } => {
            let mut job = open_or_create(file, *level)?;
            let mut count = 0;
            for source in games {
                for input in games_of(source)? {
                    match input.game {
                        Ok((start, moves)) => {
                            let plan = job.book.game_plan(&start.board, &moves, *plies);
                            job.push(plan);
                            count += 1;
                        }
                        Err(e) => eprintln!("{source}: game {}: {e} (skipped)", input.number),
                    }
                }
            }
            eprintln!("{count} game(s), {} step(s) to run", job.pending());
            let mut engines = engine.engines()?;
            if !run_job(&mut job, &mut engines)? {
                return Ok(());
            }
            job.push(job.book.fix_plan());
            run_job(&mut job, &mut engines)?;
            report(&job);
            Ok(())
        }
        BookCommand::Deepen {
            file,
            lines,
            rounds,
            level,
            engine,
        } => {
            let mut job = open_or_create(file, *level)?;
            let mut engines = engine.engines()?;
            if !run_job(&mut job, &mut engines)? {
                return Ok(()); // an interrupted plan: not finished yet
            }
            let mut round = 0;
            while rounds.is_none_or(|r| round < r) {
                let plan = lines.plan(&job.book);
                if plan.is_empty() {
                    break;
                }
                round += 1;
                eprintln!("round {round}: {} step(s)", plan.len());
                job.push(plan);
                if !run_job(&mut job, &mut engines)? {
                    return Ok(());
                }
            }
            report(&job);
            Ok(())
        }
        BookCommand::Plan { file, lines } => {
            let mut job = BookJob::open(file)?;
            if job.pending() > 0 {
                return Err(CliError::Usage(format!(
                    "{}: a job is pending ({} step(s) in {}): finish it first (book apply, or deepen --rounds 0)",
                    file.display(),
                    job.pending(),
                    plan_path(file).display()
                )));
            }
            job.push(lines.plan(&job.book));
            job.save()?;
            println!(
                "{}: {} step(s), {} search(es) planned",
                plan_path(file).display(),
                job.pending(),
                job.planned_searches().len()
            );
            Ok(())
        }
        BookCommand::Searches {
            file,
            shard,
            out,
            engine,
        } => searches(file, *shard, out, engine),
        BookCommand::Apply {
            file,
            results,
            engine,
        } => {
            let mut job = BookJob::open(file)?;
            for r in results {
                let text = super::read_text(r)?;
                let found = searches_from_text(&text).map_err(|e| bad_searches(r, e))?;
                job.add_known(found);
            }
            let mut engines = engine.engines()?;
            let done = run_job(&mut job, &mut engines)?;
            println!(
                "{} search(es) taken from the files, {} made here",
                job.used_known(),
                job.searches_made() - job.used_known()
            );
            if done {
                report(&job);
            }
            Ok(())
        }
        BookCommand::Fix { file, engine } => {
            let mut job = BookJob::open(file)?;
            let mut engines = engine.engines()?;
            job.push(job.book.fix_plan());
            run_job(&mut job, &mut engines)?;
            report(&job);
            Ok(())
        }
        BookCommand::Merge { file, others } => {
            let mut job = BookJob::open(file)?;
            for other in others {
                let n = job.book.merge(&read_book(other)?);
                println!("{}: {n} position(s) added or replaced", other.display());
            }
            job.save()?;
            report(&job);
            Ok(())
        }
        BookCommand::Export { file, out, format } => {
            let book = read_book(file)?;
            let bytes = match format {
                Form::Text => book.to_text().into_bytes(),
                Form::Edax => book.to_edax(),
                Form::Ply => book.to_bytes(),
            };
            write_atomic(out, &bytes)?;
            println!(
                "{}: {} position(s) written ({format:?})",
                out.display(),
                book.len()
            );
            Ok(())
        }
        BookCommand::Import { input, file, force } => {
            refuse_existing(file, *force)?;
            let book = read_book(input)?;
            write_atomic(file, &book.to_bytes())?;
            println!(
                "{}: {} position(s), level {}",
                file.display(),
                book.len(),
                book.level()
            );
            Ok(())
        }
    }
}

fn refuse_existing(file: &Path, force: bool) -> Result<(), CliError> {
    if file.exists() && !force {
        return Err(CliError::Refused(format!(
            "{} exists (--force replaces it)",
            file.display()
        )));
    }
    Ok(())
}

/// The job on `file`, or on a new book of `level` when the file does not exist.
fn open_or_create(file: &Path, level: u8) -> Result<BookJob, CliError> {
    if file.exists() {
        let job = BookJob::open(file)?;
        if job.pending() > 0 {
            eprintln!(
                "{}: resuming an interrupted job ({} step(s) left in {})",
                file.display(),
                job.pending(),
                plan_path(file).display()
            );
        }
        Ok(job)
    } else {
        Ok(BookJob::create(file, level))
    }
}

/// Runs the job's plan with a progress bar on a terminal; whether it finished.
fn run_job(job: &mut BookJob, engines: &mut [Engine]) -> Result<bool, CliError> {
    if job.pending() == 0 {
        return Ok(true);
    }
    let show = std::io::stderr().is_terminal();
    let bar: ProgressBar = ply_batch::progress_bar(
        job.pending() as u64,
        show,
        "{bar:40} {pos}/{len} steps {elapsed} {msg}",
    );
    let stop = AtomicBool::new(false);
    let done = job.run_on(engines, &stop, &mut |p: &BuildProgress| {
        bar.set_position(p.steps as u64);
        bar.set_message(format!("{} positions", p.positions));
    })?;
    bar.finish_and_clear();
    Ok(done)
}

/// A file of searches that does not read: the file, its line and why.
fn bad_searches(path: &Path, (line, reason): (usize, String)) -> CliError {
    CliError::Read {
        path: path.display().to_string(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("line {line}: {reason}"),
        ),
    }
}

/// `book searches`: shard `shard` of the searches of the plan pending on `file`, written to
/// `out` every few searches (an existing `out` is resumed: its searches are not made again).
fn searches(
    file: &Path,
    shard: ply_batch::Shard,
    out: &Path,
    engine: &JobArgs,
) -> Result<(), CliError> {
    let planned = BookJob::open(file)?.planned_searches();
    let mine: Vec<LeafSearch> = planned
        .iter()
        .copied()
        .enumerate()
        .filter(|(i, _)| shard.owns(*i as u64))
        .map(|(_, s)| s)
        .collect();
    let mut done: Vec<(LeafSearch, LeafResult)> = match std::fs::read_to_string(out) {
        Ok(text) => searches_from_text(&text).map_err(|e| bad_searches(out, e))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(source) => {
            return Err(CliError::Read {
                path: out.display().to_string(),
                source,
            })
        }
    };
    let had: std::collections::HashSet<LeafSearch> = done.iter().map(|(s, _)| *s).collect();
    let todo: Vec<LeafSearch> = mine.iter().filter(|s| !had.contains(s)).copied().collect();
    let mut engines = engine.engines()?;
    let stop = AtomicBool::new(false);
    let bar = ply_batch::progress_bar(
        todo.len() as u64,
        std::io::stderr().is_terminal(),
        "{bar:40} {pos}/{len} searches {elapsed}",
    );
    for chunk in todo.chunks(4 * engines.len()) {
        let found = run_searches(chunk, &mut engines, &stop);
        // in the plan's order, so that the file is the same whatever the number of engines
        done.extend(chunk.iter().filter_map(|s| found.get(s).map(|r| (*s, *r))));
        write_atomic(out, searches_to_text(&done).as_bytes())?;
        bar.inc(chunk.len() as u64);
    }
    bar.finish_and_clear();
    if todo.is_empty() {
        write_atomic(out, searches_to_text(&done).as_bytes())?;
    }
    println!(
        "{}: shard {}/{}: {} of the plan's {} search(es)",
        out.display(),
        shard.index,
        shard.count,
        mine.len(),
        planned.len()
    );
    Ok(())
}

fn report(job: &BookJob) {
    let value = job.book.value(&Board::start());
    println!(
        "{}: {} position(s), level {}, start position {}",
        job.path().display(),
        job.book.len(),
        job.book.level(),
        value.map_or_else(|| "not in the book".to_string(), |v| format!("{v:+}")),
    );
}

/// The games of one `add` argument: a WTHOR file (`.wtb`), a GGF or move-list file, or a move
/// list.
fn games_of(source: &str) -> Result<Vec<Input>, CliError> {
    let path = Path::new(source);
    if path.is_file() && source.to_ascii_lowercase().ends_with(".wtb") {
        wthor_games(path)
    } else {
        games_of_argument(source)
    }
}

fn info(file: &Path) -> Result<(), CliError> {
    let book = read_book(file)?;
    println!("file      {}", file.display());
    println!("positions {}", book.len());
    println!("level     {}", book.level());
    let start = book.value(&Board::start());
    println!(
        "start     {}",
        start.map_or_else(|| "not in the book".to_string(), |v| format!("{v:+}"))
    );
    let mut by_ply = [0usize; 61];
    let mut levels = std::collections::BTreeMap::new();
    for (board, e) in book.positions() {
        by_ply[60 - board.empty_count().min(60) as usize] += 1;
        *levels.entry(e.level).or_insert(0usize) += 1;
    }
    let plies: Vec<String> = by_ply
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(ply, n)| format!("{ply}:{n}"))
        .collect();
    println!("by ply    {}", plies.join(" "));
    let levels: Vec<String> = levels.iter().map(|(l, n)| format!("{l}:{n}")).collect();
    println!("levels    {}", levels.join(" "));
    let pending = plan_path(file);
    if pending.exists() {
        println!("pending   an interrupted job: {}", pending.display());
    }
    Ok(())
}

/// The board of `show`'s position argument (the start when there is none).
fn position_of(text: Option<&str>) -> Result<Position, CliError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        Some(text) => read_position(text),
        None => Ok(Position::start()),
    }
}

fn show(
    file: &Path,
    position: Option<&str>,
    level: u8,
    args: &JobEngineArgs,
) -> Result<(), CliError> {
    let book = read_book(file)?;
    let pos = position_of(position)?;
    let board = pos.board;
    println!("{pos}");
    let moves = book.moves(&board);
    if moves.is_empty() {
        println!("not in the book");
    }
    let mut rows: Vec<(Square, String, i32)> = moves
        .iter()
        .map(|m: &BookMove| {
            let kind = if m.linked { "book" } else { "book leaf" };
            (m.square, format!("{kind}, level {}", m.level), m.score)
        })
        .collect();
    let searched = board.moves() & !rows.iter().fold(0, |m, r| m | r.0.bit());
    if searched != 0 && level > 0 {
        let mut engine = args.engine()?;
        let limits = Limits {
            level: Some(level),
            all_moves: true,
            search_moves: Some(searched),
            ..Limits::default()
        };
        let out = engine.think(&board, &limits, &AtomicBool::new(false), &mut |_| {});
        for m in out.moves {
            if searched & m.square.bit() != 0 {
                let how = if m.exact { "exact" } else { "searched" };
                rows.push((m.square, format!("{how}, level {level}"), m.score));
            }
        }
    }
    rows.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.index().cmp(&b.0.index())));
    for (sq, how, score) in rows {
        println!("{:<3} {score:+3}  {how}", sq.name());
    }
    Ok(())
}
