//! Drives the `ply-chess` binary through python-chess's `chess.engine` (a real UCI client, script
//! `tests/uci_client.py`): fixed searches, every option, infinite analysis, pondering (a ponderhit
//! and a ponder miss, checked in the protocol log), a 40-ply game against itself on a 60+0.6 clock
//! with each move also capped at 20,000 nodes (so it is fast and cannot lose on time on a loaded
//! machine), Chess960 and Syzygy tables from `shared/`.
//!
//! Without python3 and its `chess` package (`python3 -m pip install chess`) the test is a visible
//! skip, without the shared tables its Syzygy part is; both are failures under `PLY_STRICT=1`.

use std::process::Command;

#[test]
fn python_chess_drives_the_engine() {
    let probe = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output();
    if !matches!(probe, Ok(ref o) if o.status.success()) {
        ply_testkit::skip("python3 with the `chess` package is not available");
        return;
    }
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/uci_client.py");
    let mut cmd = Command::new("python3");
    cmd.arg(&script).arg(env!("CARGO_BIN_EXE_ply-chess"));
    // Without the shared tables the Syzygy part is a visible skip; the rest still runs.
    if let Some(tables) = ply_testkit::shared("syzygy/tables") {
        cmd.arg(tables);
    }
    let out = cmd.output().expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.lines().last() == Some("OK"),
        "client failed:\n{stdout}\n{stderr}"
    );
}
