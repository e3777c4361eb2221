//! Fast attack lookups (fancy magics, PEXT, const tables) against slow obvious references.

use ply_chess::attacks::{bishop_attacks_slow, rook_attacks_slow};
use ply_chess::{
    between, king_attacks, knight_attacks, line, pawn_attacks, Bitboard, Color, Magic, Pext,
    Sliders, Square,
};

use ply_testkit::XorShift64 as Rng;

/// Random occupancies of every density: sparse, medium and dense.
fn random_occupancies(rng: &mut Rng) -> Vec<Bitboard> {
    let mut out = Vec::new();
    for _ in 0..200 {
        let (a, b, c) = (rng.next(), rng.next(), rng.next());
        out.extend([
            Bitboard(a & b & c),
            Bitboard(a & b),
            Bitboard(a),
            Bitboard(a | b),
        ]);
    }
    out
}

/// Every subset of `mask` (carry-rippler enumeration).
fn subsets(mask: Bitboard) -> Vec<Bitboard> {
    let mut out = Vec::new();
    let mut subset = 0u64;
    loop {
        out.push(Bitboard(subset));
        subset = subset.wrapping_sub(mask.0) & mask.0;
        if subset == 0 {
            return out;
        }
    }
}

/// The squares whose occupancy matters to a slider on `sq`: its rays without the board edges
/// (edges on its own rank or file count for a rook).
fn relevant(sq: Square, rays: Bitboard, rook: bool) -> Bitboard {
    let files = Bitboard::FILE_A | Bitboard::FILE_H;
    let ranks = Bitboard::RANK_1 | Bitboard::RANK_8;
    let edges = if rook {
        files.without(Bitboard::from_file(sq.file()))
            | ranks.without(Bitboard::from_rank(sq.rank()))
    } else {
        files | ranks
    };
    rays.without(edges)
}

fn check_sliders<S: Sliders>(s: S) {
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    for i in 0..64 {
        let sq = Square::new(i);
        let rook_rays = rook_attacks_slow(sq, Bitboard::EMPTY);
        let bishop_rays = bishop_attacks_slow(sq, Bitboard::EMPTY);
        for occ in random_occupancies(&mut rng) {
            assert_eq!(
                s.rook(sq, occ),
                rook_attacks_slow(sq, occ),
                "rook {sq} {occ:?}"
            );
            assert_eq!(
                s.bishop(sq, occ),
                bishop_attacks_slow(sq, occ),
                "bishop {sq} {occ:?}"
            );
            assert_eq!(
                s.queen(sq, occ),
                rook_attacks_slow(sq, occ) | bishop_attacks_slow(sq, occ)
            );
        }
        // Exhaustive over the relevant occupancies, plus noise off the rays (which must not matter).
        let noise = Bitboard(rng.next()).without(rook_rays);
        for occ in subsets(relevant(sq, rook_rays, true)) {
            assert_eq!(
                s.rook(sq, occ | noise),
                rook_attacks_slow(sq, occ),
                "rook {sq} {occ:?}"
            );
        }
        let noise = Bitboard(rng.next()).without(bishop_rays);
        for occ in subsets(relevant(sq, bishop_rays, false)) {
            assert_eq!(
                s.bishop(sq, occ | noise),
                bishop_attacks_slow(sq, occ),
                "bishop {sq} {occ:?}"
            );
        }
    }
}

#[test]
fn magic_matches_ray_walk() {
    check_sliders(Magic);
}

#[test]
fn pext_matches_ray_walk() {
    match Pext::detect() {
        Some(p) => check_sliders(p),
        None => ply_testkit::skip_unsupported("this CPU has no BMI2, so there is no PEXT to test"),
    }
}

#[test]
fn leapers_match_step_reference() {
    for i in 0..64u8 {
        let sq = Square::new(i);
        let (f, r) = (i as i32 % 8, i as i32 / 8);
        let at = |steps: &[(i32, i32)]| -> Bitboard {
            steps
                .iter()
                .filter_map(|&(df, dr)| {
                    let (nf, nr) = (f + df, r + dr);
                    ((0..8).contains(&nf) && (0..8).contains(&nr))
                        .then(|| Square::new((nr * 8 + nf) as u8))
                })
                .collect()
        };
        // the reference derives the steps instead of listing them: a knight jumps to the squares
        // at distance sqrt(5), a king to the eight neighbours
        let steps = |keep: fn(i32, i32) -> bool| -> Vec<(i32, i32)> {
            (-2..=2)
                .flat_map(|df| (-2..=2).map(move |dr| (df, dr)))
                .filter(|&(df, dr)| keep(df, dr))
                .collect()
        };
        let knight = at(&steps(|df, dr| df * df + dr * dr == 5));
        let king = at(&steps(|df, dr| df.abs().max(dr.abs()) == 1));
        assert_eq!(knight_attacks(sq), knight);
        assert_eq!(king_attacks(sq), king);
        assert_eq!(pawn_attacks(Color::White, sq), at(&[(-1, 1), (1, 1)]));
        assert_eq!(pawn_attacks(Color::Black, sq), at(&[(-1, -1), (1, -1)]));
    }
}

#[test]
fn between_and_line() {
    for a in 0..64u8 {
        for b in 0..64u8 {
            let (sa, sb) = (Square::new(a), Square::new(b));
            let occ = Bitboard::from_square(sa) | Bitboard::from_square(sb);
            let rook = rook_attacks_slow(sa, occ) & rook_attacks_slow(sb, occ);
            let bishop = bishop_attacks_slow(sa, occ) & bishop_attacks_slow(sb, occ);
            let expected = if rook_attacks_slow(sa, Bitboard::EMPTY).contains(sb) {
                rook
            } else if bishop_attacks_slow(sa, Bitboard::EMPTY).contains(sb) {
                bishop
            } else {
                Bitboard::EMPTY
            };
            assert_eq!(between(sa, sb), expected, "between {sa} {sb}");
            if a != b && expected.any() || sa.distance(sb) == 1 && line(sa, sb).any() {
                assert!(line(sa, sb).contains(sa) && line(sa, sb).contains(sb));
                assert!((line(sa, sb) & between(sa, sb)) == between(sa, sb));
            }
        }
    }
    assert_eq!(line(Square::A1, Square::C3).count(), 8);
    assert_eq!(line(Square::A1, Square::B3), Bitboard::EMPTY);
    assert_eq!(between(Square::A1, Square::H8).count(), 6);
}
