use super::*;
use crate::value::KNOWN_WIN;
use ply_syzygy::{Tablebase, Wdl};
use ply_testkit::XorShift64;

/// The shared Syzygy tables, or `None` after a visible skip (a failure under `PLY_STRICT=1`) when
/// `shared/` is absent. Tables that are present but cannot be opened are a failure.
fn tables() -> Option<Tablebase> {
    let dir = ply_testkit::shared("syzygy/tables")?;
    let path = dir.to_str().expect("UTF-8 path to the shared tables");
    let tb = Tablebase::open(path).unwrap_or_else(|e| panic!("cannot open {path}: {e}"));
    assert!(tb.max_pieces() >= 3, "no Syzygy tables in {path}");
    Some(tb)
}

/// A FEN from (piece char, square) placements; `None` for two pieces on one square or pawns on
/// the back ranks.
fn fen(pieces: &[(char, usize)], white_to_move: bool) -> Option<String> {
    let mut used = 0u64;
    for &(c, sq) in pieces {
        if used >> sq & 1 != 0 || (c.eq_ignore_ascii_case(&'p') && !(8..56).contains(&sq)) {
            return None;
        }
        used |= 1 << sq;
    }
    Some(ply_testkit::chess_fen(pieces, white_to_move))
}

/// Checks a recognition against the tablebase value; returns whether a recognition happened.
fn agrees(pos: &Position, r: Option<Recognition>, tb: &Tablebase) -> bool {
    let Some(r) = r else { return false };
    let wdl = tb.probe_wdl(pos).expect("table present");
    match r {
        Recognition::Exact(0) => assert!(
            matches!(wdl, Wdl::Draw | Wdl::CursedWin | Wdl::BlessedLoss),
            "{pos} claimed draw, tables say {wdl:?}"
        ),
        Recognition::Lower(v) => {
            assert!(v >= KNOWN_WIN, "{pos}");
            assert_eq!(wdl, Wdl::Win, "{pos} claimed win");
        }
        Recognition::Upper(v) => {
            assert!(v <= -KNOWN_WIN, "{pos}");
            assert_eq!(wdl, Wdl::Loss, "{pos} claimed loss");
        }
        Recognition::Exact(v) => panic!("{pos}: unexpected exact {v}"),
    }
    true
}

#[test]
fn index_is_commutative_and_flags_are_set_for_both_orders() {
    for w in 0u8..32 {
        for b in 0u8..32 {
            assert_eq!(index(w, b), index(b, w));
            assert!(index(w, b) < 64);
            let installed = TABLES.table[index(w, b)].is_some();
            // A flag never points at an empty table entry, and flags are symmetric.
            if available(w, b) {
                assert!(installed, "{w} {b}");
            }
            assert_eq!(available(w, b), available(b, w));
        }
    }
    // Lone kings use the lower half with the strong side's signature.
    assert_eq!(index(R, 0), R as usize);
    assert_eq!(index(0, Q | P), (Q | P) as usize);
    assert_eq!(index(B, B), 32 + B as usize);
    // KBKN maps to the same entry as KBNKBN but neither is available.
    assert_eq!(index(B, N), index(B | N, B | N));
    assert!(!available(B, N) && !available(B | N, B | N));
    assert!(available(B, B) && available(P, 0) && available(0, P) && available(Q | R, 0));
    assert!(!available(P, P));
}

#[test]
fn simple_draws_and_wins() {
    let pos = |f: &str| Position::from_fen(f).unwrap();
    assert_eq!(
        recognize(&pos("8/8/8/4k3/8/8/8/4K3 w - - 0 1")),
        Some(Recognition::Exact(0))
    );
    assert_eq!(
        recognize(&pos("8/8/8/4k3/8/8/8/2N1K3 b - - 0 1")),
        Some(Recognition::Exact(0))
    );
    assert_eq!(
        recognize(&pos("8/8/8/4k3/8/8/8/2B1K3 w - - 0 1")),
        Some(Recognition::Exact(0))
    );
    // Same-coloured bishops each: draw; opposite: not claimed.
    assert_eq!(
        recognize(&pos("8/8/8/4k3/5b2/8/8/2B1K3 w - - 0 1")),
        Some(Recognition::Exact(0))
    );
    assert_eq!(recognize(&pos("8/8/8/4kb2/8/8/8/2B1K3 w - - 0 1")), None);
    // KRK with the strong side to move: a win bound.
    match recognize(&pos("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")) {
        Some(Recognition::Lower(v)) => assert!(v >= KNOWN_WIN),
        r => panic!("{r:?}"),
    }
    // The defender can take the undefended rook: not claimed.
    assert_eq!(recognize(&pos("8/8/8/8/8/8/3k4/3R2K1 b - - 0 1")), None);
    // Wrong rook pawn with the defender in the corner.
    assert_eq!(
        recognize(&pos("k7/8/8/P7/8/8/8/2B1K3 w - - 0 1")),
        Some(Recognition::Exact(0))
    );
    // Right bishop: not a draw claim.
    assert_eq!(recognize(&pos("k7/8/8/P7/8/8/8/3BK3 w - - 0 1")), None);
}

#[test]
fn kpk_matches_syzygy_on_every_position() {
    let Some(tb) = tables() else { return };
    let mut recognised = 0;
    let mut legal = 0;
    for (strong_white, p, k) in [(true, 'P', 'k'), (false, 'p', 'K')] {
        let sk = if strong_white { 'K' } else { 'k' };
        for pawn in 8..56 {
            for a in 0..64 {
                for b in 0..64 {
                    for stm in [true, false] {
                        let Some(f) = fen(&[(sk, a), (p, pawn), (k, b)], stm) else {
                            continue;
                        };
                        let Ok(pos) = Position::from_fen(&f) else {
                            continue;
                        };
                        legal += 1;
                        if agrees(&pos, recognize(&pos), &tb) {
                            recognised += 1;
                        }
                    }
                }
            }
        }
    }
    // Every legal KPK position of either colour is recognised, and agrees with the tables.
    assert_eq!(recognised, legal);
    assert_eq!(legal, 4 * 165_676);
}

#[test]
fn recognitions_agree_with_syzygy_on_sampled_positions() {
    let Some(tb) = tables() else { return };
    let configs: [&[char]; 10] = [
        &['K', 'k'],
        &['K', 'N', 'k'],
        &['K', 'B', 'k'],
        &['K', 'N', 'N', 'k'],
        &['K', 'B', 'k', 'b'],
        &['K', 'R', 'k'],
        &['K', 'Q', 'k'],
        &['K', 'B', 'N', 'k'],
        &['K', 'B', 'P', 'k'],
        &['k', 'r', 'K'],
    ];
    let mut rng = XorShift64::new(0x9e37_79b9_7f4a_7c15);
    let mut rnd = move || rng.below(64) as usize;
    let mut recognised = 0;
    for config in configs {
        for _ in 0..20_000 {
            let placed: Vec<(char, usize)> = config.iter().map(|&c| (c, rnd())).collect();
            // Put KBPK pawns on a rook file to exercise the wrong-bishop rule.
            let placed: Vec<(char, usize)> = placed
                .into_iter()
                .map(|(c, s)| if c == 'P' { (c, s & !7) } else { (c, s) })
                .collect();
            let Some(f) = fen(&placed, rnd() % 2 == 0) else {
                continue;
            };
            let Ok(pos) = Position::from_fen(&f) else {
                continue;
            };
            if agrees(&pos, recognize(&pos), &tb) {
                recognised += 1;
            }
        }
    }
    assert!(recognised > 50_000, "{recognised}");
}
