//! `ply-othello solve FILE.obf`: solves each position exactly, prints an Edax-like table (or
//! JSON lines) and counts disagreements with the file's annotated scores ([`Obf::check`]): a
//! wrong score or move is an error; the best score reached by another move than the file's
//! best one is counted apart, as an alternative best move.

use super::CliError;
use clap::builder::RangedU64ValueParser;
use clap::Args;
use indicatif::ProgressBar;
use ply_othello::{parse_obf_line, Obf, Square, Verdict};
use ply_othello_engine::eval::parse_weights;
use ply_othello_engine::{node_stats, Mode, RootResult, Solver};
use serde::Serialize;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Default of `--max-empties`: the deepest FFO problems have 34 empties.
pub const DEFAULT_MAX_EMPTIES: u32 = 36;

/// Arguments of `solve`.
#[derive(Args)]
pub struct SolveArgs {
    /// OBF file (`<board> <X|O>; A2:+38; ...` per line).
    file: String,
    /// Search threads, 1..=1024 (1 = the sequential reference search).
    #[arg(long, default_value_t = 1,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=super::MAX_THREADS))]
    threads: usize,
    /// Compute the exact score of every legal move and check every annotation.
    #[arg(long)]
    all_moves: bool,
    /// Only decide win/draw/loss.
    #[arg(long, conflicts_with = "all_moves")]
    wdl: bool,
    /// One JSON object per position and a summary object instead of the table.
    #[arg(long)]
    json: bool,
    /// Transposition table size in MiB, 1..=1048576.
    #[arg(long, alias = "hash-mib", default_value_t = 256,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=super::MAX_HASH_MIB))]
    hash: usize,
    /// Refuse the file if a position has more empty squares than this: an exact solve takes
    /// seconds at 30 empties but grows about threefold per further empty, so that the start
    /// position (60) would never end. Raise it to solve deeper positions on purpose.
    #[arg(long, default_value_t = DEFAULT_MAX_EMPTIES,
          value_parser = clap::value_parser!(u32).range(0..=60))]
    max_empties: u32,
    /// Evaluation weights that order the moves instead of the built-in ones (ply or Edax
    /// `eval.dat` format); the scores stay exact, the nodes and times change.
    #[arg(long)]
    eval_file: Option<PathBuf>,
    /// Use the portable kernel even if the CPU has AVX2/BMI2.
    #[arg(long)]
    portable: bool,
    /// Write every position's nodes by number of empties and by search stage to this CSV
    /// file (`position,depth,selectivity,empties,nodes`; depth and selectivity empty for nodes
    /// outside the iterated stages), to compare the tree with another program's. Needs a
    /// build with the `node-stats` feature and one thread.
    #[arg(long, value_name = "CSV")]
    node_stats: Option<PathBuf>,
}

/// CPU time consumed by the calling thread, in seconds. The machine may be shared, so wall
/// time alone would mislead.
fn thread_cpu_seconds() -> Option<f64> {
    ply_batch::cputime::thread().map(|d| d.as_secs_f64())
}

/// The search mode the flags ask for.
fn mode(a: &SolveArgs) -> Mode {
    if a.all_moves {
        Mode::AllMoves
    } else if a.wdl {
        Mode::Wdl
    } else {
        Mode::Exact
    }
}

/// One solved problem and how it compares with the file.
struct Solved {
    /// 1-based number of the problem in the file (comment lines not counted).
    index: usize,
    empties: u32,
    result: RootResult,
    verdict: Verdict,
    /// Wrong score or move (0 or 1) plus, with `--all-moves`, the disagreeing annotations.
    errors: usize,
    seconds: f64,
    cpu_seconds: f64,
}

/// Solves `obf` and judges the answer against its annotations.
fn solve_one(solver: &mut Solver, obf: &Obf, index: usize, mode: Mode) -> Solved {
    let b = obf.position.board;
    solver.clear();
    let cpu0 = thread_cpu_seconds();
    let t = Instant::now();
    let result = solver.solve(&b, mode);
    let seconds = t.elapsed().as_secs_f64();
    // single-threaded runs also report the thread's CPU time (the box may be shared)
    let cpu_seconds = match (cpu0, thread_cpu_seconds()) {
        // the kernel updates the counter at scheduler ticks: very short solves may read 0
        (Some(a), Some(b)) if solver.threads() == 1 && b > a => b - a,
        _ => seconds,
    };
    let verdict = match mode {
        Mode::Wdl => obf.check_wdl(result.score),
        _ => obf.check(result.score, result.best),
    };
    let mut errors = usize::from(verdict.is_error());
    if mode == Mode::AllMoves {
        errors += obf.wrong_annotations(&result.moves).len();
    }
    Solved {
        index,
        empties: b.empty_count(),
        result,
        verdict,
        errors,
        seconds,
        cpu_seconds,
    }
}

/// Word for a verdict in the JSON output.
fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Correct => "correct",
        Verdict::AlternativeBest { .. } => "alternative best move",
        Verdict::WrongScore { .. } => "wrong score",
        Verdict::WrongMove { .. } => "wrong move",
        Verdict::Unannotated => "unannotated",
        Verdict::IllegalAnnotation { .. } => "illegal move annotated",
    }
}

/// One JSON line per problem (`--json`).
#[derive(Serialize)]
struct PositionLine<'a> {
    index: usize,
    empties: u32,
    best: &'a str,
    score: i32,
    expected: Option<i32>,
    errors: usize,
    nodes: u64,
    seconds: f64,
    cpu_seconds: f64,
    verdict: &'a str,
}

/// The closing JSON line (`--json`): the totals between a `summary` flag and the speed.
#[derive(Serialize)]
struct SummaryLine<'a> {
    summary: bool,
    #[serde(flatten)]
    totals: &'a Totals,
    nodes_per_cpu_second: u64,
}

/// `x` rounded to microseconds, as the JSON lines have always printed times.
fn micro(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// Writes a time rounded to microseconds ([`micro`]).
fn serialize_micro<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(micro(*x))
}

/// Prints one JSON object on a line.
fn print_json(value: &impl Serialize) {
    match serde_json::to_string(value) {
        Ok(line) => println!("{line}"),
        Err(e) => eprintln!("cannot write JSON: {e}"),
    }
}

/// Sums over the file (in `--json`, the fields of the closing line in this order).
#[derive(Default, Serialize)]
struct Totals {
    positions: usize,
    errors: usize,
    alternatives: usize,
    bad_lines: usize,
    nodes: u64,
    #[serde(serialize_with = "serialize_micro")]
    seconds: f64,
    #[serde(serialize_with = "serialize_micro")]
    cpu_seconds: f64,
}

impl Totals {
    fn add(&mut self, s: &Solved) {
        self.positions += 1;
        self.errors += s.errors;
        self.alternatives += usize::from(matches!(s.verdict, Verdict::AlternativeBest { .. }));
        self.nodes += s.result.nodes;
        self.seconds += s.seconds;
        self.cpu_seconds += s.cpu_seconds;
    }

    fn nodes_per_cpu_second(&self) -> f64 {
        self.nodes as f64 / self.cpu_seconds.max(1e-9)
    }
}

/// The table's header lines.
fn print_header(solver: &Solver, threads: usize) {
    println!("kernel: {}, threads: {threads}", solver.kernel_name());
    println!("   # | empties | best | score | expected |   time (s) |    cpu (s) |          nodes | nodes/s(cpu) | pv");
    println!("-----+---------+------+-------+----------+------------+------------+----------------+--------------+------------------");
}

/// One problem's table row (and its per-move scores with `--all-moves`).
fn print_row(s: &Solved, obf: &Obf, mode: Mode) {
    let r = &s.result;
    let expected = obf
        .best_score()
        .map_or_else(|| "?".to_string(), |x| format!("{x:+}"));
    let pv: Vec<&str> = r.pv.iter().map(|x| x.name()).collect();
    let mark = if s.errors > 0 {
        " <-- ERROR"
    } else if matches!(s.verdict, Verdict::AlternativeBest { .. }) {
        " <-- alternative best move"
    } else {
        ""
    };
    let nps = if s.cpu_seconds > 1e-6 {
        r.nodes as f64 / s.cpu_seconds
    } else {
        0.0
    };
    println!(
        "{:4} | {:7} | {:>4} | {:+5} | {expected:>8} | {:10.3} | {:10.3} | {:14} | {nps:12.0} | {}{mark}",
        s.index,
        s.empties,
        r.best.map_or("--", Square::name),
        r.score,
        s.seconds,
        s.cpu_seconds,
        r.nodes,
        pv.join(" ")
    );
    if mode == Mode::AllMoves {
        let all: Vec<String> = r
            .moves
            .iter()
            .map(|&(m, x)| format!("{}:{x:+}", m))
            .collect();
        println!("     |   all moves: {}", all.join(" "));
    }
}

/// One problem's JSON line.
fn print_position_json(s: &Solved, obf: &Obf) {
    print_json(&PositionLine {
        index: s.index,
        empties: s.empties,
        best: s.result.best.map_or("--", Square::name),
        score: s.result.score,
        expected: obf.best_score(),
        errors: s.errors,
        nodes: s.result.nodes,
        seconds: micro(s.seconds),
        cpu_seconds: micro(s.cpu_seconds),
        verdict: verdict_word(s.verdict),
    });
}

/// The closing summary, as a table line or a JSON line.
fn print_summary(t: &Totals, json: bool) {
    let nps = t.nodes_per_cpu_second();
    if json {
        print_json(&SummaryLine {
            summary: true,
            totals: t,
            nodes_per_cpu_second: nps.round() as u64,
        });
    } else {
        println!(
            "total: {} positions, {:.3} s wall, {:.3} s cpu, {} nodes, {nps:.0} nodes/s (cpu), {} errors, {} alternative best moves, {} bad lines",
            t.positions, t.seconds, t.cpu_seconds, t.nodes, t.errors, t.alternatives, t.bad_lines
        );
    }
}

/// A progress bar on a terminal (and never with `--json`), else a hidden one; it names the
/// position being solved and its running time, so that a long solve is seen to progress.
fn progress_bar(len: usize, json: bool) -> ProgressBar {
    let show = std::io::stderr().is_terminal() && !json;
    let b = ply_batch::progress_bar(len as u64, show, "{bar:40} {pos}/{len} {elapsed} {msg}");
    if !show {
        return b;
    }
    b.enable_steady_tick(std::time::Duration::from_millis(250));
    b
}

/// The problems of an OBF file with their 1-based line numbers; lines that do not parse are
/// reported on standard error and counted in `bad_lines`.
fn read_problems(file: &str, text: &str, bad_lines: &mut usize) -> Vec<(usize, Obf)> {
    let mut problems = Vec::new();
    for (lineno, line) in text.lines().enumerate() {
        match parse_obf_line(line) {
            Ok(Some(o)) => problems.push((lineno + 1, o)),
            Ok(None) => {}
            Err(e) => {
                *bad_lines += 1;
                eprintln!("{file}:{}: {e} (line skipped)", lineno + 1);
            }
        }
    }
    problems
}

/// Refuses a file with a position deeper than `--max-empties`, before any solving.
fn check_depth(file: &str, problems: &[(usize, Obf)], max: u32) -> Result<(), CliError> {
    let deep: Vec<String> = problems
        .iter()
        .filter(|(_, o)| o.position.board.empty_count() > max)
        .map(|(line, o)| format!("{file}:{line} ({} empties)", o.position.board.empty_count()))
        .collect();
    match deep.first() {
        None => Ok(()),
        Some(first) => Err(CliError::Refused(format!(
            "{} position(s) with more than {max} empties, e.g. {first}: an exact solve that \
             deep may not end in any useful time; give --max-empties N to solve them anyway",
            deep.len()
        ))),
    }
}

/// The `--node-stats` CSV: its path and the text so far, written out whole after each position
/// so that a long run that is stopped keeps what it counted. Refused in builds without the
/// counters and with more than one thread; the header is written at once, so an unwritable path
/// fails before any solving.
fn node_stats_file(path: &std::path::Path, threads: usize) -> Result<(PathBuf, String), CliError> {
    if !node_stats::ENABLED {
        return Err(CliError::Refused(
            "--node-stats needs a build with the node-stats feature: cargo build --release \
             -p ply-othello-cli --features node-stats"
                .to_string(),
        ));
    }
    if threads != 1 {
        return Err(CliError::Refused(
            "--node-stats counts the nodes of one thread: give --threads 1".to_string(),
        ));
    }
    let csv = "position,depth,selectivity,empties,nodes\n".to_string();
    super::write(path, &csv)?;
    // nothing counted before the first solve belongs to it
    node_stats::take();
    Ok((path.to_path_buf(), csv))
}

/// Appends the rows of position `index` (the stages counted since the last call) to `csv`.
fn add_node_stats(csv: &mut String, index: usize) {
    use std::fmt::Write;
    for s in node_stats::take() {
        let (depth, sel) = s.stage.map_or((String::new(), String::new()), |(d, p)| {
            (d.to_string(), p.to_string())
        });
        for (n, &count) in s.by_empties.iter().enumerate().rev() {
            if count > 0 {
                // writing to a String cannot fail
                let _ = writeln!(csv, "{index},{depth},{sel},{n},{count}");
            }
        }
    }
}

/// Runs `solve`.
pub fn run(a: &SolveArgs) -> Result<ExitCode, CliError> {
    let text = super::read_text(std::path::Path::new(&a.file))?;
    let mode = mode(a);
    let mut totals = Totals::default();
    let problems = read_problems(&a.file, &text, &mut totals.bad_lines);
    if problems.is_empty() {
        return Err(CliError::NoPositions(a.file.clone()));
    }
    check_depth(&a.file, &problems, a.max_empties)?;
    let threads = a.threads;
    let mut stats = match &a.node_stats {
        Some(path) => Some(node_stats_file(path, threads)?),
        None => None,
    };
    let mut solver = Solver::try_with_threads(a.hash, a.portable, threads)?;
    if let Some(path) = &a.eval_file {
        solver = solver.with_weights(&parse_weights(&super::read(path)?)?);
    }
    let bar = progress_bar(problems.len(), a.json);
    if !a.json {
        bar.suspend(|| print_header(&solver, threads));
    }
    for (line, obf) in &problems {
        let index = totals.positions + 1;
        bar.set_message(format!(
            "solving #{index} ({} empties)",
            obf.position.board.empty_count()
        ));
        let solved = solve_one(&mut solver, obf, index, mode);
        if let Some((path, csv)) = stats.as_mut() {
            add_node_stats(csv, index);
            super::write(path, &*csv)?;
        }
        bar.inc(1);
        if let Verdict::IllegalAnnotation { annotated } = solved.verdict {
            bar.suspend(|| {
                eprintln!(
                    "{}:{line}: the annotated move {} is not legal in this position",
                    a.file, annotated
                );
            });
        }
        totals.add(&solved);
        if a.json {
            print_position_json(&solved, obf);
        } else {
            bar.suspend(|| print_row(&solved, obf, mode));
        }
    }
    bar.finish_and_clear();
    print_summary(&totals, a.json);
    Ok(if totals.errors == 0 && totals.bad_lines == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
