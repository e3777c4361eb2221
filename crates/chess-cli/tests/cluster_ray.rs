//! `tools/cluster/run.py` on a local Ray instance: the shards of `ply-chess datagen` it gathers,
//! and their merge, are byte for byte the shards run one by one without Ray; a second run skips
//! the complete shards; a shard whose output went missing is run again (writing straight into
//! the output folder, with the binary shipped through Ray).
//!
//! Needs python3 with Ray (`pip install -r tools/cluster/requirements.txt`, which `.ci/run` does);
//! without Ray it skips with a printed reason (a failure under `PLY_STRICT=1`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SHARDS: usize = 3;
const COMMAND: [&str; 7] = ["datagen", "--games", "6", "--seed", "5", "--nodes", "300"];

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A folder for Ray's session files (logs, sockets), removed when dropped: by default Ray keeps
/// every session under `$TMPDIR/ray` or `/tmp/ray`. Under the temporary folder where it is short
/// enough, else under `/tmp`: Ray refuses socket paths over 107 bytes, and appends up to 67 of its
/// own (`/ray/session_<date>_<time>_<micros>_<pid>/sockets/plasma_store`).
fn ray_folder() -> tempfile::TempDir {
    let mut parent = std::env::temp_dir();
    if parent.join("ply-ray-XXXXXX").as_os_str().len() > 107 - 67 {
        parent = PathBuf::from("/tmp");
    }
    tempfile::Builder::new()
        .prefix("ply-ray-")
        .tempdir_in(parent)
        .expect("create a folder for Ray")
}

/// Runs the driver on a local Ray instance whose session files go under `ray_tmp` (`RAY_TMPDIR`).
fn driver(ray_tmp: &Path, out: &Path, book: &Path, extra: &[&str]) -> Output {
    Command::new("python3")
        .env("RAY_TMPDIR", ray_tmp)
        .arg(repo_root().join("tools/cluster/run.py"))
        .arg("--binary")
        .arg(env!("CARGO_BIN_EXE_ply-chess"))
        .args(["--shards", &SHARDS.to_string(), "--num-cpus", "2", "--out"])
        .arg(out)
        .args(extra)
        .arg("--")
        .args(COMMAND)
        .arg("--book")
        .arg(book)
        .output()
        .expect("run python3")
}

#[test]
fn ray_shards_equal_the_shards_run_alone() {
    let Some(book) = ply_testkit::shared("chess/books/8mvs_+90_+99.epd") else {
        return;
    };
    if !ply_testkit::ray() {
        return;
    }
    let scratch = ply_testkit::Scratch::new("cluster");
    let dir = scratch.path();
    let ray_tmp = ray_folder();
    let out = dir.join("ray");
    let merged = dir.join("merged.txt");

    let run = driver(
        ray_tmp.path(),
        &out,
        &book,
        &["--merge", merged.to_str().unwrap()],
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("3 run, 0 already complete, 0 failed"),
        "{stderr}"
    );

    // the same shards, one by one, without Ray
    let mut expected_merge = Vec::new();
    for k in 0..SHARDS {
        let alone = dir.join(format!("alone-{k}.txt"));
        let status = Command::new(env!("CARGO_BIN_EXE_ply-chess"))
            .args(COMMAND)
            .arg("--book")
            .arg(&book)
            .args(["--shard", &format!("{k}/{SHARDS}"), "--out"])
            .arg(&alone)
            .output()
            .expect("run ply-chess")
            .status;
        assert!(status.success());
        let want = std::fs::read(&alone).unwrap();
        assert!(!want.is_empty());
        let got = std::fs::read(out.join(format!("shard-{k}-of-{SHARDS}.txt"))).unwrap();
        assert_eq!(got, want, "shard {k}");
        expected_merge.extend(want);
    }
    assert_eq!(std::fs::read(&merged).unwrap(), expected_merge);

    // complete shards are skipped; a lost one is run again and comes back the same
    let again = driver(ray_tmp.path(), &out, &book, &[]);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("all 3 already complete"));
    let lost = out.join(format!("shard-1-of-{SHARDS}.txt"));
    let before = std::fs::read(&lost).unwrap();
    std::fs::remove_file(&lost).unwrap();
    let redo = driver(
        ray_tmp.path(),
        &out,
        &book,
        &["--shared-out", "--ship-binary"],
    );
    let stderr = String::from_utf8_lossy(&redo.stderr);
    assert!(redo.status.success(), "{stderr}");
    assert!(stderr.contains("1 run, 2 already complete"), "{stderr}");
    assert_eq!(std::fs::read(&lost).unwrap(), before);
}
