//! `ply-chess probe --file` against a shakmaty-syzygy program doing the same job: read a file of
//! positions, probe WDL and DTZ of each, print `FEN;wdl;dtz` lines (`FEN;error;<message>` when a
//! position cannot be probed).
//!
//! Two modes:
//!
//! - `probe_file_vs_shakmaty probe TABLES FILE` is the shakmaty-syzygy program: same input
//!   handling (first `;`-separated field, trimmed, blank lines skipped) and, for positions in the
//!   tables, the same output as `ply-chess probe --syzygy TABLES --file FILE`.
//! - `probe_file_vs_shakmaty bench ROUNDS PLY_CHESS TABLES FILE` runs the two programs in
//!   alternation, `ROUNDS` times each, output to `/dev/null`, and reports the CPU time (user +
//!   system, from `getrusage(RUSAGE_CHILDREN)`) of the median and the fastest run of each. Both
//!   programs are single-threaded.
//!
//! ```sh
//! cargo build --release -p ply-chess-cli -p ply-syzygy --example probe_file_vs_shakmaty
//! target/release/examples/probe_file_vs_shakmaty bench 15 target/release/ply-chess \
//!     ../shared/syzygy/tables fens.txt
//! ```

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Command, ExitCode, Stdio};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use shakmaty_syzygy::Tablebase;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let result = match args.get(1).map(String::as_str) {
        Some("probe") if args.len() == 4 => probe(&args[2], &args[3]),
        Some("bench") if args.len() == 6 => bench(&args[2], &args[3], &args[4], &args[5]),
        _ => {
            eprintln!(
                "usage: probe_file_vs_shakmaty probe TABLES FILE\n       \
                 probe_file_vs_shakmaty bench ROUNDS PLY_CHESS TABLES FILE"
            );
            return ExitCode::FAILURE;
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The shakmaty-syzygy program: one output line per input position.
fn probe(tables: &str, file: &str) -> std::io::Result<()> {
    // SAFETY: the table files are not modified while the program runs.
    let mut tb = unsafe { Tablebase::<Chess>::with_mmap_filesystem() };
    for dir in tables.split(':').filter(|d| !d.is_empty()) {
        tb.add_directory(dir)?;
    }
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut input = BufReader::new(std::fs::File::open(file)?);
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        let fen = line.split(';').next().unwrap_or("").trim();
        if fen.is_empty() {
            continue;
        }
        let pos = match fen.parse::<Fen>().map_err(|e| e.to_string()).and_then(|f| {
            f.into_position::<Chess>(CastlingMode::Standard)
                .map_err(|e| e.to_string())
        }) {
            Ok(pos) => pos,
            Err(e) => {
                writeln!(out, "{fen};error;invalid FEN: {e}")?;
                continue;
            }
        };
        let probed = tb.probe_wdl_after_zeroing(&pos).and_then(|wdl| {
            let dtz = tb.probe_dtz(&pos)?.ignore_rounding();
            Ok((wdl, dtz))
        });
        match probed {
            Ok((wdl, dtz)) => writeln!(out, "{fen};{};{}", i32::from(wdl), i32::from(dtz))?,
            Err(e) => writeln!(out, "{fen};error;{e}")?,
        }
    }
    out.flush()
}

/// CPU seconds (user + system) of the children this process has waited for.
fn children_cpu() -> f64 {
    // SAFETY: an all-zero `rusage` is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid, writable `rusage`; the call only writes it.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(rc, 0, "getrusage");
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// CPU seconds of one run of `cmd`, output discarded; fails if the program fails.
fn timed_run(cmd: &mut Command) -> std::io::Result<f64> {
    let before = children_cpu();
    let status = cmd
        .stdout(Stdio::null())
        .status()
        .map_err(|e| std::io::Error::new(e.kind(), format!("{cmd:?}: {e}")))?;
    if !status.success() {
        return Err(std::io::Error::other(format!("{cmd:?}: {status}")));
    }
    Ok(children_cpu() - before)
}

/// Alternate runs of the two programs and report their median and fastest CPU times.
fn bench(rounds: &str, ply_chess: &str, tables: &str, file: &str) -> std::io::Result<()> {
    let rounds: usize = rounds
        .parse()
        .map_err(|_| std::io::Error::other("ROUNDS must be a number"))?;
    let positions = BufReader::new(std::fs::File::open(file)?)
        .lines()
        .map_while(Result::ok)
        .filter(|l| !l.split(';').next().unwrap_or("").trim().is_empty())
        .count();
    let me = std::env::current_exe()?;
    let mut ply = Command::new(ply_chess);
    ply.args(["probe", "--syzygy", tables, "--file", file]);
    let mut sm = Command::new(&me);
    sm.args(["probe", tables, file]);
    // One untimed run each: the table files in the page cache, the binaries loaded.
    timed_run(&mut ply)?;
    timed_run(&mut sm)?;
    let (mut ply_times, mut sm_times) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        ply_times.push(timed_run(&mut ply)?);
        sm_times.push(timed_run(&mut sm)?);
        println!(
            "round {:>2}: ply-chess probe {:.3} s, shakmaty-syzygy {:.3} s",
            round + 1,
            ply_times[round],
            sm_times[round]
        );
    }
    let stats = |times: &mut Vec<f64>| {
        times.sort_by(f64::total_cmp);
        (times[times.len() / 2], times[0])
    };
    let (ply_median, ply_best) = stats(&mut ply_times);
    let (sm_median, sm_best) = stats(&mut sm_times);
    println!("{positions} positions, {rounds} alternating runs each, CPU time (user + system)");
    for (name, median, best) in [
        ("ply-chess probe", ply_median, ply_best),
        ("shakmaty-syzygy", sm_median, sm_best),
    ] {
        println!(
            "{name:<16} median {median:.3} s ({:.0} positions/s), fastest {best:.3} s",
            positions as f64 / median
        );
    }
    println!(
        "speedup: {:.2}x (medians), {:.2}x (fastest runs)",
        sm_median / ply_median,
        sm_best / ply_best
    );
    Ok(())
}
