//! Held-out mean absolute error of a set of weights, per number of empties, separately against
//! exact labels (perfect-play scores) and against all labels (final scores of the games).

use super::dataset::Sample;
use super::fit::Model;

/// Errors at one number of empties.
#[derive(Clone, Copy, Debug, Default)]
pub struct MaeRow {
    /// Number of empties.
    pub empties: u8,
    /// Samples with an exact label and their mean absolute error (discs).
    pub exact: (usize, f64),
    /// All samples and their mean absolute error against their label (discs).
    pub all: (usize, f64),
}

/// Mean absolute errors of `w` on `samples`, one row per number of empties in `empties`.
pub fn measure(
    w: &Model,
    samples: &[Sample],
    empties: std::ops::RangeInclusive<u8>,
) -> Vec<MaeRow> {
    let mut rows: Vec<MaeRow> = empties
        .map(|e| MaeRow {
            empties: e,
            ..MaeRow::default()
        })
        .collect();
    for s in samples {
        let Some(row) = rows.iter_mut().find(|r| r.empties == s.empties) else {
            continue;
        };
        let err = f64::from((w.evaluate(&s.board) - f32::from(s.label)).abs());
        row.all.0 += 1;
        row.all.1 += err;
        if s.exact {
            row.exact.0 += 1;
            row.exact.1 += err;
        }
    }
    for r in &mut rows {
        r.all.1 /= r.all.0.max(1) as f64;
        r.exact.1 /= r.exact.0.max(1) as f64;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::{Dataset, Split};
    use ply_othello::wthor;

    /// The shipped weights, measured on the held-out WTHOR games (data nobody here wrote):
    /// guards against a broken embedding or a feature/packing regression.
    #[test]
    fn shipped_weights_on_held_out_wthor_games() {
        let Some(dir) = ply_testkit::shared("othello/wthor") else {
            return;
        };
        let files = wthor::read_dir(&dir).expect("WTHOR files read");
        let ds = Dataset::from_wthor(&files, &[Split::Test], |_| {});
        assert!(ds.train.is_empty() && ds.validation.is_empty() && ds.test.len() > 500_000);
        let w = ply_othello_engine::eval::embedded_weights().expect("embedded weights");
        let rows = measure(&Model::engine(w), &ds.test, 24..=24);
        let (n, mae) = rows[0].exact;
        assert!(n > 10_000, "{n} exact samples");
        // 5.75 discs when trained (docs/benchmarks/othello-training.md); a zero evaluation
        // scores about 14.4
        assert!(mae < 6.0, "held-out MAE at 24 empties {mae}");
    }
}
