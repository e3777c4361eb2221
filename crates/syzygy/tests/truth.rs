//! Agreement with the shared ground truth (`../shared/syzygy/truth.csv`, produced by an independent
//! prober and cross-checked with two others): raw table values, WDL and DTZ on every line.

use std::path::PathBuf;

use ply_chess::Position;
use ply_syzygy::{RawPosition, Tablebase};

/// `shared/syzygy` (tables and truth files), or `None` after a visible skip (a failure under
/// `PLY_STRICT=1`) when its `truth.csv` is absent.
fn shared() -> Option<PathBuf> {
    let truth = ply_testkit::shared("syzygy/truth.csv")?;
    Some(
        truth
            .parent()
            .expect("truth.csv has a folder")
            .to_path_buf(),
    )
}

#[test]
fn raw_table_values_match_truth_meta() {
    let Some(dir) = shared() else { return };
    let tb = Tablebase::open(dir.join("tables").to_str().unwrap()).unwrap();
    let text = std::fs::read_to_string(dir.join("truth_meta.csv")).unwrap();
    let (mut checked, mut wrong) = (0, Vec::new());
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(';').collect();
        let pos = Position::from_fen(f[0]).unwrap();
        let Ok(expected) = f[5].parse::<i8>() else {
            continue;
        };
        let got = tb
            .probe_wdl_table(&RawPosition::from(&pos))
            .map(|w| w as i8);
        checked += 1;
        if got != Ok(expected) {
            wrong.push(format!(
                "{} table={} expected {expected} got {got:?}",
                f[0], f[3]
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked} wrong:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
    assert!(checked > 4000);
}

#[test]
fn wdl_and_dtz_match_truth_on_every_line() {
    let Some(dir) = shared() else { return };
    let tb = Tablebase::open(dir.join("tables").to_str().unwrap()).unwrap();
    let text = std::fs::read_to_string(dir.join("truth.csv")).unwrap();
    let (mut checked, mut wrong) = (0, Vec::new());
    for line in text.lines() {
        let f: Vec<&str> = line.split(';').collect();
        let pos = Position::from_fen(f[0]).unwrap();
        let (wdl, dtz): (i8, i32) = (f[1].parse().unwrap(), f[2].parse().unwrap());
        let got_wdl = tb.probe_wdl(&pos).map(|w| w as i8);
        let got_dtz = tb.probe_dtz(&pos).map(|d| d.0);
        let both = tb.probe_wdl_dtz(&pos).map(|(w, d)| (w as i8, d.0));
        checked += 1;
        if got_wdl != Ok(wdl) || got_dtz != Ok(dtz) || both != Ok((wdl, dtz)) {
            wrong.push(format!(
                "{}: expected {wdl};{dtz} got {got_wdl:?};{got_dtz:?}, together {both:?}",
                f[0]
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked} wrong:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(30)].join("\n")
    );
    assert_eq!(checked, 5001);
}

#[test]
fn wdl_and_dtz_together_give_the_errors_of_the_separate_probes() {
    let Some(dir) = shared() else { return };
    let tb = Tablebase::open(dir.join("tables").to_str().unwrap()).unwrap();
    for fen in [
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",    // castling rights
        "k7/8/8/8/8/8/8/KQRBN3 w - - 0 1",   // no 7-piece table here
        "k7/8/8/8/8/8/8/KQRB4 w - - 0 1",    // no 5-piece table here
        "8/8/8/8/8/2k5/8/KQ6 w - - 0 1",     // a win
        "8/8/8/2k5/3pP3/8/8/4K3 b - e3 0 1", // en passant
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let separate = tb
            .probe_wdl(&pos)
            .and_then(|w| Ok((w, tb.probe_dtz(&pos)?)));
        assert_eq!(tb.probe_wdl_dtz(&pos), separate, "{fen}");
    }
}

#[test]
fn best_root_moves_keep_the_result() {
    let Some(dir) = shared() else { return };
    let tb = Tablebase::open(dir.join("tables").to_str().unwrap()).unwrap();
    let text = std::fs::read_to_string(dir.join("truth.csv")).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let f: Vec<&str> = line.split(';').collect();
        let pos = Position::from_fen(f[0]).unwrap();
        let (wdl, dtz): (i8, i32) = (f[1].parse().unwrap(), f[2].parse().unwrap());
        let best = tb.best_root_moves(&pos).unwrap();
        if pos.legal_moves().is_empty() {
            assert!(best.is_empty());
            continue;
        }
        checked += 1;
        assert!(!best.is_empty(), "{}", f[0]);
        for m in &best {
            // The best moves keep the position's result, and a win is converted without wasting moves.
            assert_eq!(m.wdl as i8, wdl, "{} {:?}", f[0], m);
            let d = m.dtz.expect("DTZ tables present").0;
            assert_eq!(d.signum(), dtz.signum(), "{} {:?}", f[0], m);
            if dtz > 0 {
                assert!(d <= dtz + 1, "{} {:?} vs {dtz}", f[0], m);
            }
        }
    }
    assert!(checked > 4500);
}

#[test]
fn shared_between_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Tablebase>();
    let Some(dir) = shared() else { return };
    let tb = Tablebase::open(dir.join("tables").to_str().unwrap()).unwrap();
    let text = std::fs::read_to_string(dir.join("truth.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Several threads open the same tables lazily at the same time and must agree with the truth.
    std::thread::scope(|s| {
        for t in 0..4 {
            let (tb, lines) = (&tb, &lines);
            s.spawn(move || {
                for line in lines.iter().skip(t).step_by(3) {
                    let f: Vec<&str> = line.split(';').collect();
                    let pos = Position::from_fen(f[0]).unwrap();
                    assert_eq!(
                        tb.probe_wdl(&pos).unwrap() as i8,
                        f[1].parse::<i8>().unwrap()
                    );
                    assert_eq!(tb.probe_dtz(&pos).unwrap().0, f[2].parse::<i32>().unwrap());
                }
            });
        }
    });
}

#[test]
fn root_moves_fall_back_to_wdl_without_dtz_tables() {
    let Some(dir) = shared() else { return };
    let scratch = ply_testkit::Scratch::new("syzygy-wdl-only");
    let wdl_only = scratch.path();
    for entry in std::fs::read_dir(dir.join("tables")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rtbw") {
            let _ = std::os::unix::fs::symlink(&path, wdl_only.join(path.file_name().unwrap()));
        }
    }
    let tb = Tablebase::open(wdl_only.to_str().unwrap()).unwrap();
    let text = std::fs::read_to_string(dir.join("truth.csv")).unwrap();
    let mut checked = 0;
    for line in text.lines().step_by(7) {
        let f: Vec<&str> = line.split(';').collect();
        let pos = Position::from_fen(f[0]).unwrap();
        // Draws and zeroing positions need no DTZ table; whatever is answered must be right.
        if let Ok(dtz) = tb.probe_dtz(&pos) {
            assert_eq!(dtz.0, f[2].parse::<i32>().unwrap(), "{}", f[0]);
        }
        let best = tb.best_root_moves(&pos).unwrap();
        for m in &best {
            assert_eq!(m.wdl as i8, f[1].parse::<i8>().unwrap(), "{}", f[0]);
        }
        // Positions whose root moves only reach draws or zeroing moves still get DTZ ranks.
        checked += usize::from(best.first().is_some_and(|m| m.dtz.is_none()));
    }
    assert!(checked > 300, "{checked}");
}
