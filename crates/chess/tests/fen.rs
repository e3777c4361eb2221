//! FEN parsing: every error case of the issue, 4/5/6-field forms, EPD, X-FEN/Shredder castling.

use ply_chess::{Color, FenError, Position, Square, STARTPOS};

fn err(fen: &str) -> FenError {
    Position::from_fen(fen).expect_err(fen)
}

#[test]
fn error_cases() {
    assert_eq!(err(""), FenError::FieldCount(0));
    assert_eq!(err("8/8/8/8/8/8/8/8 w"), FenError::FieldCount(2));
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra"),
        FenError::FieldCount(7)
    );
    assert_eq!(
        err("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::BadPieceChar('x')
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::BadPieceChar('9')
    );
    assert_eq!(
        err("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankOverflow(7)
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/72/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankOverflow(6)
    );
    assert_eq!(
        err("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankUnderflow(7)
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankCount(7)
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1"),
        FenError::MissingKing(Color::White)
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1"),
        FenError::TooManyKings(Color::White)
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
        FenError::PawnOnBackRank(Square::A1)
    );
    assert_eq!(
        err("p3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::PawnOnBackRank(Square::A8)
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
        FenError::BadSideToMove
    );
    // Black to move while White stands in check from the rook: impossible.
    assert_eq!(
        err("4k3/8/8/8/8/8/8/r3K3 b - - 0 1"),
        FenError::OppositeCheck
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
        FenError::ImpossibleCastling('K')
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/R3K3 w K - 0 1"),
        FenError::ImpossibleCastling('K')
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/R3K3 w K - 0 1").to_string(),
        "castling right 'K' has no matching king and rook"
    );
    // X-FEN: `K` with the king on d1 is a Chess960 right for the h1 rook.
    assert!(Position::from_fen("4k3/8/8/8/8/8/8/3K3R w K - 0 1")
        .unwrap()
        .is_chess960());
    assert_eq!(
        err("4k3/8/8/8/8/8/4K3/7R w K - 0 1"),
        FenError::ImpossibleCastling('K')
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K2R w Kx - 0 1"),
        FenError::BadCastlingChar('x')
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K2R w G - 0 1"),
        FenError::ImpossibleCastling('G')
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4KR1R w KF - 0 1"),
        FenError::ImpossibleCastling('F')
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - e9 0 1"),
        FenError::BadEnPassant
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
        FenError::ImpossibleEnPassant(Square::E6)
    );
    assert_eq!(
        err("4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1"),
        FenError::ImpossibleEnPassant(Square::E3)
    );
    assert_eq!(
        err("4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1"),
        FenError::ImpossibleEnPassant(Square::E6)
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - - x 1"),
        FenError::BadHalfmoveClock
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - - 0 0"),
        FenError::BadFullmoveNumber
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - - 0 99999"),
        FenError::BadFullmoveNumber
    );
}

#[test]
fn field_counts_and_epd() {
    let four = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
    assert_eq!(four, Position::startpos());
    assert_eq!(four.to_fen(), STARTPOS);
    let five = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 17").unwrap();
    assert_eq!(five.halfmove_clock(), 17);
    let (pos, ops) = Position::from_epd("4k3/8/8/8/8/8/8/4K2R w K - bm O-O; id \"x\";").unwrap();
    assert_eq!(ops, "bm O-O; id \"x\";");
    assert!(pos.castling_rights().any());
    assert_eq!(
        Position::from_epd("4k3/8 w").unwrap_err(),
        FenError::FieldCount(2)
    );
}

#[test]
fn en_passant_kept_only_when_capturable() {
    let capturable = Position::from_fen("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1").unwrap();
    assert_eq!(capturable.ep_square(), Some(Square::E6));
    let not = Position::from_fen("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1").unwrap();
    assert_eq!(not.ep_square(), None);
    assert_eq!(not.to_fen(), "4k3/8/8/4p3/8/8/8/4K3 w - - 0 1");
}

#[test]
fn chess960_castling_notation() {
    // Shredder-FEN in, X-FEN out (outermost rooks print as KQkq).
    let pos =
        Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
            .unwrap();
    assert!(pos.is_chess960());
    assert_eq!(
        pos.to_fen(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    );
    // An inner rook needs its file letter.
    let inner = Position::from_fen("4k3/8/8/8/8/8/8/R2RK3 w D - 0 1").unwrap();
    assert_eq!(inner.to_fen(), "4k3/8/8/8/8/8/8/R2RK3 w D - 0 1");
    assert!(inner.legal_moves().iter().any(|m| m.is_castle()));
    // Standard castling is not 960.
    assert!(!Position::startpos().is_chess960());
}
