//! The Chess960 numbering against an implementation nobody here wrote: python-chess's
//! `chess.Board.from_chess960_pos(n)`, for all 960 numbers (FEN strings compared whole), and the
//! same positions as ply reads them back. Without python3 and its `chess` package the test skips
//! visibly (a failure under `PLY_STRICT=1`; CI installs the package).

use ply_chess::chess960::{start_fen, COUNT};
use ply_chess::Position;
use std::process::Command;

#[test]
fn every_number_gives_python_chess_start_position() {
    let script =
        "import chess\nfor n in range(960):\n    print(chess.Board.from_chess960_pos(n).fen())";
    let out = match Command::new("python3").args(["-c", script]).output() {
        Ok(o) if o.status.success() => o,
        _ => {
            ply_testkit::skip("python3 with the `chess` package is not available");
            return;
        }
    };
    let text = String::from_utf8(out.stdout).expect("python-chess prints UTF-8");
    let theirs: Vec<&str> = text.lines().collect();
    assert_eq!(theirs.len(), usize::from(COUNT));
    for (n, fen) in theirs.iter().enumerate() {
        let ours = start_fen(n as u64).expect("a number below 960");
        assert_eq!(&ours, fen, "start position {n}");
        let pos = Position::from_fen(&ours).expect("ply reads its own start positions");
        assert_eq!(pos.to_fen(), ours, "start position {n} round trip");
    }
}
