//! Invariants along random games: incremental state equals recomputation, copy-make and make/unmake
//! agree and restore, FEN/SAN/UCI/compact-move round trips, and text parsers never panic.

use ply_chess::{repetitions, Color, Move, Position, Role};
use proptest::prelude::*;

const STARTS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
];

/// Checks every invariant of one position.
fn check_position(pos: &Position) {
    assert_eq!(pos.hash(), pos.compute_hash(), "hash {pos}");
    assert_eq!(pos.pawn_key(), pos.compute_pawn_key(), "pawn key {pos}");
    for color in Color::ALL {
        assert_eq!(
            pos.material_signature(color),
            pos.compute_material_signature(color),
            "signature {pos}"
        );
        for role in Role::ALL {
            assert_eq!(
                pos.count(color, role),
                pos.pieces(color, role).count(),
                "count {pos}"
            );
        }
    }
    let fen = pos.to_fen();
    let back = Position::from_fen(&fen).expect("own FEN parses");
    assert_eq!(&back, pos, "FEN round trip {fen}");
    assert_eq!(back.to_fen(), fen);

    let chess960 = pos.is_chess960();
    let moves = pos.legal_moves();
    assert_eq!(moves.len() as u64, pos.count_legal_moves());
    let tactical: Vec<Move> = moves.iter().copied().filter(|m| m.is_tactical()).collect();
    assert_eq!(
        pos.tactical_moves().as_slice(),
        tactical.as_slice(),
        "tactical moves of {pos}"
    );
    assert_eq!(pos.is_checkmate(), moves.is_empty() && pos.is_check());
    for &m in moves.iter() {
        assert!(pos.is_legal(m));
        assert_eq!(pos.decompress(m.compact()), Some(m), "compact {m:?}");
        let uci = m.uci(chess960).to_string();
        assert_eq!(pos.parse_uci(&uci), Ok(m), "uci {uci} in {pos}");
        let san = pos.san(m);
        assert_eq!(pos.parse_san(&san), Ok(m), "san {san} in {pos}");
        let after = pos.play(m);
        assert_eq!(pos.gives_check(m), after.is_check());
        assert_eq!(
            after.checkers(),
            after.attackers(after.king(after.side_to_move()), !after.side_to_move())
        );
        // make/unmake reaches the same position and restores the original exactly.
        let mut copy = *pos;
        let undo = copy.make(m);
        assert_eq!(copy, after, "make vs play {m:?}");
        copy.unmake(m, &undo);
        assert_eq!(&copy, pos, "unmake {m:?}");
        // Captured role recorded in the move matches the board.
        if !m.is_en_passant() && !m.is_castle() {
            assert_eq!(m.captured(), pos.role_at(m.to()));
        }
        assert_eq!(m.role(), pos.role_at(m.from()).expect("piece on from"));
    }
    // A move from a different position is legal here only if generated here.
    let null_moves = [Move::NULL];
    for m in null_moves {
        assert!(!pos.is_legal(m));
    }
}

/// Plays a random game of up to `plies` moves from `start`, checking every position.
fn random_game(start: &str, seed: u64, plies: usize) {
    let mut pos = Position::from_fen(start).expect("valid start");
    let mut rng = ply_testkit::XorShift64::new(seed | 1);
    let mut history = vec![pos.hash()];
    for _ in 0..plies {
        check_position(&pos);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        pos = pos.play(m);
        history.push(pos.hash());
        let reps = repetitions(&history, pos.halfmove_clock());
        let slow = history[..history.len() - 1]
            .iter()
            .rev()
            .take(pos.halfmove_clock() as usize)
            .skip(1)
            .step_by(2)
            .filter(|&&h| h == pos.hash())
            .count();
        assert_eq!(reps, slow);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_keep_invariants(seed in any::<u64>(), start in 0..STARTS.len()) {
        random_game(STARTS[start], seed, 120);
    }

    #[test]
    fn fen_parser_never_panics(s in ".{0,100}") {
        let _ = Position::from_fen(&s);
        let _ = Position::from_epd(&s);
    }

    #[test]
    fn fen_parser_survives_mutations(start in 0..STARTS.len(), edits in proptest::collection::vec((any::<usize>(), any::<char>()), 1..4)) {
        let mut chars: Vec<char> = STARTS[start].chars().collect();
        for (i, c) in edits {
            let i = i % chars.len();
            chars[i] = c;
        }
        let s: String = chars.into_iter().collect();
        if let Ok(pos) = Position::from_fen(&s) {
            // Whatever parses must be fully usable.
            let _ = pos.legal_moves();
            let _ = pos.to_fen();
            prop_assert_eq!(pos.hash(), pos.compute_hash());
        }
    }

    #[test]
    fn move_parsers_never_panic(s in ".{0,12}") {
        let pos = Position::startpos();
        let _ = pos.parse_san(&s);
        let _ = pos.parse_uci(&s);
    }

    #[test]
    fn decompress_never_panics(c in any::<u16>()) {
        let pos = Position::from_fen(STARTS[1]).expect("valid");
        if let Some(m) = pos.decompress(c) {
            prop_assert!(pos.is_legal(m));
        }
    }
}
