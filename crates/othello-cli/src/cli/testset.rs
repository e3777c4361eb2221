//! `ply-othello testset`: a test set of the evaluation (`ply_othello_tools::testset`), the
//! positions at the chosen numbers of empties, once each up to symmetry and none that occurs in
//! the training files, written as one OBF file per number of empties with a perfect-play move
//! and the exact score. The positions come either from `datagen` files (the strong-play set of
//! ply's own games) or, with `--engine`, from games an external GTP engine plays against itself
//! after a few random moves (an out-of-distribution set), each scored by ply's exact solver.

use super::CliError;
use clap::builder::RangedU64ValueParser;
use clap::{ArgGroup, Args};
use ply_othello_tools::datagen::Label;
use ply_othello_tools::engine_games::{format_game, parse_games, play_engine_game, GamesHeader};
use ply_othello_tools::matchplay::GtpClient;
use ply_othello_tools::testset::external::{collect_positions, solve_position};
use ply_othello_tools::testset::{extract, key, to_obf, Dropped, TestPosition};
use ply_othello_tools::train::read_labels;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The most empties a position of an engine's game may have to be solved
/// (as `datagen --exact`).
const MAX_SOLVED_EMPTIES: u32 = super::datagen::MAX_EXACT;

/// Arguments of `testset`.
#[derive(Args)]
#[command(group(ArgGroup::new("source").required(true).args(["data", "engine"])))]
pub struct TestsetArgs {
    /// `datagen` output files with the test games (made with `--random-min 0 --random-max 12
    /// --exact E`, E at least the largest number of empties asked for).
    #[arg(long, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Instead of --data: an external GTP engine's command line (split on spaces), e.g.
    /// "lEdax-x86-64-v3 -gtp -eval-file eval.dat -l 12 -book-usage off -n 1 -ponder off". It
    /// plays --games games against itself after random opening moves; the positions are solved
    /// exactly by ply (the file's move is the solver's best move).
    #[arg(long, requires = "games")]
    engine: Option<String>,
    /// With --engine: number of games (game indices 0..G of the seed).
    #[arg(long, requires = "engine",
          value_parser = RangedU64ValueParser::<u64>::new().range(1..=1_000_000))]
    games: Option<u64>,
    /// With --engine: fewest uniformly random opening moves, 0..=59.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=59))]
    random_min: u32,
    /// With --engine: most uniformly random opening moves, 0..=59, at least --random-min.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=59))]
    random_max: u32,
    /// With --engine: seed of the random openings (the same seed, the same openings).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// With --engine: keep the games in this file (one move list a line after a header naming
    /// the engine, seed and random moves); an existing file of the same run is resumed, and
    /// when it already holds --games games the engine is not started.
    #[arg(long)]
    games_file: Option<PathBuf>,
    /// With --engine: seconds a `genmove` reply is awaited before the engine is declared hung
    /// (other commands wait at most 10 s).
    #[arg(long, default_value_t = 300.0)]
    reply_timeout: f64,
    /// With --engine: the solver's transposition table, MiB (1..=1048576).
    #[arg(long, default_value_t = 64,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=super::MAX_HASH_MIB))]
    hash: usize,
    /// Training data (`datagen` output or `train --labels` files): none of their positions, up to
    /// symmetry, enters the test set; default: none.
    #[arg(long, num_args = 1..)]
    exclude: Vec<PathBuf>,
    /// Numbers of empties to keep (comma-separated); one file `e<N>.obf` each.
    #[arg(long, value_delimiter = ',', default_value = "14,20,24")]
    empties: Vec<u32>,
    /// Keep at most this many positions per number of empties (the first in data order);
    /// default: all.
    #[arg(long)]
    max: Option<usize>,
    /// Directory of the OBF files.
    #[arg(long)]
    out_dir: PathBuf,
}

/// The records of a `datagen` file, in file order.
fn read_records(path: &Path) -> Result<Vec<Label>, CliError> {
    let text = super::read_text(path)?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            l.parse::<Label>()
                .map_err(|e| CliError::Datagen(format!("{}:{}: {e}", path.display(), n + 1)))
        })
        .collect()
}

/// The keys of every position of the `--exclude` files.
fn training_keys(a: &TestsetArgs) -> Result<HashSet<(u64, u64)>, CliError> {
    let mut training = HashSet::new();
    for path in &a.exclude {
        let samples = read_labels(path).map_err(|e| CliError::Datagen(e.to_string()))?;
        training.extend(samples.iter().map(|s| key(&s.board)));
    }
    Ok(training)
}

/// Writes `positions` (all at `empties` empties) to `e<empties>.obf` under `--out-dir`, after a
/// comment line `header`.
fn write_set(
    a: &TestsetArgs,
    empties: u32,
    header: &str,
    positions: &[TestPosition],
) -> Result<(), CliError> {
    std::fs::create_dir_all(&a.out_dir).map_err(|source| CliError::Write {
        path: a.out_dir.display().to_string(),
        source,
    })?;
    let mut text = format!("% {header}\n");
    for p in positions {
        writeln!(text, "{}", to_obf(p)).expect("writing to a String");
    }
    let path = a.out_dir.join(format!("e{empties}.obf"));
    super::write(&path, text)?;
    eprintln!("{}: {} positions", path.display(), positions.len());
    Ok(())
}

/// The summary line of what was left out.
fn print_dropped(read: &str, training: usize, dropped: &Dropped) {
    eprintln!(
        "{read}, {training} training positions excluded; dropped: {} repeated, {} in training, \
         {} without a recoverable move",
        dropped.duplicates, dropped.in_training, dropped.no_move
    );
}

/// Runs `testset`.
pub fn run(a: &TestsetArgs) -> Result<ExitCode, CliError> {
    match &a.engine {
        Some(engine) => run_engine(a, engine),
        None => run_data(a),
    }
}

/// `testset --data`: positions of ply's self-play games.
fn run_data(a: &TestsetArgs) -> Result<ExitCode, CliError> {
    let mut labels = Vec::new();
    for path in &a.data {
        labels.extend(read_records(path)?);
    }
    if labels.is_empty() {
        let names: Vec<String> = a.data.iter().map(|p| p.display().to_string()).collect();
        return Err(CliError::NoPositions(names.join(", ")));
    }
    let training = training_keys(a)?;
    let (sets, dropped) = extract(&labels, &a.empties, &training);
    for (&empties, positions) in &sets {
        let kept = &positions[..positions.len().min(a.max.unwrap_or(usize::MAX))];
        let header = format!(
            "ply-othello strong-play test set: {} positions at {empties} empties, side to move's \
             exact score after the move perfect play made",
            kept.len()
        );
        write_set(a, empties, &header, kept)?;
    }
    let read = format!("{} records read", labels.len());
    print_dropped(&read, training.len(), &dropped);
    Ok(ExitCode::SUCCESS)
}

/// What makes the games of this run, the first line of its games file.
fn games_header(a: &TestsetArgs, engine: &str) -> GamesHeader {
    GamesHeader {
        engine: engine.to_string(),
        seed: a.seed,
        random_min: a.random_min,
        random_max: a.random_max,
    }
}

/// The games already in `--games-file` (none without one, or when it does not exist yet).
fn read_games_file(
    a: &TestsetArgs,
    header: &GamesHeader,
) -> Result<Vec<Vec<ply_othello::Square>>, CliError> {
    let Some(path) = &a.games_file else {
        return Ok(Vec::new());
    };
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = super::read_text(path)?;
    let first = text.lines().next().unwrap_or("").trim_end();
    let header = header.to_string();
    if !text.trim().is_empty() && first != header {
        return Err(CliError::Usage(format!(
            "{} holds the games of another run ({first:?}, this run: {header:?}): give another \
             --games-file",
            path.display()
        )));
    }
    parse_games(&text).map_err(|e| CliError::Refused(format!("{}: {e}", path.display())))
}

/// Plays games `games.len()..count` with the engine `header` names, appending each to
/// `--games-file`.
fn play_games(
    a: &TestsetArgs,
    header: &GamesHeader,
    count: u64,
    games: &mut Vec<Vec<ply_othello::Square>>,
) -> Result<(), CliError> {
    super::ignore_sigpipe();
    let reply_timeout = Duration::try_from_secs_f64(a.reply_timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| CliError::Usage(format!("bad --reply-timeout {}", a.reply_timeout)))?;
    let mut file = match &a.games_file {
        Some(path) => {
            let fresh = !path.exists() || std::fs::metadata(path).is_ok_and(|m| m.len() == 0);
            let write_error = |source| CliError::Write {
                path: path.display().to_string(),
                source,
            };
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(write_error)?;
            if fresh {
                writeln!(f, "{header}").map_err(write_error)?;
            }
            Some((path, f))
        }
        None => None,
    };
    let mut client =
        GtpClient::spawn(&header.engine).map_err(|e| CliError::ExternalEngine(e.to_string()))?;
    let start = Instant::now();
    let first = games.len() as u64;
    for game in first..count {
        let opening = header.opening(game);
        let moves = play_engine_game(&mut client, &opening, reply_timeout).map_err(|e| {
            let kept = match &file {
                Some((path, _)) => format!(
                    "; the {game} games before it are in {}: run again to go on",
                    path.display()
                ),
                None => String::new(),
            };
            CliError::ExternalEngine(format!("game {game}: {e}{kept}"))
        })?;
        if let Some((path, f)) = &mut file {
            let line = format_game(&moves) + "\n";
            f.write_all(line.as_bytes())
                .and_then(|()| f.flush())
                .map_err(|source| CliError::Write {
                    path: path.display().to_string(),
                    source,
                })?;
        }
        games.push(moves);
        let done = game + 1 - first;
        if done.is_multiple_of(10) || game + 1 == count {
            eprintln!(
                "{} / {count} games, {:.1} s a game",
                game + 1,
                start.elapsed().as_secs_f64() / done as f64
            );
        }
    }
    Ok(())
}

/// `testset --engine`: positions of an external engine's games, solved by ply.
fn run_engine(a: &TestsetArgs, engine: &str) -> Result<ExitCode, CliError> {
    if a.random_min > a.random_max {
        return Err(CliError::Usage(format!(
            "--random-min {} is above --random-max {}",
            a.random_min, a.random_max
        )));
    }
    if let Some(&e) = a.empties.iter().find(|&&e| e > MAX_SOLVED_EMPTIES) {
        return Err(CliError::Refused(format!(
            "--empties {e}: more than {MAX_SOLVED_EMPTIES} empties is too many to solve"
        )));
    }
    let count = a.games.unwrap_or(1);
    let header = games_header(a, engine);
    let mut games = read_games_file(a, &header)?;
    games.truncate(count as usize);
    if (games.len() as u64) < count {
        play_games(a, &header, count, &mut games)?;
    }
    let training = training_keys(a)?;
    let (sets, dropped) = collect_positions(&games, &a.empties, &training);
    let read = format!("{} games", games.len());
    print_dropped(&read, training.len(), &dropped);
    let mut solver = ply_othello_engine::Solver::try_new(a.hash, false)?;
    for (&empties, candidates) in &sets {
        let kept = &candidates[..candidates.len().min(a.max.unwrap_or(usize::MAX))];
        let start = Instant::now();
        let mut positions = Vec::with_capacity(kept.len());
        for (i, c) in kept.iter().enumerate() {
            positions.push(solve_position(&mut solver, c));
            if empties >= 26 || (i + 1).is_multiple_of(50) {
                eprintln!(
                    "{empties} empties: {} / {} solved, {:.1} s",
                    i + 1,
                    kept.len(),
                    start.elapsed().as_secs_f64()
                );
            }
        }
        let header = format!(
            "ply-othello out-of-distribution test set: {} positions at {empties} empties from \
             {} games of {engine:?} (seed {}, {}-{} random opening moves), side to move's exact \
             score and the best move of ply's solver",
            positions.len(),
            games.len(),
            a.seed,
            a.random_min,
            a.random_max
        );
        write_set(a, empties, &header, &positions)?;
    }
    Ok(ExitCode::SUCCESS)
}
