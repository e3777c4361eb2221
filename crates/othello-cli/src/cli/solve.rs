//! `ply-othello solve FILE.obf`: solves each position exactly, prints an Edax-like table (or
//! JSON lines) and counts disagreements with the file's annotated scores.

use super::CliError;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use ply_othello::obf::{parse_obf_line, Obf};
use ply_othello::square_name;
use ply_othello_engine::{Mode, RootResult, Solver};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `solve`.
#[derive(Args)]
pub struct SolveArgs {
    /// OBF file (`<board> <X|O>; A2:+38; ...` per line).
    file: String,
    /// Search threads (1 = the sequential reference search).
    #[arg(long, default_value_t = 1)]
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
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    hash_mib: usize,
    /// Use the portable kernel even if the CPU has AVX2/BMI2.
    #[arg(long)]
    portable: bool,
}

/// CPU time consumed by the calling thread, in seconds (Linux `/proc/thread-self/schedstat`,
/// nanosecond resolution). The machine may be shared, so wall time alone would mislead.
fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 * 1e-9)
}

/// Name of a square or pass code.
fn name(x: u8) -> &'static str {
    square_name(x as usize)
}

/// Disagreements between a result and the file's annotations.
fn count_errors(obf: &Obf, r: &RootResult, mode: Mode) -> usize {
    let Some(best) = obf.best_score() else {
        return 0;
    };
    let mut errors = 0;
    let score_ok = match mode {
        Mode::Wdl => r.score.signum() == best.signum(),
        _ => r.score == best,
    };
    if !score_ok {
        errors += 1;
    }
    if mode != Mode::Wdl {
        if let Some(m) = r.best {
            if !obf.best_moves().contains(&(m as usize)) {
                errors += 1;
            }
        }
    }
    if mode == Mode::AllMoves {
        for &(m, s) in &obf.moves {
            if r.moves.iter().find(|x| x.0 as usize == m).map(|x| x.1) != Some(s) {
                errors += 1;
            }
        }
    }
    errors
}

/// Runs `solve`.
pub fn run(a: &SolveArgs) -> Result<ExitCode, CliError> {
    let text = std::fs::read_to_string(&a.file).map_err(|source| CliError::Read {
        path: a.file.clone(),
        source,
    })?;
    let mode = if a.all_moves {
        Mode::AllMoves
    } else if a.wdl {
        Mode::Wdl
    } else {
        Mode::Exact
    };
    let mut solver = Solver::with_threads(a.hash_mib, a.portable, a.threads.max(1));
    let lines: Vec<(usize, &str)> = text.lines().enumerate().collect();
    let bar = if std::io::stderr().is_terminal() && !a.json {
        let b = ProgressBar::new(lines.len() as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed}") {
            b.set_style(style);
        }
        b
    } else {
        ProgressBar::hidden()
    };
    if !a.json {
        println!(
            "kernel: {}, threads: {}",
            solver.kernel_name(),
            a.threads.max(1)
        );
        println!("   # | empties | best | score | expected |   time (s) |    cpu (s) |          nodes | nodes/s(cpu) | pv");
        println!("-----+---------+------+-------+----------+------------+------------+----------------+--------------+------------------");
    }
    let (mut index, mut errors, mut bad_lines) = (0usize, 0usize, 0usize);
    let (mut total_nodes, mut total_time, mut total_cpu) = (0u64, 0f64, 0f64);
    for (lineno, line) in lines {
        bar.inc(1);
        let obf = match parse_obf_line(line) {
            Ok(Some(o)) => o,
            Ok(None) => continue,
            Err(e) => {
                bad_lines += 1;
                bar.suspend(|| eprintln!("{}:{}: {e} (line skipped)", a.file, lineno + 1));
                continue;
            }
        };
        index += 1;
        let b = obf.position.board;
        let empties = 64 - (b.player | b.opponent).count_ones();
        solver.clear();
        let cpu0 = thread_cpu_seconds();
        let t = Instant::now();
        let r = solver.solve(b.player, b.opponent, mode);
        let secs = t.elapsed().as_secs_f64();
        // single-threaded runs also report the thread's CPU time (the box may be shared)
        let cpu = match (cpu0, thread_cpu_seconds()) {
            // the kernel updates the counter at scheduler ticks: very short solves may read 0
            (Some(a), Some(b)) if solver.threads() == 1 && b > a => b - a,
            _ => secs,
        };
        total_cpu += cpu;
        let e = count_errors(&obf, &r, mode);
        errors += e;
        total_nodes += r.nodes;
        total_time += secs;
        let best = r.best.map_or("--", name);
        let expected = obf
            .best_score()
            .map_or_else(|| "?".to_string(), |s| format!("{s:+}"));
        if a.json {
            println!(
                "{{\"index\":{index},\"empties\":{empties},\"best\":\"{best}\",\"score\":{},\"expected\":{},\"errors\":{e},\"nodes\":{},\"seconds\":{secs:.6},\"cpu_seconds\":{cpu:.6}}}",
                r.score,
                obf.best_score().map_or_else(|| "null".to_string(), |s| s.to_string()),
                r.nodes
            );
        } else {
            let pv: Vec<&str> = r.pv.iter().map(|&x| name(x)).collect();
            let mark = if e > 0 { " <-- ERROR" } else { "" };
            bar.suspend(|| {
                println!(
                    "{index:4} | {empties:7} | {best:>4} | {:+5} | {expected:>8} | {secs:10.3} | {cpu:10.3} | {:14} | {:12.0} | {}{mark}",
                    r.score,
                    r.nodes,
                    if cpu > 1e-6 { r.nodes as f64 / cpu } else { 0.0 },
                    pv.join(" ")
                );
                if mode == Mode::AllMoves {
                    let all: Vec<String> = r.moves.iter().map(|&(m, s)| format!("{}:{s:+}", name(m))).collect();
                    println!("     |   all moves: {}", all.join(" "));
                }
            });
        }
    }
    bar.finish_and_clear();
    let nps = total_nodes as f64 / total_cpu.max(1e-9);
    if a.json {
        println!(
            "{{\"summary\":true,\"positions\":{index},\"errors\":{errors},\"bad_lines\":{bad_lines},\"nodes\":{total_nodes},\"seconds\":{total_time:.6},\"cpu_seconds\":{total_cpu:.6},\"nodes_per_cpu_second\":{nps:.0}}}"
        );
    } else {
        println!(
            "total: {index} positions, {total_time:.3} s wall, {total_cpu:.3} s cpu, {total_nodes} nodes, {nps:.0} nodes/s (cpu), {errors} errors, {bad_lines} bad lines"
        );
    }
    Ok(if errors == 0 && bad_lines == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
