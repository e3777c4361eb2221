//! The engine options of the playing front-ends (`gtp`, `nboard`, `analyse`, the text mode) are
//! range-checked, and a table size above the machine's memory is an error message naming the
//! limit, never an abort.

mod common;

use common::stderr;
use std::process::Output;

/// Runs the binary with `args` and `input` on stdin.
fn run(args: &[&str], input: &str) -> Output {
    common::ply_with_input(args, input.as_bytes())
}

/// The front-ends with the engine options: `[prefix..., option, value]` makes a command line.
const FRONT_ENDS: [&[&str]; 4] = [&["gtp"], &["nboard"], &["analyse", "f5"], &[]];

#[test]
fn out_of_range_engine_options_are_usage_errors() {
    for front in FRONT_ENDS {
        for (option, value, range) in [
            ("--level", "99", "0..=60"),
            ("--level", "61", "0..=60"),
            ("--threads", "0", "1..="),
            ("--hash", "0", "1..="),
            ("--hash", "99999999", "1..=1048576"),
        ] {
            let mut args = front.to_vec();
            args.extend([option, value]);
            let o = run(&args, "quit\n");
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains(range), "{args:?} names the range: {err}");
            assert!(o.stdout.is_empty(), "{args:?} printed {:?}", o.stdout);
        }
    }
}

#[test]
fn in_range_engine_options_are_accepted() {
    let o = run(
        &["gtp", "--level", "60", "--threads", "1", "--hash", "1"],
        "name\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("= ply"));
}

#[test]
fn a_hash_above_the_machines_memory_is_refused_with_the_limit() {
    // the engine's limit is this machine's memory (at most 1 TiB), decided before the system is
    // asked, so one MiB more is refused on every host alike; at the 1 TiB cap the option's range
    // refuses it instead
    let max = ply_othello_engine::hash_limit_mib();
    let over = (max + 1).to_string();
    for front in FRONT_ENDS {
        let mut args = front.to_vec();
        args.extend(["--hash", over.as_str()]);
        let o = run(&args, "quit\n");
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if max < ply_othello_engine::MAX_HASH_MIB {
            // a runtime error: 1 under the workspace's exit-code convention
            assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
            assert!(
                err.contains(&format!(
                    "{over} MiB are more than the {max} MiB allowed here"
                )),
                "{args:?}: {err}"
            );
        } else {
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains("1..=1048576"), "{args:?}: {err}");
        }
    }
}

#[test]
fn solve_and_datagen_refuse_a_huge_hash_with_a_message() {
    let scratch = ply_testkit::Scratch::new("hash-cli");
    let obf = scratch.file("one.obf");
    std::fs::write(
        &obf,
        "OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOX-- O;\n",
    )
    .expect("write an OBF file");
    let out = scratch.file("data.txt");
    let obf = obf.display().to_string();
    let out = out.display().to_string();
    for args in [
        vec!["solve", obf.as_str(), "--hash", "99999999"],
        vec![
            "datagen",
            "--games",
            "1",
            "--out",
            out.as_str(),
            "--hash",
            "99999999",
        ],
    ] {
        let o = run(&args, "");
        let err = stderr(&o);
        assert!(
            matches!(o.status.code(), Some(1 | 2)),
            "{args:?}: {:?} {err}",
            o.status
        );
        assert!(err.contains("99999999"), "{args:?}: {err}");
        assert!(!err.contains("memory allocation"), "{args:?}: {err}");
    }
}

/// The loss allowance of the sessions (`--strength`, `--loss`, `--seed`): values out of range,
/// a strength with a level and options `analyse` lacks are usage errors; the allowance plays
/// (every move drawn within 64 discs: the same moves for a seed).
#[test]
fn loss_allowance_options() {
    for front in [&["gtp"][..], &["nboard"], &[]] {
        for bad in [
            &["--loss", "65", "0.5"][..],
            &["--loss", "4", "1.5"],
            &["--loss", "4"],
            &["--strength", "grandmaster"],
            &["--strength", "club", "--level", "3"],
            &["--strength", "club", "--loss", "2", "0.5"],
            &["--seed", "-1"],
        ] {
            let args = [front, bad].concat();
            let o = run(&args, "quit\n");
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(o.stdout.is_empty(), "{args:?}");
        }
    }
    let o = run(&["analyse", "f5", "--strength", "club"], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let game = |seed: &str| {
        let o = run(
            &["gtp", "--level", "1", "--loss", "64", "1", "--seed", seed],
            "genmove black\ngenmove white\ngenmove black\ngenmove white\nquit\n",
        );
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    assert_eq!(game("5"), game("5"));
    let o = run(&["--strength", "beginner"], "strength\nquit\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("strength 6 full"));
}
