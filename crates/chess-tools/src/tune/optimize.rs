//! The loss, its gradient over the whole weight vector (the king danger's through its
//! penalty's slope, the complexity's through its clamp), the fit of the sigmoid scale K and the
//! Adam steps. Sums run over a fixed number of chunks added in chunk order, so a run gives the
//! same numbers whatever the number of threads.

use super::dataset::Entry;
use ply_chess_engine::layout;

/// Chunks a pass over the data is cut into (independent of the thread count).
const CHUNKS: usize = 64;

/// The expected score (0..1) of an evaluation `e` (centipawns) at sigmoid scale `k`:
/// `1 / (1 + 10^(−k·e/400))`.
#[inline]
pub fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// What a position's prediction is compared with: the game result blended with the search
/// score (`lambda` 1: the result alone; 0: the score alone).
#[inline]
pub fn target(entry: &Entry, k: f64, lambda: f64) -> f64 {
    lambda * entry.result as f64 + (1.0 - lambda) * sigmoid(k, entry.score as f64)
}

/// Runs `f` on each chunk of `data` on `threads` threads and returns the results in chunk
/// order.
fn chunked<T: Send>(data: &[Entry], threads: usize, f: impl Fn(&[Entry]) -> T + Sync) -> Vec<T> {
    let size = data.len().div_ceil(CHUNKS).max(1);
    let chunks: Vec<&[Entry]> = data.chunks(size).collect();
    let threads = threads.clamp(1, chunks.len().max(1));
    let mut out: Vec<Option<T>> = (0..chunks.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let f = &f;
        let chunks = &chunks;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (t..chunks.len())
                        .step_by(threads)
                        .map(|c| (c, f(chunks[c])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            for (c, v) in h.join().expect("a tuner thread panicked") {
                out[c] = Some(v);
            }
        }
    });
    out.into_iter().flatten().collect()
}

/// Mean squared error between the predictions with weights `w` and the targets.
pub fn loss(data: &[Entry], w: &[[f64; 2]], k: f64, lambda: f64, threads: usize) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sums = chunked(data, threads, |chunk| {
        chunk
            .iter()
            .map(|e| {
                let d = sigmoid(k, e.evaluate(w)) - target(e, k, lambda);
                d * d
            })
            .sum::<f64>()
    });
    sums.iter().sum::<f64>() / data.len() as f64
}

/// The gradient of [`loss`] with respect to every weight (`[mg, eg]` each).
pub fn gradient(
    data: &[Entry],
    w: &[[f64; 2]],
    k: f64,
    lambda: f64,
    threads: usize,
) -> Vec<[f64; 2]> {
    let n = w.len();
    let parts = chunked(data, threads, |chunk| {
        let mut g = vec![[0.0f64; 2]; n];
        for e in chunk {
            let f = e.forward(w);
            let s = sigmoid(k, f.value);
            // d(loss)/d(eval) for this position: 2 (s − y) s (1 − s) k ln10 / 400
            let d = 2.0 * (s - target(e, k, lambda)) * s * (1.0 - s) * k * std::f64::consts::LN_10
                / 400.0;
            let (dm, de_out) = (d * e.mg_share as f64, d * e.eg_share as f64);
            // the complexity's weights (endgame halves), then the endgame half before it
            for (i, &c) in e.complexity.iter().enumerate() {
                if c != 0 {
                    g[layout::COMPLEXITY + i][1] += de_out * f.complexity_slope * c as f64;
                }
            }
            let de = de_out * f.eg_slope;
            for &(i, c) in e.coefs.iter() {
                let gi = &mut g[i as usize];
                gi[0] += dm * c as f64;
                gi[1] += de * c as f64;
            }
            // The king danger: the penalty's slope times each feature's count, against White
            // (subtracted) and against Black (added).
            for (king, sign) in [(0, -1.0), (1, 1.0)] {
                let slope = f.danger_slope[king];
                let (sm, se) = (sign * dm * slope[0], sign * de * slope[1]);
                for &(i, c) in e.danger[king].iter() {
                    let gi = &mut g[layout::KING_DANGER + i as usize];
                    gi[0] += sm * c as f64;
                    gi[1] += se * c as f64;
                }
            }
        }
        g
    });
    let mut total = vec![[0.0f64; 2]; n];
    for part in parts {
        for (t, p) in total.iter_mut().zip(part) {
            t[0] += p[0];
            t[1] += p[1];
        }
    }
    let scale = 1.0 / data.len().max(1) as f64;
    for t in &mut total {
        t[0] *= scale;
        t[1] *= scale;
    }
    total
}

/// The sigmoid scale K that best fits the game results (`lambda` 1) with the weights `w`:
/// a golden-section search over 0.05..5.
pub fn fit_k(data: &[Entry], w: &[[f64; 2]], threads: usize) -> f64 {
    let f = |k: f64| loss(data, w, k, 1.0, threads);
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - r * (b - a), a + r * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// Adam's state over every weight.
pub struct Adam {
    m: Vec<[f64; 2]>,
    v: Vec<[f64; 2]>,
    t: i32,
    /// Step size (centipawns a step, roughly).
    pub lr: f64,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPS: f64 = 1e-12;

    /// A fresh state for `n` weights.
    pub fn new(n: usize, lr: f64) -> Adam {
        Adam {
            m: vec![[0.0; 2]; n],
            v: vec![[0.0; 2]; n],
            t: 0,
            lr,
        }
    }

    /// One step of `w` along the gradient `g`. Weights whose gradient has always been 0 (never
    /// seen in the data) do not move.
    pub fn step(&mut self, w: &mut [[f64; 2]], g: &[[f64; 2]]) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        for i in 0..w.len() {
            for h in 0..2 {
                let gi = g[i][h];
                self.m[i][h] = Self::BETA1 * self.m[i][h] + (1.0 - Self::BETA1) * gi;
                self.v[i][h] = Self::BETA2 * self.v[i][h] + (1.0 - Self::BETA2) * gi * gi;
                if self.v[i][h] > 0.0 {
                    let m = self.m[i][h] / c1;
                    let v = self.v[i][h] / c2;
                    w[i][h] -= self.lr * m / (v.sqrt() + Self::EPS);
                }
            }
        }
    }
}
