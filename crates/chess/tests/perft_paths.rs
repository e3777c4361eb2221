//! The fast perft paths against a plain reference: no bulk counting, copy-make, move lists only.
//! `perft` (the PEXT copy compiled with BMI2/POPCNT when the CPU has them), `perft_with` for both
//! slider lookups and `perft_copy_make` must all give the reference's counts.

use ply_chess::{perft, perft_copy_make, perft_with, Magic, Pext, Position};

/// Tricky positions: castling through attacks, en passant pins, promotions, checks, Chess960.
const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
];

/// Leaf count by generating and playing every move down to depth 0.
fn reference(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .map(|&m| reference(&pos.play(m), depth - 1))
        .sum()
}

#[test]
fn fast_perft_paths_match_the_reference() {
    for fen in FENS {
        let pos = Position::from_fen(fen).expect("valid FEN");
        for depth in 0..=4 {
            let want = reference(&pos, depth);
            assert_eq!(perft(&pos, depth), want, "perft {fen} depth {depth}");
            assert_eq!(perft_with(&pos, depth, Magic), want, "magic {fen} {depth}");
            assert_eq!(
                perft_copy_make(&pos, depth, Magic),
                want,
                "copy {fen} {depth}"
            );
            if let Some(p) = Pext::detect() {
                assert_eq!(perft_with(&pos, depth, p), want, "pext {fen} {depth}");
            }
        }
    }
}
