//! The version string of ply's programs, made at build time: each program's `build.rs` calls
//! [`emit_version`], and the program reads `env!("PLY_VERSION")`.
//!
//! It is the package version, followed by `+<short commit>` when the crate is built from a git
//! checkout (`0.1.0+1a2b3c4`), so a report from a development build names the code it ran.
//! Built from a package (`cargo install` from a registry, `cargo package`'s verification), or
//! where git is missing or fails, it is the package version alone: this never fails the build.
#![deny(missing_docs)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs git in `dir` with `args`; its trimmed standard output, if it succeeded.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

/// The short commit of the checkout holding `dir`, and the files whose change moves it.
fn commit(dir: &Path) -> Option<(String, Vec<PathBuf>)> {
    // A packaged crate carries this file; the directory may still sit inside some other
    // repository (cargo package's verification builds under target/), whose commit is not ours.
    if dir.join(".cargo_vcs_info.json").exists() {
        return None;
    }
    // Only a crate git tracks is built from this checkout.
    git(dir, &["ls-files", "--error-unmatch", "Cargo.toml"])?;
    let hash = git(dir, &["rev-parse", "--short", "HEAD"])?;
    let mut watch = Vec::new();
    if let Some(git_dir) = git(dir, &["rev-parse", "--absolute-git-dir"]) {
        let git_dir = PathBuf::from(git_dir);
        watch.push(git_dir.join("HEAD"));
        let common = git(dir, &["rev-parse", "--git-common-dir"])
            .map(|c| dir.join(c))
            .unwrap_or_else(|| git_dir.clone());
        // HEAD naming a branch: a commit moves that branch's ref (loose or packed)
        if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
            watch.push(common.join(branch));
        }
        watch.push(common.join("packed-refs"));
    }
    Some((hash, watch))
}

/// Sets `PLY_VERSION` for the crate whose build script calls it (its `env!("PLY_VERSION")` is
/// then the version string) and tells cargo when to run the script again. Never fails.
pub fn emit_version() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let version = match commit(&dir) {
        Some((hash, watch)) => {
            // a missing file would make cargo run this script on every build
            for path in watch.iter().filter(|p| p.exists()) {
                println!("cargo:rerun-if-changed={}", path.display());
            }
            format!("{version}+{hash}")
        }
        None => version,
    };
    println!("cargo:rustc-env=PLY_VERSION={version}");
}

/// Whether `version` is a version string [`emit_version`] makes for `package` (the package
/// version, alone or with `+<short commit>` of at least 7 hex digits): the programs' tests check
/// their `PLY_VERSION` with it.
pub fn is_version_of(version: &str, package: &str) -> bool {
    let (base, commit) = version.split_once('+').unwrap_or((version, ""));
    base == package
        && commit.bytes().all(|b| b.is_ascii_hexdigit())
        && (commit.is_empty() || commit.len() >= 7)
}

#[cfg(test)]
mod tests {
    use super::is_version_of;

    #[test]
    fn version_strings() {
        assert!(is_version_of("0.1.0", "0.1.0"));
        assert!(is_version_of("0.1.0+1a2b3c4", "0.1.0"));
        assert!(!is_version_of("0.1.0+1a2b", "0.1.0"));
        assert!(!is_version_of("0.1.0+1a2b3cz", "0.1.0"));
        assert!(!is_version_of("0.2.0+1a2b3c4", "0.1.0"));
        assert!(!is_version_of("", "0.1.0"));
    }
}
