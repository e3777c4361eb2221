//! Every flip and move-generation variant against the scalar reference, on random positions:
//! positions reached by random games (realistic) and random disjoint bitboards (arbitrary).

use ply_othello::{flip, moves, Board, Cpu};
use ply_testkit::XorShift64Star;

/// Calls `check(player, opponent)` on `n` positions: half from random games, half random bitboards.
fn positions(seed: u64, n: usize, mut check: impl FnMut(u64, u64)) {
    let mut rng = XorShift64Star::new(seed);
    let mut done = 0;
    while done < n {
        // A random game, checking every position on the way.
        let mut b = Board::start();
        loop {
            check(b.player(), b.opponent());
            done += 1;
            let m = moves::scalar::get_moves(b.player(), b.opponent());
            if m == 0 {
                if moves::scalar::get_moves(b.opponent(), b.player()) == 0 {
                    break;
                }
                b.pass();
                continue;
            }
            let k = (rng.next() % m.count_ones() as u64) as usize;
            let mut mm = m;
            for _ in 0..k {
                mm &= mm - 1;
            }
            let sq = mm.trailing_zeros() as usize;
            b.play_flips(sq, flip::scalar::flip(sq, b.player(), b.opponent()));
        }
        // Random disjoint bitboards with varied densities.
        for _ in 0..60 {
            let occ = rng.next() | rng.next() & rng.next();
            let p = rng.next() & occ;
            check(p, occ & !p);
            done += 1;
        }
    }
}

fn check_all(seed: u64, n: usize) {
    let mut flips_checked = 0u64;
    positions(seed, n, |p, o| {
        let reference = moves::scalar::get_moves(p, o);
        assert_eq!(
            moves::portable::get_moves(p, o),
            reference,
            "get_moves portable {p:#x} {o:#x}"
        );
        #[cfg(target_arch = "x86_64")]
        variants_moves(p, o, reference);
        #[cfg(target_arch = "x86_64")]
        if p.count_ones() % 4 == 0 {
            batched_moves(p, o);
        }
        let mut empty = !(p | o);
        while empty != 0 {
            let sq = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let r = flip::scalar::flip(sq, p, o);
            assert_eq!(
                flip::portable::flip(sq, p, o),
                r,
                "flip portable {sq} {p:#x} {o:#x}"
            );
            #[cfg(target_arch = "x86_64")]
            variants_flip(sq, p, o, r);
            flips_checked += 1;
        }
    });
    eprintln!("{n} positions, {flips_checked} flips checked");
}

#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    is_x86_feature_detected!("avx2")
}

#[cfg(target_arch = "x86_64")]
fn has_avx512() -> bool {
    has_avx2()
        && is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512cd")
}

#[cfg(target_arch = "x86_64")]
fn variants_moves(p: u64, o: u64, reference: u64) {
    if has_avx2() {
        // SAFETY: AVX2 checked just above.
        assert_eq!(
            unsafe { moves::avx2::get_moves(p, o) },
            reference,
            "get_moves avx2 {p:#x} {o:#x}"
        );
    }
    if has_avx512() {
        // SAFETY: AVX-512 F/VL/CD checked just above.
        assert_eq!(
            unsafe { moves::avx512::get_moves(p, o) },
            reference,
            "get_moves avx512 {p:#x} {o:#x}"
        );
    }
}

/// The batched generators on lanes holding this board, its swap and shifted copies.
#[cfg(target_arch = "x86_64")]
fn batched_moves(p: u64, o: u64) {
    let ps = [
        p,
        o,
        p.rotate_left(8),
        p & !o.rotate_left(3),
        p >> 1,
        o << 1,
        0,
        p,
    ];
    let os = [
        o,
        p,
        o.rotate_left(8),
        o.rotate_left(3),
        o >> 1 & !(p >> 1),
        p << 1 & !(o << 1),
        o,
        0,
    ];
    let expect: Vec<u64> = ps
        .iter()
        .zip(&os)
        .map(|(&a, &b)| moves::scalar::get_moves(a, b))
        .collect();
    if has_avx2() {
        let (p4, o4) = ([ps[0], ps[1], ps[2], ps[3]], [os[0], os[1], os[2], os[3]]);
        // SAFETY: AVX2 checked just above.
        assert_eq!(
            unsafe { moves::avx2::get_moves_x4(&p4, &o4) }[..],
            expect[..4]
        );
    }
    if has_avx512() {
        // SAFETY: AVX-512 F checked just above.
        assert_eq!(
            unsafe { moves::avx512::get_moves_x8(&ps, &os) }[..],
            expect[..]
        );
    }
}

#[cfg(target_arch = "x86_64")]
fn variants_flip(sq: usize, p: u64, o: u64, reference: u64) {
    if has_avx2() {
        // SAFETY: AVX2 checked just above.
        assert_eq!(
            unsafe { flip::avx2::flip(sq, p, o) },
            reference,
            "flip avx2 {sq} {p:#x} {o:#x}"
        );
    }
    if has_avx512() {
        // SAFETY: AVX-512 F/VL/CD checked just above.
        assert_eq!(
            unsafe { flip::avx512::flip(sq, p, o) },
            reference,
            "flip avx512 {sq} {p:#x} {o:#x}"
        );
    }
}

/// The level the crate dispatches to is one the CPU has, and the SIMD variants this file
/// cannot check here are reported as such.
#[test]
fn detected_level_is_supported_by_the_cpu() {
    let cpu = Cpu::detect();
    assert!(cpu.is_supported(), "{}", cpu.name());
    #[cfg(target_arch = "x86_64")]
    {
        if cpu != Cpu::Portable {
            assert!(has_avx2(), "{} detected without AVX2", cpu.name());
        }
        if cpu == Cpu::Avx512 {
            assert!(
                has_avx512(),
                "AVX-512 level detected without AVX-512 F/VL/CD"
            );
        }
        if !has_avx2() {
            ply_testkit::skip_unsupported("no AVX2: only the portable variants are checked");
        } else if !has_avx512() {
            ply_testkit::skip_unsupported("no AVX-512: its variants are not checked");
        }
    }
}

#[test]
fn variants_match_reference() {
    check_all(1, 100_000);
}

#[test]
#[ignore = "slow job (.ci/run-slow): tens of millions of checks"]
fn variants_match_reference_long() {
    check_all(2, 2_000_000);
}
