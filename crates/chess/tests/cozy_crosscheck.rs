//! Cross-check with an independent implementation (cozy-chess, dev-dependency only): along random
//! games from every suite position, both must produce the same set of legal moves.

use ply_chess::{Color, Position};
use ply_testkit::XorShift64;

/// Our FEN with Shredder castling letters, which cozy-chess reads for any start position.
fn shredder_fen(pos: &Position) -> String {
    let fen = pos.to_fen();
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    let mut castling = String::new();
    for color in Color::ALL {
        let rooks = pos.castling_rights().rooks() & pos.by_color(color);
        for rook in rooks.iter().rev() {
            let c = rook.file().char();
            castling.push(if color == Color::White {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
    }
    fields[2] = if castling.is_empty() {
        "-".into()
    } else {
        castling
    };
    fields.join(" ")
}

fn legal_sets_agree(pos: &Position) {
    let fen = shredder_fen(pos);
    let board = cozy_chess::Board::from_fen(&fen, true)
        .unwrap_or_else(|e| panic!("cozy rejects {fen}: {e:?}"));
    let mut theirs = Vec::new();
    board.generate_moves(|moves| {
        theirs.extend(moves.into_iter().map(|m| m.to_string()));
        false
    });
    let mut ours: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.uci(true).to_string())
        .collect();
    theirs.sort();
    ours.sort();
    assert_eq!(ours, theirs, "legal moves differ in {fen}");
}

#[test]
fn random_games_match_cozy_chess() {
    let mut fens: Vec<String> = Vec::new();
    for file in ["perftsuite.epd", "cpw_positions.epd"] {
        let Some(text) = ply_testkit::shared_text(&format!("chess/perft/{file}")) else {
            return;
        };
        fens.extend(
            text.lines()
                .filter_map(|l| l.split(';').next())
                .map(|s| s.trim().to_string()),
        );
    }
    // The Chess960 starting positions: a visible skip of this part when the file is missing.
    if let Some(text) = ply_testkit::shared_text("chess/perft/shakmaty_chess960.perft") {
        fens.extend(
            text.lines()
                .filter_map(|l| l.strip_prefix("epd "))
                .step_by(4)
                .map(str::to_string),
        );
    }
    fens.retain(|f| !f.is_empty());
    let mut rng = XorShift64::new(0x2545_f491_4f6c_dd1d);
    let mut checked = 0;
    for fen in &fens {
        let mut pos = Position::from_fen(fen).expect("suite FEN");
        for _ in 0..40 {
            legal_sets_agree(&pos);
            checked += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    eprintln!("compared {checked} positions");
    assert!(checked > 1000);
}
