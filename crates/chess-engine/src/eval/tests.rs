use super::params::*;
use super::pawns::pawn_structure;
use super::weights::WEIGHTS;
use super::*;

/// Mirrors a FEN vertically and swaps the colors.
fn flip_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let board: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| r.chars().map(swap).collect())
        .collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling: String = if f[2] == "-" {
        "-".into()
    } else {
        let mut c: Vec<char> = f[2].chars().map(swap).collect();
        c.sort_by_key(|c| (c.is_ascii_lowercase(), *c));
        c.into_iter().collect()
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    let rest = if f.len() >= 6 {
        format!("{} {}", f[4], f[5])
    } else {
        "0 1".into()
    };
    format!("{} {side} {castling} {ep} {rest}", board.join("/"))
}

/// Positions from the shared suites plus a sample of [`generated_positions`] (the bench positions
/// among them). A missing suite file is a visible skip of its part (a failure under
/// `PLY_STRICT=1`).
fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    for file in [
        "chess/suites/wac.epd",
        "chess/perft/perftsuite.epd",
        "chess/books/8mvs_+90_+99.epd",
    ] {
        let Some(text) = ply_testkit::shared_text(file) else {
            continue;
        };
        for line in text.lines().take(400) {
            if let Ok((p, _)) = Position::from_epd(line) {
                out.push(p);
            } else if let Ok(p) = Position::from_fen(line.split(';').next().unwrap_or("")) {
                out.push(p);
            }
        }
    }
    // and, shared data or not, the bench positions and every 40th position of the random games
    let generated = generated_positions();
    let bench = crate::bench::POSITIONS.len();
    out.extend_from_slice(&generated[..bench]);
    out.extend(generated[bench..].iter().step_by(40));
    out
}

#[test]
fn color_flip_negates_the_score() {
    let mut table = PawnTable::new();
    let all = positions();
    assert!(all.len() >= 14);
    for pos in all {
        let flipped = Position::from_fen(&flip_fen(&pos.to_fen())).unwrap();
        let a = evaluate(&pos, &mut table);
        let b = evaluate(&flipped, &mut table);
        assert_eq!(a, b, "{} vs {}", pos.to_fen(), flipped.to_fen());
        let (ta, tb) = (trace(&pos), trace(&flipped));
        for i in 0..Term::ALL.len() {
            assert_eq!(
                ta.terms[i][0],
                tb.terms[i][1],
                "{:?} {}",
                Term::ALL[i],
                pos.to_fen()
            );
        }
    }
}

#[test]
fn cached_pawn_structure_equals_recompute() {
    let mut table = PawnTable::new();
    for pos in positions() {
        let cached = table.probe(&pos);
        let again = table.probe(&pos);
        let fresh = pawn_structure(&pos, &mut NoTrace);
        assert_eq!(cached.score, fresh.score);
        assert_eq!(cached.passed, fresh.passed);
        assert_eq!(again.score, fresh.score);
        // And the search evaluation (pawn hash) equals the trace (fresh table) value.
        let v = evaluate(&pos, &mut table);
        let t = trace(&pos).white_value;
        let stm = if pos.side_to_move() == Color::White {
            t
        } else {
            -t
        };
        assert_eq!(v, stm);
    }
}

#[test]
fn trace_sums_to_total() {
    let pos =
        Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
    let t = trace(&pos);
    let sum: Score = t.terms.iter().map(|[w, b]| *w - *b).sum();
    assert_eq!(sum, t.total);
    assert_eq!(t.phase, MAX_PHASE);
    assert_eq!(
        t.white_value,
        t.total
            .taper_scaled(t.phase, MAX_PHASE, t.scale, SCALE_NORMAL)
    );
    // Material is balanced at the start, so the two material rows match.
    assert_eq!(t.terms[0][0], t.terms[0][1]);
}

#[test]
fn basic_judgements() {
    let mut table = PawnTable::new();
    let ev = |fen: &str, table: &mut PawnTable| evaluate(&Position::from_fen(fen).unwrap(), table);
    // A queen up is a lot; symmetric start is near zero.
    assert!(ev("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", &mut table) > 800);
    assert!(ev(ply_chess::STARTPOS, &mut table).abs() < 40);
    // A passed pawn on the 7th is worth more than on the 3rd.
    let far = ev("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", &mut table);
    let near = ev("4k3/8/8/8/8/P7/8/4K3 w - - 0 1", &mut table);
    assert!(far > near);
    // Opposite-colored bishops scale the endgame down.
    let pos = Position::from_fen("4kb2/8/8/8/8/8/PPP5/3BK3 w - - 0 1").unwrap();
    assert_eq!(trace(&pos).scale, SCALE_OCB);
}

#[test]
fn flip_helper_round_trips() {
    for fen in crate::bench::POSITIONS {
        assert_eq!(flip_fen(&flip_fen(fen)), fen);
    }
}

/// The weights times the coefficients give the evaluation: the linear sum, and the king danger
/// and the complexity recomputed from their feature counts equal what the evaluation reported.
#[test]
fn weights_times_coefficients_give_the_evaluation() {
    for pos in positions() {
        let (c, v) = Coefficients::of(&pos);
        assert_eq!(c.value(&WEIGHTS), v, "{}", pos.to_fen());
        // the non-linear part alone, recomputed from the counts, is what was reported
        let mut linear = Score::ZERO;
        for (i, &n) in c.counts.iter().enumerate() {
            linear += WEIGHTS[i] * n;
        }
        let mut danger = Score::ZERO;
        for (king, counts) in c.danger.iter().enumerate() {
            if counts.iter().any(|&n| n != 0) {
                let d = nonlinear::king_danger(counts, &WEIGHTS);
                danger += if king == 0 { d } else { -d };
            }
        }
        let eg = (linear + danger).eg() as i32;
        let adjust = nonlinear::complexity(&c.complexity, eg, &WEIGHTS);
        assert_eq!(
            danger + Score::new(0, adjust as i16),
            c.reported,
            "{}",
            pos.to_fen()
        );
    }
}

/// The search's evaluation (no tracer, pawn cache), the traced table and the coefficients give
/// the same value on every generated position.
#[test]
fn traced_and_untraced_evaluations_agree() {
    let mut table = PawnTable::new();
    let positions = generated_positions();
    assert!(positions.len() > 10_000);
    for pos in positions {
        let white = |v: i32| match pos.side_to_move() {
            Color::White => v,
            Color::Black => -v,
        };
        let v = white(evaluate(&pos, &mut table));
        let t = trace(&pos);
        assert_eq!(t.white_value, v, "{}", pos.to_fen());
        assert_eq!(
            t.total
                .taper_scaled(t.phase, MAX_PHASE, t.scale, SCALE_NORMAL),
            v
        );
        let (c, cv) = Coefficients::of(&pos);
        assert_eq!(cv, v, "{}", pos.to_fen());
        assert_eq!((c.phase, c.scale), (t.phase, t.scale));
    }
}

/// Every feature is color-symmetric: the mirrored position with colors swapped has exactly
/// the negated coefficients (whatever the weights, including those still at zero).
#[test]
fn coefficients_are_color_symmetric() {
    for pos in positions() {
        let fen = pos.to_fen();
        let flipped = Position::from_fen(&flip_fen(&fen)).unwrap();
        let (a, _) = Coefficients::of(&pos);
        let (b, _) = Coefficients::of(&flipped);
        for i in 0..layout::COUNT {
            assert_eq!(a.counts[i], -b.counts[i], "{} in {fen}", layout::name(i));
        }
        assert_eq!(a.reported, -b.reported, "{fen}");
        assert_eq!(a.danger[0], b.danger[1], "{fen}");
        assert_eq!(a.danger[1], b.danger[0], "{fen}");
        assert_eq!(a.complexity, b.complexity, "{fen}");
        assert_eq!(a.phase, b.phase);
    }
}

/// Positions made here, without outside data: every position of seeded random games from the
/// start position (random play sheds material quickly, so the games pass through middlegames,
/// pawn endings and everything between), plus the bench positions.
fn generated_positions() -> Vec<Position> {
    let mut rng = ply_testkit::XorShift64::new(33);
    let mut out: Vec<Position> = crate::bench::POSITIONS
        .iter()
        .map(|fen| Position::from_fen(fen).unwrap())
        .collect();
    for _ in 0..300 {
        let mut pos = Position::startpos();
        for _ in 0..240 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len() as u64) as usize]);
            out.push(pos);
        }
    }
    out
}

/// Every group of weights is used by some position the test makes itself (no dead feature);
/// needs no outside data, so a fresh clone checks it too.
#[test]
fn every_feature_fires_somewhere() {
    let mut seen = vec![false; layout::COUNT];
    for pos in generated_positions() {
        let (c, _) = Coefficients::of(&pos);
        for (i, &n) in c.counts.iter().enumerate() {
            seen[i] |= n != 0;
        }
        for (i, n) in c.complexity.into_iter().enumerate() {
            seen[layout::COMPLEXITY + i] |= n != 0;
        }
        for counts in c.danger {
            for (i, n) in counts.into_iter().enumerate() {
                seen[layout::KING_DANGER + i] |= n != 0;
            }
        }
    }
    for first in [
        layout::CANDIDATE + 4,
        layout::PASSED_STOP + 3 * 8 + 5,
        layout::SHELTER + 64 + 6 * 8 + 1,
        layout::STORM + 2 * 8 + 7,
        layout::KING_ZONE_ATTACKS + 3,
        layout::SAFE_CHECKS + 3,
        layout::WEAK_KING_SQUARES,
        layout::THREAT_MINOR_BY_MINOR,
        layout::THREAT_BY_KING,
        layout::WEAK_PAWN,
        layout::PAWN_PUSH_THREAT,
        layout::OUTPOST,
        layout::OUTPOST + 3,
        layout::MINOR_BEHIND_PAWN,
        layout::BISHOP_LONG_DIAGONAL,
        layout::BISHOP_PAWNS,
        layout::KNIGHT_CLOSEDNESS + 5,
        layout::ROOK_CLOSEDNESS + 3,
        layout::SPACE,
    ]
    .into_iter()
    .chain((0..layout::KING_DANGER_LEN).map(|i| layout::KING_DANGER + i))
    .chain((0..layout::COMPLEXITY_LEN).map(|i| layout::COMPLEXITY + i))
    {
        assert!(seen[first], "{} never used", layout::name(first));
    }
}

/// The endgame scale of each drawish material class.
#[test]
fn endgame_scales() {
    for (fen, scale) in [
        (ply_chess::STARTPOS, SCALE_NORMAL),
        // opposite bishops alone, with knights, with rooks (White two pawns up)
        ("4k3/p7/3b4/8/8/1P1B4/P1P1K3/8 w - - 0 1", SCALE_OCB),
        (
            "4k3/p5n1/3b4/8/8/1P1B4/P1P1K1N1/8 w - - 0 1",
            SCALE_OCB_KNIGHTS,
        ),
        (
            "4k1r1/p7/3b4/8/8/1P1B4/P1P1K1R1/8 w - - 0 1",
            SCALE_OCB_ROOKS,
        ),
        // same-colored bishops: only the pawn count
        (
            "4k3/p7/2b5/8/8/1P1B4/P1P1K3/8 w - - 0 1",
            SCALE_FEW_PAWNS + 3 * SCALE_PER_PAWN,
        ),
        // rook and two pawns against rook
        (
            "4k3/8/8/8/8/8/PP2K3/R6r w - - 0 1",
            SCALE_FEW_PAWNS + 2 * SCALE_PER_PAWN,
        ),
        // a bishop up without pawns
        ("4k3/8/8/8/8/8/4K3/3B4 w - - 0 1", SCALE_NO_PAWNS_MINOR_UP),
    ] {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(trace(&pos).scale, scale, "{fen}");
    }
}
