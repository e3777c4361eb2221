//! Every kept input of every target runs through its harness: the regression inputs of past
//! findings (`fuzz/regressions/<target>/`), the built-in seeds, and the seeds made from
//! `../shared/` (skipped with a printed reason when that folder is absent).

use std::path::PathBuf;

fn regressions_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions")
}

/// The regression inputs are committed with the repository (`fuzz/regressions/`): the folder
/// must be there and every input in it must replay, so this test cannot pass having replayed
/// nothing.
#[test]
fn regression_inputs_replay_clean() {
    let root = regressions_root();
    let folders = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e} (the regressions are committed)", root.display()));
    let mut on_disk = 0;
    for e in folders.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let files = std::fs::read_dir(e.path()).expect("a regression folder is readable");
        let count = files
            .filter(|f| f.as_ref().is_ok_and(|f| f.path().is_file()))
            .count();
        assert!(count > 0, "fuzz/regressions/{name} is empty");
        on_disk += count;
    }
    let mut n = 0;
    for t in ply_fuzz::TARGETS {
        let Ok(dir) = std::fs::read_dir(root.join(t.name)) else {
            continue;
        };
        let mut files: Vec<PathBuf> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).expect("regression input readable");
            (t.run)(&data);
            n += 1;
        }
    }
    println!("{n} regression inputs replayed");
    // every file under the folder belongs to a target and was replayed; there are some
    assert_eq!(n, on_disk, "inputs replayed against inputs on disk");
    assert!(n >= 6, "only {n} regression inputs (6 were committed)");
}

#[test]
fn every_target_has_a_regression_folder_name_that_exists() {
    // a folder under fuzz/regressions/ must name a target (a typo would silently skip it)
    let dir = std::fs::read_dir(regressions_root()).expect("fuzz/regressions is committed");
    for e in dir.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        assert!(
            ply_fuzz::target(&name).is_some(),
            "fuzz/regressions/{name} names no target"
        );
    }
}

#[test]
fn builtin_seeds_replay_clean() {
    let seeds = ply_fuzz::seeds::builtin();
    for t in ply_fuzz::TARGETS {
        if ["uci", "gtp", "nboard", "text"].contains(&t.name) {
            assert!(
                seeds.iter().any(|s| s.target == t.name),
                "{} has no transcript",
                t.name
            );
        }
    }
    for s in &seeds {
        let t = ply_fuzz::target(s.target).expect("seed of a known target");
        (t.run)(&s.data);
    }
}

#[test]
fn shared_seeds_replay_clean() {
    let Some(shared) = ply_testkit::shared("") else {
        return;
    };
    let seeds = ply_fuzz::seeds::from_shared(&shared);
    for target in [
        "fen", "book", "records", "syzygy", "obf", "ggf", "wthor", "openings",
    ] {
        assert!(
            seeds.iter().any(|s| s.target == target),
            "no {target} seed from ../shared"
        );
    }
    for s in &seeds {
        let t = ply_fuzz::target(s.target).expect("seed of a known target");
        (t.run)(&s.data);
    }
}
