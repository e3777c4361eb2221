//! Cross-check against an independent prober, shakmaty-syzygy (dev-dependency only): every legal KPvK
//! position exhaustively, and a deterministic sample of every 4-piece table, for both WDL and DTZ.
//! The full runs (every 3-piece table exhaustively, large samples) are `#[ignore]`d.

use std::path::PathBuf;

use ply_chess::Position;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// The shared tables, or `None` after a visible skip (a failure under `PLY_STRICT=1`).
fn tables() -> Option<PathBuf> {
    ply_testkit::shared("syzygy/tables")
}

/// FEN of pieces (`(letter, square)`, a1 = 0) with the given side to move.
fn fen(pieces: &[(char, usize)], white_to_move: bool) -> String {
    ply_testkit::chess_fen(pieces, white_to_move)
}

struct Checker {
    ply: ply_syzygy::Tablebase,
    sm: shakmaty_syzygy::Tablebase<Chess>,
    checked: usize,
    mismatches: Vec<String>,
}

impl Checker {
    fn new(dir: &std::path::Path) -> Checker {
        let ply = ply_syzygy::Tablebase::open(dir.to_str().unwrap()).unwrap();
        let mut sm = shakmaty_syzygy::Tablebase::new();
        sm.add_directory(dir).unwrap();
        Checker {
            ply,
            sm,
            checked: 0,
            mismatches: Vec::new(),
        }
    }

    /// Compare both probers on one placement; illegal placements are skipped.
    fn check(&mut self, pieces: &[(char, usize)], white_to_move: bool) {
        let squares: Vec<usize> = pieces.iter().map(|p| p.1).collect();
        if (1..squares.len()).any(|i| squares[..i].contains(&squares[i])) {
            return;
        }
        let fen = fen(pieces, white_to_move);
        let Ok(pos) = Position::from_fen(&fen) else {
            return;
        };
        let Ok(sm_pos) = fen
            .parse::<Fen>()
            .unwrap()
            .into_position::<Chess>(CastlingMode::Standard)
        else {
            return;
        };
        let ours = (
            self.ply.probe_wdl(&pos).map(|w| w as i32),
            self.ply.probe_dtz(&pos).map(|d| d.0),
        );
        let theirs = (
            self.sm.probe_wdl_after_zeroing(&sm_pos).map(|w| w as i32),
            self.sm.probe_dtz(&sm_pos).map(|d| d.ignore_rounding().0),
        );
        self.checked += 1;
        match (ours, theirs) {
            ((Ok(a), Ok(b)), (Ok(c), Ok(d))) if a == c && b == d => {}
            (o, t) => {
                if self.mismatches.len() < 20 {
                    self.mismatches
                        .push(format!("{fen}: ply {o:?} shakmaty {t:?}"));
                } else {
                    self.mismatches.push(String::new());
                }
            }
        }
    }

    fn finish(self, min_checked: usize) {
        assert!(
            self.mismatches.is_empty(),
            "{} mismatches of {}:\n{}",
            self.mismatches.len(),
            self.checked,
            self.mismatches.join("\n")
        );
        assert!(
            self.checked >= min_checked,
            "only {} positions checked",
            self.checked
        );
    }
}

/// Every placement of the white king, one extra piece and the black king, both sides to move.
fn exhaustive_three(checker: &mut Checker, piece: char) {
    for wk in 0..64 {
        for bk in 0..64 {
            for p in 0..64 {
                if piece.eq_ignore_ascii_case(&'p') && !(8..56).contains(&p) {
                    continue;
                }
                for stm in [true, false] {
                    checker.check(&[('K', wk), ('k', bk), (piece, p)], stm);
                }
            }
        }
    }
}

#[test]
fn every_kpvk_position_agrees() {
    let Some(dir) = tables() else { return };
    let mut checker = Checker::new(&dir);
    exhaustive_three(&mut checker, 'P');
    checker.finish(300_000);
}

#[test]
#[ignore = "slow job (.ci/run-slow): every 3-piece position, about a minute"]
fn every_three_piece_position_agrees() {
    let Some(dir) = tables() else { return };
    let mut checker = Checker::new(&dir);
    for piece in ['Q', 'R', 'B', 'N', 'P', 'p'] {
        exhaustive_three(&mut checker, piece);
    }
    checker.finish(1_500_000);
}

/// A deterministic sample of random placements of every 4-piece table.
fn sample_four(checker: &mut Checker, per_table: usize) {
    let names = [
        "KQQvK", "KQRvK", "KQBvK", "KQNvK", "KQPvK", "KRRvK", "KRBvK", "KRNvK", "KRPvK", "KBBvK",
        "KBNvK", "KBPvK", "KNNvK", "KNPvK", "KPPvK", "KQvKQ", "KQvKR", "KQvKB", "KQvKN", "KQvKP",
        "KRvKR", "KRvKB", "KRvKN", "KRvKP", "KBvKB", "KBvKN", "KBvKP", "KNvKN", "KNvKP", "KPvKP",
    ];
    let mut rng = ply_testkit::XorShift64::new(0x9e37_79b9_7f4a_7c15);
    let mut next = |n: u64| rng.below(n) as usize;
    for name in names {
        let (white, black) = name.split_once('v').unwrap();
        let letters: Vec<char> = white
            .chars()
            .chain(black.chars().map(|c| c.to_ascii_lowercase()))
            .collect();
        let mut done = 0;
        while done < per_table {
            let pieces: Vec<(char, usize)> = letters
                .iter()
                .map(|&c| {
                    (
                        c,
                        if c.eq_ignore_ascii_case(&'p') {
                            8 + next(48)
                        } else {
                            next(64)
                        },
                    )
                })
                .collect();
            let before = checker.checked;
            checker.check(&pieces, next(2) == 0);
            done += checker.checked - before;
        }
    }
}

#[test]
fn four_piece_samples_agree() {
    let Some(dir) = tables() else { return };
    let mut checker = Checker::new(&dir);
    sample_four(&mut checker, 400);
    checker.finish(30 * 400);
}

#[test]
#[ignore = "slow job (.ci/run-slow): a large 4-piece sample, minutes"]
fn large_four_piece_samples_agree() {
    let Some(dir) = tables() else { return };
    let mut checker = Checker::new(&dir);
    sample_four(&mut checker, 20_000);
    checker.finish(30 * 20_000);
}
