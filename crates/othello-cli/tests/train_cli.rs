//! `ply-othello train` end to end on a few WTHOR games: both pattern sets fit and write weights
//! that `eval` reads, weights with the extra kinds are refused as `eval.dat`, candidate shapes
//! cannot be written, and test positions are left out of training.

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
