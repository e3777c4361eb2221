//! Probe speed over the truth positions, one thread, tables warm: ply-syzygy and shakmaty-syzygy side by
//! side. Run: `cargo run --release -p ply-syzygy --example bench [-- ROUNDS]`.

use std::path::PathBuf;
use std::time::Instant;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

fn main() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/syzygy");
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    // Optional second argument `ply` or `shakmaty`: time only that prober (for profiling).
    let only = std::env::args().nth(2).unwrap_or_default();
    let (run_ply, run_sm) = (only != "shakmaty", only != "ply");
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
    let rate = |probes: usize, secs: f64| probes as f64 / secs;
    println!("{n} positions x {rounds} rounds, one thread");

    // WDL
    let mut check = 0i64;
    let run_ply_wdl = |check: &mut i64| {
        for p in &ply_positions {
            *check += ply.probe_wdl(p).map(|w| w as i64).unwrap_or(9);
        }
    };
    let run_sm_wdl = |check: &mut i64| {
        for p in &sm_positions {
            *check += sm
                .probe_wdl_after_zeroing(p)
                .map(|w| i64::from(w.signum()))
                .unwrap_or(9);
        }
    };
    run_ply_wdl(&mut check);
    run_sm_wdl(&mut check);
    let t = Instant::now();
    for _ in 0..rounds * usize::from(run_ply) {
        run_ply_wdl(&mut check);
    }
    let ply_wdl = rate(n * rounds, t.elapsed().as_secs_f64());
    let t = Instant::now();
    for _ in 0..rounds * usize::from(run_sm) {
        run_sm_wdl(&mut check);
    }
    let sm_wdl = rate(n * rounds, t.elapsed().as_secs_f64());

    // DTZ
    let dtz_rounds = rounds.div_ceil(4);
    let run_ply_dtz = |check: &mut i64| {
        for p in &ply_positions {
            *check += ply.probe_dtz(p).map(|d| i64::from(d.0)).unwrap_or(9);
        }
    };
    let run_sm_dtz = |check: &mut i64| {
        for p in &sm_positions {
            *check += sm
                .probe_dtz(p)
                .map(|d| i64::from(d.ignore_rounding().0))
                .unwrap_or(9);
        }
    };
    run_ply_dtz(&mut check);
    run_sm_dtz(&mut check);
    let t = Instant::now();
    for _ in 0..dtz_rounds * usize::from(run_ply) {
        run_ply_dtz(&mut check);
    }
    let ply_dtz = rate(n * dtz_rounds, t.elapsed().as_secs_f64());
    let t = Instant::now();
    for _ in 0..dtz_rounds * usize::from(run_sm) {
        run_sm_dtz(&mut check);
    }
    let sm_dtz = rate(n * dtz_rounds, t.elapsed().as_secs_f64());

    println!(
        "{:<16} {:>14} {:>14}",
        "prober", "WDL probes/s", "DTZ probes/s"
    );
    println!("{:<16} {:>14.0} {:>14.0}", "ply-syzygy", ply_wdl, ply_dtz);
    println!(
        "{:<16} {:>14.0} {:>14.0}",
        "shakmaty-syzygy", sm_wdl, sm_dtz
    );
    println!(
        "speedup: WDL {:.2}x, DTZ {:.2}x (checksum {check})",
        ply_wdl / sm_wdl,
        ply_dtz / sm_dtz
    );
}
