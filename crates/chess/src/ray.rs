//! The slow, obvious ray walk that both the compile-time tables of `attacks.rs` and the build
//! script's magic tables start from (`build.rs` includes this file as a module of its own).

/// Ray walk from `sq` in direction (df, dr) on `occ`, stopping at (and including) a blocker.
pub(crate) const fn ray(sq: usize, df: i32, dr: i32, occ: u64) -> u64 {
    let mut out = 0u64;
    let mut f = (sq % 8) as i32 + df;
    let mut r = (sq / 8) as i32 + dr;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        let bit = 1u64 << (r * 8 + f);
        out |= bit;
        if occ & bit != 0 {
            break;
        }
        f += df;
        r += dr;
    }
    out
}
