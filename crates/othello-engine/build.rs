//! Generates the edge-stability table (Edax `board.c`, `edge_stability_init`): for every pair of 8-bit
//! edge patterns (player, opponent), the player's discs that no sequence of moves along that
//! edge can ever flip. Computed by dynamic programming over the number of empties, so the
//! build stays instantaneous even without optimisation.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

/// Plays `x` for `p` on an 8-square line, flipping `o` discs on both sides.
fn play_line(p: u32, o: u32, x: u32) -> (u32, u32) {
    let mut p = p | (1 << x);
    let mut o = o;
    // towards lower bits
    let mut y = x as i32 - 1;
    while y >= 0 && o & (1 << y) != 0 {
        y -= 1;
    }
    if y >= 0 && y < x as i32 - 1 && p & (1 << y) != 0 {
        let span = ((1u32 << x) - 1) & !((1u32 << (y + 1)) - 1);
        p |= span;
        o &= !span;
    }
    // towards higher bits
    let mut y = x + 1;
    while y < 8 && o & (1 << y) != 0 {
        y += 1;
    }
    if y < 8 && y > x + 1 && p & (1 << y) != 0 {
        let span = ((1u32 << y) - 1) & !((1u32 << (x + 1)) - 1);
        p |= span;
        o &= !span;
    }
    (p, o)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let mut table = vec![0u8; 65536];
    // states with k empties depend only on states with k - 1 empties
    for k in 0..=8u32 {
        for p in 0..256u32 {
            for o in 0..256u32 {
                if p & o != 0 || (!(p | o) & 0xff).count_ones() != k {
                    continue;
                }
                let empty = !(p | o) & 0xff;
                let mut stable = p;
                for x in 0..8 {
                    if empty & (1 << x) == 0 {
                        continue;
                    }
                    let (p1, o1) = play_line(p, o, x);
                    stable &= u32::from(table[(p1 * 256 + o1) as usize]);
                    let (o2, p2) = play_line(o, p, x);
                    stable &= u32::from(table[(p2 * 256 + o2) as usize]);
                }
                table[(p * 256 + o) as usize] = stable as u8;
            }
        }
    }
    let mut out = String::from(
        "/// Stable player discs of an edge, indexed by `player * 256 + opponent` (generated).\n",
    );
    out.push_str("pub(crate) static EDGE_STABILITY: [u8; 65536] = [");
    for (i, v) in table.iter().enumerate() {
        if i % 32 == 0 {
            out.push_str("\n    ");
        }
        write!(out, "{v},").expect("writing to a String cannot fail");
    }
    out.push_str("\n];\n");
    let path =
        PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("edge_stability.rs");
    fs::write(path, out).expect("cannot write the generated edge-stability table");
}
