//! `ply-othello train` end to end on a few WTHOR games: both pattern sets fit and write weights
//! that `eval` reads, weights with the extra kinds are refused as `eval.dat`, candidate shapes
//! cannot be written, test positions are left out of training, and `--dedup` merges repeats.

mod common;

use common::{path, ply, text};
use std::path::Path;

#[test]
fn train_writes_both_sets_and_keeps_test_positions_out() {
    let scratch = ply_testkit::Scratch::new("othello-train-cli");
    let Some(shared) = ply_testkit::shared("othello/wthor") else {
        ply_testkit::skip("../shared/othello/wthor is missing");
        return;
    };
    let obf = scratch.file("test.obf");
    let dir = obf.with_file_name("wthor");
    std::fs::create_dir_all(&dir).unwrap();
    for year in ["1977", "1978", "1979"] {
        let name = format!("WTH_{year}.wtb");
        std::fs::copy(shared.join(&name), dir.join(&name)).expect("copy a WTHOR file");
    }
    // every game starts from the start position: as a test position it leaves training
    std::fs::write(
        &obf,
        "---------------------------OX------XO--------------------------- X; F5:+0;\n",
    )
    .unwrap();
    let fit = |set: &str, out: &Path| {
        ply(&[
            "train",
            "--wthor",
            path(&dir),
            "--quiet",
            "--stages",
            "6",
            "--epochs-first",
            "3",
            "--epochs",
            "3",
            "--pattern-set",
            set,
            "--test-labels",
            path(&obf),
            "--out",
            path(out),
        ])
    };
    let full = obf.with_file_name("full.plyeval");
    let out = fit("full", &full);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("training positions are test positions"),
        "{}",
        text(&out)
    );
    let edax = obf.with_file_name("edax.plyeval");
    let out = fit("edax", &edax);
    assert!(out.status.success(), "{}", text(&out));

    // both files evaluate; only the Edax-set weights export to eval.dat
    for w in [&full, &edax] {
        let out = ply(&["eval", path(&obf), "--eval-file", path(w)]);
        assert!(out.status.success(), "{}", text(&out));
    }
    let dat = obf.with_file_name("eval.dat");
    let out = ply(&[
        "weights",
        "--eval-file",
        path(&edax),
        "--edax-out",
        path(&dat),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let out = ply(&[
        "weights",
        "--eval-file",
        path(&full),
        "--edax-out",
        path(&dat),
    ]);
    assert!(
        !out.status.success() && text(&out).contains("beyond Edax"),
        "{}",
        text(&out)
    );

    // candidate shapes are measured, never written
    let out = ply(&[
        "train",
        "--wthor",
        path(&dir),
        "--extra-patterns",
        "triangle",
        "--out",
        path(&full),
    ]);
    assert!(
        !out.status.success() && text(&out).contains("cannot be written"),
        "{}",
        text(&out)
    );
    let out = ply(&["train", "--extra-patterns", "hexagon"]);
    assert!(
        !out.status.success() && text(&out).contains("unknown pattern"),
        "{}",
        text(&out)
    );
}

#[test]
fn dedup_merges_label_positions_repeated_up_to_symmetry() {
    let scratch = ply_testkit::Scratch::new("othello-train-dedup");
    let labels = scratch.file("labels.txt");
    // after d3 and after f5 (the same position up to symmetry, White to move), three times in
    // all, and after d3 c5 once: 4 lines, 2 positions
    let d3 = "-------------------X-------XX------XO--------------------------- O";
    let f5 = "---------------------------OX------XXX-------------------------- O";
    let c5 = "-------------------X-------XX-----OOO--------------------------- X";
    std::fs::write(
        &labels,
        format!("{d3} 4 0 played\n{f5} 8 1 played\n{d3} 6 2 played\n{c5} -2 3 played\n"),
    )
    .unwrap();
    let run = |dedup: bool| {
        let mut args = vec![
            "train",
            "--labels",
            path(&labels),
            "--quiet",
            "--stages",
            "23",
            "--epochs-first",
            "2",
            "--epochs",
            "2",
        ];
        if dedup {
            args.push("--dedup");
        }
        ply(&args)
    };
    let out = run(true);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("--dedup: 4 label-file positions, 2 after merging 2 repeats"),
        "{}",
        text(&out)
    );
    let out = run(false);
    assert!(out.status.success(), "{}", text(&out));
    assert!(!text(&out).contains("--dedup"), "{}", text(&out));
}
