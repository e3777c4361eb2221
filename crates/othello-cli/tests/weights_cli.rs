//! `ply-othello weights`: the built-in weights exported in Edax's format read back to the same
//! bytes, and bad files are errors with a message, never a panic.

mod common;

/// Runs `ply-othello weights args...`: (success, stdout then stderr).
fn weights(args: &[&str]) -> (bool, String) {
    let out = common::ply(&[&["weights"], args].concat());
    (out.status.success(), common::text(&out))
}

#[test]
fn edax_export_round_trips_and_bad_files_are_errors() {
    let scratch = ply_testkit::Scratch::new("weights");
    let dir = scratch.path();
    let a = dir.join("a.dat");
    let b = dir.join("b.dat");
    let (ok, text) = weights(&["--edax-out", a.to_str().unwrap()]);
    assert!(ok, "{text}");
    let bytes = std::fs::read(&a).expect("written");
    // header (28 bytes) + 61 plies of the packed pattern weights
    assert_eq!(
        &bytes[..8],
        b"XADELAVE",
        "Edax magic in little-endian words"
    );
    let (ok, text) = weights(&[
        "--eval-file",
        a.to_str().unwrap(),
        "--edax-out",
        b.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    assert_eq!(std::fs::read(&b).expect("written"), bytes);

    let junk = dir.join("junk.dat");
    std::fs::write(&junk, b"not weights").expect("written");
    let (ok, text) = weights(&[
        "--eval-file",
        junk.to_str().unwrap(),
        "--edax-out",
        b.to_str().unwrap(),
    ]);
    assert!(
        !ok && text.contains("not an Edax evaluation file"),
        "{text}"
    );
    let (ok, text) = weights(&[
        "--eval-file",
        dir.join("missing").to_str().unwrap(),
        "--edax-out",
        b.to_str().unwrap(),
    ]);
    assert!(!ok && text.contains("cannot read"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
}
