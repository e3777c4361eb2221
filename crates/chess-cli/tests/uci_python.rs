//! Drives the `ply-chess` binary through python-chess's `chess.engine` (a real UCI client): a few
//! searches, every option, infinite analysis, a short 2+0.02 game with pondering, Chess960 and, when
//! `../shared` is present, Syzygy tables. Skips with a printed reason when python3 or the `chess`
//! package is missing (CI installs it with `pip install chess`).

use std::path::PathBuf;
use std::process::Command;

#[test]
fn python_chess_drives_the_engine() {
    let probe = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output();
    match probe {
        Ok(o) if o.status.success() => {}
        _ => {
            eprintln!("skipping: python3 with the `chess` package is not available");
            return;
        }
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let script = manifest.join("tests/uci_client.py");
    let tables = manifest.join("../../../shared/syzygy/tables");
    let mut cmd = Command::new("python3");
    cmd.arg(&script).arg(env!("CARGO_BIN_EXE_ply-chess"));
    if tables.exists() {
        cmd.arg(&tables);
    } else {
        eprintln!(
            "note: {} not found, tablebase checks skipped",
            tables.display()
        );
    }
    let out = cmd.output().expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("OK"),
        "client failed:\n{stdout}\n{stderr}"
    );
}
