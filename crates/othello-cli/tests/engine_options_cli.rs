//! The engine options of the playing front-ends (`gtp`, `nboard`, `analyse`, the text mode) are
//! range-checked, and a table size the system cannot give is an error message, never an abort.

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

/// True where a 1 TiB allocation may be granted (no overcommit check, or that much memory):
/// the refusal cannot be observed there, and the attempt would be killed by the OOM killer.
fn terabyte_may_be_granted() -> bool {
    let overcommit = std::fs::read_to_string("/proc/sys/vm/overcommit_memory").ok();
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kib: u64 = meminfo
        .lines()
        .filter(|l| l.starts_with("MemTotal:") || l.starts_with("SwapTotal:"))
        .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum();
    overcommit.as_deref().map(str::trim) != Some("0") || kib >= 1 << 30
}

#[test]
fn the_maximum_hash_that_cannot_be_allocated_is_an_error_message() {
    if terabyte_may_be_granted() {
        ply_testkit::skip("this system may grant a 1 TiB table (overcommit or memory)");
        return;
    }
    for front in FRONT_ENDS {
        let mut args = front.to_vec();
        args.extend(["--hash", "1048576"]);
        let o = run(&args, "quit\n");
        let err = stderr(&o);
        // a runtime error: 1 under the workspace's exit-code convention (2 before it)
        assert!(
            matches!(o.status.code(), Some(1 | 2)),
            "{args:?}: {:?} {err}",
            o.status
        );
        assert!(
            err.contains("cannot allocate 1048576 MiB"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
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
