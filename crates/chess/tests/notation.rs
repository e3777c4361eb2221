//! SAN and UCI text on known positions.

use ply_chess::{MoveParseError, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect(fen)
}

#[test]
fn san_output() {
    let start = Position::startpos();
    let sans: Vec<String> = start.legal_moves().iter().map(|&m| start.san(m)).collect();
    assert!(sans.contains(&"Nf3".to_string()) && sans.contains(&"e4".to_string()));
    // Disambiguation by file, by rank, and by both.
    let p = pos("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1");
    assert_eq!(p.san(p.parse_uci("a1d1").unwrap()), "Rad1");
    let p = pos("R7/8/8/8/8/8/8/R3K2k w - - 0 1");
    assert_eq!(p.san(p.parse_uci("a1a4").unwrap()), "R1a4");
    let p = pos("4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1");
    assert_eq!(p.san(p.parse_uci("a3b2").unwrap()), "Qa3b2");
    // Castling, promotion with capture and check, mate, en passant.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(p.san(p.parse_uci("e1g1").unwrap()), "O-O");
    assert_eq!(p.san(p.parse_uci("e1c1").unwrap()), "O-O-O");
    let p = pos("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(p.san(p.parse_uci("e7d8q").unwrap()), "exd8=Q+");
    let p = pos("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1");
    assert_eq!(p.san(p.parse_uci("a1a8").unwrap()), "Ra8#");
    let p = pos("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1");
    assert_eq!(p.san(p.parse_uci("d5e6").unwrap()), "dxe6");
}

#[test]
fn san_input_is_lenient_but_exact() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(p.parse_san("0-0").unwrap().to_string(), "e1g1");
    assert_eq!(p.parse_san("O-O-O+").unwrap().to_string(), "e1c1");
    let r = pos("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1");
    assert_eq!(r.parse_san("Rd1"), Err(MoveParseError::Ambiguous));
    assert_eq!(r.parse_san("Rad1").unwrap().to_string(), "a1d1");
    assert_eq!(r.parse_san("Ra1d1").unwrap().to_string(), "a1d1");
    assert_eq!(r.parse_san("Rfxd1"), Ok(r.parse_uci("f1d1").unwrap()));
    assert_eq!(p.parse_san("Nf3"), Err(MoveParseError::Illegal));
    assert_eq!(p.parse_san("Zz9"), Err(MoveParseError::Syntax));
    let q = pos("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(q.parse_san("exd8=N").unwrap().to_string(), "e7d8n");
    assert_eq!(q.parse_san("ed8Q").unwrap().to_string(), "e7d8q");
    assert_eq!(q.parse_san("e8=Q").unwrap().to_string(), "e7e8q");
}

#[test]
fn uci_castling_forms() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let m = p.parse_uci("e1g1").unwrap();
    assert!(m.is_castle());
    assert_eq!(p.parse_uci("e1h1"), Ok(m));
    assert_eq!(m.uci(true).to_string(), "e1h1");
    assert_eq!(m.uci(false).to_string(), "e1g1");
    assert_eq!(p.parse_uci("e1e3"), Err(MoveParseError::Illegal));
    assert_eq!(p.parse_uci("e1"), Err(MoveParseError::Syntax));
    assert_eq!(p.parse_uci("a7a8x"), Err(MoveParseError::Syntax));
    // Chess960: king on f1 next to the h-side rook on g1; "f1g1" is castling.
    let c = pos("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    let castle = c.parse_uci("f1g1").unwrap();
    assert!(castle.is_castle());
    assert_eq!(c.play(castle).to_fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}
