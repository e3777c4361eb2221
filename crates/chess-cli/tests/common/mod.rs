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

/// Whether `v` has the form of the program's version: `MAJOR.MINOR.PATCH`, optionally followed
/// by `+` and a short commit hash (hexadecimal, at least 7 digits) when built from git.
pub fn is_version(v: &str) -> bool {
    let (base, commit) = match v.split_once('+') {
        Some((b, c)) => (b, Some(c)),
        None => (v, None),
    };
    let parts: Vec<&str> = base.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && commit.is_none_or(|c| c.len() >= 7 && c.bytes().all(|b| b.is_ascii_hexdigit()))
}
