//! Build script: generates the KPK bitbase by retrograde analysis.
//!
//! Every position of king and pawn against king (pawn on files a-d, ranks 2-7, the strong side
//! playing up the board) is classified as a win for the strong side or not. The result is a bit
//! array written to `$OUT_DIR/kpk.bin` and embedded by `src/kpk.rs`. Promotions are resolved exactly:
//! after queening or rooking the position is a win unless the new piece is captured at once or the
//! defender is stalemated, which is all a king and queen (or rook) against a king can fail on.

use std::env;
use std::fs;
use std::path::Path;

/// Number of pawn placements: files a-d times ranks 2-7.
const PAWN_SLOTS: usize = 24;
/// Positions per side to move.
const PER_SIDE: usize = PAWN_SLOTS * 64 * 64;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Invalid,
    Unknown,
    Draw,
    Win,
}

fn file(sq: usize) -> i32 {
    (sq % 8) as i32
}

fn rank(sq: usize) -> i32 {
    (sq / 8) as i32
}

fn distance(a: usize, b: usize) -> i32 {
    (file(a) - file(b)).abs().max((rank(a) - rank(b)).abs())
}

fn king_moves(sq: usize) -> impl Iterator<Item = usize> {
    (0..64).filter(move |&t| distance(sq, t) == 1)
}

/// Squares attacked by a white pawn on `sq`.
fn pawn_attacks(sq: usize) -> u64 {
    let mut bb = 0u64;
    if rank(sq) < 7 {
        if file(sq) > 0 {
            bb |= 1 << (sq + 7);
        }
        if file(sq) < 7 {
            bb |= 1 << (sq + 9);
        }
    }
    bb
}

fn index(strong_to_move: bool, wk: usize, pawn: usize, bk: usize) -> usize {
    let slot = (rank(pawn) as usize - 1) * 4 + file(pawn) as usize;
    usize::from(!strong_to_move) * PER_SIDE + slot * 4096 + wk * 64 + bk
}

/// Squares a rook (`diagonal == false`) or bishop attacks from `from`, stopping at `blockers`.
fn slider_attacks(from: usize, blockers: u64, diagonal: bool) -> u64 {
    let dirs: [(i32, i32); 4] = if diagonal {
        [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    } else {
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
    };
    let mut bb = 0u64;
    for (df, dr) in dirs {
        let (mut f, mut r) = (file(from) + df, rank(from) + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let s = (r * 8 + f) as usize;
            bb |= 1 << s;
            if blockers & (1 << s) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    bb
}

/// Result of promoting on `promo` to a queen (`queen`) or a rook, with the defender to move.
fn promotion_wins(wk: usize, promo: usize, bk: usize, queen: bool) -> bool {
    // The new piece hangs: the defender takes it and only kings remain.
    if distance(bk, promo) == 1 && distance(wk, promo) != 1 {
        return false;
    }
    // The defender's king does not block the new piece's lines to the squares behind it.
    let occupied = (1u64 << wk) | (1u64 << promo);
    let mut piece = slider_attacks(promo, occupied, false);
    if queen {
        piece |= slider_attacks(promo, occupied, true);
    }
    let mut guarded = piece;
    for s in king_moves(wk) {
        guarded |= 1 << s;
    }
    let in_check = piece & (1 << bk) != 0;
    let can_move = king_moves(bk).any(|t| t != wk && guarded & (1 << t) == 0);
    // A king and queen or rook against a bare king wins unless the defender is stalemated.
    can_move || in_check
}

fn classify_initial(strong_to_move: bool, wk: usize, pawn: usize, bk: usize) -> Class {
    if wk == bk || wk == pawn || bk == pawn || distance(wk, bk) <= 1 {
        return Class::Invalid;
    }
    // The side not to move may not be in check: only the defender can be checked, by the pawn.
    if strong_to_move && pawn_attacks(pawn) & (1 << bk) != 0 {
        return Class::Invalid;
    }
    if !strong_to_move {
        let attacked = |t: usize| distance(t, wk) == 1 || pawn_attacks(pawn) & (1 << t) != 0;
        // The defender captures an undefended pawn: a bare-kings draw.
        if distance(bk, pawn) == 1 && distance(wk, pawn) != 1 {
            return Class::Draw;
        }
        // Stalemate (the pawn never gives mate on its own with kings this far apart).
        if king_moves(bk).all(|t| t == pawn || attacked(t)) {
            let in_check = pawn_attacks(pawn) & (1 << bk) != 0;
            return if in_check { Class::Win } else { Class::Draw };
        }
    }
    Class::Unknown
}

/// One retrograde pass over a position whose class is still unknown.
fn classify(table: &[Class], strong_to_move: bool, wk: usize, pawn: usize, bk: usize) -> Class {
    if strong_to_move {
        // Any winning move wins; the position is a draw once every move is known to draw.
        let mut all_draw = true;
        let mut consider = |c: Class| match c {
            Class::Win => true,
            Class::Draw | Class::Invalid => false,
            Class::Unknown => {
                all_draw = false;
                false
            }
        };
        for t in king_moves(wk) {
            if t != pawn && distance(t, bk) > 1 && consider(table[index(false, t, pawn, bk)]) {
                return Class::Win;
            }
        }
        let push = pawn + 8;
        if push != wk && push != bk {
            if rank(push) == 7 {
                if promotion_wins(wk, push, bk, true) || promotion_wins(wk, push, bk, false) {
                    return Class::Win;
                }
            } else {
                if consider(table[index(false, wk, push, bk)]) {
                    return Class::Win;
                }
                let double = push + 8;
                if rank(pawn) == 1
                    && double != wk
                    && double != bk
                    && consider(table[index(false, wk, double, bk)])
                {
                    return Class::Win;
                }
            }
        }
        if all_draw {
            Class::Draw
        } else {
            Class::Unknown
        }
    } else {
        // The defender draws with any drawing move and loses once every move loses.
        let mut all_win = true;
        for t in king_moves(bk) {
            if t == pawn || distance(t, wk) <= 1 || pawn_attacks(pawn) & (1 << t) != 0 {
                continue;
            }
            match table[index(true, wk, pawn, t)] {
                Class::Draw => return Class::Draw,
                Class::Unknown => all_win = false,
                Class::Win | Class::Invalid => {}
            }
        }
        if all_win {
            Class::Win
        } else {
            Class::Unknown
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let mut table = vec![Class::Invalid; 2 * PER_SIDE];
    let positions = || {
        (0..2).flat_map(|side| {
            (8..56).filter(|&p| file(p) < 4).flat_map(move |p| {
                (0..64).flat_map(move |w| (0..64).map(move |b| (side == 0, w, p, b)))
            })
        })
    };
    for (stm, wk, pawn, bk) in positions() {
        table[index(stm, wk, pawn, bk)] = classify_initial(stm, wk, pawn, bk);
    }
    loop {
        let mut changed = false;
        for (stm, wk, pawn, bk) in positions() {
            let i = index(stm, wk, pawn, bk);
            if table[i] == Class::Unknown {
                let c = classify(&table, stm, wk, pawn, bk);
                if c != Class::Unknown {
                    table[i] = c;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    // Positions still unknown are draws: nobody can force anything from them.
    let mut bits = vec![0u8; 2 * PER_SIDE / 8];
    for (i, c) in table.iter().enumerate() {
        if *c == Class::Win {
            bits[i / 8] |= 1 << (i % 8);
        }
    }
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("kpk.bin");
    fs::write(out, bits).expect("write kpk.bin");
}
