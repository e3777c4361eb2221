//! Helpers shared by the `ply-chess` integration tests: running the binary and reading its output.

#![allow(dead_code)] // each test file uses some of them

use std::process::{Command, Output};

/// Runs `ply-chess` with `args` to the end and returns its output.
pub fn ply(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply-chess"))
        .args(args)
        .output()
        .expect("run ply-chess")
}

/// Bytes of an output stream as text (invalid UTF-8 replaced).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Whether `v` is the program's version: this package's version, optionally followed by `+`
/// and a short commit hash when built from git (the rule of `ply_buildinfo::is_version_of`).
pub fn is_version(v: &str) -> bool {
    ply_buildinfo::is_version_of(v, env!("CARGO_PKG_VERSION"))
}
