//! Probe speed over the truth positions, one thread, tables warm: ply-syzygy and shakmaty-syzygy side by
//! side. Run: `cargo run --release -p ply-syzygy --example probe_bench [-- ROUNDS [ply|shakmaty|both]
//! [wdl|dtz|both]]`; the optional arguments restrict the run to one prober and one kind of probe (for
//! profiling).

use std::path::PathBuf;
use std::time::Instant;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Seconds this thread has spent on a CPU ([`ply_testkit::thread_cpu_time`]), if available.
fn cpu_seconds() -> Option<f64> {
    ply_testkit::thread_cpu_time().map(|d| d.as_secs_f64())
}

/// Passes over the position set per timed round, so that a round lasts long enough for the
/// scheduler's on-CPU accounting.
const PASSES: usize = 10;

fn main() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/syzygy");
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(12);
    // Optional second argument `ply` or `shakmaty`: time only that prober (for profiling).
    let only = std::env::args().nth(2).unwrap_or_default();
    let (run_ply, run_sm) = (only != "shakmaty", only != "ply");
    // Optional third argument `wdl` or `dtz`: time only that kind of probe.
    let kind = std::env::args().nth(3).unwrap_or_default();
    let (run_wdl, run_dtz) = (kind != "dtz", kind != "wdl");
    let text = match std::fs::read_to_string(shared.join("truth.csv")) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("skipping: cannot read truth.csv: {e}");
            return;
        }
    };
    let fens: Vec<&str> = text
        .lines()
        .map(|l| l.split(';').next().unwrap_or(""))
        .collect();
    let tables = shared.join("tables");

    let ply_positions: Vec<ply_chess::Position> = fens
        .iter()
        .map(|f| ply_chess::Position::from_fen(f).expect("valid FEN"))
        .collect();
    let ply =
        ply_syzygy::Tablebase::open(tables.to_str().expect("utf-8 path")).expect("table directory");

    let sm_positions: Vec<Chess> = fens
        .iter()
        .map(|f| {
            f.parse::<Fen>()
                .expect("FEN")
                .into_position(CastlingMode::Standard)
                .expect("legal")
        })
        .collect();
    // SAFETY: the table files are not modified while the benchmark runs.
    let mut sm = unsafe { shakmaty_syzygy::Tablebase::with_mmap_filesystem() };
    sm.add_directory(&tables).expect("table directory");

    let n = fens.len();
    println!(
        "{n} positions x {PASSES} passes per round, {rounds} WDL rounds and {} DTZ rounds per prober, one thread,",
        rounds.div_ceil(4)
    );
    println!("rounds of the two probers interleaved, timed by on-CPU time; rates of the median and the fastest round");

    let mut check = 0i64;
    let ply_wdl = |check: &mut i64| {
        for p in &ply_positions {
            *check += ply.probe_wdl(p).map(|w| w as i64).unwrap_or(9);
        }
    };
    let sm_wdl = |check: &mut i64| {
        for p in &sm_positions {
            *check += sm
                .probe_wdl_after_zeroing(p)
                .map(|w| i64::from(w.signum()))
                .unwrap_or(9);
        }
    };
    let ply_dtz = |check: &mut i64| {
        for p in &ply_positions {
            *check += ply.probe_dtz(p).map(|d| i64::from(d.0)).unwrap_or(9);
        }
    };
    let sm_dtz = |check: &mut i64| {
        for p in &sm_positions {
            *check += sm
                .probe_dtz(p)
                .map(|d| i64::from(d.ignore_rounding().0))
                .unwrap_or(9);
        }
    };
    // Warm-up: open and map every table, fault in the pages.
    for (f, enabled) in [
        (&ply_wdl as &dyn Fn(&mut i64), run_ply && run_wdl),
        (&sm_wdl, run_sm && run_wdl),
        (&ply_dtz, run_ply && run_dtz),
        (&sm_dtz, run_sm && run_dtz),
    ] {
        if enabled {
            f(&mut check);
        }
    }

    let mut time_round = |f: &dyn Fn(&mut i64), enabled: bool, times: &mut Vec<f64>| {
        if enabled {
            let (t, cpu) = (Instant::now(), cpu_seconds());
            for _ in 0..PASSES {
                f(&mut check);
            }
            // On-CPU time of this thread when the kernel reports it (the box is shared), else wall clock.
            times.push(match (cpu, cpu_seconds()) {
                (Some(a), Some(b)) if b > a => b - a,
                _ => t.elapsed().as_secs_f64(),
            });
        }
    };
    let (mut pw, mut sw, mut pd, mut sd) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        time_round(&ply_wdl, run_ply && run_wdl, &mut pw);
        time_round(&sm_wdl, run_sm && run_wdl, &mut sw);
    }
    for _ in 0..rounds.div_ceil(4) {
        time_round(&ply_dtz, run_ply && run_dtz, &mut pd);
        time_round(&sm_dtz, run_sm && run_dtz, &mut sd);
    }
    // (median rate, best rate) in probes per second.
    let rates = |times: &mut Vec<f64>| -> (f64, f64) {
        if times.is_empty() {
            return (0.0, 0.0);
        }
        times.sort_by(f64::total_cmp);
        let probes = (n * PASSES) as f64;
        (probes / times[times.len() / 2], probes / times[0])
    };
    let (pw, sw, pd, sd) = (
        rates(&mut pw),
        rates(&mut sw),
        rates(&mut pd),
        rates(&mut sd),
    );
    println!(
        "{:<16} {:>18} {:>18}",
        "prober", "WDL/s median/best", "DTZ/s median/best"
    );
    for (name, w, d) in [("ply-syzygy", pw, pd), ("shakmaty-syzygy", sw, sd)] {
        println!(
            "{name:<16} {:>9.0} {:>8.0} {:>9.0} {:>8.0}",
            w.0, w.1, d.0, d.1
        );
    }
    println!(
        "speedup (median): WDL {:.2}x, DTZ {:.2}x (checksum {check})",
        pw.0 / sw.0,
        pd.0 / sd.0
    );
}
