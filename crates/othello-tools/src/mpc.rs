//! Fitting of the Multi-ProbCut predictors of the engine (`ply_othello_engine::midgame::mpc`):
//! positions from WTHOR games are searched without selectivity at every depth
//! 0..=[`FIT_MAX_DEPTH`] (and solved exactly with at most [`END_FIT_MAX`] empties); then, per
//! deep depth and empties bucket, the deep score is regressed on the shallow one by least
//! squares (slope, intercept, residual sigma).
//!
//! `ply-othello fit-mpc --positions 2000` runs [`score_positions`] and [`fit_tables`] and prints the tables in Rust syntax,
//! ready to replace the fitted block of `mpc.rs`. Without WTHOR games, [`random_positions`]
//! gives positions of seeded random games instead (less like real play, but no outside data).

use ply_batch::rng::XorShift64;
use ply_othello::{Board, Square};
use ply_othello_engine::eval::{embedded_weights, PackedWeights, Weights};
use ply_othello_engine::midgame::mpc::{self, Fit, BUCKETS, FIT_MAX_DEPTH};
use ply_othello_engine::midgame::{depth_scores, DepthScores};

/// Positions with at most this many empties are also solved exactly (endgame predictors).
pub const END_FIT_MAX: u32 = 20;

/// Positions taken from `games` (WTHOR move lists): game `i` is played up to a ply chosen by
/// a fixed xorshift sequence so that the empties are spread over `min_empties..=max_empties`
/// (replayed by [`ply_othello::wthor::replay`]; games that end or break off before are skipped).
pub fn positions(
    games: &[[Option<Square>; 60]],
    count: usize,
    min_empties: u32,
    max_empties: u32,
) -> Vec<Board> {
    let mut rng = XorShift64::new(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    let step = (games.len() / count.max(1)).max(1);
    for g in games.iter().step_by(step) {
        if out.len() >= count {
            break;
        }
        let target = min_empties + (rng.next() % u64::from(max_empties - min_empties + 1)) as u32;
        // the position after `60 - target` moves, kept only when its side to move can move
        let Some(played) = 60u32.checked_sub(target) else {
            continue;
        };
        if let Some(Ok(ply)) = ply_othello::wthor::replay(g).nth(played as usize) {
            let b = ply.position.board;
            if b.moves() != 0 {
                out.push(b);
            }
        }
    }
    out
}

/// `count` positions of games played by uniformly random legal moves from the start, from a
/// xorshift stream seeded with `seed`: game `i` stops at a number of empties drawn in
/// `min_empties..=max_empties` (`min_empties` at least 1); positions in which the side to move
/// has no move are not kept (that game is replaced by the next one). The same arguments always
/// give the same positions.
pub fn random_positions(count: usize, seed: u64, min_empties: u32, max_empties: u32) -> Vec<Board> {
    let (lo, hi) = (min_empties.clamp(1, 60), max_empties.clamp(1, 60));
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    let mut rng = XorShift64::new(seed | 1);
    let mut out = Vec::with_capacity(count);
    // a bound on the games tried: almost every game reaches its target with a move to play
    for _ in 0..count.saturating_mul(100) {
        if out.len() >= count {
            break;
        }
        let target = lo + (rng.next() % u64::from(hi - lo + 1)) as u32;
        let mut b = Board::start();
        while b.empty_count() > target && !b.is_game_over() {
            let moves = b.moves();
            if moves == 0 {
                b.pass();
                continue;
            }
            b.play(rng.pick_bit(moves));
        }
        if b.empty_count() == target && b.moves() != 0 {
            out.push(b);
        }
    }
    out
}

/// Scores `count` positions of `games` (see [`positions`]) with `weights` (the shipped ones
/// when `None`). `progress` is called once per scored position.
pub fn score_positions(
    games: &[[Option<Square>; 60]],
    count: usize,
    weights: Option<&PackedWeights>,
    progress: impl FnMut(),
) -> Vec<DepthScores> {
    score_boards(&positions(games, count, 12, 58), weights, progress)
}

/// Scores `boards` at every depth 0..=[`FIT_MAX_DEPTH`] (and exactly with at most
/// [`END_FIT_MAX`] empties) with `weights` (the shipped ones when `None`). `progress` is called
/// once per scored position.
pub fn score_boards(
    boards: &[Board],
    weights: Option<&PackedWeights>,
    mut progress: impl FnMut(),
) -> Vec<DepthScores> {
    let packed = match weights {
        Some(w) => w.clone(),
        None => embedded_weights().unwrap_or_else(|_| PackedWeights::zero_per_ply()),
    };
    let w = std::sync::Arc::new(Weights::new(&packed));
    boards
        .iter()
        .map(|b| {
            progress();
            depth_scores(&w, b, FIT_MAX_DEPTH as u32, END_FIT_MAX)
        })
        .collect()
}

/// Why no tables can be fitted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FitError {
    /// Too few scored positions for any midgame predictor: the tables would be placeholders.
    #[error(
        "{0} scored positions fit no predictor (each needs {MIN_PAIRS} positions of one \
         10-empties bucket): give more positions"
    )]
    TooFewPositions(usize),
}

/// The fewest (shallow, deep) score pairs a predictor is fitted on.
pub const MIN_PAIRS: usize = 8;

/// One line of the per-position score file: `S <empties> [<score at depth 0>, ...] <exact>`
/// (`Some(x)` or `None`), the format of `docs/benchmarks/othello/mpc_scores.txt`.
pub fn score_line(s: &DepthScores) -> String {
    format!("S {} {:?} {:?}", s.empties, s.by_depth, s.exact)
}

/// Least-squares line `y ~ a x + b` and residual deviation of `pairs` (`None` if too few).
pub fn regress(pairs: &[(f64, f64)]) -> Option<Fit> {
    let m = pairs.len() as f64;
    if pairs.len() < MIN_PAIRS {
        return None;
    }
    let (sx, sy) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
    let (mx, my) = (sx / m, sy / m);
    let (sxx, sxy) = pairs.iter().fold((0.0, 0.0), |(a, b), &(x, y)| {
        (a + (x - mx) * (x - mx), b + (x - mx) * (y - my))
    });
    let a = if sxx > 0.0 { sxy / sxx } else { 1.0 };
    let b = my - a * mx;
    let var = pairs
        .iter()
        .map(|&(x, y)| (y - a * x - b).powi(2))
        .sum::<f64>()
        / (m - 2.0);
    Some(Fit {
        a: a as f32,
        b: b as f32,
        sigma: var.sqrt() as f32,
    })
}

/// Least-squares plane `z ~ c0 + c1 x + c2 y` (`None` if singular).
pub fn plane(points: &[(f64, f64, f64)]) -> Option<[f64; 3]> {
    // normal equations, solved by Cramer's rule
    let mut s = [[0.0f64; 3]; 3];
    let mut t = [0.0f64; 3];
    for &(x, y, z) in points {
        let v = [1.0, x, y];
        for i in 0..3 {
            for j in 0..3 {
                s[i][j] += v[i] * v[j];
            }
            t[i] += v[i] * z;
        }
    }
    let det = |m: &[[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(&s);
    if d.abs() < 1e-9 {
        return None;
    }
    let mut out = [0.0; 3];
    for (c, o) in out.iter_mut().enumerate() {
        let mut m = s;
        for r in 0..3 {
            m[r][c] = t[r];
        }
        *o = det(&m) / d;
    }
    Some(out)
}

/// The fitted tables, as Rust source for `mpc.rs`; cells without enough data borrow a
/// neighbour's fit.
///
/// # Errors
/// [`FitError::TooFewPositions`] when not one midgame predictor can be fitted, so that every
/// table would hold placeholders.
pub fn fit_tables(scores: &[DepthScores]) -> Result<String, FitError> {
    use std::fmt::Write;
    let mut src = String::new();
    let mut mid = vec![[None::<Fit>; BUCKETS]; FIT_MAX_DEPTH + 1];
    let mut plane_points = Vec::new();
    for (deep, row) in mid.iter_mut().enumerate().skip(mpc::MIN_DEPTH as usize) {
        let shallow = mpc::shallow_depth(deep as u32) as usize;
        for (bucket, cell) in row.iter_mut().enumerate() {
            let pairs: Vec<(f64, f64)> = scores
                .iter()
                .filter(|s| {
                    (s.empties as usize / 10).min(BUCKETS - 1) == bucket && s.by_depth.len() > deep
                })
                .map(|s| (f64::from(s.by_depth[shallow]), f64::from(s.by_depth[deep])))
                .collect();
            *cell = regress(&pairs);
            if let Some(f) = cell {
                plane_points.push((deep as f64, bucket as f64 * 10.0 + 5.0, f64::from(f.sigma)));
            }
        }
    }
    if plane_points.is_empty() {
        return Err(FitError::TooFewPositions(scores.len()));
    }
    let pl = plane(&plane_points).unwrap_or([2.0, 0.3, 0.0]);
    let _ = writeln!(
        src,
        "/// Midgame predictors by deep depth (rows 0..MIN_DEPTH unused) and empties bucket."
    );
    let _ = writeln!(
        src,
        "pub const MID: [[Fit; BUCKETS]; FIT_MAX_DEPTH + 1] = ["
    );
    for row in &mid {
        let cells: Vec<String> = (0..BUCKETS)
            .map(|b| {
                // buckets without data borrow the nearest fitted one
                let f = (0..BUCKETS)
                    .filter_map(|c| row[c].map(|f| ((c as i32 - b as i32).abs(), f)))
                    .min_by_key(|(dist, _)| *dist)
                    .map_or(
                        Fit {
                            a: 1.0,
                            b: 0.0,
                            sigma: 1.0,
                        },
                        |(_, f)| f,
                    );
                format!("f({:.3}, {:.3}, {:.3})", f.a, f.b, f.sigma.max(1.0))
            })
            .collect();
        let _ = writeln!(src, "    [{}],", cells.join(", "));
    }
    let _ = writeln!(src, "];");
    let _ = writeln!(
        src,
        "/// Sigma plane `[c, per depth, per empty]` for depths beyond [`FIT_MAX_DEPTH`]."
    );
    let _ = writeln!(
        src,
        "pub const SIGMA_PLANE: [f32; 3] = [{:.4}, {:.4}, {:.4}];",
        pl[0], pl[1], pl[2]
    );
    // endgame: exact score on the shallow score, by empties (pairs of neighbours pooled)
    let _ = writeln!(
        src,
        "/// Endgame predictors of the exact score by empties (sigma 0: not fitted)."
    );
    let _ = writeln!(src, "pub const END: [Fit; {}] = [", END_FIT_MAX + 1);
    let mut end_points = Vec::new();
    for n in 0..=END_FIT_MAX {
        let shallow = mpc::shallow_depth(n) as usize;
        let pairs: Vec<(f64, f64)> = scores
            .iter()
            .filter(|s| s.empties.abs_diff(n) <= 1 && s.empties >= 10 && s.by_depth.len() > shallow)
            .filter_map(|s| {
                s.exact.map(|e| {
                    (
                        f64::from(s.by_depth[shallow.min(s.by_depth.len() - 1)]),
                        f64::from(e),
                    )
                })
            })
            .collect();
        let fit = if n >= 10 { regress(&pairs) } else { None };
        match fit {
            Some(f) => {
                end_points.push((f64::from(n), f64::from(f.sigma)));
                let _ = writeln!(
                    src,
                    "    f({:.3}, {:.3}, {:.3}),",
                    f.a,
                    f.b,
                    f.sigma.max(1.0)
                );
            }
            None => {
                let _ = writeln!(src, "    f(1.0, 0.0, 0.0),");
            }
        }
    }
    let _ = writeln!(src, "];");
    let slope = regress(&end_points).map_or(0.1, |f| f64::from(f.a).max(0.0));
    let _ = writeln!(
        src,
        "/// Growth of the endgame sigma per empty beyond the fitted range."
    );
    let _ = writeln!(src, "pub const END_SIGMA_SLOPE: f32 = {slope:.4};");
    Ok(src)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_recovers_a_line() {
        let pairs: Vec<(f64, f64)> = (0..20)
            .map(|i| {
                (
                    f64::from(i),
                    2.0 * f64::from(i) + 1.0 + if i % 2 == 0 { 0.5 } else { -0.5 },
                )
            })
            .collect();
        let f = regress(&pairs).unwrap();
        assert!((f.a - 2.0).abs() < 0.01 && (f.b - 1.0).abs() < 0.1, "{f:?}");
        assert!((f.sigma - 0.51).abs() < 0.05, "{f:?}");
        let pts: Vec<(f64, f64, f64)> = (0..30)
            .map(|i| {
                (
                    f64::from(i % 5),
                    f64::from(i / 5),
                    1.0 + 2.0 * f64::from(i % 5) - 0.5 * f64::from(i / 5),
                )
            })
            .collect();
        let p = plane(&pts).unwrap();
        assert!(
            (p[0] - 1.0).abs() < 1e-6 && (p[1] - 2.0).abs() < 1e-6 && (p[2] + 0.5).abs() < 1e-6
        );
    }

    #[test]
    fn random_positions_are_seeded_and_in_range() {
        let a = random_positions(40, 7, 12, 58);
        assert_eq!(a.len(), 40);
        assert_eq!(a, random_positions(40, 7, 12, 58));
        assert_ne!(a, random_positions(40, 8, 12, 58));
        assert!(a
            .iter()
            .all(|b| (12..=58).contains(&b.empty_count()) && b.moves() != 0));
    }

    #[test]
    fn no_data_fits_no_tables() {
        // no positions at all, and too few for any predictor: refused, never placeholder tables
        assert_eq!(fit_tables(&[]), Err(FitError::TooFewPositions(0)));
        let few = score_boards(&random_positions(3, 1, 30, 40), None, || {});
        assert_eq!(fit_tables(&few), Err(FitError::TooFewPositions(3)));
    }
}
