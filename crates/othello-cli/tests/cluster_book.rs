//! `tools/cluster/book_rounds.py` on a local Ray instance: two deviation rounds whose searches
//! are made as three Ray tasks a round make the book that `book deepen --rounds 2` makes, byte
//! for byte, and every search of a round comes from the tasks.
//!
//! Needs python3 with Ray (`pip install -r tools/cluster/requirements.txt`, which `.ci/run` does);
//! without Ray it skips with a printed reason (a failure under `PLY_STRICT=1`).

mod common;

use common::{ply, stderr, BIN};
use std::path::PathBuf;
use std::process::Command;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Ray's session files go in a short folder of their own (Ray refuses socket paths over 107
/// bytes), removed when dropped.
struct RayFolder(PathBuf);

impl Drop for RayFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn ray_rounds_make_the_book_of_deepen() {
    if !ply_testkit::ray() {
        return;
    }
    let scratch = ply_testkit::Scratch::new("cluster-book");
    let path = |name: &str| scratch.path().join(name).to_str().unwrap().to_string();
    let (alone, ray) = (path("alone.ply"), path("ray.ply"));
    for f in [&alone, &ray] {
        for args in [
            &["book", "new", f, "--level", "3"][..],
            &["book", "deepen", f, "--plies", "4", "--hash", "4"],
        ] {
            let o = ply(args);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        }
    }
    let o = ply(&[
        "book", "deepen", &alone, "--plies", "7", "--hash", "4", "--rounds", "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    let ray_tmp = RayFolder(PathBuf::from(format!(
        "/tmp/ply-ray-{}",
        std::process::id()
    )));
    std::fs::create_dir_all(&ray_tmp.0).unwrap();
    let run = Command::new("python3")
        .env("RAY_TMPDIR", &ray_tmp.0)
        .arg(repo_root().join("tools/cluster/book_rounds.py"))
        .args(["--binary", BIN, "--book", &ray])
        .args([
            "--rounds", "2", "--shards", "3", "--plies", "7", "--hash", "4",
        ])
        .args(["--", "--num-cpus", "2"])
        .output()
        .expect("run python3");
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(out.matches(" made here").count(), 2, "{out}");
    assert_eq!(out.matches(", 0 made here").count(), 2, "{out}");
    assert_eq!(std::fs::read(&ray).unwrap(), std::fs::read(&alone).unwrap());
    assert!(!scratch.path().join("ray.ply.plan").exists());
    assert!(!scratch.path().join("ray.ply.searches").exists());
}
