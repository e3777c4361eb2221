//! Fitting the engine's win/draw/loss model ([`ply_chess_engine::WdlModel`]) to self-play
//! results, and measuring how well a model predicts them.
//!
//! Every packed record (`ply-chess datagen --format bin`) holds a search score, the material on
//! the board and the result of its game. The records are counted into cells of (material,
//! score) with their wins, draws and losses ([`Counts`]); the fit maximises the likelihood of the
//! results under the model over those cells with Adam (full batch: the cells, not the records,
//! are the work, so tens of millions of records fit in seconds). Whole games are held out by a
//! hash of their index, so the calibration ([`calibration`]) is measured on games the fit never
//! saw.

use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use ply_chess_engine::{role_material, WdlModel, MATERIAL_RANGE, MATERIAL_SCALE};

use crate::datagen::packed::{Outcome, PackedPosition, RECORD_BYTES};
use crate::nnue::dataset::DataError;

/// Scores are counted from `-SCORE_LIMIT` to `SCORE_LIMIT` centipawns (datagen keeps no record
/// beyond ±2000); larger ones go to the end cells.
pub const SCORE_LIMIT: i32 = 2000;

const SCORES: usize = 2 * SCORE_LIMIT as usize + 1;
const MATERIALS: usize = MATERIAL_RANGE.1 as usize + 1;

/// Results counted by (material, score): wins, draws and losses of the side the score is for.
#[derive(Clone, Debug)]
pub struct Counts {
    cells: Vec<[u64; 3]>,
    records: u64,
}

impl Default for Counts {
    fn default() -> Counts {
        Counts {
            cells: vec![[0; 3]; MATERIALS * SCORES],
            records: 0,
        }
    }
}

impl Counts {
    /// Counts one position: its score (centipawns, White's view), its material (as
    /// [`ply_chess_engine::material`] counts it) and its game's result.
    pub fn add(&mut self, white_score: i32, material: u32, outcome: Outcome) {
        let m = material.clamp(MATERIAL_RANGE.0, MATERIAL_RANGE.1) as usize;
        let s = (white_score.clamp(-SCORE_LIMIT, SCORE_LIMIT) + SCORE_LIMIT) as usize;
        let r = match outcome {
            Outcome::WhiteWin => 0,
            Outcome::Draw => 1,
            Outcome::BlackWin => 2,
        };
        self.cells[m * SCORES + s][r] += 1;
        self.records += 1;
    }

    /// Positions counted.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// The cells that hold positions: (material, score, [wins, draws, losses]).
    pub fn cells(&self) -> impl Iterator<Item = (u32, i32, [u64; 3])> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.iter().sum::<u64>() > 0)
            .map(|(i, c)| ((i / SCORES) as u32, (i % SCORES) as i32 - SCORE_LIMIT, *c))
    }
}

/// The training and held-out counts of some files.
#[derive(Clone, Debug, Default)]
pub struct Split {
    /// Positions of games used for the fit.
    pub train: Counts,
    /// Positions of held-out games.
    pub held: Counts,
}

/// Whether game `game` of the `file`-th file is held out: a hash of both below `fraction`.
pub fn held_out(file: usize, game: u32, fraction: f64) -> bool {
    let limit = (fraction.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
    fraction > 0.0
        && ply_batch::splitmix(((file as u64) << 32) ^ u64::from(game) ^ 0x7764_6c00) < limit
}

/// The material of a record, read from its piece codes.
fn record_material(p: &PackedPosition) -> u32 {
    p.pieces.iter().map(|(_, pc)| role_material(pc.role)).sum()
}

/// Counts the records of packed files, holding out `fraction` of each file's games; at most
/// `limit` records a file when given (the first ones).
///
/// # Errors
/// I/O errors, a length that is not a whole number of records, a bad record.
pub fn count_files(
    paths: &[PathBuf],
    fraction: f64,
    limit: Option<u64>,
) -> Result<Split, DataError> {
    let mut split = Split::default();
    for (f, path) in paths.iter().enumerate() {
        count_file(path, f, fraction, limit, &mut split)?;
    }
    Ok(split)
}

fn count_file(
    path: &Path,
    f: usize,
    fraction: f64,
    limit: Option<u64>,
    split: &mut Split,
) -> Result<(), DataError> {
    let io = |e| DataError::Io(path.to_path_buf(), e);
    let file = std::fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len % RECORD_BYTES as u64 != 0 {
        return Err(DataError::Length(path.to_path_buf(), len));
    }
    let n = (len / RECORD_BYTES as u64).min(limit.unwrap_or(u64::MAX));
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut rec = [0u8; RECORD_BYTES];
    for index in 0..n {
        reader.read_exact(&mut rec).map_err(io)?;
        let p = PackedPosition::decode(&rec).map_err(|source| DataError::Record {
            path: path.to_path_buf(),
            index,
            source,
        })?;
        let counts = if held_out(f, p.game, fraction) {
            &mut split.held
        } else {
            &mut split.train
        };
        counts.add(i32::from(p.score), record_material(&p), p.outcome);
    }
    Ok(())
}

/// The mean negative log-likelihood (nats a position) of the counted results under `model`.
pub fn log_loss(model: &WdlModel, counts: &Counts) -> f64 {
    let (mut sum, mut n) = (0.0, 0u64);
    for (m, s, c) in counts.cells() {
        let (pw, pd, pl) = chances(model, f64::from(s), m);
        sum -= c[0] as f64 * pw.ln() + c[1] as f64 * pd.ln() + c[2] as f64 * pl.ln();
        n += c.iter().sum::<u64>();
    }
    sum / n.max(1) as f64
}

/// Smallest chance the likelihood takes (keeps a logarithm finite).
const FLOOR: f64 = 1e-9;

fn chances(model: &WdlModel, v: f64, m: u32) -> (f64, f64, f64) {
    let pw = model.win_chance(v, m).max(FLOOR);
    let pl = model.win_chance(-v, m).max(FLOOR);
    (pw, (1.0 - pw - pl).max(FLOOR), pl)
}

/// Fit settings.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Adam steps.
    pub steps: usize,
    /// First learning rate (centipawns a step), decayed linearly to a hundredth of it.
    pub rate: f64,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            steps: 1500,
            rate: 2.0,
        }
    }
}

/// The fit works on polynomials in `u = (t - CENTRE) / HALF_WIDTH`, which runs from -1 to 1
/// over the material range: the powers of `u` are far less alike than those of `t`, so the
/// steps of one coefficient do not undo another's.
const CENTRE: f64 = (MATERIAL_RANGE.0 + MATERIAL_RANGE.1) as f64 / 2.0 / MATERIAL_SCALE;
const HALF_WIDTH: f64 = (MATERIAL_RANGE.1 - MATERIAL_RANGE.0) as f64 / 2.0 / MATERIAL_SCALE;

/// The coefficients of `p(scale * x + offset)` in `x`, for `p` with coefficients `c`.
fn substitute(c: &[f64; 4], scale: f64, offset: f64) -> [f64; 4] {
    // binomial expansion of (scale x + offset)^i
    let binomial = [
        [1.0, 0.0, 0.0, 0.0],
        [1.0, 1.0, 0.0, 0.0],
        [1.0, 2.0, 1.0, 0.0],
        [1.0, 3.0, 3.0, 1.0],
    ];
    let mut out = [0.0; 4];
    for (i, &ci) in c.iter().enumerate() {
        for (k, o) in out.iter_mut().enumerate().take(i + 1) {
            *o += ci * binomial[i][k] * scale.powi(k as i32) * offset.powi((i - k) as i32);
        }
    }
    out
}

/// The gradient of the mean negative log-likelihood in the model's eight coefficients (in `u`).
fn gradient(model: &WdlModel, cells: &[(u32, i32, [u64; 3])], n: f64) -> [f64; 8] {
    let mut g = [0.0; 8];
    for &(m, s, c) in cells {
        let t = f64::from(m.clamp(MATERIAL_RANGE.0, MATERIAL_RANGE.1)) / MATERIAL_SCALE;
        let t = (t - CENTRE) / HALF_WIDTH;
        let (a, b) = model.params(m);
        let b = b.max(1.0);
        let v = f64::from(s);
        let (xw, xl) = ((v - a) / b, (-v - a) / b);
        let (pw, pl) = (sigmoid(xw), sigmoid(xl));
        let pd = (1.0 - pw - pl).max(FLOOR);
        let [nw, nd, nl] = c.map(|x| x as f64);
        // d log-likelihood / d x for the win and the loss curve
        let dw = nw * (1.0 - pw) - nd * pw * (1.0 - pw) / pd;
        let dl = nl * (1.0 - pl) - nd * pl * (1.0 - pl) / pd;
        let da = -(dw + dl) / b;
        let db = -(dw * xw + dl * xl) / b;
        let mut power = 1.0;
        for i in 0..4 {
            // descent on the negative log-likelihood
            g[i] -= da * power / n;
            g[4 + i] -= db * power / n;
            power *= t;
        }
    }
    g
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Fits a model to `counts`, starting from `start`; `progress` gets each hundredth step's number
/// and log-loss.
///
/// # Errors
/// [`DataError::Empty`] when nothing is counted.
pub fn fit(
    counts: &Counts,
    start: WdlModel,
    options: FitOptions,
    mut progress: impl FnMut(usize, f64),
) -> Result<WdlModel, DataError> {
    let cells: Vec<_> = counts.cells().collect();
    if cells.is_empty() {
        return Err(DataError::Empty);
    }
    let n = counts.records() as f64;
    let mut theta = [0.0; 8];
    theta[..4].copy_from_slice(&substitute(&start.a, HALF_WIDTH, CENTRE));
    theta[4..].copy_from_slice(&substitute(&start.b, HALF_WIDTH, CENTRE));
    let (mut m1, mut m2) = ([0.0; 8], [0.0; 8]);
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-12);
    let model_of = |t: &[f64; 8]| WdlModel {
        a: substitute(
            &[t[0], t[1], t[2], t[3]],
            1.0 / HALF_WIDTH,
            -CENTRE / HALF_WIDTH,
        ),
        b: substitute(
            &[t[4], t[5], t[6], t[7]],
            1.0 / HALF_WIDTH,
            -CENTRE / HALF_WIDTH,
        ),
    };
    for step in 1..=options.steps {
        let model = model_of(&theta);
        let g = gradient(&model, &cells, n);
        let rate = options.rate * (1.0 - 0.99 * (step - 1) as f64 / options.steps as f64);
        for i in 0..8 {
            m1[i] = beta1 * m1[i] + (1.0 - beta1) * g[i];
            m2[i] = beta2 * m2[i] + (1.0 - beta2) * g[i] * g[i];
            let mh = m1[i] / (1.0 - beta1.powi(step as i32));
            let vh = m2[i] / (1.0 - beta2.powi(step as i32));
            theta[i] -= rate * mh / (vh.sqrt() + eps);
        }
        if step % 100 == 0 || step == options.steps {
            progress(step, log_loss(&model_of(&theta), counts));
        }
    }
    Ok(model_of(&theta))
}

/// One row of a calibration table: the positions whose score falls in `[low, high]`
/// (centipawns, the view of the side the score is for).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bin {
    /// Lowest score of the bin.
    pub low: i32,
    /// Highest score of the bin.
    pub high: i32,
    /// Positions in it.
    pub positions: u64,
    /// Mean predicted win, draw and loss chances.
    pub predicted: [f64; 3],
    /// Observed win, draw and loss frequencies.
    pub observed: [f64; 3],
}

impl Bin {
    /// Predicted minus observed expected score (win 1, draw ½).
    pub fn error(&self) -> f64 {
        let e = |p: &[f64; 3]| p[0] + p[1] / 2.0;
        e(&self.predicted) - e(&self.observed)
    }
}

/// The score bins of [`calibration`]: edges in centipawns.
pub const BIN_EDGES: [i32; 14] = [
    -2000, -600, -400, -250, -150, -75, -25, 25, 75, 150, 250, 400, 600, 2000,
];

/// Predicted against observed results by score bin ([`BIN_EDGES`]), and within `materials`
/// (inclusive) only.
pub fn calibration(model: &WdlModel, counts: &Counts, materials: (u32, u32)) -> Vec<Bin> {
    let mut bins: Vec<Bin> = BIN_EDGES
        .windows(2)
        .enumerate()
        .map(|(i, w)| Bin {
            low: if i == 0 { w[0] } else { w[0] + 1 },
            high: w[1],
            positions: 0,
            predicted: [0.0; 3],
            observed: [0.0; 3],
        })
        .collect();
    for (m, s, c) in counts.cells() {
        if m < materials.0 || m > materials.1 {
            continue;
        }
        let Some(bin) = bins.iter_mut().find(|b| s >= b.low && s <= b.high) else {
            continue;
        };
        let n: u64 = c.iter().sum();
        let (pw, pd, pl) = chances(model, f64::from(s), m);
        bin.positions += n;
        for (k, p) in [pw, pd, pl].into_iter().enumerate() {
            bin.predicted[k] += p * n as f64;
            bin.observed[k] += c[k] as f64;
        }
    }
    for bin in &mut bins {
        let n = bin.positions.max(1) as f64;
        for k in 0..3 {
            bin.predicted[k] /= n;
            bin.observed[k] /= n;
        }
    }
    bins
}

/// The Rust source of `model` that the engine includes (`crates/chess-engine/src/wdl_model.in`);
/// `provenance` becomes its comment lines.
pub fn model_source(model: &WdlModel, provenance: &[String]) -> String {
    let mut s = String::new();
    for line in provenance {
        s.push_str(&format!("// {line}\n"));
    }
    let list = |c: &[f64; 4]| {
        c.iter()
            .map(|x| format!("{x:.4}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    s.push_str(&format!(
        "WdlModel {{\n    a: [{}],\n    b: [{}],\n}}\n",
        list(&model.a),
        list(&model.b)
    ));
    s
}

/// Where a fit starts when nothing better is known: an even chance at 1.5 pawns, spread 0.8.
pub const WDL_START: WdlModel = WdlModel {
    a: [150.0, 0.0, 0.0, 0.0],
    b: [80.0, 0.0, 0.0, 0.0],
};

#[cfg(test)]
mod tests {
    use super::*;
    use ply_batch::rng::SplitMix64;

    /// Results drawn from a known model are fitted back to (nearly) that model.
    #[test]
    fn a_fit_recovers_the_model_that_made_the_data() {
        let truth = WdlModel {
            a: [60.0, 40.0, 80.0, 20.0],
            b: [40.0, 30.0, 10.0, 5.0],
        };
        let mut counts = Counts::default();
        let mut rng = SplitMix64::new(7);
        for _ in 0..400_000 {
            let m = 17 + (rng.next() % 62) as u32;
            let s = 10 * (rng.next() % 161) as i32 - 800;
            let u = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            let (pw, _, pl) = chances(&truth, f64::from(s), m);
            let outcome = if u < pw {
                Outcome::WhiteWin
            } else if u < 1.0 - pl {
                Outcome::Draw
            } else {
                Outcome::BlackWin
            };
            counts.add(s, m, outcome);
        }
        let start = WdlModel {
            a: [150.0, 0.0, 0.0, 0.0],
            b: [80.0, 0.0, 0.0, 0.0],
        };
        let model = fit(&counts, start, FitOptions::default(), |_, _| {}).unwrap();
        assert!(log_loss(&model, &counts) <= log_loss(&truth, &counts) + 1e-3);
        for m in [20, 40, 60, 78] {
            let (a, b) = model.params(m);
            let (ta, tb) = truth.params(m);
            assert!((a - ta).abs() < 12.0, "a({m}) {a} vs {ta}");
            assert!((b - tb).abs() < 8.0, "b({m}) {b} vs {tb}");
        }
        for bin in calibration(&model, &counts, MATERIAL_RANGE) {
            assert!(bin.error().abs() < 0.02, "{bin:?}");
        }
    }

    #[test]
    fn substitution_changes_the_variable_not_the_polynomial() {
        let c = [3.0, -2.0, 0.5, 1.25];
        let eval = |c: &[f64; 4], x: f64| ((c[3] * x + c[2]) * x + c[1]) * x + c[0];
        let u = substitute(&c, 0.5, 0.8);
        let back = substitute(&u, 2.0, -1.6);
        for x in [-1.0, 0.0, 0.3, 1.7] {
            assert!((eval(&u, x) - eval(&c, 0.5 * x + 0.8)).abs() < 1e-12);
            assert!((eval(&back, x) - eval(&c, x)).abs() < 1e-12);
        }
    }

    /// The built-in model on games of the shared self-play file that its fit held out (the file
    /// was the first of the fit, so the same hash picks them): every score bin's predicted
    /// expected score within 0.05 of the observed one over all material, within 0.1 in each
    /// material class (the logistic shape fits bare endgames least well), and a log-loss close
    /// to the fitted games'.
    #[test]
    fn the_built_in_model_is_calibrated_on_held_out_games() {
        let Some(path) = ply_testkit::shared("chess/datagen/chess-gen4b-seed901.bin") else {
            return;
        };
        let split = count_files(&[path], 0.1, Some(1_500_000)).expect("the shared records");
        assert!(split.held.records() > 100_000, "{}", split.held.records());
        let model = ply_chess_engine::WDL_MODEL;
        let (train, held) = (
            log_loss(&model, &split.train),
            log_loss(&model, &split.held),
        );
        assert!(held < train + 0.02, "held-out log-loss {held} vs {train}");
        // far better than a model that knows nothing of the score
        let blind = WdlModel {
            a: [300.0, 0.0, 0.0, 0.0],
            b: [1e6, 0.0, 0.0, 0.0],
        };
        assert!(held < log_loss(&blind, &split.held) - 0.3);
        for (range, tolerance) in [
            (MATERIAL_RANGE, 0.05),
            ((0, 30), 0.1),
            ((31, 50), 0.1),
            ((51, 78), 0.1),
        ] {
            for bin in calibration(&model, &split.held, range) {
                if bin.positions >= 2000 {
                    assert!(bin.error().abs() < tolerance, "{range:?} {bin:?}");
                }
            }
        }
    }

    #[test]
    fn held_out_games_are_a_stable_fraction() {
        let held = (0..10_000).filter(|&g| held_out(0, g, 0.1)).count();
        assert!((800..1200).contains(&held), "{held}");
        assert!((0..1000).all(|g| !held_out(3, g, 0.0)));
        assert_eq!(held_out(2, 17, 0.5), held_out(2, 17, 0.5));
    }

    #[test]
    fn model_source_is_an_expression_of_the_model() {
        let model = WdlModel {
            a: [1.0, 2.0, 3.0, 4.5],
            b: [5.0, 6.0, 7.0, 8.25],
        };
        let s = model_source(&model, &["a line".into()]);
        assert!(s.starts_with("// a line\nWdlModel {"));
        assert!(s.contains("a: [1.0000, 2.0000, 3.0000, 4.5000]"));
        assert!(s.contains("b: [5.0000, 6.0000, 7.0000, 8.2500]"));
    }

    #[test]
    fn a_bad_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.bin");
        std::fs::write(&path, [0u8; 33]).unwrap();
        assert!(matches!(
            count_files(std::slice::from_ref(&path), 0.1, None),
            Err(DataError::Length(..))
        ));
        std::fs::write(&path, [0xffu8; 32]).unwrap();
        assert!(matches!(
            count_files(&[path], 0.1, None),
            Err(DataError::Record { .. })
        ));
        assert!(matches!(
            fit(
                &Counts::default(),
                WDL_START,
                FitOptions::default(),
                |_, _| {}
            ),
            Err(DataError::Empty)
        ));
    }
}
