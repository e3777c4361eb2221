//! `ply-othello eval`: one score per position in file order, JSON lines, the error table against
//! the file's exact scores, and bad lines reported without stopping.

mod common;

/// Runs `ply-othello eval` with `args`: (success, stdout, stderr).
fn eval(args: &[&str]) -> (bool, String, String) {
    let out = common::ply(&[&["eval"], args].concat());
    (
        out.status.success(),
        common::stdout(&out),
        common::stderr(&out),
    )
}

const START: &str = "---------------------------OX------XO--------------------------- X";

#[test]
fn scores_every_position_in_order_and_measures_against_annotations() {
    let scratch = ply_testkit::Scratch::new("eval");
    let dir = scratch.path();
    let file = dir.join("p.obf");
    // the start position, its mirror image (same evaluation), and an annotated endgame
    let mirrored = "---------------------------XO------OX--------------------------- O";
    let endgame =
        "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X; H5:+6; G6:-2;";
    std::fs::write(
        &file,
        format!("% comment\n{START}\n{mirrored}\n\n{endgame}\n"),
    )
    .unwrap();
    let (ok, out, err) = eval(&[file.to_str().unwrap()]);
    assert!(ok, "{err}");
    let scores: Vec<f64> = out.lines().map(|l| l.parse().expect("a number")).collect();
    assert_eq!(scores.len(), 3, "{out}");
    assert_eq!(scores[0], scores[1], "colour-swapped start scores alike");
    assert!(scores[0].abs() < 4.0, "{out}");
    // the error table covers the one annotated position (6 empties, exact +6)
    let row = err
        .lines()
        .find(|l| l.trim_start().starts_with("6 "))
        .expect("a row for 6 empties");
    let mae: f64 = row.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(
        (mae - (scores[2] - 6.0).abs()).abs() < 0.006,
        "{row} vs {}",
        scores[2]
    );

    let (ok, out, _) = eval(&[file.to_str().unwrap(), "--json"]);
    assert!(ok);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["line"], 2);
    assert_eq!(lines[2]["index"], 3);
    assert_eq!(lines[2]["empties"], 6);
    assert_eq!(lines[2]["exact"], 6);
    assert!(lines[0].get("exact").is_none());
    for (l, s) in lines.iter().zip(&scores) {
        assert!((l["score"].as_f64().unwrap() - s).abs() < 0.006);
    }

    // a bad line is reported and skipped; the others are still scored; the status says so
    std::fs::write(&file, format!("{START}\nnot a board\n{START}\n")).unwrap();
    let (ok, out, err) = eval(&[file.to_str().unwrap()]);
    assert!(!ok);
    assert_eq!(out.lines().count(), 2);
    assert!(err.contains(":2:"), "{err}");

    // missing files and bad weight files are errors, not panics
    let (ok, _, err) = eval(&[dir.join("none.obf").to_str().unwrap()]);
    assert!(!ok && err.contains("cannot read"), "{err}");
    let junk = dir.join("junk.dat");
    std::fs::write(&junk, b"junk").unwrap();
    let (ok, _, err) = eval(&[
        file.to_str().unwrap(),
        "--eval-file",
        junk.to_str().unwrap(),
    ]);
    assert!(!ok && !err.contains("panicked"), "{err}");
}
