//! Draw helpers: insufficient material, the 50-move rule and repetition by hash history.

use ply_chess::{repetitions, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect(fen)
}

#[test]
fn insufficient_material() {
    assert!(pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1").is_insufficient_material());
    assert!(pos("4k3/8/8/8/8/8/8/4KN2 w - - 0 1").is_insufficient_material());
    assert!(pos("4k3/8/8/8/8/8/8/4KB2 w - - 0 1").is_insufficient_material());
    // Bishops all on light squares (c8 and f1).
    assert!(pos("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1").is_insufficient_material());
    assert!(!pos("3bk3/8/8/8/8/8/8/4KB2 w - - 0 1").is_insufficient_material());
    assert!(!pos("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1").is_insufficient_material());
    assert!(!pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").is_insufficient_material());
    assert!(
        pos("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1").has_insufficient_material(ply_chess::Color::Black)
    );
    assert!(
        !pos("4k3/8/8/8/8/8/8/4KBB1 w - - 0 1").has_insufficient_material(ply_chess::Color::White)
    );
}

#[test]
fn fifty_moves() {
    assert!(pos("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").is_fifty_move_draw());
    assert!(!pos("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").is_fifty_move_draw());
    // Mate on the 100th half-move wins instead.
    let mated = pos("R5k1/5ppp/8/8/8/8/8/4K3 b - - 100 80");
    assert!(mated.is_checkmate());
    assert!(!mated.is_fifty_move_draw());
}

#[test]
fn threefold_by_knight_shuffle() {
    let mut p = Position::startpos();
    let mut history = vec![p.hash()];
    let mut counts = Vec::new();
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
        p = p.play(p.parse_san(san).unwrap());
        history.push(p.hash());
        counts.push(repetitions(&history, p.halfmove_clock()));
    }
    assert_eq!(counts, [0, 0, 0, 1, 1, 1, 1, 2]);
    // A pawn move resets the window.
    p = p.play(p.parse_san("e4").unwrap());
    history.push(p.hash());
    assert_eq!(repetitions(&history, p.halfmove_clock()), 0);
}
