//! Test support shared by the ply crates (a dev-dependency only).
//!
//! - [`shared`] finds reference data under the workspace's sibling `shared/` folder (perft suites,
//!   FFO files, Syzygy tables, WTHOR games). When it is missing a test calls [`skip`], which says
//!   so on the terminal even though `cargo test` captures the test's own output, and returns.
//! - Strict mode (`PLY_STRICT=1`, set by `.ci/run`) turns every such skip into a failure, so a
//!   CI run cannot pass while having checked nothing. Skips that no machine can avoid (a CPU
//!   without AVX-512) go through [`skip_unsupported`], which is never fatal.
//! - [`XorShift64`] is the seeded generator of the tests: random positions and inputs that are
//!   the same on every run. [`XorShift64Star`] serves the tests whose inputs were drawn from
//!   xorshift64*, so that they keep checking the same positions. [`splitmix`] turns a loop
//!   counter into an unrelated seed (neighbouring counters give unrelated games).
//! - [`Scratch`] is a test's own temporary folder, removed when it is dropped (also when the test
//!   fails), so that running the tests leaves nothing behind in the system's temporary folder.
//! - [`guide`] checks the command lines of README.md and the guides in `docs/` against the
//!   programs' `--help`: each program's crate runs it in its `tests/guide.rs`.
//!
//! ```
//! use ply_testkit::XorShift64;
//! let (mut a, mut b) = (XorShift64::new(7), XorShift64::new(7));
//! let draws: Vec<u64> = (0..4).map(|_| a.below(64)).collect();
//! assert_eq!(draws, (0..4).map(|_| b.below(64)).collect::<Vec<_>>()); // same seed, same run
//! assert!(draws.iter().all(|&sq| sq < 64));
//! ```
#![deny(missing_docs)]

pub mod guide;

use std::io::Write;
use std::path::{Path, PathBuf};

/// Name of the environment variable that turns skips into failures.
pub const STRICT_VAR: &str = "PLY_STRICT";

/// Whether strict mode is on (`PLY_STRICT` set to anything but empty or `0`).
pub fn strict() -> bool {
    std::env::var(STRICT_VAR).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Writes `line` to the process's standard error directly, past the capture of `cargo test`.
fn say(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
}

/// A test cannot run for want of data or of an optional peer program: in strict mode this
/// panics (the test fails with `reason`), otherwise it prints `SKIPPED <test>: reason` visibly.
///
/// # Panics
/// In strict mode, always.
#[track_caller]
pub fn skip(reason: &str) {
    let test = std::thread::current().name().unwrap_or("?").to_string();
    if strict() {
        panic!("{STRICT_VAR} is set, so this may not skip: {reason}");
    }
    say(&format!("SKIPPED {test}: {reason}"));
}

/// A part of a test cannot run on this machine for a reason no set-up can change (a CPU
/// feature); printed visibly, never fatal.
pub fn skip_unsupported(reason: &str) {
    let test = std::thread::current().name().unwrap_or("?").to_string();
    say(&format!("SKIPPED (unsupported here) {test}: {reason}"));
}

/// The workspace's sibling folder `shared/` (next to the repository root).
pub fn shared_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

/// `shared/<rel>` when it exists; otherwise [`skip`] (which fails in strict mode) and `None`.
#[track_caller]
pub fn shared(rel: &str) -> Option<PathBuf> {
    let path = shared_root().join(rel);
    if path.exists() {
        Some(path)
    } else {
        skip(&format!("{} not found", path.display()));
        None
    }
}

/// True when `python3` can import Ray (the cluster driver's tests); otherwise [`skip`] (which
/// fails in strict mode) and false.
#[track_caller]
pub fn ray() -> bool {
    let has_ray = std::process::Command::new("python3")
        .args(["-c", "import ray"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_ray {
        skip("python3 cannot import ray (pip install -r tools/cluster/requirements.txt)");
    }
    has_ray
}

/// Reads `shared/<rel>` as text; `None` (after [`skip`]) when it is absent.
///
/// # Panics
/// When the file exists but cannot be read: broken reference data is a failure, not a skip.
#[track_caller]
pub fn shared_text(rel: &str) -> Option<String> {
    let path = shared(rel)?;
    Some(
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display())),
    )
}

/// CPU time the calling thread has used so far (`None` where the platform does not say): the
/// one CPU clock of the workspace, [`ply_batch::cputime::thread`].
///
/// Tests of time limits compare this, not the wall clock, with the limit: on a loaded machine the
/// wall clock also counts the time other processes held the CPU, which no engine can control.
pub use ply_batch::cputime::thread as thread_cpu_time;

/// The CPU clocks of the workspace (thread and process), for benchmark examples.
pub use ply_batch::cputime;

/// A chess FEN (no castling, no en passant, move 1) of pieces given as `(letter, square)` with
/// a1 = 0 ... h8 = 63 (`K`, `q`, ...: upper case white); a later piece on a square replaces an
/// earlier one. For tests that place pieces at random.
pub fn chess_fen(pieces: &[(char, usize)], white_to_move: bool) -> String {
    let mut board = ['.'; 64];
    for &(c, sq) in pieces {
        board[sq] = c;
    }
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for &c in &board[rank * 8..rank * 8 + 8] {
            if c == '.' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            out.push(c);
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push_str(if white_to_move {
        " w - - 0 1"
    } else {
        " b - - 0 1"
    });
    out
}

/// The seeded generators of the tests and the seed hash, from their one home in `ply_batch::rng`.
pub use ply_batch::rng::{splitmix, XorShift64, XorShift64Star};

/// A test's scratch folder `ply-<tag>-XXXXXX` (a fresh, uniquely named folder under the system's
/// temporary folder), removed with everything in it when the value is dropped: at the end of the
/// test, and also when the test fails, as the panic unwinds through it. Keep it alive (bound to a
/// name, not `_`) until every process that writes into it has finished.
///
/// ```
/// let scratch = ply_testkit::Scratch::new("doc");
/// let file = scratch.file("a.txt");
/// std::fs::write(&file, "x").unwrap();
/// let folder = scratch.path().to_path_buf();
/// assert!(file.starts_with(&folder) && folder.is_dir());
/// drop(scratch);
/// assert!(!folder.exists());
/// ```
#[derive(Debug)]
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    /// Creates the folder `ply-<tag>-XXXXXX` under [`std::env::temp_dir`] (`TMPDIR` on Unix).
    ///
    /// # Panics
    /// When the folder cannot be created (a test cannot go on without it).
    pub fn new(tag: &str) -> Self {
        let dir = tempfile::Builder::new()
            .prefix(&format!("ply-{tag}-"))
            .tempdir()
            .expect("create a scratch folder");
        Self { dir }
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The path of `name` in the folder, with no file there (one left by an earlier use of the
    /// name is removed); nothing is created.
    pub fn file(&self, name: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        let _ = std::fs::remove_file(&path);
        path
    }
}

/// The lines of a text file.
///
/// # Panics
/// When the file cannot be read.
pub fn read_lines(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("read a file the test wrote")
        .lines()
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_mode_turns_a_skip_into_a_failure() {
        // the only test of this crate that touches the variable
        let before = std::env::var(STRICT_VAR).ok();
        std::env::set_var(STRICT_VAR, "1");
        let strict_skip = std::panic::catch_unwind(|| skip("test reason"));
        let strict_missing =
            std::panic::catch_unwind(|| shared("testkit-self-check/absent-on-purpose"));
        std::env::set_var(STRICT_VAR, "0");
        let lenient = shared("testkit-self-check/absent-on-purpose");
        match before {
            Some(v) => std::env::set_var(STRICT_VAR, v),
            None => std::env::remove_var(STRICT_VAR),
        }
        assert!(strict_skip.is_err() && strict_missing.is_err());
        assert!(lenient.is_none());
    }

    #[test]
    fn thread_cpu_time_grows_with_work() {
        let Some(a) = thread_cpu_time() else {
            skip_unsupported("no per-thread CPU clock");
            return;
        };
        let (mut rng, mut x) = (XorShift64::new(1), 0u64);
        for _ in 0..20_000_000u64 {
            x = std::hint::black_box(x ^ rng.next());
        }
        let b = thread_cpu_time().expect("clock");
        assert!(b > a, "{a:?} {b:?} {x}");
    }

    #[test]
    fn chess_fen_of_placed_pieces() {
        assert_eq!(
            chess_fen(&[('K', 4), ('k', 60), ('P', 12)], true),
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
        );
        assert_eq!(chess_fen(&[], false), "8/8/8/8/8/8/8/8 b - - 0 1");
    }

    #[test]
    fn scratch_folders_are_fresh_and_removed_on_drop_and_on_panic() {
        let (a, b) = (Scratch::new("self-check"), Scratch::new("self-check"));
        assert_ne!(a.path(), b.path());
        let name = a.path().file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("ply-self-check-"), "{name}");
        std::fs::write(a.file("x.txt"), "x").unwrap();
        assert!(
            !a.file("x.txt").exists(),
            "file() hands out a path with no file"
        );
        std::fs::create_dir(a.path().join("sub")).unwrap();
        std::fs::write(a.path().join("sub/y.txt"), "y").unwrap();
        let folder = a.path().to_path_buf();
        drop(a);
        assert!(!folder.exists());
        let kept = std::sync::Mutex::new(None);
        let failed = std::panic::catch_unwind(|| {
            let c = Scratch::new("self-check");
            std::fs::write(c.file("z.txt"), "z").unwrap();
            *kept.lock().unwrap() = Some(c.path().to_path_buf());
            panic!("a failing test");
        });
        assert!(failed.is_err());
        let folder = kept.into_inner().unwrap().unwrap();
        assert!(!folder.exists(), "{}", folder.display());
        assert!(b.path().is_dir());
    }

    #[test]
    fn shared_root_is_beside_the_repository() {
        let root = shared_root()
            .canonicalize()
            .unwrap_or_else(|_| shared_root());
        assert!(root.ends_with("shared"), "{}", root.display());
    }
}
