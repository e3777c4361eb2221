//! Helpers the `ply-othello` command-line tests share: running the binary (arguments only, or
//! with a standard input), and its output as text. Each test file is its own crate and uses a
//! subset, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_ply-othello");

/// Runs `ply-othello args...` to the end, standard input closed, output captured.
pub fn ply(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("ply-othello runs")
}

/// Runs `ply-othello args...` with `input` as its whole standard input. The program may exit
/// before reading all of it: a broken pipe while writing is not an error.
pub fn ply_with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ply-othello starts");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input);
    }
    child.wait_with_output().expect("ply-othello runs")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Standard output then standard error, as one text.
pub fn text(o: &Output) -> String {
    stdout(o) + &stderr(o)
}

/// The lines of standard output.
pub fn lines(o: &Output) -> Vec<String> {
    stdout(o).lines().map(str::to_string).collect()
}

/// A path as a command-line argument (the scratch paths of the tests are UTF-8).
pub fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

/// Whether `v` is the program's version: this package's version, optionally followed by `+`
/// and a short commit hash when built from git (the rule of `ply_buildinfo::is_version_of`).
pub fn is_version(v: &str) -> bool {
    ply_buildinfo::is_version_of(v, env!("CARGO_PKG_VERSION"))
}
