//! Perft from the start position against Aart Bik's table (finished games count as leaves).

use ply_othello::{perft, perft_parallel, perft_reference, perft_with, Board, Cpu};
use ply_testkit::XorShift64;

/// Leaf counts at depths 0..=14 from the start position (issue 5, Aart Bik's table).
const START: [u64; 15] = [
    1,
    4,
    12,
    56,
    244,
    1_396,
    8_200,
    55_092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
    1_939_886_636,
    18_429_641_748,
    184_042_084_512,
];

#[test]
fn reference_matches_table_to_7() {
    for (d, &n) in START.iter().enumerate().take(8) {
        assert_eq!(perft_reference(Board::start(), d as u32), n, "depth {d}");
    }
}

#[test]
fn every_cpu_level_to_9() {
    for cpu in [Cpu::Portable, Cpu::Avx2, Cpu::Avx512] {
        if !cpu.is_supported() {
            ply_testkit::skip_unsupported(&format!("{} kernel: this CPU lacks it", cpu.name()));
            continue;
        }
        for (d, &n) in START.iter().enumerate().take(10) {
            assert_eq!(
                perft_with(Board::start(), d as u32, cpu),
                Some(n),
                "{} depth {d}",
                cpu.name()
            );
        }
    }
}

#[test]
fn start_to_12() {
    assert_eq!(perft(Board::start(), 10), START[10]);
    assert_eq!(perft(Board::start(), 11), START[11]);
    assert_eq!(perft(Board::start(), 12), START[12]);
}

#[test]
fn parallel_matches() {
    assert_eq!(perft_parallel(Board::start(), 10, 3), START[10]);
    // From a position with passes and finished games nearby: parallel == sequential == reference.
    let pos: ply_othello::Position =
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
            .parse()
            .unwrap();
    for d in 0..=8 {
        let r = perft_reference(pos.board, d);
        assert_eq!(perft(pos.board, d), r, "depth {d}");
        assert_eq!(perft_parallel(pos.board, d, 2), r, "depth {d}");
    }
}

#[test]
fn endgames_past_the_end() {
    // Positions with 6..9 empties from random games, searched deeper than the game can last.
    let mut rng = XorShift64::new(0x2545_F491_4F6C_DD1D);
    for game in 0..40 {
        let mut b = Board::start();
        while b.empty_count() > 6 + game % 4 && !b.is_game_over() {
            let m = b.moves();
            if m == 0 {
                b.pass();
                continue;
            }
            b.play(rng.pick_bit(m));
        }
        for d in [1, 3, b.empty_count(), b.empty_count() + 3] {
            let r = perft_reference(b, d);
            for cpu in [Cpu::Portable, Cpu::Avx2, Cpu::Avx512] {
                if let Some(n) = perft_with(b, d, cpu) {
                    assert_eq!(n, r, "{} depth {d} {b:?}", cpu.name());
                }
            }
            assert_eq!(perft_parallel(b, d, 2), r);
        }
    }
}

#[test]
#[ignore = "slow job (.ci/run-slow): depth 13, 18.4e9 leaves"]
fn start_13() {
    assert_eq!(perft(Board::start(), 13), START[13]);
}

#[test]
#[ignore = "slow job (.ci/run-slow): depth 14, 184e9 leaves"]
fn start_14() {
    assert_eq!(perft(Board::start(), 14), START[14]);
}
