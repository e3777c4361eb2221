//! `Position::legal_from_compact` (one move checked without generating the others) against the
//! legal move list, for every compact code whose origin holds a piece of the side to move, on
//! every position of the four perft suites in `../shared/chess/perft/` and on positions one ply
//! further (data nobody here wrote: castling through attacks, en passant pins, promotions,
//! Chess960 castling); and the staged generation's two halves against the same list.

use ply_chess::{Magic, Move, MoveList, Position};

/// Every FEN of the four suites, or `None` after a visible skip when the data is absent.
fn suite_fens() -> Option<Vec<String>> {
    let dir = ply_testkit::shared("chess/perft")?;
    let mut out = Vec::new();
    for file in ["perftsuite.epd", "cpw_positions.epd"] {
        let text = std::fs::read_to_string(dir.join(file)).expect("readable suite");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            out.push(line.split(';').next().expect("fen").trim().to_string());
        }
    }
    for file in ["shakmaty_tricky.perft", "shakmaty_chess960.perft"] {
        let text = std::fs::read_to_string(dir.join(file)).expect("readable suite");
        out.extend(
            text.lines()
                .filter_map(|l| l.strip_prefix("epd "))
                .map(|f| f.trim().to_string()),
        );
    }
    Some(out)
}

/// Compares every code from an occupied origin of the side to move; returns how many were legal.
fn check(pos: &Position) -> usize {
    let legal = pos.legal_moves();
    let mut by_code = vec![None; 1 << 16];
    for &m in legal.iter() {
        by_code[usize::from(m.compact())] = Some(m);
    }
    let ours = pos.by_color(pos.side_to_move());
    let mut found = 0;
    for from in ours {
        for rest in 0..(1u16 << 10) {
            let code = from as u16 | rest << 6;
            let want: Option<Move> = by_code[usize::from(code)];
            assert_eq!(
                pos.legal_from_compact(code),
                want,
                "{} code {code:#06x}",
                pos.to_fen()
            );
            found += usize::from(want.is_some());
        }
    }
    assert_eq!(found, legal.len(), "{}", pos.to_fen());

    // The two halves of a staged generation make up the legal list exactly once.
    let mut staged = MoveList::new();
    pos.push_tactical_moves_with(Magic, &mut staged);
    let tactical = staged.len();
    pos.push_quiet_moves_with(Magic, &mut staged);
    assert!(staged.iter().take(tactical).all(|m| m.is_tactical()));
    assert!(staged.iter().skip(tactical).all(|m| !m.is_tactical()));
    let mut a: Vec<u32> = staged.iter().map(|m| m.compact().into()).collect();
    let mut b: Vec<u32> = legal.iter().map(|m| m.compact().into()).collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "{}", pos.to_fen());
    found
}

#[test]
fn compact_lookup_matches_the_generator_on_the_perft_suites() {
    let Some(fens) = suite_fens() else {
        return;
    };
    let mut positions = 0;
    for fen in &fens {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        check(&pos);
        positions += 1;
        for &m in pos.legal_moves().iter().step_by(3) {
            check(&pos.play(m));
            positions += 1;
        }
    }
    println!("{positions} positions checked");
    assert!(positions > 1000);
}
